"""How the core turns an agent's name into an agent, without importing the agents package.

The batch core, the vector envs, the checker, the evaluator and the replay tools accept an agent by name ("random",
"heuristic", "ppo:PATH") or as an object with ``act(obs, mask, states, players)``. Names are resolved by one
factory, ``(game, kind, seed=...) -> agent``: by default :func:`cardenvs.agents.make_agent`, looked up by its module
name the first time a name has to be resolved, so that the core never imports the agents (which import the core).
:func:`register_agent_factory` puts another factory in its place (a project's own agents, a test's fakes).
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Protocol

import numpy as np

DEFAULT_FACTORY = "cardenvs.agents:make_agent"
_factory: Callable[..., Any] | None = None


class Agent(Protocol):
    """A batched agent: one action per row, chosen from that row's mask."""

    def act(self, obs: np.ndarray, mask: np.ndarray, states: np.ndarray | None = None,
            players: np.ndarray | None = None) -> np.ndarray: ...


def register_agent_factory(factory: Callable[..., Any] | None) -> None:
    """Resolve agent names with ``factory(game, kind, seed=...)`` from now on (None restores the default)."""
    global _factory
    _factory = factory


def agent_factory() -> Callable[..., Any]:
    if _factory is not None:
        return _factory
    module, name = DEFAULT_FACTORY.split(":")
    return getattr(importlib.import_module(module), name)


def make_agent(game: Any, kind: Any, seed: int | None = None, **kwargs: Any) -> Any:
    """An agent for ``game``: objects with ``act`` pass through, names go to the registered factory."""
    if hasattr(kind, "act"):
        return kind
    return agent_factory()(game, kind, seed=seed, **kwargs)



def default_pilot(game: Any) -> str:
    """The strongest pilot the install can run for ``game`` (the shipped policy, else the heuristic, else random),
    as the registered factory's package decides (``default_pilot`` beside it); "random" when it has no opinion."""
    module = importlib.import_module(DEFAULT_FACTORY.split(":")[0]) if _factory is None else None
    chooser = getattr(module, "default_pilot", None) if module is not None else None
    return chooser(game) if chooser is not None else "random"


def describe_pilot(game: Any, kind: str) -> str:
    """One phrase saying what a pilot is ("shipped policy, 3,000,000 steps, ...", "rule-based heuristic"), or ""."""
    module = importlib.import_module(DEFAULT_FACTORY.split(":")[0]) if _factory is None else None
    describe = getattr(module, "describe_pilot", None) if module is not None else None
    return describe(game, kind) if describe is not None else ""
