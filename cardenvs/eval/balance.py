"""Card balance report (issue 17, issue 42 item 3): which card is strong, which is weak, separated from its deck.

``balance_report(game, n_decks, pilot, seed)`` draws ``n_decks`` random legal decks (:func:`cardenvs.core.deckgen.
random_decks`: a starter deck after many random legal moves), has each play ``opponents`` others (deck ``i`` against
decks ``i+1 .. i+opponents``, modulo ``n_decks``) ``pairs`` times in both seats, with the game's default pilot
(:func:`cardenvs.core.agents.default_pilot`, the one ``cardenvs eval`` and ``cardenvs decks optimize`` use) unless
told otherwise, and reads the per-instance drawn/played flags the engine keeps in every state. Per card:

* ``effect``: the card's **deck-adjusted effect** (:mod:`cardenvs.eval.card_model`): what drawing it does to the
  win rate instead of drawing the average card of the same deck, in points at an even game, with a 95% interval
  (``effect_ci``), from a penalised logistic model of every game's result with each deck's strength and draw count
  as terms. The raw "win rate when drawn minus when not drawn" (``iwd``) put every card of a strong deck below zero
  (its long games, in which every card gets drawn, are its losses) and credited a weak deck's filler with that
  deck's rare long wins; it is kept in the JSON and CSV for comparison, not used for the flags;
* ``gih_wr``, ``gns_wr``, ``drawn_rate``, ``played_rate``, ``decks`` (random decks holding it);
* ``inclusion_random``: the share of the random decks holding it, and, given deck search reports
  (``cardenvs decks optimize`` JSON), ``inclusion_strong``: the share of the searched (strong) decks holding it;
* ``flag``: ``strong`` / ``weak`` when the effect is reliably above / below zero, that is the average card of its
  decks: Holm's test over every card of the report at family-wise 5% (:func:`cardenvs.eval.card_model.holm_flags`),
  so a report of cards that are all average flags none in 19 runs of 20.
* ``rarely_played`` (a **dead card**, with its counts ``drawn_games`` and ``played_games``): the pilot drew it in
  20+ games but played it in 5% of them or fewer (:func:`cardenvs.eval.cards_stats.rarely_played`'s rule). Its
  effect then measures a dead draw under this pilot: levelneo's filler cards (Clumsy Page, Paper Shield, Dud
  Firework) measure average, because holding a card nobody plays costs little, yet the heuristic plays none of them
  in hundreds of draws, which a designer must still be told. The text, HTML and plot mark them with their counts.

``decks`` (instead of ``n_decks`` random decks) plays given decks, the game's starters for instance
(``cardenvs balance GAME --starters``).

What the effect cannot tell: it is relative to the cards a card was played beside (a pool of uniformly strong cards
shows nothing; a card that enables others, such as a cheap character paying a colour cost, gets credit for them);
it is observational within each deck and about this pilot.
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
from .card_model import MODEL_NOTE, fit_card_model, holm_flags
from .cards_stats import RARELY_PLAYED_MIN_DRAWN, RARELY_PLAYED_SHARE, card_table, is_rarely_played
from .matches import Chunk, Entry, Tally, derive_seed, derive_seeds, play_chunk
from .optimize import bind_pool, pool_pilot

__all__ = ["balance_report", "BalanceResult", "format_balance", "write_balance", "read_strong_report", "FLAG_STRONG",
           "FLAG_WEAK"]

FLAG_STRONG, FLAG_WEAK = "strong", "weak"
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
    config: dict
    strong_reports: list[str] = field(default_factory=list)
    pilot_note: str = ""

    @property
    def flagged(self) -> dict[str, str]:
        return {r["card"]: r["flag"] for r in self.rows if r["flag"]}

    @property
    def rarely_played(self) -> list[str]:
        """Cards the pilot drew often but almost never played (their win rates measure a dead draw)."""
        return [r["card"] for r in self.rows if r.get("rarely_played")]

    @property
    def dead_cards(self) -> dict[str, list[int]]:
        """The dead cards (:attr:`rarely_played`) with their counts: ``{card: [played games, drawn games]}``."""
        return {r["card"]: [r["played_games"], r["drawn_games"]] for r in self.rows if r.get("rarely_played")}

    def rarely_played_line(self) -> str:
        return (f"dead cards, rarely played by the pilot (drawn in {RARELY_PLAYED_MIN_DRAWN}+ games, played in "
                f"{RARELY_PLAYED_SHARE:.0%} or fewer; their effect measures holding a card the pilot does not play, "
                f"so look at the card or the pilot; played/drawn games): "
                + (", ".join(f"{c} {p}/{d}" for c, (p, d) in self.dead_cards.items()) or "none"))

    def to_dict(self) -> dict:
        return {"kind": "cardenvs balance", "game": self.game, "seed": self.seed, "pilot": self.pilot,
                "pilot_note": self.pilot_note, "decks": self.n_decks, "games": self.games, "seconds": self.elapsed,
                "estimate": MODEL_NOTE, "flagged": self.flagged, "rarely_played": self.rarely_played,
                "dead_cards": self.dead_cards, "cards": self.rows, "config": self.config,
                "strong_reports": self.strong_reports}


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
    pilot: str | None = None,
    seed: int = 0,
    pool: CardPool | Sequence[str | Path] | None = None,
    opponents: int = 4,
    pairs: int = 4,
    strong_reports: Sequence[str | Path | dict] = (),
    z: float = stats.Z95,
    alpha: float = 0.05,
    min_games: int = 20,
    chunk_size: int = 4096,
    backend: Any = None,
    progress: Any = None,
    decks: Sequence[Any] | None = None,
) -> BalanceResult:
    """Per-card balance statistics from random legal decks, or from ``decks`` (Deck objects, e.g. the starters;
    ``n_decks`` is then their number) (see the module docstring). ``pilot`` None: the game's default pilot; ``z``:
    the intervals shown; ``alpha``: the flags' family-wise error rate."""
    from cardenvs.core.agents import default_pilot, describe_pilot
    from cardenvs.core.deckgen import load_game_pool, random_decks

    spec = get_spec(game)
    chosen = pilot is None
    pilot = default_pilot(spec.name) if chosen else pilot
    note = ", ".join(x for x in (describe_pilot(spec.name, pilot), "default: the strongest available" if chosen else "")
                     if x)
    pool = load_game_pool(spec, pool)
    given = decks is not None
    if given:
        decks = list(decks)
        n_decks = len(decks)
    for name, v in (("decks", n_decks), ("opponents", opponents), ("pairs", pairs)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise BadArgumentError(f"--{name} must be a positive integer, got {v!r}")
    if n_decks < 2:
        raise BadArgumentError("--decks must be at least 2")
    best_decks = [read_strong_report(r) for r in strong_reports]  # read before any game, not after the last
    opponents = min(opponents, n_decks - 1)
    if decks is None:
        decks = random_decks(spec, n_decks, seed, pool=pool)
    agent = pool_pilot(spec, pilot, pool, seed)
    entries = [Entry(f"{i}-{d.name}" if given else f"random-{i}", d, agent) for i, d in enumerate(decks)]
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
    model = fit_card_model(tally, n_decks, len(pool), min_drawn=min_games)
    effects = model.rows(z) if model is not None else {}
    signs = dict(zip(model.card_ids.tolist(), holm_flags(model.b, model.se, alpha).tolist())) if model else {}
    holding = np.array([[np.count_nonzero(d.card_ids == c) > 0 for c in range(len(pool))] for d in decks])
    incl_random = holding.mean(axis=0)
    incl_strong, n_strong = _strong_inclusion(best_decks, names)
    out = []
    for r in rows:
        c = r["card_id"]
        eff = effects.get(c, {"effect": None, "effect_ci": [None, None], "effect_games": 0})
        sign = signs.get(c, 0)
        out.append({"card": r["card"], "card_id": c, "decks": int(holding[:, c].sum()), "games": r["gp_games"],
                    "drawn_rate": r["drawn_rate"], "played_rate": r["played_rate"], "gih_wr": r["gih_wr"],
                    "gns_wr": r["gns_wr"], **eff, "iwd": r["iwd"], "iwd_ci": r["iwd_ci"],
                    "inclusion_random": float(incl_random[c]),
                    "inclusion_strong": None if n_strong == 0 else float(incl_strong[c]),
                    "flag": FLAG_STRONG if sign > 0 else FLAG_WEAK if sign < 0 else "",
                    "rarely_played": is_rarely_played(int(total[c, 2]), int(total[c, 6])),
                    "drawn_games": int(total[c, 2]), "played_games": int(total[c, 6])})
    out.sort(key=lambda r: (r["effect"] is None, -(r["effect"] or 0.0), r["card"]))
    config = {"opponents": opponents, "pairs": pairs, "z": z, "alpha": alpha, "min_games": min_games,
              "decks": [d.name for d in decks] if given else "random",
              "pool": [str(p) for p in pool.paths], "strong_decks": n_strong}
    return BalanceResult(spec.name, seed, pilot, n_decks, tally.games, elapsed, out, config,
                         [str(r) for r in strong_reports if not isinstance(r, dict)], note)


# ----- output ------------------------------------------------------------------------------------------------------
def _p(x: Any) -> str:
    return "-" if x is None or x != x else f"{100 * x:.1f}"


def _pts(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:+.1f}"


def dead_text(r: dict) -> str:
    """"dead card: played 0/631": a dead card's mark with its played and drawn games, "" for any other card."""
    return f"dead card: played {r['played_games']}/{r['drawn_games']}" if r.get("rarely_played") else ""


def effect_text(r: dict) -> str:
    """"+4.2 [+0.1, +8.5]": a row's effect and interval in points."""
    if r.get("effect") is None:
        return "-"
    return f"{_pts(r['effect'])} [{_pts(r['effect_ci'][0])}, {_pts(r['effect_ci'][1])}]"


def headline(result: BalanceResult) -> str:
    """The report's first line: the game and who piloted every deck (as ``cardenvs eval`` names it)."""
    from .report import pilot_line

    return f"{result.game}: " + pilot_line({"config": {"pilots": [result.pilot]},
                                             "pilot_notes": {result.pilot: result.pilot_note}})


def meaning_lines(result: BalanceResult) -> list[str]:
    """What the effect is, how the flags are decided and what the number cannot tell, for every output."""
    alpha = result.config.get("alpha", 0.05)
    return [
        "effect: win-rate points (at an even game) of drawing the card instead of the average card of the same deck,",
        "  from a penalised logistic model of the results with each deck's strength and draw count as terms, with "
        f"its {_level(result)} interval;",
        f"  flag: strong / weak when the effect is reliably above / below that average (Holm, {alpha:.0%} "
        "family-wise over the cards of this report).",
        "  It cannot tell: a deck's overall strength (its rating does), a card's worth with another pilot, or what",
        "  a card enables beside it (a cheap character paying others' colour costs is credited with them).",
    ]


def _deck_words(result: BalanceResult) -> str:
    given = result.config.get("decks", "random")
    return (f"{result.n_decks} random legal decks" if given == "random" else
            f"{result.n_decks} given decks ({', '.join(map(str, given))})")


def _level(result: BalanceResult) -> str:
    z = result.config.get("z", stats.Z95)
    return "95%" if abs(z - stats.Z95) < 1e-9 else f"z={z:g}"


def format_balance(result: BalanceResult, top: int | None = None) -> str:
    lines = [headline(result),
             f"balance: {_deck_words(result)}, seed {result.seed}, {result.games} games in "
             f"{result.elapsed:.1f} s", *meaning_lines(result),
             "", f"{'card':<28} {'decks':>5} {'drawn%':>6} {'played%':>7} {'GIH WR':>6} {'GNS WR':>6} "
                 f"{'effect pts [' + _level(result) + ']':>22} {'incl rnd':>8} {'incl strong':>11}  flag"]
    rows = result.rows if top is None else result.rows[:top]
    for r in rows:
        lines.append(f"{r['card'][:28]:<28} {r['decks']:>5} {_p(r['drawn_rate']):>6} {_p(r['played_rate']):>7} "
                     f"{_p(r['gih_wr']):>6} {_p(r['gns_wr']):>6} {effect_text(r):>22} {_p(r['inclusion_random']):>8} "
                     f"{_p(r['inclusion_strong']):>11}  {'; '.join(x for x in (r['flag'], dead_text(r)) if x)}")
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
    cols = ["card", "decks", "games", "drawn_rate", "played_rate", "gih_wr", "gns_wr", "effect", "effect_lo",
            "effect_hi", "effect_games", "iwd", "iwd_lo", "iwd_hi", "inclusion_random", "inclusion_strong", "flag",
            "rarely_played", "drawn_games", "played_games"]
    with cs.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for r in result.rows:  # a card named "=..." is text, not a spreadsheet formula
            w.writerow([csv_cell(r["card"]), r["decks"], r["games"], r["drawn_rate"], r["played_rate"], r["gih_wr"],
                        r["gns_wr"], _cell(r["effect"]), _cell(r["effect_ci"][0]), _cell(r["effect_ci"][1]),
                        r["effect_games"], r["iwd"], r["iwd_ci"][0], r["iwd_ci"][1], r["inclusion_random"],
                        "" if r["inclusion_strong"] is None else r["inclusion_strong"], r["flag"],
                        int(r["rarely_played"]), r["drawn_games"], r["played_games"]])
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


def _cell(x: float | None) -> Any:
    return "" if x is None else x


def plot_balance(result: BalanceResult, path: Path) -> Path | None:
    """Every card's effect with its interval, strongest on top; flagged cards in colour."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    rows = [r for r in result.rows if r["effect"] is not None][::-1]
    n = len(rows)
    fig, ax = plt.subplots(figsize=(7.5, max(3.0, 0.22 * n + 1.4)))
    y = np.arange(n)
    x = np.array([100 * r["effect"] for r in rows])
    lo = np.array([100 * r["effect_ci"][0] for r in rows])
    hi = np.array([100 * r["effect_ci"][1] for r in rows])
    colors = ["#1e8449" if r["flag"] == FLAG_STRONG else "#c0392b" if r["flag"] == FLAG_WEAK else "#555555"
              for r in rows]
    ax.axvline(0, color="grey", lw=0.8)
    ax.errorbar(x, y, xerr=[x - lo, hi - x], fmt="none", ecolor=colors, elinewidth=1)
    ax.scatter(x, y, c=colors, s=14, zorder=3)
    ax.set_yticks(y)
    ax.set_yticklabels([plot_text(r["card"] + (f"  [{r['flag']}]" if r["flag"] else "")
                                  + (f"  ({dead_text(r)})" if r["rarely_played"] else "")) for r in rows], fontsize=7)
    ax.set_xlabel(f"effect of drawing it instead of its deck's average card (win-rate points, {_level(result)})")
    ax.set_title(plot_text(f"{result.game}: card balance ({result.n_decks} random decks, {result.games} games, "
                           f"pilot {result.pilot})"), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path


def _write_html(result: BalanceResult, path: Path, png: str) -> Path:
    e = html_text
    head = ["card", "decks", "drawn %", "played %", "GIH WR", "GNS WR", f"effect pts [{_level(result)}]",
            "IWD pts (raw)", "incl. random", "incl. strong", "flag"]
    body = []
    rare = result.rarely_played_line()
    for r in result.rows:
        cells = [r["card"] + (f" ({dead_text(r)})" if r["rarely_played"] else ""), r["decks"], _p(r["drawn_rate"]),
                 _p(r["played_rate"]), _p(r["gih_wr"]), _p(r["gns_wr"]), effect_text(r), _pts(r["iwd"]),
                 _p(r["inclusion_random"]), _p(r["inclusion_strong"]), r["flag"]]
        style = ' style="background:#e2f5e6"' if r["flag"] == FLAG_STRONG else \
            ' style="background:#fde2e2"' if r["flag"] == FLAG_WEAK else ""
        body.append(f"<tr{style}>" + "".join(f"<td>{e(c)}</td>" for c in cells) + "</tr>")
    meaning = " ".join(line.strip() for line in meaning_lines(result))
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{e(result.game)} card balance</title>"
            "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:collapse}"
            "td,th{padding:2px 8px;text-align:right;border:1px solid #ddd}td:first-child{text-align:left}"
            "img{max-width:100%}</style></head><body>"
            f"<h1>{e(result.game)}: card balance</h1><p><b>{e(headline(result))}</b></p>"
            f"<p>{e(_deck_words(result))}, seed {result.seed}, {result.games} games.</p>"
            f"<p>{e(meaning)} The raw IWD (win rate when drawn minus when not drawn) is shown for comparison: it "
            "mixes a card with its deck (a fast deck loses its long games, in which all its cards get drawn).</p>"
            f"<p>Flagged: {e(', '.join(f'{c} ({f})' for c, f in result.flagged.items()) or 'none')}.</p>"
            f"<p>{e(rare[:1].upper() + rare[1:])}.</p>"
            f"<img src='{e(png)}' alt='card balance plot'><table><tr>"
            + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>" + "".join(body) + "</table></body></html>\n")
    path.write_text(page, encoding="utf-8")
    return path
