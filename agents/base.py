"""The batched agent protocol: ``act(obs, mask, states=None, players=None) -> actions``.

``obs`` is ``[M, obs_dim]`` as the game stores it (``spec.obs_dtype``: float32, or a compact observation's small
integers, whose float view is ``spec.float_observation(obs)``) and ``mask`` int8/bool ``[M, num_actions]`` for M
games at once; ``players`` (whose seat) and ``states`` are passed too, for rule-based agents that read the game
state through the game's own helpers. ``states`` is never the true rows: every caller hands the **seat view**
(``cardenvs.core.seat_view``: the opponent's unseen cards dealt in a canonical order, the seat's own deck order
canonical, the random key blanked), so an agent receives only what its seat may know, and a decision cannot depend
on the hidden cards (``check_game``'s honest-pilot check). :func:`state_inputs`, the gate of every state-reading
kernel, views any row that is not a view yet. An agent that reads no state says so with ``reads_state = False``;
callers then pass None.
"""
from __future__ import annotations

from typing import Any, Protocol

import numpy as np


class Agent(Protocol):
    name: str
    #: optional (default True): False when ``act`` reads only ``obs`` and ``mask``, so no view need be built
    reads_state: bool

    def act(
        self,
        obs: np.ndarray,
        mask: np.ndarray,
        states: np.ndarray | None = None,
        players: np.ndarray | None = None,
    ) -> np.ndarray: ...


def masked_uniform(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row (rows with no legal action get 0)."""
    noise = rng.random(mask.shape, dtype=np.float32) + 1.0  # > 0 so a legal action always beats an illegal one
    return np.argmax(noise * (mask != 0), axis=1).astype(np.int32)


def state_inputs(name: str, mask: np.ndarray, states: np.ndarray | None, players: np.ndarray | None):
    """Contiguous ``(states int32, masks int8, players int32)`` for a rule-based agent's kernel, or a clear error:
    shapes, dtypes and ranges are checked here, before anything reaches the kernel. The states returned are always
    seat views (``cardenvs.core.seat_view``): rows a caller passed as views for these seats are used as they are,
    any other rows are viewed here, so no kernel behind this gate reads a hidden card."""
    from cardenvs.core.registry import get_game
    from cardenvs.core.batch import int_array
    from cardenvs.core.errors import BadArgumentError

    if states is None or players is None:
        raise BadArgumentError(f"the {name} heuristic reads the game state: pass states and players")
    from cardenvs.core.rows import admit_rows
    from cardenvs.core.seat_view import is_view, seat_view

    spec = get_game(name)
    admit_rows(states)  # a batch's rows written from outside are checked before this kernel reads them (issue 43)
    states_ = np.asarray(states)
    if states_.dtype != np.int32 or states_.ndim != 2 or states_.shape[1] != spec.state_layout.size:
        raise BadArgumentError(f"states must be int32[M, {spec.state_layout.size}] rows of {name}, got "
                               f"{states_.dtype}{list(states_.shape)}")
    rows = states_.shape[0]
    mask_ = np.asarray(mask)
    if mask_.shape != (rows, spec.num_actions) or mask_.dtype.kind not in "biu":
        raise BadArgumentError(f"mask must be [{rows}, {spec.num_actions}] of 0/1, got {mask_.dtype}{list(mask_.shape)}")
    seats = int_array(players, "players", rows, -1, 1)
    if not is_view(states_, seats):
        states_ = seat_view(spec, states_, seats)
    return (np.ascontiguousarray(states_), np.ascontiguousarray(mask_ != 0, dtype=np.int8), seats)


class StateHeuristic:
    """A rule-based agent that reads the game state through a game's Numba kernel
    ``kernel(states, tables, players, masks, out, fallback)``; subclasses set ``game`` and ``kernel``.
    ``seed`` is accepted for the agent protocol (these agents are deterministic). ``pool``: the card pool the games
    are played with (default: the game's own), since the heuristics read card stats from its tables."""

    name = "heuristic"
    game: str = ""
    kernel = None
    #: the kernel reads the state rows, never ``obs``: a tournament of heuristic pilots skips building observations
    reads_observation = False
    #: the kernel only reads ``states`` and ``mask`` (a move it values is simulated on its own copy of the row), so a
    #: caller may pass its live arrays instead of copies
    inputs_read_only = True

    def __init__(self, seed: int | None = None, pool: Any = None) -> None:
        from cardenvs.core.registry import get_game

        from cardenvs.core.threads import threaded

        self.seed = seed
        self.use_pool(pool if pool is not None else get_game(self.game).load_pool(None))
        # the kernel on row slices of the batch core's threads, as the game's own kernels run (rows are independent
        # and each slice gets its own scratch): relics' heuristic kernel was half of its round robin, on one core
        self._decide_rows = threaded(self.kernel)

    def use_pool(self, pool: Any) -> None:
        """Read card stats from ``pool`` (a loaded card pool the games are played with) from now on."""
        self.tables = pool.tables

    def act(self, obs: np.ndarray, mask: np.ndarray, states: np.ndarray | None = None,
            players: np.ndarray | None = None, fallback: bool = True) -> np.ndarray:
        states, masks, players = state_inputs(self.game, mask, states, players)
        out = np.zeros(states.shape[0], dtype=np.int32)
        self._decide_rows(states, self.tables, players, masks, out, fallback)
        return out


__all__ = ["Agent", "masked_uniform", "state_inputs", "StateHeuristic"]
