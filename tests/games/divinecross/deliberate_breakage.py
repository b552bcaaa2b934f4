# ruff: noqa: E501  (the break table is data: one line per break)
"""Deliberate breakage (issue 12, C4): ``python tests/games/divinecross/deliberate_breakage.py [RULE-ID ...]``.

Copies the repository (``git archive HEAD`` plus the working files of this game, its tests and its heuristic) to a
temporary folder, then for each entry of ``BREAKS`` applies the one-line change there, runs this game's tests
(``NUMBA_DISABLE_JIT=1``: the scenario tests are small, so interpreting the kernels is faster than compiling them
again for every break), prints the first failing test (or NOT CAUGHT) and restores the line. The working tree is
never modified. The table in RULES.md ("Deliberate breakage") is this script's output.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
G = "cardenvs/games/divinecross/"
BREAKS = [
    ("DC-K2", G + "rules.py", "skill_usable", "    if row[H_TURN] == 1:  # DC-K2", "    if row[H_TURN] == -1:  # DC-K2"),
    ("DC-N3", G + "rules.py", "skill_usable", "    if row[S.STUNNED + p] != 0:\n        return False", "    if row[S.STUNNED + p] == 9:\n        return False"),
    ("DC-R5", G + "rules.py", "mask_row", "row[S.RETREATED + p] == 0 and row[S.STUNNED + p] == 0 \\", "row[S.RETREATED + p] == 0 and True \\"),
    ("DC-C1", G + "rules.py", "mask_row", "            if row[S.CHARGED + p] == 0:", "            if True:"),
    ("DC-E2", G + "rules.py", "card_playable", "        return row[S.EVENT_PLAYED + p] == 0", "        return True"),
    ("DC-U3", G + "rules.py", "card_playable", "        return row[S.STANDBY_COUNT + p] < S.STANDBY_CAP", "        return row[S.STANDBY_COUNT + p] < S.STANDBY_CAP - 1"),
    ("DC-R2", G + "rules.py", "retreat", "    discard_energy(row, p, m, retreat_cost(row, ctab, p, m))", "    discard_energy(row, p, m, 0)"),
    ("DC-T2", G + "rules.py", "advance (ST_DRAW)", "            draw_cards(row, tp, 1)", "            draw_cards(row, tp, 0)"),
    ("DC-N4", G + "rules.py", "advance (ST_END stage 0)", "deal(row, tp, row[S.MAIN + tp], S.POISON_DAMAGE)", "deal(row, tp, row[S.MAIN + tp], 0)"),
    ("DC-N2", G + "rules.py", "advance (ST_END stage 1)", "                row[S.STUNNED + tp] = 0", "                pass"),
    ("DC-S5", G + "rules.py", "advance (ST_SETUP_PLACE)", "            lack1 = not has_unit_in_hand(row, ctab, 1)", "            lack1 = False"),
    ("DC-S6", G + "rules.py", "apply_action (ST_EXTRA_DRAW)", "            row[S.EXTRA_LEFT + p] -= 1", "            row[S.EXTRA_LEFT + p] -= 0"),
    ("timing", G + "rules.py", "forced_in_public", "        return row[S.HAND_COUNT + p] == 0", "        return True"),
    ("timing-S4", G + "rules.py", "forced_in_public", "    if st == S.ST_SETUP_PLACE:\n        return False", "    if st == S.ST_SETUP_PLACE:\n        return True"),
    ("issue-18", G + "rules.py", "batch_step", "        errors[i] = 0  # issue 18: a skipped row never keeps a stale error", "        pass"),
    ("DC-O1", G + "board.py", "check_ko", "        if m >= 0 and row[S.DAMAGE + p * S.DECK_SIZE + m] >= unit_hp(row, ctab, p, m):", "        if m >= 0 and row[S.DAMAGE + p * S.DECK_SIZE + m] > unit_hp(row, ctab, p, m):"),
    ("DC-V1", G + "board.py", "check_ko", "    lose0 = row[S.KO_COUNT] >= S.KO_LIMIT", "    lose0 = row[S.KO_COUNT] > S.KO_LIMIT"),
    ("DC-T3", G + "board.py", "deck_out", "    deal(row, p, row[S.MAIN + p], S.DECKOUT_DAMAGE)", "    deal(row, p, row[S.MAIN + p], 0)"),
    ("DC-O4", G + "board.py", "ko_unit", "    discard_attached(row, p, unit)\n", "    pass\n"),
    ("DC-A4", G + "effects.py", "skill_damage", "        dmg *= 2", "        dmg *= 1"),
    ("DC-A2", G + "effects.py", "skill_damage", "    dmg = best_order(dmg, plus, minus, 0)", "    dmg = max(0, dmg + plus - minus)"),
    ("DC-U7", G + "observe.py", "observe_row", "            out[ko + card_of(row, q, row[S.KO + q * S.KO_CAP + k])] += 1.0", "            pass"),
]


def copy_repo(dest: Path) -> None:
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=REPO, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    for rel in (G, "tests/games/divinecross/", "cardenvs/core/", "agents/"):
        shutil.copytree(REPO / rel, dest / rel, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    shutil.copy2(REPO / "cardenvs/__init__.py", dest / "cardenvs/__init__.py")


def main(only: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="dc_breaks_") as tmp:
        root = Path(tmp)
        copy_repo(root)
        env = {**os.environ, "PYTHONPATH": str(root), "NUMBA_NUM_THREADS": "1", "NUMBA_DISABLE_JIT": "1"}
        for rid, path, func, old, new in BREAKS:
            if only and rid not in only:
                continue
            f = root / path
            text = f.read_text()
            assert text.count(old) == 1, (rid, old)
            f.write_text(text.replace(old, new))
            try:
                r = subprocess.run([sys.executable, "-m", "pytest", "tests/games/divinecross", "-q", "-x",
                                    "-p", "no:cacheprovider", "--deselect",
                                    "tests/games/divinecross/test_divinecross_game.py::"
                                    "test_random_play_keeps_every_invariant"],
                                   cwd=root, capture_output=True, text=True, env=env, timeout=900)
                failed = re.findall(r"FAILED (\S+)", r.stdout)
                print(f"{rid} | {path} {func} | {failed[0].split('::')[-1] if failed else 'NOT CAUGHT'}", flush=True)
            finally:
                f.write_text(text)


if __name__ == "__main__":
    main(sys.argv[1:])
