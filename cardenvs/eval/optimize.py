"""Deck search (issue 17): hill climbing over legal one-card swaps, each candidate raced against the incumbent.

``optimize_deck(game, start, field, pilot, budget_games | budget_seconds, seed)`` starts from a deck and repeats:

1. draw the next ``candidates`` legal one-card swaps of the incumbent (:func:`cardenvs.core.deckgen.swap_moves`,
   shuffled by the seed; decks already rejected are skipped);
2. race them: every round each live candidate and the incumbent play ``round_pairs`` games against every field deck
   in both seats, **on common random numbers** (game ``k`` against field deck ``f`` has the same seed for the
   incumbent and every candidate; the pilots are deterministic or seeded from the game, so two equal decks get equal
   results). Each candidate is compared game by game with the incumbent: better / same / worse outcome is a
   trinomial whose score is 1/2 when the candidate is no better, and the trinomial GSPRT of
   :func:`cardenvs.eval.stats.gsprt_llr` (the test ``cardenvs eval --sprt`` uses) tests "score 1/2 (elo0 = 0)"
   against "elo1 better". A candidate is dropped when the test accepts H0, when it falls in the worse half of the
   live ones (successive halving), or at ``max_candidate_games``; the first candidate(s) to accept H1 win the race
   and the best of them becomes the incumbent (an *accepted step*);
3. stop when the budget is spent or no swap of the incumbent is left untried (a local optimum).

The games are played by the tournament's match runner (:func:`cardenvs.eval.matches.play_chunk`) on the local
backend (or any backend object with ``run(game, entries, chunks, progress)``). Every game is a pure function of
(seed, decks, pilots), so the same seed and game budget give the same search; a time budget depends on the machine.

The result has every accepted step (deck, move, score against the field during the race with a Wilson interval,
the paired better/same/worse counts and the LLR) and, with ``confirm_pairs``, a fresh-seed evaluation of the start
deck and the best deck against the field (paired difference with an interval).
"""
from __future__ import annotations

import dataclasses
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from cardenvs.core.batch import get_spec
from cardenvs.core.cards import CardPool
from cardenvs.core.decks import Deck
from cardenvs.core.errors import BadArgumentError
from cardenvs.core.escaping import plot_text
from cardenvs.core.spec import GameSpec

from . import stats
from .matches import SEAT0_WINS, SEAT1_WINS, Chunk, Entry, Tally, derive_seed, derive_seeds, play_chunk

__all__ = ["optimize_deck", "OptimizeResult", "Step", "bind_pool", "pool_pilot", "play_scores", "load_decks",
           "write_optimize_report", "format_optimize", "parse_budget", "start_figure", "swaps_tried"]

_TESTER_SHIFT, _FIELD_SHIFT = 40, 24


# ----- games on a given pool ---------------------------------------------------------------------------------------
def bind_pool(spec: GameSpec, pool: CardPool) -> GameSpec:
    """``spec`` whose ``load_pool(None)`` returns ``pool``: the match runner loads the default pool that way, so a
    custom pool (a designer's, or the tests' skewed pool) reaches it. The game's own spec when ``pool`` is its
    default pool. Such a spec pickles back to the registered game (its default pool), so custom pools are local-only."""
    default = spec.load_pool(None)
    if pool is default or pool.fingerprint == default.fingerprint:
        return spec
    original = spec.load_pool

    def load_pool(paths: Any = None) -> CardPool:
        return pool if not paths else original(paths)

    return dataclasses.replace(spec, load_pool=load_pool)


def pool_pilot(spec: GameSpec, kind: str, pool: CardPool, seed: int = 0) -> Any:
    """The pilot ``kind`` ("random", "heuristic", "ppo:PATH") for games on ``pool``.

    "random" stays a name (the match runner's seeded random pilot). Other pilots are built once here, with ``pool``
    (the heuristics read card stats from the pool's tables). The object goes into :class:`Entry.pilot`, which the
    match runner passes through ``make_agent``.
    """
    if kind == "random":
        return "random"
    from cardenvs.core.agents import make_agent

    if kind == "heuristic":
        return make_agent(spec.name, kind, seed=derive_seed(seed, 0x9170), pool=pool)
    return make_agent(spec.name, kind, seed=derive_seed(seed, 0x9170))


def load_decks(spec: GameSpec, pool: CardPool, decks: Sequence[str | Path | Deck] | None) -> list[Deck]:
    """Decks (starter names, files or Decks) loaded against ``pool``; none given: the game's starter decks that load."""
    from cardenvs.core.deckgen import starter_decks

    if not decks:
        return starter_decks(spec, pool)
    return [d if isinstance(d, Deck) else spec.load_deck(d, pool) for d in decks]


def plan_chunk(seed: int, index: int, testers: Sequence[int], fields: Sequence[int], k0: int, k1: int,
               key: int = 0) -> Chunk:
    """Games ``k in [k0, k1)`` of every tester entry against every field entry, both seatings. The game seed depends
    on (seed, key, field deck, k) only, never on the tester: common random numbers across testers."""
    t, f, k, sw = np.meshgrid(np.asarray(testers, np.int64), np.arange(len(fields), dtype=np.int64),
                              np.arange(k0, k1, dtype=np.int64), np.array([0, 1], np.int64), indexing="ij")
    t, f, k, sw = (x.ravel() for x in (t, f, k, sw))
    fe = np.asarray(fields, np.int64)[f]
    seat0 = np.where(sw == 0, t, fe).astype(np.int32)
    seat1 = np.where(sw == 0, fe, t).astype(np.int32)
    ids = (t << _TESTER_SHIFT) | (f << _FIELD_SHIFT) | (k << 1) | sw
    seeds = derive_seeds(seed, 0xDEC5, key, f, k)
    return Chunk(index, seat0, seat1, seeds, ids, derive_seed(seed, 0xDEC6, key, index))


def play_scores(spec: GameSpec, entries: Sequence[Entry], chunk: Chunk, n_testers_max: int, n_field: int, k0: int,
                k1: int, backend: Any = None, progress: Any = None) -> tuple[np.ndarray, Tally]:
    """Play ``chunk`` and return the testers' scores ``[tester entry, field deck, k - k0, seat]`` (1 win, 1/2 draw or
    truncation, 0 loss; nan where not played) and the tally."""
    advance = progress.advance if progress is not None else None
    if backend is None:
        tally = play_chunk(spec, entries, chunk, advance)
    else:
        tally = None
        for part in backend.run(spec, entries, [chunk], advance):
            tally = part if tally is None else tally.merge(part)
    ids = tally.game_ids
    t = ids >> _TESTER_SHIFT
    f = (ids >> _FIELD_SHIFT) & ((1 << (_TESTER_SHIFT - _FIELD_SHIFT)) - 1)
    k = (ids >> 1) & ((1 << (_FIELD_SHIFT - 1)) - 1)
    sw = ids & 1
    out = tally.outcomes
    seat0_score = np.where(out == SEAT0_WINS, 1.0, np.where(out == SEAT1_WINS, 0.0, 0.5))
    score = np.where(sw == 0, seat0_score, 1.0 - seat0_score)
    scores = np.full((n_testers_max, n_field, k1 - k0, 2), np.nan)
    scores[t, f, k - k0, sw] = score
    return scores, tally


def compare(cand: np.ndarray, inc: np.ndarray) -> tuple[int, int, int]:
    """Paired comparison on the same games: (better, same, worse) counts for the candidate."""
    ok = ~(np.isnan(cand) | np.isnan(inc))
    d = cand[ok] - inc[ok]
    return int(np.count_nonzero(d > 0)), int(np.count_nonzero(d == 0)), int(np.count_nonzero(d < 0))


def paired_interval(cand: np.ndarray, inc: np.ndarray) -> tuple[float, float, float]:
    """Mean paired score difference (candidate - incumbent) over the same games, with a normal 95% interval."""
    ok = ~(np.isnan(cand) | np.isnan(inc))
    d = (cand[ok] - inc[ok]).ravel()
    if d.size == 0:
        return float("nan"), float("nan"), float("nan")
    m = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(d.size)) if d.size > 1 else float("inf")
    return m, m - stats.Z95 * se, m + stats.Z95 * se


def score_ci(scores: np.ndarray) -> dict:
    s = scores[~np.isnan(scores)]
    rate, lo, hi = stats.wilson(float(s.sum()), int(s.size))
    return {"games": int(s.size), "score": rate, "ci": [lo, hi]}


# ----- the search --------------------------------------------------------------------------------------------------
@dataclass
class Step:
    """One accepted step: the move, the new deck, its race against the old incumbent."""

    index: int
    move: str
    added: list[str]
    removed: list[str]
    deck: dict[str, int]
    score: dict  # the new deck against the field in the race games: games, score, ci
    incumbent_score: dict  # the old incumbent on the same games
    diff: list[float]  # paired score difference, lo, hi
    better: int
    same: int
    worse: int
    llr: float
    games_so_far: int
    seconds: float


@dataclass
class OptimizeResult:
    game: str
    seed: int
    pilot: str
    start: Deck
    best: Deck
    field: list[str]
    steps: list[Step]
    games: int
    elapsed: float
    stop_reason: str
    candidates_tried: int
    config: dict
    pool: CardPool
    confirm: dict | None = None
    trace: list[dict] = field(default_factory=list)
    pilot_note: str = ""

    def added_removed(self) -> tuple[dict[str, int], dict[str, int]]:
        """Cards added and removed from the start deck to the best deck (copies)."""
        from cardenvs.core.deckgen import deck_counts

        a, b = deck_counts(self.start, self.pool), deck_counts(self.best, self.pool)
        added = {c: b[c] - a.get(c, 0) for c in b if b[c] > a.get(c, 0)}
        removed = {c: a[c] - b.get(c, 0) for c in a if a[c] > b.get(c, 0)}
        return added, removed

    def to_dict(self) -> dict:
        from cardenvs.core.deckgen import deck_counts

        added, removed = self.added_removed()
        return {"kind": "cardenvs deck search", "game": self.game, "seed": self.seed, "pilot": self.pilot,
                "pilot_note": self.pilot_note,
                "field": self.field, "start": deck_counts(self.start, self.pool),
                "best": deck_counts(self.best, self.pool), "added": added, "removed": removed,
                "steps": [dataclasses.asdict(s) for s in self.steps], "games": self.games,
                "seconds": self.elapsed, "stop_reason": self.stop_reason, "candidates_tried": self.candidates_tried,
                "config": self.config, "confirm": self.confirm, "pool": [str(p) for p in self.pool.paths],
                "races": self.trace}


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """``"15m"``, ``"90s"``, ``"2h"`` -> seconds; ``"20000"`` or ``"20000g"`` -> games."""
    t = str(text).strip().lower()
    try:
        if t.endswith(("s", "m", "h")):
            value = float(t[:-1]) * {"s": 1, "m": 60, "h": 3600}[t[-1]]
            if not value > 0:
                raise ValueError
            return None, value
        value = int(t[:-1] if t.endswith("g") else t)
        if value < 1:
            raise ValueError
        return value, None
    except ValueError:
        raise BadArgumentError(f"--budget must be a number of games (20000) or a time (90s, 15m, 2h), got {text!r}") \
            from None


def check_elo1(elo1: Any, flag: str = "elo1") -> float:
    """The swap test's H1 (paired Elo): a finite number above 0, the H0 (``elo0`` is 0). 0, a negative number, NaN or
    inf made every test decide at once or never, which silently turned the search off (issue 43)."""
    if isinstance(elo1, bool) or not isinstance(elo1, (int, float, np.integer, np.floating)) or not (
            math.isfinite(float(elo1)) and float(elo1) > 0):
        raise BadArgumentError(f"{flag} must be a finite number of Elo above 0 (the swap test's H1; H0 is 0), got "
                               f"{elo1!r}")
    return float(elo1)


def optimize_deck(
    game: str | GameSpec,
    start: str | Path | Deck,
    field_decks: Sequence[str | Path | Deck] | None = None,
    pilot: str | None = None,
    budget_games: int | None = 20_000,
    budget_seconds: float | None = None,
    seed: int = 0,
    pool: CardPool | Sequence[str | Path] | None = None,
    candidates: int = 16,
    round_pairs: int = 8,
    max_candidate_games: int = 600,
    elo1: float = 30.0,
    alpha: float = 0.02,
    beta: float = 0.1,
    resize: bool = False,
    confirm_pairs: int = 0,
    backend: Any = None,
    progress: Any = None,
) -> OptimizeResult:
    """Hill climbing from ``start`` against ``field_decks`` (default: the starter decks); see the module docstring.

    ``budget_games`` / ``budget_seconds``: stop before a race round would pass either (at least one is needed).
    ``resize``: also try adding or removing one card where the game's deck size may change (default: swaps only).
    ``confirm_pairs``: after the search, this many paired games per field deck (both seats) for the start and the
    best deck on fresh seeds (not counted in the budget). ``progress``: an object with ``advance(n)`` and
    ``set_total(n)`` (:class:`cardenvs.eval.report.RichProgress`).
    """
    from cardenvs.core.deckgen import deck_counts, deck_key, load_game_pool, swap_moves, deck_from_ids, apply_move

    from cardenvs.core.agents import default_pilot, describe_pilot

    spec = get_spec(game)
    chosen = pilot is None  # the default pilot of eval and balance too (issue 38 step 7)
    pilot = default_pilot(spec.name) if chosen else pilot
    pilot_note = ", ".join(x for x in (describe_pilot(spec.name, pilot),
                                       "default: the strongest available" if chosen else "") if x)
    pool = load_game_pool(spec, pool)
    if budget_games is None and budget_seconds is None:
        raise BadArgumentError("give a budget: games or seconds")
    for name, v in (("candidates", candidates), ("round_pairs", round_pairs)):
        if not isinstance(v, (int, np.integer)) or v < 1:
            raise BadArgumentError(f"{name} must be a positive integer, got {v!r}")
    check_elo1(elo1)
    bspec = bind_pool(spec, pool)
    start_deck = start if isinstance(start, Deck) else spec.load_deck(start, pool)
    start_deck = deck_from_ids(start_deck.card_ids, pool, name=start_deck.name, game=spec)
    fields = load_decks(spec, pool, field_decks)
    if not fields:
        raise BadArgumentError("the field is empty: pass --field decks")
    agent = pool_pilot(spec, pilot, pool, seed)
    field_entries = [Entry(f"field:{d.name}#{i}", d, agent) for i, d in enumerate(fields)]
    nf = len(fields)
    rng = np.random.default_rng(np.random.SeedSequence([int(stats_seed(seed)), 0x0B7]))
    bounds = stats.SprtBounds.of(alpha, beta)
    games = 0
    t0 = time.perf_counter()
    steps: list[Step] = []
    trace: list[dict] = []
    seen: set[tuple[int, ...]] = {deck_key(start_deck)}
    incumbent = start_deck
    chunk_index = 0
    race_key = 0
    tried = 0
    per_cand_cap = max(1, max_candidate_games // (2 * nf))
    stop_reason = "budget spent"
    if progress is not None and budget_games is not None:
        progress.set_total(budget_games + 2 * 2 * nf * confirm_pairs)

    def out_of_budget(next_games: int) -> bool:
        if budget_games is not None and games + next_games > budget_games:
            return True
        return budget_seconds is not None and time.perf_counter() - t0 >= budget_seconds

    while True:
        moves = swap_moves(incumbent, pool, spec, rng, resize=resize)
        inc_cards = np.zeros((len(pool), 8), np.int64)  # the incumbent's per-card counters (matches.CARD_CATEGORIES)
        accepted = None
        budget_hit = False
        while accepted is None and not budget_hit:
            queue = _interleave([m for m in moves if apply_move(incumbent, m) not in seen], _card_value(inc_cards))
            if not queue:
                break
            batch = queue[:candidates]
            cands = []
            for m in batch:
                ids = apply_move(incumbent, m)
                seen.add(ids)
                cands.append((m, deck_from_ids(ids, pool, name=f"{incumbent.name}'", game=spec)))
            tried += len(cands)
            entries = field_entries + [Entry("incumbent", incumbent, agent)] + \
                [Entry(f"cand{i}", d, agent) for i, (_, d) in enumerate(cands)]
            inc_e = nf
            alive = list(range(len(cands)))
            all_scores = np.full((len(entries), nf, 0, 2), np.nan)
            k = 0
            race_key += 1
            verdict_of: dict[int, str] = {}  # candidate -> why its race ended (the report's swaps tried)
            while alive:
                n_next = (1 + len(alive)) * nf * 2 * round_pairs
                if out_of_budget(n_next):
                    budget_hit = True
                    verdict_of.update({c: "stopped: budget spent" for c in alive})
                    break
                testers = [inc_e] + [nf + 1 + c for c in alive]
                chunk = plan_chunk(seed, chunk_index, testers, list(range(nf)), k, k + round_pairs, key=race_key)
                chunk_index += 1
                sc, tally = play_scores(bspec, entries, chunk, len(entries), nf, k, k + round_pairs, backend, progress)
                inc_cards += tally.cards[inc_e]
                games += len(chunk)
                all_scores = np.concatenate([all_scores, sc], axis=2)
                k += round_pairs
                inc_sc = all_scores[inc_e]
                verdicts = []
                for c in alive:
                    b, s, w = compare(all_scores[nf + 1 + c], inc_sc)
                    llr = stats.gsprt_llr(b, s, w, 0.0, elo1)
                    verdicts.append((c, b, s, w, llr, paired_interval(all_scores[nf + 1 + c], inc_sc)[0]))
                winners = [v for v in verdicts if bounds.decide(v[4]) == "H1"]
                for v in verdicts:
                    verdict_of[v[0]] = ("better (H1)" if bounds.decide(v[4]) == "H1" else
                                        "no better (H0)" if bounds.decide(v[4]) == "H0" else
                                        f"dropped: reached {2 * nf * k} games" if k >= per_cand_cap else "")
                if winners:
                    c, b, s, w, llr, _ = max(winners, key=lambda v: (v[5], v[4], -v[0]))
                    accepted = (c, b, s, w, llr)
                    verdict_of.update({v[0]: "stopped: another swap was accepted" for v in verdicts
                                       if not verdict_of[v[0]]})
                    verdict_of.update({v[0]: "better (H1), another was better still" for v in winners if v[0] != c})
                    verdict_of[c] = "accepted"
                    break
                live = [v for v in verdicts if bounds.decide(v[4]) is None and k < per_cand_cap]
                if len(live) > 2:  # successive halving: keep the better half by paired difference
                    live.sort(key=lambda v: (-v[5], v[0]))
                    for v in live[max(2, math.ceil(len(live) / 2)):]:
                        verdict_of[v[0]] = "dropped: in the worse half"
                    live = live[:max(2, math.ceil(len(live) / 2))]
                alive = sorted(v[0] for v in live)
            if k:
                trace.append({"race": race_key, "candidates": len(cands), "pairs": k, "games": games,
                              "accepted": None if accepted is None else cands[accepted[0]][0].describe(pool),
                              "incumbent": score_ci(all_scores[inc_e]),
                              "swaps": [_swap_row(cands[c][0].describe(pool), all_scores[nf + 1 + c],
                                                  all_scores[inc_e], verdict_of.get(c, ""), elo1)
                                        for c in range(len(cands)) if c in verdict_of]})
        if accepted is None:
            if not budget_hit:
                stop_reason = "local optimum: no untried one-card swap of the best deck is better"
            break
        c, b, s, w, llr = accepted
        move, deck = cands[c]
        cand_sc = all_scores[nf + 1 + c]
        d, lo, hi = paired_interval(cand_sc, all_scores[inc_e])
        deck = deck_from_ids(deck.card_ids, pool, name=f"{start_deck.name} (search step {len(steps) + 1})", game=spec)
        steps.append(Step(len(steps) + 1, move.describe(pool),
                          [pool.name(move.add)] if move.add is not None else [],
                          [pool.name(move.remove)] if move.remove is not None else [],
                          deck_counts(deck, pool), score_ci(cand_sc), score_ci(all_scores[inc_e]), [d, lo, hi],
                          b, s, w, float(llr), games, time.perf_counter() - t0))
        incumbent = deck
    elapsed = time.perf_counter() - t0
    best = deck_from_ids(incumbent.card_ids, pool, name=f"{start_deck.name}-optimized", game=spec,
                         description=f"deck search from {start_deck.name}: {len(steps)} accepted swaps, seed {seed}, "
                                     f"pilot {pilot}, {games} games")
    confirm = None
    if progress is not None:  # the search stops short of its budget: the bar ends where the games do
        progress.set_total(games + 2 * 2 * nf * confirm_pairs)
    if confirm_pairs:
        entries = field_entries + [Entry("start", start_deck, agent), Entry("best", best, agent)]
        chunk = plan_chunk(seed, chunk_index, [nf, nf + 1], list(range(nf)), 0, confirm_pairs, key=0xC0FF)
        sc, _ = play_scores(bspec, entries, chunk, len(entries), nf, 0, confirm_pairs, backend, progress)
        d, lo, hi = paired_interval(sc[nf + 1], sc[nf])
        b, s, w = compare(sc[nf + 1], sc[nf])
        per_field = [{"field": fields[i].name, "start": score_ci(sc[nf, i]), "best": score_ci(sc[nf + 1, i])}
                     for i in range(nf)]
        confirm = {"games_per_deck": int(np.count_nonzero(~np.isnan(sc[nf]))), "start": score_ci(sc[nf]),
                   "best": score_ci(sc[nf + 1]), "diff": [d, lo, hi], "better": b, "same": s, "worse": w,
                   "per_field": per_field}
    config = {"candidates": candidates, "round_pairs": round_pairs, "max_candidate_games": max_candidate_games,
              "elo0": 0.0, "elo1": elo1, "alpha": alpha, "beta": beta, "resize": resize,
              "budget_games": budget_games, "budget_seconds": budget_seconds, "confirm_pairs": confirm_pairs,
              "backend": getattr(backend, "name", "local") if backend is not None else "local"}
    return OptimizeResult(spec.name, seed, pilot, start_deck, best, [d.name for d in fields], steps, games, elapsed,
                          stop_reason, tried, config, pool, confirm, trace, pilot_note)


def _swap_row(move: str, cand: np.ndarray, inc: np.ndarray, verdict: str, elo1: float) -> dict:
    """One swap tried, for the report: its paired difference with the incumbent on the games it played."""
    b, s, w = compare(cand, inc)
    d, lo, hi = paired_interval(cand, inc)
    return {"move": move, "games": b + s + w, "score": score_ci(cand), "diff": [d, lo, hi], "better": b, "same": s,
            "worse": w, "llr": float(stats.gsprt_llr(b, s, w, 0.0, elo1)) if b + s + w else 0.0, "verdict": verdict}


def _card_value(cards: np.ndarray) -> np.ndarray:
    """Per card id: win rate when drawn minus win rate when not drawn in the incumbent's games (0 where unknown)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        gih = cards[:, 3] / (2.0 * cards[:, 2])
        gns = cards[:, 5] / (2.0 * cards[:, 4])
    value = gih - gns
    return np.where(np.isfinite(value), value, 0.0)


def _interleave(moves: list, value: np.ndarray, spread: int = 4) -> list:
    """The order in which moves become candidates: round-robin over the card they add (the shuffled order of
    first appearance), so a batch tries as many different cards as it can and every card of the pool is tried
    within ``pool size / candidates`` races; inside each added card's group the removed cards come worst first by
    the incumbent's improvement-when-drawn (``value``; ties keep the shuffled order), the start rotated by the
    group's position modulo ``spread`` so a batch removes several of the weakest cards, not only the weakest."""
    groups: dict[Any, list] = {}
    for m in moves:
        groups.setdefault(m.add, []).append(m)
    ordered = []
    for g, group in enumerate(groups.values()):
        rank = {id(m): i for i, m in enumerate(group)}
        group = sorted(group, key=lambda m: (value[m.remove] if m.remove is not None else 0.0, rank[id(m)]))
        r = g % max(1, min(spread, len(group)))
        ordered.append(group[r:] + group[:r])
    return _round_robin(ordered)


def _round_robin(lists: list[list]) -> list:
    out = []
    for i in range(max((len(x) for x in lists), default=0)):
        out += [x[i] for x in lists if i < len(x)]
    return out


def stats_seed(seed: int) -> int:
    from cardenvs.core.seeds import seed_bits

    return seed_bits(seed)


# ----- reports -----------------------------------------------------------------------------------------------------
def _pct(ci: dict) -> str:
    return f"{100 * ci['score']:.1f}% [{100 * ci['ci'][0]:.1f}, {100 * ci['ci'][1]:.1f}] ({ci['games']} games)"


def format_optimize(result: OptimizeResult | dict) -> str:
    """The search report as text."""
    r = result.to_dict() if isinstance(result, OptimizeResult) else result
    lines = [headline(r), f"deck search: seed {r['seed']}, field {', '.join(r['field'])}",
             f"{r['games']} games in {r['seconds']:.1f} s, {r['candidates_tried']} candidate decks raced; "
             f"stopped: {r['stop_reason']}", ""]
    start = start_figure(r)
    if start:
        lines.append(start)
    swaps = swaps_tried(r)
    if swaps:
        lines.append(f"swaps tried: {len(swaps)}; best paired differences with the deck they would change "
                     "(pts, 95%):")
        for sw in sorted(swaps, key=lambda x: -_nan_low(x["diff"][0]))[:5]:
            lines.append(f"  {sw['move']:<40} {_diff(sw['diff'])} over {sw['games']} games: {sw['verdict']}")
    if not r["steps"]:
        lines.append("no swap was accepted: the start deck is the best deck found")
    for s in r["steps"]:
        lines.append(f"step {s['index']}: {s['move']:<40} vs field {_pct(s['score'])}; was "
                     f"{100 * s['incumbent_score']['score']:.1f}% on the same games; paired diff "
                     f"{100 * s['diff'][0]:+.1f} [{100 * s['diff'][1]:+.1f}, {100 * s['diff'][2]:+.1f}] pts, "
                     f"LLR {s['llr']:.2f} (better/same/worse {s['better']}/{s['same']}/{s['worse']})")
    lines += ["", "added:   " + (", ".join(f"{n} x{c}" for n, c in r["added"].items()) or "-"),
              "removed: " + (", ".join(f"{n} x{c}" for n, c in r["removed"].items()) or "-")]
    if r.get("confirm"):
        c = r["confirm"]
        lines += ["", f"confirmation on fresh seeds: start {_pct(c['start'])}, best {_pct(c['best'])}, paired diff "
                      f"{100 * c['diff'][0]:+.1f} [{100 * c['diff'][1]:+.1f}, {100 * c['diff'][2]:+.1f}] pts"]
    return "\n".join(lines)


def _nan_low(x: float | None) -> float:
    return -1e9 if x is None or x != x else x


def _diff(d: Sequence[float]) -> str:
    return f"{100 * d[0]:+.1f} [{100 * d[1]:+.1f}, {100 * d[2]:+.1f}]" if d[0] == d[0] else "-"


def headline(report: dict) -> str:
    """The report's first line: the game and who piloted every deck (as ``cardenvs eval`` names it)."""
    from .report import pilot_line

    pilot = report["pilot"]
    return f"{report['game']}: " + pilot_line({"config": {"pilots": [pilot]},
                                                "pilot_notes": {pilot: report.get("pilot_note", "")}})


def swaps_tried(report: dict) -> list[dict]:
    """Every swap raced, in the order raced, with its race number (a report's ``races``)."""
    return [{**sw, "race": race["race"]} for race in report.get("races") or [] for sw in race.get("swaps", [])]


def start_figure(report: dict) -> str:
    """The start deck's measured score against the field: in the first race (the search's own games) and, when the
    search confirmed, on fresh seeds."""
    races = report.get("races") or []
    parts = []
    if races and races[0].get("incumbent"):
        parts.append(f"{_pct(races[0]['incumbent'])} in the first race")
    if report.get("confirm"):
        parts.append(f"{_pct(report['confirm']['start'])} on fresh seeds")
    return "start deck vs field: " + "; ".join(parts) if parts else ""


def write_optimize_report(result: OptimizeResult, out_deck: str | Path, report: str | Path | None = None) -> list[Path]:
    """The best deck as a deck file at ``out_deck``, and the report as ``<report>.json``, ``.txt``, ``.html`` and
    (with matplotlib and at least one accepted step) ``.png`` (default: beside the deck file, ``<deck stem>.search``)."""
    from cardenvs.core.deckgen import write_deck

    out_deck = Path(out_deck)
    out_deck.parent.mkdir(parents=True, exist_ok=True)
    paths = [write_deck(result.best, result.pool, out_deck)]
    base = Path(report) if report else out_deck.with_suffix(".search")
    base.parent.mkdir(parents=True, exist_ok=True)
    data = result.to_dict()
    data["best_deck_file"] = str(out_deck)
    js = base.with_suffix(base.suffix + ".json") if base.suffix != ".json" else base
    js.write_text(json.dumps(data, indent=1, default=_json_default) + "\n", encoding="utf-8")
    txt = js.with_suffix(".txt")
    txt.write_text(format_optimize(data) + "\n", encoding="utf-8")
    paths += [js, txt]
    png = _plot_steps(data, js.with_suffix(".png"))
    swaps_png = _plot_swaps(data, js.with_suffix(".swaps.png"))
    html_path = js.with_suffix(".html")
    html_path.write_text(_html(data, png.name if png else None, swaps_png.name if swaps_png else None),
                         encoding="utf-8")
    return paths + [x for x in (png, swaps_png) if x] + [html_path]


def _plot_steps(data: dict, path: Path) -> Path | None:
    """Score against the field of the start deck and after each accepted step (95% intervals)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    steps = data["steps"]
    if not steps:
        return None
    pts = [steps[0]["incumbent_score"]] + [s["score"] for s in steps]
    x = np.arange(len(pts))
    y = np.array([100 * p["score"] for p in pts])
    lo = np.array([100 * p["ci"][0] for p in pts])
    hi = np.array([100 * p["ci"][1] for p in pts])
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt="o-", capsize=3)
    ax.set_xticks(x)
    # card names come from pool files: plot_text keeps a '$' in one from starting mathtext (issue 43 finding 7)
    ax.set_xticklabels(["start"] + [plot_text(s["move"]) for s in steps], rotation=30, ha="right", fontsize=7)
    ax.set_ylabel("score vs field (%, 95% CI)")
    ax.set_title(plot_text(f"{data['game']}: deck search, seed {data['seed']}"), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


#: the most swaps the swaps plot shows (the best and the worst halves); the table lists every one
PLOT_SWAPS = 40


def _plot_swaps(data: dict, path: Path) -> Path | None:
    """Every swap tried (the best and worst when many): its paired score difference with the deck it would have
    changed, 95% interval; the accepted ones in green. None without matplotlib or without a swap."""
    swaps = [sw for sw in swaps_tried(data) if sw["games"] and sw["diff"][0] == sw["diff"][0]]
    if not swaps:
        return None
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    swaps.sort(key=lambda sw: sw["diff"][0])
    if len(swaps) > PLOT_SWAPS:
        swaps = swaps[:PLOT_SWAPS // 2] + swaps[-PLOT_SWAPS // 2:]
    d = np.array([100 * sw["diff"][0] for sw in swaps])
    lo = np.array([100 * sw["diff"][1] if sw["diff"][1] == sw["diff"][1] else sw["diff"][0] for sw in swaps])
    hi = np.array([100 * sw["diff"][2] if sw["diff"][2] == sw["diff"][2] else sw["diff"][0] for sw in swaps])
    lo, hi = np.minimum(lo, d), np.maximum(hi, d)
    colours = ["tab:green" if sw["verdict"] == "accepted" else "tab:grey" for sw in swaps]
    fig, ax = plt.subplots(figsize=(7.5, 1.4 + 0.26 * len(swaps)))
    y = np.arange(len(swaps))
    ax.barh(y, d, color=colours, alpha=0.6)
    ax.errorbar(d, y, xerr=[d - lo, hi - d], fmt="none", ecolor="black", capsize=2, lw=0.8)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, [plot_text(f"{sw['move']} ({sw['games']})") for sw in swaps], fontsize=7)
    ax.set_xlabel("score vs field: the swapped deck minus the deck it changes,\nsame games (points, 95%); "
                  "green: accepted", fontsize=8)
    ax.set_title(plot_text(f"{data['game']}: swaps tried ({len(swaps_tried(data))}), seed {data['seed']}"), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path


def _html(data: dict, png: str | None, swaps_png: str | None = None) -> str:
    import html

    e = html.escape
    rows = "".join(
        f"<tr><td>{s['index']}</td><td>{e(s['move'])}</td><td>{_pct(s['score'])}</td>"
        f"<td>{100 * s['incumbent_score']['score']:.1f}%</td><td>{100 * s['diff'][0]:+.1f} "
        f"[{100 * s['diff'][1]:+.1f}, {100 * s['diff'][2]:+.1f}]</td><td>{s['llr']:.2f}</td></tr>"
        for s in data["steps"])
    img = f"<img src='{e(png)}' alt='score at each step'>" if png else ""
    steps = ("<h2>Accepted swaps</h2><table><tr><th>step</th><th>move</th><th>new deck vs field</th><th>old deck, "
             f"same games</th><th>paired diff (pts, 95%)</th><th>LLR</th></tr>{rows}</table>{img}"
             if data["steps"] else "<h2>Accepted swaps</h2><p>None: no swap tried was shown better than the start "
                                   "deck, which stays the best deck found (the swaps tried are below).</p>")
    start = start_figure(data)
    swaps = swaps_tried(data)
    swap_rows = "".join(
        f"<tr><td>{sw['race']}</td><td>{e(sw['move'])}</td><td>{sw['games']}</td><td>{_diff(sw['diff'])}</td>"
        f"<td>{sw['better']}/{sw['same']}/{sw['worse']}</td><td>{sw['llr']:.2f}</td><td>{e(sw['verdict'])}</td></tr>"
        for sw in swaps)
    tried = (f"<h2>Swaps tried ({len(swaps)})</h2><p>Each swap played the same games as the deck it would change "
             "(common random numbers); the difference is its score against the field minus that deck's, in points "
             "with a 95% interval.</p>"
             + (f"<img src='{e(swaps_png)}' alt='paired difference of every swap tried'>" if swaps_png else "")
             + "<table><tr><th>race</th><th>swap</th><th>games</th><th>paired diff (pts, 95%)</th>"
             f"<th>better/same/worse</th><th>LLR</th><th>result</th></tr>{swap_rows}</table>" if swaps else "")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>deck search</title><style>body{font-family:"
            "sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:collapse}td,th{padding:2px 8px;"
            "border:1px solid #ccc}img{max-width:100%}pre{white-space:pre-wrap}</style></head><body>"
            f"<h1>{e(data['game'])}: deck search</h1><p><b>{e(start)}</b></p>"
            f"<pre>{e(format_optimize(data))}</pre>{steps}{tried}</body></html>\n")


def _json_default(x: Any) -> Any:
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)
