"""BatchGame: N games of one ruleset as one int32 array, stepped by the game's Numba kernels.

This is the only place games are stepped: the AEC env, the parallel env, the vector env, the agents' evaluators and
the benchmarks are all views of a BatchGame (the single envs use one row).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from .cards import CardPool
from .compiling import CompileOnFirstCall
from .decks import Deck, check_deck, pack_decks
from .errors import BadArgumentError, DeckError, IllegalActionError
from .header import (
    DRAW, H_DECISIONS, H_NEEDS, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TERMINATED, TRUNCATED,
)
from .spec import GameSpec, Kernels
from .rows import Dirty, RowChecker, StateRows
from .threads import PARALLEL_MIN_ROWS, threaded

__all__ = ["BatchGame", "StepResult", "get_spec", "check_pool", "rewards_from", "outcome_rewards", "is_int",
           "int_array", "seat_array", "row_mask", "seed_sequence", "kernel_seed", "check_seed", "seed_array",
           "out_buffer", "ERROR_MODES", "MAX_GAMES"]

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
ERROR_MODES = ("raise", "ignore")
#: the most games one BatchGame holds (row indices are int32 in the kernels)
MAX_GAMES = 2**31 - 1


# ----- argument checks: every array that reaches a kernel passes through one of these ------------------------------
def is_int(value: Any) -> bool:
    """A real integer: Python or numpy int, not a bool (``True`` is not the action 1)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def int_array(values: Any, what: str, n: int, lo: int = INT32_MIN, hi: int = INT32_MAX) -> np.ndarray:
    """``values`` as ``int32[n]``: a real integer (broadcast to every row) or ``n`` of them, each in ``[lo, hi]``
    (a sub-range of int32).

    Floats, bools, strings and objects are refused rather than cast (a float action would be truncated, an int64
    2**32+1 would wrap to 1): :class:`BadArgumentError` naming ``what``."""
    if type(values) is np.ndarray and values.dtype == np.int32 and values.shape == (n,):  # the hot path
        # one pass for both ends: v - lo wraps in int32, so as uint32 it is past hi - lo exactly when v is out
        if (lo > INT32_MIN or hi < INT32_MAX) and np.count_nonzero(
                (values - np.int32(lo)).view(np.uint32) > np.uint32(hi - lo)):
            bad = values[(values < lo) | (values > hi)][0]
            raise BadArgumentError(f"{what} {int(bad)} is out of range [{lo}, {hi}]")
        return values
    if np.ndim(values) == 0:
        if not is_int(values):
            raise BadArgumentError(f"{what} must be an integer or {n} integers, got {values!r}")
        if not lo <= int(values) <= hi:
            raise BadArgumentError(f"{what} {int(values)} is out of range [{lo}, {hi}]")
        return np.full(n, int(values), dtype=np.int32)
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError) as exc:
        raise BadArgumentError(f"{what} must be {n} integers: {exc}") from None
    if arr.dtype == object and arr.size and all(is_int(v) for v in arr.reshape(-1)):  # Python ints past int64
        big = [int(v) for v in arr.reshape(-1)]
        bad = next(v for v in big if not lo <= v <= hi) if any(not lo <= v <= hi for v in big) else None
        raise BadArgumentError(f"{what} {bad} is out of range [{lo}, {hi}]")
    if arr.size == 0 and arr.dtype.kind == "f":
        arr = arr.astype(np.int64)  # [] is float64 to numpy
    if arr.dtype.kind not in "iu":
        raise BadArgumentError(f"{what} must be integers, got an array of {arr.dtype} (no silent casts)")
    if arr.ndim > 2 or arr.size != n or (arr.ndim == 2 and arr.shape[1] != 1):
        raise BadArgumentError(f"{what} must have shape ({n},), got {arr.shape}")
    arr = arr.reshape(n)
    if n and (arr.min() < lo or arr.max() > hi):
        bad = arr[(arr < lo) | (arr > hi)][0]
        raise BadArgumentError(f"{what} {int(bad)} is out of range [{lo}, {hi}]")
    return arr.astype(np.int32)


def seat_array(values: Any, what: str, n: int, default: np.ndarray) -> np.ndarray:
    """``players`` / ``viewers``: None (``default``), one seat for every row, or ``n`` seats; each -1, 0 or 1."""
    if values is None:
        return default.astype(np.int32)
    return int_array(values, what, n, -1, 1)


def row_mask(rows: Any, n: int) -> np.ndarray:
    """``rows=`` as ``bool[n]``: None (all), a boolean mask of ``n`` entries, or integer row indices in ``[-n, n)``.

    An integer list is indices, never a mask (``rows=[0, 1]`` is rows 0 and 1)."""
    if rows is None:
        return np.ones(n, dtype=np.bool_)
    try:
        arr = np.asarray(rows)
    except (ValueError, TypeError) as exc:
        raise BadArgumentError(f"rows must be a boolean mask or integer row indices: {exc}") from None
    if arr.dtype == np.bool_:
        if arr.shape != (n,):
            raise BadArgumentError(f"a boolean rows mask must have shape ({n},), got {arr.shape}")
        return arr.copy()
    if arr.size == 0:
        return np.zeros(n, dtype=np.bool_)
    if arr.dtype.kind not in "iu" or arr.ndim > 1:
        raise BadArgumentError(f"rows must be a boolean mask of {n} or integer row indices, got {arr.dtype} {arr.shape}")
    idx = arr.reshape(-1)
    if idx.min() < -n or idx.max() >= n:
        raise BadArgumentError(f"row index {int(idx[(idx < -n) | (idx >= n)][0])} is out of range for {n} games")
    mask = np.zeros(n, dtype=np.bool_)
    mask[idx] = True
    return mask


def seed_sequence(seed: int) -> np.random.SeedSequence:
    """A NumPy SeedSequence for any Python int: ``SeedSequence(seed)`` (what ``default_rng(seed)`` uses) for a
    non-negative one, a tagged entropy for a negative one (NumPy refuses those)."""
    seed = int(seed)
    return np.random.SeedSequence(seed) if seed >= 0 else np.random.SeedSequence([-seed, 0x6E6567])


def kernel_seed(seed: int) -> int:
    """The int64 a kernel takes for a seed: the seed itself where it fits, else one derived by SeedSequence."""
    if INT64_MIN <= seed <= INT64_MAX:
        return seed
    return int(seed_sequence(seed).generate_state(1, dtype=np.uint64)[0].astype(np.int64))


def check_seed(seed: Any, what: str = "seed") -> int | None:
    """None, or any Python / numpy integer (not a bool, a float or a string)."""
    if seed is None or is_int(seed):
        return None if seed is None else int(seed)
    raise BadArgumentError(f"{what} must be an integer or None, got {seed!r}")


def seed_array(seed: Any, n: int) -> np.ndarray:
    """Per-row int64 kernel seeds: None (fresh entropy), an int (row i gets ``seed + i``) or ``n`` ints.

    Any Python int is a valid seed; those past int64 are mapped through SeedSequence (so 2**64 is not 0)."""
    if seed is None:
        return np.random.SeedSequence().generate_state(n, dtype=np.uint64).astype(np.int64)
    if np.ndim(seed) == 0:
        base = check_seed(seed)
        if INT64_MIN <= base and base + n - 1 <= INT64_MAX:
            return base + np.arange(n, dtype=np.int64)
        return np.array([kernel_seed(base + i) for i in range(n)], dtype=np.int64)
    try:
        arr = np.asarray(seed)
    except (ValueError, TypeError) as exc:
        raise BadArgumentError(f"seeds must be {n} integers: {exc}") from None
    if arr.shape != (n,):
        raise BadArgumentError(f"expected {n} seeds, got shape {arr.shape}")
    if arr.dtype.kind == "i":
        return arr.astype(np.int64)
    if arr.dtype.kind == "u" or arr.dtype == object:
        values = list(arr)
        if not all(is_int(v) for v in values):
            raise BadArgumentError(f"seeds must be integers, got {next(v for v in values if not is_int(v))!r}")
        return np.array([kernel_seed(int(v)) for v in values], dtype=np.int64)
    raise BadArgumentError(f"seeds must be integers, got an array of {arr.dtype}")


def out_buffer(out: Any, shape: tuple[int, int], dtype: Any, what: str) -> np.ndarray:
    """An ``out=`` buffer the kernel can write: exactly ``shape`` and ``dtype``, C-contiguous, writeable."""
    if not isinstance(out, np.ndarray):
        raise BadArgumentError(f"{what} out= must be a numpy array, got {type(out).__name__}")
    if out.dtype != dtype or out.shape != shape:
        raise BadArgumentError(f"{what} out= must be {np.dtype(dtype).name}{list(shape)}, got {out.dtype.name}{list(out.shape)}")
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise BadArgumentError(f"{what} out= must be a C-contiguous, writeable array")
    return out


_POOL_SHAPES: dict[str, Any] = {}


def _table_shapes(tables: Any) -> Any:
    if isinstance(tables, np.ndarray):
        return (tables.dtype.str, tables.ndim, tables.shape[1:])
    if isinstance(tables, (tuple, list)):
        return tuple(_table_shapes(t) for t in tables)
    return type(tables).__name__


def check_pool(spec: GameSpec, pool: Any) -> CardPool:
    """A card pool of this game (its compiled tables have the game's columns), or a clear error."""
    if not isinstance(pool, CardPool) or pool.tables is None:
        raise BadArgumentError(f"pool must be a card pool loaded by {spec.name}'s load_pool, got {type(pool).__name__}")
    if spec.name not in _POOL_SHAPES:
        _POOL_SHAPES[spec.name] = _table_shapes(spec.load_pool(None).tables)
    if _table_shapes(pool.tables) != _POOL_SHAPES[spec.name]:
        raise BadArgumentError(f"pool is not a {spec.name} card pool (its tables have other columns)")
    return pool


@dataclass
class StepResult:
    rewards: np.ndarray  # float32 [N, 2], from each player's side
    terminated: np.ndarray  # bool [N]
    truncated: np.ndarray  # bool [N]


def get_spec(game: str | GameSpec) -> GameSpec:
    if isinstance(game, GameSpec):
        return game
    from .registry import get_game  # games import the core: the registry imports a game only when asked

    return get_game(game)


def rewards_from(winner: np.ndarray, status: np.ndarray) -> np.ndarray:
    """+1/-1 for a win/loss, 0 for a draw, a truncation or a live game; shape [N, 2]."""
    out = np.zeros((winner.shape[0], 2), dtype=np.float32)
    ended = status == TERMINATED
    if not np.count_nonzero(ended):  # the common case inside a game: nothing to write
        return out
    rows = np.flatnonzero(ended & (winner >= 0) & (winner < DRAW))
    out[rows, winner[rows]] = 1.0
    out[rows, 1 - winner[rows]] = -1.0
    return out


def outcome_rewards(status: int, winner: int) -> tuple[float, float]:
    """:func:`rewards_from` for one game, from Python ints: the single envs' per-step path."""
    if status == TERMINATED and 0 <= winner < DRAW:
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
    return (0.0, 0.0)


def _one_decision() -> tuple[np.ndarray, np.ndarray]:
    """``step_one``'s (who, action) argument arrays, reused from step to step by one batch."""
    return np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int32)


class BatchGame:
    """N independent games of one ruleset, stored as ``states: int32[N, L]``.

    ``decks`` is None (the game's default pair for every row), one pair ``(deck_a, deck_b)`` for every row, or a
    list of N pairs; a deck is a starter deck name, a path, or a loaded :class:`Deck`. ``seed`` seeds row ``i``
    with ``seed + i`` (random when None). With ``autoreset=True``, :meth:`step` restarts finished rows in the same
    call (their final state is kept in :attr:`final_states` for that step). ``parallel`` splits the rows across
    ``numba.get_num_threads()`` threads (:mod:`cardenvs.core.threads`); by default from
    :data:`~cardenvs.core.threads.PARALLEL_MIN_ROWS` games up (same results either way).

    Every deck is checked before any game starts: its card ids must be ids of ``pool`` (a :class:`Deck` remembers
    the pool it was loaded against and is refused by another) and, unless it was loaded by the game's own
    ``load_deck`` against this pool, the game's deck-building rules are checked too. ``check_decks=False`` is the
    explicit unchecked path (scenario tests with illegal decks): ids and size are still checked, the rules are not.
    ``fused=True`` is for a batch driven by :meth:`play` and :meth:`play_out` (an RL loop, a tournament): its resets,
    and the first mask and observation of :meth:`play_out`, run through the game's fused ``batch_play`` kernel too
    (the same games, tested), so a first run compiles that one kernel instead of also ``batch_reset``,
    ``batch_mask`` and ``batch_observe`` (each links the whole rules engine: seconds of compile). The other methods
    still work; their kernels compile at their first call.
    Every argument that reaches a kernel is checked here (shapes, dtypes, ranges), so bad input raises
    :class:`BadArgumentError` and changes nothing.
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
        check_decks: bool = True,
        fused: bool = False,
    ) -> None:
        if not is_int(num_games) or not 1 <= num_games <= MAX_GAMES:
            raise BadArgumentError(f"num_games must be an integer from 1 to {MAX_GAMES}, got {num_games!r}")
        for flag, value in (("autoreset", autoreset), ("check_decks", check_decks), ("fused", fused)):
            if not isinstance(value, (bool, np.bool_)):
                raise BadArgumentError(f"{flag} must be True or False, got {value!r}")
        if parallel is not None and not isinstance(parallel, (bool, np.bool_)):
            raise BadArgumentError(f"parallel must be None, True or False, got {parallel!r}")
        self.spec = get_spec(game)
        self.fused = bool(fused) and self.spec.kernels.batch_play is not None
        if parallel is None:
            parallel = num_games >= PARALLEL_MIN_ROWS
        self.parallel = bool(parallel)
        self.kernels = self._kernels()
        self.pool = check_pool(self.spec, pool) if pool is not None else self.spec.load_pool(None)
        self.num_games = int(num_games)
        self.autoreset = bool(autoreset)
        self.check_decks = bool(check_decks)
        try:
            # the kernels' array; ``states`` is a tracked view of it (cardenvs/core/rows.py)
            self._rows = np.zeros((self.num_games, self.spec.state_layout.size), dtype=np.int32)
            self._obs = np.zeros((self.num_games, self.spec.obs_dim), dtype=self.spec.obs_dtype)
        except MemoryError:
            raise BadArgumentError(f"not enough memory for {self.num_games} games of {self.spec.name}") from None
        self.deck_pairs = self._resolve_decks(decks)
        self.decks = pack_decks(self.deck_pairs, self.spec.max_deck)
        self.seeds = np.zeros(self.num_games, dtype=np.int64)
        self._mask = np.zeros((self.num_games, self.spec.num_actions), dtype=np.int8)
        self._errors = np.zeros(self.num_games, dtype=np.int32)
        self._one_decision = _one_decision()
        self._ended = np.zeros(self.num_games, dtype=np.int32)
        self._finals: np.ndarray | None = None  # allocated by the first fused play() with autoreset
        self._seat_cache: list[np.ndarray | None] = [None, None, None]  # seats -1, 0, 1 for every row (_players)
        self.final_states: np.ndarray | None = None
        self._track()
        self.reset(seed)

    # ----- the public rows: writes from outside are checked before a kernel reads them ------------------------------
    def _track(self, dirty: np.ndarray | None = None) -> None:
        """(Re)build the tracked ``states`` view of ``_rows``; ``dirty``: rows already known to be written from
        outside."""
        self._dirty = Dirty(self._rows, self._admit_rows)
        if dirty is not None and dirty.any():
            self._dirty.rows[:] = dirty
            self._dirty.any = True
        self._tracked = self._rows.view(StateRows)
        self._tracked._dirty = self._dirty
        self._checker: RowChecker | None = None

    @property
    def states(self) -> np.ndarray:
        """``int32[num_games, L]``: one row per game (a snapshot is ``states[i].copy()``; ``states[i] = saved``
        restores it). Rows written through this array are checked (header, deck list against the pool in use, zone
        entries and counts) before the next kernel reads them: a damaged row is a :class:`BadArgumentError` naming
        the game and the field, raised before anything changes (:mod:`cardenvs.core.rows`)."""
        return self._tracked

    @states.setter
    def states(self, value: Any) -> None:
        arr = value.view(np.ndarray) if isinstance(value, StateRows) else value
        want = (self.num_games, self.spec.state_layout.size)
        if not isinstance(arr, np.ndarray) or arr.dtype != np.int32 or arr.shape != want:
            raise BadArgumentError(f"states must be an int32{list(want)} array, got "
                                   f"{getattr(arr, 'dtype', type(arr).__name__)}{list(np.shape(arr))}")
        self._rows = np.require(arr, requirements=("C", "W"))  # a C-contiguous writeable array (copied if not)
        self._track(np.ones(self.num_games, dtype=np.bool_))

    def _admit_rows(self) -> None:
        """Check the rows written from outside since a kernel last read them; raises before any kernel runs."""
        dirty = self._dirty
        idx = np.flatnonzero(dirty.rows)
        if idx.size:
            self.check_states(idx)
            dirty.rows[idx] = False
        dirty.any = False

    def check_states(self, rows: Any = None) -> None:
        """Check rows (default: all) as a kernel needs them (:class:`~cardenvs.core.rows.RowChecker`): for rows
        written by means the tracked ``states`` cannot see (an ``np.asarray`` view, ``ctypes``)."""
        idx = np.flatnonzero(row_mask(rows, self.num_games))
        if self._checker is None:
            self._checker = RowChecker(self.spec, len(self.pool))
        self._checker.check(self._rows[idx], idx)

    def _kernels(self) -> Kernels:
        kernels = self.spec.kernels
        if self.parallel:
            kernels = Kernels(*(threaded(k, min_rows=2) if k is not None else None for k in kernels))
        # each kernel compiles at its first call (with a progress line), so a program compiles only what it uses
        return Kernels(*(CompileOnFirstCall(self, name, k) if k is not None else None
                         for name, k in zip(kernels._fields, kernels)))

    # copies and pickles carry the games (rows, seeds, RNG: all in the state), not the compiled kernels
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["kernels"] = None
        state["_seat_cache"] = [None, None, None]
        state["_tracked"], state["_checker"] = None, None  # rebuilt over the unpickled array
        state["_dirty"] = self._dirty.rows.copy()  # which rows still need their check
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.__dict__.setdefault("_seat_cache", [None, None, None])
        self.__dict__.setdefault("_one_decision", _one_decision())
        self.kernels = self._kernels()
        self._track(state.get("_dirty"))

    # ----- setup -------------------------------------------------------------------------------------------
    def _load(self, deck: Any) -> Deck:
        if isinstance(deck, Deck):
            return self._admit(deck)
        if not isinstance(deck, str) and not hasattr(deck, "__fspath__") and deck is not None:
            raise BadArgumentError(f"a deck is a starter deck name, a path or a Deck, got {deck!r}")
        loaded = self.spec.load_deck(deck, self.pool)
        return self._admit(loaded, trusted=True)

    def _admit(self, deck: Deck, trusted: bool = False) -> Deck:
        """Check a deck against the pool in use (ids, size, the pool it was built for) and, unless the game's own
        loader built it against this pool, against the game's deck-building rules."""
        where = deck.path or deck.name
        ids = deck.card_ids
        if not isinstance(ids, np.ndarray) or ids.ndim != 1 or ids.dtype.kind not in "iu":
            raise DeckError(where, "card_ids must be a 1-D integer array")
        if len(ids) < 1 or len(ids) > self.spec.max_deck:
            raise DeckError(where, f"{len(ids)} cards; this engine holds 1 to {self.spec.max_deck}")
        if ids.min() < 0 or ids.max() >= len(self.pool):
            bad = int(ids[(ids < 0) | (ids >= len(self.pool))][0])
            raise DeckError(where, f"card id {bad} is not in the card pool in use ({len(self.pool)} cards)")
        fingerprint = self.pool.fingerprint
        if deck.pool_key is not None and deck.pool_key != fingerprint:
            raise DeckError(where, "this deck was loaded against another card pool; load it with the pool in use "
                                   "(or pass that pool as pool=)")
        if trusted or deck.checked_for(self.pool) or not self.check_decks:
            return deck
        check_deck(self.spec.load_deck, deck, self.pool)
        return deck

    def _resolve_decks(self, decks: Any) -> list[tuple[Deck, Deck]]:
        if decks is None:
            decks = self.spec.default_decks
        if isinstance(decks, (str, Deck)) or hasattr(decks, "__fspath__") or not hasattr(decks, "__len__") \
                or len(decks) == 0:
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

        pairs = []
        for pair in decks:
            if isinstance(pair, (str, Deck)) or not hasattr(pair, "__len__") or len(pair) != 2:
                raise BadArgumentError(f"each entry of decks must be a pair (deck_a, deck_b), got {pair!r}")
            pairs.append((load(pair[0]), load(pair[1])))
        return pairs

    def reset(self, seed: int | Sequence[int] | np.ndarray | None = None, rows: np.ndarray | None = None) -> None:
        """Start new games in ``rows`` (all by default: a boolean mask, or integer row indices). An int seed gives
        row i the seed ``seed + i``; any Python int is a valid seed (past int64 it is mapped by SeedSequence)."""
        rows = row_mask(rows, self.num_games)
        seeds = seed_array(seed, self.num_games)
        self.seeds[rows] = seeds[rows]
        if self._dirty.any:  # rows about to be rewritten whole need no check; the others keep theirs
            self._dirty.rows[rows] = False
            self._dirty.any = bool(self._dirty.rows.any())
        if self.fused:
            self._reset_by_play(rows)
        else:
            self.kernels.batch_reset(self._rows, self.pool.tables, self.decks, self.seeds, rows)

    def _reset_by_play(self, rows: np.ndarray) -> None:
        """``batch_reset`` of ``rows`` (bool[N]) through the fused kernel: a row marked finished is restarted by
        play's autoreset from its deck pair and its seed (``seed_stride`` 0: the seed as set), exactly as
        ``batch_reset`` restarts it. Only the chosen rows are handed to the kernel (play restarts every finished row
        it sees); its other outputs go to scratch buffers, so the batch's mask and observation are left as they
        were."""
        whole = bool(rows.all())
        idx = None if whole else np.flatnonzero(rows)
        if idx is not None and idx.size == 0:
            return
        states = self._rows if whole else self._rows[idx]
        decks = self.decks if whole else self.decks[idx]
        seeds = self.seeds if whole else self.seeds[idx]
        k = states.shape[0]
        states[:, H_STATUS] = TERMINATED  # any status but LIVE: play's autoreset restarts the row
        nobody = np.full(k, -1, dtype=np.int32)  # no step, and each row's player to act as viewer
        self.kernels.batch_play(states, self.pool.tables, decks, seeds, 0, True, nobody, nobody,
                                np.zeros(k, np.int32), np.zeros(k, np.int32), np.empty_like(states), nobody, False,
                                self._obs[:1], np.empty((k, self.spec.num_actions), np.int8))
        if not whole:
            self._rows[idx] = states

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
        return self._rows[:, H_STATUS] != LIVE

    def records(self) -> np.ndarray:
        """A structured view of the states (field access by name, no copy)."""
        return self.states.view(self.spec.state_layout.dtype)[..., 0]  # writes through it are tracked too

    # ----- stepping ------------------------------------------------------------------------------------------
    def _players(self, players: Any, what: str = "players") -> np.ndarray:
        if type(players) is int and -1 <= players <= 1:  # one seat for every row: a cached array, no allocation
            rows = self._seat_cache[players + 1]
            return rows if rows is not None else self._seat_rows(players)
        return seat_array(players, what, self.num_games, self._rows[:, H_TO_ACT])

    def _seat_rows(self, seat: int) -> np.ndarray:
        """``int32[num_games]`` filled with ``seat``, made on first use. Only kernels read it (they never write
        their ``players`` argument) and it never leaves the batch."""
        rows = self._seat_cache[seat + 1] = np.full(self.num_games, seat, dtype=np.int32)
        return rows

    def _decisions(self, actions: Any, players: Any, errors: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Checked ``(actions int32, players int32, out_of_range bool)`` for a step; raises before any change."""
        if not isinstance(errors, str) or errors not in ERROR_MODES:
            raise BadArgumentError(f"errors must be 'raise' or 'ignore', got {errors!r}")
        if self._dirty.any:
            self._admit_rows()
        acts = int_array(actions, "actions", self.num_games)
        who = self._players(players)
        who = np.where(self._rows[:, H_STATUS] == LIVE, who, np.int32(-1))  # a fresh int32 array
        # an action id outside [0, num_actions) is illegal: that row is skipped by the kernel and reported
        # (as uint32 a negative id is past num_actions, so one comparison finds both ends)
        wild = (acts.view(np.uint32) >= self.spec.num_actions) & (who >= 0)
        return acts, who, wild

    def step(self, actions: Any, players: Any = None, errors: str = "raise") -> StepResult:
        """Apply one decision in every row where ``players[i] >= 0`` (default: the player to act; finished rows
        are skipped). ``actions`` are real integers (floats, bools and values past int32 are refused, not cast).
        ``errors="raise"`` raises :class:`IllegalActionError` naming the first bad row after the legal rows are
        applied (the rows are independent games; the bad rows are untouched); ``errors="ignore"`` leaves it to
        :attr:`last_errors`. Bad arguments raise :class:`BadArgumentError` before any row changes.
        """
        acts, who, wild = self._decisions(actions, players, errors)
        any_wild = np.count_nonzero(wild) > 0
        run_who = np.where(wild, np.int32(-1), who) if any_wild else who
        self.kernels.batch_step(self._rows, self.pool.tables, run_who, acts, self._errors)
        if any_wild:
            self._errors[wild] = 1
        if errors == "raise" and np.count_nonzero(self._errors):
            bad = int(np.flatnonzero(self._errors)[0])
            raise IllegalActionError(self.describe_illegal(bad, int(who[bad]), int(acts[bad])))
        result = StepResult(
            rewards_from(self._rows[:, H_WINNER], self._rows[:, H_STATUS]),
            self._rows[:, H_STATUS] == TERMINATED,
            self._rows[:, H_STATUS] == TRUNCATED,
        )
        if self.autoreset:
            done = result.terminated | result.truncated
            self.final_states = self._rows[done].copy() if done.any() else None
            if done.any():
                next_seeds = self.seeds + self.num_games  # a fresh, deterministic seed per finished row
                self.reset(next_seeds, rows=done)
        return result

    def header(self) -> tuple[int, int, int]:
        """``(status, to_act, winner)`` of the first row as Python ints, read without the tracked ``states`` view (the
        single envs, one game each, read it after every step)."""
        head = self._rows[0]
        return int(head[H_STATUS]), int(head[H_TO_ACT]), int(head[H_WINNER])

    def step_one(self, action: int, player: int) -> None:
        """:meth:`step` of a one-game batch without autoreset, from Python ints: the single envs' hot path (no
        argument arrays to check, no result arrays). The same checks, errors and state as
        ``step([action], players=[player])``; the outcome is in the row's header."""
        if self.num_games != 1 or self.autoreset:
            raise BadArgumentError("step_one needs a one-game BatchGame without autoreset; use step")
        if (type(action) is not int and not is_int(action)) or not INT32_MIN <= action <= INT32_MAX:
            raise BadArgumentError(f"actions must be an integer in [{INT32_MIN}, {INT32_MAX}], got {action!r}")
        if (type(player) is not int and not is_int(player)) or not -1 <= player <= 1:
            raise BadArgumentError(f"players must be -1, 0 or 1, got {player!r}")
        if self._dirty.any:
            self._admit_rows()
        states = self._rows
        who = int(player) if states[0, H_STATUS] == LIVE else -1
        wild = who >= 0 and not 0 <= action < self.spec.num_actions
        errors = self._errors
        one_who, one_act = self._one_decision  # reused: two np.array calls were ~7% of an AEC step (cProfile)
        one_who[0] = -1 if wild else who
        one_act[0] = action
        self.kernels.batch_step(states, self.pool.tables, one_who, one_act, errors)
        if wild:
            errors[0] = 1
        if errors[0]:
            raise IllegalActionError(self.describe_illegal(0, who, int(action)))

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
        if self.kernels.batch_play is None:
            return self._play_composed(actions, players, viewers, errors, observe)
        return self._play_fused(actions, players, viewers, errors, observe, True)

    def _play_fused(self, actions: Any, players: Any, viewers: Any, errors: str, observe: bool,
                    with_result: bool) -> tuple[StepResult | None, np.ndarray, np.ndarray]:
        """:meth:`play` through the fused kernel; ``with_result=False`` (:meth:`play_out`, which reads the
        statuses from the rows) skips the rewards and flags of the :class:`StepResult` and returns None for it."""
        play = self.kernels.batch_play
        acts, who, wild = self._decisions(actions, players, errors)
        view = self._viewers(viewers)
        any_wild = np.count_nonzero(wild) > 0
        run_who = np.where(wild, np.int32(-1), who) if any_wild else who
        if self._finals is None or (self.autoreset and self._finals.shape != self._rows.shape):
            # finished rows are copied here before their autoreset; without autoreset nothing is written
            width = self._rows.shape[1]
            self._finals = np.zeros_like(self._rows) if self.autoreset else np.zeros((1, width), np.int32)
        play(self._rows, self.pool.tables, self.decks, self.seeds, self.num_games, bool(self.autoreset), run_who, acts,
             self._errors, self._ended, self._finals, view, bool(observe), self._obs, self._mask)
        if any_wild:
            self._errors[wild] = 1
        ended = self._ended.astype(np.bool_) if np.count_nonzero(self._ended) else None
        self.final_states = None if ended is None else self._finals[ended].copy()
        if errors == "raise" and np.count_nonzero(self._errors):
            bad = int(np.flatnonzero(self._errors)[0])
            raise IllegalActionError(self.describe_illegal(bad, int(who[bad]), int(acts[bad])))
        if not with_result:
            return None, self._obs, self._mask
        if ended is not None:
            status = np.where(ended, self._finals[:, H_STATUS], self._rows[:, H_STATUS])
            winner = np.where(ended, self._finals[:, H_WINNER], self._rows[:, H_WINNER])
        else:
            status, winner = self._rows[:, H_STATUS], self._rows[:, H_WINNER]
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
        who = self._rows[:, H_TO_ACT].copy()
        obs, mask = self._first_view(who, observe)
        fused = self.kernels.batch_play is not None
        total = 0
        for _ in range(max_steps):
            live = int(np.count_nonzero(who >= 0))
            if live == 0:
                return total
            actions = decide(who, obs, mask)
            total += live
            _, obs, mask = (self._play_fused(actions, who, None, "raise", observe, False) if fused
                            else self.play(actions, players=who, observe=observe))
            obs = obs if observe else None
            who = self._rows[:, H_TO_ACT].copy()
            if on_step is not None:
                on_step()
        raise RuntimeError(f"{self.spec.name}: games still live after {max_steps} decisions")

    def _first_view(self, who: np.ndarray, observe: bool) -> tuple[np.ndarray | None, np.ndarray]:
        """:meth:`play_out`'s first observation (None without ``observe``) and mask, from ``who[i]``'s seat (-1:
        zeros); a fused batch takes them from the fused kernel with no step (players -1)."""
        if not self.fused:
            return (self.observe(who) if observe else None), self.legal_mask(who)
        _, obs, mask = self._play_fused(np.zeros(self.num_games, np.int32), self._players(-1), who, "raise", observe,
                                        False)
        if not observe:
            return None, mask
        if np.count_nonzero(who < 0):
            obs[who < 0] = 0.0  # observe(-1) is zeros: a finished row shows nothing
        return obs, mask

    @classmethod
    def warm_up(cls, game: str | GameSpec, pool: Any = None, decks: Any = None, observe: bool = True) -> None:
        """Make, on a throwaway one-game ``fused`` batch (the kind tournaments and training evaluations play), the
        first calls of the kernels its :meth:`play_out` uses (the fused :meth:`play` alone where the game has one):
        a kernel compiles at its first call in a process (with a progress line), so a clock started after this times
        play only."""
        probe = cls(game, 1, decks=decks, seed=0, pool=pool, fused=True)
        who = probe._rows[:, H_TO_ACT].copy()
        _, mask = probe._first_view(who, observe)
        probe.play(mask.argmax(axis=1), players=who, observe=observe)

    def _viewers(self, viewers: Any) -> np.ndarray:
        if viewers is None:  # -1 in every row: the kernels show each row's player to act
            return self._players(-1)
        return seat_array(viewers, "viewers", self.num_games, self._players(-1))

    def _play_composed(self, actions: Any, players: Any, viewers: Any, errors: str, observe: bool = True):
        """:meth:`play` for a game without a fused kernel: the same results from the four kernels."""
        view = self._viewers(viewers)  # checked before the step changes anything
        result = self.step(actions, players, errors)
        view = np.where(view >= 0, view, self._rows[:, H_TO_ACT]).astype(np.int32)
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
        """Each row's observation from ``players[i]``'s seat (default: the player to act; -1: zeros), in
        ``spec.obs_dtype`` (compact integers for a compact layout: ``spec.float_observation(obs)`` is the float32
        view). ``out``: a C-contiguous ``[num_games, obs_dim]`` array of ``spec.obs_dtype`` to write into (default:
        the batch's own buffer)."""
        if out is None:
            out = self._obs
        else:
            out = out_buffer(out, (self.num_games, self.spec.obs_dim), self.spec.obs_dtype, "observe")
        if self._dirty.any:
            self._admit_rows()
        self.kernels.batch_observe(self._rows, self.pool.tables, self._players(players), out)
        return out

    def legal_mask(self, players: Any = None, out: np.ndarray | None = None) -> np.ndarray:
        """int8 [N, num_actions]; all zeros where that player has nothing to decide. ``out``: a C-contiguous
        ``int8[num_games, num_actions]`` to write into (default: the batch's own buffer)."""
        if out is None:
            out = self._mask
        else:
            out = out_buffer(out, (self.num_games, self.spec.num_actions), np.int8, "legal_mask")
        if self._dirty.any:
            self._admit_rows()
        self.kernels.batch_mask(self._rows, self.pool.tables, self._players(players), out)
        return out

    # ----- text --------------------------------------------------------------------------------------------
    def _row(self, row: Any) -> int:
        if not is_int(row) or not -self.num_games <= int(row) < self.num_games:
            raise BadArgumentError(f"row must be an integer in [0, {self.num_games}), got {row!r}")
        if self._dirty.any:  # the text helpers index tables by the row's numbers too
            self._admit_rows()
        return int(row) % self.num_games

    def action_name(self, action: int, row: int = 0, player: int | None = None) -> str:
        row = self._row(row)
        if not is_int(action) or not 0 <= int(action) < self.spec.num_actions:
            raise BadArgumentError(f"action must be an integer in [0, {self.spec.num_actions}), got {action!r}")
        p = int(self._rows[row, H_TO_ACT]) if player is None else player
        if not is_int(p) or not -1 <= int(p) <= 1:
            raise BadArgumentError(f"player must be -1, 0 or 1, got {p!r}")
        return self.spec.action_name(self._rows[row], self.pool, int(p), int(action))

    def render(self, row: int = 0, viewer: int | None = None) -> str:
        row = self._row(row)
        if viewer is not None and (not is_int(viewer) or int(viewer) not in (0, 1)):
            raise BadArgumentError(f"viewer must be None, 0 or 1, got {viewer!r}")
        return self.spec.render(self._rows[row], self.pool, None if viewer is None else int(viewer))

    def clone(self) -> "BatchGame":
        """A copy sharing the (read-only) pool and decks; states copied."""
        twin = object.__new__(BatchGame)
        twin.__dict__.update(self.__dict__)
        twin._rows = self._rows.copy()
        twin._track(self._dirty.rows)
        twin._obs, twin._mask, twin._errors = self._obs.copy(), self._mask.copy(), self._errors.copy()
        twin._ended, twin._finals = self._ended.copy(), None
        twin._one_decision = _one_decision()  # its own: a clone may step in another thread
        twin._seat_cache = [None, None, None]
        twin.seeds = self.seeds.copy()
        return twin
