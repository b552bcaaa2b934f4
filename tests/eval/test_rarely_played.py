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
    # the card table and the card chart mark each dead card with its counts (issue 42 item 3: the chart showed
    # the shipped filler as an average bar)
    assert "Paper Shield (dead card: played 0/40 (heuristic))" in html
    assert report.dead_cards(summary) == {"Paper Shield": "dead card: played 0/40 (heuristic)",
                                          "Lost Lamb": "dead card: played 1/30 (ppo)"}
    summary["rarely_played"] = []
    out = io.StringIO()
    report.render_summary(summary, console=Console(file=out, width=200))
    assert "Rarely played" not in out.getvalue()


def test_the_card_chart_marks_every_dead_card_even_among_many(monkeypatch, tmp_path) -> None:
    """The chart shows the best and worst cards when there are many; a dead card whose effect is average (levelneo's
    filler under the heuristic) was left out of it. It is kept, grey, labelled with its played/drawn games."""
    cards = [{"card": f"card {i}", "effect": (20 - i) / 100, "effect_ci": [(19 - i) / 100, (21 - i) / 100]}
             for i in range(41)]
    summary = {"game": "levelneo", "cards": cards,
               "rarely_played": [{"pilot": "heuristic", "card": "card 20", "card_id": 20, "drawn_games": 631,
                                  "played_games": 0}]}
    seen = {}

    def keep(fig, path):
        ax = fig.axes[0]
        seen["labels"] = [t.get_text() for t in ax.get_yticklabels()]
        seen["colors"] = [tuple(round(x, 3) for x in p.get_facecolor()[:3]) for p in ax.patches]
        return path

    monkeypatch.setattr(report, "_save", keep)
    report.plot_cards(summary, tmp_path / "cards.png", max_cards=10)
    labels = seen["labels"]
    assert "card 20  (dead card: played 0/631 (heuristic))" in labels and len(labels) == 11
    assert "card 0" in labels and "card 40" in labels and "card 19" not in labels
    grey = {c for c, label in zip(seen["colors"], labels) if "dead card" in label}
    assert len(grey) == 1 and grey.isdisjoint(c for c, label in zip(seen["colors"], labels) if "dead" not in label)
