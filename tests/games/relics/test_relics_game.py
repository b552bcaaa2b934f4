"""relics' whole-game checks of its own: random and stalling play end well inside the caps, observed ATT / DEF.

Random play's invariants, every starter pairing ends, hide() against the observation, the text helpers, the RULES.md
tables and the AEC env are checked for every game in tests/contract/test_game_contract.py; same seed, same game in
tests/core/test_invariants.py."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_TURN, LIVE, TERMINATED, TRUNCATED
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.state import BATTLE_TURN_CAP, DECISION_CAP
from random_play import play_out  # tests/random_play.py


@pytest.fixture(scope="module")
def random_games() -> BatchGame:
    """300 random games over every starter pairing, played to the end."""
    names = SPEC.starter_decks()
    pairs = [(a, b) for a in names for b in names]
    g = BatchGame(SPEC, 300, decks=[pairs[i % len(pairs)] for i in range(300)], seed=11)
    return play_out(g, np.random.default_rng(0), DECISION_CAP)


def test_RL_G13_V5_random_play_ends_well_inside_the_caps(random_games: BatchGame) -> None:
    """Checks RL-G13, RL-V5.
    Random games end by relics or deck-out, never truncated, within 7 battles (the character deck only shrinks)."""
    g = random_games
    assert (g.status != LIVE).all() and (g.status != TRUNCATED).all()
    # H_TURN counts the battle about to start: at most 7 are played, the 8th start ends the game (RL-V3)
    assert g.states[:, H_TURN].max() <= 8
    assert g.decisions.max() < 2_000  # measured ~250 mean; DECISION_CAP is a proven, far bound (RULES.md Caps)


def _stalling_actions(g: BatchGame, rng: np.random.Generator) -> np.ndarray:
    """A player that never passes while it can do anything else: act abilities (Dawn Cleric, Banner of Command Up a
    character, even the one that just paid), then any other action but Retreat; Pass only when nothing else is
    legal."""
    mask = g.legal_mask().astype(np.float64)
    from cardenvs.games.relics.actions import ACTIONS

    weight = np.ones(mask.shape[1])
    weight[ACTIONS.slice("ability")] = 1e6
    weight[ACTIONS.slice("leader_ability")] = 1e6
    weight[ACTIONS.offset("pass")] = 1e-6
    weight[ACTIONS.offset("retreat")] = 0.0
    score = mask * weight * (0.5 + rng.random(mask.shape))
    return score.argmax(axis=1)


def test_RL_G13_V5_stalling_play_cannot_keep_a_battle_or_a_game_going() -> None:
    """Checks RL-G13, RL-V5 (defect 2, issue 39 finding 10).
    Players that never pass when they can act used to keep a battle going (Dawn Cleric and Banner of Command Upping
    the character that just paid, Scavenger's Hooks taking each other back) until BATTLE_TURN_CAP drew it. Those
    loops are gone (RULES.md "Caps": every action lowers a bounded potential), so every battle ends by a wipe, a
    Retreat or ROUND_CAP, far below the turn cap, and every game ends."""
    decks = [(a, b) for a in SPEC.starter_decks() for b in SPEC.starter_decks()] * 5
    g = BatchGame(SPEC, len(decks), decks=decks, seed=5)
    rng = np.random.default_rng(0)
    most = 0
    for _ in range(DECISION_CAP):
        live = g.status == LIVE
        if not live.any():
            break
        g.step(_stalling_actions(g, rng))
        most = max(most, int(SPEC.state_layout.get(g.states, "battle_turns").max()))
    assert (g.status == TERMINATED).all()
    assert 0 < most < BATTLE_TURN_CAP // 4


def test_observed_stats_equal_the_rules_stats() -> None:
    """RL-E7: the observation finds the [Cont] boosts in force once per row (cont_bonuses + stat_given); every
    visible party character's observed ATT and DEF must equal the rules' own att_of / def_of in states from random
    play, including states where a [Cont] boost applies."""
    from cardenvs.games.relics.board import _cont_bonus, att_of, cont_bonuses, def_of
    from cardenvs.games.relics.cards import E_ATT, E_DEF
    from cardenvs.games.relics.obs_layout import CELL_SIZE, CELL_SLOT, O_GRID, SLOT_ATT_NOW, SLOT_DEF_NOW
    from cardenvs.games.relics.state import FACE_DOWN, MAX_DECK, PARTY_SIZE, PARTY_COUNT, PARTY, POS

    names = SPEC.starter_decks()
    pairs = [(a, b) for a in names for b in names]
    g = BatchGame(SPEC, 90, decks=[pairs[i % len(pairs)] for i in range(90)], seed=7, autoreset=True,
                  parallel=False)
    tables_ = g.pool.tables
    rng = np.random.default_rng(4)
    checked = boosted = 0
    for _ in range(250):
        players = g.to_act.copy()
        obs = g.observe(players).copy()
        for i in np.flatnonzero(players >= 0):
            row, p = g.states[i], int(players[i])
            every, single = np.zeros(2, np.int32), np.zeros(2 * MAX_DECK, np.int32)
            for column, stat_of, feature in ((E_ATT, att_of, SLOT_ATT_NOW), (E_DEF, def_of, SLOT_DEF_NOW)):
                cont_bonuses(row, tables_, column, every, single)
                for side, q in enumerate((p, 1 - p)):
                    for j in range(row[PARTY_COUNT + q]):
                        inst = int(row[PARTY + q * PARTY_SIZE + j])
                        want = _cont_bonus(row, tables_, q, inst, column)
                        assert every[q] + single[q * MAX_DECK + inst] == want
                        boosted += want != 0
                        if q != p and row[FACE_DOWN + q * MAX_DECK + inst] != 0:
                            continue  # hidden: the slot shows presence only
                        slot = int(row[POS + q * MAX_DECK + inst])
                        at = O_GRID + (side * PARTY_SIZE + slot) * CELL_SIZE + CELL_SLOT + feature
                        assert obs[i, at] == stat_of(row, tables_, q, inst)  # stored as it is (divide_by 10)
                        checked += 1
        mask = g.legal_mask(players)
        g.step(np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1).astype(np.int32), players=players)
    assert checked > 2000 and boosted > 50
