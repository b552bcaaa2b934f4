"""Scenario tests, one or more per checklist rule ID (RL-*): build a position, play actions, check the outcome.

Positions come from ``relics_helpers.build``; ``advance`` (the kernel that runs forced steps) is called directly
where a test starts from a forced step (the reveal, the Resolution).
"""
from __future__ import annotations

import numpy as np
import pytest
from relics_helpers import (POOL, A, act, build, do, field, fight, inst_at, is_down, is_legal, legal, names, party_at,
                            stats, step_of)

from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import IllegalActionError
from cardenvs.core.header import DRAW, H_STATUS, H_TURN, H_WINNER, TERMINATED, TRUNCATED
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.board import relic_count
from cardenvs.games.relics.cards import C_TYPE, T_CHARACTER, T_LOCATION
from cardenvs.games.relics.obs_layout import CARD_PRESENT, CARD_SIZE, CELL_SLOT, OBS, SIDE_CARD, SIDE_IN_PLAY, SLOT_ENTERED
from cardenvs.games.relics.obs_layout import SLOT_FACE_DOWN
from cardenvs.games.relics.rules import advance
from cardenvs.games.relics.state import (
    BATTLE_CAP,
    ROUND_CAP,
    ST_BATTLE,
    ST_DISCARD,
    ST_HAND,
    ST_JUMP,
    ST_KEEP,
    ST_LEADER,
    ST_LEADER_SLOT,
    ST_LOCATION,
    ST_PLACE,
    ST_SLOT,
    ST_TARGET,
    ST_TRIM,
)


def run_forced(g: BatchGame) -> None:
    """Run the forced steps from the position as built (reveal, Resolution...) up to the next decision."""
    advance(g.states[0], g.pool.tables)


def kinds(g: BatchGame, p: int, zone: str) -> set[int]:
    return {int(POOL.tables.cards[POOL.by_name[n], C_TYPE]) for n in names(g, p, zone)}


# ---------------------------------------------------------------------------------------------------- setup, zones
def test_RL_S1_S2_D1_Z1_Z3_setup_sorts_shuffles_and_draws_three() -> None:
    """Checks RL-S1, RL-S2, RL-D1, RL-Z1, RL-Z3.
    RL-D1 two decks per player, RL-S1 character deck shuffled, RL-S2 item deck shuffled and 3 drawn (RL-Z1,
    RL-Z2 the hand holds item-deck cards), RL-Z3 characters never reach the hand."""
    orders = []
    for seed in (1, 2):
        g = BatchGame(SPEC, 1, decks=("vanguard", "arcana"), seed=seed)
        assert list(field(g, "hand_count")) == [3, 3]
        assert list(field(g, "item_deck_count")) == [27, 27]
        assert list(field(g, "char_deck_count")) == [40, 40]
        for p in (0, 1):
            assert kinds(g, p, "char_deck") == {T_CHARACTER}
            assert T_CHARACTER not in kinds(g, p, "hand") and T_CHARACTER not in kinds(g, p, "item_deck")
        orders.append((names(g, 0, "char_deck"), names(g, 0, "item_deck")))
        for p in (0, 1):  # RL-Z1 / RL-Z2: the observation shows the own hand card by card, decks as counts only
            obs = g.observe([p])[0]
            hand = OBS.get(obs, "hand")
            for i, name in enumerate(names(g, p, "hand")):
                assert np.array_equal(hand[i], card_row(name))
            assert hand[3:].sum() == 0
            ctx = OBS.get(OBS.float_view(obs), "context")  # the float view: deck sizes / 10
            assert np.isclose(ctx[11], 2.7) and np.isclose(ctx[12], 2.7)  # item decks: 27 cards, counts only
            assert np.isclose(ctx[9], 4.0) and ctx[13] == 3 and ctx[14] == 3  # character deck 40; hands 3 and 3
            assert OBS.get(obs, "reserves").sum() == 0 and OBS.get(obs, "lineup").sum() == 0  # RL-Z3
    assert orders[0][0] != orders[1][0] and orders[0][1] != orders[1][1]


def test_RL_S3_Z8_D2_both_players_locations_form_one_open_pile() -> None:
    """Checks RL-S3, RL-Z8, RL-D2.
    RL-S3 / RL-Z8: 5 location cards of each player in the pile, open to both; RL-D2 one leader card each."""
    g = BatchGame(SPEC, 1, decks=("vanguard", "shadow"), seed=3)
    assert list(field(g, "loc_pile_count")) == [5, 5]
    assert all(kinds(g, p, "loc_pile") == {T_LOCATION} for p in (0, 1))
    p = int(g.to_act[0])
    options = [i for n, i in legal(g) if n == "location"]
    assert options == list(range(10))  # own 5 and the opponent's 5
    pile = OBS.get(g.observe([1 - p])[0], "location_pile")
    assert pile[:, 0].sum() == 10  # the other player sees every location too
    assert len(names(g, 0, "leader_card")) == 1


def test_RL_S4_first_1P_is_random_and_recorded() -> None:
    """Checks RL-S4."""
    g = BatchGame(SPEC, 32, seed=0)
    leads = SPEC.state_layout.get(g.states, "lead")
    assert set(leads.tolist()) == {0, 1}
    assert (SPEC.state_layout.get(g.states, "first_player") == leads).all()
    assert (g.to_act == leads).all()


def test_RL_G1_G2_G3_G4_G5_G6_G8_relic_phase_from_a_fresh_game() -> None:
    """Checks RL-G1, RL-G2, RL-G3, RL-G4, RL-G5, RL-G6, RL-G8.
    The Relic phase step by step: location (G2), draw 6 each (G3), leaders face up 1P then 2P (G4), face-down
    placement with the rest to the reserves (G5), reveal with 2 draws per missing character (G6), reserves filled
    to 3 (G8), then the Battle phase with 1P (G1, G9)."""
    g = BatchGame(SPEC, 1, decks=("vanguard", "arcana"), seed=4)
    lead = int(g.to_act[0])
    other = 1 - lead
    assert step_of(g) == ST_LOCATION
    do(g, "location", 5)  # a location of the opponent
    assert int(field(g, "battlefield_count")[other]) == 1
    assert list(field(g, "lineup_count")) == [6, 6] and list(field(g, "char_deck_count")) == [34, 34]
    assert list(field(g, "hand_count")) == [3, 3]  # RL-Z3: not drawn to the hand
    assert step_of(g) == ST_LEADER and int(g.to_act[0]) == lead
    assert not any(n == "reserve" for n, _ in legal(g))
    do(g, "pick", 2)
    assert step_of(g) == ST_LEADER_SLOT
    do(g, "slot", 0)
    leader = int(field(g, "leader")[lead])
    assert leader >= 0 and field(g, "face_down")[lead, leader] == 0 and field(g, "pos")[lead, leader] == 0
    assert int(g.to_act[0]) == other and step_of(g) == ST_LEADER
    do(g, "pick", 0)
    do(g, "slot", 4)
    assert step_of(g) == ST_PLACE and int(g.to_act[0]) == lead
    do(g, "slot", 1)
    do(g, "slot", 3)
    placed = inst_at(g, lead, 1)
    assert field(g, "face_down")[lead, placed] == 1
    seen = OBS.get(g.observe([other])[0], "grid")[1, 1]
    # present, face down and its place in the order of placement (public: issue 38, RL-A8), nothing else
    assert seen[CARD_PRESENT] == 1 and seen[CELL_SLOT + SLOT_FACE_DOWN] == 1 and seen[CELL_SLOT + SLOT_ENTERED] > 0
    assert seen.sum() == 2 + seen[CELL_SLOT + SLOT_ENTERED]
    for _ in range(3):
        do(g, "pass")  # the other three drawn characters go to the reserves
    assert int(field(g, "reserves_count")[lead]) == 3 and int(g.to_act[0]) == other
    hands = field(g, "hand_count").copy()
    for s in (0, 1, 2, 3, 5):
        do(g, "slot", s)
    # reveal: lead is 3 short of 6 -> 6 cards; the other player has 6 characters -> none
    # (the location's own effect may add a card or two; RL-G7 is checked exactly below)
    assert hands[lead] + 6 <= int(field(g, "hand_count")[lead]) <= hands[lead] + 8
    assert int(field(g, "hand_count")[other]) <= hands[other] + 2
    assert int(field(g, "face_down")[lead].sum()) == 0
    assert list(field(g, "reserves_count")) == [3, 3]  # RL-G8 / RL-P4: filled to 3 from the character deck
    assert step_of(g) == ST_BATTLE and int(g.to_act[0]) == lead


def test_RL_G7_D12_location_effect_after_both_reveals_for_qualified_leaders() -> None:
    """Checks RL-G7, RL-D12.
    RL-G7: the location effect happens once, after both reveals and the reserve trim (Royal Arena: +1 ATT to the party of a
    leader that is a Blade or Noble); RL-D12 locations name the qualifying classes/descriptors."""
    g = build({"party": ["Ironbrand Squire@0:L?", "Gale Duelist@1:?"], "item_deck": ["Oak Buckler"] * 10},
              {"party": ["Marrow Witch@0:L?", "Gale Duelist@1:?"], "reserves": ["Dust Monk"] * 3,
               "item_deck": ["Oak Buckler"] * 10},
              step=ST_PLACE, location=("Royal Arena", 1))
    field(g, "setup_player")[...] = 1
    for p in (0, 1):
        field(g, "face_down")[p, int(field(g, "leader")[p])] = 0
    run_forced(g)
    assert step_of(g) == ST_BATTLE
    assert stats(g, 0, 1) == (5, 3)  # 4 + 1
    assert stats(g, 1, 1) == (4, 3)
    assert int(field(g, "hand_count")[0]) == 8 and int(field(g, "hand_count")[1]) == 8  # 4 short each


def test_RL_G8_trim_reserves_owner_picks() -> None:
    """Checks RL-G8."""
    g = build({"party": ["Ironbrand Squire@0:L"], "reserves": ["Dust Monk", "Gale Duelist", "Brass Golem",
                                                                 "Quill Archer", "Marrow Witch"]},
              {"party": ["Ironbrand Squire@0:L"], "reserves": ["Dust Monk"] * 3}, step=ST_TRIM, to_act=0)
    assert [n for n, _ in legal(g)] == ["reserve"] * 5
    do(g, "reserve", 2)  # Brass Golem goes
    do(g, "reserve", 0)  # Dust Monk goes
    assert names(g, 0, "reserves") == ["Gale Duelist", "Quill Archer", "Marrow Witch"]
    assert names(g, 0, "discard") == ["Brass Golem", "Dust Monk"]
    assert step_of(g) == ST_BATTLE


# ---------------------------------------------------------------------------------------------------- battle flow
def duel(**kw) -> BatchGame:
    p0 = {"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "hand": ["Oak Buckler"]}
    p1 = {"party": ["Brass Golem@0:L", "Quill Archer@4"], "hand": ["Oak Buckler"]}
    return build(p0, p1, **kw)


def test_RL_G9_A4_U2_players_alternate_and_move_downs_the_character() -> None:
    """Checks RL-G9, RL-A4, RL-U2."""
    g = duel()
    assert not is_legal(g, "move", 0 * 6 + 1)  # occupied
    assert not is_legal(g, "move", 1 * 6 + 2)  # RL-M4: within its own row a Move changes nothing
    do(g, "move", 1 * 6 + 5)  # Gale Duelist: front 2 -> back 3, the other row
    assert party_at(g, 0)[5] == "Gale Duelist" and is_down(g, 0, 5)
    assert int(g.to_act[0]) == 1 and int(field(g, "passes")) == 0
    do(g, "move", 4 * 6 + 2)  # P1: back row to front row
    assert party_at(g, 1)[2] == "Quill Archer" and int(g.to_act[0]) == 0


def test_RL_G10_U4_U6_two_passes_in_a_row_up_everything_and_restart_with_1P() -> None:
    """Checks RL-G10, RL-U4, RL-U6."""
    g = build({"party": ["Ironbrand Squire@0:Lv"], "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:Lv", "Gale Duelist@1"], "hand": ["Oak Buckler"]}, actor=0, lead=1)
    field(g, "att_mod")[1, inst_at(g, 1, 1)] = 2
    do(g, "pass")
    assert is_down(g, 0, 0)  # one pass: nothing goes Up (RL-U6)
    do(g, "pass")
    assert not is_down(g, 0, 0) and not is_down(g, 1, 0)
    assert int(field(g, "att_mod")[1, inst_at(g, 1, 1)]) == 0
    assert int(field(g, "round")) == 2 and int(g.to_act[0]) == 1  # 1P starts again


def test_RL_A9_V4_pass_draws_one_and_nothing_from_an_empty_deck() -> None:
    """Checks RL-A9, RL-V4."""
    g = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Oak Buckler"], "item_deck": ["Tin Sword"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "pass")
    assert names(g, 0, "hand") == ["Oak Buckler", "Tin Sword"] and int(field(g, "item_deck_count")[0]) == 0
    do(g, "move", 0 * 6 + 3)
    do(g, "pass")
    assert int(field(g, "hand_count")[0]) == 2  # RL-V4: empty deck, nothing drawn, no error


def test_RL_G11_G13_round_cap_ends_the_battle_as_a_draw() -> None:
    """Checks RL-G11, RL-G13."""
    g = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}, round_=ROUND_CAP, passes=1, lead=1)
    assert int(field(g, "battle_winner")) == -1  # RL-G11: still going, nobody wiped
    do(g, "pass")  # the second pass in a row of round 12: round 13 would start
    assert int(field(g, "battlefield_count").sum()) == 0
    assert "Royal Arena" in names(g, 0, "loc_pile")  # back to the pile, nobody took it
    assert int(field(g, "party_count").sum()) == 0 and step_of(g) == ST_HAND


# ---------------------------------------------------------------------------------------------------- grid and reach
def test_RL_P2_P3_A1_fight_reach_by_rows() -> None:
    """Checks RL-P2, RL-P3, RL-A1.
    Front-front is 1 row (adjacent); front-back 2; back-back 3 (RL-P3); a row holds 3 places (RL-P2)."""
    g = build({"party": ["Ironbrand Squire@0:L", "Quill Archer@3", "Gale Duelist@4"], "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@1:L", "Marrow Witch@5"], "hand": ["Oak Buckler"]})
    fights = {i for n, i in legal(g) if n == "fight"}
    assert 0 * 6 + 1 in fights and 0 * 6 + 5 not in fights  # front can reach front only
    assert 3 * 6 + 1 in fights and 3 * 6 + 5 not in fights  # Ranged back row: front (2) yes, back (3) no
    assert 4 * 6 + 1 not in fights  # plain back row: 2 rows, too far
    # a Move goes to an empty place of the other row (RL-A4, RL-M4): the back row has one left of its 3
    assert [k % 6 for n, k in legal(g) if n == "move" and k // 6 == 0] == [5]


def test_RL_P3_empty_front_row_collapses() -> None:
    """Checks RL-P3.
    (gap) With no character in a front row, that side's back row is adjacent to the other front row."""
    g = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Oak Buckler"]},
              {"party": ["Marrow Witch@4:L"], "hand": ["Oak Buckler"]})
    assert is_legal(g, "fight", 0 * 6 + 4)


def test_RL_A1_A2_fight_defeats_at_att_at_least_def_and_a_short_fight_does_nothing() -> None:
    """Checks RL-A1, RL-A2."""
    g = build({"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:L", "Cutpurse Vex@1"], "hand": ["Oak Buckler"]})
    act(g, fight(0, 0))  # 3 vs DEF 7: falls short
    assert party_at(g, 1)[0] == "Brass Golem" and is_down(g, 0, 0)
    assert stats(g, 1, 0) == (3, 7)  # RL-A2: no damage stays
    do(g, "pass", player=1)
    act(g, fight(1, 1))  # Gale Duelist 4 vs DEF 3: defeated
    assert 1 not in party_at(g, 1) and names(g, 1, "discard") == ["Cutpurse Vex"]
    assert not is_legal(g, "fight", 1 * 6 + 0, player=0)


def test_RL_P1_P5_A5_reinforce_a_reserve_character_anywhere_while_fewer_than_6() -> None:
    """Checks RL-P1, RL-P5, RL-A5."""
    g = build({"party": ["Ironbrand Squire@0:L"], "reserves": ["Dust Monk"], "hand": ["Oak Buckler"],
               "item_deck": ["Tin Sword"] * 3},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "reserve", 0)
    assert step_of(g) == ST_SLOT and is_legal(g, "slot", 5) and not is_legal(g, "slot", 0)
    do(g, "slot", 5)  # the back row (RL-P5)
    assert party_at(g, 0)[5] == "Dust Monk" and not is_down(g, 0, 5)  # RL-U7: enters Up, no down cost
    assert names(g, 0, "hand") == ["Oak Buckler", "Tin Sword"]  # its enter ability: draw 1
    full = build({"party": [f"Brass Golem@{s}" for s in range(6)], "reserves": ["Dust Monk"], "hand": ["Oak Buckler"]},
                 {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    assert not is_legal(full, "reserve", 0)  # RL-P1: a party holds 6


def test_RL_A6_P4_recruit_discards_three_for_a_character_in_the_reserves() -> None:
    """Checks RL-A6, RL-P4."""
    g = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Tin Sword", "Oak Buckler", "Whetstone", "Longbow"],
               "reserves": ["Dust Monk"] * 3, "char_deck": ["Brass Golem", "Quill Archer"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "recruit")
    assert step_of(g) == ST_DISCARD
    for i in (3, 0, 0):
        do(g, "hand", i)
    assert names(g, 0, "hand") == ["Whetstone"]
    assert names(g, 0, "reserves")[-1] == "Quill Archer" and int(field(g, "reserves_count")[0]) == 4
    assert int(g.to_act[0]) == 1
    small = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Tin Sword", "Oak Buckler"]},
                  {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    assert not is_legal(small, "recruit")


def test_RL_A7_L1_appoint_moves_the_leader_card() -> None:
    """Checks RL-A7, RL-L1."""
    g = build({"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "hand": ["Tin Sword", "Oak Buckler", "Whetstone"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "appoint")
    for _ in range(2):
        do(g, "hand", 0)
    # the last card to discard and the only other character are forced, and public: played for it
    assert step_of(g) == ST_BATTLE and int(g.to_act[0]) == 1
    assert int(field(g, "leader")[0]) == inst_at(g, 0, 1)
    assert int(field(g, "hand_count")[0]) == 0 and int(field(g, "discard_count")[0]) == 3


def test_RL_A8_B3_retreat_returns_the_party_and_loses() -> None:
    """Checks RL-A8, RL-B3."""
    g = build({"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "equip": {1: "Tin Sword"},
               "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:L", "Dust Monk@1"], "hand": ["Oak Buckler"]}, location=("Royal Arena", 0))
    do(g, "retreat")
    assert names(g, 0, "reserves") == ["Ironbrand Squire", "Gale Duelist"]
    assert names(g, 0, "discard") == ["Tin Sword"]  # RL-E6: equipment is discarded when its character returns
    assert relic_count(g.states[0], 1) == 1 and int(field(g, "controller")[0, int(field(g, "won")[0, 0])]) == 1
    assert step_of(g) == ST_KEEP and int(g.to_act[0]) == 1


def test_RL_A3_M1_M2_K1_D10_cast_a_black_spell_needs_a_black_caster_downs_it_and_is_discarded() -> None:
    """Checks RL-A3, RL-M1, RL-M2, RL-K1, RL-D10."""
    g = build({"party": ["Ironbrand Squire@0:L", "Marrow Witch@3"], "hand": ["Night Bolt"]},
              {"party": ["Gale Duelist@0:L", "Quill Archer@1"], "hand": ["Oak Buckler"]})
    do(g, "hand", 0)
    assert step_of(g) == ST_SLOT and legal(g) == [("slot", 3)]  # the only Black caster (still its decision)
    do(g, "slot", 3)
    assert step_of(g) == ST_TARGET
    do(g, "target", 1)
    assert 1 not in party_at(g, 1) and is_down(g, 0, 3)
    assert names(g, 0, "discard") == ["Night Bolt"] and int(field(g, "hand_count")[0]) == 0
    no_caster = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Night Bolt"]},
                      {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]})
    assert not is_legal(no_caster, "hand", 0)
    down_caster = build({"party": ["Ironbrand Squire@0:L", "Marrow Witch@3:v"], "hand": ["Night Bolt"]},
                        {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]})
    assert not is_legal(down_caster, "hand", 0)  # RL-U3: a Down caster cannot pay


def test_RL_K1_standing_black_character_ignores_opponent_black_magic() -> None:
    """Checks RL-K1."""
    g = build({"party": ["Ironbrand Squire@0:L", "Marrow Witch@3"], "hand": ["Night Bolt", "Wither"]},
              {"party": ["Glimmer Acolyte@0:L", "Marrow Witch@1:v", "Gale Duelist@2"], "hand": ["Oak Buckler"]})
    do(g, "hand", 0)  # Night Bolt, cast by the only Black character
    do(g, "slot", 3)
    assert step_of(g) == ST_TARGET
    assert not is_legal(g, "target", 0)  # the standing Black Acolyte is immune
    assert is_legal(g, "target", 1) and is_legal(g, "target", 2)  # a Down Black character is not
    do(g, "target", 1)
    assert 1 not in party_at(g, 1)
    do(g, "pass")  # P1
    do(g, "pass")  # P0: everything Up
    assert not is_down(g, 0, 3)
    do(g, "hand", 0)  # Wither: -1 ATT to opposing characters, but not to the standing Black Acolyte
    do(g, "slot", 3)
    assert stats(g, 1, 0) == (2, 3) and stats(g, 1, 2) == (3, 3)


def test_RL_K2_standing_white_character_ignores_opponent_white_magic() -> None:
    """Checks RL-K2."""
    g = build({"party": ["Ironbrand Squire@0:L", "Dawn Cleric@3"], "hand": ["Sanctify"]},
              {"party": ["Glimmer Acolyte@0:L", "Marrow Witch@1"], "hand": ["Oak Buckler"]})
    do(g, "hand", 0)
    do(g, "slot", 3)  # the caster
    assert legal(g) == [("target", 1)]  # the standing White Acolyte cannot be targeted
    do(g, "target", 1)
    assert party_at(g, 1) == {0: "Glimmer Acolyte"}
    down = build({"party": ["Ironbrand Squire@0:L", "Dawn Cleric@3"], "hand": ["Sanctify"]},
                 {"party": ["Glimmer Acolyte@0:Lv", "Marrow Witch@1"], "hand": ["Oak Buckler"]})
    do(down, "hand", 0)
    do(down, "slot", 3)
    assert is_legal(down, "target", 0)  # a Down White character is not protected


def test_RL_K3_summon_spell_needs_a_summon_caster() -> None:
    """Checks RL-K3."""
    g = build({"party": ["Ironbrand Squire@0:L", "Rune Caller@3"], "hand": ["Summon Thunderbird"]},
              {"party": ["Gale Duelist@0:L", "Quill Archer@1", "Brass Golem@2"], "hand": ["Oak Buckler"]})
    do(g, "hand", 0)
    do(g, "slot", 3)  # the Summon caster
    assert party_at(g, 1) == {2: "Brass Golem"}  # DEF 3 characters struck, DEF 7 not
    assert is_down(g, 0, 3)
    no = build({"party": ["Ironbrand Squire@0:L", "Marrow Witch@3"], "hand": ["Summon Thunderbird"]},
               {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]})
    assert not is_legal(no, "hand", 0)


def test_RL_M3_D9_items_need_no_skill_and_are_one_use() -> None:
    """Checks RL-M3, RL-D9."""
    g = build({"party": ["Ironbrand Squire@0:Lv"], "hand": ["Healing Draught", "Supply Cart"],
               "item_deck": ["Tin Sword", "Longbow", "Oak Buckler"]},
              {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]})
    do(g, "hand", 0)  # Up one of your characters (RL-U5: early Up)
    do(g, "slot", 0)  # the target, chosen by its player
    assert not is_down(g, 0, 0) and names(g, 0, "discard") == ["Healing Draught"]
    do(g, "pass", player=1)
    do(g, "hand", 0)
    assert names(g, 0, "hand") == ["Oak Buckler", "Longbow"]


def test_RL_U1_U3_U5_down_costs_need_an_up_character() -> None:
    """Checks RL-U1, RL-U3, RL-U5.
    RL-U1 a down cost; RL-U3 a Down character cannot pay it (Whetstone needs an Up user; fights need Up)."""
    g = build({"party": ["Ironbrand Squire@0:Lv"], "hand": ["Whetstone"]},
              {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]})
    assert not is_legal(g, "hand", 0) and not is_legal(g, "fight", 0)
    assert not any(n == "move" for n, _ in legal(g))
    up = build({"party": ["Ironbrand Squire@0:L", "Brass Golem@1"], "hand": ["Whetstone"]},
               {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]})
    do(up, "hand", 0)
    do(up, "slot", 1)  # user: the Golem
    do(up, "slot", 0)  # target: the Squire
    assert is_down(up, 0, 1) and stats(up, 0, 0) == (3 + 2 + 0, 4)


def test_RL_U7_characters_enter_play_up() -> None:
    """Checks RL-U7."""
    g = build({"party": ["Ironbrand Squire@0:L"], "reserves": ["Brass Golem"], "hand": ["Oak Buckler"]},
              {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]})
    do(g, "reserve", 0)
    do(g, "slot", 1)
    assert not is_down(g, 0, 1)


# ---------------------------------------------------------------------------------------------------- skills
def test_RL_K4_ranged_reaches_two_rows() -> None:
    """Checks RL-K4."""
    g = build({"party": ["Ironbrand Squire@0:L", "Quill Archer@1"], "hand": ["Oak Buckler"]},
              {"party": ["Gale Duelist@0:L", "Marrow Witch@4"], "hand": ["Oak Buckler"]})
    assert is_legal(g, "fight", 1 * 6 + 4) and not is_legal(g, "fight", 0 * 6 + 4)
    act(g, fight(1, 4))
    assert 4 not in party_at(g, 1)


def test_RL_K7_K8_counter_strikes_back_and_does_not_cancel_the_fight() -> None:
    """Checks RL-K7, RL-K8."""
    g = build({"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "hand": ["Oak Buckler"]},
              {"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    act(g, fight(1, 0))  # Duelist 4/3 vs Duelist 4/3 with Counter: both defeated
    assert 1 not in party_at(g, 0) and 0 not in party_at(g, 1)
    g2 = build({"party": ["Ironbrand Squire@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]},
               {"party": ["Thornwall Sentinel@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    act(g2, fight(0, 0))  # Squire 3 vs Sentinel DEF 6 misses; the counter 2 vs DEF 4 misses too
    assert party_at(g2, 0)[0] == "Ironbrand Squire" and party_at(g2, 1)[0] == "Thornwall Sentinel"
    equal = build({"party": ["Hollow Shade@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]},
                  {"party": ["Thornwall Sentinel@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    act(equal, fight(0, 0))  # Shade 3 vs DEF 6 misses; the Counter's ATT 2 equals the Shade's DEF 2: defeated
    assert 0 not in party_at(equal, 0) and names(equal, 0, "discard") == ["Hollow Shade"]


def test_RL_K5_only_a_ranged_counter_answers_a_ranged_attack() -> None:
    """Checks RL-K5.
    A Fight 2 rows away (Ranged reach) is a Ranged attack: a plain Counter cannot answer it, Ranged + Counter can."""
    melee = build({"party": ["Ironbrand Squire@0:L", "Quill Archer@4"], "hand": ["Oak Buckler"]},
                  {"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    act(melee, fight(4, 0))  # Ranged archer 3 vs Duelist DEF 3: the Duelist's Counter cannot answer
    assert 4 in party_at(melee, 0) and 0 not in party_at(melee, 1)
    ranged = build({"party": ["Ironbrand Squire@0:L", "Quill Archer@4"], "hand": ["Oak Buckler"]},
                   {"party": ["Longshot Ranger@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    act(ranged, fight(4, 0))  # Ranged + Counter answers: 4 vs archer DEF 3
    assert 4 not in party_at(ranged, 0) and 0 not in party_at(ranged, 1)
    thrown = build({"party": ["Knife Juggler@0:L"], "hand": ["Oak Buckler"]},
                   {"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    do(thrown, "throw", 0)  # a Throw is a Ranged attack even on an adjacent character: no plain Counter
    do(thrown, "hand", 0)
    assert 0 in party_at(thrown, 0) and 0 not in party_at(thrown, 1)


def test_RL_K6_steal_makes_the_victim_discard_a_card_of_its_choice() -> None:
    """Checks RL-K6."""
    g = build({"party": ["Cutpurse Vex@0:L"], "hand": ["Oak Buckler"]},
              {"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Tin Sword", "Night Bolt"]})
    act(g, fight(0, 0))  # 3 vs DEF 3: defeated; the Duelist's Counter 4 vs DEF 3 defeats Vex too
    assert step_of(g) == ST_DISCARD and int(g.to_act[0]) == 1
    do(g, "hand", 1)
    assert names(g, 1, "hand") == ["Tin Sword"] and "Night Bolt" in names(g, 1, "discard")


def test_RL_K9_K10_E7_jump_on_entry_with_printed_att_anywhere_and_uncounterable() -> None:
    """Checks RL-K9, RL-K10, RL-E7."""
    g = build({"party": ["Ironbrand Squire@0:L"], "reserves": ["Ashen Pikeman"], "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:L", "Longshot Ranger@5"], "hand": ["Oak Buckler"]})
    field(g, "att_mod")[0, 0] = 0
    do(g, "reserve", 0)
    do(g, "slot", 3)
    assert step_of(g) == ST_JUMP and is_legal(g, "target", 5) and is_legal(g, "pass")
    do(g, "target", 5)  # back row to back row: 4 vs DEF 3; the Ranger's Counter does not answer a Jump
    assert 5 not in party_at(g, 1) and party_at(g, 0)[3] == "Ashen Pikeman" and is_down(g, 0, 3)
    decline = build({"party": ["Ironbrand Squire@0:L"], "reserves": ["Ashen Pikeman"], "hand": ["Oak Buckler"]},
                    {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(decline, "reserve", 0)
    do(decline, "slot", 1)
    do(decline, "pass")
    assert not is_down(decline, 0, 1) and int(decline.to_act[0]) == 1


def test_RL_K11_K12_E7_throw_discards_equipment_uses_printed_att_and_dooms() -> None:
    """Checks RL-K11, RL-K12, RL-E7.
    RL-K11: reach 2 rows, only an equipment card can be thrown away, printed ATT, the victim is doomed; RL-K12: the
    discard is the extra cost of an attack that downs the thrower (a Down character cannot throw)."""
    g = build({"party": ["Knife Juggler@3:L", "Brass Golem@0"], "equip": {3: "Tin Sword"},
               "hand": ["Supply Cart", "Oak Buckler", "Night Bolt", "Rune Plate"]},
              {"party": ["Gale Duelist@0:L", "Cutpurse Vex@4"], "hand": ["Oak Buckler"]})
    assert is_legal(g, "throw", 3 * 6 + 0) and not is_legal(g, "throw", 3 * 6 + 4)  # reach 2 rows
    assert stats(g, 0, 3) == (4, 3)
    do(g, "throw", 3 * 6 + 0)
    assert step_of(g) == ST_DISCARD and legal(g) == [("hand", 1), ("hand", 3)]  # equipment only
    do(g, "hand", 3)
    assert names(g, 0, "discard") == ["Rune Plate"]
    assert 0 not in party_at(g, 1) and names(g, 1, "doom") == ["Gale Duelist"]  # 3 (printed) >= DEF 3, doomed
    assert is_down(g, 0, 3)  # RL-K12: the thrower goes Down
    g2 = build({"party": ["Knife Juggler@0:L"], "equip": {0: "Tin Sword"}, "hand": ["Oak Buckler"]},
               {"party": ["Brass Golem@0:L", "Ironbrand Squire@1"], "hand": ["Oak Buckler"]})
    do(g2, "throw", 0 * 6 + 1)
    do(g2, "hand", 0)
    assert 1 in party_at(g2, 1)  # printed ATT 3 (not 4 with the sword) vs DEF 4: short


def test_RL_K13_leader_skill_works_only_on_the_leader() -> None:
    """Checks RL-K13."""
    lead = build({"party": ["Iron Abbot@0:L", "Ironbrand Squire@1"], "hand": ["Oak Buckler"]},
                 {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    assert is_legal(lead, "ability", 0)
    do(lead, "ability", 0)
    assert stats(lead, 0, 1) == (4, 4) and is_down(lead, 0, 0)
    not_lead = build({"party": ["Iron Abbot@0", "Ironbrand Squire@1:L"], "hand": ["Oak Buckler"]},
                     {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    assert not is_legal(not_lead, "ability", 0)
    tyrant = build({"party": ["Tyrant Malgrave@0:L", "Ironbrand Squire@1"], "hand": ["Oak Buckler"]},
                   {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    assert stats(tyrant, 0, 1) == (4, 4)  # cont Leader ability: +1 ATT to the party
    field(tyrant, "leader")[0] = inst_at(tyrant, 0, 1)
    assert stats(tyrant, 0, 1) == (3, 4)


def test_RL_K14_B1_villains_alone_win_no_relic() -> None:
    """Checks RL-K14, RL-B1."""
    g = build({"party": ["Gravecrawler@0:L"], "hand": ["Oak Buckler"]},
              {"party": ["Cutpurse Vex@0:L"], "hand": ["Oak Buckler"]}, location=("Royal Arena", 1))
    act(g, fight(0, 0))
    assert int(field(g, "battle_winner")) == 0  # RL-B1: the last character is gone, P0 wins the battle
    assert relic_count(g.states[0], 0) == 0 and "Royal Arena" in names(g, 1, "loc_pile")
    mixed = build({"party": ["Gravecrawler@0:L", "Ironbrand Squire@1"], "hand": ["Oak Buckler"]},
                  {"party": ["Cutpurse Vex@0:L"], "hand": ["Oak Buckler"]}, location=("Royal Arena", 1))
    act(mixed, fight(0, 0))
    assert relic_count(mixed.states[0], 0) == 1


# ---------------------------------------------------------------------------------------------------- leader
def test_RL_L2_D13_leader_card_abilities_need_a_qualifying_leader() -> None:
    """Checks RL-L2, RL-D13."""
    p1 = {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}
    ok = build({"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "hand": ["Oak Buckler"],
                "leader_card": "Banner of Command"}, p1, location=("Royal Arena", 0))  # Blade qualifies
    assert stats(ok, 0, 1) == (5, 3)  # cont: +1 ATT to the party
    assert is_legal(ok, "leader_ability")
    do(ok, "leader_ability")  # act: the leader goes Down, one own character +2 ATT until the next Up
    do(ok, "slot", 1)
    assert is_down(ok, 0, 0) and stats(ok, 0, 1) == (7, 3)
    no = build({"party": ["Marrow Witch@0:L", "Gale Duelist@1"], "hand": ["Oak Buckler"],
                "leader_card": "Banner of Command"}, p1, location=("Royal Arena", 0))  # Sage, Undead: no
    assert stats(no, 0, 1) == (4, 3) and not is_legal(no, "leader_ability")
    desc = build({"party": ["Skyhook Dragoon@0:L"], "hand": ["Oak Buckler"],
                  "leader_card": "Sigil of the Archmage", "item_deck": ["Tin Sword"]}, p1, location=("Dragon's Spine", 0))
    do(desc, "leader_ability")  # a Lancer leader at a Lancer location: draw 1, the leader goes Down
    assert names(desc, 0, "hand") == ["Oak Buckler", "Tin Sword"] and is_down(desc, 0, 0)


def test_RL_L3_leader_leaving_play_leaves_the_card_unattached() -> None:
    """Checks RL-L3."""
    g2 = build({"party": ["Gale Duelist@1", "Ironbrand Squire@0:L"], "hand": ["Oak Buckler"]},
               {"party": ["Bramble Beast@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]}, actor=1)
    act(g2, fight(0, 0))  # 4 vs DEF 4: the leader is defeated
    assert int(field(g2, "leader")[0]) == -1
    assert names(g2, 0, "leader_card") == ["Sigil of the Archmage"]
    assert not is_legal(g2, "leader_ability")


# ---------------------------------------------------------------------------------------------------- equipment, relics
def test_RL_E1_E2_D8_equipment_suits_its_characters_and_one_attachment_each() -> None:
    """Checks RL-E1, RL-E2, RL-D8."""
    g = build({"party": ["Ironbrand Squire@0:L", "Quill Archer@1"], "hand": ["Longbow", "Tin Sword", "Oak Buckler"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "hand", 0)  # Longbow: Hunters only -> only the archer may carry it
    assert legal(g) == [("slot", 1)]
    do(g, "slot", 1)
    assert int(field(g, "attached")[0, inst_at(g, 0, 1)]) >= 0 and stats(g, 0, 1) == (4, 3)
    do(g, "pass", player=1)
    do(g, "hand", 0)  # Tin Sword: Blades, Rogues, Lancers -> the Squire (the archer already carries one)
    assert legal(g) == [("slot", 0)]
    do(g, "slot", 0)
    assert step_of(g) == ST_BATTLE and stats(g, 0, 0) == (4, 4)
    do(g, "pass", player=1)
    assert not is_legal(g, "hand", 0)  # Oak Buckler: nobody free (RL-E2)


def test_RL_E3_E4_D11_Z7_relic_from_the_sideboard_onto_any_character_still_counts() -> None:
    """Checks RL-E3, RL-E4, RL-D11, RL-Z7."""
    g = build({"party": ["Marrow Witch@0:L"], "hand": ["Oak Buckler"], "relics": ["Royal Arena"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}, location=("Iron Foundry", 1))
    assert relic_count(g.states[0], 0) == 1
    side = OBS.get(g.observe([0])[0], "sideboard")
    assert side[0, SIDE_CARD + CARD_PRESENT] == 1 and side[0, SIDE_IN_PLAY] == 0  # in the sideboard, not in play
    do(g, "relic", 0)
    assert stats(g, 0, 0) == (2 + 3, 3)  # Champion's Edge +3/+0, no requirement for a Sage
    assert relic_count(g.states[0], 0) == 1


def test_RL_E5_E6_relic_returns_to_the_sideboard_and_equipment_shares_the_fate() -> None:
    """Checks RL-E5, RL-E6."""
    g = build({"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "hand": ["Oak Buckler"]},
              {"party": ["Ironbrand Squire@0:L", "Cutpurse Vex@1"], "equip": {1: "Shadow Cloak"},
               "relics": ["Royal Arena@0"], "hand": ["Oak Buckler"]}, location=("Iron Foundry", 0))
    act(g, fight(1, 1))  # Duelist 4 vs Vex DEF 3+1: defeated; the cloak goes with it
    assert names(g, 1, "discard") == ["Shadow Cloak", "Cutpurse Vex"]
    assert stats(g, 1, 0) == (3 + 3, 4)  # Champion's Edge on the Squire
    g3 = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]},
               {"party": ["Ironbrand Squire@0:L", "Brass Golem@3"], "relics": ["Royal Arena@0"],
                "hand": ["Oak Buckler"]}, location=("Iron Foundry", 0))
    act(g3, fight(0, 0))  # 4 vs DEF 4: the relic's carrier is defeated
    relic = int(field(g3, "won")[1, 0])
    assert int(field(g3, "host")[1, relic]) == -1 and relic_count(g3.states[0], 1) == 1  # RL-E5


def test_RL_E6_relic_in_play_returns_when_the_battle_ends() -> None:
    """Checks RL-E6."""
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"], "relics": ["Royal Arena@0"]},
              {"party": ["Cutpurse Vex@0:L"], "hand": ["Oak Buckler"]}, location=("Iron Foundry", 1))
    act(g, fight(0, 0))  # wipe: P0 wins and keeps characters
    do(g, "slot", 0)  # keep the Duelist
    relic = int(field(g, "won")[0, 0])
    assert int(field(g, "host")[0, relic]) == -1 and relic_count(g.states[0], 0) == 2


# ---------------------------------------------------------------------------------------------------- battle end
def test_RL_B1_B5_B6_winner_takes_the_location_and_keeps_up_to_three() -> None:
    """Checks RL-B1, RL-B5, RL-B6."""
    g = build({"party": ["Gale Duelist@0:L", "Ironbrand Squire@1", "Brass Golem@2", "Dust Monk@3", "Quill Archer@4"],
               "equip": {2: "Oak Buckler"}, "hand": ["Oak Buckler"]},
              {"party": ["Cutpurse Vex@0:L"], "hand": ["Oak Buckler"]}, location=("Thieves' Market", 1))
    act(g, fight(0, 0))
    assert step_of(g) == ST_KEEP and int(g.to_act[0]) == 0
    assert "Thieves' Market" in names(g, 1, "won") and relic_count(g.states[0], 0) == 1  # RL-B5
    for s in (2, 4, 1):
        do(g, "slot", s)
    assert names(g, 0, "reserves") == ["Brass Golem", "Quill Archer", "Ironbrand Squire"]
    assert step_of(g) == ST_HAND
    assert int(field(g, "party_count")[0]) == 0
    assert {"Gale Duelist", "Dust Monk", "Oak Buckler"} <= set(names(g, 0, "discard"))


def test_RL_B2_both_wiped_in_one_action_is_a_draw() -> None:
    """Checks RL-B2."""
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]},
              {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]}, location=("Royal Arena", 0))
    act(g, fight(0, 0))
    assert int(field(g, "battle_winner")) == 2
    assert names(g, 0, "loc_pile") == ["Royal Arena"] and relic_count(g.states[0], 0) == 0
    assert step_of(g) == ST_HAND


def test_RL_B4_a_doomed_last_character_loses_the_battle() -> None:
    """Checks RL-B4."""
    g = build({"party": ["Knife Juggler@0:L"], "hand": ["Oak Buckler"]},
              {"party": ["Cutpurse Vex@0:L"], "hand": ["Oak Buckler"]}, location=("Royal Arena", 0))
    do(g, "throw", 0)
    do(g, "hand", 0)  # the equipment thrown away
    assert names(g, 1, "doom") == ["Cutpurse Vex"] and int(field(g, "battle_winner")) == 0


def test_RL_B7_B8_G12_resolution_discards_redraws_dooms_and_swaps_1P() -> None:
    """Checks RL-B7, RL-B8, RL-G12."""
    g = build({"party": [], "hand": ["Oak Buckler", "Tin Sword"], "discard": ["Gale Duelist"],
               "item_deck": ["Longbow"] * 5, "pile": ["Royal Arena"]},
              {"party": [], "hand": ["Oak Buckler"] * 4, "item_deck": ["Longbow"] * 5, "pile": ["Iron Foundry"]},
              step=ST_HAND, location=None, lead=0, to_act=0)
    do(g, "hand", 1)  # P0 discards the sword, keeps the buckler (set aside face down until P1 chose, RL-G14)
    do(g, "pass")  # done: P0 draws up to 3 once both players chose
    assert names(g, 0, "hand") == ["Oak Buckler"] and int(g.to_act[0]) == 1
    do(g, "pass")  # P1 keeps all 4 (none discarded, no draw)
    assert names(g, 0, "hand") == ["Oak Buckler", "Longbow", "Longbow"]
    assert int(field(g, "hand_count")[1]) == 4
    assert names(g, 0, "discard") == [] and names(g, 0, "doom") == ["Gale Duelist", "Tin Sword"]  # RL-B8
    assert int(field(g, "lead")) == 1 and step_of(g) == ST_LOCATION and int(g.to_act[0]) == 1  # RL-G12
    assert int(g.states[0, H_TURN]) == 2


def test_RL_B9_after_a_draw_nobody_keeps_characters() -> None:
    """Checks RL-B9."""
    g = build({"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]},
              {"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]},
              round_=ROUND_CAP, passes=1)
    do(g, "pass")
    assert int(field(g, "party_count").sum()) == 0 and int(field(g, "reserves_count").sum()) == 0
    assert step_of(g) == ST_HAND


# ---------------------------------------------------------------------------------------------------- victory
def test_RL_V1_fourth_relic_wins_at_once() -> None:
    """Checks RL-V1."""
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"],
               "relics": ["Royal Arena", "Iron Foundry", "Monastery Steps"]},
              {"party": ["Cutpurse Vex@0:L"], "hand": ["Oak Buckler"]}, location=("Storm Peak", 1))
    act(g, fight(0, 0))
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 0


def test_RL_V2_no_card_in_hand_or_item_deck_loses() -> None:
    """Checks RL-V2."""
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Smoke Bomb"], "item_deck": []},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    field(g, "deck_list")[0, inst_at(g, 0, 0)] = POOL.by_name["Gale Duelist"]
    do(g, "hand", 0)
    do(g, "target", 0)  # the last card is used: hand and item deck are both empty now
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 1


def test_RL_V3_V5_empty_character_deck_loses_at_the_next_battle_and_both_is_a_draw() -> None:
    """Checks RL-V3, RL-V5: the character decks are checked when the next battle starts."""
    for p1_deck, winner in ((["Dust Monk"], 1), ([], DRAW)):
        g = build({"party": [], "hand": ["Oak Buckler"], "char_deck": [], "pile": ["Royal Arena"]},
                  {"party": [], "hand": ["Oak Buckler"] * 3, "char_deck": p1_deck, "pile": ["Iron Foundry"]},
                  step=ST_HAND, location=None, lead=1, to_act=1)
        do(g, "pass")  # P1 (1P) done with Resolution
        assert g.states[0, H_STATUS] != TERMINATED  # not checked mid-battle
        do(g, "pass")  # P0 done: the next battle would start
        assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == winner


def test_RL_V5_battle_cap_truncates() -> None:
    """Checks RL-V5."""
    g = build({"party": [], "hand": ["Oak Buckler"], "pile": ["Royal Arena"]},
              {"party": [], "hand": ["Oak Buckler"] * 3, "pile": ["Iron Foundry"]},
              step=ST_HAND, location=None, lead=1, to_act=1, battle=BATTLE_CAP)
    do(g, "pass")
    do(g, "pass")
    assert g.states[0, H_STATUS] == TRUNCATED and g.states[0, H_WINNER] == -1


# ---------------------------------------------------------------------------------------------------- piles
def card_row(name: str) -> np.ndarray:
    """The observation's card features of one card, as the kernel writes them."""
    from cardenvs.games.relics.observe import write_card

    out = np.zeros(CARD_SIZE, SPEC.obs_dtype)
    write_card(POOL.tables.cards, POOL.by_name[name], out, 0)
    return out


def test_RL_Z4_reserves_are_visible_to_their_owner_only() -> None:
    """Checks RL-Z4.
    Each player's observation lists its own reserve characters card by card; the other player's reserves appear
    only as a count, and re-dealing them (hide) does not change what the other player observes."""
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"], "reserves": ["Brass Golem"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"], "reserves": ["Dust Monk", "Quill Archer"]})
    own = OBS.get(g.observe([0])[0], "reserves")
    assert np.array_equal(own[0], card_row("Brass Golem")) and own[1:].sum() == 0
    other = OBS.get(g.observe([1])[0], "reserves")
    assert np.array_equal(other[0], card_row("Dust Monk")) and np.array_equal(other[1], card_row("Quill Archer"))
    assert other[2:].sum() == 0  # never P0's Golem
    ctx = OBS.get(g.observe([0])[0], "context")
    assert ctx[15] == 1 and ctx[16] == 2  # reserves_own, reserves_opp: counts
    row = g.states[0]
    for seed in range(6):  # P1's reserves re-dealt: P0's observation does not move
        other_row = SPEC.hide(row, 0, np.random.default_rng(seed), g.pool)
        a = np.zeros((2, SPEC.obs_dim), SPEC.obs_dtype)
        SPEC.kernels.batch_observe(np.stack([row, other_row]), g.pool.tables, np.array([0, 0], np.int32), a)
        assert np.array_equal(a[0], a[1])


def pile(name: str) -> int:
    """Index of a card in the ``pile`` action field (the card id)."""
    return POOL.by_name[name]


def test_RL_Z5_Z6_cards_come_back_from_the_discard_and_rarely_from_the_doom_pile() -> None:
    """Checks RL-Z5, RL-Z6.
    Take-backs are the player's choice among the matching cards of the pile (any of them, not the most recent):
    Grave Lantern raises a character of the discard pile, Phoenix Ash (rare) brings back any card of the doom pile."""
    g = build({"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Grave Lantern", "Phoenix Ash"],
               "discard": ["Dust Monk", "Tin Sword", "Quill Archer"], "doom": ["Longbow", "Quill Archer"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "hand", 0)  # Grave Lantern
    do(g, "slot", 0)  # its user
    assert sorted(legal(g)) == sorted([("pile", pile("Dust Monk")), ("pile", pile("Quill Archer"))])
    do(g, "pile", pile("Dust Monk"))  # the older character
    assert names(g, 0, "reserves") == ["Dust Monk"] and names(g, 0, "discard") == ["Tin Sword", "Quill Archer",
                                                                                   "Grave Lantern"]
    do(g, "pass", player=1)
    do(g, "hand", 0)  # Phoenix Ash (rare): a card of the doom pile comes back
    do(g, "slot", 1)  # its user: the Golem (the Duelist is Down)
    assert sorted(legal(g)) == sorted([("pile", pile("Longbow")), ("pile", pile("Quill Archer"))])
    do(g, "pile", pile("Longbow"))
    assert names(g, 0, "hand") == ["Longbow"] and names(g, 0, "doom") == ["Quill Archer"]
    assert int(g.to_act[0]) == 1  # the take-back ended the action


def test_illegal_action_raises_and_leaves_the_row() -> None:
    """An action outside the mask (out of reach, the wrong player, out of range) raises and leaves the row as it
    was; the same row then accepts a legal action."""
    g = duel()
    before = g.states.copy()
    assert not is_legal(g, "fight", 0 * 6 + 4)
    with pytest.raises(IllegalActionError) as err:
        act(g, fight(0, 4))  # the Squire cannot reach the back row
    assert "ight" in str(err.value)
    assert np.array_equal(before, g.states)
    with pytest.raises(IllegalActionError):
        act(g, A("pass"), player=1)  # not player 1's decision
    with pytest.raises((IllegalActionError, ValueError, IndexError)):
        act(g, 10_000)
    assert np.array_equal(before, g.states)
    act(g, fight(1, 0))  # legal: Duelist 4 vs Golem DEF 7 misses, the Duelist goes Down
    assert is_down(g, 0, 1) and int(g.to_act[0]) == 1
