"""``cardenvs eval``'s "how games end" (issue 38 item 2): each game's endings (``GameSpec.endings``) counted over the
tournament and per entry as won / lost / drawn, in the JSON, the terminal and the HTML report."""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import get_spec
from cardenvs.eval.matches import DRAWN, SEAT0_WINS, SEAT1_WINS, Tally, make_entries
from cardenvs.eval.report import ending_lines, summarize, write_report
from cardenvs.eval.tournament import TournamentResult, run_tournament


def test_ending_stats_count_each_entrys_games_by_seat_and_outcome() -> None:
    """Four levelneo games between two entries with known seats, outcomes and endings."""
    entries = make_entries("levelneo", ["aggro", "weak"], ("heuristic",))
    t = Tally.empty(2, len(get_spec("levelneo").load_pool(None)))
    n = 4
    t = Tally(t.results, t.first, t.cards, np.arange(n, dtype=np.int64),
              np.array([SEAT0_WINS, SEAT0_WINS, SEAT1_WINS, DRAWN], np.int8), np.zeros(n, np.int8),
              np.zeros(n, np.int32), np.array([[0, 1], [1, 0], [0, 1], [1, 0]], np.int32), None,
              np.array([0, 1, 0, 2], np.int8))
    stats = TournamentResult("levelneo", 0, entries, [], t).ending_stats()
    assert [e["games"] for e in stats["endings"]] == [2, 1, 1]
    assert stats["truncated"] == 0 and stats["unexplained"] == 0
    aggro, weak = stats["by_entry"]
    assert aggro["won"] == {"LN-V1": 1, "LN-V2": 0, "LN-V3": 0}
    assert aggro["lost"] == {"LN-V1": 1, "LN-V2": 1, "LN-V3": 0}
    assert aggro["drawn"] == {"LN-V1": 0, "LN-V2": 0, "LN-V3": 1}
    assert weak["won"] == {"LN-V1": 1, "LN-V2": 1, "LN-V3": 0} and weak["lost"] == {"LN-V1": 1, "LN-V2": 0, "LN-V3": 0}


def test_eval_reports_how_games_end_and_it_adds_up_to_the_results(tmp_path) -> None:
    result = run_tournament("levelneo", ["aggro", "weak", "control"], pilots=("heuristic",), games=20, seed=3)
    summary = summarize(result, bootstrap=0, cards=False)
    ends = summary["endings"]
    assert sum(e["games"] for e in ends["endings"]) + ends["truncated"] + ends["unexplained"] == result.games
    for row in ends["by_entry"]:  # each entry's wins and losses by ending add up to its results
        label = row["label"]
        wins = sum(p["a_wins"] if p["a"] == label else p["b_wins"] for p in summary["pairings"] if label in (p["a"], p["b"]))
        losses = sum(p["b_wins"] if p["a"] == label else p["a_wins"] for p in summary["pairings"]
                     if label in (p["a"], p["b"]))
        assert sum(row["won"].values()) == wins and sum(row["lost"].values()) == losses
    line, header, rows = ending_lines(summary)
    assert line.startswith(f"{result.games} games: LN-V1 a Level Neo main won a battle ") and "truncated 0" in line and header[2] == "LN-V1 W/L/D"
    html = write_report(summary, tmp_path / "report").read_text()
    assert "<h2>How games end</h2>" in html and "LN-V2 W/L/D" in html


def test_a_game_without_endings_reports_none() -> None:
    """A tally without per-game endings (one built before they existed) gives no section rather than zeros."""
    entries = make_entries("levelneo", ["aggro", "weak"], ("heuristic",))
    t = Tally.empty(2, 4)
    t.endings = None
    assert TournamentResult("levelneo", 0, entries, [], t).ending_stats() is None
    assert ending_lines({"games": 0}) is None


def test_endings_that_share_a_rule_id_keep_their_own_counts() -> None:
    """simulfight ends every game by SF-E2 in three ways: each gets its own label and column (keyed by rule ID alone
    they would fall into one)."""
    entries = make_entries("simulfight", None, ("heuristic",))[:2]
    t = Tally.empty(2, 4)
    n = 3
    t = Tally(t.results, t.first, t.cards, np.arange(n, dtype=np.int64), np.array([SEAT0_WINS, SEAT1_WINS, DRAWN], np.int8),
              np.zeros(n, np.int8), np.zeros(n, np.int32), np.array([[0, 1]] * n, np.int32), None,
              np.array([0, 1, 2], np.int8))
    stats = TournamentResult("simulfight", 0, entries, [], t).ending_stats()
    assert [e["label"] for e in stats["endings"]] == ["SF-E2.1", "SF-E2.2", "SF-E2.3"]
    first = stats["by_entry"][0]
    assert first["won"] == {"SF-E2.1": 1, "SF-E2.2": 0, "SF-E2.3": 0}
    assert first["lost"] == {"SF-E2.1": 0, "SF-E2.2": 1, "SF-E2.3": 0}
    assert first["drawn"] == {"SF-E2.1": 0, "SF-E2.2": 0, "SF-E2.3": 1}
    _, header, _ = ending_lines({"games": n, "endings": stats})
    assert header[2:] == ["SF-E2.1 W/L/D", "SF-E2.2 W/L/D", "SF-E2.3 W/L/D"]
