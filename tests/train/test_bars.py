"""train.bars: the six strength-bar matches a policy must clear before it ships, and the rule that decides (issue 38
step 4: the test deck set, balanced pairs against random, the pair-bootstrap interval and the per-deck floor)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardenvs.train.bars import main, verdict
from cardenvs.train.evaluate import MatchResult


def _result(seat0: tuple[int, int, int], seat1: tuple[int, int, int]) -> MatchResult:
    w, d, l_ = (a + b for a, b in zip(seat0, seat1))
    return MatchResult(w, d, l_, 0, {0: seat0, 1: seat1})


@pytest.mark.parametrize("opponent, check, seat0, seat1, met", [
    ("heuristic", "pair", (61, 0, 39), (61, 0, 39), True),
    ("heuristic", "pair", (59, 10, 31), (60, 0, 40), False),       # 0.595: draws count as not won
    ("heuristic", "pair", (29, 0, 71), (95, 0, 5), True),          # the default pair's seats hold different decks
    ("heuristic", "starters", (29, 0, 71), (95, 0, 5), False),     # ... but over all pairings a seat gap is the policy's
    ("heuristic", "test", (70, 0, 30), (59, 0, 41), False),
    ("random", "test", (96, 0, 4), (95, 0, 5), True),
    ("random", "starters", (95, 0, 5), (94, 1, 5), False),
])
def test_verdict_applies_the_bars(opponent: str, check: str, seat0, seat1, met: bool) -> None:
    assert verdict(opponent, check, _result(seat0, seat1)) is met


def test_a_deck_below_the_floor_fails_a_bar_the_rate_meets() -> None:
    """The per-deck floor gates the test check: a policy that clears the overall rate but pilots one deck worse
    than random does not pass."""
    result = _result((70, 0, 30), (70, 0, 30))
    assert verdict("heuristic", "test", result, {"met": True, "below": [], "decks": 4})
    assert not verdict("heuristic", "test", result, {"met": False, "below": [{"deck": "x"}], "decks": 4})


def test_bars_command_plays_six_matches_and_says_which_failed(tmp_path: Path, capsys) -> None:
    status = main(["divinecross", "random", "--games", "12", "--out", str(tmp_path), "--deck-bank", "0",
                   "--validation-pairs", "0", "--test-pairs", "2"])
    out = capsys.readouterr().out
    assert status == 1 and "bars not met" in out  # random pilots do not beat the heuristic 60% of the time
    summary = json.loads((tmp_path / "bars.json").read_text())
    assert [(r["opponent"], r["check"]) for r in summary["checks"]] == [
        (o, c) for o in ("heuristic", "random") for c in ("pair", "starters", "test")]
    assert not summary["passed"]
    test = json.loads((tmp_path / "divinecross_heuristic_test.json").read_text())
    assert test["games"] == sum(p["games"] for p in test["pairings"].values()) > 0
    rows = {(r["opponent"], r["check"]): r for r in summary["checks"]}
    heuristic, against_random = rows["heuristic", "test"], rows["random", "test"]
    assert heuristic["pairs"] == 2 and heuristic["floor"]["decks"] == 4
    lo, hi = heuristic["pair_ci95"]
    assert 0.0 <= lo <= hi <= 1.0
    assert against_random["pairs_kept"] <= against_random["pairs_tried"] and "balanced:" in out


def test_bars_command_refuses_a_bad_game(capsys) -> None:
    assert main(["nosuchgame", "ppo"]) == 2
    assert "python -m cardenvs.train.bars: error" in capsys.readouterr().err
