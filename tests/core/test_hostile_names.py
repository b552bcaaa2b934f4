"""Issue 43, finding 7: one hostile name pushed through every output medium.

A card pool, a deck file and a policy path whose names carry a spreadsheet formula, mathtext, rich markup, terminal
escape sequences and an HTML comment opener travel through ``cardenvs eval --report/--csv/--json`` (HTML, PNG
plots, CSV, JSON, text), ``balance`` (text, CSV, JSON, plot, HTML), ``cards`` (table and JSON), ``play`` (the
terminal), ``replay`` (the terminal viewer) and the HTML replay viewer. Every medium must show the name as text:
no crash, no raw escape character on a terminal, nothing eaten as markup, no HTML the name opens, no CSV cell a
spreadsheet runs. The escaping functions themselves (``cardenvs.core.escaping``) are checked first.
"""
from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from cardenvs.core import escaping

GAME = "simulfight"
#: a formula for CSV, mathtext for matplotlib, markup for rich, escape sequences (window title, clear screen, bell)
#: for terminals, a C1 CSI and a right-to-left override, and an HTML comment opener for the replay viewer's script
HOSTILE = "=HYPERLINK(\"x\")$\\frac{$[/][bold]shown[/bold]\x1b]0;pwned\x07\x1b[2J\x9b31m\u202e<!--<script>alert(1)//"
#: the same without "/" and NUL, for a file name
HOSTILE_FILE = HOSTILE.replace("/", "|")
RAW = ("\x1b", "\x07", "\x9b", "\u202e")


def toml_str(text: str) -> str:
    """A TOML basic string holding ``text`` (JSON's escapes are TOML's; DEL must be escaped in TOML)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def assert_terminal_safe(text: str, where: str) -> None:
    bad = [c for c in RAW if c in text]
    assert not bad, f"{where}: raw control characters {bad!r} reach the terminal: {text[:300]!r}"


# ----- the escaping functions ---------------------------------------------------------------------------------------
def test_terminal_escape_shows_controls_and_keeps_text() -> None:
    out = escaping.terminal(HOSTILE)
    assert_terminal_safe(out, "terminal()")
    assert "\\x1b]0;pwned\\x07" in out and "\\u202e" in out and "[bold]shown" in out
    assert escaping.terminal("a\nb") == "a\\nb" and escaping.terminal("a\nb\tc", newlines=True) == "a\nb\tc"
    assert escaping.terminal("Ünïcode ok") == "Ünïcode ok"


def test_markup_escape_prints_markup_as_written() -> None:
    from rich.console import Console

    out = io.StringIO()
    Console(file=out, color_system=None, width=400).print(f"[bold]{escaping.markup(HOSTILE)}[/bold]")
    assert "[/][bold]shown[/bold]" in out.getvalue()
    assert_terminal_safe(out.getvalue(), "markup()")


def test_script_json_cannot_end_or_reopen_the_script() -> None:
    text = escaping.script_json({"name": HOSTILE + "</script>\u2028"})
    assert "<" not in text and ">" not in text and "\u2028" not in text
    assert json.loads(text) == {"name": HOSTILE + "</script>\u2028"}


def test_csv_cell_defuses_formulas_only() -> None:
    assert escaping.csv_cell("=1+1") == "'=1+1" and escaping.csv_cell("@SUM(A1)") == "'@SUM(A1)"
    assert escaping.csv_cell("-2+3") == "'-2+3" and escaping.csv_cell("Tin Sentry") == "Tin Sentry"
    assert escaping.csv_cell(-0.5) == -0.5 and escaping.csv_cell(None) is None


def test_plot_text_is_never_mathtext(tmp_path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.set_title(escaping.plot_text(HOSTILE))
    fig.savefig(tmp_path / "t.png")  # a raw "$\frac{$" raises ValueError in the mathtext parser
    plt.close(fig)


def test_json_text_escapes_what_a_terminal_acts_on() -> None:
    text = escaping.json_text({"name": HOSTILE})
    assert_terminal_safe(text, "json_text()")
    assert json.loads(text) == {"name": HOSTILE}


# ----- the files: a pool with a hostile card, decks and a policy path with hostile names --------------------------
@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict:
    import cardenvs

    spec = cardenvs.get_game(GAME)
    folder = tmp_path_factory.mktemp("hostile")
    pool_text = Path(spec.load_pool(None).paths[0]).read_text(encoding="utf-8")
    blocks = pool_text.split("[[card]]")
    archer = next(b for b in blocks if 'name = "Hedge Archer"' in b)
    pool = folder / "pool.toml"
    pool.write_text(pool_text + "\n[[card]]" + archer.replace('"Hedge Archer"', toml_str(HOSTILE)), encoding="utf-8")
    starter = (spec.deck_dir / "aggro.toml").read_text(encoding="utf-8")
    body = starter.split("[cards]", 1)[1]
    deck_with_card = folder / "with-card.toml"  # aggro with its Hedge Archer replaced by the hostile copy
    deck_with_card.write_text(f"name = {toml_str(HOSTILE)}\n\n[cards]" + body.replace('"Hedge Archer"',
                              toml_str(HOSTILE)), encoding="utf-8")
    named = folder / f"{HOSTILE_FILE}.toml"  # the shipped cards under a hostile file name and deck name
    named.write_text(f"name = {toml_str(HOSTILE)}\n\n[cards]" + body, encoding="utf-8")
    other = folder / "guard.toml"
    shutil.copyfile(spec.deck_dir / "guard.toml", other)
    return {"spec": spec, "folder": folder, "pool": pool, "deck_with_card": deck_with_card, "named": named,
            "other": other}


def _read_csv_cells(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as fh:
        return [cell for row in csv.reader(fh) for cell in row]


def _check_csv(path: Path) -> None:
    cells = _read_csv_cells(path)
    assert not [c for c in cells if c.startswith(("=", "+", "@"))], f"{path.name}: a cell is a formula"
    assert any(c == "'" + HOSTILE or c.startswith("'=HYPERLINK") for c in cells), f"{path.name}: the name is gone"


def test_eval_report_csv_json_and_text_show_the_name_as_text(hostile: dict, tmp_path: Path, capsys) -> None:
    from cardenvs.cli import main

    policy_dir = tmp_path / "[red]pol\x1b]0;t\x07"
    policy_dir.mkdir()
    policy = policy_dir / "[bold]p.npz"
    shipped = Path(__file__).resolve().parents[2] / "agents" / "policies" / f"{GAME}.npz"
    if not shipped.is_file():
        pytest.skip("no shipped simulfight policy in this checkout")
    from cardenvs.agents import default_pilot

    if default_pilot(GAME) != "ppo":
        pytest.skip("the shipped simulfight policy predates the game's observation (issue 38): retrain it with "
                    "`cardenvs train simulfight` and export it again")
    shutil.copyfile(shipped, policy)
    report, table, js = tmp_path / "report", tmp_path / "csv", tmp_path / "out.json"
    code = main(["eval", GAME, "--decks", str(hostile["named"]), str(hostile["other"]), "--games", "2",
                 "--bootstrap", "0", "--agents", "random", f"ppo:{policy}", "--report", str(report),
                 "--csv", str(table), "--json", str(js), "--save-replays", str(tmp_path / "replays"), "--replays", "2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert_terminal_safe(out + err, "eval's terminal output")
    assert "[bold]p.npz" in out, "a pilot name's [bold] was eaten as markup"
    assert "$\\frac{$[|][bold]shown[|bold]\\x" in out, "a deck label lost its markup-like text"
    page = (report / "report.html").read_text(encoding="utf-8")
    assert "<!--" not in page and "<script" not in page.lower()
    for name in ("pairings.csv", "ratings.csv"):
        for folder in (report, table):
            cells = _read_csv_cells(folder / name)
            assert not [c for c in cells if c.startswith(("=", "+", "@"))], f"{name}: a cell is a formula"
    data = json.loads(js.read_text(encoding="utf-8"))
    assert any(e["deck"] == HOSTILE for e in data["entries"]), "JSON must keep the name exactly"
    assert (report / "heatmap.png").stat().st_size > 0 and (report / "ratings.png").stat().st_size > 0
    saved = sorted((tmp_path / "replays").glob("*.json"))
    assert saved and all("\x1b" not in p.name and "$" not in p.name for p in saved)


def test_balance_outputs_show_the_card_as_text(hostile: dict, tmp_path: Path, capsys) -> None:
    from cardenvs.cli import main

    out_dir = tmp_path / "balance"
    # seed 2: two of the three random decks hold the card, in 20+ games (a card table row)
    code = main(["balance", GAME, "--pool", str(hostile["pool"]), "--decks", "3", "--opponents", "1", "--pairs", "5",
                 "--seed", "2", "--pilot", "random", "--out", str(out_dir)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert_terminal_safe(out + err, "balance's terminal output")
    assert_terminal_safe((out_dir / "balance.txt").read_text(encoding="utf-8"), "balance.txt")
    _check_csv(out_dir / "balance.csv")
    page = (out_dir / "balance.html").read_text(encoding="utf-8")
    assert "<!--" not in page and "<script" not in page.lower()
    data = json.loads((out_dir / "balance.json").read_text(encoding="utf-8"))
    assert any(r["card"] == HOSTILE for r in data["cards"])
    assert (out_dir / "balance.png").stat().st_size > 0


def test_cards_table_and_json_show_the_card_as_text(hostile: dict, capsys) -> None:
    from cardenvs.cli import main

    assert main(["cards", GAME, "--pool", str(hostile["pool"]), "--search", "HYPERLINK"]) == 0, capsys.readouterr()
    out, err = capsys.readouterr()
    assert_terminal_safe(out + err, "cards table")
    assert "[/][bold]shown[/bold]" in out.replace("\n", "") or "[/][bold]shown" in out
    assert main(["cards", GAME, "--pool", str(hostile["pool"]), "--json"]) == 0
    out, err = capsys.readouterr()
    assert_terminal_safe(out, "cards --json")
    assert any(r["name"] == HOSTILE for r in json.loads(out))


def test_play_shows_the_deck_name_as_text(hostile: dict, tmp_path: Path, capsys, monkeypatch) -> None:
    from cardenvs.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("log\n? 0\nwhy 0\nquit\n"))
    code = main(["play", GAME, "--deck", str(hostile["named"]), "--opp-deck", str(hostile["named"]), "--seed", "3",
                 "--opponent", "random", "--replay-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert_terminal_safe(out + err, "play")
    assert "[bold]shown[/bold]" in out


@pytest.fixture(scope="module")
def replay_file(hostile: dict) -> Path:
    from cardenvs.core.replay import record_match

    replay = record_match(GAME, decks=(str(hostile["deck_with_card"]), str(hostile["named"])), seed=5,
                          pilots=("heuristic", "random"), pool=hostile["spec"].load_pool([hostile["pool"]]),
                          meta={"note": HOSTILE})
    return replay.save(hostile["folder"] / "game.json")


def test_replay_terminal_viewer_shows_names_as_text(replay_file: Path, capsys, monkeypatch) -> None:
    from cardenvs.cli import main

    assert main(["replay", str(replay_file), "--step", "3"]) == 0
    out, err = capsys.readouterr()
    assert_terminal_safe(out + err, "replay --step")
    monkeypatch.setattr(sys, "stdin", io.StringIO("l\nn\nv 0\ne\nq\n"))
    assert main(["replay", str(replay_file)]) == 0
    out, err = capsys.readouterr()
    assert_terminal_safe(out + err, "replay viewer")
    assert HOSTILE not in out


def test_replay_html_viewer_cannot_be_blanked(replay_file: Path, tmp_path: Path, capsys) -> None:
    from cardenvs.cli import main

    page_path = tmp_path / "game.html"
    assert main(["replay", str(replay_file), "--html", str(page_path)]) == 0
    out, _ = capsys.readouterr()
    assert_terminal_safe(out, "replay --html")
    page = page_path.read_text(encoding="utf-8")
    assert "<!--" not in page, "an HTML comment opener in the script makes the browser swallow the page"
    # the page's own two script elements, and no third one opened by a name
    assert len(re.findall(r"<script", page, re.I)) == 2 and len(re.findall(r"</script", page, re.I)) == 2
    payload = page.split('<script id="replay-data" type="application/json">', 1)[1].split("</script>", 1)[0]
    data = json.loads(payload)
    assert any(HOSTILE in b for b in data["boards"]["all"]), "the card's name must still be shown"


def test_deck_search_outputs_show_names_as_text(hostile: dict, tmp_path: Path, capsys) -> None:
    """`decks optimize`: the start deck's name reaches the terminal and the .txt report as text, and a card name in a
    move label cannot start mathtext in the plot (both seen failing before optimize used the escaping functions)."""
    from cardenvs.cli import main
    from cardenvs.eval.optimize import _plot_steps

    code = main(["decks", "optimize", GAME, "--pool", str(hostile["pool"]), "--start", str(hostile["named"]),
                 "--budget", "1", "--confirm", "0", "--out", str(tmp_path / "best.toml")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert_terminal_safe(out, "decks optimize's terminal output")
    assert_terminal_safe((tmp_path / "best.search.txt").read_text(encoding="utf-8"), "best.search.txt")
    score = {"score": 0.5, "ci": [0.4, 0.6]}
    step = {"incumbent_score": score, "score": score, "move": f"-{HOSTILE} +{HOSTILE}"}
    assert _plot_steps({"game": GAME, "seed": 0, "steps": [step]}, tmp_path / "steps.png").stat().st_size > 0
