"""Round-robin tournaments of decks x pilots on the batch core.

The unit of work is a :class:`Chunk`: a fixed list of games (who sits where, the seed of each game) plus one seed
for the pilots' own randomness. :func:`play_chunk` plays a chunk as one :class:`~cardenvs.core.batch.BatchGame`,
one batched ``step`` per decision for all live games, and returns a :class:`Tally` of integer counters that merge
by addition. The schedule (which games, which seeds, how they are cut into chunks, each chunk's pilot seed)
depends only on the tournament seed, so the local loop and the Ray backend play the very same chunks and produce
identical numbers. With the ``random`` pilot every game is moreover a pure function of its own seed, so even the
chunk size does not change a result.

Common random numbers: game ``k`` has the same seed in every pairing and in both seatings (A in seat 0, then B in
seat 0), and the ``random`` pilot draws its choices from that seed too (:class:`SeededRandomPilot`). Deck C then
meets A and B with the same shuffles, chance draws and pilot draws, so comparisons such as "A against the field
minus B against the field" lose the noise they share.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from cardenvs.core.batch import BatchGame, get_spec
from cardenvs.core.decks import Deck
from cardenvs.core.errors import BadArgumentError
from cardenvs.core.spec import GameSpec

from . import stats
from .matches import (  # noqa: F401  (the playing part, re-exported: it was defined here)
    CARD_CATEGORIES, CARD_COLS, DRAWN, MAX_STEPS, SEAT0_WINS, SEAT1_WINS, TRUNCATED_GAME, Chunk, Entry, ProgressFn,
    SeededRandomPilot, Tally, derive_seed, derive_seeds, make_entries, play_chunk, seed_bits,
)


def pairings(n_entries: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n_entries) for j in range(i + 1, n_entries)]


#: the most games one tournament or SPRT may schedule: each played game keeps a record (id, outcome, first player,
#: turns, the two entries and the cards each seat drew, for the per-card model: about 40 bytes with a 74-card pool)
#: for the statistics, so 50 million games hold 2 GB (and take days at the batch core's rates)
MAX_TOURNAMENT_GAMES = 50_000_000


def check_total(games_per_pairing: int, pairings_count: int, flag: str = "--games") -> None:
    """Refuse a tournament whose games would not fit in memory (``eval --games 2000000000`` allocated its whole
    schedule, 65 bytes a game, and was killed at 23.9 GB): one line that says the limit."""
    total = int(games_per_pairing) * int(pairings_count)
    if total > MAX_TOURNAMENT_GAMES:
        raise BadArgumentError(f"{flag} {games_per_pairing:,} x {pairings_count} pairing(s) is {total:,} games; a "
                               f"tournament plays at most {MAX_TOURNAMENT_GAMES:,} (each game's record is kept for "
                               f"the statistics): use fewer games, fewer decks or --ci-width")


def iter_round(seed: int, pairs: Sequence[tuple[int, int]], ranges: dict[int, tuple[int, int]], chunk_size: int,
               first_chunk: int = 0, crn: bool = True, pair_keys: Sequence[int] | None = None) -> Iterator[Chunk]:
    """:func:`plan_round`'s chunks, made one at a time: memory holds one chunk's schedule, not the round's."""
    pieces: list[tuple[np.ndarray, ...]] = []
    held, index = 0, first_chunk
    step = max(1, chunk_size // 2)  # paired games (k) per piece: a piece holds 2 * step games

    def cut(n: int) -> Chunk:
        nonlocal pieces, held, index
        s0, s1, gid, sd = (np.concatenate(x) for x in zip(*pieces))
        pieces = [(s0[n:], s1[n:], gid[n:], sd[n:])] if n < gid.size else []
        held -= n
        chunk = Chunk(index, s0[:n], s1[:n], sd[:n], gid[:n], derive_seed(seed, 0xA6E47, index))
        index += 1
        return chunk

    for p in sorted(ranges):
        k0, k1 = ranges[p]
        a, b = pairs[p]
        # CRN: game k has one seed in both seatings and in every pairing (so A-vs-C and B-vs-C share C's luck);
        # without CRN the pairing and the seating are part of the key
        key, flip = (p, 0) if pair_keys is None else (int(pair_keys[p]) >> 1, int(pair_keys[p]) & 1)
        for lo in range(k0, k1, step):
            hi = min(k1, lo + step)
            k = np.repeat(np.arange(lo, hi, dtype=np.int64), 2)
            swapped = np.tile(np.array([0, 1], dtype=np.int64), hi - lo)
            seeds = derive_seeds(seed, 0x5EED, k) if crn else derive_seeds(seed, 0x5EED, key, swapped ^ flip, k)
            pieces.append((np.where(swapped == 0, a, b).astype(np.int32), np.where(swapped == 0, b, a).astype(np.int32),
                           (np.int64(p) << 40) | (k << 1) | swapped, seeds))
            held += k.size
            while held >= chunk_size:
                yield cut(chunk_size)
    if held:
        yield cut(held)


def plan_round(seed: int, pairs: Sequence[tuple[int, int]], ranges: dict[int, tuple[int, int]], chunk_size: int,
               first_chunk: int = 0, crn: bool = True, pair_keys: Sequence[int] | None = None) -> list[Chunk]:
    """Games ``k in [k0, k1)`` of each pairing ``p`` in ``ranges``, both seatings, cut into fixed-size chunks.

    The order (pairing, k, seating) and the cut points depend only on the arguments, so every backend plays the
    same chunks; chunk ``c`` seeds its pilots from ``(seed, c)``. A game's seed never depends on where its pairing
    sits in the schedule: with CRN it is keyed by ``k`` alone, without CRN by the pairing, who sits in seat 0 and
    ``k`` (``pair_keys[p]``: :func:`pairing_key` of the two entries; default: ``p``), so a gauntlet replays exactly
    the games of the same pairings in a round robin, whichever entry of a pairing is listed first. The tournaments
    play :func:`iter_round`'s chunks as they are made.
    """
    return list(iter_round(seed, pairs, ranges, chunk_size, first_chunk, crn, pair_keys))


class _Counted:
    """Chunks passed through while counting them (the next round's first chunk index)."""

    def __init__(self, chunks: Iterator[Chunk]) -> None:
        self.chunks, self.count = chunks, 0

    def __iter__(self) -> Iterator[Chunk]:
        for chunk in self.chunks:
            self.count += 1
            yield chunk


# ----- backends -----------------------------------------------------------------------------------------------------
class LocalBackend:
    """Plays chunks one after another in this process (Numba's threads use every core inside a chunk). With
    ``history`` (a list) it keeps every decision of every game there, for replays (``cardenvs eval --save-replays``)."""

    name = "local"

    def __init__(self, history: list | None = None) -> None:
        self.history = history

    def run(self, game: str, entries: Sequence[Entry], chunks: Sequence[Chunk],
            progress: ProgressFn | None = None) -> Iterator[Tally]:
        for chunk in chunks:
            yield play_chunk(game, entries, chunk, progress, history=self.history)

    def close(self) -> None:
        pass


def make_backend(name: str = "local", address: str | None = None, workers: int | None = None) -> Any:
    if name == "local":
        return LocalBackend()
    if name == "ray":
        from .ray_backend import RayBackend

        return RayBackend(address=address, workers=workers)
    raise BadArgumentError(f"unknown backend {name!r}; choose local or ray")


# ----- tournaments --------------------------------------------------------------------------------------------------
@dataclass
class TournamentResult:
    """Counters of a finished tournament plus what is needed to turn them into statistics."""

    game: str
    seed: int
    entries: list[Entry]
    card_names: list[str]
    tally: Tally
    rounds: int = 1
    elapsed: float = 0.0
    backend: str = "local"
    has_first_player: bool = False
    config: dict = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        return [e.label for e in self.entries]

    #: the pairings played (entry indices), when not every pair (a gauntlet); None: the full round robin
    schedule: list | None = None

    @property
    def pairs(self) -> list[tuple[int, int]]:
        return [tuple(p) for p in self.schedule] if self.schedule is not None else pairings(len(self.entries))

    @property
    def games(self) -> int:
        return self.tally.games

    def pairing_stats(self) -> list[dict]:
        """Per unordered pairing: counts from a's side over both seatings, score and its Wilson interval."""
        res = self.tally.results
        rows = []
        for a, b in self.pairs:
            w = int(res[a, b, 0] + res[b, a, 1])
            l_ = int(res[a, b, 1] + res[b, a, 0])
            d = int(res[a, b, 2] + res[b, a, 2])
            t = int(res[a, b, 3] + res[b, a, 3])
            n = w + l_ + d + t
            score, lo, hi = stats.wilson(w + 0.5 * (d + t), n)
            rows.append({"a": self.labels[a], "b": self.labels[b], "games": n, "a_wins": w, "b_wins": l_,
                         "draws": d, "truncated": t, "a_score": score, "ci": [lo, hi]})
        return rows

    def score_matrix(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(score, lo, hi, games)`` [E, E]: row entry's score against the column entry (nan on the diagonal)."""
        pts, n = stats.pair_scores(self.tally.results)
        score, lo, hi = stats.wilson(pts, n)
        return score, lo, hi, n

    def ratings(self, bootstrap: int = 1000) -> stats.Ratings:
        return stats.rate(self.tally.results, self.labels, bootstrap=bootstrap, seed=self.seed)

    def ending_stats(self) -> dict | None:
        """How the games ended (issue 38 item 2: does a deck win the way the rules intend, or by stalling the other
        into a deck-out?): every ending the game declares (``GameSpec.endings``) with its label (the rule ID, numbered
        where one rule ends games several ways), games and share, then per entry the games it won, lost and drew
        each way, keyed by label. Truncated games and games no rule explains are counted apart.
        None when the game declares no endings or the tally has no per-game endings."""
        spec = get_spec(self.game)
        t = self.tally
        if not spec.endings or t.endings is None or t.seats is None or len(t.endings) != len(t.outcomes):
            return None
        codes = t.endings.astype(np.int64)
        n = len(codes)
        truncated = t.outcomes == TRUNCATED_GAME
        endings = []
        for k, (rule, what) in enumerate(spec.endings):
            games = int(np.count_nonzero(codes == k))
            # a label per ending: its rule ID, numbered where one rule ends games more than one way (simulfight)
            same = [j for j, (r, _) in enumerate(spec.endings) if r == rule]
            label = rule if len(same) == 1 else f"{rule}.{same.index(k) + 1}"
            endings.append({"label": label, "rule": rule, "what": what, "games": games,
                            "share": games / n if n else None})
        by_entry = []
        for e, entry in enumerate(self.entries):
            seat = np.where(t.seats[:, 0] == e, 0, np.where(t.seats[:, 1] == e, 1, -1))
            won = ((seat == 0) & (t.outcomes == SEAT0_WINS)) | ((seat == 1) & (t.outcomes == SEAT1_WINS))
            lost = ((seat == 0) & (t.outcomes == SEAT1_WINS)) | ((seat == 1) & (t.outcomes == SEAT0_WINS))
            drawn = (seat >= 0) & (t.outcomes == DRAWN)
            row: dict[str, Any] = {"label": entry.label, "games": int(np.count_nonzero(seat >= 0))}
            for key, sel in (("won", won), ("lost", lost), ("drawn", drawn)):
                row[key] = {x["label"]: int(np.count_nonzero(sel & (codes == k))) for k, x in enumerate(endings)}
            by_entry.append(row)
        return {"endings": endings, "truncated": int(np.count_nonzero(truncated)),
                "unexplained": int(np.count_nonzero((codes < 0) & ~truncated)), "by_entry": by_entry}

    def first_player_stats(self) -> dict:
        """The first player's score over all games (seat 0's where the game does not record who went first)."""
        t = self.tally
        if self.has_first_player:
            table, what = t.first, "first player"
        else:
            table, what = t.results, "seat 0"
        w, l_, d = int(table[..., 0].sum()), int(table[..., 1].sum()), int(table[..., 2:].sum())
        n = w + l_ + d
        score, lo, hi = stats.wilson(w + 0.5 * d, n)
        return {"who": what, "games": n, "wins": w, "losses": l_, "draws": d, "score": score, "ci": [lo, hi]}


def run_tournament(
    game: str | GameSpec,
    decks: Sequence[str | Path | Deck] | None = None,
    pilots: Sequence[str] = ("random",),
    games: int = 200,
    seed: int = 0,
    ci_width: float | None = None,
    max_games: int = 20000,
    chunk_size: int = 4096,
    backend: str | Any = "local",
    crn: bool = True,
    entries: Sequence[Entry] | None = None,
    progress: Any = None,
    pairs: Sequence[tuple[int, int]] | None = None,
) -> TournamentResult:
    """A round robin of every entry (deck x pilot) against every other, each game played in both seatings; with
    ``pairs`` (entry index pairs) only those pairings (a gauntlet: :mod:`cardenvs.eval.gauntlet`), each played
    exactly as in the round robin of the same entries and seed.

    ``games`` is the number of games per pairing, an even number (half with each seating). With ``ci_width``
    the tournament plays in rounds until every pairing's 95% Wilson interval is at most that wide (or a pairing
    reaches ``max_games``, a cap that is never exceeded: the first round has ``min(games, max_games)`` games). ``progress`` is an object with ``advance(n)`` and
    ``set_total(n)`` (see :mod:`cardenvs.eval.report`), or None.
    """
    spec = get_spec(game)
    seed_bits(seed)
    check_count("games", games)
    check_count("max_games", max_games)
    if games % 2:
        raise BadArgumentError(f"--games must be even (half of the games in each seating), got {games}")
    if ci_width is not None and max_games < 2:
        raise BadArgumentError(f"--max-games must be at least 2 (one game in each seating), got {max_games}")
    if ci_width is not None and not 0 < ci_width < 1:
        raise BadArgumentError(f"--ci-width must be between 0 and 1, got {ci_width}")
    if chunk_size < 2:
        raise BadArgumentError(f"chunk size must be at least 2, got {chunk_size}")
    entries = list(entries) if entries is not None else make_entries(spec, decks, pilots)
    pool = spec.load_pool(None)
    schedule = None if pairs is None else [(int(a), int(b)) for a, b in pairs]
    if schedule is not None and (not schedule or any(not (0 <= a < len(entries) and 0 <= b < len(entries)) or a == b
                                                     for a, b in schedule)):
        raise BadArgumentError(f"pairs must be pairs of two different entry indices below {len(entries)}")
    pairs = schedule if schedule is not None else pairings(len(entries))
    keys = [pairing_key(entries[a], entries[b]) for a, b in pairs]
    check_total(games if ci_width is None else max(min(games, max_games), max_games), len(pairs),
                "--games" if ci_width is None else "--max-games")
    back = make_backend(backend) if isinstance(backend, str) else backend
    per_pair = games // 2  # paired games (k) per pairing
    if ci_width is not None:  # max_games caps every pairing, its first round included
        per_pair = min(per_pair, max_games // 2)
    max_pairs = max(max_games // 2, per_pair)
    tally = Tally.empty(len(entries), len(pool))
    done_k = {p: 0 for p in range(len(pairs))}
    target = {p: per_pair for p in range(len(pairs))}
    # the kernels a match uses compile at their first call (with progress): make those calls here, off the clock
    BatchGame.warm_up(spec, pool=pool, decks=[entries[0].deck, entries[-1].deck])
    start = time.perf_counter()
    rounds, next_chunk = 0, 0
    advance = progress.advance if progress is not None else None
    try:
        while True:
            ranges = {p: (done_k[p], target[p]) for p in target if target[p] > done_k[p]}
            if not ranges:
                break
            chunks = _Counted(iter_round(seed, pairs, ranges, chunk_size, next_chunk, crn, keys))
            if progress is not None:
                progress.set_total(tally.games + sum(2 * (k1 - k0) for k0, k1 in ranges.values()))
            for part in back.run(spec.name, entries, chunks, advance):
                tally = tally.merge(part)
            next_chunk += chunks.count
            rounds += 1
            done_k.update({p: r[1] for p, r in ranges.items()})
            if ci_width is None:
                break
            target = _next_targets(tally.results, pairs, done_k, ci_width, max_pairs)
    finally:
        back.close()
    names = {f.name for f in spec.state_layout.fields}
    config = {"games_per_pairing": per_pair * 2, "ci_width": ci_width, "max_games": max_games, "chunk_size": chunk_size,
              "crn": crn, "pilots": sorted({e.pilot for e in entries})}
    return TournamentResult(spec.name, seed, entries, [pool.name(i) for i in range(len(pool))], tally, rounds,
                            time.perf_counter() - start, getattr(back, "name", "custom"), "first_player" in names, config,
                            schedule)


def pairing_key(a: Entry, b: Entry) -> int:
    """The per-pairing part of a game seed without common random numbers, from what the two entries are (their
    decks' cards and their pilots), not from where they sit in a list: ``key << 1 | flip``, where ``key`` (62 bits)
    is the same for (a, b) and (b, a) and ``flip`` says whether the pair is listed in the other order."""
    import hashlib

    ids = [np.sort(np.asarray(e.deck.card_ids, dtype=np.int64)).tobytes() + b"|" + e.pilot.encode() for e in (a, b)]
    h = hashlib.sha256(b";".join(sorted(ids)))
    return ((int.from_bytes(h.digest()[:8], "little") >> 2) << 1) | int(ids[0] > ids[1])


def _next_targets(results: np.ndarray, pairs: Sequence[tuple[int, int]], done_k: dict[int, int], width: float,
                  max_pairs: int) -> dict[int, int]:
    """For each pairing still wider than ``width``: the paired-game count a normal approximation says it needs."""
    pts, n = stats.pair_scores(results)
    out = {}
    for p, (a, b) in enumerate(pairs):
        score, lo, hi = stats.wilson(pts[a, b], n[a, b])
        if hi - lo <= width or done_k[p] >= max_pairs:
            continue
        var = max(score * (1 - score), 0.01)
        need_games = (2 * stats.Z95) ** 2 * var / width ** 2
        # at least 25% more than now so rounds make progress; never past the cap
        k = int(min(max(need_games / 2 * 1.05, done_k[p] * 1.25, done_k[p] + 16), max_pairs))
        out[p] = -(-k // 16) * 16 if k < max_pairs else max_pairs  # round up to 16 for tidy chunks
    return out


@dataclass
class SprtResult:
    a: str
    b: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    decision: str | None  # "H1" (a is at least elo1 stronger), "H0" (at most elo0), None (undecided at the cap)
    llr: float
    bounds: tuple[float, float]
    wins: int
    draws: int
    losses: int
    games: int
    history: list[tuple[int, float]]  # (games so far, LLR) after each round
    tournament: TournamentResult

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / max(self.games, 1)

    def to_dict(self) -> dict:
        s, lo, hi = stats.wilson(self.wins + 0.5 * self.draws, self.games)
        return {"a": self.a, "b": self.b, "elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "decision": self.decision, "llr": self.llr, "bounds": list(self.bounds), "games": self.games,
                "wins": self.wins, "draws": self.draws, "losses": self.losses, "score": s, "ci": [lo, hi],
                "elo": stats.score_to_elo(s) if self.games else None, "history": [list(h) for h in self.history]}


def run_sprt(
    game: str | GameSpec,
    deck_a: str | Path | Deck,
    deck_b: str | Path | Deck,
    elo0: float = 0.0,
    elo1: float = 20.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    pilot: str = "random",
    seed: int = 0,
    round_games: int = 400,
    max_games: int = 200_000,
    chunk_size: int = 4096,
    backend: str | Any = "local",
    progress: Any = None,
) -> SprtResult:
    """Sequential test of "A is elo1 stronger than B" against "A is at most elo0 stronger" (trinomial GSPRT).

    Plays ``round_games`` games (both seatings, common random numbers) per round and stops at the first round whose
    log-likelihood ratio leaves ``(log(beta/(1-alpha)), log((1-beta)/alpha))``, or at ``max_games``.
    """
    for name, elo in (("elo0", elo0), ("elo1", elo1)):
        if not isinstance(elo, (int, float, np.integer, np.floating)) or not math.isfinite(elo) or abs(elo) > MAX_ELO:
            raise BadArgumentError(f"--{name} must be a finite number of Elo between -{MAX_ELO} and {MAX_ELO}, got {elo}")
    if not elo1 > elo0:
        raise BadArgumentError(f"--elo1 must be greater than --elo0 (got {elo0} and {elo1})")
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise BadArgumentError("--alpha and --beta must be between 0 and 0.5")
    seed_bits(seed)
    check_count("round_games", round_games)
    check_count("max_games", max_games)
    if round_games % 2 or max_games < 2:
        raise BadArgumentError(f"the SPRT plays games in pairs (both seatings): round games must be even and "
                               f"--max-games at least 2, got {round_games} and {max_games}")
    check_total(max_games, 1, "--max-games")
    spec = get_spec(game)
    entries = make_entries(spec, [deck_a, deck_b], [pilot])
    pool = spec.load_pool(None)
    bounds = stats.SprtBounds.of(alpha, beta)
    back = make_backend(backend) if isinstance(backend, str) else backend
    per_round = round_games // 2
    tally = Tally.empty(2, len(pool))
    history: list[tuple[int, float]] = []
    decision, llr, k, rnd, next_chunk = None, 0.0, 0, 0, 0
    start = time.perf_counter()
    advance = progress.advance if progress is not None else None
    try:
        while decision is None and tally.games < max_games:
            k_next = min(k + per_round, max_games // 2)
            if k_next <= k:
                break
            chunks = _Counted(iter_round(seed, [(0, 1)], {0: (k, k_next)}, chunk_size, next_chunk))
            if progress is not None:
                progress.set_total(min(max_games, tally.games + 2 * per_round * 4))  # open-ended: a moving horizon
            for part in back.run(spec.name, entries, chunks, advance):
                tally = tally.merge(part)
            next_chunk += chunks.count
            k, rnd = k_next, rnd + 1
            w, l_, d = _wdl(tally.results)
            llr = stats.gsprt_llr(w, d, l_, elo0, elo1)
            history.append((tally.games, llr))
            decision = bounds.decide(llr)
    finally:
        back.close()
    names = {f.name for f in spec.state_layout.fields}
    result = TournamentResult(spec.name, seed, entries, [pool.name(i) for i in range(len(pool))], tally, rnd,
                              time.perf_counter() - start, getattr(back, "name", "custom"), "first_player" in names,
                              {"mode": "sprt", "round_games": per_round * 2, "max_games": max_games, "chunk_size": chunk_size,
                               "crn": True, "pilots": [pilot]})
    w, l_, d = _wdl(tally.results)
    return SprtResult(entries[0].label, entries[1].label, elo0, elo1, alpha, beta, decision, llr,
                      (bounds.lower, bounds.upper), w, d, l_, tally.games, history, result)


#: Elo differences an SPRT may test (a score of 0.99 is 798 Elo; past this the test can never decide)
MAX_ELO = 1000.0


def check_count(name: str, value: Any) -> int:
    """A positive integer count of games, or a clear error naming the flag."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
        raise BadArgumentError(f"--{name.replace('_', '-')} must be a positive integer, got {value!r}")
    return int(value)


def _wdl(res: np.ndarray) -> tuple[int, int, int]:
    """A's (entry 0's) wins, losses and draws (truncations included) against B over both seatings."""
    w = int(res[0, 1, 0] + res[1, 0, 1])
    l_ = int(res[0, 1, 1] + res[1, 0, 0])
    d = int(res[0, 1, 2:].sum() + res[1, 0, 2:].sum())
    return w, l_, d


__all__ = [
    "check_count", "check_total", "iter_round", "LocalBackend", "make_backend", "MAX_ELO", "MAX_TOURNAMENT_GAMES",
    "pairing_key", "pairings", "plan_round", "run_sprt", "run_tournament", "SprtResult", "TournamentResult"
]
