"""The mutation runner (cardenvs.benchmarks.mutation): what it mutates, what it leaves alone, how it chooses tests and
scores. The run itself is slow (a copy of the repository, a baseline under coverage, one pytest per mutant); the
one end-to-end run here is slow-marked."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("cosmic_ray")
pytest.importorskip("coverage")

from cardenvs.benchmarks import mutation as M  # noqa: E402

SOURCE = '''from __future__ import annotations


@njit(S.NB_INT(S.NB_ROW, S.NB_INT), cache=True)
def f(row: np.ndarray, p: int | None = None) -> int | None:
    x: int | None = None
    if (row[0] > 1  # LN-K3
            and p == 2):
        return row[1] + 1
    return 0
'''


def test_decorators_and_annotations_are_not_mutated(tmp_path: Path) -> None:
    """The ``@njit`` signature, its options and the annotations change only how a kernel compiles."""
    (tmp_path / "m.py").write_text(SOURCE)
    mutants = M.enumerate_mutants(tmp_path, ["m.py"], ["core/RemoveDecorator"])
    lines = {m.line for m in mutants}
    assert lines and lines <= {7, 8, 9, 10}, sorted(lines)
    assert not any(m.operator == "core/RemoveDecorator" for m in mutants)
    ops = {m.operator.split("/")[-1] for m in mutants if m.line == 7}
    assert "ReplaceComparisonOperator_Gt_GtE" in ops and "NumberReplacer" in ops
    # the second line of a condition belongs to the statement of its `if`
    assert {m.stmt_line for m in mutants if m.line == 8} == {7}
    assert {m.stmt_line for m in mutants if m.line == 9} == {9}


def test_each_mutant_is_cosmic_rays_occurrence(tmp_path: Path) -> None:
    """The numbering is cosmic-ray's own, so applying mutant k changes the line it was listed at."""
    from cosmic_ray.mutating import mutate_code
    import cosmic_ray.plugins

    (tmp_path / "m.py").write_text(SOURCE)
    for m in M.enumerate_mutants(tmp_path, ["m.py"], ["core/RemoveDecorator"]):
        mutated = mutate_code(SOURCE, cosmic_ray.plugins.get_operator(m.operator)(), m.occurrence)
        assert mutated is not None
        before, after = M.describe(SOURCE, mutated, m.line)
        assert before == SOURCE.splitlines()[m.line - 1].strip() and after != before, (m, before, after)


def test_rule_ids_from_test_names_docstrings_and_comments() -> None:
    assert M.rule_ids("test_LN_B3_burst_reasons HB-A8 and RL-G10, again LN-B3") == ["LN-B3", "HB-A8", "RL-G10"]
    assert M.rule_ids("test_random_play_keeps_every_invariant") == []
    lines = SOURCE.splitlines()
    assert M.source_rule_ids(lines, 8) == ["LN-K3"]  # the comment one line up, same function
    assert M.source_rule_ids(lines, 5) == []  # nothing above the def


def test_wilson_interval_is_the_sample_size_the_issue_asks_for() -> None:
    """140 mutants at a 90% score: the 95% interval is within about 5 points either side."""
    lo, hi = M.wilson(126, 140)
    assert 0.83 < lo < 0.85 and 0.93 < hi < 0.95
    assert M.wilson(0, 0) == (0.0, 1.0)
    assert M.wilson(10, 10)[1] == 1.0


def test_tests_run_for_a_mutant() -> None:
    """Tests that execute the statement first (fastest first), then every other fast test; a slow test that never
    executes it is not run; a statement run at import runs everything."""
    durations = {"a": 0.1, "b": 0.2, "slow_cover": 5.0, "slow_other": 9.0, "c": 1.0}
    ordered = M.order_tests(list(durations), durations, slow_s=2.0)
    assert ordered[-2:] == ["slow_cover", "slow_other"]
    assert M.select_tests(ordered, {"slow_cover", "c"}, durations, 2.0) == ["c", "slow_cover", "a", "b"]
    assert M.select_tests(ordered, None, durations, 2.0) == ordered


def test_scores_and_table() -> None:
    recs = ([{"outcome": "killed", "file": "cardenvs/games/g/rules.py", "test_rules": ["LN-K3"], "seconds": 2.0,
              "how": "failed"}] * 9 +
            [{"outcome": "survived", "file": "cardenvs/games/g/effects.py", "seconds": 8.0}] +
            [{"outcome": "incompetent", "file": "cardenvs/games/g/rules.py"}])
    s = M.summarise(recs, ["rules.py", "effects.py", "board.py"])
    assert s["game"]["mutants"] == 10 and s["game"]["killed"] == 9 and s["incompetent"] == 1
    assert s["files"]["rules.py"]["score"] == 1.0 and s["files"]["effects.py"]["score"] == 0.0
    assert s["files"]["board.py"]["mutants"] == 0
    assert s["game"]["killed_by_rule_test"] == 9


def _record(outcome: str, line: int, code: list[str], tests: list[str], test: str = "") -> dict:
    return {"outcome": outcome, "file": "cardenvs/games/g/rules.py", "line": line, "operator": "core/X",
            "after": f"x{line}", "rules_in_code": code, "test_rules": tests, "how": "failed", "seconds": 1.0,
            "test": f"tests/t.py::{test}" if test else ""}


def test_the_breakage_table_counts_per_rule_from_the_run() -> None:
    """Issue 39: RULES.md's breakage table comes from the run. A rule's code row counts the mutants of lines citing
    it (caught / sampled), its tests row the mutants caught by tests naming it, with an example change; mutants tied
    to no rule and the survivors are listed too."""
    recs = [_record("killed", 10, ["LN-K3"], ["LN-K3"], "test_LN_K3_a"),
            _record("killed", 11, ["LN-K3"], ["LN-T1"], "test_LN_T1_b"),
            _record("survived", 12, ["LN-K3"], []),
            _record("killed", 13, [], ["LN-K12"], "test_LN_K12_c"),
            _record("killed", 14, [], [], "test_plain"),
            _record("incompetent", 15, ["LN-A1"], [])]
    report = {"meta": {"game": "g", "files": ["rules.py"], "seed": 39, "commit": "a" * 40, "tests_commit": "b" * 40},
              "summary": M.summarise(recs, ["rules.py"]), "mutants": recs}
    rows = {line.split(" | ")[0][2:]: line for line in M.breakage_table(report).splitlines() if line.startswith("| ")}
    assert list(rows)[1:] == ["LN-K3", "LN-K12", "LN-T1", "(no rule ID)"]  # checklist order, LN-A1 only incompetent
    assert rows["LN-K3"].startswith("| LN-K3 | 2 / 3 | 1 | rules.py:10 `x10`: `test_LN_K3_a` |")
    assert rows["LN-K12"].startswith("| LN-K12 | - | 1 | rules.py:13 ")
    assert rows["LN-T1"].startswith("| LN-T1 | - | 1 | rules.py:11 ")
    assert "`test_plain`" in rows["(no rule ID)"]
    assert "Not caught (1): rules.py:12 (LN-K3)." in M.breakage_table(report)
    assert "4 of 5 caught (80%)" in " ".join(M.breakage_table(report).split())


@pytest.mark.parametrize("game", sorted(M.load_config()))
def test_rules_md_breakage_table_is_generated_from_the_committed_run(game: str) -> None:
    """Each game's RULES.md breakage section is what the runner generates from docs/mutation/<game>.json (after a
    run or ``--tables``), not a table written by hand."""
    report = json.loads((M.DEFAULT_OUT / f"{game}.json").read_text())
    assert M.breakage_section(M.rules_md_path(game)) == M.breakage_table(report), (
        f"regenerate: python -m cardenvs.benchmarks.mutation {game} --tables")


def test_files_replace_the_configured_files_and_nothing_else() -> None:
    """``--files endings.py`` mutates that file of each game with the game's own tests and settings."""
    config = M.load_config()
    assert M.parse_args(["levelneo", "--files", "endings.py"]).files == ["endings.py"]
    assert M.parse_args(["levelneo"]).files is None
    changed = M.game_settings(config, "relics", ["endings.py"])
    assert changed["files"] == ["endings.py"] and "endings.py" not in config["relics"]["files"]
    assert {k: v for k, v in changed.items() if k != "files"} == {k: v for k, v in config["relics"].items()
                                                                   if k != "files"}
    assert M.game_settings(config, "relics", None) == config["relics"]


def test_a_files_name_not_in_a_game_folder_is_one_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    """``--files ending.py`` (a typo) stops before any copy or baseline, naming the file, the folder and what is
    there; before, the name was dropped and the run mutated nothing."""
    assert M.missing_files(M.REPO, ["levelneo", "relics"], ["endings.py"]) == []
    problems = M.missing_files(M.REPO, ["levelneo"], ["ending.py", "endings.py"])
    assert len(problems) == 1 and "--files ending.py" in problems[0]
    assert "cardenvs/games/levelneo/" in problems[0] and "endings.py" in problems[0]
    with pytest.raises(SystemExit) as exc:
        M.main(["levelneo", "--files", "ending.py"])
    assert "--files ending.py: no such file in cardenvs/games/levelneo/" in str(exc.value)


def test_an_unknown_game_is_one_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        M.main(["nosuchgame"])
    assert "no mutation settings for nosuchgame" in str(exc.value)


def test_a_folder_that_is_not_a_copy_is_never_overwritten(tmp_path: Path) -> None:
    """The copy of commit C lives in <copy>/<C[:12]>; a folder there that the runner did not finish is left alone."""
    import subprocess

    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=M.REPO, capture_output=True, text=True).stdout.strip()
    if not commit:
        pytest.skip("not a git checkout")
    (tmp_path / commit[:12]).mkdir()
    (tmp_path / commit[:12] / "precious.txt").write_text("x")
    with pytest.raises(SystemExit, match="not a complete mutation copy"):
        M.Copy(M.REPO, "HEAD", tmp_path)
    assert (tmp_path / commit[:12] / "precious.txt").read_text() == "x"


def test_the_tests_of_a_later_commit_get_their_own_copy_and_say_so() -> None:
    """--tests-rev: one commit's mutants against another commit's tests/ live in a folder of their own (never the
    plain copy of either commit), and the table's header names both commits."""
    a, b = "a" * 40, "b" * 40
    assert M.copy_name(a, a) == "a" * 12
    assert M.copy_name(a, b) == "a" * 12 + "+tests-" + "b" * 12
    recs = [{"outcome": "killed", "file": "cardenvs/games/g/rules.py", "line": 3, "operator": "core/X",
             "test": "t.py::test_x", "how": "failed", "after": "x", "rules_in_code": [], "seconds": 1.0}]
    meta = {"game": "g", "command": "c", "commit": a, "tests_commit": b, "cosmic_ray": "8.7.0", "mutants_total": 1,
            "files": ["rules.py"], "sample": 1, "seed": 39, "done": 1, "jit": False, "tests": 1}
    text = M.markdown({"meta": meta, "summary": M.summarise(recs, ["rules.py"]), "mutants": recs})
    assert f"Commit `{a}` (its rule code; the tests of commit `{b}`)" in text
    meta["tests_commit"] = a
    text = M.markdown({"meta": meta, "summary": M.summarise(recs, ["rules.py"]), "mutants": recs})
    assert "the tests of commit" not in text


@pytest.mark.slow
def test_end_to_end_on_a_few_mutants(tmp_path: Path) -> None:
    """Three sampled simulfight mutants in a copy: the checkout is untouched, every module came from the copy (the
    runner stops otherwise), and the JSON and the table are written."""
    before = (M.REPO / "cardenvs" / "games" / "simulfight" / "rules.py").read_text()
    reports = M.main(["simulfight", "--sample", "3", "--out", str(tmp_path), "--nice", "0"])
    assert (M.REPO / "cardenvs" / "games" / "simulfight" / "rules.py").read_text() == before
    data = json.loads((tmp_path / "simulfight.json").read_text())
    assert data["meta"]["done"] == 3 and len(data["mutants"]) == 3
    assert all(r["outcome"] in ("killed", "survived", "incompetent") for r in data["mutants"])
    assert "# Mutation testing: simulfight" in (tmp_path / "simulfight.md").read_text()
    assert reports[0]["meta"]["commit"] == data["meta"]["commit"]
