"""Card balance report (issue 17): which card is too strong, which is never worth playing.

``balance_report(game, n_decks, pilot, seed)`` draws ``n_decks`` random legal decks (:func:`cardenvs.core.deckgen.
random_decks`: a starter deck after many random legal moves), has each play ``opponents`` others (deck ``i`` against
decks ``i+1 .. i+opponents``, modulo ``n_decks``) ``pairs`` times in both seats with competent pilots, and reads the
per-instance drawn/played flags the engine keeps in every state (:mod:`cardenvs.eval.cards_stats`). Per card:

* ``iwd``: win rate when drawn minus win rate when not drawn (games of decks that hold the card), with Newcombe's
  95% interval; ``gih_wr``, ``gns_wr``, ``drawn_rate``, ``played_rate``, ``decks`` (random decks holding it);
* ``inclusion_random``: the share of the random decks holding it, and, given deck search reports
  (``cardenvs decks optimize`` JSON), ``inclusion_strong``: the share of the searched (strong) decks holding it;
* ``flag``: ``too strong`` when the whole interval lies above the field's range, ``never worth playing`` when it
  lies below. The field's range is the Tukey fence of the cards' point estimates (first quartile - 1.5 IQR, third
  quartile + 1.5 IQR), so a card is flagged only when it is an outlier among this pool's cards *and* its interval
  says so. Win rate when drawn is biased the same way for every card (longer games draw more cards), which is why
  the flags compare cards with each other rather than with zero.

* ``rarely_played``: the pilot drew it in 20+ games but played it in 5% of them or fewer
  (:func:`cardenvs.eval.cards_stats.rarely_played`'s rule). Its win rates then measure a dead draw under this pilot,
  so a flag on it may be the pilot's blind spot rather than the card's worth; the report lists these cards.

With ``z`` = 1.96 a card whose true effect sits just at the fence is flagged 2.5% of the time; cards inside the
range much less. Raise ``z`` (e.g. a Bonferroni z for the pool size) for fewer false flags.
"""
from __future__ import annotations

import csv
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from cardenvs.core.batch import get_spec
from cardenvs.core.cards import CardPool
from cardenvs.core.errors import BadArgumentError
from cardenvs.core.escaping import csv_cell, html_text, plot_text, terminal
from cardenvs.core.spec import GameSpec

from . import stats
from .cards_stats import RARELY_PLAYED_MIN_DRAWN, RARELY_PLAYED_SHARE, card_table, is_rarely_played
from .matches import Chunk, Entry, Tally, derive_seed, derive_seeds, play_chunk
from .optimize import bind_pool, pool_pilot

__all__ = ["balance_report", "BalanceResult", "format_balance", "write_balance", "field_range", "read_strong_report"]

FLAG_STRONG, FLAG_WEAK = "too strong", "never worth playing"
#: the kind of report in a balance folder's manifest (:mod:`cardenvs.core.outputs`)
BALANCE_KIND = "cardenvs balance"
#: a deck search report larger than this is refused before it is parsed (a real one is a few hundred KB)
MAX_STRONG_BYTES = 16 * 1024 * 1024


@dataclass
class BalanceResult:
    game: str
    seed: int
    pilot: str
    n_decks: int
    games: int
    elapsed: float
    rows: list[dict]
    fence: tuple[float, float]
    config: dict
    strong_reports: list[str] = field(default_factory=list)

    @property
    def flagged(self) -> dict[str, str]:
        return {r["card"]: r["flag"] for r in self.rows if r["flag"]}

    @property
    def rarely_played(self) -> list[str]:
        """Cards the pilot drew often but almost never played (their win rates measure a dead draw)."""
        return [r["card"] for r in self.rows if r.get("rarely_played")]

    def rarely_played_line(self) -> str:
        return (f"rarely played by the pilot (drawn in {RARELY_PLAYED_MIN_DRAWN}+ games, played in "
                f"{RARELY_PLAYED_SHARE:.0%} or fewer; their win rates measure a dead draw, so a flag on them may be "
                f"the pilot's blind spot): " + (", ".join(self.rarely_played) or "none"))

    def to_dict(self) -> dict:
        return {"kind": "cardenvs balance", "game": self.game, "seed": self.seed, "pilot": self.pilot,
                "decks": self.n_decks, "games": self.games, "seconds": self.elapsed, "field_range": list(self.fence),
                "flagged": self.flagged, "rarely_played": self.rarely_played, "cards": self.rows, "config": self.config,
                "strong_reports": self.strong_reports}


def field_range(values: Sequence[float], k: float = 1.5) -> tuple[float, float]:
    """Tukey's fences of ``values`` (nan ignored): (Q1 - k IQR, Q3 + k IQR)."""
    v = np.asarray([x for x in values if x == x], dtype=np.float64)
    if v.size == 0:
        return (float("-inf"), float("inf"))
    q1, q3 = np.percentile(v, [25, 75])
    return float(q1 - k * (q3 - q1)), float(q3 + k * (q3 - q1))


def read_strong_report(report: str | Path | dict) -> list[str]:
    """The card names of a deck search report's best deck (``cardenvs decks optimize`` JSON, or its dict): one
    :class:`BadArgumentError` naming the file for anything else (missing, too large, not JSON, no ``best`` deck)."""
    where = "--strong report" if isinstance(report, dict) else f"--strong {report}"
    if isinstance(report, dict):
        data: Any = report
    else:
        path = Path(report)
        try:
            if path.stat().st_size > MAX_STRONG_BYTES:
                raise BadArgumentError(f"{where}: larger than a deck search report can be ({MAX_STRONG_BYTES} bytes)")
            data = json.loads(path.read_bytes().decode("utf-8"))
        except OSError as exc:
            raise BadArgumentError(f"{where}: cannot read the report ({exc.strerror or exc})") from None
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # ValueError: bad JSON, 5,000-digit numbers
            raise BadArgumentError(f"{where}: not a deck search report (invalid JSON: {str(exc)[:80]})") from None
    best = data.get("best") if isinstance(data, dict) else None
    if isinstance(best, dict):
        best = list(best)
    if not isinstance(best, list) or not all(isinstance(card, str) for card in best):
        raise BadArgumentError(f"{where}: not a deck search report (no 'best' deck of card names)")
    return best


def _strong_inclusion(reports: Sequence[list[str]], names: Sequence[str]) -> tuple[np.ndarray, int]:
    """Share of the searched decks (best deck of each optimize report, as :func:`read_strong_report` reads it)
    holding each card."""
    counts = np.zeros(len(names))
    index = {n: i for i, n in enumerate(names)}
    for best in reports:
        for card in set(best):
            if card in index:
                counts[index[card]] += 1
    n = len(reports)
    return (counts / n if n else np.full(len(names), np.nan)), n


def balance_report(
    game: str | GameSpec,
    n_decks: int = 200,
    pilot: str = "heuristic",
    seed: int = 0,
    pool: CardPool | Sequence[str | Path] | None = None,
    opponents: int = 4,
    pairs: int = 4,
    strong_reports: Sequence[str | Path | dict] = (),
    z: float = stats.Z95,
    fence_k: float = 1.5,
    min_games: int = 20,
    chunk_size: int = 4096,
    backend: Any = None,
    progress: Any = None,
) -> BalanceResult:
    """Per-card balance statistics from random legal decks (see the module docstring)."""
    from cardenvs.core.deckgen import load_game_pool, random_decks

    spec = get_spec(game)
    pool = load_game_pool(spec, pool)
    for name, v in (("decks", n_decks), ("opponents", opponents), ("pairs", pairs)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise BadArgumentError(f"--{name} must be a positive integer, got {v!r}")
    if n_decks < 2:
        raise BadArgumentError("--decks must be at least 2")
    best_decks = [read_strong_report(r) for r in strong_reports]  # read before any game, not after the last
    opponents = min(opponents, n_decks - 1)
    decks = random_decks(spec, n_decks, seed, pool=pool)
    agent = pool_pilot(spec, pilot, pool, seed)
    entries = [Entry(f"random-{i}", d, agent) for i, d in enumerate(decks)]
    bspec = bind_pool(spec, pool)
    i, j, k, sw = np.meshgrid(np.arange(n_decks, dtype=np.int64), np.arange(1, opponents + 1, dtype=np.int64),
                              np.arange(pairs, dtype=np.int64), np.array([0, 1], np.int64), indexing="ij")
    i, j, k, sw = (x.ravel() for x in (i, j, k, sw))
    opp = (i + j) % n_decks
    seat0 = np.where(sw == 0, i, opp).astype(np.int32)
    seat1 = np.where(sw == 0, opp, i).astype(np.int32)
    ids = (i << 40) | (j << 24) | (k << 1) | sw
    seeds = derive_seeds(seed, 0xBA1A, i, j, k)
    chunks = [Chunk(c, seat0[s:s + chunk_size], seat1[s:s + chunk_size], seeds[s:s + chunk_size],
                    ids[s:s + chunk_size], derive_seed(seed, 0xBA1B, c))
              for c, s in enumerate(range(0, ids.size, chunk_size))]
    if progress is not None:
        progress.set_total(int(ids.size))
    advance = progress.advance if progress is not None else None
    t0 = time.perf_counter()
    tally = Tally.empty(n_decks, len(pool))
    if backend is None:
        for ch in chunks:
            tally = tally.merge(play_chunk(bspec, entries, ch, advance))
    else:
        for part in backend.run(bspec, entries, chunks, advance):
            tally = tally.merge(part)
    elapsed = time.perf_counter() - t0
    names = [pool.name(c) for c in range(len(pool))]
    rows = card_table(tally.cards, names, min_games=min_games)
    # recompute the intervals at the requested z (card_table uses 95%)
    total = tally.cards.sum(axis=0)
    for r in rows:
        c = r["card_id"]
        d, lo, hi = stats.newcombe_diff(total[c, 3] / 2.0, total[c, 2], total[c, 5] / 2.0, total[c, 4], z=z)
        r["iwd_ci"] = [lo, hi]
    holding = np.array([[np.count_nonzero(d.card_ids == c) > 0 for c in range(len(pool))] for d in decks])
    incl_random = holding.mean(axis=0)
    incl_strong, n_strong = _strong_inclusion(best_decks, names)
    lo_f, hi_f = field_range([r["iwd"] for r in rows], fence_k)
    out = []
    for r in rows:
        c = r["card_id"]
        lo, hi = r["iwd_ci"]
        flag = FLAG_STRONG if lo > hi_f else FLAG_WEAK if hi < lo_f else ""
        out.append({"card": r["card"], "card_id": c, "decks": int(holding[:, c].sum()), "games": r["gp_games"],
                    "drawn_rate": r["drawn_rate"], "played_rate": r["played_rate"], "gih_wr": r["gih_wr"],
                    "gns_wr": r["gns_wr"], "iwd": r["iwd"], "iwd_ci": [lo, hi],
                    "inclusion_random": float(incl_random[c]),
                    "inclusion_strong": None if n_strong == 0 else float(incl_strong[c]), "flag": flag,
                    "rarely_played": is_rarely_played(int(total[c, 2]), int(total[c, 6]))})
    config = {"opponents": opponents, "pairs": pairs, "z": z, "fence_k": fence_k, "min_games": min_games,
              "pool": [str(p) for p in pool.paths], "strong_decks": n_strong}
    return BalanceResult(spec.name, seed, pilot, n_decks, tally.games, elapsed, out, (lo_f, hi_f), config,
                         [str(r) for r in strong_reports if not isinstance(r, dict)])


# ----- output ------------------------------------------------------------------------------------------------------
def _p(x: Any) -> str:
    return "-" if x is None or x != x else f"{100 * x:.1f}"


def format_balance(result: BalanceResult, top: int | None = None) -> str:
    lo_f, hi_f = result.fence
    lines = [f"balance: {result.game}, {result.n_decks} random legal decks, pilot {result.pilot}, seed {result.seed}, "
             f"{result.games} games in {result.elapsed:.1f} s",
             f"field range of win rate when drawn - not drawn (Tukey fences): {100 * lo_f:+.1f} .. "
             f"{100 * hi_f:+.1f} pts",
             "", f"{'card':<28} {'decks':>5} {'drawn%':>6} {'played%':>7} {'GIH WR':>6} {'GNS WR':>6} "
                 f"{'IWD pts [95%]':>22} {'incl rnd':>8} {'incl strong':>11}  flag"]
    rows = result.rows if top is None else result.rows[:top]
    for r in rows:
        ci = f"{100 * r['iwd']:+.1f} [{100 * r['iwd_ci'][0]:+.1f}, {100 * r['iwd_ci'][1]:+.1f}]"
        lines.append(f"{r['card'][:28]:<28} {r['decks']:>5} {_p(r['drawn_rate']):>6} {_p(r['played_rate']):>7} "
                     f"{_p(r['gih_wr']):>6} {_p(r['gns_wr']):>6} {ci:>22} {_p(r['inclusion_random']):>8} "
                     f"{_p(r['inclusion_strong']):>11}  {r['flag']}")
    flagged = result.flagged
    lines += ["", "flagged: " + (", ".join(f"{c} ({f})" for c, f in flagged.items()) or "none"),
              result.rarely_played_line()]
    return "\n".join(lines)


def write_balance(result: BalanceResult, folder: str | Path, plot: bool = True) -> list[Path]:
    """balance.json, balance.csv, balance.txt and (with matplotlib) balance.png and balance.html in ``folder``.

    The folder holds one run: new, empty, or an earlier balance report (replaced whole); any other non-empty folder
    is refused with a :class:`BadArgumentError` (:mod:`cardenvs.core.outputs`). The files are written into a
    temporary folder first, so an interrupt leaves the earlier report or none, never a mixture."""
    from cardenvs.core.outputs import write_folder

    folder = Path(folder)
    names: list[str] = []
    write_folder(folder, BALANCE_KIND, lambda tmp: names.extend(p.name for p in _write_balance_files(result, tmp,
                                                                                                       plot)), "--out")
    return [folder / name for name in names]


def _write_balance_files(result: BalanceResult, folder: Path, plot: bool) -> list[Path]:
    paths = []
    js = folder / "balance.json"
    js.write_text(json.dumps(result.to_dict(), indent=1, default=float) + "\n", encoding="utf-8")
    paths.append(js)
    cs = folder / "balance.csv"
    cols = ["card", "decks", "games", "drawn_rate", "played_rate", "gih_wr", "gns_wr", "iwd", "iwd_lo", "iwd_hi",
            "inclusion_random", "inclusion_strong", "flag", "rarely_played"]
    with cs.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for r in result.rows:  # a card named "=..." is text, not a spreadsheet formula
            w.writerow([csv_cell(r["card"]), r["decks"], r["games"], r["drawn_rate"], r["played_rate"], r["gih_wr"],
                        r["gns_wr"], r["iwd"], r["iwd_ci"][0], r["iwd_ci"][1], r["inclusion_random"],
                        "" if r["inclusion_strong"] is None else r["inclusion_strong"], r["flag"],
                        int(r["rarely_played"])])
    paths.append(cs)
    txt = folder / "balance.txt"
    txt.write_text(terminal(format_balance(result), newlines=True) + "\n", encoding="utf-8")
    paths.append(txt)
    if plot:
        png = plot_balance(result, folder / "balance.png")
        if png is not None:
            paths.append(png)
            paths.append(_write_html(result, folder / "balance.html", png.name))
    return paths


def plot_balance(result: BalanceResult, path: Path) -> Path | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    rows = sorted(result.rows, key=lambda r: r["iwd"])
    n = len(rows)
    fig, ax = plt.subplots(figsize=(7, max(3.0, 0.22 * n + 1)))
    y = np.arange(n)
    x = np.array([100 * r["iwd"] for r in rows])
    lo = np.array([100 * r["iwd_ci"][0] for r in rows])
    hi = np.array([100 * r["iwd_ci"][1] for r in rows])
    colors = ["#c0392b" if r["flag"] == FLAG_STRONG else "#2e86c1" if r["flag"] == FLAG_WEAK else "#555555"
              for r in rows]
    ax.axvspan(100 * result.fence[0], 100 * result.fence[1], color="#eeeeee", label="field range (Tukey fences)")
    ax.errorbar(x, y, xerr=[x - lo, hi - x], fmt="none", ecolor=colors, elinewidth=1)
    ax.scatter(x, y, c=colors, s=14, zorder=3)
    ax.set_yticks(y)
    ax.set_yticklabels([plot_text(r["card"] + (f"  [{r['flag']}]" if r["flag"] else "")
                                  + ("  (rarely played)" if r["rarely_played"] else "")) for r in rows], fontsize=7)
    ax.set_xlabel("win rate when drawn - when not drawn (points, 95% interval)")
    ax.set_title(plot_text(f"{result.game}: card balance ({result.n_decks} random decks, {result.games} games)"),
                 fontsize=9)
    ax.legend(loc="lower right", fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _write_html(result: BalanceResult, path: Path, png: str) -> Path:
    e = html_text
    head = ["card", "decks", "drawn %", "played %", "GIH WR", "GNS WR", "IWD pts [95%]", "incl. random", "incl. strong",
            "flag"]
    body = []
    rare = result.rarely_played_line()
    for r in result.rows:
        ci = f"{100 * r['iwd']:+.1f} [{100 * r['iwd_ci'][0]:+.1f}, {100 * r['iwd_ci'][1]:+.1f}]"
        cells = [r["card"] + (" (rarely played)" if r["rarely_played"] else ""), r["decks"], _p(r["drawn_rate"]),
                 _p(r["played_rate"]), _p(r["gih_wr"]), _p(r["gns_wr"]), ci, _p(r["inclusion_random"]),
                 _p(r["inclusion_strong"]), r["flag"]]
        style = ' style="background:#fde2e2"' if r["flag"] == FLAG_STRONG else \
            ' style="background:#e2ecfd"' if r["flag"] == FLAG_WEAK else ""
        body.append(f"<tr{style}>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>")
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{e(result.game)} card balance</title>"
            "<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:right}td:first-child{text-align:left}"
            "</style></head><body>"
            f"<h1>{e(result.game)}: card balance</h1><p>{result.n_decks} random legal decks, pilot "
            f"{e(result.pilot)}, seed {result.seed}, {result.games} games. Field range (Tukey fences of the "
            f"cards' win rate when drawn - not drawn): {100 * result.fence[0]:+.1f} .. {100 * result.fence[1]:+.1f} "
            f"points. Flagged: {e(', '.join(f'{c} ({f})' for c, f in result.flagged.items()) or 'none')}."
            f"</p><p>{e(rare[:1].upper() + rare[1:])}.</p>"
            f"<img src='{e(png)}' alt='card balance plot'><table><tr>"
            + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>" + "".join(body) + "</table></body></html>\n")
    path.write_text(page, encoding="utf-8")
    return path
