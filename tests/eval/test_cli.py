"""The ``cardenvs`` command line: errors are one line with exit status 2; eval writes its outputs."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardenvs.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _one_line_error(capsys: pytest.CaptureFixture, argv: list[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and lines[0].startswith("cardenvs")
    return lines[0]


@pytest.mark.parametrize("argv, needle", [
    (["eval", "nosuchgame"], "unknown game 'nosuchgame'"),
    (["eval", "levelneo", "--decks", "aggro", "missing-deck.toml"], "missing-deck.toml"),
    (["eval", "levelneo", "--decks", "aggro", "nosuchstarter"], "nosuchstarter"),
    (["eval", "levelneo", "--games", "abc"], "--games"),
    (["eval", "levelneo", "--games", "0"], "--games"),
    (["eval", "levelneo", "--ci-width", "2"], "--ci-width"),
    (["eval", "levelneo", "--bogus-flag"], "--bogus-flag"),
    (["eval", "levelneo", "--agent", "nonsense"], "nonsense"),
    (["eval", "levelneo", "--decks", "aggro"], "at least two"),
    (["eval", "levelneo", "--sprt", "aggro", "control", "--elo0", "10", "--elo1", "5"], "--elo1"),
    (["eval", "levelneo", "--backend", "spark"], "--backend"),
    (["frobnicate"], "frobnicate"),
    (["decks", "list", "nosuchgame"], "unknown game"),
    (["decks", "validate", "missing.toml", "--game", "levelneo"], "missing.toml"),
    # issue 13: silent wrong results and tracebacks for flags
    (["eval", "levelneo", "--games", "3"], "even"),
    (["eval", "levelneo", "--sprt", "aggro", "control", "--elo1", "inf"], "--elo1"),
    (["eval", "levelneo", "--sprt", "aggro", "control", "--elo0", "nan"], "--elo0"),
    (["eval", "levelneo", "--bootstrap", "1000000000"], "--bootstrap"),
    (["eval", "levelneo", "--bootstrap", "1e9"], "--bootstrap"),
    (["eval", "levelneo", "--ci-width", "0.1", "--max-games", "1"], "--max-games"),
    (["decks"], "list, validate, random or optimize"),
])
def test_user_errors_are_one_line_and_exit_2(capsys, spec, argv, needle) -> None:
    assert needle in _one_line_error(capsys, argv)


@pytest.mark.parametrize("argv, prog", [
    (["balance", "simulfight", "--games", "10"], "cardenvs balance"),
    (["decks", "list", "levelneo", "--bogus"], "cardenvs decks list"),
    (["eval", "levelneo", "stray"], "cardenvs eval"),
    (["--bogus"], "cardenvs"),
])
def test_an_unknown_argument_points_to_its_own_commands_help(capsys, argv, prog) -> None:
    """``cardenvs balance GAME --games 10`` said "see cardenvs --help", the page that lists no balance options."""
    line = _one_line_error(capsys, argv)
    assert line.startswith(f"{prog}: error: unrecognized arguments:") and line.endswith(f"(see {prog} --help)"), line


def test_a_file_no_game_can_read_is_reported_once(capsys, tmp_path) -> None:
    """Without ``--game`` a deck is tried against every game; the same TOML error five times over is one error."""
    bad = tmp_path / "bad.toml"
    bad.write_text("not toml at all\n")
    line = _one_line_error(capsys, ["decks", "validate", str(bad)])
    assert line.count("malformed TOML") == 1 and "bad.toml" in line, line


def test_illegal_deck_file_is_one_line(capsys, spec, tmp_path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\n[cards]\n"Ember Squire" = 3\n')  # far too few cards
    line = _one_line_error(capsys, ["eval", "levelneo", "--decks", "aggro", str(bad)])
    assert "bad.toml" in line and "40" in line
    line = _one_line_error(capsys, ["decks", "validate", str(bad), "--game", "levelneo"])
    assert "bad.toml" in line
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('name = "x"\n[cards]\n"No Such Card" = 3\n')
    assert "No Such Card" in _one_line_error(capsys, ["decks", "validate", str(unknown), "--game", "levelneo"])
    broken = tmp_path / "broken.toml"
    broken.write_text("name = \n")
    assert "broken.toml" in _one_line_error(capsys, ["eval", "levelneo", "--decks", "aggro", str(broken)])


def test_help_and_deck_commands(capsys, spec) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "eval" in out and "decks" in out and "Examples" in out
    assert main(["eval", "--help"]) == 0
    assert "--ci-width" in capsys.readouterr().out
    assert main(["decks", "list", "levelneo"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in spec.starter_decks())
    starter = spec.deck_dir / "aggro.toml"
    assert main(["decks", "validate", str(starter)]) == 0
    assert "ok" in capsys.readouterr().out
    assert main(["decks", "validate", "levelneo"]) == 0  # a game's name: all of its starter decks
    out = capsys.readouterr().out
    assert out.count("ok ") == len(spec.starter_decks())
    assert main(["games"]) == 0
    assert "levelneo" in capsys.readouterr().out


def test_eval_writes_identical_outputs_for_the_same_seed(capsys, spec, tmp_path) -> None:
    args = ["eval", "levelneo", "--decks", "aggro", "weak", "control", "--games", "16", "--seed", "5",
            "--bootstrap", "50", "--quiet"]
    assert main(args + ["--json", str(tmp_path / "a.json"), "--report", str(tmp_path / "rep")]) == 0
    assert main(args + ["--json", str(tmp_path / "b.json"), "--csv", str(tmp_path / "csv")]) == 0
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    a.pop("run"), b.pop("run")
    assert a == b
    assert a["games"] == 48 and len(a["pairings"]) == 3 and len(a["ratings"]["rows"]) == 3
    assert a["cards"] and {"gih_wr", "gns_wr", "iwd", "iwd_ci", "played_wr", "gp_wr", "iih"} <= set(a["cards"][0])
    for name in ("report.html", "heatmap.png", "ratings.png", "cards.png", "results.json", "pairings.csv"):
        assert (tmp_path / "rep" / name).stat().st_size > 0
    html = (tmp_path / "rep" / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 3 and "src='heatmap.png'" not in html
    assert (tmp_path / "csv" / "cards.csv").read_text().startswith("card,")


def test_eval_prints_tables(capsys, spec) -> None:
    assert main(["eval", "levelneo", "--decks", "aggro", "weak", "--games", "8", "--bootstrap", "20"]) == 0
    out = capsys.readouterr().out
    assert "Bradley-Terry" in out and "aggro" in out and "First player" in out


def test_sprt_from_the_command_line(capsys, spec, tmp_path) -> None:
    code = main(["eval", "levelneo", "--sprt", "burst", "weak", "--elo0", "0", "--elo1", "20", "--games", "100",
                 "--quiet", "--json", str(tmp_path / "s.json"), "--bootstrap", "0"])
    assert code == 0
    s = json.loads((tmp_path / "s.json").read_text())["sprt"]
    assert s["decision"] == "H1" and s["games"] <= 600


def test_subprocess_unknown_game_is_one_line() -> None:
    proc = subprocess.run([sys.executable, "-m", "cardenvs.cli", "eval", "nosuchgame"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "unknown game" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("content", [b"\x00\xff\xfe garbage", "caf\xe9".encode("latin-1"), b"a = " + b"[" * 3000,
                                     b'[cards]\n"Ember Squire" = 1000000000000\n',
                                     b'[cards]\n"Ember Squire" = 1000000000000000000000000000000\n'])
def test_garbage_deck_files_are_one_line(capsys, spec, tmp_path, content) -> None:
    """Issue 13: binary garbage, invalid UTF-8, deep nesting and huge counts gave tracebacks."""
    bad = tmp_path / "bad.toml"
    bad.write_bytes(content)
    assert "bad.toml" in _one_line_error(capsys, ["decks", "validate", str(bad), "--game", "levelneo"])
    assert "bad.toml" in _one_line_error(capsys, ["eval", "levelneo", "--decks", "aggro", str(bad)])


def test_seeds_past_64_bits_and_negative_seeds_are_games_of_their_own(capsys, spec, tmp_path) -> None:
    """Issue 13: ``--seed -1`` gave a traceback; ``--seed 2**64`` gave the games of ``--seed 0``."""
    outs = {}
    for seed in ("0", "-1", str(2**64)):
        path = tmp_path / f"s{seed}.json"
        assert main(["eval", "levelneo", "--decks", "aggro", "control", "--games", "8", "--seed", seed, "--quiet",
                     "--no-cards", "--bootstrap", "10", "--json", str(path)]) == 0
        outs[seed] = json.loads(path.read_text())["pairings"]
    assert outs["0"] != outs[str(2**64)] or outs["0"] != outs["-1"]
    from cardenvs.eval.tournament import derive_seeds

    assert derive_seeds(2**64, 1)[0] != derive_seeds(0, 1)[0]


def test_max_games_caps_the_first_round_of_ci_width(spec) -> None:
    """Issue 13: ``--max-games 2`` with ``--ci-width`` played 200 games."""
    from cardenvs.eval.tournament import run_tournament

    result = run_tournament("levelneo", decks=["aggro", "control"], games=200, ci_width=0.01, max_games=4, seed=0)
    assert result.tally.games == 4


def test_an_interrupted_report_leaves_no_partial_folder(spec, tmp_path, monkeypatch) -> None:
    """Issue 13: an interrupt while writing the report left a partial folder (now: write, then rename)."""
    from cardenvs.eval import report
    from cardenvs.eval.tournament import run_tournament

    summary = report.summarize(run_tournament("levelneo", decks=["aggro", "control"], games=4, seed=0), bootstrap=0)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "plot_ratings", interrupted)
    with pytest.raises(KeyboardInterrupt):
        report.write_report(summary, tmp_path / "out")
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    out = report.write_report(summary, tmp_path / "out")
    assert out.is_file() and sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    report.write_report(summary, tmp_path / "out")  # over an existing report: replaced file by file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_no_help_page_shows_a_doubled_percent_sign() -> None:
    """argparse collapses ``%%`` in an option's help but not in a description: every page, subcommands included,
    must read "95%", never "95%%"."""
    import argparse

    from cardenvs.cli import build_parser

    pages = []

    def walk(parser: argparse.ArgumentParser) -> None:
        pages.append((parser.prog, parser.format_help()))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)

    walk(build_parser())
    assert len(pages) > 8, [p for p, _ in pages]
    assert [p for p, text in pages if "%%" in text] == []


def test_a_search_pilot_is_announced_as_slow_before_the_games(capsys) -> None:
    """A search pilot costs thousands of games per game: eval says so on stderr before it plays, once per pilot,
    and says nothing for the fast pilots."""
    from cardenvs.cli.eval import warn_slow_pilots

    warn_slow_pilots(["heuristic", "random", "ppo"])
    assert capsys.readouterr().err == ""
    warn_slow_pilots(["search:4", "heuristic", "search:4", "search"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and "search:4 plays each legal action of every decision to the end 4 times" in lines[0]
    assert lines[1].endswith("try --games 2 first") and "8 times" in lines[1]
