"""heartbreak's whole-game checks of its own: the rule IDs the code cites.

Random play (invariants, every starter pairing ends with Turbo windows used), the text helpers, the RULES.md tables
and the AEC env are checked for every game in tests/contract/test_game_contract.py."""
from __future__ import annotations

from pathlib import Path

from cardenvs.games import heartbreak


def test_every_rule_id_the_code_cites_is_in_the_rules_md_table() -> None:
    """Issue 39 finding 5: the code and RULES.md name the same rules (state.py cited HB-H11, an ID no table had)."""
    import re

    folder = Path(heartbreak.__file__).parent
    table = set(re.findall(r"^\| (HB-[A-Z]+\d+) \|", (folder / "RULES.md").read_text(), re.M))
    missing = []
    for path in sorted(folder.glob("*.py")):
        for m in re.finditer(r"HB-([A-Z]+\d+)((?:/[A-Z]+\d+)*)", path.read_text()):
            ids = ["HB-" + m.group(1)] + ["HB-" + x for x in m.group(2).split("/") if x]
            missing += [f"{path.name}: {i}" for i in ids if i not in table]
    assert not missing, missing
