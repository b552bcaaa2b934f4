"""Deliberate breakage of relics rules (RULES.md "Deliberate breakage table"): apply one one-line change, run the
scenario tests as pure Python (NUMBA_DISABLE_JIT=1: seconds, no recompile), restore the file; print the failing
tests. Not collected by pytest. Run: ``python tests/games/relics/deliberate_breakage.py [RULE-ID ...]``."""
import json, subprocess, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
G = "cardenvs/games/relics/"
BREAKS = [
    ("RL-M1", G + "rules.py", "resolve_pending", "the used card may be taken back by its own take-back (exclusion removed)",
     "            row[S.PEND_TARGET] = inst  # ... nor be chosen by its own take-back\n",
     "            row[S.PEND_TARGET] = -1\n"),
    ("RL-G13", G + "rules.py", "advance", "the battle-turn cap never applies (`elif False and ...`)",
     "                elif row[S.BATTLE_TURNS] >= S.BATTLE_TURN_CAP:", "                elif False and row[S.BATTLE_TURNS] >= S.BATTLE_TURN_CAP:"),
    ("RL-K5", G + "rules.py", "resolve_attack", "any Fight by a Ranged character is a Ranged attack (the old reading)",
     "    ranged = mode == MODE_THROW or (mode == MODE_FIGHT and distance(row, p, att, q, tgt) >= 2)",
     "    ranged = mode == MODE_THROW or (mode == MODE_FIGHT and (a_skills & SK_RANGED) != 0)"),
    ("RL-K12", G + "rules.py", "discard_choice", "the thrower does not go Down",
     "        row[S.DOWN + p * S.MAX_DECK + att] = 1\n        resolve_attack(row, tables, p, att, 1 - p, tgt, MODE_THROW)",
     "        resolve_attack(row, tables, p, att, 1 - p, tgt, MODE_THROW)"),
    ("RL-K9", G + "rules.py", "granted_jump", "equipment/relics never grant a Jump on attachment",
     "    if (sk & SK_JUMP) != 0 and not is_down(row, p, c) and row[S.PARTY_COUNT + 1 - p] > 0:",
     "    if False and (sk & SK_JUMP) != 0 and not is_down(row, p, c) and row[S.PARTY_COUNT + 1 - p] > 0:"),
    ("RL-G7", G + "rules.py", "advance", "the location effect never goes off (call removed)",
     "            location_effect(row, tables, 0)  # RL-G7, then the battle phase (RL-G9)\n",
     "            row[S.STEP] = S.ST_BATTLE\n"),
    ("RL-G4", G + "observe.py", "observe_row", "the opponent's leader card is always observed",
     "        if q == p or row[S.LEADER_SHOWN + q] != 0:", "        if True:"),
    ("RL-A1", G + "rules.py", "resolve_attack", "a Fight needs ATT above DEF (not equal)",
     "    hit = power >= def_of(row, tables, q, tgt)", "    hit = power > def_of(row, tables, q, tgt)"),
    ("RL-K7", G + "rules.py", "resolve_attack", "Counter needs ATT above the attacker's DEF",
     "        back = att_of(row, tables, q, tgt) >= def_of(row, tables, p, att)", "        back = att_of(row, tables, q, tgt) > def_of(row, tables, p, att)"),
    ("RL-K1", G + "board.py", "immune", "standing Black characters are not immune to Black spells",
     "        return (s & SK_BLACK) != 0", "        return False"),
    ("RL-G10", G + "rules.py", "battle_action", "three passes in a row are needed to Up everything",
     "        if row[S.PASSES] >= 2:  # RL-G10", "        if row[S.PASSES] >= 3:  # RL-G10"),
    ("RL-P3", G + "board.py", "depth", "an empty front row does not collapse",
     "    return 1 if row_count(row, p, 0) > 0 else 0", "    return 1"),
    ("RL-B6", G + "rules.py", "advance", "the winner may keep 4 characters",
     "            if row[S.KEPT] < S.RESERVE_TARGET and row[S.PARTY_COUNT + w] > 0:", "            if row[S.KEPT] < S.RESERVE_TARGET + 1 and row[S.PARTY_COUNT + w] > 0:"),
    ("RL-K6", G + "rules.py", "resolve_attack", "Steal owes no discard",
     "            row[S.STEAL_OWED + q] += 1", "            row[S.STEAL_OWED + q] += 0"),
    ("RL-E7", G + "rules.py", "resolve_attack", "Jump and Throw use the current ATT, not the printed one",
     "    power = att_of(row, tables, p, att) if mode == MODE_FIGHT else printed_att(row, ctab, p, att)",
     "    power = att_of(row, tables, p, att)"),
    ("RL-V1", G + "rules.py", "start_resolution", "5 relics are needed to win",
     "            if relic_count(row, w) >= S.RELICS_TO_WIN:  # RL-V1", "            if relic_count(row, w) >= S.RELICS_TO_WIN + 1:  # RL-V1"),
    ("RL-B7", G + "rules.py", "apply_action", "Resolution draws up to 2, not 3",
     "            while row[S.HAND_COUNT + p] < S.OPENING_HAND_SIZE and draw_item(row, p):", "            while row[S.HAND_COUNT + p] < S.OPENING_HAND_SIZE - 1 and draw_item(row, p):"),
    ("timing", G + "rules.py", "settle", "decisions that depend on a hidden pending card are auto-played again",
     "        if pending_is_hidden(row):\n            return\n", "\n"),
    ("RL-Z4", G + "effects.py", "apply_op", "a reclaimed or raised card is not marked known (hide re-deals it)",
     "    mark_known(row, p, inst)  # it came from a face-up pile\n", "\n"),
    ("RL-Z6", G + "rules.py", "pile_choice", "a take-back takes the most recent matching card, not the chosen one",
     "    take_back(row, ctab, p, op, pile_candidate(row, ctab, p, op, row[S.PEND_TARGET], cid))",
     "    take_back(row, ctab, p, op, pile_candidate(row, ctab, p, op, row[S.PEND_TARGET], -1))"),
    ("RL-E2", G + "rules.py", "free_host", "a character may carry two attachments",
     "        if row[S.ATTACHED + p * S.MAX_DECK + c] >= 0:\n            continue\n        if equip_card", "        if equip_card"),
    ("RL-U3", G + "rules.py", "mask_row", "a Down character may Fight",
     "                if up and can_reach(row, ctab, p, att, q, tgt, (sk & SK_RANGED) != 0):", "                if can_reach(row, ctab, p, att, q, tgt, (sk & SK_RANGED) != 0):"),
]
only = set(sys.argv[1:])
results = []
for rid, path, func, what, old, new in BREAKS:
    if only and rid not in only:
        continue
    f = ROOT / path
    orig = f.read_text()
    assert orig.count(old) == 1, (rid, old)
    try:
        f.write_text(orig.replace(old, new))
        r = subprocess.run(["pytest", "tests/games/relics/test_relics_rules.py", "tests/games/relics/test_relics_defects.py",
                            "-q", "-p", "no:cacheprovider", "-W", "ignore", "--no-header", "-rf"],
                           cwd=ROOT, capture_output=True, text=True, env={**__import__("os").environ, "NUMBA_DISABLE_JIT": "1"})
    finally:
        f.write_text(orig)
    failed = [l.split("::")[1].split(" ")[0] for l in r.stdout.splitlines() if l.startswith("FAILED")]
    results.append((rid, path.replace(G, ""), func, what, failed))
    print(rid, func, what, "->", failed, flush=True)
print(json.dumps(results, indent=1))
