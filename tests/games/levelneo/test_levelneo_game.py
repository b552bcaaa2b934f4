"""levelneo's whole-game checks of its own: the observation's hand slots, RULES.md's checklist IDs, observed AP.

Random play (invariants, every starter pairing ends), hide() against the observation, the text helpers, the RULES.md
tables and the AEC env are checked for every game in tests/contract/test_game_contract.py; same seed, same game in
tests/core/test_invariants.py."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.games import levelneo
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.observe import OBS
from cardenvs.games.levelneo.state import HAND_CAP


def test_observation_shows_every_hand_slot() -> None:
    """LN-D5's hand limit: the observation has a block for each of the HAND_CAP (16) hand slots."""
    g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=2)
    obs = g.observe([0])[0]
    assert HAND_CAP == 16 and OBS.get(obs, "hand").shape == (16, OBS["hand"].shape[1])


def test_rules_md_cites_every_checklist_id_and_a_test() -> None:
    rules = (Path(levelneo.__file__).parent / "RULES.md").read_text()
    ids = [f"LN-{k}{i}" for k, n in (("D", 4), ("S", 5), ("T", 10), ("K", 5), ("A", 7), ("C", 3), ("L", 6),
                                        ("B", 6), ("J", 8), ("V", 3)) for i in range(1, n + 1)]
    here = Path(__file__).parent
    test_text = "".join(p.read_text() for p in here.glob("test_*.py"))
    for rid in ids:
        assert f"| {rid} |" in rules, rid
        assert rid.replace("-", "_") in test_text or rid in test_text, rid


def test_observed_ap_equals_the_rules_ap() -> None:
    """The observation finds the [Cont] skills in force once per row (active_conts + cont_deltas + ap_now); every
    character's observed AP must equal the rules' own compute_ap (LN-K1, LN-L4) in states from random play."""
    from cardenvs.games.levelneo.board import support_at
    from cardenvs.games.levelneo.effects import compute_ap
    from cardenvs.games.levelneo.obs_layout import AP_UNIT, CHAR, CHAR_AP_NOW
    from cardenvs.games.levelneo.state import DECK_SIZE, FACE_UP, MAIN, SUPPORT_CAP, SUPPORT_COUNT

    g = BatchGame(SPEC, 64, decks=("machine", "burst"), seed=5, autoreset=True, parallel=False)
    rng = np.random.default_rng(2)
    width = CHAR.size
    ap_col = CHAR_AP_NOW
    checked = 0
    for _ in range(300):
        players = g.to_act.copy()
        obs = g.observe(players).copy()
        for i in np.flatnonzero(players >= 0):
            row, p = g.states[i], int(players[i])
            for side, q in enumerate((p, 1 - p)):
                insts = [(OBS.offset("supports") + (side * SUPPORT_CAP + s) * width, support_at(row, q, s))
                         for s in range(row[SUPPORT_COUNT + q])]
                main = int(row[MAIN + q])
                if main >= 0 and (q == p or row[FACE_UP + q * DECK_SIZE + main] != 0):
                    insts.append((OBS.offset("main") + side * width, main))
                for at, inst in insts:
                    want = compute_ap(row, g.pool.tables, q, inst)
                    assert int(obs[i, at + ap_col]) * AP_UNIT == want  # stored in hundreds, exactly
                    checked += 1
        mask = g.legal_mask(players)
        g.step(np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1).astype(np.int32), players=players)
    assert checked > 500
