"""Playing games for the evaluators: the unit of work (a :class:`Chunk` of games), :func:`play_chunk`, and the
:class:`Tally` of counters it returns; seeds and pilots. The schedulers (:mod:`.tournament`) and the Ray backend
(:mod:`.ray_backend`) both build on this module, which imports neither (so neither imports the other back).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from cardenvs.core.batch import BatchGame, get_spec
from cardenvs.core.decks import Deck
from cardenvs.core.errors import BadArgumentError
from cardenvs.core.header import DRAW, LIVE, TRUNCATED
from cardenvs.core.seat_view import agent_states
from cardenvs.core.seeds import seed_bits
from cardenvs.core.spec import GameSpec


# outcome codes of one game, from the seats' point of view
SEAT0_WINS, SEAT1_WINS, DRAWN, TRUNCATED_GAME = 0, 1, 2, 3
# per-card counters: games and doubled points (2 win, 1 draw, 0 loss; integers merge exactly) per category
CARD_CATEGORIES = ("gp", "gih", "gns", "played")
CARD_COLS = len(CARD_CATEGORIES) * 2
MAX_STEPS = 1_000_000  # guard against a ruleset that never ends a game (the kernels truncate at their cap)

ProgressFn = Callable[[int], None]


# ----- seeds ------------------------------------------------------------------------------------------------------
_M64 = (1 << 64) - 1


def _splitmix(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        z = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(_M64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def derive_seeds(seed: int, *keys: int | np.ndarray) -> np.ndarray:
    """Non-negative int64 seeds hashed from ``seed`` and the keys (scalars or arrays, broadcast together)."""
    h = _splitmix(np.atleast_1d(np.asarray(seed_bits(seed), dtype=np.uint64)))
    for key in keys:
        k = np.asarray(key).astype(np.int64).astype(np.uint64)
        h = _splitmix(h ^ _splitmix(k))
    return (h >> np.uint64(1)).astype(np.int64)


def derive_seed(seed: int, *keys: int) -> int:
    return int(derive_seeds(seed, *keys)[0])


# ----- entries and chunks -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One participant: a deck piloted by an agent kind (``random``, ``heuristic``, ``ppo:PATH``)."""

    label: str
    deck: Deck
    pilot: str = "random"


def make_entries(game: str | GameSpec, decks: Sequence[str | Path | Deck] | None = None,
                 pilots: Sequence[str] = ("random",)) -> list[Entry]:
    """Every deck x every pilot; decks default to the game's starter decks. Loads (and so validates) each deck."""
    spec = get_spec(game)
    pool = spec.load_pool(None)
    if not decks:
        decks = spec.starter_decks()
    if not pilots:
        raise BadArgumentError("need at least one pilot")
    loaded = [d if isinstance(d, Deck) else spec.load_deck(d, pool) for d in decks]
    names = deck_labels(loaded, decks)
    entries = []
    for deck, name in zip(loaded, names):
        for pilot in pilots:
            label = name if len(pilots) == 1 else f"{name}@{pilot}"
            entries.append(Entry(label, deck, str(pilot)))
    if len(entries) < 2:
        raise BadArgumentError("a tournament needs at least two decks (or two pilots)")
    return entries


def deck_labels(loaded: Sequence[Deck], given: Sequence[Any]) -> list[str]:
    """One label per deck, all different, each saying which file it came from: the file's name (its stem); where two
    files share a name, the path as given; the same file given twice gets ``#2``, ``#3``... after it, never a label
    another deck already has (issue 43: ``a.toml``, ``x/a.toml`` and ``a#2.toml`` once made two ``a#2``)."""
    stems = [_deck_label(d, g) for d, g in zip(loaded, given)]
    wanted = [stem if stems.count(stem) == 1 else _deck_source(d, g) for stem, d, g in zip(stems, loaded, given)]
    reserved, taken, out = set(wanted), set(), []
    for label in wanted:
        if label in taken:
            k = 2
            while f"{label}#{k}" in taken or f"{label}#{k}" in reserved:
                k += 1
            label = f"{label}#{k}"
        taken.add(label)
        out.append(label)
    return out


def _deck_source(deck: Deck, given: Any) -> str:
    """Where a deck came from, as the user named it: the path given, else the deck's own path or name."""
    if isinstance(given, Deck):
        return str(given.path or given.name)
    return str(given)


def _deck_label(deck: Deck, given: Any) -> str:
    if isinstance(given, Deck):
        return Path(given.path).stem or given.name
    return Path(str(given)).stem


@dataclass
class Chunk:
    """A fixed batch of games: everything :func:`play_chunk` needs, so its result is a pure function of it."""

    index: int
    seat0: np.ndarray  # int32 [n] entry index in seat 0
    seat1: np.ndarray  # int32 [n] entry index in seat 1
    seeds: np.ndarray  # int64 [n] game seeds
    game_ids: np.ndarray  # int64 [n] (pair << 40) | (k << 1) | swapped
    pilot_seed: int  # seeds the pilots' randomness for this chunk

    def __len__(self) -> int:
        return int(self.seeds.size)


@dataclass
class Tally:
    """Mergeable counters of played games (all integers, so any merge order gives the same totals)."""

    results: np.ndarray  # int64 [E, E, 4]: [seat-0 entry, seat-1 entry] -> seat0 wins, seat1 wins, draws, truncated
    first: np.ndarray  # int64 [E, E, 4]: same, but [first player's entry, second player's entry] (if known)
    cards: np.ndarray  # int64 [E, n_cards, CARD_COLS]: per category games, doubled points
    game_ids: np.ndarray  # int64 [G] per game, sorted
    outcomes: np.ndarray  # int8 [G] outcome code (SEAT0_WINS ...)
    first_player: np.ndarray  # int8 [G] seat that moved first (-1 unknown)
    turns: np.ndarray  # int32 [G]
    #: per game: the entries in seat 0 and seat 1 (int32 [G, 2]) and which cards each seat drew (np.packbits of the
    #: [G, 2, n_cards] flags along the card axis, uint8), what the per-card model (:mod:`.card_model`) fits; None
    #: in a tally built without them (then merges keep None)
    seats: np.ndarray | None = None
    drawn: np.ndarray | None = None
    #: per game: how it ended (int8 [G], an index into the game's ``GameSpec.endings``; -1 truncated or not known);
    #: None in a tally built without them
    endings: np.ndarray | None = None

    @classmethod
    def empty(cls, n_entries: int, n_cards: int) -> "Tally":
        e = n_entries
        return cls(np.zeros((e, e, 4), np.int64), np.zeros((e, e, 4), np.int64), np.zeros((e, n_cards, CARD_COLS), np.int64),
                   np.zeros(0, np.int64), np.zeros(0, np.int8), np.zeros(0, np.int8), np.zeros(0, np.int32),
                   np.zeros((0, 2), np.int32), np.zeros((0, 2, -(-n_cards // 8)), np.uint8), np.zeros(0, np.int8))

    def merge(self, other: "Tally") -> "Tally":
        ids = np.concatenate([self.game_ids, other.game_ids])
        order = np.argsort(ids, kind="stable")
        cat = lambda a, b: np.concatenate([a, b])[order]  # noqa: E731
        per_game = [None if a is None or b is None else cat(a, b)
                    for a, b in ((self.seats, other.seats), (self.drawn, other.drawn), (self.endings, other.endings))]
        return Tally(self.results + other.results, self.first + other.first, self.cards + other.cards, ids[order],
                     cat(self.outcomes, other.outcomes), cat(self.first_player, other.first_player), cat(self.turns, other.turns),
                     *per_game)

    def drawn_flags(self, n_cards: int) -> np.ndarray:
        """bool [G, 2, n_cards]: whether each seat drew a copy of each card in each game (unpacked ``drawn``)."""
        if self.drawn is None:
            raise ValueError("this tally was built without per-game card flags")
        return np.unpackbits(self.drawn, axis=2, count=n_cards).astype(bool)

    @property
    def games(self) -> int:
        return int(self.game_ids.size)


# ----- playing ------------------------------------------------------------------------------------------------------
class SeededRandomPilot:
    """The ``random`` pilot of tournaments: a uniformly random legal action drawn from a hash of (game seed, seat,
    that seat's decision count) instead of one generator shared by the batch.

    Why not ``agents.RandomAgent``: with a shared generator a game's course depends on which other games are in
    its batch. Here every game is a pure function of its seed, so results do not depend on chunking or backend,
    and common random numbers reach the pilot's own choices too: deck C's pilot makes the same draws in game k
    against A as against B, which is what makes the A-minus-B comparison sharper.
    """

    name = "random"

    def act_rows(self, mask: np.ndarray, seeds: np.ndarray, seats: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """One action per row of ``mask`` for the games of ``seeds``, the deciding ``seats`` and their decision
        ``counts``."""
        out = np.zeros(mask.shape[0], dtype=np.int32)
        self.act_into(mask, np.arange(mask.shape[0]), seeds, seats, counts, out)
        return out

    def act_into(self, mask: np.ndarray, rows: np.ndarray, seeds: np.ndarray, seats: np.ndarray, counts: np.ndarray,
                 out: np.ndarray) -> None:
        """:meth:`act_rows` for ``mask[rows]``, written to ``out[rows]`` (no copy of the mask rows)."""
        from cardenvs.agents.random_agent import pick_legal

        key = _splitmix(seeds.astype(np.uint64) ^ _splitmix((seats.astype(np.int64) + 2 * counts).astype(np.uint64)))
        u = (key >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))  # uniform in [0, 1)
        if mask.dtype != np.int8 or not mask.flags.c_contiguous:  # one compiled signature for the kernel
            mask = np.ascontiguousarray(mask != 0, dtype=np.int8)
        # the pick-th legal action in column order, pick = floor(u * number of legal actions)
        pick_legal(mask, np.asarray(rows, dtype=np.int64), u, out)


def _make_pilots(spec: GameSpec, entries: Sequence[Entry], seed: int) -> tuple[list[Any], np.ndarray]:
    """One agent object per distinct pilot kind, and the pilot index of each entry."""
    from ..core.agents import make_agent

    kinds: list[str] = []
    for e in entries:
        if e.pilot not in kinds:
            kinds.append(e.pilot)
    agents = [SeededRandomPilot() if kind == "random" else make_agent(spec.name, kind, seed=derive_seed(seed, i))
              for i, kind in enumerate(kinds)]
    return agents, np.array([kinds.index(e.pilot) for e in entries], dtype=np.int32)


def play_chunk(game: str | GameSpec, entries: Sequence[Entry], chunk: Chunk, progress: ProgressFn | None = None,
               history: list | None = None) -> Tally:
    """Play every game of ``chunk`` to the end in one BatchGame and count the results.

    With ``history`` (a list), also append a :class:`ChunkHistory` of every decision of every game (who decided and
    what, per loop), from which :mod:`cardenvs.eval.replays` writes chosen games as replays.

    Each loop iteration is one decision in every live game: one fused ``BatchGame.play`` call over the whole batch
    (step, then the next mover's mask and observation), and one ``act`` call per pilot kind over the rows it pilots.
    Per-card flags are read from the final states' ``drawn``/``played``/``deck_list`` fields, vectorised over games.
    """
    spec = get_spec(game)
    n = len(chunk)
    pool = spec.load_pool(None)
    decks = [(entries[a].deck, entries[b].deck) for a, b in zip(chunk.seat0.tolist(), chunk.seat1.tolist())]
    batch = BatchGame(spec, n, decks=decks, seed=chunk.seeds, pool=pool, fused=True)
    agents, pilot_of_entry = _make_pilots(spec, entries, chunk.pilot_seed)
    seat_pilot = np.stack([pilot_of_entry[chunk.seat0], pilot_of_entry[chunk.seat1]], axis=1)  # [n, 2]
    seeded = [isinstance(a, SeededRandomPilot) for a in agents]
    own_decisions = np.zeros((n, 2), dtype=np.int64)  # per seat, keys the seeded random pilot's draws
    actions = np.zeros(n, dtype=np.int32)
    # observations only when a pilot reads them (the seeded random pilot and the state heuristics never do): writing
    # them was 40% of a heuristic levelneo tournament
    needs_obs = any(not s and getattr(a, "reads_observation", True) for a, s in zip(agents, seeded))
    finished = 0

    def decide(who: np.ndarray, obs: np.ndarray | None, mask: np.ndarray) -> np.ndarray:
        rows = np.flatnonzero(who >= 0)
        seats = who[rows]
        actions[:] = 0
        row_pilot = seat_pilot[rows, seats] if len(agents) > 1 else None
        for k, agent in enumerate(agents):
            sub, sub_seats = (rows, seats) if row_pilot is None else (rows[row_pilot == k], seats[row_pilot == k])
            if sub.size == 0:
                continue
            if seeded[k]:
                agent.act_into(mask, sub, chunk.seeds[sub], sub_seats, own_decisions[sub, sub_seats], actions)
            elif sub.size == n and getattr(agent, "inputs_read_only", False):
                # every game live and piloted by this agent, which only reads its inputs: no row copies (for relics
                # and heartbreak copying 10-11 KB of state per row cost more than the heuristic itself)
                actions[:] = agent.act(obs, mask, agent_states(agent, spec, batch.states, sub_seats), sub_seats)
            elif obs is not None and hasattr(agent, "act_rows"):  # reads the live rows in place (the policy)
                actions[sub] = agent.act_rows(obs, mask, sub, sub_seats)
            else:
                actions[sub] = agent.act(None if obs is None else obs[sub], mask[sub],
                                         agent_states(agent, spec, batch.states, sub_seats, rows=sub), sub_seats)
        own_decisions[rows, seats] += 1
        return actions

    def report_progress() -> None:
        nonlocal finished
        done = int(n - np.count_nonzero(batch.status == LIVE))
        if done > finished:
            progress(done - finished)
            finished = done

    whos: list[np.ndarray] = []
    acts: list[np.ndarray] = []

    def recording(who: np.ndarray, obs: np.ndarray | None, mask: np.ndarray) -> np.ndarray:
        chosen = decide(who, obs, mask)
        whos.append(who.astype(np.int8))
        acts.append(chosen.astype(np.int16 if spec.num_actions < 2**15 else np.int32))
        return chosen

    batch.play_out(decide if history is None else recording, observe=needs_obs,
                   on_step=None if progress is None else report_progress, max_steps=MAX_STEPS)
    if history is not None:
        history.append(ChunkHistory(chunk, decks, np.stack(whos) if whos else np.zeros((0, n), np.int8),
                                    np.stack(acts) if acts else np.zeros((0, n), np.int16), batch.states.copy()))
    return _count(spec, pool, len(entries), chunk, batch.states)


@dataclass
class ChunkHistory:
    """Every decision of every game of a chunk: ``who[t, i]`` decided ``actions[t, i]`` in loop ``t`` of game ``i``
    (``who`` is -1 once the game is over); ``finals`` are the final states."""

    chunk: Chunk
    decks: list[tuple[Deck, Deck]]
    who: np.ndarray
    actions: np.ndarray
    finals: np.ndarray

    def decisions(self, i: int) -> list[tuple[int, int]]:
        live = self.who[:, i] >= 0
        return list(zip(self.who[live, i].tolist(), self.actions[live, i].tolist()))


def _count(spec: GameSpec, pool: Any, n_entries: int, chunk: Chunk, states: np.ndarray) -> Tally:
    layout = spec.state_layout
    n = states.shape[0]
    status = layout.get(states, "status")
    winner = layout.get(states, "winner")
    outcome = np.where(status == TRUNCATED, TRUNCATED_GAME,
                       np.where(winner == 0, SEAT0_WINS, np.where(winner == 1, SEAT1_WINS, DRAWN))).astype(np.int8)
    outcome[(status != TRUNCATED) & (winner == DRAW)] = DRAWN
    e = n_entries
    results = np.bincount((chunk.seat0.astype(np.int64) * e + chunk.seat1) * 4 + outcome, minlength=e * e * 4).reshape(e, e, 4)

    # who moved first, where the game records it; the first-player table is the results table re-seated
    names = {f.name for f in layout.fields}
    first_player = layout.get(states, "first_player").astype(np.int8) if "first_player" in names else np.full(n, -1, np.int8)
    known = (first_player == 0) | (first_player == 1)
    swap = first_player == 1
    f_a = np.where(swap, chunk.seat1, chunk.seat0)[known].astype(np.int64)
    f_b = np.where(swap, chunk.seat0, chunk.seat1)[known].astype(np.int64)
    f_out = outcome[known].copy()
    flip = swap[known] & (f_out < DRAWN)
    f_out[flip] = 1 - f_out[flip]
    first = np.bincount((f_a * e + f_b) * 4 + f_out, minlength=e * e * 4).reshape(e, e, 4)

    turns = layout.get(states, "turn").astype(np.int32)
    cards, drawn = _card_counts(layout, len(pool), e, chunk, states, outcome)
    seats = np.stack([chunk.seat0, chunk.seat1], axis=1).astype(np.int32)
    endings = spec.end_reason(states).astype(np.int8) if spec.end_reason is not None else np.full(n, -1, np.int8)
    return Tally(results, first, cards, chunk.game_ids.copy(), outcome, first_player, turns, seats,
                 np.packbits(drawn, axis=2), endings)


def _card_counts(layout: Any, n_cards: int, n_entries: int, chunk: Chunk, states: np.ndarray,
                 outcome: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per (entry, card id): games with the card in the deck / drawn / never drawn / played, and the points won;
    and the per-game flags [n, 2, n_cards] of the cards each seat drew.

    A card counts as drawn (played) in a game if any copy of it was; 17lands counts a card once per game too.
    """
    n = states.shape[0]
    deck_list = layout.get(states, "deck_list").astype(np.int64)  # [n, 2, D]
    drawn = layout.get(states, "drawn") != 0
    played = layout.get(states, "played") != 0
    # doubled points per seat: 2 win, 1 draw or truncation, 0 loss
    pts = np.ones((n, 2), dtype=np.int64)
    pts[outcome == SEAT0_WINS] = (2, 0)
    pts[outcome == SEAT1_WINS] = (0, 2)
    valid = deck_list >= 0
    slot = (np.arange(n)[:, None, None] * 2 + np.arange(2)[None, :, None]) * n_cards + np.where(valid, deck_list, 0)
    size = n * 2 * n_cards
    present = np.zeros(size, np.bool_)
    present[slot[valid]] = True
    was_drawn = np.zeros(size, np.bool_)
    was_drawn[slot[valid & drawn]] = True
    was_played = np.zeros(size, np.bool_)
    was_played[slot[valid & played]] = True
    present, was_drawn, was_played = (a.reshape(n, 2, n_cards) for a in (present, was_drawn, was_played))
    not_drawn = present & ~was_drawn
    entry = np.stack([chunk.seat0, chunk.seat1], axis=1).astype(np.int64)  # [n, 2]
    key = (entry[:, :, None] * n_cards + np.arange(n_cards)[None, None, :]).ravel()
    w = np.broadcast_to(pts[:, :, None], (n, 2, n_cards)).ravel()
    out = np.zeros((n_entries * n_cards, CARD_COLS), np.int64)
    for c, flags in enumerate((present, was_drawn, not_drawn, was_played)):
        f = flags.ravel()
        out[:, 2 * c] = np.bincount(key[f], minlength=n_entries * n_cards)
        out[:, 2 * c + 1] = np.bincount(key[f], weights=w[f], minlength=n_entries * n_cards).astype(np.int64)
    return out.reshape(n_entries, n_cards, CARD_COLS), was_drawn


# ----- schedule -------------------------------------------------------------------------------------------------


__all__ = [
    "CARD_CATEGORIES", "CARD_COLS", "Chunk", "ChunkHistory", "deck_labels", "derive_seed", "derive_seeds", "DRAWN",
    "Entry", "make_entries", "MAX_STEPS", "play_chunk", "ProgressFn", "SEAT0_WINS", "SEAT1_WINS", "SeededRandomPilot",
    "Tally", "TRUNCATED_GAME"
]
