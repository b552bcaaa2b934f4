"""Deliberate breakage for simulfight (issue 12): break one rule at a time with a one-line change, run the game's tests,
restore. The table in cardenvs/games/simulfight/RULES.md ("Deliberate breakage") comes from this script.

    python tests/games/simulfight/deliberate_breakage.py            # every break (about 2 minutes each on 2 cores)
    python tests/games/simulfight/deliberate_breakage.py SF-C9 SF-D4  # some of them

It works in a temporary copy of the committed tree (``git archive HEAD``), never in the checkout, so nobody else's
run sees a broken rule. Prints one tab-separated line per break: rule, change, failing tests (or NOT CAUGHT).
"""
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
G = "cardenvs/games/simulfight/"
BREAKS = [
    ("SF-S2", G + "state.py", "START_HEALTH = 20", "START_HEALTH = 21", "state.py: START_HEALTH 20 -> 21"),
    ("SF-R3", G + "state.py", "DRAW_PER_ROUND = 2", "DRAW_PER_ROUND = 1", "state.py: DRAW_PER_ROUND 2 -> 1"),
    ("SF-R4", G + "rules.py", "row[res + S.RES_SHIELDS] = max(0, rnd + row[nxt + S.RES_SHIELDS])",
     "row[res + S.RES_SHIELDS] = max(0, rnd - 1 + row[nxt + S.RES_SHIELDS])", "rules.py start_round: shields = round - 1"),
    ("SF-R5", G + "rules.py", "            row[nxt + r] = 0\n", "            pass\n",
     "rules.py start_round: next-round changes not cleared"),
    ("SF-R6", G + "rules.py", "max(0, row[res + S.RES_GOLD] + S.GOLD_PER_ROUND + row[nxt + S.RES_GOLD])",
     "max(0, S.GOLD_PER_ROUND + row[nxt + S.RES_GOLD])", "rules.py start_round: gold does not carry over"),
    ("SF-D4", G + "rules.py", "            return not any_mandatory(row, cards, p)", "            return True",
     "rules.py action_legal: done legal with a mandatory ability pending"),
    ("SF-C2/C6", G + "rules.py", "row[S.UNIT_HEALTH + at] >= amount and row[S.PROTECTED + at] == 0",
     "row[S.UNIT_HEALTH + at] >= amount", "rules.py can_pay_with: a Protected ally may pay a health cost"),
    ("SF-C5", G + "effects.py", "    elif op == OP_HEAL:\n        if health > 0:", "    elif op == OP_HEAL:\n        if True:",
     "effects.py affect_own_unit: heal a unit at 0 or less"),
    ("SF-C6", G + "rules.py", "if damage > 0 and row[S.PROTECTED + at] == 0 and row[S.UNIT_HEALTH + at] > 0:",
     "if damage > 0 and row[S.UNIT_HEALTH + at] > 0:", "rules.py resolve_phase: damage lands on Protected units"),
    ("SF-C7", G + "rules.py", "if row[S.UNIT_HEALTH + at] <= 0 or row[S.STUNNED + at] != 0:",
     "if row[S.UNIT_HEALTH + at] <= 0:", "rules.py can_use: a Stunned unit uses its ability"),
    ("SF-C8", G + "rules.py", "if row[S.UNIT_HEALTH + at] <= 0 or row[S.STUNNED + at] != 0:",
     "if row[S.STUNNED + at] != 0:", "rules.py can_use: a unit at 0 health uses its ability"),
    ("SF-C9", G + "effects.py", "            if target == TG_OTHER_ALLIES and inst == source:\n                continue",
     "            if target == TG_OTHER_ALLIES and inst == source:\n                pass",
     "effects.py apply_entry: other_allies includes the source"),
    ("SF-E1", G + "rules.py", "            if row[S.UNIT_HEALTH + at] > 0:\n                row[base + k] = inst",
     "            if row[S.UNIT_HEALTH + at] >= 0:\n                row[base + k] = inst", "rules.py resolve_phase: units at 0 stay in play"),
    ("SF-E2", G + "rules.py", "row[H_WINNER] = 0 if h0 > h1 else", "row[H_WINNER] = 0 if h0 >= h1 else",
     "rules.py resolve_phase: equal health is a win for player 0"),
    ("SF-E3", G + "rules.py", "        if n == 0:\n            return\n        for j in range(n):",
     "        if n >= 0:\n            return\n        for j in range(n):", "rules.py draw_card: no reshuffle of the discard"),
    ("SF-E4", G + "rules.py", "    if rnd > S.ROUND_CAP:  # SF-E4", "    if rnd > S.ROUND_CAP + 1:  # SF-E4",
     "rules.py start_round: the cap one round late"),
    ("G3 (#22)", G + "effects.py", "        health -= row[S.IN_DAMAGE + at]", "        health -= 0",
     "effects.py foe_view_health: the plan does not see its own queued damage"),
    ("SF-R2 timing (C1)", G + "rules.py", "        return row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_GOLD] >= cheapest_unseen(row, cards, p)",
     "        return row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_GOLD] >= cheapest_hand(row, cards, p)",
     "rules.py has_choice: close a Defend plan when no card in hand is affordable (the old rule)"),
    ("SF-R2 obs", G + "observe.py", "    out[op + L.PLAYER_HEALTH] = row[snap + S.SP_HEALTH] / 10.0",
     "    out[op + L.PLAYER_HEALTH] = row[S.HEALTH + q] / 10.0",
     "observe.py observe_row: the opponent's live health instead of the phase-start one"),
    ("SF-E5", G + "rules.py", "            row[S.IN_DAMAGE + s * S.MAX_DECK + j] = 0\n", "            pass\n",
     "rules.py resolve_phase: queued unit damage not cleared after landing"),
    ("issue 18", G + "rules.py", "    for i in range(states.shape[0]):\n        errors[i] = 0\n        if players[i] >= 0:",
     "    for i in range(states.shape[0]):\n        if players[i] >= 0:",
     "rules.py batch_step: skipped rows keep a stale error"),
    ("issue 14 ids", G + "cards.py", '    out["id"] = np.arange(n) + 1.0', '    out["id"] = np.arange(n) + 0.0',
     "cards.py card_features: the card id is the pool index (0 for the first card) instead of index + 1"),
]
EXTRA = {  # helper the C1 break needs (the old rule: cheapest card *in hand*)
    "SF-R2 timing (C1)": ("@njit(S.NB_BOOL(S.NB_ROW, S.NB_CARDS, S.NB_INT), cache=True)\ndef has_choice(",
        "@njit(S.NB_INT(S.NB_ROW, S.NB_CARDS, S.NB_INT), cache=True)\ndef cheapest_hand(row, cards, p):\n    best = 1 << 30\n"
        "    for j in range(row[S.HAND_COUNT + p]):\n        best = min(best, cards[row[S.DECK_LIST + p * S.MAX_DECK + row[S.HAND + p * S.MAX_DECK + j]], C_GOLD])\n"
        "    return best\n\n\n@njit(S.NB_BOOL(S.NB_ROW, S.NB_CARDS, S.NB_INT), cache=True)\ndef has_choice("),
}
only = set(sys.argv[1:])
tmp = tempfile.TemporaryDirectory(prefix="simulfight_breaks_")
ROOT = Path(tmp.name)
subprocess.run(f"git archive HEAD | tar -x -C {ROOT}", shell=True, cwd=REPO, check=True)
for rule, rel, old, new, what in BREAKS:
    if only and rule not in only:
        continue
    path = ROOT / rel
    text = path.read_text()
    assert text.count(old) >= 1, (rule, old)
    broken = text.replace(old, new, 1)
    if rule in EXTRA:
        a, b = EXTRA[rule]
        broken = broken.replace(a, b, 1)
    path.write_text(broken)
    t = time.time()
    try:
        out = subprocess.run([sys.executable, "-m", "pytest", "tests/games/simulfight", "-q", "-p", "no:cacheprovider"],
                             cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NUMBA_NUM_THREADS": "1"}).stdout
    finally:
        path.write_text(text)
    failed = re.findall(r"^FAILED (\S+)", out, flags=re.M)
    errors = re.findall(r"^ERROR (\S+)", out, flags=re.M)
    tail = out.strip().splitlines()[-1] if out.strip() else "(no output)"
    print(f"{rule}\t{what}\t{'; '.join(f.split('::')[-1] for f in failed + errors) or 'NOT CAUGHT'}\t{tail}\t{time.time()-t:.0f}s",
          flush=True)
