"""The benchmark machinery runs and writes what it promises. No timing assertions: speed is measured, not tested.

The cardenvs games and the Numba ceiling must run; the anchors (PettingZoo classic, RLCard, pgx) may be missing,
in which case they must be reported as "not installed" instead of failing the run.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.benchmarks import anchors, compare, throughput
from cardenvs.benchmarks.ceiling import SPEC as CEILING
from cardenvs.benchmarks.common import Budget, masked_uniform, measure

GAMES = cardenvs.available_games()
ANCHOR_STATUSES = {"ok", "not installed", "not available"}
BATCHES = (1, 4)


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    out = tmp_path_factory.mktemp("bench")
    mp = pytest.MonkeyPatch()
    # one env per anchor family keeps the test short; gin_rummy_v4 checks the "not available" path
    mp.setattr(anchors, "PETTINGZOO_ENVS", ("texas_holdem_v4", "gin_rummy_v4"))
    mp.setattr(anchors, "RLCARD_ENVS", ("limit-holdem",))
    try:
        report = compare.run(quick=True, budget=Budget.tiny(), batches=BATCHES, pgx_envs=("kuhn_poker",),
                             compile_times=False, profile=False, out_dir=out, log=lambda line: None)
    finally:
        mp.undo()
    return report, out


def test_sampler_draws_only_legal_actions_uniformly() -> None:
    rng = np.random.default_rng(0)
    mask = np.zeros((4000, 6), dtype=np.int8)
    mask[:, [1, 4]] = 1
    actions = masked_uniform(mask, rng)
    assert set(np.unique(actions)) == {1, 4}
    assert abs((actions == 1).mean() - 0.5) < 0.05


def test_measure_reports_the_median_of_its_repeats() -> None:
    m = measure(lambda n: sum(3 for _ in range(n)), Budget.tiny())
    assert len(m.runs) == Budget.tiny().repeats and m.median == float(np.median(m.runs)) and m.median > 0


def test_ceiling_game_passes_the_shipped_checker() -> None:
    from cardenvs.testing import check_game

    # the ceiling game's observation is a speed probe, not a player's view: completeness is checked on the real games
    report = check_game(CEILING, num_games=50, batch_size=50, completeness=False)
    assert report.games == 50 and report.terminated + report.truncated == 50


def test_quick_compare_json_structure(quick_report: tuple[dict, Path]) -> None:
    report, out = quick_report
    on_disk = json.loads((out / "compare.json").read_text())
    assert set(on_disk) >= {"meta", "entries", "ratios", "compile", "memory"}
    meta = on_disk["meta"]
    assert meta["quick"] is True and meta["batches"] == list(BATCHES)
    assert meta["machine"]["cpu_model"] and meta["machine"]["logical_cores"] >= 1
    assert {"numpy", "numba", "pettingzoo", "rlcard", "pgx"} <= set(meta["versions"])
    assert meta["load_before"] is not None and meta["duration_s"] > 0
    for e in on_disk["entries"]:
        assert {"name", "group", "api", "status", "reason", "figures"} <= set(e)
        if e["status"] == "ok":
            for fig in e["figures"].values():
                assert fig["median"] > 0 and len(fig["runs"]) == Budget.tiny().repeats


def test_cardenvs_games_and_ceiling_all_ran(quick_report: tuple[dict, Path]) -> None:
    report, _ = quick_report
    entries = report["entries"]
    for game in GAMES:
        mine = [e for e in entries if e["group"] == "cardenvs" and e["name"] == game]
        assert {e["api"].split(" (")[0] for e in mine} >= {"batch core", "AEC env", "SB3 VecEnv"}
        for e in mine:
            assert e["status"] == "ok", f"{game} {e['api']}: {e['reason']}"
            expected = ({"1"} if e["api"].startswith("AEC") else {str(BATCHES[-1])} if "3 calls" in e["api"]
                        else {str(b) for b in BATCHES})
            assert set(e["figures"]) == expected
        assert report["memory"][game]["state_bytes_per_game"] == cardenvs.get_game(game).state_layout.size * 4
        assert game in report["ratios"]["games"]
    ceiling = [e for e in entries if e["group"] == "ceiling"]
    assert len(ceiling) == 4 and all(e["status"] == "ok" for e in ceiling), [e["reason"] for e in ceiling]
    assert all(c == {"skipped": "quick mode"} for c in report["compile"].values())


def test_missing_anchors_are_reported_not_raised(quick_report: tuple[dict, Path]) -> None:
    report, _ = quick_report
    anchor = {e["name"]: e for e in report["entries"] if e["group"] in ("pettingzoo", "rlcard", "pgx")}
    assert {"texas_holdem_v4", "gin_rummy_v4", "limit-holdem", "kuhn_poker"} <= set(anchor)
    for e in anchor.values():
        assert e["status"] in ANCHOR_STATUSES, f"{e['name']}: {e['status']}: {e['reason']}"
        if e["status"] != "ok":
            assert e["reason"]


def test_quick_compare_writes_markdown_and_chart(quick_report: tuple[dict, Path]) -> None:
    _, out = quick_report
    text = (out / "RESULTS.md").read_text()
    assert "| group | env | api |" in text and "## Ratios at batch" in text
    png = (out / "throughput.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_throughput_cli_quick_writes_json(tmp_path: Path) -> None:
    path = tmp_path / "ceiling.json"
    assert throughput.main(["ceiling", "--quick", "--budget", "0.01", "--repeats", "2", "--json", str(path)]) == 0
    data = json.loads(path.read_text())
    assert set(data["batch"]) == {"1", "64"} and data["aec"]["median"] > 0
    assert data["memory"]["state_bytes_per_game"] == CEILING.state_layout.size * 4
    assert data["compile"] is None and data["machine"]["cpu_model"]


@pytest.mark.slow
def test_compile_probe_cold_then_warm() -> None:
    probe = throughput.compile_probe("ceiling", memory_batch=64)
    assert probe["cache_files"] > 0
    for phase in ("cold", "warm"):
        assert probe[phase]["first_call_s"] > 0, probe[phase]
    assert probe["warm"]["peak_rss_mib"] > 0 and probe["warm"]["memory_batch"] == 64


def test_observation_write_ceiling_cli_prints_a_table_and_writes_json(tmp_path: Path, capsys) -> None:
    """``profiling --obs-write``: the rows/s of writing a game-sized observation row and nothing else, per game."""
    import json

    from cardenvs.benchmarks.profiling import main

    assert main(["simulfight", "--obs-write", "--out", str(tmp_path / "PROFILE.md")]) == 0
    rows = json.loads((tmp_path / "obs_write.json").read_text())
    import cardenvs

    assert [r["game"] for r in rows] == ["simulfight"]
    spec = cardenvs.get_game("simulfight")
    assert rows[0]["obs_floats"] == spec.obs_dim and rows[0]["obs_dtype"] == spec.obs_dtype.name
    assert rows[0]["obs_bytes_per_row"] == spec.obs_dim * spec.obs_dtype.itemsize  # compact rows: 1-2 bytes a value
    assert rows[0]["rows_per_s"] > 0 and rows[0]["bytes_per_s"] == rows[0]["rows_per_s"] * rows[0]["obs_bytes_per_row"]
    assert "simulfight" in capsys.readouterr().out


def test_profiling_cli_names_an_unknown_game_in_one_line(capsys) -> None:
    from cardenvs.benchmarks.profiling import main

    with pytest.raises(SystemExit) as stop:
        main(["bogus", "--obs-write"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "unknown game 'bogus'" in err and "Traceback" not in err


def test_pilot_speed_benchmark_measures_each_pilot_and_says_why_one_is_skipped(tmp_path: Path) -> None:
    """benchmarks/pilots.py: one row per (game, pilot) with a median of its repeats; a pilot the game cannot use here
    (a policy file that is not there) is a row that says why, not a crash; the table, JSON and plot are written."""
    from cardenvs.benchmarks import pilots

    missing = f"ppo:{tmp_path / 'missing.npz'}"
    report = pilots.main(["simulfight", "--pilots", "random", missing, "--games", "2", "--repeats", "2",
                          "--json", str(tmp_path / "p.json"), "--plot", str(tmp_path / "p.png")])
    rows = {r["pilot"]: r for r in report["rows"]}
    assert len(rows["random"]["runs"]) == 2 and rows["random"]["games_per_second"] > 0
    assert rows["random"]["games"] == 6  # 3 starter decks: 3 pairings x 2 games
    assert "games_per_second" not in rows[missing] and "missing.npz" in rows[missing]["skipped"]
    assert json.loads((tmp_path / "p.json").read_text())["rows"] == report["rows"]
    assert (tmp_path / "p.png").stat().st_size > 0
    assert pilots.table(report).splitlines()[2].startswith("| simulfight | ") and pilots.table(report).endswith("| - |")


@pytest.mark.parametrize("argv, error", [(["nosuch"], "UnknownGameError"), (["--games", "3"], "BadArgumentError"),
                                         (["--repeats", "0"], "BadArgumentError")])
def test_pilot_speed_benchmark_rejects_bad_arguments(argv: list[str], error: str) -> None:
    from cardenvs.benchmarks import pilots
    from cardenvs.core import errors

    with pytest.raises(getattr(errors, error)):
        pilots.parse_args(argv)


def test_pilot_speed_benchmark_takes_game_names_as_the_registry_spells_them() -> None:
    from cardenvs.benchmarks import pilots

    assert pilots.parse_args(["LevelNeo", "relics_v2"]).games_list == ["levelneo", "relics"]
