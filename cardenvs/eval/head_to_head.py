"""One pilot against another, on every pairing of decks, from both seats (``cardenvs match GAME A B`` prints it).

    summary = run_match("levelneo", "heuristic", "random", games=2000)    # the starter decks, every ordered pairing
    print(format_match(summary))

The games are played by the tournament engine (:func:`cardenvs.eval.tournament.run_tournament`, the loop behind
``cardenvs eval``): each deck becomes two entries, ``A:deck`` piloted by A and ``B:deck`` piloted by B, and only A's
entries meet B's (a gauntlet-shaped schedule, as :mod:`.gauntlet` uses). So every ordered deck pairing (A's deck,
B's deck), mirrors included, is played in both seatings with common random numbers: game ``k`` of a pairing has one
seed in both seatings and in every pairing. Between two copies of one seeded pilot (``random random``) the two
seatings of a game are the same game with the pilots' names swapped, so a mirror scores exactly 0.5.

Intervals for A's score (wins plus half the draws and truncations, per game): the Wilson interval treats the games as
independent; they are not (the games of a seed share their deals, and every game of a deck pairing shares its decks,
as do the pairings (i, j) and (j, i) with each other), so a two-stage bootstrap resamples the unordered deck pairs
(both orders together, so that the decks' own strength cancels out of a comparison of pilots), then the seeds within
each: an interval for "A against B on decks like these". With few deck pairs it is the rougher of the two (it says
so).
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from cardenvs.core.errors import BadArgumentError, CardenvsError

if TYPE_CHECKING:
    import numpy as np

# numpy, the statistics and the engine are imported where they are used: `cardenvs --help` reads this module's
# defaults and should not pay for them

#: total games when --games is not given (spread evenly over the deck pairings, at least 2 a pairing)
DEFAULT_GAMES = 1000
#: bootstrap replicates when --bootstrap is not given
DEFAULT_BOOTSTRAP = 2000
#: below this many deck pairings the bootstrap over pairings rests on too few clusters to trust far
FEW_PAIRINGS = 5


def check_pilot(game: str, which: str, kind: str) -> None:
    """Build pilot ``kind`` once before any game, so a bad name or file is one line naming the argument."""
    from cardenvs.core.agents import make_agent

    try:
        make_agent(game, kind, seed=0)
    except CardenvsError as exc:
        raise BadArgumentError(f"pilot {which} ({kind!r}): {exc}") from None
    except (ImportError, OSError, ValueError) as exc:
        raise BadArgumentError(f"pilot {which} ({kind!r}): cannot load it ({exc})") from None


def games_per_pairing(total: int, pairings: int) -> int:
    """The even number of games each pairing plays so that all of them together play at least ``total``."""
    return 2 * max(1, math.ceil(int(total) / (2 * int(pairings))))


def match_entries(game: Any, pilot_a: str, pilot_b: str,
                  decks: Sequence[str | Path] | None = None) -> tuple[list, list[tuple[int, int]], list[str]]:
    """The match's tournament entries (``A:deck`` for every deck, then ``B:deck``), its pairings (A's deck i against
    B's deck j, every ordered pair, mirrors included) and the deck labels. Builds both pilots and loads every deck
    (default: the game's starter decks) first, so a bad name or file is one error before any game."""
    from cardenvs.core.batch import get_spec

    from .matches import Entry, deck_labels

    spec = get_spec(game)
    check_pilot(spec.name, "A", pilot_a)
    check_pilot(spec.name, "B", pilot_b)
    pool = spec.load_pool(None)
    names = list(decks) if decks else list(spec.starter_decks())
    loaded = [spec.load_deck(d, pool) for d in names]
    labels = deck_labels(loaded, names)  # eval's labels: unique, and each says which file it came from
    n = len(loaded)
    entries = ([Entry(f"A:{label}", deck, pilot_a) for label, deck in zip(labels, loaded)]
               + [Entry(f"B:{label}", deck, pilot_b) for label, deck in zip(labels, loaded)])
    return entries, [(i, n + j) for i in range(n) for j in range(n)], labels


def run_match(game: Any, pilot_a: str, pilot_b: str, decks: Sequence[str | Path] | None = None,
              games: int = DEFAULT_GAMES, seed: int = 0, bootstrap: int = DEFAULT_BOOTSTRAP, progress: Any = None,
              chunk_size: int = 4096, prepared: tuple | None = None) -> dict:
    """Play ``pilot_a`` against ``pilot_b`` on every ordered pairing of ``decks`` (default: the game's starter decks),
    both seatings each, about ``games`` games in all; return the summary :func:`format_match` prints and ``--json``
    writes (A's score with Wilson and bootstrap intervals, per seat, per deck pairing).

    ``progress``: an object with ``advance(n)`` and ``set_total(n)`` (:class:`cardenvs.eval.report.RichProgress`);
    ``prepared``: :func:`match_entries`' result, when the caller checked the pilots and decks already."""
    from cardenvs.core.batch import get_spec

    from .tournament import run_tournament

    spec = get_spec(game)
    if isinstance(games, bool) or not isinstance(games, int) or games < 2:
        raise BadArgumentError(f"--games must be an integer of at least 2 (one game in each seat), got {games!r}")
    entries, pairs, labels = prepared or match_entries(spec, pilot_a, pilot_b, decks)
    per = games_per_pairing(games, len(pairs))
    result = run_tournament(spec, entries=entries, pairs=pairs, games=per, seed=seed, chunk_size=chunk_size,
                            progress=progress)
    return summarize_match(result, pilot_a, pilot_b, labels, bootstrap)


def _a_points(result: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per game: the deck pairing's index, A's seat (0 or 1) and A's points (1, 0.5 or 0); from the tally's game ids
    (``pairing << 40 | k << 1 | swapped``: A, listed first in every pairing, sits in seat 0 unless swapped)."""
    import numpy as np

    from .matches import SEAT0_WINS, SEAT1_WINS
    t = result.tally
    ids = t.game_ids
    pairing = (ids >> 40).astype(np.int64)
    a_seat = (ids & 1).astype(np.int64)
    out = t.outcomes
    a_won = ((out == SEAT0_WINS) & (a_seat == 0)) | ((out == SEAT1_WINS) & (a_seat == 1))
    a_lost = ((out == SEAT1_WINS) & (a_seat == 0)) | ((out == SEAT0_WINS) & (a_seat == 1))
    points = np.where(a_won, 1.0, np.where(a_lost, 0.0, 0.5))
    return pairing, a_seat, points


def cluster_bootstrap(points: np.ndarray, pairing: np.ndarray, ids: np.ndarray, replicates: int,
                      seed: int = 0, clusters: np.ndarray | None = None) -> tuple[float, float] | None:
    """95% percentile interval of the mean of ``points`` by a two-stage bootstrap (:func:`bootstrap_means`). None
    without replicates."""
    import numpy as np
    means = bootstrap_means(points, pairing, ids, replicates, seed, clusters)
    if means is None:
        return None
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(lo), float(hi)


def bootstrap_means(points: np.ndarray, pairing: np.ndarray, ids: np.ndarray, replicates: int,
                    seed: int = 0, clusters: np.ndarray | None = None) -> np.ndarray | None:
    """The replicates of a two-stage bootstrap of the mean of ``points``: the clusters of deck pairings drawn with
    replacement, then within each drawn cluster its seeds with replacement (a seed's games, the two seatings of
    every pairing of the cluster, share their deals: common random numbers). ``clusters[p]``: the cluster of deck
    pairing ``p`` (default: each pairing its own); a cluster weighs as many pairings as it holds, as in the mean of
    every game (the point estimate). None without replicates. Every pairing holds the same number of game pairs."""
    import numpy as np
    if replicates <= 0 or points.size == 0:
        return None
    pts = points[np.argsort(ids, kind="stable")]  # by pairing, then seed k, then seating: a pair's games adjacent
    n_pairings = int(np.unique(pairing).size)
    per_pair = pts.reshape(n_pairings, -1, 2).mean(axis=2)  # [pairings, game pairs]: one value per seed
    which = np.arange(n_pairings) if clusters is None else np.unique(np.asarray(clusters), return_inverse=True)[1]
    weight = np.bincount(which).astype(np.float64)  # pairings per cluster
    per_cluster = np.zeros((weight.size, per_pair.shape[1]))
    np.add.at(per_cluster, which, per_pair)
    per_cluster /= weight[:, None]  # [clusters, seeds]: a seed's mean over the cluster's pairings
    p, kk = per_cluster.shape
    rng = np.random.default_rng(np.random.SeedSequence([int(seed) & ((1 << 63) - 1), 0xC1A5]))
    means = np.empty(replicates)
    block = max(1, 2_000_000 // max(p * kk, 1))  # replicates at a time: memory stays a few tens of MB
    for start in range(0, replicates, block):
        b = min(block, replicates - start)
        rows = rng.integers(p, size=(b, p))
        cols = rng.integers(kk, size=(b, p, kk))
        w = weight[rows]
        means[start:start + b] = (per_cluster[rows[:, :, None], cols].mean(axis=2) * w).sum(axis=1) / w.sum(axis=1)
    return means


def deck_pair_clusters(pairs: Sequence[tuple[int, int]], n_decks: int) -> np.ndarray:
    """Per ordered deck pairing of a match (A's deck ``i``, B's entry ``n_decks + j``): its cluster, the unordered
    pair of decks. (i, j) and (j, i) share both decks, so they are not independent of each other; drawn together,
    the strength of the decks cancels out of A's score and the interval measures the pilots."""
    import numpy as np
    return np.array([min(i, j - n_decks) * n_decks + max(i, j - n_decks) for i, j in pairs], dtype=np.int64)


def _wdl(points: np.ndarray) -> dict:
    import numpy as np

    from . import stats
    w, d, l_ = int(np.count_nonzero(points == 1.0)), int(np.count_nonzero(points == 0.5)), int(
        np.count_nonzero(points == 0.0))
    n = w + d + l_
    score, lo, hi = stats.wilson(w + 0.5 * d, n)
    return {"games": n, "wins": w, "draws": d, "losses": l_, "score": score, "ci_wilson": [lo, hi]}


def summarize_match(result: Any, pilot_a: str, pilot_b: str, labels: Sequence[str], bootstrap: int) -> dict:
    """The match's numbers from a finished tournament (see :func:`run_match`)."""
    import numpy as np

    from . import stats
    from .matches import DRAWN, TRUNCATED_GAME
    pairing, a_seat, points = _a_points(result)
    t = result.tally
    total = _wdl(points)
    truncated = int(np.count_nonzero(t.outcomes == TRUNCATED_GAME))
    drawn = int(np.count_nonzero(t.outcomes == DRAWN))
    n_pairings = len(result.pairs)
    clusters = deck_pair_clusters(result.pairs, len(labels))
    n_clusters = int(np.unique(clusters).size)
    boot = cluster_bootstrap(points, pairing, t.game_ids, bootstrap, seed=result.seed, clusters=clusters)
    per_pairing = []
    for p, (i, j) in enumerate(result.pairs):
        row = _wdl(points[pairing == p])
        per_pairing.append({"a_deck": labels[i], "b_deck": labels[j - len(labels)], **row})

    def elo(score: float) -> float | None:
        return None if not 0 < score < 1 else float(stats.score_to_elo(score)) + 0.0  # no "-0"

    summary = {
        "game": result.game, "a": pilot_a, "b": pilot_b, "seed": result.seed, "decks": list(labels),
        "deck_pairings": n_pairings, "games_per_pairing": int(result.config.get("games_per_pairing", 0)),
        **total, "draws_by_rule": drawn, "truncated": truncated,
        "ci_bootstrap": list(boot) if boot else None, "bootstrap": int(bootstrap),
        "bootstrap_clusters": n_clusters,
        "bootstrap_note": ("two-stage: unordered deck pairs (A's deck i against B's deck j drawn with j against i), "
                           "then seeds within each (a seed's games in both seatings)"
                           + (f"; only {n_clusters} deck pair(s): too few clusters for it to speak for other decks"
                              if n_clusters < FEW_PAIRINGS else "")),
        "elo": elo(total["score"]),
        "by_seat": {f"a_in_seat{s}": _wdl(points[a_seat == s]) for s in (0, 1)},
        "pairings": per_pairing,
        "seconds": round(float(result.elapsed), 2),
    }
    if boot:
        summary["elo_ci_bootstrap"] = [elo(boot[0]), elo(boot[1])]
    return summary


def format_match(s: dict) -> str:
    """The summary as text for a terminal (names escaped by the caller)."""
    def ci(pair: Sequence[float] | None) -> str:
        return "-" if not pair else f"{pair[0]:.3f}-{pair[1]:.3f}"

    lines = [f"{s['game']}: A = {s['a']} against B = {s['b']}: {s['games']:,} games over {s['deck_pairings']} deck "
             f"pairing(s) x 2 seats (seed {s['seed']}, {s['seconds']:.1f} s)",
             f"A's score {s['score']:.3f}  95% Wilson {ci(s['ci_wilson'])}  95% bootstrap over deck pairs "
             f"{ci(s['ci_bootstrap'])}  ({s['wins']:,} W / {s['draws']:,} D / {s['losses']:,} L"
             + (f", {s['truncated']:,} truncated counted as draws" if s["truncated"] else "") + ")"]
    if s.get("elo") is not None:
        boot = s.get("elo_ci_bootstrap")
        lines.append(f"Elo difference A - B: {s['elo']:+.0f}"
                     + (f" (bootstrap {boot[0]:+.0f} to {boot[1]:+.0f})" if boot and None not in boot else ""))
    if s.get("bootstrap_clusters", s["deck_pairings"]) < FEW_PAIRINGS and s.get("ci_bootstrap"):
        lines.append(f"note: {s['bootstrap_note']}")
    for seat in (0, 1):
        r = s["by_seat"][f"a_in_seat{seat}"]
        lines.append(f"A in seat {seat}: {r['score']:.3f} ({ci(r['ci_wilson'])}) of {r['games']:,} games, "
                     f"{r['wins']} W / {r['draws']} D / {r['losses']} L")
    width = max(len(f"{r['a_deck']} vs {r['b_deck']}") for r in s["pairings"])
    lines.append("A's deck vs B's deck:")
    for r in s["pairings"]:
        name = f"{r['a_deck']} vs {r['b_deck']}"
        lines.append(f"  {name:<{width}}  {r['score']:.3f} ({ci(r['ci_wilson'])}) of {r['games']:,}")
    return "\n".join(lines)


__all__ = ["bootstrap_means", "cluster_bootstrap", "deck_pair_clusters", "format_match", "match_entries", "run_match", "summarize_match"]
