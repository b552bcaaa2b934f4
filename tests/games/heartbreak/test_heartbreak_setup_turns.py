"""Scenario tests: setup (HB-S*), turn structure (HB-T*), start phase (HB-P*), main phase (HB-M*), end phase (HB-E*),
climax phase (HB-X*) and costs (HB-C*). Positions come from ``heartbreak_helpers.build``."""
from __future__ import annotations

import numpy as np
from heartbreak_helpers import (FILLER, POOL, build, damage_at, do, field, inst_at, is_legal, legal, name_at, onto,
                               pass_start, pass_window, rested_at, skill, step_of, zone_names)

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_TURN
from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.observe import OBS
from cardenvs.games.heartbreak.state import (
    ST_ACTION,
    ST_CHARGE,
    ST_CLIMAX,
    ST_END_OPEN,
    ST_MAIN,
    ST_REFILL,
    ST_SETUP_LEAD,
    ST_START_OPEN,
)


def choose_leads(g: BatchGame, names: tuple[str, str]) -> None:
    for p in (0, 1):
        options = [i for f, i in legal(g) if f == "choose_lead"]
        pick = [i for i in options if POOL.name(int(field(g, "deck_list")[p, i])) == names[p]]
        do(g, "choose_lead", pick[0])


def end_turn_of(g: BatchGame) -> None:
    """From the turn player's climax phase: pass to end the turn (windows passed)."""
    assert step_of(g) == ST_CLIMAX
    do(g, "pass")
    pass_window(g)


# ---------------------------------------------------------------------------------------------------- setup
def test_HB_S1_each_player_sets_a_lead_capable_fighter_face_down() -> None:
    g = BatchGame(SPEC, 1, decks=("blaze", "grove"), seed=3)
    assert step_of(g) == ST_SETUP_LEAD and int(g.to_act[0]) == 0
    options = [i for f, i in legal(g) if f == "choose_lead"]
    names = [POOL.name(int(field(g, "deck_list")[0, i])) for i in options]
    assert len(names) == len(set(names)) >= 3  # one action per distinct card
    offered = OBS.get(g.observe([0])[0], "lead_options")
    assert sorted(np.flatnonzero(offered[:, 0]).tolist()) == sorted(options)  # what each choice is, for agents
    assert OBS.get(g.observe([1])[0], "lead_options").sum() == 0
    for n in names:
        c = POOL.cards[POOL.by_name[n]]
        assert c["type"] == "fighter" and c["cost"] == 0 and c["condition"] == "none"
    do(g, "choose_lead", options[0])
    assert inst_at(g, 0, 0) == options[0] and field(g, "face_up")[0, options[0]] == 0
    seen = OBS.get(g.observe([1])[0], "field")[1, 0]  # player 1's view of player 0's Lead
    assert seen[0] == 1 and seen[1:].sum() == 0


def test_HB_S2_S3_S4_S5_shuffle_random_first_player_hand_and_heart() -> None:
    """HB-S2, HB-S3, HB-S4, HB-S5."""
    firsts = set()
    orders = []
    for seed in range(12):
        g = BatchGame(SPEC, 1, decks=("blaze", "grove"), seed=seed)
        choose_leads(g, ("Cinderwing Hatchling", "Thornwood Seedling"))
        fp = int(field(g, "first_player"))
        firsts.add(fp)
        # HB-S4/S5: 5 cards in hand (+1 for the first player's draw step), 5 face down in the heart
        assert int(field(g, "hand_count")[1 - fp]) == 5 and int(field(g, "hand_count")[fp]) == 6
        assert list(field(g, "heart_count")) == [5, 5]
        for p in (0, 1):
            hearts = field(g, "heart")[p, :5]
            assert not field(g, "face_up")[p, hearts].any()
        assert int(field(g, "deck_count")[1 - fp]) == 50 - 11
        orders.append(tuple(field(g, "deck")[0, :39]))
    assert firsts == {0, 1}  # HB-S3
    assert len(set(orders)) > 1  # HB-S2: the deck order depends on the seed


def test_HB_S6_S7_leads_revealed_as_a_call_and_no_mulligan() -> None:
    """HB-S6, HB-S7."""
    g = BatchGame(SPEC, 1, decks=("grove", "grove"), seed=1)
    choose_leads(g, ("Moss Hermit", "Moss Hermit"))  # call ability: draw 1
    fp = int(field(g, "first_player"))
    pass_window(g)  # the other player may answer each revealed Lead's call ability (HB-R2)
    for p in (0, 1):
        assert field(g, "face_up")[p, inst_at(g, p, 0)] == 1
    assert int(field(g, "hand_count")[1 - fp]) == 6  # 5 + the call ability's draw
    assert int(field(g, "hand_count")[fp]) == 7  # 5 + call draw + draw step
    assert step_of(g) == ST_CHARGE  # HB-S7: straight to the first turn, no mulligan decision


# ---------------------------------------------------------------------------------------------------- turn structure
def test_HB_T1_T2_phases_in_order_and_first_turn_skips_the_action_phase() -> None:
    """HB-T1, HB-T2."""
    g = build({"lead": "Kiln Warden", "hand": ["Flash Burn"], "charge": 1},
              {"lead": "Reefling Scout", "hand": ["Surging Shell"]}, turn=1)
    do(g, "pass")
    pass_window(g)
    assert step_of(g) == ST_CLIMAX  # HB-T2: no action phase on the first player's first turn
    do(g, "pass")
    pass_window(g)
    assert int(field(g, "turn_player")) == 1 and int(g.states[0, H_TURN]) == 2  # HB-T1: players alternate
    assert step_of(g) == ST_CHARGE  # start phase: draw, then the charge step
    do(g, "pass")
    assert step_of(g) == ST_START_OPEN  # the start phase's open Turbo moment (HB-R3)
    pass_start(g)
    assert step_of(g) == ST_MAIN
    do(g, "pass")
    pass_window(g)
    assert step_of(g) == ST_ACTION  # the second player's first turn has its action phase
    do(g, "pass")
    pass_window(g)
    assert step_of(g) == ST_CLIMAX
    do(g, "pass")
    pass_window(g)
    assert int(field(g, "turn_player")) == 0 and int(g.states[0, H_TURN]) == 3


# ---------------------------------------------------------------------------------------------------- start phase
def test_HB_P1_P2_P3_P4_start_triggers_draw_charge_and_rise() -> None:
    """HB-P1, HB-P2, HB-P3, HB-P4."""
    g = build({"lead": "Coral Sentinel:R:d20", "backup": ["Kiln Warden:R"], "hand": ["Kiln Warden"],
               "deck": ["Scorchmaw Brute", "Pyre Duelist"]},
              {"lead": "Reefling Scout"}, turn_player=1, step=ST_CLIMAX)
    end_turn_of(g)
    assert int(field(g, "turn_player")) == 0 and step_of(g) == ST_CHARGE
    assert damage_at(g, 0, 0) == 10  # HB-P1: the start-of-turn ability healed 10
    assert zone_names(g, 0, "hand") == ["Kiln Warden", "Pyre Duelist"]  # HB-P2: drew the top card
    do(g, "hand", 0)  # HB-P3: charge Kiln Warden, then draw
    assert zone_names(g, 0, "charge") == ["Kiln Warden"]
    assert zone_names(g, 0, "hand") == ["Pyre Duelist", "Scorchmaw Brute"]
    assert not rested_at(g, 0, 0) and not rested_at(g, 0, 1)  # HB-P4
    g2 = build({"lead": "Kiln Warden", "hand": ["Pyre Duelist"]}, {"lead": "Reefling Scout"}, turn_player=1,
               step=ST_CLIMAX)
    end_turn_of(g2)
    do(g2, "pass")  # HB-P3: no charge, no extra draw
    assert int(field(g2, "charge_count")[0]) == 0 and int(field(g2, "hand_count")[0]) == 2


def test_HB_P5_P6_empty_lead_is_refilled_by_choice_keeping_state() -> None:
    """HB-P5, HB-P6."""
    g = build({"lead": None, "backup": ["Kiln Warden:d10", "Moss Hermit:d20"], "hand": ["Pyre Duelist"]},
              {"lead": "Reefling Scout"}, turn_player=1, step=ST_CLIMAX)
    end_turn_of(g)
    do(g, "pass")  # no charge
    assert step_of(g) == ST_REFILL and sorted(i for f, i in legal(g) if f == "refill") == [0, 1]
    hand_before = int(field(g, "hand_count")[0])
    do(g, "refill", 1)  # Moss Hermit into the Lead
    pass_start(g)
    assert name_at(g, 0, 0) == "Moss Hermit" and damage_at(g, 0, 0) == 20  # HB-P6: keeps its damage
    assert int(field(g, "hand_count")[0]) == hand_before  # not a call: Moss Hermit's call ability did not draw
    assert field(g, "swap_used") == 0 and is_legal(g, "swap", 0)  # not the turn's swap
    # a single Back-Up fighter moves up by itself
    g = build({"lead": None, "backup": ["Kiln Warden"], "hand": []}, {"lead": "Reefling Scout"}, turn_player=1,
              step=ST_CLIMAX)
    end_turn_of(g)
    do(g, "pass")  # no charge
    assert name_at(g, 0, 0) == "Kiln Warden"


# ---------------------------------------------------------------------------------------------------- main phase
def test_HB_M1_M2_main_phase_offers_every_option_in_any_order() -> None:
    """HB-M1, HB-M2."""
    g = build({"lead": "Cinderwing Hatchling", "backup": ["Kiln Warden"],
               "hand": ["Scorchmaw Brute", "Firestarter Rations", "Cinderwing Drake", "Emberforged Blade"],
               "charge": 4}, {"lead": "Reefling Scout"})
    options = set(legal(g))
    assert ("hand", 0) in options  # call
    assert ("hand", 1) in options  # support
    assert ("onto", onto(2, 0)) in options  # evolve the Hatchling
    assert ("onto", onto(3, 1)) in options  # equip the Kiln Warden
    assert ("skill", skill(1, 0)) in options  # Kiln Warden's skill
    assert ("swap", 0) in options
    do(g, "onto", onto(3, 1))  # equip first
    pass_window(g)
    do(g, "hand", 0)  # then call
    pass_window(g)
    assert step_of(g) == ST_MAIN and name_at(g, 0, 2) == "Scorchmaw Brute"
    do(g, "swap", 0)
    assert name_at(g, 0, 0) == "Kiln Warden"


def test_HB_M3_support_resolves_then_goes_to_the_discard_pile() -> None:
    g = build({"lead": "Kiln Warden", "hand": ["Firestarter Rations"], "deck": ["Pyre Duelist", "Scorchmaw Brute"]},
              {"lead": "Reefling Scout"})
    do(g, "hand", 0)
    assert step_of(g) == ST_MAIN  # the opponent had no Turbo: the window closed by itself
    assert zone_names(g, 0, "hand") == ["Scorchmaw Brute"]  # draw 1
    assert zone_names(g, 0, "charge") == ["Pyre Duelist"]  # charge_top 1
    assert zone_names(g, 0, "discard") == ["Firestarter Rations"]


def test_HB_M4_M5_swap_once_per_turn_keeping_state_and_not_a_call() -> None:
    """HB-M4, HB-M5."""
    g = build({"lead": "Kiln Warden:R:d10", "backup": ["Moss Hermit:d20"], "hand": []}, {"lead": "Reefling Scout"})
    hand = int(field(g, "hand_count")[0])
    do(g, "swap", 0)
    assert name_at(g, 0, 0) == "Moss Hermit" and name_at(g, 0, 1) == "Kiln Warden"
    assert damage_at(g, 0, 0) == 20 and damage_at(g, 0, 1) == 10 and rested_at(g, 0, 1)
    assert int(field(g, "hand_count")[0]) == hand  # not a call: no call ability
    assert not is_legal(g, "swap", 0)  # once per turn
    g = build({"lead": "Kiln Warden"}, {"lead": "Reefling Scout"})
    assert not any(f == "swap" for f, _ in legal(g))  # HB-M5: needs a Back-Up fighter
    g = build({"lead": None, "backup": ["Kiln Warden"]}, {"lead": "Reefling Scout"})
    assert not any(f == "swap" for f, _ in legal(g))  # ... and a Lead


def test_HB_M6_outside_the_main_phase_only_turbo_and_effects() -> None:
    g = build({"lead": "Mistveil Oracle", "backup": ["Kiln Warden"],
               "hand": ["Scorchmaw Brute", "Firestarter Rations", "Emberforged Blade", "Flash Burn"], "charge": 3},
              {"lead": "Reefling Scout"}, step=ST_ACTION)
    options = set(legal(g))
    assert ("hand", 0) not in options and ("hand", 1) not in options  # no call, no plain support
    assert not any(f in ("onto", "swap", "skill") for f, _ in options)
    assert ("hand", 3) in options  # a Turbo support is fine
    do(g, "act", 1)  # "Ebb and Flow": an effect swaps the Lead outside the main phase
    pass_window(g)
    assert name_at(g, 0, 0) == "Kiln Warden"


def test_HB_M7_declaring_the_action_phase_ends_the_main_phase() -> None:
    g = build({"lead": "Kiln Warden", "hand": ["Firestarter Rations"]}, {"lead": "Reefling Scout"})
    do(g, "pass")
    pass_window(g)
    assert step_of(g) == ST_ACTION


# ---------------------------------------------------------------------------------------------------- climax / end
def test_HB_X1_X2_X3_X4_one_optional_climax_in_the_climax_phase_only() -> None:
    """HB-X1, HB-X2, HB-X3, HB-X4."""
    g = build({"lead": "Kiln Warden", "hand": ["Blaze of Glory", "Final Flare"], "charge": 5},
              {"lead": "Reefling Scout"})
    assert not is_legal(g, "hand", 0) and not is_legal(g, "hand", 1)  # HB-X4: not in the main phase
    g = build({"lead": "Kiln Warden", "hand": ["Blaze of Glory", "Final Flare", "Flash Burn"], "charge": 5},
              {"lead": "Reefling Scout"}, step=ST_CLIMAX)
    assert is_legal(g, "hand", 0) and is_legal(g, "pass")  # HB-X1, HB-X2 (passing is fine)
    do(g, "hand", 0)  # Blaze of Glory: heartbreak 1
    assert int(field(g, "heart_count")[1]) == 4
    assert zone_names(g, 0, "discard")[-1] == "Blaze of Glory"  # HB-X4: then to the discard pile
    assert step_of(g) == ST_CLIMAX and not is_legal(g, "hand", 0)  # HB-X3: one per turn
    do(g, "pass")
    pass_window(g)
    assert int(field(g, "turn_player")) == 1


def test_HB_E1_E2_E3_end_triggers_then_the_other_turn_and_no_hand_limit() -> None:
    """HB-E1, HB-E2, HB-E3."""
    g = build({"lead": "Kiln Warden:d10", "backup": ["Harbor Warden:d30"], "hand": [FILLER] * 25},
              {"lead": "Briarback Boar"}, step=ST_CLIMAX)
    do(g, "pass")
    pass_window(g, end_open=False)
    # HB-E1 before HB-E2: the end-of-turn heal has resolved while the turn is still player 0's
    assert step_of(g) == ST_END_OPEN and int(field(g, "turn_player")) == 0
    assert damage_at(g, 0, 1) == 10  # the Harbor Warden healed 20
    assert damage_at(g, 0, 0) == 10  # the Boar's own-turn trigger (10 to this Lead) did not fire
    do(g, "pass")
    assert int(field(g, "turn_player")) == 1  # HB-E2
    assert int(field(g, "hand_count")[0]) == 25 and zone_names(g, 0, "discard") == []  # HB-E3: nothing discarded
    # HB-E1 on the other side: on its own turn the Boar's trigger fires at the end of the turn
    g = build({"lead": "Kiln Warden:d10", "hand": [FILLER]}, {"lead": "Briarback Boar", "hand": [FILLER]},
              turn_player=1, step=ST_CLIMAX, to_act=1)
    do(g, "pass", player=1)
    pass_window(g, end_open=False)
    assert step_of(g) == ST_END_OPEN and damage_at(g, 0, 0) == 20


# ---------------------------------------------------------------------------------------------------- costs
def test_HB_C1_C2_C3_C4_charge_discharge_and_costs_paid_in_full() -> None:
    """HB-C1, HB-C2, HB-C3, HB-C4."""
    g = build({"lead": "Kiln Warden", "hand": ["Scorchmaw Brute", "Magma Tyrant"], "charge": 1},
              {"lead": "Reefling Scout"})
    assert is_legal(g, "hand", 0)  # cost 1 with 1 charged card
    assert not is_legal(g, "hand", 1)  # HB-C4: cost 3 cannot be paid, the card cannot be used
    do(g, "hand", 0)
    assert int(field(g, "charge_count")[0]) == 0 and zone_names(g, 0, "discard") == [FILLER]  # HB-C2/C3
    assert not is_legal(g, "skill", skill(0, 0))  # Kiln Warden's skill costs 1: nothing left


def test_HB_C5_charge_zone_starts_empty() -> None:
    g = BatchGame(SPEC, 1, decks=("blaze", "grove"), seed=4)
    choose_leads(g, ("Cinderwing Hatchling", "Thornwood Seedling"))
    assert list(field(g, "charge_count")) == [0, 0]


def test_HB_C6_act_cost_paid_on_declaration_and_free_without_one() -> None:
    g = build({"lead": "Magma Tyrant", "backup": ["Kiln Warden"], "charge": 1}, {"lead": "Reefling Leviathan"},
              step=ST_ACTION)
    do(g, "act", 0)  # Eruption: [Act Cost] Discharge 1
    assert int(field(g, "charge_count")[0]) == 0
    g = build({"lead": "Kiln Warden"}, {"lead": "Reefling Leviathan"}, step=ST_ACTION)
    assert is_legal(g, "act", 0)  # no cost listed: free with an empty charge zone


def test_HB_C7_support_item_and_climax_costs_are_discharges() -> None:
    g = build({"lead": "Kiln Warden", "hand": ["Second Wind", "Emberforged Blade"], "charge": 1},
              {"lead": "Reefling Scout"})
    assert is_legal(g, "hand", 0) and is_legal(g, "onto", onto(1, 0))
    do(g, "onto", onto(1, 0))
    assert int(field(g, "charge_count")[0]) == 0
    assert not is_legal(g, "hand", 0)  # Second Wind's cost can no longer be paid
    g = build({"lead": "Kiln Warden", "hand": ["Heartbreaker"], "charge": 2}, {"lead": "Reefling Scout"},
              step=ST_CLIMAX)
    assert not is_legal(g, "hand", 0)  # Heartbreaker costs 3


def test_HB_C8_charged_cards_are_hidden_from_the_opponent() -> None:
    g = build({"lead": "Kiln Warden", "charge": ["Magma Tyrant", "Flash Burn"]}, {"lead": "Reefling Scout"})
    row = g.states[0]
    variant = SPEC.hide(row, 1, np.random.default_rng(0), g.pool)
    obs = np.zeros((2, SPEC.obs_dim), SPEC.obs_dtype)
    SPEC.kernels.batch_observe(np.stack([row, variant]), g.pool.tables, np.array([1, 1], np.int32), obs)
    assert np.array_equal(obs[0], obs[1])
    assert OBS.get(obs[0], "counts")[1, 4] == 2  # the count is public
    assert set(zone_names(g, 0, "charge")) == {"Magma Tyrant", "Flash Burn"}
