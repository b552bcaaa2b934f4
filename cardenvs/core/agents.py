"""How the core turns an agent's name into an agent, without importing anything above it.

The batch core, the vector envs, the checker, the evaluator and the replay tools accept an agent as an object with
``act(obs, mask, states, players)``, or by name ("random", "heuristic", "ppo:PATH"). The core never resolves a
name itself: the package that knows the agents hands its resolver down. ``import cardenvs`` (which runs before any
core module is imported) installs :mod:`cardenvs.agents`' ``make_agent``, ``default_pilot`` and ``describe_pilot``
with :func:`install_agents`; :func:`register_agent_factory` puts another factory in front of it (a project's own
agents, a test's fakes). So the dependency points down: the agents import the core, the face wires them in.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Protocol

from .errors import BadArgumentError

if TYPE_CHECKING:  # annotations only: ``import cardenvs`` (and so a CLI's --help) does not wait for NumPy
    import numpy as np

__all__ = ["Agent", "AgentFactory", "agent_factory", "default_pilot", "describe_pilot", "install_agents",
           "make_agent", "register_agent_factory"]


class Agent(Protocol):
    """A batched agent: one action per row, chosen from that row's mask."""

    def act(self, obs: np.ndarray, mask: np.ndarray, states: np.ndarray | None = None,
            players: np.ndarray | None = None) -> np.ndarray: ...


class AgentFactory(Protocol):
    """``factory(game, kind, seed=None, **options) -> Agent``: resolves an agent's name for a game."""

    def __call__(self, game: Any, kind: Any, seed: int | None = None, **kwargs: Any) -> Agent: ...


class _Agents(NamedTuple):
    make: AgentFactory
    default_pilot: Callable[[Any], str] | None
    describe_pilot: Callable[[Any, str], str] | None


_installed: _Agents | None = None  # the agents package's, installed by ``import cardenvs``
_override: _Agents | None = None  # register_agent_factory's


def install_agents(make: AgentFactory, default_pilot: Callable[[Any], str] | None = None,
                   describe_pilot: Callable[[Any, str], str] | None = None) -> None:
    """The default resolver of agent names and its pilot chooser and describer (``import cardenvs`` installs the
    agents package's)."""
    global _installed
    _installed = _Agents(make, default_pilot, describe_pilot)


def register_agent_factory(factory: AgentFactory | None) -> None:
    """Resolve agent names with ``factory(game, kind, seed=...)`` from now on, ahead of the installed agents (None
    restores them). Under a registered factory :func:`default_pilot` is "random" and :func:`describe_pilot` empty."""
    global _override
    _override = None if factory is None else _Agents(factory, None, None)


def _current() -> _Agents:
    agents = _override or _installed
    if agents is None:  # only a core module loaded without its package, which Python's imports never do
        raise BadArgumentError("no agent factory is installed: import cardenvs, or pass agent objects")
    return agents


def agent_factory() -> AgentFactory:
    """The factory that resolves agent names now."""
    return _current().make


def make_agent(game: Any, kind: Any, seed: int | None = None, **kwargs: Any) -> Any:
    """An agent for ``game``: objects with ``act`` pass through, names go to the factory."""
    if hasattr(kind, "act"):
        return kind
    return _current().make(game, kind, seed=seed, **kwargs)


def default_pilot(game: Any) -> str:
    """The strongest pilot the install can run for ``game`` (the shipped policy, else the heuristic, else random),
    as the installed agents decide; "random" when they have no opinion."""
    chooser = _current().default_pilot
    return chooser(game) if chooser is not None else "random"


def describe_pilot(game: Any, kind: str) -> str:
    """One phrase saying what a pilot is ("shipped policy, 3,000,000 steps, ...", "rule-based heuristic"), or ""."""
    describe = _current().describe_pilot
    return describe(game, kind) if describe is not None else ""
