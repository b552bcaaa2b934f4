"""The search pilot, ``search[:N]``: flat Monte Carlo search at decision time over the batch core.

At each of its decisions with more than one legal action, :class:`SearchAgent` tries every legal action in ``N``
copies of the game as its seat may know it, plays each copy to the end with a rollout pilot for itself and an
opponent model for the other seat, and takes the action that won most often (the rollout pilot's own choice wins
ties). It is one step of policy improvement over the rollout pilot: ``make_agent(game, "search:N")`` rolls out with
the game's default pilot (the shipped policy where one is certified, else the heuristic) on both sides.

Honest by construction: ``act`` works on the seat view it is handed (``agents.base.state_inputs`` views any true
row), and each copy is that view re-dealt by the game's ``hide`` (``hidden="redeal"``): the opponent's hidden cards
and both deck orders are drawn anew, so no copy holds more than the seat knows. Every candidate action of a decision
is tried on the same ``N`` copies (common random numbers), so actions are compared on the same deals.
``hidden="known"`` plays the copies on the view itself, without re-dealing (an analysis mode of
``python -m cardenvs.train.lookahead``). In games with simultaneous plans the copies keep the part of the opponent's
plan already made this phase (``hide`` does not re-deal a plan), which only the second player to plan can have seen.

Slow by design: ``N`` x legal actions x the rest of the game, per decision (docs/training, "Search pilots").
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.batch import BatchGame, get_spec
from cardenvs.core.errors import BadArgumentError
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_WINNER, LIVE, TERMINATED

from .base import state_inputs

HIDDEN_MODES = ("redeal", "known")
#: rollouts per legal action when ``search`` is named without ``:N``
DEFAULT_ROLLOUTS = 8


class SearchAgent:
    """Flat Monte Carlo search at decision time over the batch core (module docstring). ``act`` needs ``states``:
    the seat view every caller hands an agent, or true rows, which it views itself."""

    name = "search"

    def __init__(self, game: str, pilot: Any = "heuristic", opponent: Any = "random", rollouts: int = 16,
                 hidden: str = "redeal", seed: int = 0, capacity: int = 8192, pool: Any = None) -> None:
        from cardenvs.core.agents import make_agent  # the installed resolver: no import back up into this package

        if not isinstance(rollouts, int) or rollouts < 1:
            raise BadArgumentError(f"rollouts must be a positive integer, got {rollouts!r}")
        if hidden not in HIDDEN_MODES:
            raise BadArgumentError(f"hidden must be one of {', '.join(HIDDEN_MODES)}, got {hidden!r}")
        self.spec = get_spec(game)
        self.pool = self.spec.load_pool(None) if pool is None else pool
        self.pilot = make_agent(game, pilot, seed=seed + 1, pool=pool) if isinstance(pilot, str) else pilot
        self.opponent = make_agent(game, opponent, seed=seed + 2, pool=pool) if isinstance(opponent, str) else opponent
        self.rollouts, self.hidden = rollouts, hidden
        self.rng = np.random.default_rng(seed)
        self.capacity = max(int(capacity), rollouts * self.spec.num_actions)
        self.seed = seed
        self._batches: dict[int, BatchGame] = {}  # by power-of-two size: a finished row still costs each loop
        self.searched = 0  # decisions searched (more than one legal action)
        self.changed = 0  # of which the search overruled the rollout pilot

    def _choose(self, agent: Any, obs: np.ndarray, mask: np.ndarray, states: np.ndarray, players: np.ndarray,
                rows: np.ndarray) -> np.ndarray:
        if hasattr(agent, "act_rows"):
            return agent.act_rows(obs, mask, rows, players)
        return agent.act(obs[rows], mask[rows], states[rows], players)

    def act(self, obs: np.ndarray, mask: np.ndarray, states: np.ndarray | None = None,
            players: np.ndarray | None = None) -> np.ndarray:
        if states is None or players is None:
            raise BadArgumentError("the search pilot needs the states and players (it copies the games)")
        # shapes, dtypes and seats checked before any row is copied into the search's batches (and their kernels)
        states, _, players = state_inputs(self.spec.name, mask, states, players)
        everyone = np.arange(len(mask))
        out = np.asarray(self._choose(self.pilot, obs, mask, states, players, everyone), np.int32).copy()
        # candidate (row, action) pairs of the rows with a real choice (a finished row, player -1, has none)
        choosing = np.flatnonzero((np.count_nonzero(mask, axis=1) > 1) & (players >= 0))
        pairs = [(int(i), int(a)) for i in choosing for a in np.flatnonzero(mask[i])]
        if not pairs:
            return out
        # common random numbers: one set of copies per row, shared by all its candidate actions, so the actions are
        # compared on the same deals (the re-dealt hand, both deck orders and the row's later chance) and the
        # comparison's noise is the rollouts' alone; it also re-deals rollouts, not rollouts x actions, times
        k = self.rollouts
        copies = {int(i): self._copies(states[i], int(players[i])) for i in choosing}
        wins = np.zeros(len(pairs))
        per_chunk = self.capacity // k
        for start in range(0, len(pairs), per_chunk):
            chunk = pairs[start:start + per_chunk]
            wins[start:start + len(chunk)] = self._rollout_wins(chunk, copies, players)
        best: dict[int, tuple[float, int]] = {}
        for (i, a), w in zip(pairs, wins):
            score = w + (0.5 if a == out[i] else 0.0)  # the pilot's choice wins ties
            if i not in best or score > best[i][0]:
                best[i] = (score, a)
        for i, (_, a) in best.items():
            self.searched += 1
            self.changed += int(a != out[i])
            out[i] = a
        return out

    def _copies(self, state: np.ndarray, player: int) -> np.ndarray:
        """``rollouts`` copies of one game as ``player`` may know it: re-dealt by the game's ``hide`` (fair mode) or
        the true state (oracle mode)."""
        if self.hidden == "known":
            return np.repeat(state[None], self.rollouts, axis=0)
        return np.stack([self.spec.hide(state, player, self.rng, self.pool) for _ in range(self.rollouts)])

    def _rollout_wins(self, chunk: list[tuple[int, int]], copies: dict[int, np.ndarray],
                      players: np.ndarray) -> np.ndarray:
        """Wins of each (row, action) of ``chunk`` over the row's ``rollouts`` copies played to the end."""
        k, n = self.rollouts, len(chunk) * self.rollouts
        size = 1 << max(n - 1, 1).bit_length()
        if size not in self._batches:
            self._batches[size] = BatchGame(self.spec, size, pool=self.pool, fused=True, seed=self.seed)
        b = self._batches[size]
        me = np.full(size, -1, np.int32)
        first = np.zeros(size, np.int32)
        for j, (i, a) in enumerate(chunk):
            b.states[j * k:(j + 1) * k] = copies[i]
            me[j * k:(j + 1) * k], first[j * k:(j + 1) * k] = int(players[i]), a
        b.states[n:, H_STATUS] = TERMINATED  # unused rows: finished, nobody to act
        b.states[n:, H_TO_ACT] = -1
        b.step(first, players=me, errors="ignore")
        if np.count_nonzero(b.last_errors[:n]):
            raise RuntimeError(f"{self.spec.name}: a legal action became illegal in a re-dealt copy")
        actions = np.zeros(size, np.int32)

        def decide(who: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            actions[:] = 0
            live = who >= 0
            for agent, mine in ((self.pilot, True), (self.opponent, False)):
                rows = np.flatnonzero(live & ((who == me) == mine))
                if rows.size:
                    actions[rows] = self._choose(agent, obs, mask, b.states, who[rows], rows)
            return actions

        if np.count_nonzero(b.states[:n, H_STATUS] == LIVE):
            b.play_out(decide)
        won = (b.states[:n, H_STATUS] == TERMINATED) & (b.states[:n, H_WINNER] == me[:n])
        return won.reshape(len(chunk), k).sum(axis=1).astype(np.float64)


__all__ = ["DEFAULT_ROLLOUTS", "HIDDEN_MODES", "SearchAgent"]
