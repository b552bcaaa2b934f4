"""Outputs of an evaluation: a JSON-ready summary, CSV tables, terminal tables, PNG charts and an HTML report.

Everything is derived from a :class:`~cardenvs.eval.tournament.TournamentResult` by :func:`summarize`, so the
JSON, the CSV files, the terminal and the HTML show the same numbers. Timing lives under ``"run"`` only, so two
runs with the same seed give identical JSON apart from that block.
"""
from __future__ import annotations

import base64
import csv
import json
import math
import os
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..core.escaping import csv_cell, html_text, plot_text, rich_text, terminal
from .card_model import MODEL_NOTE, fit_card_model
from .cards_stats import RARELY_PLAYED_MIN_DRAWN, RARELY_PLAYED_SHARE, card_stats, rarely_played
from .tournament import SprtResult, TournamentResult


# ----- summary ------------------------------------------------------------------------------------------------------
def summarize(result: TournamentResult, bootstrap: int = 1000, cards: bool = True, sprt: SprtResult | None = None) -> dict:
    """Every statistic of a tournament as plain JSON-ready data."""
    score, lo, hi, n = result.score_matrix()
    ratings = result.ratings(bootstrap)
    out: dict[str, Any] = {
        "game": result.game,
        "seed": result.seed,
        "games": result.games,
        "rounds": result.rounds,
        "config": result.config,
        "entries": [{"label": e.label, "deck": e.deck.name, "path": e.deck.path, "pilot": e.pilot} for e in result.entries],
        "pairings": result.pairing_stats(),
        "matrix": {"labels": result.labels, "score": _clean(score), "lo": _clean(lo), "hi": _clean(hi),
                   "games": n.astype(int).tolist()},
        "ratings": {"method": "Bradley-Terry (MM), draws as half wins, Elo scale", "bootstrap": bootstrap,
                    "rows": ratings.rows()},
        "first_player": result.first_player_stats(),
        "truncated": int(result.tally.results[..., 3].sum()),
        "mean_turns": float(result.tally.turns.mean()) if result.games else None,
    }
    endings = result.ending_stats()
    if endings is not None:
        out["endings"] = endings
    agreement = pilot_agreement(result, bootstrap)
    if agreement is not None:
        out["pilot_agreement"] = agreement
    if cards:
        out["cards"] = card_effects(result, card_stats(result))
        out["card_estimate"] = MODEL_NOTE
        out["cards_by_deck"] = card_stats(result, by_deck=True)
        out["rarely_played"] = rarely_played(result)
    if sprt is not None:
        out["sprt"] = sprt.to_dict()
    out["run"] = {"seconds": round(result.elapsed, 3), "games_per_second": round(result.games / max(result.elapsed, 1e-9), 1),
                  "backend": result.backend}
    return _clean(out)


def card_effects(result: TournamentResult, rows: list[dict]) -> list[dict]:
    """``rows`` (card_stats) with each card's deck-adjusted effect (:mod:`cardenvs.eval.card_model`) and its 95%
    interval, best first: the chart and tables rank cards by it, not by IWD, which mixes a card with its deck."""
    model = fit_card_model(result.tally, len(result.entries), len(result.card_names))
    effects = model.rows() if model is not None else {}
    empty = {"effect": None, "effect_ci": [None, None], "effect_games": 0}
    out = [{**r, **effects.get(r["card_id"], empty)} for r in rows]
    out.sort(key=lambda r: (r["effect"] is None, -(r["effect"] or 0.0), r["card"]))
    return out


def pilot_line(summary: dict) -> str:
    """"pilot: heuristic (rule-based ...)": who played the decks, first thing a reader sees."""
    pilots = summary.get("config", {}).get("pilots") or sorted({e["pilot"] for e in summary.get("entries", [])})
    notes = summary.get("pilot_notes") or {}
    text = ", ".join(f"{p} ({notes[p]})" if notes.get(p) else p for p in pilots)
    return ("pilots: " if len(pilots) > 1 else "pilot: ") + text


# ----- pilot agreement ----------------------------------------------------------------------------------------------
def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b between two score lists (ties handled as in scipy.stats.kendalltau); None when either list
    is constant or shorter than 2."""
    x_, y_ = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    i, j = np.triu_indices(len(x_), k=1)
    dx, dy = np.sign(x_[i] - x_[j]), np.sign(y_[i] - y_[j])
    n0 = len(i)
    tx, ty = int((dx == 0).sum()), int((dy == 0).sum())
    denom = math.sqrt((n0 - tx) * (n0 - ty))
    if denom == 0:
        return None
    return float((dx * dy).sum() / denom)


def pilot_agreement(result: TournamentResult, bootstrap: int = 1000) -> dict | None:
    """With several pilots: each pilot's deck ranking from the games where both decks had that pilot, Kendall's tau
    between every two pilots' rankings, and the deck pairings whose scores under two pilots disagree beyond their
    95% intervals (the intervals do not overlap). None with a single pilot."""
    from . import stats

    pilots = list(dict.fromkeys(e.pilot for e in result.entries))
    if len(pilots) < 2:
        return None
    def deck_of(e: Any) -> str:  # entries are labelled "deck@pilot" when there are several pilots
        return e.label[: -len(e.pilot) - 1] if e.label.endswith(f"@{e.pilot}") else e.label

    decks = list(dict.fromkeys(deck_of(e) for e in result.entries))
    index = {(deck_of(e), e.pilot): k for k, e in enumerate(result.entries)}
    res = result.tally.results
    rankings: dict[str, list[dict]] = {}
    elo: dict[str, list[float]] = {}
    scores: dict[str, dict] = {}
    for p in pilots:
        idx = [index[(d, p)] for d in decks if (d, p) in index]
        names = [d for d in decks if (d, p) in index]
        sub = res[np.ix_(idx, idx)]
        if len(idx) < 2 or sub.sum() == 0:
            continue
        ratings = stats.rate(sub, names, bootstrap=bootstrap, seed=result.seed)
        rankings[p] = ratings.rows()
        by_name = {r["label"]: r["elo"] for r in rankings[p]}
        elo[p] = [by_name.get(d, float("nan")) for d in decks]
        pts, n = stats.pair_scores(sub)
        sc, lo, hi = stats.wilson(pts, n)
        scores[p] = {(names[a], names[b]): (float(sc[a, b]), float(lo[a, b]), float(hi[a, b]), int(n[a, b]))
                     for a in range(len(names)) for b in range(len(names)) if a < b}
    rated = [p for p in pilots if p in rankings]
    taus = []
    for a in range(len(rated)):
        for b in range(a + 1, len(rated)):
            pa, pb = rated[a], rated[b]
            keep = [k for k in range(len(decks)) if not (math.isnan(elo[pa][k]) or math.isnan(elo[pb][k]))]
            taus.append({"a": pa, "b": pb, "decks": len(keep),
                         "tau": kendall_tau([elo[pa][k] for k in keep], [elo[pb][k] for k in keep])})
    pairings = []
    for x in range(len(decks)):
        for y in range(x + 1, len(decks)):
            key = (decks[x], decks[y])
            row: dict[str, Any] = {"a": decks[x], "b": decks[y], "by_pilot": {}, "disagree": []}
            for p in rated:
                if key in scores[p]:
                    sc, lo, hi, n = scores[p][key]
                    row["by_pilot"][p] = {"a_score": sc, "ci": [lo, hi], "games": n}
            got = list(row["by_pilot"].items())
            for i in range(len(got)):
                for j in range(i + 1, len(got)):
                    (pi, ri), (pj, rj) = got[i], got[j]
                    if ri["games"] and rj["games"] and (ri["ci"][1] < rj["ci"][0] or rj["ci"][1] < ri["ci"][0]):
                        row["disagree"].append([pi, pj])
            pairings.append(row)
    return {"pilots": rated, "decks": decks, "rankings": rankings, "elo": elo, "kendall_tau": taus,
            "pairings": pairings, "disagreements": sum(1 for r in pairings if r["disagree"])}


def pilot_flags(summary: dict) -> dict[str, list[str]]:
    """Per deck: the pairings whose result depends on the pilot (intervals under two pilots do not overlap), as
    "vs B: heuristic 95.5 [..] vs ppo 40.0 [..]" from that deck's side; empty without a second pilot. The report puts
    them next to the ranking: a deck's rank there is only as good as its pilot."""
    ag = summary.get("pilot_agreement") or {}
    out: dict[str, list[str]] = {}
    for pr in ag.get("pairings", []):
        pilots = list(dict.fromkeys(p for pair in pr["disagree"] for p in pair))
        if not pilots:
            continue
        for deck, other, flip in ((pr["a"], pr["b"], False), (pr["b"], pr["a"], True)):
            parts = []
            for p in pilots:
                v = pr["by_pilot"][p]
                sc, lo, hi = (1 - v["a_score"], 1 - v["ci"][1], 1 - v["ci"][0]) if flip else \
                    (v["a_score"], v["ci"][0], v["ci"][1])
                parts.append(f"{p} {_pct(sc)} [{_pct(lo)}, {_pct(hi)}]")
            out.setdefault(deck, []).append(f"vs {other}: " + " vs ".join(parts))
    return out


def _entry_deck(summary: dict, label: str) -> str:
    """The deck of an entry label ("deck@pilot" when several pilots play)."""
    for e in summary.get("entries", []):
        if e["label"] == label and label.endswith(f"@{e['pilot']}"):
            return label[: -len(e["pilot"]) - 1]
    return label


def ranking_flags(summary: dict) -> list[str]:
    """One cell per ratings row: "pilot-dependent: vs B ...; vs C ..." or ""."""
    flags = pilot_flags(summary)
    return ["pilot-dependent: " + "; ".join(flags[d]) if (d := _entry_deck(summary, r["label"])) in flags else ""
            for r in summary["ratings"]["rows"]]


def _agreement_lines(ag: dict) -> tuple[list[str], list[list[Any]], list[str], list[list[Any]], list[str]]:
    """(ranking header, ranking rows, pairing header, pairing rows, tau lines) shared by the terminal and HTML."""
    pilots = ag["pilots"]
    depth = max((len(ag["rankings"][p]) for p in pilots), default=0)
    rank_head = ["rank"] + [f"{p}: deck (Elo)" for p in pilots]
    rank_rows = []
    for r in range(depth):
        row: list[Any] = [r + 1]
        for p in pilots:
            rows = ag["rankings"][p]
            row.append(f"{rows[r]['label']} ({rows[r]['elo']:+.0f})" if r < len(rows) else "")
        rank_rows.append(row)
    pair_head = ["a", "b"] + [f"a score % ({p})" for p in pilots] + ["disagree?"]
    pair_rows = []
    for pr in ag["pairings"]:
        cells: list[Any] = [pr["a"], pr["b"]]
        for p in pilots:
            v = pr["by_pilot"].get(p)
            cells.append("-" if v is None else f"{_pct(v['a_score'])} [{_pct(v['ci'][0])}, {_pct(v['ci'][1])}]")
        cells.append("; ".join(f"{a} vs {b}" for a, b in pr["disagree"]) if pr["disagree"] else "")
        pair_rows.append(cells)
    taus = [f"Kendall's tau {t['a']} vs {t['b']}: " + ("n/a" if t["tau"] is None else f"{t['tau']:+.2f}")
            + f" over {t['decks']} decks" for t in ag["kendall_tau"]]
    return rank_head, rank_rows, pair_head, pair_rows, taus


def _clean(x: Any) -> Any:
    """numpy -> Python, nan -> None (JSON has no nan), floats rounded to 6 places so output is stable to read."""
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if isinstance(x, np.ndarray):
        return _clean(x.tolist())
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        f = float(x)
        return None if math.isnan(f) else round(f, 6)
    return x


def write_json(summary: dict, path: str | Path) -> Path:
    """The summary as JSON, written to a temporary file beside ``path`` and renamed over it (never half written)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_atomic(path, json.dumps(summary, indent=2) + "\n")
    return path


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_csv(summary: dict, folder: str | Path) -> list[Path]:
    """``pairings.csv``, ``ratings.csv`` and (when computed) ``cards.csv`` in ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    rows = [{**{k: v for k, v in p.items() if k != "ci"}, "ci_lo": p["ci"][0], "ci_hi": p["ci"][1]} for p in summary["pairings"]]
    written.append(_csv(folder / "pairings.csv", rows))
    rows = [{"rank": r["rank"], "label": r["label"], "elo": r["elo"], "ci_lo": r["ci"][0], "ci_hi": r["ci"][1]}
            for r in summary["ratings"]["rows"]]
    written.append(_csv(folder / "ratings.csv", rows))
    if "cards" in summary:
        rows = []
        for c in summary["cards"]:
            flat = {}
            for k, v in c.items():
                if k == "decks":
                    flat[k] = " ".join(v)
                elif isinstance(v, list):  # "gih_ci": [lo, hi] -> gih_lo, gih_hi
                    base = k[:-3] if k.endswith("_ci") else k
                    flat[f"{base}_lo"], flat[f"{base}_hi"] = v
                else:
                    flat[k] = v
            rows.append(flat)
        written.append(_csv(folder / "cards.csv", rows))
    return written


def _csv(path: Path, rows: list[dict]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        if rows:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            # names come from deck files and pools: a cell starting with "=" must not be a spreadsheet formula
            writer.writerows({k: csv_cell(v) for k, v in row.items()} for row in rows)
    return path


# ----- terminal -----------------------------------------------------------------------------------------------------
def _effect(c: dict) -> str:
    """"+4.2 [+0.1,+8.5]": a card row's effect and interval in points, "-" when the model left it out."""
    if c.get("effect") is None:
        return "-"
    return f"{_signed(c['effect'])} [{_signed(c['effect_ci'][0])},{_signed(c['effect_ci'][1])}]"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:+.1f}"


def render_summary(summary: dict, console: Any, top_cards: int = 12) -> None:
    """Rich tables onto ``console`` (the caller's: the command line hands its stdout, a test a buffer): score matrix
    with intervals, ratings, first-player advantage, best and worst cards.

    Every name (deck labels, pilots and their notes, cards) is printed as plain text
    (:func:`~cardenvs.core.escaping.rich_text`): rich would parse a string as markup, and a name is text."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    e = rich_text
    game = summary["game"]
    console.print(Text.assemble((terminal(game), "bold"), ": ", e(pilot_line(summary))), soft_wrap=True)  # greppable
    m = summary["matrix"]
    labels = m["labels"]
    table = Table(title=e(f"{game}: score of row vs column, % [95% Wilson]  ({summary['games']} games)"),
                  box=box.SIMPLE_HEAD)
    table.add_column("deck", style="bold")
    for label in labels:
        table.add_column(e(label), justify="center")
    for i, label in enumerate(labels):
        cells = []
        for j in range(len(labels)):
            if i == j or m["score"][i][j] is None:
                cells.append("")
            else:
                cells.append(f"{_pct(m['score'][i][j])}\n[{_pct(m['lo'][i][j])}, {_pct(m['hi'][i][j])}]")
        table.add_row(e(label), *cells)
    console.print(table)

    rt = Table(title=f"Bradley-Terry ratings (Elo scale, bootstrap {summary['ratings']['bootstrap']})", box=box.SIMPLE_HEAD)
    flags = ranking_flags(summary)
    cols = [("rank", "right"), ("deck", "left"), ("Elo", "right"), ("95% interval", "center")]
    for col, just in cols + ([("pilot-dependent pairings", "left")] if any(flags) else []):
        rt.add_column(col, justify=just)
    for r, flag in zip(summary["ratings"]["rows"], flags):
        ci = r["ci"]
        ci_text = "-" if ci[0] is None else f"[{ci[0]:+.0f}, {ci[1]:+.0f}]"
        cells = [str(r["rank"]), e(r["label"]), f"{r['elo']:+.0f}", e(ci_text)]
        rt.add_row(*cells, *([e(flag.removeprefix("pilot-dependent: "))] if any(flags) else []),
                   style="bold red" if flag else None)
    console.print(rt)

    if summary.get("pilot_agreement"):
        ag = summary["pilot_agreement"]
        rank_head, rank_rows, pair_head, pair_rows, taus = _agreement_lines(ag)
        at = Table(title="Pilot agreement: each pilot's deck ranking (games where both decks had that pilot)",
                   box=box.SIMPLE_HEAD)
        for col in rank_head:
            at.add_column(e(col), justify="right" if col == "rank" else "left")
        for row in rank_rows:
            at.add_row(*[e(v) for v in row])
        console.print(at)
        pt = Table(title="Pairings by pilot, % [95% Wilson]; 'disagree' = intervals do not overlap", box=box.SIMPLE_HEAD)
        for col in pair_head:
            pt.add_column(e(col), justify="left" if col in ("a", "b", "disagree?") else "center")
        for row in pair_rows:
            style = "bold red" if row[-1] else None
            pt.add_row(*[e(v) for v in row], style=style)
        console.print(pt)
        for line in taus:
            console.print(e(line))
        n_bad = ag["disagreements"]
        console.print(f"{n_bad} of {len(ag['pairings'])} pairings disagree beyond their intervals"
                      + (": the ranking depends on who pilots the decks" if n_bad else ""))

    ends = ending_lines(summary)
    if ends is not None:
        line, header, rows = ends
        et = Table(title=f"How games end, {line} (each cell: games the deck won / lost / drew that way)",
                   box=box.SIMPLE_HEAD)
        for col in header:
            et.add_column(e(col), justify="left" if col == "deck" else "right")
        for row in rows:
            et.add_row(*[e(str(v)) for v in row])
        console.print(et)

    fp = summary["first_player"]
    console.print(e(f"{fp['who'].capitalize()} score: {_pct(fp['score'])}% [{_pct(fp['ci'][0])}, {_pct(fp['ci'][1])}] "
                    f"over {fp['games']} games; truncated games: {summary['truncated']}"))
    if "sprt" in summary:
        s = summary["sprt"]
        verdict = {"H1": f"H1: {s['a']} is stronger by at least {s['elo1']:g} Elo",
                   "H0": f"H0: {s['a']} is not stronger than {s['elo0']:g} Elo", None: "no decision (game cap reached)"}[s["decision"]]
        console.print(e(f"SPRT {s['a']} vs {s['b']}: {verdict}; LLR {s['llr']:.2f} in ({s['bounds'][0]:.2f}, "
                        f"{s['bounds'][1]:.2f}) after {s['games']} games; score {_pct(s['score'])}%"))
    if summary.get("cards"):
        ct = Table(title="Cards by effect: win-rate points of drawing the card instead of the average card of the "
                         "same deck (deck-adjusted model, 95%); raw win rates in % with the card in the deck (GP), "
                         "drawn (GIH), never drawn (GNS); IWD = GIH - GNS, which mixes a card with its deck",
                   box=box.SIMPLE_HEAD)
        for col in ("card", "GP", "GP%", "GIH%", "GNS%", "effect [95%]", "IWD"):
            ct.add_column(col, justify="left" if col == "card" else "right", no_wrap=True)
        cards = summary["cards"]
        shown = cards if len(cards) <= 2 * top_cards else cards[:top_cards] + [None] + cards[-top_cards:]
        for c in shown:
            if c is None:
                ct.add_row("...", "", "", "", "", "", "")
                continue
            ct.add_row(e(c["card"]), str(c["gp_games"]), _pct(c["gp_wr"]), _pct(c["gih_wr"]), _pct(c["gns_wr"]),
                       e(_effect(c)), _signed(c["iwd"]))
        console.print(ct)
        for line in rarely_played_lines(summary):
            console.print(e(line))
    run = summary["run"]
    console.print(e(f"{summary['games']} games in {run['seconds']:.1f} s ({run['games_per_second']:.0f} games/s, "
                    f"{run['backend']} backend)"))


class RichProgress:
    """A rich progress bar (games done, rate, ETA) with the ``advance``/``set_total`` protocol the engine calls."""

    def __init__(self, description: str = "playing", console: Any = None, disable: bool = False) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        self._progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                  TextColumn("games"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                                  console=console, disable=disable, transient=False)
        self._task = self._progress.add_task(description, total=None)

    def __enter__(self) -> "RichProgress":
        self._progress.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._progress.stop()

    def advance(self, n: int) -> None:
        self._progress.advance(self._task, n)

    def set_total(self, total: int) -> None:
        self._progress.update(self._task, total=total)


# ----- charts -------------------------------------------------------------------------------------------------------
def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt

    return plt


def text_colour(rgba: Sequence[float]) -> str:
    """Black or white, whichever contrasts more with a cell of colour ``rgba`` (WCAG relative luminance): black
    numbers on the heatmap's dark red and dark blue cells were barely legible."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgba[:3]]
    lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return "black" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "white"


def plot_heatmap(summary: dict, path: str | Path) -> Path:
    """Score matrix (row vs column) as a heatmap, each cell annotated with its score and Wilson interval."""
    return _save(heatmap_figure(summary), path)


def heatmap_figure(summary: dict) -> Any:
    """The heatmap's matplotlib figure (:func:`plot_heatmap` saves it); each number in the colour that reads on its
    cell (:func:`text_colour`)."""
    plt = _pyplot()
    m = summary["matrix"]
    labels = m["labels"]
    e = len(labels)
    score = np.array([[np.nan if v is None else v for v in row] for row in m["score"]], dtype=float)
    fig, ax = plt.subplots(figsize=(1.6 + 1.25 * e, 1.0 + 1.0 * e))
    im = ax.imshow(score, cmap="RdBu", vmin=0, vmax=1)
    shown = [plot_text(label) for label in labels]  # a "$...$" in a deck name is text, not mathtext
    ax.set_xticks(range(e), shown, rotation=30, ha="right")
    ax.set_yticks(range(e), shown)
    for i in range(e):
        for j in range(e):
            if i != j and m["score"][i][j] is not None:
                ax.text(j, i, f"{m['score'][i][j]:.2f}\n[{m['lo'][i][j]:.2f}, {m['hi'][i][j]:.2f}]", ha="center",
                        va="center", fontsize=8, color=text_colour(im.cmap(im.norm(score[i, j]))))
    ax.set_title(plot_text(f"{summary['game']}: score of row vs column (95% Wilson)"))
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    return fig


def plot_ratings(summary: dict, path: str | Path) -> Path:
    """Bradley–Terry Elo per deck with bootstrap 95% error bars, strongest on top."""
    plt = _pyplot()
    rows = summary["ratings"]["rows"]
    labels = [r["label"] for r in rows][::-1]
    elo = np.array([r["elo"] for r in rows][::-1])
    lo = np.array([r["ci"][0] if r["ci"][0] is not None else r["elo"] for r in rows][::-1])
    hi = np.array([r["ci"][1] if r["ci"][1] is not None else r["elo"] for r in rows][::-1])
    fig, ax = plt.subplots(figsize=(6.5, 1.2 + 0.45 * len(rows)))
    ax.errorbar(elo, range(len(rows)), xerr=[elo - lo, hi - elo], fmt="o", capsize=4)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(range(len(rows)), [plot_text(label) for label in labels])
    ax.set_xlabel("Elo (Bradley-Terry, mean 0) with bootstrap 95% interval")
    ax.set_title(plot_text(f"{summary['game']}: deck ratings"))
    fig.tight_layout()
    return _save(fig, path)


def dead_cards(summary: dict) -> dict[str, str]:
    """Card -> "dead card: played 0/631 (heuristic)" for each card a pilot drew in 20+ games and played in 5% of them
    or fewer (the summary's ``rarely_played``): its effect measures holding a card the pilot does not play."""
    out: dict[str, list[str]] = {}
    for r in summary.get("rarely_played") or []:
        out.setdefault(r["card"], []).append(f"{r['played_games']}/{r['drawn_games']} ({r['pilot']})")
    return {card: "dead card: played " + ", ".join(counts) for card, counts in out.items()}


def plot_cards(summary: dict, path: str | Path, max_cards: int = 40) -> Path:
    """Each card's deck-adjusted effect with its 95% interval (the best and worst cards when there are many, and
    every dead card, marked grey with its played/drawn counts: its effect can read average while no pilot plays it)."""
    plt = _pyplot()
    dead = dead_cards(summary)
    cards = [c for c in summary.get("cards", []) if c.get("effect") is not None]
    if len(cards) > max_cards:
        shown = {id(c) for c in cards[: max_cards // 2] + cards[-max_cards // 2:]}
        cards = [c for c in cards if id(c) in shown or c["card"] in dead]
    cards = cards[::-1]
    fig, ax = plt.subplots(figsize=(7.5, 1.4 + 0.28 * max(len(cards), 1)))
    if cards:
        eff = np.array([100 * c["effect"] for c in cards])
        lo = np.array([100 * c["effect_ci"][0] for c in cards])
        hi = np.array([100 * c["effect_ci"][1] for c in cards])
        colors = ["tab:gray" if c["card"] in dead else "tab:green" if v > 0 else "tab:red" for c, v in zip(cards, eff)]
        ax.barh(range(len(cards)), eff, color=colors, alpha=0.6)
        ax.errorbar(eff, range(len(cards)), xerr=[eff - lo, hi - eff], fmt="none", ecolor="black", capsize=2, lw=0.8)
        ax.set_yticks(range(len(cards)), [plot_text(c["card"] + (f"  ({dead[c['card']]})" if c["card"] in dead
                                                                  else "")) for c in cards], fontsize=8)
    ax.axvline(0, color="grey", lw=0.8)
    # two lines: the dead cards' long labels narrow the axes, and one line was cut at the page's edge
    ax.set_xlabel("effect of drawing it instead of its deck's average card\n(win-rate points, 95%)")
    ax.set_title(plot_text(f"{summary['game']}: per-card effect, separated from the deck"))
    fig.tight_layout()
    return _save(fig, path)


def _save(fig: Any, path: str | Path) -> Path:
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # fixed metadata so the same numbers give the same bytes
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path


# ----- HTML ---------------------------------------------------------------------------------------------------------
#: the kind of report in a report folder's manifest (:mod:`cardenvs.core.outputs`)
REPORT_KIND = "cardenvs eval report"


def check_outputs(json_file: str | Path | None = None, csv_folder: str | Path | None = None,
                  report_folder: str | Path | None = None, replay_folder: str | Path | None = None) -> None:
    """Every output of ``cardenvs eval`` checked before the first game (one
    :class:`~cardenvs.core.errors.BadArgumentError` naming the flag): ``--json`` a writable file, not a folder;
    ``--csv`` and ``--save-replays`` writable folders; ``--report`` a new, empty or earlier-report folder."""
    from ..core.errors import BadArgumentError
    from ..core.outputs import check_file, check_folder

    if report_folder:  # the report folder holds one run of the report's own files, and nothing else
        inside = Path(report_folder).resolve()
        for flag, other in (("--json", json_file), ("--csv", csv_folder), ("--save-replays", replay_folder)):
            path = Path(other).resolve() if other else None
            if path is not None and (path == inside or inside in path.parents):
                raise BadArgumentError(f"{flag} {other}: inside the --report folder {report_folder}, which holds "
                                       f"results.json and the CSV files already; choose a path outside it")
    if json_file:
        check_file(json_file, "--json")
    if csv_folder:
        check_folder(csv_folder, "--csv")
    if report_folder:
        check_folder(report_folder, "--report", REPORT_KIND)
    if replay_folder:
        check_folder(replay_folder, "--save-replays")


def write_report(summary: dict, folder: str | Path) -> Path:
    """``folder/``: ``report.html`` (self-contained, PNGs embedded as base64), the PNGs, ``results.json``, CSVs.

    The folder holds one run: a new or empty folder, or one holding an earlier report of ``cardenvs eval`` (which
    is replaced whole, so none of its files stays beside the new ones); any other non-empty folder is refused with
    a :class:`~cardenvs.core.errors.BadArgumentError` (:mod:`cardenvs.core.outputs`). Everything is written into a
    temporary folder beside ``folder`` first, so an interrupt or an error while writing leaves the earlier report
    or none, never a mixture."""
    from ..core.outputs import write_folder

    folder = write_folder(folder, REPORT_KIND, lambda tmp: _write_report_files(summary, tmp), "--report")
    return folder / "report.html"


def _write_report_files(summary: dict, folder: Path) -> Path:
    pngs = {"heatmap": plot_heatmap(summary, folder / "heatmap.png"),
            "ratings": plot_ratings(summary, folder / "ratings.png")}
    if summary.get("cards"):
        pngs["cards"] = plot_cards(summary, folder / "cards.png")
    write_json(summary, folder / "results.json")
    write_csv(summary, folder)
    img = {k: base64.b64encode(p.read_bytes()).decode("ascii") for k, p in pngs.items()}
    e = html_text
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>cardenvs eval: {e(summary['game'])}</title>",
        "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
        "th{background:#f3f3f3}td:first-child{text-align:left}img{max-width:100%}.flag{color:#a00}.ranking td:nth-child(5){text-align:left;color:#a00}</style></head><body>",
        f"<h1>Deck evaluation: {e(summary['game'])}</h1>",
        f"<p><b>{e(pilot_line(summary))}</b></p>",
        f"<p>{summary['games']} games, seed {summary['seed']}, "
        f"every pairing in both seats with common random numbers. Scores count draws as half a win; intervals are 95%.</p>",
    ]
    if "sprt" in summary:
        s = summary["sprt"]
        parts.append(f"<h2>SPRT</h2><p>{e(s['a'])} vs {e(s['b'])}, H0: elo {s['elo0']:g}, H1: elo {s['elo1']:g}: "
                     f"<b>{e(str(s['decision'] or 'undecided'))}</b> after {s['games']} games (LLR {s['llr']:.2f}).</p>")
    parts.append("<h2>Ratings</h2>")
    flags = ranking_flags(summary)
    if any(flags):
        n_bad = summary["pilot_agreement"]["disagreements"]
        parts.append(f"<p class='flag'><b>The ranking depends on the pilot:</b> {n_bad} pairing(s) give results under "
                     "two pilots whose 95% intervals do not overlap; they are named beside each deck below.</p>")
    parts.append("<div class='ranking'>" + _html_table(
        ["rank", "deck", "Elo", "95% interval"] + (["pilot-dependent pairings"] if any(flags) else []),
        [[r["rank"], r["label"], f"{r['elo']:+.1f}", _ci(r["ci"], "{:+.1f}")]
         + ([flag.removeprefix("pilot-dependent: ")] if any(flags) else [])
         for r, flag in zip(summary["ratings"]["rows"], flags)]) + "</div>")
    parts.append(f"<img alt='ratings' src='data:image/png;base64,{img['ratings']}'>")
    if summary.get("pilot_agreement"):
        ag = summary["pilot_agreement"]
        rank_head, rank_rows, pair_head, pair_rows, taus = _agreement_lines(ag)
        parts.append("<h2>Pilot agreement</h2><p>Each pilot's deck ranking from the games where both decks had that "
                     "pilot; a pairing is flagged when its 95% intervals under two pilots do not overlap.</p>")
        parts.append(_html_table(rank_head, rank_rows))
        parts.append("<p>" + "<br>".join(e(t) for t in taus) + f"<br><b>{ag['disagreements']} of "
                     f"{len(ag['pairings'])} pairings disagree beyond their intervals.</b></p>")
        parts.append(_html_table(pair_head, pair_rows))
    parts.append("<h2>Pairings</h2>")
    parts.append(f"<img alt='heatmap' src='data:image/png;base64,{img['heatmap']}'>")
    parts.append(_html_table(["a", "b", "games", "a wins", "b wins", "draws", "truncated", "a score %", "95% interval"],
                             [[p["a"], p["b"], p["games"], p["a_wins"], p["b_wins"], p["draws"], p["truncated"],
                               _pct(p["a_score"]), _ci(p["ci"], "{:.3f}")] for p in summary["pairings"]]))
    ends = ending_lines(summary)
    if ends is not None:
        line, header, rows = ends
        parts.append("<h2>How games end</h2><p>" + e(line) + ". Each cell: the games the deck won / lost / drew that "
                     "way, by the rule that ended the game (its ID in the game's RULES.md): whether a deck wins the way "
                     "the rules intend or by outlasting the other.</p>")
        parts.append(_html_table(header, rows))
    fp = summary["first_player"]
    parts.append(f"<p>{e(fp['who'].capitalize())} score {_pct(fp['score'])}% {_ci(fp['ci'], '{:.3f}')} over {fp['games']} games; "
                 f"{summary['truncated']} truncated games.</p>")
    if summary.get("cards"):
        parts.append("<h2>Cards</h2><p><b>Effect</b>: win-rate points (at an even game) of drawing the card instead "
                     "of the average card of the same deck, from a penalised logistic model of every game's result "
                     "with each deck's strength and draw count as terms, with its 95% interval. It separates a card "
                     "from its deck: the raw IWD (GIH WR - GNS WR) reads every card of a fast deck as negative, "
                     "because the long games in which all its cards get drawn are the ones it loses. It cannot tell "
                     "a deck's strength (the ratings do), a card's worth under another pilot, or what a card enables "
                     "beside it. GP: games with the card in the deck; GIH: drawn; GNS: never drawn; "
                     "IIH = GIH WR - GP WR. A <b>dead card</b> (grey in the chart, with its played/drawn games) is "
                     "one a pilot drew often and almost never played: its effect can read average while it does "
                     "nothing in play.</p>")
        dead = dead_cards(summary)
        parts.append(f"<img alt='cards' src='data:image/png;base64,{img['cards']}'>")
        parts.append(_html_table(
            ["card", "decks", "GP", "GP WR", "GIH WR", "GNS WR", "played WR", "effect [95%]", "IWD", "IWD 95%", "IIH"],
            [[c["card"] + (f" ({dead[c['card']]})" if c["card"] in dead else ""), " ".join(c.get("decks", [])),
              c["gp_games"], _pct(c["gp_wr"]), _pct(c["gih_wr"]), _pct(c["gns_wr"]),
              _pct(c["played_wr"]), _effect(c), _pct(c["iwd"]), _ci([_pctv(v) for v in c["iwd_ci"]], "{:.1f}"),
              _pct(c["iih"])]
             for c in summary["cards"]]))
        rare = rarely_played_lines(summary)
        if rare:
            parts.append("<p><b>" + e(rare[0]) + "</b><br>" + "<br>".join(e(t) for t in rare[1:]) + "</p>")
    run = summary["run"]
    parts.append(f"<p><small>{run['seconds']} s, {run['games_per_second']} games/s, {e(run['backend'])} backend. "
                 "Generated by <code>cardenvs eval</code>.</small></p></body></html>")
    out = folder / "report.html"
    out.write_text("\n".join(parts), encoding="utf-8")
    return out


def ending_lines(summary: dict) -> tuple[str, list[str], list[list[Any]]] | None:
    """How games end (``TournamentResult.ending_stats``): a summary line, then a table with a row per entry whose
    cell per ending is "won / lost / drawn" games that way. None when the game declares no endings."""
    en = summary.get("endings")
    if not en:
        return None
    parts = [f"{x['label']} {x['what']} {_pct(x['share'])}%" for x in en["endings"]]
    extra = [f"truncated {en['truncated']}"] + ([f"unexplained {en['unexplained']}"] if en["unexplained"] else [])
    line = f"{summary['games']} games: " + "; ".join(parts + extra)
    labels = [x["label"] for x in en["endings"]]
    header = ["deck", "games"] + [f"{k} W/L/D" for k in labels]  # won / lost / drawn: short enough for 80 columns
    rows = [[r["label"], r["games"]] + [f"{r['won'][k]} / {r['lost'][k]} / {r['drawn'][k]}" for k in labels]
            for r in en["by_entry"]]
    return line, header, rows


def rarely_played_lines(summary: dict) -> list[str]:
    """A heading and one line per pilot naming the cards it drew often but almost never played (empty if none):
    their GIH and IWD measure a dead draw under that pilot, not the card."""
    rare = summary.get("rarely_played") or []
    if not rare:
        return []
    lines = [f"Rarely played: drawn in {RARELY_PLAYED_MIN_DRAWN}+ games, played in {RARELY_PLAYED_SHARE:.0%} of them or "
             "fewer; their GIH/IWD measure holding the card, not playing it (played/drawn games):"]
    for pilot in sorted({r["pilot"] for r in rare}):
        cards = [f"{r['card']} {r['played_games']}/{r['drawn_games']}" for r in rare if r["pilot"] == pilot]
        lines.append(f"  {pilot}: " + ", ".join(cards))
    return lines


def _pctv(x: float | None) -> float | None:
    return None if x is None else 100 * x


def _ci(ci: Sequence[float | None], fmt: str) -> str:
    if ci[0] is None or ci[1] is None:
        return "-"
    return "[" + fmt.format(ci[0]) + ", " + fmt.format(ci[1]) + "]"


def _html_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html_text(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html_text(v)}</td>" for v in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


__all__ = [
    "card_effects", "check_outputs", "dead_cards", "heatmap_figure", "kendall_tau", "pilot_agreement", "pilot_flags",
    "pilot_line", "plot_cards",
    "plot_heatmap", "plot_ratings", "ranking_flags", "text_colour",
    "render_summary", "rarely_played_lines", "REPORT_KIND", "RichProgress", "summarize", "write_csv", "write_json",
    "write_report"
]
