"""Cards a pilot draws but almost never plays are named in the deck report (their GIH/IWD measure a dead draw)."""
from __future__ import annotations

import io
from types import SimpleNamespace

import numpy as np
from rich.console import Console

from cardenvs.eval import report
from cardenvs.eval.cards_stats import rarely_played
from cardenvs.eval.tournament import run_tournament


def _result(counts: dict[str, dict[int, tuple[int, int]]], names: list[str]) -> SimpleNamespace:
    """A tournament result with one entry per pilot; ``counts[pilot][card] = (drawn games, played games)``."""
    pilots = sorted(counts)
    cards = np.zeros((len(pilots), len(names), 8), dtype=np.int64)
    for e, pilot in enumerate(pilots):
        for cid, (drawn, played) in counts[pilot].items():
            cards[e, cid, 0] = drawn + 10  # games with the card in the deck
            cards[e, cid, 2] = drawn
            cards[e, cid, 6] = played
    entries = [SimpleNamespace(pilot=p, label=f"deck@{p}") for p in pilots]
    return SimpleNamespace(tally=SimpleNamespace(cards=cards), entries=entries, card_names=names)


def test_a_card_drawn_often_and_played_in_at_most_5_percent_is_flagged_per_pilot() -> None:
    names = ["Alpha", "Beta", "Gamma", "Delta"]
    res = _result({"heuristic": {0: (100, 5), 1: (100, 6), 2: (19, 0), 3: (40, 0)},
                   "ppo": {0: (100, 50), 3: (20, 1)}}, names)
    rows = rarely_played(res)
    assert [(r["pilot"], r["card"], r["played_games"], r["drawn_games"]) for r in rows] == [
        ("heuristic", "Delta", 0, 40),  # least played first
        ("heuristic", "Alpha", 5, 100),  # exactly 5%: flagged
        ("ppo", "Delta", 1, 20),  # exactly the minimum drawn games
    ]  # Beta (6%) is played; Gamma (19 drawn games) is too few to tell; ppo plays Alpha
    assert rarely_played(res, max_share=0.0) == [r for r in rows if r["played_games"] == 0]
    assert {r["card"] for r in rarely_played(res, min_drawn=50)} == {"Alpha"}


def test_the_report_names_them_in_text_and_html(tmp_path) -> None:
    res = run_tournament("levelneo", decks=["aggro", "weak"], pilots=("random",), games=40, seed=3)
    summary = report.summarize(res, bootstrap=20)
    # the summary's list is what the per-deck tables say: recomputed here from the deck tables' counts
    expect = sorted((e.pilot, c["card"]) for e in res.entries for c in summary["cards_by_deck"][e.label]
                    if c["gih_games"] >= 20 and c["played_games"] <= 0.05 * c["gih_games"])
    assert sorted((r["pilot"], r["card"]) for r in summary["rarely_played"]) == expect
    summary["rarely_played"] = [{"pilot": "heuristic", "card": "Paper Shield", "card_id": 1, "drawn_games": 40,
                                 "played_games": 0},
                                {"pilot": "ppo", "card": "Lost Lamb", "card_id": 2, "drawn_games": 30,
                                 "played_games": 1}]
    out = io.StringIO()
    report.render_summary(summary, console=Console(file=out, width=200))
    text = out.getvalue()
    assert "Rarely played" in text and "heuristic: Paper Shield 0/40" in text and "ppo: Lost Lamb 1/30" in text
    html = report.write_report(summary, tmp_path).read_text()
    assert "Rarely played" in html and "ppo: Lost Lamb 1/30" in html
    summary["rarely_played"] = []
    out = io.StringIO()
    report.render_summary(summary, console=Console(file=out, width=200))
    assert "Rarely played" not in out.getvalue()
