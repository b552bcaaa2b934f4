"""Whole-game checks: random play invariants, every starter pairing ends.

The text helpers, the RULES.md tables and the AEC env are checked for every game in tests/contract/."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE
from cardenvs.games import heartbreak
from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.state import ST_WINDOW
from cardenvs.testing import check_game


def test_random_play_keeps_every_invariant() -> None:
    """Conservation, masks, termination, hidden information and single == batch over random games."""
    report = check_game("heartbreak", num_games=60, batch_size=60, align_games=2)
    assert report.games == 60 and report.terminated + report.truncated == 60
    assert report.hidden_checks > 0 and report.hidden_changed > 0


def test_random_play_every_starter_pairing_ends_with_turbo_windows_used() -> None:
    names = SPEC.starter_decks()
    pairs = [(a, b) for a in names for b in names] * 4
    g = BatchGame(SPEC, len(pairs), decks=pairs, seed=11)
    rng = np.random.default_rng(0)
    windows = 0
    for _ in range(5000):
        live = g.status == LIVE
        if not live.any():
            break
        mask = g.legal_mask()
        assert (mask[live].sum(axis=1) > 0).all()
        windows += int((SPEC.state_layout.get(g.states, "step")[live] == ST_WINDOW).sum())
        g.step((rng.random(mask.shape) * mask).argmax(axis=1))
    assert (g.status != LIVE).all()
    assert windows > 0  # Turbo answers really are decisions in random play


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
