"""Every rule ID of ``../shared/rules-checklists/<game>.md`` is cited in the game's ``RULES.md`` (as a table row
``| ID |``) and appears in the name or docstring of a test under ``tests/games/<game>/``."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardenvs

ROOT = Path(__file__).resolve().parents[2]
CHECKLISTS = ROOT.parent / "shared" / "rules-checklists"
RULE_ID = re.compile(r"^- ([A-Z]{2}-[A-Z]+\d+)\b", re.MULTILINE)


def checklist_ids(game: str) -> list[str]:
    path = CHECKLISTS / f"{game}.md"
    if not path.is_file():
        pytest.skip(f"no checklist at {path} (the shared folder is not beside this checkout)")
    return RULE_ID.findall(path.read_text(encoding="utf-8"))


def test_checklist_is_parsed(game_name: str) -> None:
    assert len(checklist_ids(game_name)) >= 20


def test_rules_md_cites_every_checklist_id_with_a_test(game_name: str) -> None:
    rules_md = Path(cardenvs.GAMES[game_name].replace(".", "/")).with_suffix("")
    rules_text = (ROOT / rules_md / "RULES.md").read_text(encoding="utf-8")
    test_files = (ROOT / "tests" / "games" / game_name).glob("test_*.py")
    tests_text = "".join(p.read_text(encoding="utf-8") for p in test_files)
    missing_doc = [rid for rid in checklist_ids(game_name) if f"| {rid} |" not in rules_text]
    missing_test = [rid for rid in checklist_ids(game_name)
                    if rid not in tests_text and rid.replace("-", "_") not in tests_text]
    assert not missing_doc, f"RULES.md of {game_name} does not cite: {', '.join(missing_doc)}"
    assert not missing_test, f"no test of {game_name} names: {', '.join(missing_test)}"
