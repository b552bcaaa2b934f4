"""Whole-game checks: random play invariants, hidden information.

The text helpers, the RULES.md tables and the AEC env are checked for every game in tests/contract/."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE
from cardenvs.games import levelneo
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.observe import OBS
from cardenvs.testing import check_game


def test_random_play_keeps_every_invariant() -> None:
    """Conservation, masks, termination, hidden information and single == batch over random games."""
    report = check_game("levelneo", num_games=40, batch_size=40, align_games=1)
    assert report.games == 40 and report.terminated + report.truncated == 40
    assert report.hidden_checks > 0


def test_random_play_every_starter_pairing_ends() -> None:
    names = SPEC.starter_decks()
    pairs = [(a, b) for a in names for b in names]
    g = BatchGame(SPEC, len(pairs), decks=pairs, seed=11)
    rng = np.random.default_rng(0)
    for _ in range(3000):
        live = g.status == LIVE
        if not live.any():
            break
        mask = g.legal_mask()
        assert (mask[live].sum(axis=1) > 0).all()
        g.step((rng.random(mask.shape) * mask).argmax(axis=1))
    assert (g.status != LIVE).all()


def test_same_seed_same_game() -> None:
    runs = []
    for _ in range(2):
        g = BatchGame(SPEC, 4, decks=("burst", "machine"), seed=123)
        rng = np.random.default_rng(5)
        while (g.status == LIVE).any():
            mask = g.legal_mask()
            g.step((rng.random(mask.shape) * mask).argmax(axis=1))
        runs.append(g.states.copy())
    assert np.array_equal(runs[0], runs[1])


def test_observation_hides_opponent_hand_and_face_down_cards() -> None:
    g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=2)
    rng = np.random.default_rng(0)
    while g.states[0, 3] < 0 and g.status[0] == LIVE and g.states[0, 5] < 6:  # play into the game a little
        mask = g.legal_mask()
        g.step((rng.random(mask.shape) * mask).argmax(axis=1))
    row = g.states[0]
    for viewer in (0, 1):
        hidden = SPEC.hide(row, viewer, np.random.default_rng(viewer), g.pool)
        a = np.zeros((2, SPEC.obs_dim), SPEC.obs_dtype)
        SPEC.kernels.batch_observe(np.stack([row, hidden]), g.pool.tables, np.array([viewer, viewer], np.int32), a)
        assert np.array_equal(a[0], a[1])
    obs = g.observe([0])[0]
    assert OBS.get(obs, "hand").shape == (16, OBS["hand"].shape[1])


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
