"""The gauntlet: new decks against a field, and nothing else (``cardenvs eval GAME --decks mine.toml --field``).

A round robin of one new deck and five starters plays all 15 pairings; the gauntlet plays only the 5 that answer
"is my deck better than the field?". Every pairing is played exactly as the round robin of the same entries and
seed plays it (both seatings, common random numbers: game ``k`` has one seed in every pairing; see
:func:`cardenvs.eval.tournament.plan_round`), so its numbers are the round robin's numbers for those pairings, with
the same intervals, report and plots (:mod:`cardenvs.eval.report`). On top, :func:`gauntlet_stats` gives each new
deck's score against the whole field (every field deck weighted by its games) with a Wilson interval.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from cardenvs.core.batch import get_spec
from cardenvs.core.decks import Deck
from cardenvs.core.errors import BadArgumentError
from cardenvs.core.spec import GameSpec

from . import stats
from .matches import Entry, make_entries
from .tournament import TournamentResult, run_tournament


def gauntlet_entries(game: str | GameSpec, decks: Sequence[str | Path | Deck],
                     field: Sequence[str | Path | Deck] | None = None,
                     pilots: Sequence[str] = ("random",)) -> tuple[list[Entry], list[tuple[int, int]]]:
    """Entries (the new decks first, then the field; default field: the game's starter decks) and the pairings
    (every new entry against every field entry, the new one first). A field deck with the same cards as one of the
    new decks is left out of the field (a deck is not tested against itself)."""
    spec = get_spec(game)
    if not decks:
        raise BadArgumentError("a gauntlet needs at least one deck to test (--decks)")
    pool = spec.load_pool(None)
    load = lambda d: d if isinstance(d, Deck) else spec.load_deck(d, pool)  # noqa: E731
    mine = [load(d) for d in decks]  # every deck is loaded (and checked) before any game
    field_decks = [load(d) for d in (list(field) if field else spec.starter_decks())]
    new_keys = {_key(d) for d in mine}
    field_decks = [d for d in field_decks if _key(d) not in new_keys]
    if not field_decks:
        raise BadArgumentError("the field is empty once the decks under test are left out of it")
    entries = make_entries(spec, mine + field_decks, pilots)
    n_new = len(mine) * len(pilots)
    pairs = [(i, j) for i in range(n_new) for j in range(n_new, len(entries))]
    return entries, pairs


def _key(deck: Deck) -> tuple:
    return tuple(sorted(int(c) for c in deck.card_ids))


def run_gauntlet(game: str | GameSpec, decks: Sequence[str | Path | Deck] | None = None,
                 field: Sequence[str | Path | Deck] | None = None, pilots: Sequence[str] = ("random",),
                 entries: Sequence[Entry] | None = None, n_new: int | None = None, **kwargs: Any) -> TournamentResult:
    """Play the new ``decks`` (x ``pilots``) against every ``field`` deck, both seatings, common random numbers.

    ``kwargs`` are :func:`run_tournament`'s (``games``, ``seed``, ``ci_width``, ``max_games``, ``chunk_size``,
    ``backend``, ``progress``). Or pass ready ``entries`` whose first ``n_new`` are the decks under test.
    """
    spec = get_spec(game)
    if entries is None:
        entries, pairs = gauntlet_entries(spec, decks or [], field, pilots)
        n_new = len(decks or []) * len(pilots)
    else:
        entries = list(entries)
        if not n_new or n_new >= len(entries):
            raise BadArgumentError("n_new must leave at least one field entry")
        pairs = [(i, j) for i in range(n_new) for j in range(n_new, len(entries))]
    return mark_gauntlet(run_tournament(spec, entries=entries, pairs=pairs, **kwargs), n_new)


def mark_gauntlet(result: TournamentResult, n_new: int) -> TournamentResult:
    """Record in ``result.config`` that it is a gauntlet: its first ``n_new`` entries are the decks under test."""
    result.config.update({"mode": "gauntlet", "new": [e.label for e in result.entries[:n_new]],
                          "field": [e.label for e in result.entries[n_new:]]})
    return result


def gauntlet_stats(result: TournamentResult) -> list[dict]:
    """Per deck under test: its score against the whole field (all its games, draws and truncations as half) with
    a 95% Wilson interval, its best and worst field matchups, and the field it met."""
    res = result.tally.results
    labels = result.labels
    new = result.config.get("new") or sorted({labels[a] for a, _ in result.pairs}, key=labels.index)
    rows = []
    for label in new:
        a = labels.index(label)
        per = []
        w = l_ = d = 0
        for x, b in result.pairs:
            if x != a:
                continue
            pw = int(res[a, b, 0] + res[b, a, 1])
            pl = int(res[a, b, 1] + res[b, a, 0])
            pd = int(res[a, b, 2:].sum() + res[b, a, 2:].sum())
            w, l_, d = w + pw, l_ + pl, d + pd
            n = pw + pl + pd
            per.append((labels[b], (pw + 0.5 * pd) / n if n else float("nan"), n))
        n = w + l_ + d
        score, lo, hi = stats.wilson(w + 0.5 * d, n)
        played = [p for p in per if p[2]]
        rows.append({
            "deck": label, "games": n, "wins": w, "losses": l_, "draws": d, "score": float(score),
            "ci": [float(lo), float(hi)],
            "verdict": ("better than the field" if lo > 0.5 else "worse than the field" if hi < 0.5
                        else "not distinguishable from the field"),
            "best": max(played, key=lambda p: p[1])[0] if played else None,
            "worst": min(played, key=lambda p: p[1])[0] if played else None,
            "field": [{"deck": b, "score": s, "games": g} for b, s, g in per],
        })
    return rows


def format_gauntlet(rows: list[dict]) -> str:
    """The gauntlet summary as text lines (one per deck under test)."""
    lines = ["gauntlet: each deck under test against the whole field (both seatings; 95% Wilson intervals)"]
    for r in rows:
        lo, hi = r["ci"]
        lines.append(f"  {r['deck']}: score {r['score']:.3f} [{lo:.3f}, {hi:.3f}] over {r['games']} games "
                     f"({r['wins']} W / {r['losses']} L / {r['draws']} D): {r['verdict']}; "
                     f"best vs {r['best']}, worst vs {r['worst']}")
    return "\n".join(lines)


def gauntlet_html(rows: list[dict]) -> str:
    """The gauntlet section of an HTML report (``<h2 id='gauntlet'>``): one row per deck under test, then its score
    against each field deck."""
    import html

    e = html.escape
    head = "<tr>" + "".join(f"<th>{h}</th>" for h in ("deck", "games", "W", "L", "D", "score %", "95% interval",
                                                      "verdict", "per field deck (score %, games)")) + "</tr>"
    body = []
    for r in rows:
        per = ", ".join(f"{e(f['deck'])} {100 * f['score']:.1f} ({f['games']})" for f in r["field"] if f["games"])
        body.append("<tr>" + "".join(f"<td>{x}</td>" for x in (
            e(r["deck"]), r["games"], r["wins"], r["losses"], r["draws"], f"{100 * r['score']:.1f}",
            f"[{100 * r['ci'][0]:.1f}, {100 * r['ci'][1]:.1f}]", e(r["verdict"]), per)) + "</tr>")
    return ("<h2 id='gauntlet'>Gauntlet</h2><p>Each deck under test against the whole field (every field deck, both "
            "seatings, common random numbers; draws and truncations count half). The pairings below are the same "
            "games a round robin with this seed plays.</p><table>" + head + "".join(body) + "</table>")


def add_to_report(report_html: str | Path, rows: list[dict]) -> None:
    """Put :func:`gauntlet_html` into a written ``report.html`` before its Ratings section (once: a report that
    already has a gauntlet section is left as it is)."""
    path = Path(report_html)
    text = path.read_text(encoding="utf-8")
    if "id='gauntlet'" in text:
        return
    marker = "<h2>Ratings</h2>"
    section = gauntlet_html(rows)
    text = text.replace(marker, section + "\n" + marker, 1) if marker in text else \
        text.replace("</body>", section + "</body>", 1)
    path.write_text(text, encoding="utf-8")


__all__ = [
    "add_to_report", "format_gauntlet", "gauntlet_entries", "gauntlet_html", "gauntlet_stats", "mark_gauntlet",
    "run_gauntlet"
]
