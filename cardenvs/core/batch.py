"""BatchGame: N games of one ruleset as one int32 array, stepped by the game's Numba kernels.

This is the only place games are stepped: the AEC env, the parallel env, the vector env, the agents' evaluators and
the benchmarks are all views of a BatchGame (the single envs use one row).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .decks import Deck, pack_decks
from .errors import BadArgumentError, IllegalActionError
from .header import (
    DRAW, H_DECISIONS, H_NEEDS, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TERMINATED, TRUNCATED,
)
from .spec import GameSpec, Kernels
from .threads import PARALLEL_MIN_ROWS, threaded




@dataclass
class StepResult:
    rewards: np.ndarray  # float32 [N, 2], from each player's side
    terminated: np.ndarray  # bool [N]
    truncated: np.ndarray  # bool [N]


def get_spec(game: str | GameSpec) -> GameSpec:
    if isinstance(game, GameSpec):
        return game
    from cardenvs import get_game  # the registry; imported late to avoid a cycle

    return get_game(game)


def rewards_from(winner: np.ndarray, status: np.ndarray) -> np.ndarray:
    """+1/-1 for a win/loss, 0 for a draw, a truncation or a live game; shape [N, 2]."""
    out = np.zeros((winner.shape[0], 2), dtype=np.float32)
    decided = (status == TERMINATED) & (winner >= 0) & (winner < DRAW)
    rows = np.flatnonzero(decided)
    out[rows, winner[rows]] = 1.0
    out[rows, 1 - winner[rows]] = -1.0
    return out


class BatchGame:
    """N independent games of one ruleset, stored as ``states: int32[N, L]``.

    ``decks`` is None (the game's default pair for every row), one pair ``(deck_a, deck_b)`` for every row, or a
    list of N pairs; a deck is a starter deck name, a path, or a loaded :class:`Deck`. ``seed`` seeds row ``i``
    with ``seed + i`` (random when None). With ``autoreset=True``, :meth:`step` restarts finished rows in the same
    call (their final state is kept in :attr:`final_states` for that step). ``parallel`` splits the rows across
    ``numba.get_num_threads()`` threads (:mod:`cardenvs.core.threads`); by default from
    :data:`~cardenvs.core.threads.PARALLEL_MIN_ROWS` games up (same results either way).
    """

    def __init__(
        self,
        game: str | GameSpec,
        num_games: int = 1,
        decks: Any = None,
        seed: int | None = None,
        pool: Any = None,
        autoreset: bool = False,
        parallel: bool | None = None,
    ) -> None:
        if not isinstance(num_games, (int, np.integer)) or num_games < 1:
            raise BadArgumentError(f"num_games must be a positive integer, got {num_games!r}")
        self.spec = get_spec(game)
        if parallel is None:
            parallel = num_games >= PARALLEL_MIN_ROWS
        kernels = self.spec.kernels
        self.kernels = Kernels(*(threaded(k, min_rows=2) if k is not None else None for k in kernels)) if parallel \
            else kernels
        self.pool = pool if pool is not None else self.spec.load_pool(None)
        self.num_games = int(num_games)
        self.autoreset = autoreset
        self.states = np.zeros((self.num_games, self.spec.state_layout.size), dtype=np.int32)
        self.deck_pairs = self._resolve_decks(decks)
        self.decks = pack_decks(self.deck_pairs, self.spec.max_deck)
        self.seeds = np.zeros(self.num_games, dtype=np.int64)
        self._obs = np.zeros((self.num_games, self.spec.obs_dim), dtype=np.float32)
        self._mask = np.zeros((self.num_games, self.spec.num_actions), dtype=np.int8)
        self._errors = np.zeros(self.num_games, dtype=np.int32)
        self._ended = np.zeros(self.num_games, dtype=np.int32)
        self._finals: np.ndarray | None = None  # allocated by the first fused play() with autoreset
        self.final_states: np.ndarray | None = None
        self.reset(seed)

    # ----- setup -------------------------------------------------------------------------------------------
    def _load(self, deck: Any) -> Deck:
        return deck if isinstance(deck, Deck) else self.spec.load_deck(deck, self.pool)

    def _resolve_decks(self, decks: Any) -> list[tuple[Deck, Deck]]:
        if decks is None:
            decks = self.spec.default_decks
        if isinstance(decks, (str, Deck)) or len(decks) == 0:
            raise BadArgumentError(f"decks must be a pair (deck_a, deck_b) or a list of {self.num_games} pairs")
        if len(decks) == 2 and all(isinstance(d, (str, Deck)) or hasattr(d, "__fspath__") for d in decks):
            pair = (self._load(decks[0]), self._load(decks[1]))
            return [pair] * self.num_games
        if len(decks) != self.num_games:
            raise BadArgumentError(f"got {len(decks)} deck pairs for {self.num_games} games")
        cache: dict[Any, Deck] = {}

        def load(d: Any) -> Deck:
            key = d if not isinstance(d, Deck) else id(d)
            if key not in cache:
                cache[key] = self._load(d)
            return cache[key]

        return [(load(a), load(b)) for a, b in decks]

    def reset(self, seed: int | Sequence[int] | np.ndarray | None = None, rows: np.ndarray | None = None) -> None:
        """Start new games in ``rows`` (all by default). An int seed gives row i the seed ``seed + i``."""
        if rows is None:
            rows = np.ones(self.num_games, dtype=np.bool_)
        rows = np.asarray(rows, dtype=np.bool_)
        if seed is None:
            seeds = np.random.SeedSequence().generate_state(self.num_games, dtype=np.uint64).astype(np.int64)
        elif np.ndim(seed) == 0:
            seeds = int(seed) + np.arange(self.num_games, dtype=np.int64)
        else:
            seeds = np.asarray(seed, dtype=np.int64)
            if seeds.shape != (self.num_games,):
                raise BadArgumentError(f"expected {self.num_games} seeds, got shape {seeds.shape}")
        self.seeds[rows] = seeds[rows]
        self.kernels.batch_reset(self.states, self.pool.tables, self.decks, self.seeds, rows)

    # ----- header views -------------------------------------------------------------------------------------
    @property
    def status(self) -> np.ndarray:
        return self.states[:, H_STATUS]

    @property
    def to_act(self) -> np.ndarray:
        return self.states[:, H_TO_ACT]

    @property
    def needs(self) -> np.ndarray:
        return self.states[:, H_NEEDS]

    @property
    def winner(self) -> np.ndarray:
        return self.states[:, H_WINNER]

    @property
    def decisions(self) -> np.ndarray:
        return self.states[:, H_DECISIONS]

    @property
    def turn(self) -> np.ndarray:
        return self.states[:, H_TURN]

    @property
    def done(self) -> np.ndarray:
        return self.states[:, H_STATUS] != LIVE

    def records(self) -> np.ndarray:
        """A structured view of the states (field access by name, no copy)."""
        return self.spec.state_layout.records(self.states)

    # ----- stepping ------------------------------------------------------------------------------------------
    def _players(self, players: Any) -> np.ndarray:
        if players is None:
            return self.states[:, H_TO_ACT].copy()
        if np.ndim(players) == 0:
            return np.full(self.num_games, int(players), dtype=np.int32)
        return np.asarray(players, dtype=np.int32)

    def step(self, actions: Any, players: Any = None, errors: str = "raise") -> StepResult:
        """Apply one decision in every row where ``players[i] >= 0`` (default: the player to act; finished rows
        are skipped). ``errors="raise"`` raises :class:`IllegalActionError` naming the first bad row after the
        legal rows are applied (the bad rows are untouched); ``errors="ignore"`` leaves it to :attr:`last_errors`.
        """
        acts = np.asarray(actions, dtype=np.int32).reshape(-1)
        if acts.shape[0] != self.num_games:
            raise BadArgumentError(f"expected {self.num_games} actions, got {acts.shape[0]}")
        who = self._players(players)
        who = np.where(self.states[:, H_STATUS] == LIVE, who, -1).astype(np.int32)
        self.kernels.batch_step(self.states, self.pool.tables, who, acts, self._errors)
        if errors == "raise" and self._errors.any():
            bad = int(np.flatnonzero(self._errors)[0])
            raise IllegalActionError(self.describe_illegal(bad, int(who[bad]), int(acts[bad])))
        result = StepResult(
            rewards_from(self.states[:, H_WINNER], self.states[:, H_STATUS]),
            self.states[:, H_STATUS] == TERMINATED,
            self.states[:, H_STATUS] == TRUNCATED,
        )
        if self.autoreset:
            done = result.terminated | result.truncated
            self.final_states = self.states[done].copy() if done.any() else None
            if done.any():
                next_seeds = self.seeds + self.num_games  # a fresh, deterministic seed per finished row
                self.reset(next_seeds, rows=done)
        return result

    def play(
        self, actions: Any, players: Any = None, viewers: Any = None, errors: str = "raise", observe: bool = True
    ) -> tuple[StepResult, np.ndarray, np.ndarray]:
        """The RL loop's step: :meth:`step` (with autoreset if on), then the observation and legal mask of
        ``viewers[i]`` (default: the player to act next; zeros in a finished row) in one call.

        Uses the game's fused ``batch_play`` kernel when it has one (one pass over the rows instead of four; same
        results as ``step`` + ``observe`` + ``legal_mask``, tested). The returned arrays are the batch's own
        buffers: copy them to keep them past the next call; ``observe=False`` skips the observation (a mask-only
        pilot) and leaves the returned observation buffer stale. Unlike :meth:`step`, an illegal action in one row does
        not stop the autoreset of the other rows before the error is raised.
        """
        play = self.kernels.batch_play
        if play is None:
            return self._play_composed(actions, players, viewers, errors, observe)
        acts = np.asarray(actions, dtype=np.int32).reshape(-1)
        if acts.shape[0] != self.num_games:
            raise BadArgumentError(f"expected {self.num_games} actions, got {acts.shape[0]}")
        who = self._players(players)
        who = np.where(self.states[:, H_STATUS] == LIVE, who, -1).astype(np.int32)
        view = self._viewers(viewers)
        if self._finals is None or (self.autoreset and self._finals.shape != self.states.shape):
            # finished rows are copied here before their autoreset; without autoreset nothing is written
            width = self.states.shape[1]
            self._finals = np.zeros_like(self.states) if self.autoreset else np.zeros((1, width), np.int32)
        play(self.states, self.pool.tables, self.decks, self.seeds, self.num_games, bool(self.autoreset), who, acts,
             self._errors, self._ended, self._finals, view, bool(observe), self._obs, self._mask)
        ended = self._ended.astype(np.bool_)
        if ended.any():
            self.final_states = self._finals[ended].copy()
            status = np.where(ended, self._finals[:, H_STATUS], self.states[:, H_STATUS])
            winner = np.where(ended, self._finals[:, H_WINNER], self.states[:, H_WINNER])
        else:
            self.final_states = None
            status, winner = self.states[:, H_STATUS], self.states[:, H_WINNER]
        if errors == "raise" and self._errors.any():
            bad = int(np.flatnonzero(self._errors)[0])
            raise IllegalActionError(self.describe_illegal(bad, int(who[bad]), int(acts[bad])))
        result = StepResult(rewards_from(winner, status), status == TERMINATED, status == TRUNCATED)
        return result, self._obs, self._mask

    def play_out(self, decide: Any, observe: bool = True, on_step: Any = None, max_steps: int = 1_000_000) -> int:
        """Play every game to its end: each loop, ``decide(who, obs, mask) -> actions`` chooses for every row
        (``who[i]`` is the player to act, -1 in finished rows; ``obs`` is None with ``observe=False``), then one
        fused :meth:`play` applies the choices and yields the next mover's observation and mask. ``on_step()``
        runs after each loop (progress bars). Returns the number of decisions played. The one match loop behind
        tournaments (:mod:`cardenvs.eval`) and training evaluations (:mod:`train.evaluate`)."""
        if self.autoreset:
            raise BadArgumentError("play_out needs a BatchGame without autoreset (its games must end)")
        who = self.to_act.copy()
        mask = self.legal_mask(who)
        obs = self.observe(who) if observe else None
        total = 0
        for _ in range(max_steps):
            live = int(np.count_nonzero(who >= 0))
            if live == 0:
                return total
            actions = decide(who, obs, mask)
            total += live
            _, obs, mask = self.play(actions, players=who, observe=observe)
            obs = obs if observe else None
            who = self.to_act.copy()
            if on_step is not None:
                on_step()
        raise RuntimeError(f"{self.spec.name}: games still live after {max_steps} decisions")

    def _viewers(self, viewers: Any) -> np.ndarray:
        if viewers is None:
            return np.full(self.num_games, -1, dtype=np.int32)
        if np.ndim(viewers) == 0:
            return np.full(self.num_games, int(viewers), dtype=np.int32)
        return np.asarray(viewers, dtype=np.int32)

    def _play_composed(self, actions: Any, players: Any, viewers: Any, errors: str, observe: bool = True):
        """:meth:`play` for a game without a fused kernel: the same results from the four kernels."""
        result = self.step(actions, players, errors)
        view = self._viewers(viewers)
        view = np.where(view >= 0, view, self.states[:, H_TO_ACT]).astype(np.int32)
        obs = self.observe(view) if observe else self._obs  # the kernels write zeros for a viewer of -1
        mask = self.legal_mask(view)
        return result, obs, mask

    @property
    def last_errors(self) -> np.ndarray:
        return self._errors

    def describe_illegal(self, row: int, player: int, action: int) -> str:
        mask = (self.legal_mask(np.full(self.num_games, player, dtype=np.int32), out=np.zeros_like(self._mask))[row]
                if player >= 0 else None)
        legal = [] if mask is None else np.flatnonzero(mask).tolist()
        names = ", ".join(f"{a} ({self.action_name(a, row, player)})" for a in legal[:12])
        more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
        what = self.action_name(action, row, player) if 0 <= action < self.spec.num_actions else "out of range"
        where = f"game {row}: " if self.num_games > 1 else ""
        return (f"{where}illegal action {action} ({what}) for player_{player} in {self.spec.env_name}; "
                f"legal actions: {names}{more}")

    def observe(self, players: Any = None, out: np.ndarray | None = None) -> np.ndarray:
        """Each row's observation from ``players[i]``'s seat (default: the player to act)."""
        out = self._obs if out is None else out
        self.kernels.batch_observe(self.states, self.pool.tables, self._players(players), out)
        return out

    def legal_mask(self, players: Any = None, out: np.ndarray | None = None) -> np.ndarray:
        """int8 [N, num_actions]; all zeros where that player has nothing to decide."""
        out = self._mask if out is None else out
        self.kernels.batch_mask(self.states, self.pool.tables, self._players(players), out)
        return out

    # ----- text --------------------------------------------------------------------------------------------
    def action_name(self, action: int, row: int = 0, player: int | None = None) -> str:
        p = int(self.states[row, H_TO_ACT]) if player is None else player
        return self.spec.action_name(self.states[row], self.pool, p, int(action))

    def render(self, row: int = 0, viewer: int | None = None) -> str:
        return self.spec.render(self.states[row], self.pool, viewer)

    def clone(self) -> "BatchGame":
        """A copy sharing the (read-only) pool and decks; states copied."""
        twin = object.__new__(BatchGame)
        twin.__dict__.update(self.__dict__)
        twin.states = self.states.copy()
        twin._obs, twin._mask, twin._errors = self._obs.copy(), self._mask.copy(), self._errors.copy()
        twin._ended, twin._finals = self._ended.copy(), None
        twin.seeds = self.seeds.copy()
        return twin
