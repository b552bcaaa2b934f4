"""Balance report (issue 17, cardenvs.eval.balance) against synthetic ground truth: the skewed simulfight pool in
tests/eval/data has one deliberately overpowered card ("Titan of Testing") and one never worth playing ("Dud
Scarecrow"); random legal decks with heuristic pilots must flag both, each the right way, and few other cards."""
from __future__ import annotations

import json

import pytest

from skewed_pool import POOL, STRONG, USELESS, skewed_spec


@pytest.fixture(scope="module")
def spec():
    return skewed_spec()


@pytest.fixture(scope="module")
def result(spec):
    from cardenvs.eval.balance import balance_report

    search = {"best": {STRONG: 2, "Siege Ram": 1}}  # a deck search report's best deck, as JSON gives it
    return balance_report(spec, 300, "heuristic", seed=1, pool=[POOL], opponents=4, pairs=4, strong_reports=[search])


def test_balance_flags_the_strong_and_the_useless_card(result):
    flagged = result.flagged
    assert flagged.get(STRONG) == "too strong", flagged
    assert flagged.get(USELESS) == "never worth playing", flagged
    others = set(flagged) - {STRONG, USELESS}
    assert len(others) <= 2, flagged  # 36 ordinary cards; the fences and 95% intervals allow a few real outliers
    rows = {r["card"]: r for r in result.rows}
    assert rows[STRONG]["iwd_ci"][0] > result.fence[1] and rows[USELESS]["iwd_ci"][1] < result.fence[0]
    assert rows[STRONG]["inclusion_strong"] == 1.0 and rows[USELESS]["inclusion_strong"] == 0.0
    assert 0 < rows[STRONG]["inclusion_random"] < 1
    assert result.games == 300 * 4 * 4 * 2


def test_balance_outputs(result, tmp_path):
    from cardenvs.eval.balance import format_balance, write_balance

    paths = write_balance(result, tmp_path, plot=True)
    names = {p.name for p in paths}
    assert {"balance.json", "balance.csv", "balance.txt"} <= names
    data = json.loads((tmp_path / "balance.json").read_text())
    assert data["flagged"][STRONG] == "too strong"
    csv_lines = (tmp_path / "balance.csv").read_text().splitlines()
    assert csv_lines[0].startswith("card,") and len(csv_lines) == 1 + len(result.rows)
    if "balance.png" in names:
        assert "balance.png" in (tmp_path / "balance.html").read_text()
    assert "never worth playing" in format_balance(result)


def test_field_range_is_tukeys_fence():
    from cardenvs.eval.balance import field_range

    lo, hi = field_range([0.0, 1.0, 2.0, 3.0, 4.0, float("nan")])
    assert (lo, hi) == (1.0 - 1.5 * 2.0, 3.0 + 1.5 * 2.0)


def test_balance_names_the_cards_its_pilot_rarely_plays(result, tmp_path):
    """A card the pilot drew in 20+ games and played in 5% of them or fewer is marked: its win rates measure a dead
    draw. The mark agrees with the drawn and played rates of the same rows, and the text and HTML list the cards."""
    from cardenvs.eval.balance import format_balance, write_balance

    expect = [r["card"] for r in result.rows
              if round(r["drawn_rate"] * r["games"]) >= 20 and r["played_rate"] <= 0.05 * r["drawn_rate"] + 1e-12]
    assert expect, "the heuristic plays every card of this pool: pick a pilot or pool with a card it leaves"
    assert result.rarely_played == expect
    assert len(expect) < len(result.rows) // 2  # most cards are played
    text = format_balance(result)
    assert "rarely played by the pilot" in text and all(c in text.splitlines()[-1] for c in expect)
    write_balance(result, tmp_path, plot=True)
    data = json.loads((tmp_path / "balance.json").read_text())
    assert data["rarely_played"] == expect
    if (tmp_path / "balance.html").exists():
        assert f"{expect[0]} (rarely played)" in (tmp_path / "balance.html").read_text()
