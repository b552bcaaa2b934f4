"""Scenario tests: action phase (HB-A*), attacks and battle (HB-B*), keywords (HB-K*), fighters and zones (HB-F*),
skills and abilities (HB-L*). Positions come from ``heartbreak_helpers.build``.

``STOP`` is a free Turbo in the turn player's hand: it keeps the action / climax phase a real decision (a decision
with a single legal action is played by the kernel), so a test can look at the position after an action.
"""
from __future__ import annotations

from heartbreak_helpers import (
    FILLER,
    build,
    damage_at,
    do,
    field,
    inst_at,
    is_legal,
    legal,
    name_at,
    pass_window,
    rested_at,
    skill,
    step_of,
    zone_names,
)

from cardenvs.games.heartbreak.state import (
    FIELD_CAP,
    ST_ACTION,
    ST_CLIMAX,
    ST_MAIN,
    ST_TARGET,
    ST_TRIGGERS,
    ST_WINDOW,
    STATE,
)

STOP = "Reinforcements"  # free Turbo: +20 HP to the own Lead until end of turn


def acts(g) -> list[int]:
    return [i for f, i in legal(g) if f == "act"]


# ---------------------------------------------------------------------------------------------------- action phase
def test_HB_A1_A2_A3_A4_empty_field_heartbreaks_once_at_the_start_of_the_action_phase() -> None:
    """HB-A1, HB-A2, HB-A3, HB-A4."""
    g = build({"lead": "Cinderwing Drake", "hand": [STOP]}, {"lead": None, "heart": ["Kelp Mail", FILLER]})
    do(g, "pass")
    pass_window(g)
    assert step_of(g) == ST_ACTION
    assert int(field(g, "heart_count")[1]) == 1 and zone_names(g, 1, "hand") == [FILLER]  # HB-A2
    assert int(field(g, "heart_count")[0]) == 5  # HB-A3: the turn player has a fighter
    assert acts(g) == [1]  # no target for Flame Claw; the non-attack action stays usable (HB-B4)
    do(g, "act", 1)
    pass_window(g)
    assert int(field(g, "heart_count")[1]) == 1  # HB-A4: acting does not repeat the check
    g = build({"lead": None, "hand": [STOP]}, {"lead": "Reefling Scout"})
    do(g, "pass")
    pass_window(g)
    assert int(field(g, "heart_count")[0]) == 4 and int(field(g, "heart_count")[1]) == 5  # HB-A3


def test_HB_A5_A6_C6_B1_K2_K3_acting_rests_the_lead_pays_and_hits() -> None:
    """HB-A5, HB-A6, HB-C6, HB-B1, HB-K2, HB-K3."""
    g = build({"lead": "Magma Tyrant", "backup": ["Kiln Warden"], "charge": 2, "hand": [STOP]},
              {"lead": "Reefling Leviathan"}, step=ST_ACTION)
    do(g, "act", 0)  # Eruption 60, [Act Cost] Discharge 1
    pass_window(g)
    assert rested_at(g, 0, 0) and int(field(g, "charge_count")[0]) == 1  # HB-A5, HB-C6
    assert damage_at(g, 1, 0) == 40  # HB-B1 attack damage 60, HB-K2 [Armor 20]
    assert damage_at(g, 0, 0) == 20  # HB-K3 [Counter 20] back to the attacker
    assert acts(g) == []  # HB-A6: the rested Lead cannot act and the Back-Up never does
    assert int(field(g, "acted")[0, inst_at(g, 0, 1)]) == 0


def test_HB_A7_action_effects_resolve_before_the_attack_damage() -> None:
    g = build({"lead": "Cinderwing Sovereign", "hand": [STOP]}, {"lead": "Thornwood Elder"}, step=ST_ACTION)
    do(g, "act", 0)  # Inferno Dive 40; its effect first gives the attacker +10 attack damage
    pass_window(g)
    assert damage_at(g, 1, 0) == 50


def test_HB_A8_A9_K4_K5_dual_strike_rises_once_and_acts_twice() -> None:
    """HB-A8, HB-A9, HB-K4, HB-K5."""
    g = build({"lead": "Pyre Duelist", "hand": [STOP]}, {"lead": "Reefling Leviathan"}, step=ST_ACTION)
    do(g, "act", 0)  # Twin Cuts 20 into [Armor 20] [Counter 20]
    pass_window(g)
    assert not rested_at(g, 0, 0)  # HB-K4/K5: acted once, [Dual Strike] rises it
    assert damage_at(g, 0, 0) == 20  # HB-A8: then the Counter damage
    assert 0 in acts(g)  # HB-A9: a standing Lead may act again
    do(g, "act", 0)
    pass_window(g)
    assert rested_at(g, 0, 0) and acts(g) == []  # second action: no rise
    assert int(field(g, "acted")[0, inst_at(g, 0, 0)]) == 2 and damage_at(g, 0, 0) == 40
    # HB-A8: the rise check follows *any* action (Root Down is no attack); [Counter] follows attacks only
    g = build({"lead": "Thornwood Sapling:d30", "hand": [STOP]}, {"lead": "Reefling Leviathan"}, step=ST_ACTION)
    field(g, "mod_strike")[0, inst_at(g, 0, 0)] = 2  # [Dual Strike] until the end of the turn
    do(g, "act", 1)  # Root Down: stock the top card, heal 20
    pass_window(g)
    assert not rested_at(g, 0, 0) and damage_at(g, 0, 0) == 10  # rose; no Counter damage after a non-attack
    assert acts(g) == [0, 1]


def test_HB_A10_a_new_lead_from_an_effect_may_act() -> None:
    g = build({"lead": "Mistveil Oracle", "backup": ["Kiln Warden"], "hand": [STOP]}, {"lead": "Thornwood Elder"},
              step=ST_ACTION)
    do(g, "act", 1)  # Ebb and Flow: swap_lead
    pass_window(g)
    assert name_at(g, 0, 0) == "Kiln Warden" and acts(g) == [0]
    do(g, "act", 0)
    pass_window(g)
    assert damage_at(g, 1, 0) == 20


def test_HB_A11_A12_acting_is_optional_and_passing_goes_to_the_climax_phase() -> None:
    """HB-A11, HB-A12."""
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Thornwood Elder"}, step=ST_ACTION)
    assert acts(g) == [0] and is_legal(g, "pass")
    do(g, "pass")
    pass_window(g)
    assert step_of(g) == ST_CLIMAX and damage_at(g, 1, 0) == 0


# ---------------------------------------------------------------------------------------------------- battle
def test_HB_B2_a_numberless_action_is_not_an_attack() -> None:
    g = build({"lead": "Cinderwing Drake", "hand": [STOP], "deck": ["Pyre Duelist"]},
              {"lead": "Briarback Boar"}, step=ST_ACTION)
    do(g, "act", 1)  # Stoke the Furnace: charge the top card, no damage
    pass_window(g)
    assert damage_at(g, 1, 0) == 0 and damage_at(g, 0, 0) == 0  # no damage and no Counter (not an attack)
    assert zone_names(g, 0, "charge") == ["Pyre Duelist"]


def test_HB_B3_K1_B6_bypass_picks_any_single_target() -> None:
    """HB-B3, HB-K1, HB-B6."""
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Thornwood Elder", "backup": ["Moss Hermit"]},
              step=ST_ACTION)
    do(g, "act", 0)  # no Bypass: straight at the Lead, no target decision
    pass_window(g)
    assert damage_at(g, 1, 0) == 20 and damage_at(g, 1, 1) == 0
    g = build({"lead": "Ashfang Raider", "hand": [STOP]}, {"lead": "Thornwood Elder", "backup": ["Moss Hermit"]},
              step=ST_ACTION)
    do(g, "act", 0)
    assert step_of(g) == ST_TARGET and sorted(i for f, i in legal(g) if f == "target") == [0, 1]
    do(g, "target", 1)
    pass_window(g)
    assert damage_at(g, 1, 1) == 20 and damage_at(g, 1, 0) == 0  # HB-B6: one target only


def test_HB_B4_B5_no_lead_to_target_only_bypass_attacks() -> None:
    """HB-B4, HB-B5."""
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": None, "backup": ["Moss Hermit"]}, step=ST_ACTION)
    assert acts(g) == []  # HB-B4: no target, no attack
    g = build({"lead": "Ashfang Raider", "hand": [STOP]}, {"lead": None, "backup": ["Moss Hermit"]},
              step=ST_ACTION)
    assert acts(g) == [0]  # HB-B5: Bypass reaches the Back-Up
    do(g, "act", 0)
    pass_window(g)
    assert damage_at(g, 1, 1) == 20


def test_HB_B7_R5_R6_R7_a_target_gone_before_the_attack_takes_no_damage() -> None:
    """HB-B7, HB-R5, HB-R6, HB-R7."""
    g = build({"lead": "Kiln Warden", "hand": ["Flash Burn", STOP], "charge": 1},
              {"lead": "Coral Sentinel:d40", "backup": ["Moss Hermit"], "hand": ["Surging Shell"]}, step=ST_ACTION)
    do(g, "act", 0)  # attack the Coral Sentinel (50 HP, 40 damage)
    assert int(g.to_act[0]) == 1
    do(g, "hand", 0, player=1)  # the opponent answers: Surging Shell (+20 Armor, +10 Counter)
    assert int(g.to_act[0]) == 0  # HB-R5: the turn player may answer
    do(g, "hand", 0)  # Flash Burn: 20 effect damage to the opposing Lead
    # HB-R6: no more Turbo; HB-R7: Flash Burn resolves first and KOs the Sentinel, then the Shell, then the attack
    assert name_at(g, 1, 0) == "-" and "Coral Sentinel" in zone_names(g, 1, "discard")
    assert damage_at(g, 1, 1) == 0 and damage_at(g, 0, 0) == 0  # HB-B7: no damage landed, no Counter
    assert int(field(g, "heart_count")[1]) == 4


def test_HB_B8_K6_K10_attack_damage_meets_armor_effect_damage_meets_ward() -> None:
    """HB-B8, HB-K6, HB-K10."""
    g = build({"lead": "Kiln Warden", "hand": ["Flash Burn", STOP], "charge": 1},
              {"lead": "Harbor Warden"}, step=ST_ACTION)  # [Armor 10] [Ward 10]
    do(g, "act", 0)
    pass_window(g)
    assert damage_at(g, 1, 0) == 10  # 20 attack damage - Armor 10 (Ward does not apply)
    do(g, "hand", 0)
    pass_window(g)
    assert damage_at(g, 1, 0) == 20  # 20 effect damage - Ward 10 (Armor does not apply)
    g = build({"lead": "Mistveil Oracle", "hand": [STOP]}, {"lead": "Briarback Boar"}, step=ST_ACTION)
    do(g, "act", 0)  # Counter 20 is effect damage: Ward 20 stops it all (HB-K6); never below 0 (HB-K10)
    pass_window(g)
    assert damage_at(g, 0, 0) == 0 and damage_at(g, 1, 0) == 20
    g = build({"lead": "Wandering Sellsword", "hand": [STOP]}, {"lead": "Reefling Leviathan"}, step=ST_ACTION)
    do(g, "act", 0)  # 20 into Armor 20: 0, not negative
    pass_window(g)
    assert damage_at(g, 1, 0) == 0


def test_HB_B9_damage_stays_from_turn_to_turn() -> None:
    g = build({"lead": "Kiln Warden:d20", "hand": [STOP]}, {"lead": "Thornwood Elder:d30"}, step=ST_CLIMAX)
    do(g, "pass")
    pass_window(g)
    assert int(field(g, "turn_player")) == 1
    assert damage_at(g, 0, 0) == 20 and damage_at(g, 1, 0) == 30


def test_HB_B10_B11_K7_K8_K9_baneful_lowers_the_opposing_lead_hp_and_kos_at_once() -> None:
    """HB-B10, HB-B11, HB-K7, HB-K8, HB-K9."""
    g = build({"lead": "Kiln Warden", "hand": ["Scorchmaw Brute"], "charge": 1},
              {"lead": "Moss Hermit:d40", "backup": ["Coral Sentinel:d40"]})
    do(g, "hand", 0)  # Scorchmaw Brute [Baneful 10] to the Back-Up: the opposing Lead now has 40 HP
    assert name_at(g, 1, 0) == "-" and "Moss Hermit" in zone_names(g, 1, "discard")  # HB-B10/B11, HB-K9
    assert damage_at(g, 1, 1) == 40  # Baneful lowers only the Lead's HP (HB-K7)
    assert int(field(g, "heart_count")[1]) == 4
    from cardenvs.games.heartbreak.board import hp_of

    g = build({"lead": "Magma Tyrant", "backup": ["Scorchmaw Brute", "Scorchmaw Brute"]},
              {"lead": "Hushwood Owl"})  # Baneful 20 + 10 + 10 against 30 HP
    row = g.states[0]
    assert hp_of(row, g.pool.tables.cards, 1, inst_at(g, 1, 0)) == 10  # HB-K8: never below 10


def test_HB_B12_an_attacker_can_be_kod_by_counter() -> None:
    g = build({"lead": "Ashfang Raider:d20", "hand": [STOP]}, {"lead": "Briarback Boar"}, step=ST_ACTION)
    do(g, "act", 0)
    pass_window(g)
    assert name_at(g, 0, 0) == "-" and "Ashfang Raider" in zone_names(g, 0, "discard")
    assert int(field(g, "heart_count")[0]) == 4


def test_HB_K2_K3_armor_and_counter_instances_add_up_and_no_counter_when_kod() -> None:
    """HB-K2, HB-K3."""
    g = build({"lead": "Kiln Warden", "hand": [STOP]},
              {"lead": "Reefling Guardian", "stock": [("Heartwood Charm", 0, True)]}, step=ST_ACTION)
    field(g, "mod_armor")[1, inst_at(g, 1, 0)] = 10  # an Armor buff on top of the printed Armor 10
    do(g, "act", 0)
    pass_window(g)
    assert damage_at(g, 1, 0) == 0  # 20 - (10 + 10)
    assert damage_at(g, 0, 0) == 20  # Counter 10 printed + 10 from the Charm
    g = build({"lead": "Magma Tyrant", "charge": 1, "hand": [STOP]}, {"lead": "Coral Sentinel"}, step=ST_ACTION)
    do(g, "act", 0)  # 60 into 50 HP: KO'd, so no Counter
    pass_window(g)
    assert damage_at(g, 0, 0) == 0 and name_at(g, 1, 0) == "-"


def test_HB_K4_K5_K11_tri_strike_and_only_the_highest_strike_counts() -> None:
    """HB-K4, HB-K5, HB-K11."""
    g = build({"lead": "Tidecaller Siren", "hand": [STOP]}, {"lead": "Thornwood Elder"}, step=ST_ACTION)
    for _ in range(3):
        assert acts(g) == [0]
        do(g, "act", 0)
        pass_window(g)
    assert acts(g) == [] and damage_at(g, 1, 0) == 90
    g = build({"lead": "Cinderwing Sovereign", "hand": [STOP]}, {"lead": "Reefling Leviathan"}, step=ST_ACTION)
    field(g, "mod_strike")[0, inst_at(g, 0, 0)] = 2  # a second [Dual Strike]: still 2 actions, not 3
    for _ in range(2):
        do(g, "act", 0)
        pass_window(g)
    assert acts(g) == []


# ---------------------------------------------------------------------------------------------------- fighters
def test_HB_F2_F4_F9_F7_F8_calling_fills_the_lead_then_the_back_up_up_to_four() -> None:
    """HB-F2, HB-F4, HB-F9, HB-F7, HB-F8."""
    g = build({"lead": None, "hand": ["Kiln Warden", "Moss Hermit", "Ashfang Raider", FILLER, "Kiln Warden"]},
              {"lead": "Reefling Scout"})
    do(g, "hand", 0)  # HB-F8: Lead empty -> the Lead
    pass_window(g)
    assert name_at(g, 0, 0) == "Kiln Warden"
    for _ in range(3):
        do(g, "hand", 0)  # HB-F7: the Lead is taken -> Back-Up
        pass_window(g)
    assert name_at(g, 0, 0) == "Kiln Warden" and int(field(g, "backup_count")[0]) == 3  # HB-F4, HB-F2
    assert not is_legal(g, "hand", 0)  # HB-F9: 4 fighters, no call


def test_HB_F5_F10_F11_called_lead_enters_standing_and_acts_this_turn() -> None:
    """HB-F5, HB-F10, HB-F11."""
    g = build({"lead": None, "backup": ["Moss Hermit:R"], "hand": ["Kiln Warden", STOP]},
              {"lead": "Thornwood Elder"})
    do(g, "hand", 0)
    pass_window(g)
    assert not rested_at(g, 0, 0)  # HB-F11
    do(g, "pass")
    pass_window(g)
    assert acts(g) == [0]  # HB-F5: the Lead acts
    do(g, "act", 0)
    pass_window(g)
    assert rested_at(g, 0, 0) and rested_at(g, 0, 1)  # HB-F10: acting rests; the Back-Up stays rested


def test_HB_F6_call_cost_and_call_conditions() -> None:
    g = build({"lead": None, "hand": ["Magma Tyrant", "Tidecaller Siren", "Fallen Star Paladin"], "charge": 3},
              {"lead": "Reefling Scout"})
    assert not is_legal(g, "hand", 0)  # condition "ally": needs another fighter
    assert not is_legal(g, "hand", 1) and not is_legal(g, "hand", 2)  # "low_heart": 5 heart cards
    g = build({"lead": "Kiln Warden", "hand": ["Magma Tyrant", "Tidecaller Siren"], "charge": 3,
               "heart": [FILLER, FILLER]}, {"lead": "Reefling Scout"})
    assert is_legal(g, "hand", 0) and is_legal(g, "hand", 1)
    do(g, "hand", 0)
    assert int(field(g, "charge_count")[0]) == 0  # Discharge 3 paid


def test_HB_F12_zones_of_the_state() -> None:
    """HB-F12: every zone holds its cards apart, Back-Up slots are unordered (kept compact), stocks move with their
    fighter."""
    zones = {f.name for f in STATE.zones}
    assert zones == {"deck", "hand", "heart", "charge", "discard", "lead", "backup", "stock", "resolving"}
    assert STATE["backup"].shape == (2, FIELD_CAP - 1)
    g = build({"lead": "Kiln Warden", "backup": ["Moss Hermit", "Coral Sentinel", "Pyre Duelist"],
               "stock": [("Heartwood Charm", 2, True)], "hand": ["Wandering Sellsword", STOP]},
              {"lead": "Reefling Scout"})
    assert not is_legal(g, "hand", 0)  # 1 Lead + 3 Back-Up: no fifth fighter
    do(g, "swap", 1)  # the Coral Sentinel (Back-Up 2) and its stock move to the Lead
    assert name_at(g, 0, 0) == "Coral Sentinel" and name_at(g, 0, 2) == "Kiln Warden"
    assert int(field(g, "stock_host")[0, int(field(g, "stock")[0, 0])]) == inst_at(g, 0, 0)
    # a Back-Up fighter leaving the field: the others close up (slots carry no order of their own)
    g = build({"lead": "Kiln Warden", "backup": ["Moss Hermit", "Coral Sentinel", "Pyre Duelist"],
               "hand": [STOP]}, {"lead": "Reefling Scout"})
    field(g, "damage")[0, inst_at(g, 0, 1)] = 50  # at its HP: KO'd at the next check
    do(g, "pass")
    assert [name_at(g, 0, pos) for pos in (1, 2, 3)] == ["Coral Sentinel", "Pyre Duelist", "-"]
    assert zone_names(g, 0, "discard") == ["Moss Hermit"] and int(field(g, "backup_count")[0]) == 2
    assert int(field(g, "heart_count")[0]) == 5 - 1 and zone_names(g, 0, "hand")[-1] == FILLER  # heart -> hand


# ---------------------------------------------------------------------------------------------------- skills, abilities
def test_HB_L1_L2_skills_in_the_own_main_phase_once_per_turn() -> None:
    """HB-L1, HB-L2."""
    g = build({"lead": "Kiln Warden", "charge": 3, "hand": [STOP]}, {"lead": "Mistveil Oracle", "hand": [FILLER]})
    assert is_legal(g, "skill", skill(0, 0)) and is_legal(g, "skill", skill(0, 1))
    do(g, "skill", skill(0, 0))  # Fan the Coals: +10 attack damage
    pass_window(g)
    assert not is_legal(g, "skill", skill(0, 0)) and is_legal(g, "skill", skill(0, 1))  # HB-L2
    do(g, "pass")
    pass_window(g)
    assert step_of(g) == ST_ACTION and not any(f == "skill" for f, _ in legal(g))  # HB-L1
    do(g, "act", 0)
    pass_window(g)
    assert damage_at(g, 1, 0) == 30  # Coal Toss 20 + 10 from the skill (Ward does not lower attack damage)


def test_HB_L3_abilities_apply_by_themselves() -> None:
    g = build({"lead": "Kiln Warden", "hand": ["Moss Hermit"], "deck": ["Pyre Duelist"]}, {"lead": "Reefling Scout"})
    do(g, "hand", 0)  # the call ability draws without any activation decision
    assert zone_names(g, 0, "hand") == ["Pyre Duelist"] and step_of(g) == ST_MAIN


def test_HB_L4_silence_turns_off_keywords_and_skills_alike() -> None:
    g = build({"lead": "Kiln Warden", "backup": ["Hushwood Owl"], "charge": 1, "hand": [STOP]},
              {"lead": "Reefling Guardian"})
    do(g, "skill", skill(1, 0))  # Hush: silence the opposing Lead
    pass_window(g)
    do(g, "pass")
    pass_window(g)
    do(g, "act", 0)
    pass_window(g)
    assert damage_at(g, 1, 0) == 20 and damage_at(g, 0, 0) == 0  # no Armor 10, no Counter 10
    g = build({"lead": "Kiln Warden", "charge": 2}, {"lead": "Reefling Scout"})
    field(g, "silenced")[0, inst_at(g, 0, 0)] = 1
    assert not any(f == "skill" for f, _ in legal(g))  # a silenced fighter's skills are off too


def test_HB_L5_L6_simultaneous_triggers_turn_player_first_each_in_chosen_order() -> None:
    """HB-L5, HB-L6: the turn player's triggers first, in its order, then the opponent's in the opponent's order.
    The damage differs per fighter, so the order is seen step by step."""
    g = build({"lead": "Harbor Warden:d20", "backup": ["Harbor Warden:d40"], "hand": [STOP]},
              {"lead": "Harbor Warden:d20", "backup": ["Harbor Warden:d40"], "hand": [FILLER]}, step=ST_CLIMAX)
    do(g, "pass")
    pass_window(g, end_open=False)
    assert step_of(g) == ST_TRIGGERS and int(g.to_act[0]) == 0
    assert sorted(i for f, i in legal(g) if f == "order") == [0, 1]  # HB-L5: the turn player's two, its order
    do(g, "order", 1)  # the Back-Up's first: the opponent may answer it
    assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 1
    assert damage_at(g, 0, 1) == 40 and damage_at(g, 0, 0) == 20  # nothing resolved yet
    do(g, "pass", player=1)
    assert damage_at(g, 0, 1) == 20 and damage_at(g, 0, 0) == 20  # the Back-Up's heal first
    do(g, "pass", player=1)  # the Lead's (the last one, taken by itself) resolves next
    assert damage_at(g, 0, 0) == 0
    # then the opponent orders its own (HB-L6), none of them resolved yet
    assert step_of(g) == ST_TRIGGERS and int(g.to_act[0]) == 1
    assert damage_at(g, 1, 0) == 20 and damage_at(g, 1, 1) == 40
    assert sorted(i for f, i in legal(g, 1) if f == "order") == [0, 1]
    do(g, "order", 0, player=1)  # the opponent's Lead first
    do(g, "pass")  # the turn player may answer each of the opponent's triggers (HB-R9)
    assert damage_at(g, 1, 0) == 0 and damage_at(g, 1, 1) == 40
    do(g, "pass")
    assert damage_at(g, 1, 1) == 20
