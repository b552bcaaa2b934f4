"""The eval report's pages read well (issue 42 item 9) and say when a verdict depends on the pilot (issue 38 step 7):
heatmap numbers in the colour that reads on their cell, and every pairing whose result differs under two pilots
beyond the intervals named next to the ranking, in the terminal and on the HTML page."""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from cardenvs.eval import report


def test_heatmap_numbers_are_white_on_dark_cells_and_black_on_light_ones() -> None:
    """Black on the dark red (score near 0) and dark blue (near 1) cells was barely legible."""
    pytest.importorskip("matplotlib")
    m = {"labels": ["a", "b", "c"], "score": [[None, 0.02, 0.5], [0.98, None, 0.45], [0.5, 0.55, None]],
         "lo": [[None, 0.0, 0.4], [0.9, None, 0.35], [0.4, 0.45, None]],
         "hi": [[None, 0.1, 0.6], [1.0, None, 0.55], [0.6, 0.65, None]]}
    fig = report.heatmap_figure({"game": "g", "matrix": m})
    colour = {t.get_text().split("\n")[0]: t.get_color() for t in fig.axes[0].texts}
    assert colour["0.02"] == "white" and colour["0.98"] == "white"
    assert colour["0.50"] == "black" and colour["0.45"] == "black" and colour["0.55"] == "black"
    assert report.text_colour((0.0, 0.0, 0.0, 1.0)) == "white" and report.text_colour((1.0, 1.0, 0.9)) == "black"
    import matplotlib.pyplot as plt

    plt.close(fig)


@pytest.fixture(scope="module")
def two_pilots() -> dict:
    """levelneo's burst and control decks, each under the heuristic and random pilots (40 games a pairing): burst
    scores 0.25 against control under the heuristic and 0.93 under random pilots. (aggro against weak served until
    the heuristic learned the deck race: both pilots now win that pairing with aggro.)"""
    from cardenvs.eval.tournament import run_tournament

    res = run_tournament("levelneo", decks=["burst", "control"], pilots=("heuristic", "random"), games=40, seed=0)
    return report.summarize(res, bootstrap=20)


def test_every_pilot_dependent_pairing_is_flagged_next_to_the_ranking(two_pilots: dict, tmp_path) -> None:
    summary = two_pilots
    ag = summary["pilot_agreement"]
    bad = [p for p in ag["pairings"] if p["disagree"]]
    assert bad, "no pairing differs under the two pilots: choose decks or pilots that disagree"
    flags = report.pilot_flags(summary)
    for p in bad:  # both decks of every disagreeing pairing carry it, each from its own side
        h, r = p["by_pilot"]["heuristic"], p["by_pilot"]["random"]
        assert any(f.startswith(f"vs {p['b']}: heuristic {100 * h['a_score']:.1f}") for f in flags[p["a"]])
        assert any(f.startswith(f"vs {p['a']}: heuristic {100 * (1 - h['a_score']):.1f}") and
                   f"random {100 * (1 - r['a_score']):.1f}" in f for f in flags[p["b"]])
    bad_pairs = {frozenset((p["a"], p["b"])) for p in bad}  # and no pairing that agrees is flagged
    assert all(frozenset((d, f[3:].split(":")[0])) in bad_pairs for d, fs in flags.items() for f in fs)
    cells = report.ranking_flags(summary)
    assert len(cells) == len(summary["ratings"]["rows"]) == 4
    for row, cell in zip(summary["ratings"]["rows"], cells):  # deck@pilot rows carry their deck's flags
        deck = row["label"].rsplit("@", 1)[0]
        assert (cell != "") == (deck in flags)
    out = io.StringIO()
    report.render_summary(summary, console=Console(file=out, width=250))
    text = out.getvalue()
    assert "pilot-dependent pairings" in text and flags[bad[0]["a"]][0][:20] in text
    page = report.write_report(summary, tmp_path / "rep").read_text()
    ranking = page[page.index("<h2>Ratings</h2>"):page.index("<img alt='ratings'")]
    assert "The ranking depends on the pilot" in ranking and "pilot-dependent pairings" in ranking
    assert flags[bad[0]["a"]][0].split(" [")[0] in ranking


def test_one_pilot_adds_no_flag_column(tmp_path) -> None:
    from cardenvs.eval.tournament import run_tournament

    summary = report.summarize(run_tournament("levelneo", decks=["aggro", "weak"], pilots=("random",), games=20,
                                              seed=0), bootstrap=0)
    assert report.pilot_flags(summary) == {} and not any(report.ranking_flags(summary))
    page = report.write_report(summary, tmp_path / "rep").read_text()
    assert "pilot-dependent" not in page


def test_the_card_chart_and_tables_use_the_deck_adjusted_effect(two_pilots: dict) -> None:
    """The eval report ranks cards by the balance report's estimate (cardenvs.eval.card_model), not by IWD."""
    cards = [c for c in two_pilots["cards"] if c["effect"] is not None]
    assert cards and [c["effect"] for c in cards] == sorted((c["effect"] for c in cards), reverse=True)
    assert all(c["effect_ci"][0] <= c["effect"] <= c["effect_ci"][1] for c in cards)
    assert "average card of the same deck" in two_pilots["card_estimate"]
