"""Pilot agreement (issue 14 §6): with several pilots, each pilot's ranking side by side, Kendall's tau between
them and the pairings whose results disagree beyond their intervals, in the summary, the terminal and the HTML.
(Here beside the training tests because the pilots it compares are the trained policies' main use.)"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from cardenvs.eval import report


@pytest.mark.parametrize("x, y, tau", [  # values from scipy.stats.kendalltau (tau-b); scipy is not a dependency
    ([1, 2, 3, 4], [1, 2, 3, 4], 1.0), ([1, 2, 3, 4], [4, 3, 2, 1], -1.0), ([1, 2, 3, 4, 5], [2, 1, 4, 3, 5], 0.6),
    ([1, 1, 2, 3], [1, 2, 2, 3], 0.8), ([0.3, -2.0, 5.0], [1.0, 0.0, -1.0], -1 / 3),
])
def test_kendall_tau_b(x, y, tau) -> None:
    assert report.kendall_tau(x, y) == pytest.approx(tau)


def test_kendall_tau_of_a_constant_list_is_undefined() -> None:
    assert report.kendall_tau([1, 1, 1], [1, 2, 3]) is None


def _fake_result(score_by_pilot: dict[str, np.ndarray], games: int = 200):
    """A tournament of 3 decks x pilots where deck i scores ``score[i, j]`` against deck j under each pilot
    (cross-pilot games are left empty: only same-pilot games count for a pilot's ranking)."""
    decks = ["aggro", "burst", "machine"]
    pilots = list(score_by_pilot)
    entries = [SimpleNamespace(label=f"{d}@{p}", pilot=p) for d in decks for p in pilots]
    e = len(entries)
    res = np.zeros((e, e, 4), dtype=np.int64)
    for k, p in enumerate(pilots):
        s = score_by_pilot[p]
        for a in range(3):
            for b in range(3):
                if a != b:
                    ia, ib = a * len(pilots) + k, b * len(pilots) + k
                    wins = int(round(s[a, b] * games / 2))
                    res[ia, ib, 0] = wins  # a in seat 0
                    res[ia, ib, 1] = games // 2 - wins
    return SimpleNamespace(entries=entries, tally=SimpleNamespace(results=res), seed=0)


def test_pilots_that_agree_have_tau_one_and_no_flags() -> None:
    s = np.array([[0.5, 0.6, 0.7], [0.4, 0.5, 0.6], [0.3, 0.4, 0.5]])
    ag = report.pilot_agreement(_fake_result({"heuristic": s, "random": s}), bootstrap=20)
    assert ag["pilots"] == ["heuristic", "random"] and ag["decks"] == ["aggro", "burst", "machine"]
    assert ag["kendall_tau"][0]["tau"] == pytest.approx(1.0)
    assert ag["disagreements"] == 0
    assert [r["label"] for r in ag["rankings"]["heuristic"]] == ["aggro", "burst", "machine"]


def test_a_flipped_ranking_is_flagged() -> None:
    strong = np.array([[0.5, 0.8, 0.9], [0.2, 0.5, 0.8], [0.1, 0.2, 0.5]])
    ag = report.pilot_agreement(_fake_result({"heuristic": strong, "random": strong.T}), bootstrap=20)
    assert ag["kendall_tau"][0]["tau"] == pytest.approx(-1.0)
    assert ag["disagreements"] == 3
    row = next(r for r in ag["pairings"] if (r["a"], r["b"]) == ("aggro", "machine"))
    assert row["disagree"] == [["heuristic", "random"]]
    assert row["by_pilot"]["heuristic"]["a_score"] == pytest.approx(0.9)
    assert row["by_pilot"]["random"]["a_score"] == pytest.approx(0.1)


def test_overlapping_intervals_are_not_flagged() -> None:
    a = np.array([[0.5, 0.55, 0.6], [0.45, 0.5, 0.55], [0.4, 0.45, 0.5]])
    b = np.array([[0.5, 0.5, 0.55], [0.5, 0.5, 0.5], [0.45, 0.5, 0.5]])
    ag = report.pilot_agreement(_fake_result({"heuristic": a, "random": b}, games=100), bootstrap=20)
    assert ag["disagreements"] == 0


def test_one_pilot_has_no_agreement_section() -> None:
    s = np.array([[0.5, 0.6, 0.7], [0.4, 0.5, 0.6], [0.3, 0.4, 0.5]])
    assert report.pilot_agreement(_fake_result({"heuristic": s}), bootstrap=20) is None


def test_agreement_is_in_the_terminal_and_html_report(tmp_path) -> None:
    """A real tournament with two pilots: the summary, the printed tables and the HTML all carry the section."""
    from rich.console import Console

    from cardenvs.eval.tournament import run_tournament

    result = run_tournament("relics", pilots=["heuristic", "random"], games=20, seed=0)
    summary = report.summarize(result, bootstrap=20, cards=False)
    ag = summary["pilot_agreement"]
    assert ag["pilots"] == ["heuristic", "random"] and len(ag["pairings"]) == 3
    console = Console(record=True, width=160)
    report.render_summary(summary, console=console)
    text = console.export_text()
    assert text.splitlines()[0].startswith("relics: pilots: heuristic, random")
    assert "Pilot agreement" in text and "Kendall's tau heuristic vs random" in text
    assert "pairings disagree beyond their intervals" in text
    pytest.importorskip("matplotlib")
    html = report.write_report(summary, tmp_path).read_text()
    assert "<h2>Pilot agreement</h2>" in html and "Kendall&#x27;s tau heuristic vs random" in html
    assert "<b>pilots: heuristic, random</b>" in html  # the report names its pilots before anything else
