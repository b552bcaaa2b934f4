"""Issue 43, findings 8 and 9: mistakes reported before any game is played, in one line, never as a traceback.

Finding 8: output paths (``--json`` a folder, ``--report`` a file, a path under a file) and ``balance --strong``
files are checked before the first game; a report folder holds one run (an earlier run's files cannot stay beside
the new ones, and a folder of other files is refused rather than emptied).
Finding 9: crafted replay files, training configs that ``load_config`` used to pass but that failed hours later,
``play`` input that ``str.isdigit()`` accepts but ``int()`` refuses, and negative seeds (one seed rule for every
command: any integer).
"""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from cardenvs.cli import main
from cardenvs.core.errors import BadArgumentError

GAME = "simulfight"


def one_line_error(capsys: pytest.CaptureFixture, argv: list[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err and lines[0].startswith("cardenvs"), err
    return lines[0]


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played fails the test: the error must come first."""
    from cardenvs.eval import balance, matches, tournament

    def played(*args, **kwargs):
        raise AssertionError("a game was played before the mistake was reported")

    monkeypatch.setattr(tournament, "run_tournament", played)
    monkeypatch.setattr(tournament, "run_sprt", played)
    monkeypatch.setattr(balance, "play_chunk", played)
    monkeypatch.setattr(matches, "play_chunk", played)


# ----- finding 8: output paths and input files before the games ---------------------------------------------------
def test_eval_checks_every_output_path_before_the_first_game(capsys, tmp_path: Path, no_games) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("my own notes")
    base = ["eval", GAME, "--games", "2", "--agents", "random", "--bootstrap", "0"]
    for argv, needle in [
        (["--json", str(tmp_path)], "--json"),                          # a folder
        (["--json", str(a_file / "out.json")], "--json"),               # under a file
        (["--report", str(a_file)], "--report"),                        # a file
        (["--report", str(a_file / "sub")], "--report"),
        (["--report", str(foreign)], "not a previous cardenvs eval report"),
        (["--csv", str(a_file)], "--csv"),
        (["--save-replays", str(a_file)], "--save-replays"),
        # the report folder holds one run's files only: other outputs inside it would mix into the next run
        (["--report", str(tmp_path / "rep"), "--json", str(tmp_path / "rep" / "results.json")], "inside the --report"),
        (["--report", str(tmp_path / "rep"), "--csv", str(tmp_path / "rep")], "inside the --report"),
        (["--report", str(tmp_path / "rep"), "--save-replays", str(tmp_path / "rep" / "r")], "inside the --report"),
    ]:
        assert needle in one_line_error(capsys, base + argv), argv
    assert (foreign / "notes.txt").read_text() == "my own notes" and len(list(foreign.iterdir())) == 1


def test_balance_reads_strong_reports_and_checks_out_before_the_games(capsys, tmp_path: Path, no_games) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    nobest = tmp_path / "nobest.json"
    nobest.write_text(json.dumps({"game": GAME}))
    huge = tmp_path / "huge.json"
    huge.write_text('{"best": ' + "9" * 5000 + "}")
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    base = ["balance", GAME, "--decks", "2", "--opponents", "1", "--pairs", "1", "--pilot", "random"]
    assert "bad.json" in one_line_error(capsys, base + ["--strong", str(bad), "--out", str(tmp_path / "o")])
    assert "nobest.json" in one_line_error(capsys, base + ["--strong", str(nobest), "--out", str(tmp_path / "o")])
    assert "huge.json" in one_line_error(capsys, base + ["--strong", str(huge), "--out", str(tmp_path / "o")])
    assert "--out" in one_line_error(capsys, base + ["--out", str(a_file)])
    assert not (tmp_path / "o").exists()
    from cardenvs.eval.balance import balance_report

    with pytest.raises(BadArgumentError, match="best"):  # the Python API too, before its games
        balance_report(GAME, 2, "random", opponents=1, pairs=1, strong_reports=[{"no": "best"}])


def test_replay_html_path_and_play_replay_dir_are_checked_first(capsys, tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    assert "--html" in one_line_error(capsys, ["replay", str(tmp_path / "missing.json"), "--html", str(tmp_path)])
    assert "--replay-dir" in one_line_error(capsys, ["play", GAME, "--replay-dir", str(a_file)])


def _summary(cards: bool) -> dict:
    from cardenvs.eval import report
    from cardenvs.eval.tournament import run_tournament

    result = run_tournament(GAME, games=2, seed=0, decks=["aggro", "guard"], pilots=["random"], chunk_size=64)
    return report.summarize(result, bootstrap=0, cards=cards)


def test_a_report_folder_holds_one_run(tmp_path: Path) -> None:
    from cardenvs.core.outputs import MANIFEST
    from cardenvs.eval.report import write_report

    folder = tmp_path / "report"
    write_report(_summary(cards=True), folder)
    first = sorted(p.name for p in folder.iterdir())
    assert "cards.png" in first and "cards.csv" in first and MANIFEST in first
    write_report(_summary(cards=False), folder)  # the same folder again, a run without card statistics
    second = sorted(p.name for p in folder.iterdir())
    assert "cards.png" not in second and "cards.csv" not in second, "an earlier run's files stayed beside the new"
    assert json.loads((folder / "results.json").read_text())["games"] == 2
    assert not [p for p in tmp_path.iterdir() if p.name != "report"], "a temporary folder was left behind"
    (folder / "mine.txt").write_text("a file the tool did not write")
    with pytest.raises(BadArgumentError, match="not a previous"):
        write_report(_summary(cards=False), folder)
    assert (folder / "mine.txt").exists() and (folder / "results.json").exists()


def test_a_balance_folder_holds_one_run(tmp_path: Path) -> None:
    from cardenvs.eval.balance import balance_report, write_balance

    result = balance_report(GAME, 2, "random", opponents=1, pairs=1)
    folder = tmp_path / "balance"
    write_balance(result, folder, plot=True)
    assert (folder / "balance.png").exists()
    write_balance(result, folder, plot=False)
    assert not (folder / "balance.png").exists() and not (folder / "balance.html").exists()
    (folder / "other.txt").write_text("x")
    with pytest.raises(BadArgumentError):
        write_balance(result, folder, plot=False)


# ----- finding 9: crafted replay files are one line -----------------------------------------------------------------
@pytest.fixture(scope="module")
def good_replay() -> dict:
    from cardenvs.core.replay import record_match

    return record_match(GAME, seed=1, pilots=("random", "random")).to_dict()


def _crafted(good: dict) -> dict[str, bytes]:
    def with_(**changes) -> bytes:
        return json.dumps({**good, **changes}).encode()

    missing = dict(good)
    del missing["decks"]
    return {
        "not-utf8": b"\xff\xfe{\x00",
        "deep": b"[" * 100_000 + b"]" * 100_000,
        "digits": b'{"format": 1, "seed": ' + b"9" * 5000 + b"}",
        "missing-key": json.dumps(missing).encode(),
        "seed-huge": with_(seed=10 ** 40),
        "seed-text": with_(seed="1"),
        "version-huge": with_(rules_version=10 ** 200),
        "game-long": with_(game="x" * 10_000),
        "decks-types": with_(decks=[{"cards": [1, 2]}, {"cards": []}]),
        "deck-name-type": with_(decks=[{**good["decks"][0], "name": ["x"]}, good["decks"][1]]),
        "decision-types": with_(decisions=[{"seat": "0", "action": 1}]),
        "decision-name": with_(decisions=[{**good["decisions"][0], "name": {"x": 1}}] + good["decisions"][1:]),
        "decision-huge": with_(decisions=[{"seat": 0, "action": 10 ** 30}]),
        "seat-huge": with_(decisions=[{"seat": 2 ** 70, "action": 0}]),
        "pool-type": with_(pool=[1]),
        "pool-missing": with_(pool=["/nonexistent/pool.toml"]),
        "pool-folder": with_(pool=["/"]),
        "result-types": with_(result={"status": 1, "winner": "x"}),
        "meta-type": with_(meta=["x"]),
        "nan": json.dumps({**good, "seed": 0}).replace('"seed": 0', '"seed": NaN').encode(),
        "array": b"[1, 2, 3]",
    }


def test_crafted_replays_are_one_line_errors(capsys, tmp_path: Path, good_replay: dict) -> None:
    for name, data in _crafted(good_replay).items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        line = one_line_error(capsys, ["replay", str(path), "--step", "0"])
        assert len(line) < 400, (name, line)
    for name in ("meta-type",):  # refused by the loader, so the HTML viewer never sees it either
        one_line_error(capsys, ["replay", str(tmp_path / f"{name}.json"), "--html", str(tmp_path / "x.html")])
    assert main(["replay", str(tmp_path), "--step", "0"]) == 2  # a folder
    capsys.readouterr()


def test_replay_meta_is_free_form_for_the_viewer(tmp_path: Path, good_replay: dict, capsys) -> None:
    path = tmp_path / "odd-meta.json"
    path.write_text(json.dumps({**good_replay, "meta": {"pilots": [1, {"x": 2}], "note": None}}))
    assert main(["replay", str(path), "--html", str(tmp_path / "page.html")]) == 0, capsys.readouterr()


# ----- finding 9: play input and seeds ------------------------------------------------------------------------------
def test_play_input_that_isdigit_accepts_but_int_refuses(monkeypatch, capsys, tmp_path: Path) -> None:
    assert "²".isdigit()  # the trap: int("²") raises ValueError
    monkeypatch.setattr(sys, "stdin", io.StringIO("²\nwhy ²\n? ²\n-²\n٣\n99999999999999999999999\nquit\n"))
    assert main(["play", GAME, "--seed", "1", "--no-save", "--opponent", "random"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "unknown command '²'" in out


@pytest.mark.parametrize("argv", [
    ["play", GAME, "--no-save", "--opponent", "random"],
    ["decks", "random", GAME, "-n", "2"],
    ["balance", GAME, "--decks", "2", "--opponents", "1", "--pairs", "1", "--pilot", "random", "--no-plot", "-q"],
    ["eval", GAME, "--games", "2", "--agents", "random", "--bootstrap", "0", "-q"],
])
def test_one_seed_rule_everywhere(argv, monkeypatch, capsys, tmp_path: Path) -> None:
    """Any integer is a seed, negative ones too, for every command (eval always took them); a non-integer, such as
    "²" or "1.5", is one line."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(argv + ["--seed", "-7"]) == 0, capsys.readouterr()
    first = capsys.readouterr().out
    if argv[:2] == ["decks", "random"]:  # the same seed, the same decks; another seed, others
        assert main(argv + ["--seed", "-7"]) == 0 and capsys.readouterr().out == first
        assert main(argv + ["--seed", "7"]) == 0 and capsys.readouterr().out != first
    for bad in ("²", "1.5", "-", "9" * 5000):
        assert "--seed" in one_line_error(capsys, argv + ["--seed", bad])


# ----- finding 9: training configs that used to fail hours in --------------------------------------------------------
LATE_CONFIGS = {
    "eval-opponent": '[eval]\nopponents = ["random", "nonsense"]\n',  # used to fail at the first evaluation
    "eval-policy-missing": '[eval]\nopponents = ["ppo:/nonexistent/policy.npz"]\n',
    "mix-weight": '[opponents]\nmix = {random = "x"}\n',
    "mix-kind": '[opponents]\nmix = {randmo = 1}\n',
    "mix-zero": '[opponents]\nmix = {random = 0}\n',
    "phase-until": '[[opponents.phases]]\nuntil = "soon"\nmix = {random = 1}\n[[opponents.phases]]\nmix = {heuristic = 1}\n',
    "phase-order": '[[opponents.phases]]\nmix = {random = 1}\n[[opponents.phases]]\nuntil = 100\nmix = {random = 1}\n',
    "league-fallback": '[opponents]\nleague_fallback = "nonsense"\nmix = {league = 1}\n',
    "decks": '[train]\ndecks = ["nosuchdeck", "aggro"]\n',
    "starter-weights": '[train]\ndecks = "mixed"\nstarter_weights = {nosuch = 1}\n',
    "normalize-advantage": '[ppo]\nnormalize_advantage = "yes"\n',
    "stats-window": '[ppo]\nstats_window_size = 0\n',
    "clip-range-vf": '[ppo]\nclip_range_vf = "x"\n',
    "rollout-buffer": '[ppo]\nrollout_buffer_class = "RolloutBuffer"\n',
    "bc-games": '[bc]\ngames = "many"\n',  # found by the fuzz suite: checked only once the run had started
    "bc-teacher": '[bc]\ngames = 10\nteacher = "nonsense"\n',
}


@pytest.mark.parametrize("name", sorted(LATE_CONFIGS))
def test_training_configs_are_checked_whole_up_front(name: str, tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    from cardenvs.train.config import load_config

    path = tmp_path / f"{name}.toml"
    path.write_text(LATE_CONFIGS[name])
    with pytest.raises(BadArgumentError) as err:
        load_config(GAME, path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_shipped_training_configs_still_load() -> None:
    pytest.importorskip("sb3_contrib")
    from stale_teachers import unless_stale_teacher

    import cardenvs
    from cardenvs.train.config import CONFIG_DIR, load_config

    for path in sorted(CONFIG_DIR.rglob("*.toml")):
        if "chains" in path.parts:
            continue
        game = next(g for g in sorted(cardenvs.available_games(), key=len, reverse=True) if path.stem.startswith(g))
        unless_stale_teacher(lambda: load_config(game, path))
