"""Scenario tests: heart and breaking (HB-H*), evolve / items / stock (HB-I*), Turbo and response windows (HB-R*),
victory (HB-V*). Positions come from ``heartbreak_helpers.build``."""
from __future__ import annotations

import numpy as np
from heartbreak_helpers import (
    FILLER,
    build,
    damage_at,
    do,
    field,
    inst_at,
    is_legal,
    name_at,
    onto,
    pass_window,
    rested_at,
    skill,
    step_of,
    zone_names,
)

from cardenvs.core.header import DRAW, H_STATUS, H_TURN, H_WINNER, TERMINATED
from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.observe import OBS
from cardenvs.games.heartbreak.state import (
    ST_ACTION,
    ST_CHOOSE,
    ST_CLIMAX,
    ST_END_OPEN,
    ST_MAIN,
    ST_WINDOW,
    TURN_CAP,
)

STOP = "Reinforcements"  # free Turbo: keeps the turn player's phase a real decision


def face_up(g, p: int) -> list[bool]:
    return [bool(field(g, "face_up")[p, i]) for i in field(g, "heart")[p, : int(field(g, "heart_count")[p])]]


# ---------------------------------------------------------------------------------------------------- heart
def test_HB_H1_H2_H3_H4_breaks_take_the_top_card_one_at_a_time() -> None:
    """HB-H1, HB-H2, HB-H3, HB-H4."""
    heart = ["Kelp Mail", "Flash Burn:up", "Moss Hermit"]  # bottom first: Moss Hermit is the top
    g = build({"lead": "Kiln Warden", "hand": ["Blaze of Glory", STOP], "charge": 2},
              {"lead": "Reefling Scout", "heart": heart}, step=ST_CLIMAX)
    assert int(field(g, "heart_count")[1]) == 3  # HB-H1: the heart is a stack of cards
    do(g, "hand", 0)  # Blaze of Glory: 1 heartbreak = 1 break (HB-H3)
    assert zone_names(g, 1, "heart") == ["Kelp Mail", "Flash Burn"]  # HB-H2: the top card went
    assert zone_names(g, 1, "hand") == ["Moss Hermit"]  # HB-H4: face down -> hand
    g = build({"lead": "Magma Tyrant", "charge": 1, "hand": [STOP]},
              {"lead": "Scorchmaw Brute:d30", "heart": ["Kelp Mail", "Flash Burn:up", FILLER]}, step=ST_ACTION)
    do(g, "act", 0)  # 60 damage KOs a level-2 fighter: 2 breaks, one at a time (HB-H5)
    pass_window(g)
    assert zone_names(g, 1, "heart") == ["Kelp Mail"]
    assert zone_names(g, 1, "hand") == [FILLER]  # the face-down one
    assert zone_names(g, 1, "discard")[-1] == "Flash Burn"  # HB-H4: the face-up one is discarded


def test_HB_H5_H6_V1_a_ko_breaks_level_times_and_an_empty_heart_broken_loses() -> None:
    """HB-H5, HB-H6, HB-V1."""
    g = build({"lead": "Magma Tyrant", "charge": 1, "hand": [STOP]},
              {"lead": "Scorchmaw Brute:d30", "heart": [FILLER]}, step=ST_ACTION)
    do(g, "act", 0)  # level 2 KO: one card breaks, the second break hits the empty heart (HB-H6)
    pass_window(g)
    assert int(g.states[0, H_STATUS]) == TERMINATED and int(g.states[0, H_WINNER]) == 0
    g = build({"lead": "Kiln Warden", "hand": ["Blaze of Glory"], "charge": 2},
              {"lead": "Reefling Scout", "heart": []}, step=ST_CLIMAX)
    do(g, "hand", 0)  # HB-V1: no heart cards and broken once more
    assert int(g.states[0, H_WINNER]) == 0


def test_HB_H7_H8_overdrive_flips_the_top_most_face_down_card_and_needs_one() -> None:
    """HB-H7, HB-H8."""
    g = build({"lead": "Pyre Duelist", "hand": [STOP], "heart": [FILLER, "Kelp Mail", "Flash Burn:up"]},
              {"lead": "Thornwood Elder"}, step=ST_ACTION)
    do(g, "act", 1)  # Overheat: Overdrive as its cost
    pass_window(g)
    assert face_up(g, 0) == [False, True, True]  # the top-most face-down card (Kelp Mail) flipped
    g = build({"lead": "Pyre Duelist", "hand": [STOP, "Reckless Gambit"], "heart": ["Kelp Mail:up"]},
              {"lead": "Thornwood Elder"}, step=ST_ACTION)
    assert not is_legal(g, "act", 1)  # HB-H8: no face-down heart card, no Overdrive
    g = build({"lead": "Kiln Warden", "hand": ["Reckless Gambit"], "heart": ["Kelp Mail:up"]},
              {"lead": "Thornwood Elder"})
    assert not is_legal(g, "hand", 0)
    g = build({"lead": "Kiln Warden", "hand": ["Final Flare", STOP], "charge": 1},
              {"lead": "Thornwood Elder", "heart": [FILLER, FILLER, FILLER]}, step=ST_CLIMAX)
    do(g, "hand", 0)  # Final Flare: the opponent overdrives twice
    assert face_up(g, 1) == [False, True, True]


def test_HB_H9_face_down_heart_cards_are_hidden_from_both_face_up_ones_public() -> None:
    g = build({"lead": "Kiln Warden", "heart": ["Magma Tyrant", "Flash Burn:up"]}, {"lead": "Reefling Scout"})
    row = g.states[0]
    for viewer in (0, 1):
        variant = SPEC.hide(row, viewer, np.random.default_rng(viewer), g.pool)
        obs = np.zeros((2, SPEC.obs_dim), SPEC.obs_dtype)
        SPEC.kernels.batch_observe(np.stack([row, variant]), g.pool.tables, np.array([viewer, viewer], np.int32), obs)
        assert np.array_equal(obs[0], obs[1])
        side = 0 if viewer == 0 else 1
        heart = OBS.get(obs[0], "heart")[side]
        assert heart[0, 0] == 1 and heart[0, 1] == 0 and heart[0, 2:].sum() == 0  # face down: present only
        assert heart[1, 1] == 1 and heart[1, 2] == 1  # face up: its features are public
    variant = SPEC.hide(row, 0, np.random.default_rng(3), g.pool)  # the owner's own heart is re-dealt too
    assert any(SPEC.hide(row, 0, np.random.default_rng(s), g.pool)[
        SPEC.state_layout.slice("deck_list")].tolist() != row[SPEC.state_layout.slice("deck_list")].tolist()
        for s in range(3))
    del variant


# ---------------------------------------------------------------------------------------------------- evolve
def test_HB_I1_I2_I3_I4_evolve_needs_same_name_one_level_up_and_a_fighter_from_before_this_turn() -> None:
    """HB-I1, HB-I2, HB-I3, HB-I4."""
    g = build({"lead": "Cinderwing Hatchling", "backup": ["Cinderwing Hatchling:N", "Reefling Scout"],
               "hand": ["Cinderwing Drake", "Cinderwing Sovereign", "Reefling Guardian"], "charge": 3},
              {"lead": "Reefling Scout"})
    assert is_legal(g, "onto", onto(0, 0))  # HB-I1: Drake onto the Hatchling in the Lead
    assert not is_legal(g, "onto", onto(0, 1))  # HB-I3/I4: that Hatchling was called this turn
    assert not is_legal(g, "onto", onto(1, 0))  # HB-I2: two levels up
    assert not is_legal(g, "onto", onto(2, 0))  # HB-I2: another name
    assert is_legal(g, "onto", onto(2, 2))  # Reefling Guardian onto the Reefling Scout
    do(g, "onto", onto(0, 0))
    pass_window(g)
    assert name_at(g, 0, 0) == "Cinderwing Drake"
    assert not is_legal(g, "onto", onto(0, 0))  # the Drake entered this turn: no Sovereign on it yet


def test_HB_I5_evolving_by_an_effect_ignores_time_on_the_field() -> None:
    g = build({"lead": "Thornwood Seedling:N", "hand": ["Wild Growth", "Thornwood Sapling"], "charge": 1},
              {"lead": "Reefling Scout"})
    assert not is_legal(g, "onto", onto(1, 0))
    do(g, "hand", 0)  # Wild Growth: evolve
    pass_window(g)
    assert step_of(g) == ST_CHOOSE and is_legal(g, "onto", onto(0, 0))  # entered this turn: still eligible
    do(g, "onto", onto(0, 0))
    assert name_at(g, 0, 0) == "Thornwood Sapling"


def test_HB_I6_I7_I8_I9_I14_evolving_resets_damage_pays_its_cost_takes_the_stock_and_is_no_call() -> None:
    """HB-I6, HB-I7, HB-I8, HB-I9, HB-I14."""
    g = build({"lead": "Thornwood Seedling:d30", "stock": [("Heartwood Charm", 0, True)],
               "hand": ["Thornwood Sapling"], "charge": 1, "deck": ["Pyre Duelist"]},
              {"lead": "Reefling Scout"})
    base = inst_at(g, 0, 0)
    do(g, "onto", onto(0, 0))
    pass_window(g)
    evo = inst_at(g, 0, 0)
    assert damage_at(g, 0, 0) == 0  # HB-I6
    assert int(field(g, "charge_count")[0]) == 0  # HB-I9: the evolution's cost
    assert zone_names(g, 0, "stock") == ["Heartwood Charm", "Thornwood Seedling"]  # HB-I8/I14
    assert all(int(field(g, "stock_host")[0, i]) == evo for i in field(g, "stock")[0, :2])
    assert int(field(g, "stock_host")[0, base]) == evo
    assert "Pyre Duelist" not in zone_names(g, 0, "charge")  # HB-I7: the Sapling's call ability did not fire
    g = build({"lead": "Reefling Guardian", "hand": ["Reefling Leviathan"], "charge": 2},
              {"lead": "Reefling Scout"})
    assert is_legal(g, "onto", onto(0, 0))  # HB-I9: the Leviathan's call condition ("ally") does not apply
    g2 = build({"lead": None, "hand": ["Reefling Leviathan"], "charge": 2}, {"lead": "Reefling Scout"})
    assert not is_legal(g2, "hand", 0)  # ... while a call needs it


def test_HB_I10_the_evolution_enters_standing_and_has_not_acted() -> None:
    g = build({"lead": "Cinderwing Hatchling:R", "hand": ["Cinderwing Drake", STOP], "charge": 1},
              {"lead": "Thornwood Elder"})
    field(g, "acted")[0, inst_at(g, 0, 0)] = 1
    do(g, "onto", onto(0, 0))
    pass_window(g)
    assert not rested_at(g, 0, 0) and int(field(g, "acted")[0, inst_at(g, 0, 0)]) == 0
    do(g, "pass")
    pass_window(g)
    assert step_of(g) == ST_ACTION and is_legal(g, "act", 0)


def test_HB_I11_evolving_with_four_fighters_on_the_field() -> None:
    g = build({"lead": "Cinderwing Hatchling", "backup": ["Kiln Warden", "Kiln Warden", "Kiln Warden"],
               "hand": ["Cinderwing Drake", "Kiln Warden"], "charge": 1}, {"lead": "Reefling Scout"})
    assert not is_legal(g, "hand", 1) and is_legal(g, "onto", onto(0, 0))


def test_HB_I12_I13_I16_items_equip_into_stock_one_per_fighter_and_work_face_up() -> None:
    """HB-I12, HB-I13, HB-I16."""
    g = build({"lead": "Kiln Warden", "hand": ["Kelp Mail", "Traveler's Cloak", STOP]},
              {"lead": "Thornwood Elder", "hand": [FILLER]})
    do(g, "onto", onto(0, 0))  # HB-I12
    pass_window(g)
    assert zone_names(g, 0, "stock") == ["Kelp Mail"]
    assert int(field(g, "stock_host")[0, field(g, "stock")[0, 0]]) == inst_at(g, 0, 0)
    assert not is_legal(g, "onto", onto(0, 0))  # HB-I13: one item per fighter
    obs = OBS.get(SPEC.float_observation(g.observe([0]))[0], "field")[0, 0]  # the float view: HP / 100
    from cardenvs.games.heartbreak.obs_layout import FIGHTER_ARMOR_NOW, FIGHTER_HP_NOW

    # HB-I16: +20 HP and Armor 10 from the item
    assert round(obs[FIGHTER_HP_NOW] * 100) == 60 and round(obs[FIGHTER_ARMOR_NOW] * 10) == 10


def test_HB_I15_face_down_stock_is_private_and_inactive() -> None:
    g = build({"lead": "Thornwood Sapling", "hand": [STOP], "deck": ["Kelp Mail"]},
              {"lead": "Kiln Warden", "hand": [STOP]}, step=ST_ACTION)
    do(g, "act", 1)  # Root Down: the top card (Kelp Mail) face down into this fighter's stock
    pass_window(g)
    assert zone_names(g, 0, "stock") == ["Kelp Mail"] and not field(g, "face_up")[0, field(g, "stock")[0, 0]]
    from cardenvs.games.heartbreak.board import armor_of

    assert armor_of(g.states[0], g.pool.tables.cards, 0, inst_at(g, 0, 0)) == 0  # inactive face down
    row = g.states[0]
    variant = SPEC.hide(row, 1, np.random.default_rng(0), g.pool)
    obs = np.zeros((2, SPEC.obs_dim), SPEC.obs_dtype)
    SPEC.kernels.batch_observe(np.stack([row, variant]), g.pool.tables, np.array([1, 1], np.int32), obs)
    assert np.array_equal(obs[0], obs[1])  # the opponent's view does not depend on it


def test_HB_I17_I18_a_fighter_in_stock_is_not_a_fighter_and_stock_leaves_with_its_host() -> None:
    """HB-I17, HB-I18."""
    g = build({"lead": "Thornwood Sapling:d20", "stock": [("Coral Sentinel", 0, True)], "hand": [FILLER]},
              {"lead": "Kiln Warden"}, turn_player=1, step=ST_CLIMAX)
    do(g, "pass")
    pass_window(g)
    assert damage_at(g, 0, 0) == 20  # the stocked Coral Sentinel's start ability does not fire (HB-I17)
    g = build({"lead": "Magma Tyrant", "charge": 1, "hand": [STOP]},
              {"lead": "Thornwood Sapling:d40", "stock": [("Thornwood Seedling", 0, True), ("Kelp Mail", 0, True)]},
              step=ST_ACTION)
    do(g, "act", 0)
    pass_window(g)
    assert name_at(g, 1, 0) == "-" and int(field(g, "stock_count")[1]) == 0  # HB-I18
    assert set(zone_names(g, 1, "discard")) == {"Thornwood Sapling", "Thornwood Seedling", "Kelp Mail"}


# ---------------------------------------------------------------------------------------------------- Turbo
def test_HB_R1_R3_turbo_is_a_support_timing_usable_at_open_moments_of_the_own_turn() -> None:
    """HB-R1, HB-R3."""
    g = build({"lead": "Kiln Warden", "hand": ["Flash Burn", "Second Wind", STOP], "charge": 2},
              {"lead": "Thornwood Elder"}, step=ST_ACTION)
    assert is_legal(g, "hand", 0) and not is_legal(g, "hand", 1)  # HB-R1: only the Turbo support
    do(g, "hand", 0)  # HB-R3
    assert damage_at(g, 1, 0) == 20 and step_of(g) == ST_ACTION


def test_HB_R2_every_kind_of_play_opens_a_window_for_the_opponent() -> None:
    opp = {"lead": "Reefling Scout", "hand": ["Surging Shell"]}
    cases = [
        (ST_MAIN, "hand", 0, {"hand": ["Firestarter Rations"]}),  # a card play (support)
        (ST_MAIN, "hand", 0, {"hand": ["Moss Hermit"]}),  # a call (a card play that triggers an ability)
        (ST_MAIN, "skill", skill(0, 0), {"charge": 1}),  # a skill declaration
        (ST_ACTION, "act", 0, {}),  # an action declaration
        (ST_MAIN, "pass", 0, {}),  # a phase change
    ]
    for step, name, index, extra in cases:
        side = {"lead": "Kiln Warden", **extra}
        g = build(side, dict(opp), step=step)
        do(g, name, index)
        assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 1, name
        assert is_legal(g, "hand", 0)
    g = build({"lead": "Harbor Warden", "hand": [FILLER]}, {"lead": "Reefling Scout", "hand": ["Surging Shell"]},
              step=ST_CLIMAX)
    do(g, "pass")
    assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 1  # the phase change to the end phase
    do(g, "pass", player=1)
    assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 1  # the end-of-turn trigger's window
    assert int(field(g, "stack")[0, 0]) == 6  # K_TRIGGER


def test_HB_R4_a_turbo_resolves_before_what_it_answers() -> None:
    g = build({"lead": "Cinderwing Drake", "hand": [STOP]}, {"lead": "Reefling Scout", "hand": ["Surging Shell"]},
              step=ST_ACTION)
    do(g, "act", 0)  # Flame Claw 40 into Armor 10
    do(g, "hand", 0, player=1)  # Surging Shell: +20 Armor first
    pass_window(g)
    assert damage_at(g, 1, 0) == 10  # 40 - 30
    assert damage_at(g, 0, 0) == 10  # and the Shell's Counter 10 hits back


def test_HB_R8_R9_a_pass_closes_the_window_and_the_turn_player_answers_once() -> None:
    """HB-R8, HB-R9."""
    g = build({"lead": "Kiln Warden", "hand": ["Flash Burn", STOP], "charge": 1},
              {"lead": "Thornwood Elder", "hand": ["Sudden Thicket"]}, step=ST_ACTION)
    do(g, "act", 0)
    assert int(g.to_act[0]) == 1
    do(g, "pass", player=1)  # HB-R8: the pass closes the window; the turn player is not asked
    assert step_of(g) == ST_ACTION and damage_at(g, 1, 0) == 20
    # HB-R9: the opponent's end-of-turn trigger: the turn player answers; a pass by the trigger's owner closes it
    g = build({"lead": "Kiln Warden", "hand": ["Flash Burn", STOP], "charge": 1},
              {"lead": "Harbor Warden:d30", "hand": ["Sudden Thicket"]}, step=ST_CLIMAX)
    do(g, "pass")  # to the end phase
    do(g, "pass", player=1)  # no answer to the phase change
    assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 0  # the opponent's trigger: the turn player answers
    do(g, "hand", 0)  # Flash Burn on the Harbor Warden (Ward 10): 10 more damage, then the heal 20
    assert int(g.to_act[0]) == 1  # the trigger's owner may answer the Turbo (see test_HB_R5_R9_...)
    do(g, "pass", player=1)
    assert step_of(g) == ST_END_OPEN and int(field(g, "turn_player")) == 0  # closed: the end phase goes on
    assert damage_at(g, 1, 0) == 20


def test_HB_R7_stack_resolves_last_in_first_out_and_negate() -> None:
    g = build({"lead": "Kiln Warden", "hand": ["Flash Burn", STOP], "charge": 1},
              {"lead": "Thornwood Elder", "hand": ["Sudden Thicket"]}, step=ST_ACTION)
    do(g, "act", 0)  # Coal Toss 20
    do(g, "hand", 0, player=1)  # Sudden Thicket: Ward +20 (would stop Flash Burn if it resolved first)
    do(g, "hand", 0)  # Flash Burn resolves first: 20 effect damage, then the Thicket, then the attack
    assert damage_at(g, 1, 0) == 40
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Thornwood Elder", "hand": ["Riptide Denial"],
                                                        "charge": 1}, step=ST_ACTION)
    do(g, "act", 0)
    do(g, "hand", 0, player=1)  # negate the action: nothing happens, the Lead stays rested
    pass_window(g)
    assert damage_at(g, 1, 0) == 0 and rested_at(g, 0, 0)
    assert int(field(g, "acted")[0, inst_at(g, 0, 0)]) == 1


# ---------------------------------------------------------------------------------------------------- victory
def test_HB_V2_V3_deck_out_at_the_end_after_end_triggers_and_at_the_start() -> None:
    """HB-V2, HB-V3."""
    g = build({"lead": "Harbor Warden:d20", "hand": [STOP], "deck_fill": 0}, {"lead": "Reefling Scout"},
              step=ST_CLIMAX)
    do(g, "pass")
    pass_window(g)
    assert int(g.states[0, H_STATUS]) == TERMINATED and int(g.states[0, H_WINNER]) == 1
    assert damage_at(g, 0, 0) == 0  # the end-phase trigger resolved before the check (HB-V3)
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Coral Sentinel:d20", "deck_fill": 0},
              step=ST_CLIMAX)
    do(g, "pass")
    pass_window(g)
    assert int(g.states[0, H_WINNER]) == 0  # the opponent starts its turn with an empty deck
    assert damage_at(g, 1, 0) == 20  # checked before its start-phase trigger (HB-V3)


def test_HB_V4_drawing_from_an_empty_deck_draws_nothing() -> None:
    g = build({"lead": "Kiln Warden", "hand": ["Second Wind", STOP], "charge": 1, "deck_fill": 1},
              {"lead": "Reefling Scout"})
    do(g, "hand", 0)  # draw 2 from a 1-card deck
    assert int(field(g, "deck_count")[0]) == 0 and int(field(g, "hand_count")[0]) == 2
    assert int(g.states[0, H_STATUS]) == 0 and step_of(g) == ST_MAIN  # not a loss by itself


def test_HB_V5_the_game_ends_at_once_so_the_second_empty_field_check_never_happens() -> None:
    g = build({"lead": None, "hand": [STOP], "heart": [FILLER]}, {"lead": None, "heart": []})
    do(g, "pass")
    pass_window(g)
    assert int(g.states[0, H_WINNER]) == 0
    assert int(field(g, "heart_count")[0]) == 1  # HB-A3 did not happen


def test_HB_V6_both_losing_at_once_is_a_draw_and_the_turn_cap_is_a_draw() -> None:
    # one event KOs both Leads: the end of the turn ends both +20 HP buffs (a state-based KO, HB-B10), and both
    # empty hearts break. (Wildfire's two effects are two events since rules version 2: HB-B11.)
    g = build({"lead": "Kiln Warden:d40", "hand": [STOP], "heart": []},
              {"lead": "Kiln Warden:d40", "heart": []}, step=ST_CLIMAX)
    field(g, "mod_hp")[0, inst_at(g, 0, 0)] = 20
    field(g, "mod_hp")[1, inst_at(g, 1, 0)] = 20
    do(g, "pass")
    pass_window(g)
    assert int(g.states[0, H_STATUS]) == TERMINATED and int(g.states[0, H_WINNER]) == DRAW
    assert int(field(g, "discard_count")[0]) == 1 and int(field(g, "discard_count")[1]) == 1
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout"}, step=ST_CLIMAX, turn=TURN_CAP)
    do(g, "pass")
    pass_window(g)
    assert int(g.states[0, H_STATUS]) == TERMINATED and int(g.states[0, H_WINNER]) == DRAW
    assert int(g.states[0, H_TURN]) == TURN_CAP
