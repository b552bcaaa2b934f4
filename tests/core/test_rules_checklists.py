"""Every rule ID of a game's numbered rules checklist (``CHECKLIST.md`` in its folder) is cited in its ``RULES.md``
(as a table row ``| ID |``) and appears in the name or docstring of a test under ``tests/games/<game>/``.

The checklists were written outside the repository (``../shared/rules-checklists/<game>.md``); the copy in the game
folder is the one the project reads. Where the shared folder sits beside this checkout, a test says when the two
differ."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardenvs.core.registry import game_dir

ROOT = Path(__file__).resolve().parents[2]
SHARED_CHECKLISTS = ROOT.parent / "shared" / "rules-checklists"
RULE_ID = re.compile(r"^- ([A-Z]{2}-[A-Z]+\d+)\b", re.MULTILINE)


def checklist_path(game: str) -> Path:
    return game_dir(game) / "CHECKLIST.md"


def checklist_ids(game: str) -> list[str]:
    return RULE_ID.findall(checklist_path(game).read_text(encoding="utf-8"))


def test_checklist_is_parsed(game_name: str) -> None:
    assert len(checklist_ids(game_name)) >= 20


def test_rules_md_cites_every_checklist_id_with_a_test(game_name: str) -> None:
    rules_text = (game_dir(game_name) / "RULES.md").read_text(encoding="utf-8")
    test_files = (ROOT / "tests" / "games" / game_name).glob("test_*.py")
    tests_text = "".join(p.read_text(encoding="utf-8") for p in test_files)
    missing_doc = [rid for rid in checklist_ids(game_name) if f"| {rid} |" not in rules_text]
    missing_test = [rid for rid in checklist_ids(game_name)
                    if rid not in tests_text and rid.replace("-", "_") not in tests_text]
    assert not missing_doc, f"RULES.md of {game_name} does not cite: {', '.join(missing_doc)}"
    assert not missing_test, f"no test of {game_name} names: {', '.join(missing_test)}"


def test_the_checklist_is_the_shared_one(game_name: str) -> None:
    shared = SHARED_CHECKLISTS / f"{game_name}.md"
    if not shared.is_file():
        pytest.skip(f"no shared checklist at {shared} (the shared folder is not beside this checkout)")
    assert checklist_path(game_name).read_text(encoding="utf-8") == shared.read_text(encoding="utf-8"), (
        f"{checklist_path(game_name)} and {shared} differ: copy the newer one over the older")
