"""Scenario tests, one or more per checklist rule ID (DC-*): build a position, play actions, check the outcome.

Positions come from ``divinecross_helpers.build``. Decisions with a single legal action are played automatically by
the kernels (e.g. a Battle Phase with no usable skill ends by itself).
"""
from __future__ import annotations

import numpy as np
import pytest
from divinecross_helpers import (
    POOL,
    build,
    damage,
    do,
    energy,
    field,
    is_legal,
    legal,
    names,
    step_of,
    unit,
    unit_name,
)

from cardenvs.core.batch import BatchGame
from cardenvs.core.decks import Deck
from cardenvs.core.errors import IllegalActionError
from cardenvs.core.header import (
    DRAW,
    H_DECISIONS,
    H_STATUS,
    H_TO_ACT,
    H_TURN,
    H_WINNER,
    LIVE,
    TERMINATED,
    TRUNCATED,
)
from cardenvs.games.divinecross import SPEC
from cardenvs.games.divinecross import obs_layout as L
from cardenvs.games.divinecross.vocab import TYPE_UNIT
from cardenvs.games.divinecross.observe import OBS
from cardenvs.games.divinecross.state import (
    AREA_SIZE,
    ST_ASSIST_HOST,
    ST_BATTLE,
    ST_EXTRA_DRAW,
    ST_MAIN,
    ST_SETUP_PLACE,
    TURN_CAP,
)

MAIN_HOLD = "Vagabond Scout"  # hp 400, no attribute, Quick Jab: 0 Energy, 100 damage


def side(main: str = MAIN_HOLD, **kw) -> dict:
    s = {"main": main}
    s.update(kw)
    return s


def skill_hit(attacker: dict, defender: dict, skill: int = 0, turn: int = 5) -> BatchGame:
    """Player 0 uses ``skill`` in the Battle Phase against player 1; returns the game after the hit."""
    g = build(attacker, defender, step=ST_BATTLE, turn=turn)
    do(g, "skill", skill)
    return g


# ---------------------------------------------------------------------------------------------------- setup
def one_unit_deck(unit_name_: str = "Vagabond Scout") -> Deck:
    ids = [POOL.by_name[unit_name_]] + [POOL.by_name["Field Ration"]] * 29
    return Deck("one unit", "<test>", np.asarray(ids, dtype=np.int32))


def test_DC_S1_S2_S3_greeting_has_no_effect_decks_shuffled_face_down_five_card_hands() -> None:
    """DC-S1 (the greeting changes nothing: reset goes straight to the placements), DC-S2, DC-S3."""
    hands = []
    for seed in range(12):
        g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=seed)
        if step_of(g) != ST_SETUP_PLACE or int(g.to_act[0]) != 0:
            continue  # a redeal happened: the extra draws come first
        assert list(field(g, "hand_count")) == [5, 5] and list(field(g, "deck_count")) == [25, 25]
        for p in (0, 1):
            deck = field(g, "deck")[p, :25]
            assert (field(g, "face_up")[p, deck] == 0).all()  # face down in the deck zone
        hands.append(tuple(sorted(names(g, 0, "hand"))))
    assert len(hands) >= 3 and len(set(hands)) > 1  # the shuffle depends on the seed


def test_DC_S4_main_unit_chosen_from_hand_face_down_and_hidden() -> None:
    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=4)
    options = [i for n, i in legal(g) if n == "hand"]
    hand = names(g, 0, "hand")
    assert options and all(POOL.cards[POOL.by_name[hand[i]]]["type"] == "unit" for i in options)
    assert len(options) == sum(POOL.cards[POOL.by_name[n]]["type"] == "unit" for n in hand)
    chosen = hand[options[-1]]
    do(g, "hand", options[-1])
    assert unit_name(g, 0) == chosen and field(g, "face_up")[0, unit(g, 0)] == 0
    seen = OBS.get(g.observe([1])[0], "units")[1, 0]
    assert seen[L.CARD_PRESENT] == 1 and seen.sum() == 1  # the opponent sees a face-down card only (card_id 0)
    own = OBS.get(g.observe([0])[0], "units")[0, 0]
    assert own[L.CARD_TYPE + TYPE_UNIT] == 1 and own[L.CARD_CARD_ID] == POOL.by_name[chosen] + 1  # its owner sees it


def _first_seed(deck0, deck1, want) -> BatchGame:
    for seed in range(200):
        g = BatchGame(SPEC, 1, decks=(deck0, deck1), seed=seed, check_decks=False)  # test decks break D1-D4
        if want(g):
            return g
    raise AssertionError("no seed found")


def test_DC_S5_no_unit_in_hand_redeals_and_DC_S6_opponent_may_draw() -> None:
    """DC-S5: a hand without a Unit goes back, the deck is reshuffled and 5 are drawn, until a Unit is in hand;
    DC-S6: then the opponent chooses, once per redeal, whether to draw 1 extra card."""
    g = _first_seed(one_unit_deck(), "tide", lambda g: int(field(g, "redeals")[0]) >= 2)
    redeals = int(field(g, "redeals")[0])
    assert "Vagabond Scout" in names(g, 0, "hand")  # the redeals stopped at a hand with the Unit
    assert int(field(g, "hand_count")[0]) == 5 and int(field(g, "deck_count")[0]) == 25
    assert step_of(g) == ST_EXTRA_DRAW and int(g.to_act[0]) == 1  # the opponent's decision
    assert {n for n, _ in legal(g)} == {"pass", "extra_draw"} and int(field(g, "extra_left")[1]) == redeals
    twin = g.clone()
    do(g, "extra_draw")
    assert int(field(g, "hand_count")[1]) == 6 and int(field(g, "deck_count")[1]) == 24
    assert step_of(g) == ST_EXTRA_DRAW and int(g.to_act[0]) == 1  # the next redeal's offer
    for _ in range(redeals - 1):
        do(g, "extra_draw")
    assert int(field(g, "hand_count")[1]) == 5 + redeals  # one extra card per redeal, no more
    assert step_of(g) == ST_SETUP_PLACE and int(g.to_act[0]) == 0
    do(twin, "pass")  # declines the remaining offers
    assert int(field(twin, "hand_count")[1]) == 5 and int(field(twin, "deck_count")[1]) == 25
    assert step_of(twin) == ST_SETUP_PLACE and int(twin.to_act[0]) == 0 and int(field(twin, "redeals")[1]) == 0


def test_DC_S5_S9_both_hands_are_checked_before_anyone_places_or_draws_extra() -> None:
    """Issue 12 defect 20: player 1's no-Unit check used to run only after player 0 had placed its Main Unit (and
    taken its extra draw). Both hands are checked at once, first; the redeals are public, then the extra draws are
    offered, then both players place."""
    g = _first_seed("blaze", one_unit_deck(), lambda g: int(field(g, "redeals")[1]) > 0)
    assert unit(g, 0) == -1 and unit(g, 1) == -1  # nobody has placed yet
    assert int(field(g, "redeals")[0]) == 0 and "Vagabond Scout" in names(g, 1, "hand")
    assert step_of(g) == ST_EXTRA_DRAW and int(g.to_act[0]) == 0
    hand0 = sorted(names(g, 0, "hand"))
    while step_of(g) == ST_EXTRA_DRAW:
        do(g, "pass")
    assert sorted(names(g, 0, "hand")) == hand0  # DC-S9: player 0 keeps its hand
    assert step_of(g) == ST_SETUP_PLACE and int(g.to_act[0]) == 0
    # both players lacking a Unit redeal at the same moment, and each is offered the other's extra draws
    g = _first_seed(one_unit_deck(), one_unit_deck(),
                    lambda g: int(field(g, "redeals")[0]) > 0 and int(field(g, "redeals")[1]) > 0)
    assert all("Vagabond Scout" in names(g, p, "hand") for p in (0, 1)) and unit(g, 0) == unit(g, 1) == -1
    assert [int(x) for x in field(g, "extra_left")] == [int(field(g, "redeals")[1]), int(field(g, "redeals")[0])]


def test_DC_S4_placing_the_main_unit_is_a_decision_even_with_one_unit_in_hand() -> None:
    """A hand with a single Unit used to be placed automatically, so the opponent learnt from *when* the next
    decision came that the hand held one Unit. The placement is a decision whenever a hand is hidden."""
    g = _first_seed(one_unit_deck(), "tide",
                    lambda g: int(field(g, "redeals")[0]) == 0 and "Vagabond Scout" in names(g, 0, "hand"))
    assert step_of(g) == ST_SETUP_PLACE and int(g.to_act[0]) == 0 and unit(g, 0) == -1
    assert [n for n, _ in legal(g)] == ["hand"]  # one legal action, still asked
    do(g, "hand", legal(g)[0][1])
    assert unit_name(g, 0) == "Vagabond Scout" and step_of(g) == ST_SETUP_PLACE and int(g.to_act[0]) == 1


def test_DC_S9_only_the_player_without_a_unit_redoes_setup() -> None:
    g = _first_seed("blaze", one_unit_deck(), lambda g: int(field(g, "redeals")[1]) > 0)
    hand0 = sorted(field(g, "hand")[0, :5].tolist())
    deck0 = field(g, "deck")[0, :25].tolist()
    assert int(field(g, "redeals")[0]) == 0 and int(field(g, "redeals")[1]) >= 1
    while step_of(g) == ST_EXTRA_DRAW:
        do(g, "pass")
    assert sorted(field(g, "hand")[0, :5].tolist()) == hand0  # untouched hand and deck
    assert field(g, "deck")[0, :25].tolist() == deck0


def test_DC_S7_S8_S10_random_first_player_after_placement_reveal_and_empty_standby() -> None:
    """DC-S7, DC-S8, DC-S10."""
    firsts = set()
    for seed in range(24):
        g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=seed)
        if step_of(g) in (ST_SETUP_PLACE, ST_EXTRA_DRAW):
            assert int(field(g, "first_player")) == -1  # not decided before the Main Units are placed (DC-S7)
        while step_of(g) == ST_SETUP_PLACE or step_of(g) == ST_EXTRA_DRAW:
            do(g, legal(g)[0][0], legal(g)[0][1])
        first = int(field(g, "first_player"))
        firsts.add(first)
        assert int(field(g, "turn_player")) == first and g.states[0, H_TURN] == 1
        for p in (0, 1):
            assert field(g, "face_up")[p, unit(g, p)] == 1  # DC-S8
            assert int(field(g, "standby_count")[p]) == 0  # DC-S10
    assert firsts == {0, 1}


# ---------------------------------------------------------------------------------------------------- turn
def test_DC_T1_phases_in_order_and_turns_alternate() -> None:
    g = build(side("Cinderpaw Cub", energy={0: 1}), side(deck=["Smoke Bomb"]), step=ST_MAIN)
    do(g, "pass")  # end of the Main Phase: the Battle Phase follows
    assert step_of(g) == ST_BATTLE and int(g.to_act[0]) == 0
    do(g, "skill", 0)  # Battle Phase -> End Phase -> the opponent's Draw Phase -> their Main Phase
    assert int(field(g, "turn_player")) == 1 and step_of(g) == ST_MAIN and g.states[0, H_TURN] == 6
    assert names(g, 1, "hand") == ["Smoke Bomb"]


def test_DC_T2_draw_one_card_in_the_draw_phase_even_on_the_first_turn() -> None:
    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=8)
    while step_of(g) in (ST_SETUP_PLACE, ST_EXTRA_DRAW):
        do(g, legal(g)[0][0], legal(g)[0][1])
    first = int(field(g, "first_player"))
    assert g.states[0, H_TURN] == 1
    assert int(field(g, "hand_count")[first]) == 5 and int(field(g, "deck_count")[first]) == 24  # 5 - 1 + 1
    assert int(field(g, "hand_count")[1 - first]) == 4


def test_DC_T3_deck_out_deals_100_per_card_to_own_main() -> None:
    g = build(side(), side("Wandering Golem", deck=[], fill=False), step=ST_MAIN)
    do(g, "pass")  # player 0: Battle Phase (Quick Jab usable) ...
    do(g, "pass")  # ... ends without a skill; player 1 cannot draw
    assert int(field(g, "turn_player")) == 1 and damage(g, 1) == 100 and g.states[0, H_STATUS] == LIVE


def test_DC_T4_deck_out_applies_to_charging_and_card_effects_and_is_not_a_loss() -> None:
    g = build(side("Wandering Golem", hand=["Treasure Map"], deck=[], fill=False), side(), step=ST_MAIN)
    do(g, "charge", 0)
    assert damage(g, 0) == 100 and energy(g, 0) == 0
    do(g, "hand", 0)  # Treasure Map: draw 2 from an empty deck
    assert damage(g, 0) == 300 and g.states[0, H_STATUS] == LIVE and int(field(g, "hand_count")[0]) == 0


def test_DC_T5_main_phase_actions_in_any_order_within_their_limits() -> None:
    g = build(side("Kiln Warden", standby=["Cinderpaw Cub"], energy={0: 2},
                   hand=["Ashfang Raider", "Battle Fury", "Firestorm", "Flame Brand"]), side(), step=ST_MAIN)
    kinds = {n for n, _ in legal(g)}
    assert {"pass", "hand", "charge", "retreat", "ex_power"} <= kinds
    do(g, "hand", 1)  # an Action first
    do(g, "charge", 1)
    do(g, "hand", 0)  # then a Unit
    assert step_of(g) == ST_MAIN and int(field(g, "standby_count")[0]) == 2
    assert not any(n == "charge" for n, _ in legal(g))  # charge: once per turn
    do(g, "hand", 0)  # the Event
    do(g, "ex_power", 0)
    do(g, "retreat", 0)
    assert step_of(g) == ST_MAIN and unit_name(g, 0) == "Cinderpaw Cub"


def test_DC_T6_battle_phase_skill_then_ko_then_ko_zone_then_win() -> None:
    g = skill_hit(side("Cinderpaw Cub", energy={0: 1}),
                  side("Sproutling Guard", damage={0: 400}, ko=["Pollen Wisp", "Bloom Dryad"], standby=["Grove Stag"]))
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 0  # 100 x2 (red vs green) KOs it
    assert names(g, 1, "ko") == ["Pollen Wisp", "Bloom Dryad", "Sproutling Guard"]


def test_DC_T7_battle_phase_can_end_without_a_skill() -> None:
    g = build(side("Cinderpaw Cub", energy={0: 1}), side("Wandering Golem"), step=ST_BATTLE)
    assert is_legal(g, "skill", 0) and is_legal(g, "pass")
    do(g, "pass")
    assert damage(g, 1) == 0 and int(field(g, "turn_player")) == 1
    g = build(side("Pyre Drake"), side("Wandering Golem", hand=["Smoke Bomb"]), step=ST_MAIN)
    do(g, "pass")  # no usable skill: the Battle Phase ends by itself
    assert int(field(g, "turn_player")) == 1 and step_of(g) == ST_MAIN


def test_DC_T8_end_phase_condition_check_then_stun_removed_then_opponent_draws() -> None:
    g = build(side(poisoned=1, stunned=1), side("Wandering Golem", deck=["Smoke Bomb"]), step=ST_MAIN)
    do(g, "pass")  # Battle Phase: stunned, no skill -> End Phase
    assert damage(g, 0) == 100  # conditions checked (poison)
    assert int(field(g, "stunned")[0]) == 0 and int(field(g, "poisoned")[0]) == 1
    assert int(field(g, "turn_player")) == 1 and names(g, 1, "hand") == ["Smoke Bomb"]


def test_DC_T9_no_hand_size_limit() -> None:
    g = build(side(hand=["Field Ration"] * 12), side("Wandering Golem"), step=ST_MAIN)
    do(g, "pass")
    do(g, "pass")
    assert int(field(g, "hand_count")[0]) == 12 and int(field(g, "discard_count")[0]) == 0


# ---------------------------------------------------------------------------------------------------- areas, units
def test_DC_U1_U2_area_is_one_main_plus_standby_in_the_observation() -> None:
    """DC-U1, DC-U2: the Area is one Main Unit plus the Standby Units; a Unit from hand goes to Standby (the Main
    Unit stays the only one), a retreat swaps, and the observation shows Main at 0 and Standby at 1..3."""
    g = build(side("Kiln Warden", standby=["Cinderpaw Cub", "Pyre Drake"], energy={0: 2}, hand=["Ashfang Raider"]),
              side(), step=ST_MAIN)
    units = OBS.get(g.observe([0])[0], "units")
    assert [units[0, j, L.CARD_HP] * 100 for j in range(4)] == [900, 600, 900, 0]
    assert units[1, 0, L.CARD_HP] * 100 == 400
    assert units[1, 1:, L.CARD_PRESENT].sum() == 0  # the opponent: a Main Unit only
    do(g, "hand", 0)
    assert unit_name(g, 0) == "Kiln Warden" and names(g, 0, "standby")[-1] == "Ashfang Raider"
    do(g, "retreat", 1)
    assert unit_name(g, 0) == "Pyre Drake" and sorted(names(g, 0, "standby")) == sorted(
        ["Cinderpaw Cub", "Kiln Warden", "Ashfang Raider"])
    units = OBS.get(g.observe([0])[0], "units")
    assert [units[0, j, L.CARD_HP] * 100 for j in range(4)] == [900, 600, 900, 600]


def test_DC_U3_U4_standby_holds_three_units_placed_from_hand_for_free() -> None:
    """DC-U3, DC-U4."""
    g = build(side(hand=["Cinderpaw Cub", "Ashfang Raider", "Kiln Warden", "Pyre Drake"]), side(), step=ST_MAIN)
    for _ in range(3):
        do(g, "hand", 0)
    assert names(g, 0, "standby") == ["Cinderpaw Cub", "Ashfang Raider", "Kiln Warden"]
    assert unit_name(g, 0) == MAIN_HOLD and int(field(g, "energy_count")[0]) == 0
    assert not is_legal(g, "hand", 0)  # a fourth Standby Unit has no slot


def test_DC_U5_only_the_main_unit_uses_skills_and_hits_the_opposing_main() -> None:
    g = build(side(standby=["Pyre Drake"], energy={1: 5}), side("Wandering Golem", standby=["Grove Stag"]),
              step=ST_BATTLE)
    assert {n for n, _ in legal(g)} == {"pass", "skill"}
    assert [i for n, i in legal(g) if n == "skill"] == [0]  # Quick Jab of the Main Unit only
    do(g, "skill", 0)
    assert damage(g, 1, 0) == 100 and damage(g, 1, 1) == 0


def test_DC_U6_damage_stays_and_adds_up() -> None:
    g = skill_hit(side(), side("Wandering Golem", damage={0: 300}))
    assert damage(g, 1) == 400


def test_DC_U7_discard_pile_and_ko_zone_face_up_deck_face_down() -> None:
    g = build(side(hand=["Battle Fury"]), side(), step=ST_MAIN)
    do(g, "hand", 0)
    inst = int(field(g, "discard")[0, 0])
    assert names(g, 0, "discard") == ["Battle Fury"] and field(g, "face_up")[0, inst] == 1
    deck = field(g, "deck")[0, : int(field(g, "deck_count")[0])]
    assert (field(g, "face_up")[0, deck] == 0).all()


def test_DC_U7_O3_face_up_cards_are_counted_by_card_id_in_both_observations() -> None:
    """DC-U7, DC-O3: every face-up card (discard pile, KO Zone, attached Energy and Assists) is public: both
    players observe it, counted by card id (``public_cards[side, pile, card id]``; side 0 = the viewer)."""
    g = build(side(hand=["Battle Fury", "Firestorm"], energy={0: 2}, assists={0: ["Flame Brand"]}),
              side("Vagabond Scout", damage={0: 300}, standby=["Grove Stag"], ko=["Bloom Dryad"]), step=ST_MAIN)
    do(g, "hand", 0)  # Battle Fury to the discard pile
    do(g, "hand", 0)  # Firestorm KOs player 1's Main Unit
    fury, storm, dryad, scout = (POOL.by_name[n] for n in ("Battle Fury", "Firestorm", "Bloom Dryad", "Vagabond Scout"))
    brand, energy_card = POOL.by_name["Flame Brand"], POOL.by_name["Treasure Map"]
    for viewer in (0, 1):
        pub = OBS.get(g.observe([viewer])[0], "public_cards")
        own, opp = (pub[0], pub[1]) if viewer == 0 else (pub[1], pub[0])
        assert own[0, fury] == 1 and own[0, storm] == 1 and own[0].sum() == 2  # player 0's discard pile
        assert own[2, energy_card] == 2 and own[2, brand] == 1 and own[2].sum() == 3  # attached
        assert opp[1, dryad] == 1 and opp[1, scout] == 1 and opp[1].sum() == 2  # player 1's KO Zone
        assert opp[0].sum() == 0


def test_DC_U8_units_have_hp_attribute_skills_ex_power_advantage_and_retreat() -> None:
    """DC-U8: every stat a Unit card prints reaches the rules: HP (KO), attribute and advantage (x2), each skill's
    Energy need and damage, the EX-Power, the retreat cost."""
    # HP: Kiln Warden (900) survives 800 damage and is KO'd at 900
    g = skill_hit(side(), side("Kiln Warden", damage={0: 800}, standby=["Grove Stag"]))
    assert names(g, 1, "ko") == ["Kiln Warden"]
    g = skill_hit(side(), side("Kiln Warden", damage={0: 700}, standby=["Grove Stag"]))
    assert names(g, 1, "ko") == []
    # attribute + advantage: red Cinderpaw Cub (advantage green) doubles against green only
    assert damage(skill_hit(side("Cinderpaw Cub", energy={0: 1}), side("Grove Stag")), 1) == 200
    assert damage(skill_hit(side("Cinderpaw Cub", energy={0: 1}), side("Tidecaller Nymph")), 1) == 100
    # skills: Energy need per skill (Kiln Warden: 2 and 4), printed damage of each
    g = build(side("Kiln Warden", energy={0: 3}), side("Wandering Golem"), step=ST_BATTLE)
    assert is_legal(g, "skill", 0) and not is_legal(g, "skill", 1)
    do(g, "skill", 0)
    assert damage(g, 1) == 200
    assert damage(skill_hit(side("Kiln Warden", energy={0: 4}), side("Wandering Golem"), skill=1), 1) == 400
    # EX-Power: Pyre Drake's EX-Power deals its damage; a Unit without one offers none
    g = build(side("Pyre Drake", standby=["Cinderpaw Cub"]), side("Wandering Golem"), step=ST_MAIN)
    assert is_legal(g, "ex_power", 0) and not is_legal(g, "ex_power", 1)
    do(g, "ex_power", 0)
    assert damage(g, 1) > 0
    # retreat cost: Pyre Drake needs 3 Energy, Flicker Imp none
    assert not is_legal(build(side("Pyre Drake", energy={0: 2}, standby=["Cinderpaw Cub"]), side()), "retreat", 0)
    assert is_legal(build(side("Pyre Drake", energy={0: 3}, standby=["Cinderpaw Cub"]), side()), "retreat", 0)
    assert is_legal(build(side("Flicker Imp", standby=["Cinderpaw Cub"]), side()), "retreat", 0)


# ---------------------------------------------------------------------------------------------------- charge
def test_DC_C1_C2_charge_once_per_turn_top_card_to_any_unit() -> None:
    """DC-C1, DC-C2."""
    g = build(side(standby=["Kiln Warden"], deck=["Smoke Bomb"]), side(), step=ST_MAIN)
    assert is_legal(g, "charge", 0) and is_legal(g, "charge", 1)
    do(g, "charge", 1)  # a Standby Unit
    assert energy(g, 0, 1) == 1 and names(g, 0, "energy") == ["Smoke Bomb"]  # the top card
    assert not any(n == "charge" for n, _ in legal(g))
    g = build(side(deck=[], fill=False), side(), step=ST_MAIN)
    do(g, "charge", 0)  # DC-C2: an empty deck: deck-out damage, nothing attached
    assert damage(g, 0) == 100 and int(field(g, "energy_count")[0]) == 0


def test_DC_C3_C4_untyped_energy_meets_the_requirement() -> None:
    """DC-C3, DC-C4."""
    g = build(side("Pyre Drake", energy={0: 2}, hand=["Field Ration"], deck=["Battle Fury"]),
              side("Wandering Golem"), step=ST_MAIN)
    do(g, "hand", 0)  # keep the Main Phase open
    assert step_of(g) == ST_MAIN
    g2 = g.clone()
    do(g2, "pass")  # 2 Energy, Blazing Roar needs 3: no skill, the Battle Phase ends by itself (DC-C4)
    assert int(field(g2, "turn_player")) == 1
    do(g, "charge", 0)  # an Action card as Energy counts like any other (DC-C3)
    do(g, "pass")
    assert is_legal(g, "skill", 0) and not is_legal(g, "skill", 1)


def test_DC_C5_using_a_skill_spends_no_energy() -> None:
    g = skill_hit(side("Pyre Drake", energy={0: 3}), side("Wandering Golem"))
    assert energy(g, 0) == 3


def test_DC_C6_energy_and_assists_move_with_their_unit() -> None:
    g = build(side("Kiln Warden", standby=["Ashfang Raider"], energy={0: 3, 1: 1},
                   assists={0: ["Iron Buckler"], 1: ["Flame Brand"]}), side(), step=ST_MAIN)
    do(g, "retreat", 0)  # cost 2 of the 3 Energy
    assert unit_name(g, 0) == "Ashfang Raider" and energy(g, 0, 0) == 1
    assert unit_name(g, 0, 1) == "Kiln Warden" and energy(g, 0, 1) == 1
    host = field(g, "host")[0]
    assist = {POOL.name(int(field(g, "deck_list")[0, a])): int(host[a]) for a in field(g, "assist")[0, :2]}
    assert assist == {"Iron Buckler": unit(g, 0, 1), "Flame Brand": unit(g, 0, 0)}


# ---------------------------------------------------------------------------------------------------- skills, EX
def test_DC_K1_one_skill_per_turn_from_the_main_unit() -> None:
    g = skill_hit(side("Cinderpaw Cub", energy={0: 2}, hand=["Field Ration"]), side("Wandering Golem"))
    assert int(field(g, "turn_player")) == 1  # the skill ends the Battle Phase: no second skill this turn
    assert damage(g, 1) == 100


def test_DC_K2_first_player_cannot_use_a_skill_on_turn_one() -> None:
    g = build(side(hand=["Field Ration"]), side("Wandering Golem"), step=ST_MAIN, turn=1, first_player=0)
    assert is_legal(g, "charge", 0) and is_legal(g, "hand", 0)  # other actions stay allowed
    do(g, "pass")  # Battle Phase: no skill on turn 1 -> ended automatically
    assert int(field(g, "turn_player")) == 1 and damage(g, 1) == 0
    g = build(side(), side("Wandering Golem"), step=ST_BATTLE, turn=2, first_player=1)
    assert is_legal(g, "skill", 0)  # the second player's first turn


def test_DC_K3_skill_damage_is_printed_damage_plus_its_ability() -> None:
    g = skill_hit(side("Pyre Drake", energy={0: 5}), side("Wandering Golem"))  # 300 + 100 x 2 extra Energy
    assert damage(g, 1) == 500 and int(field(g, "last_damage")) == 500


def end_turn(g: BatchGame) -> None:
    """Pass (Main Phase, then Battle Phase) until the turn passes to the other player."""
    tp = int(field(g, "turn_player"))
    for _ in range(10):
        if int(field(g, "turn_player")) != tp or g.states[0, H_STATUS] != LIVE:
            return
        do(g, "pass")
    raise AssertionError("the turn did not end")


def test_DC_K4_K5_ex_power_once_per_game_from_any_unit() -> None:
    """DC-K4, DC-K5: from a Standby Unit, in the Main Phase; after it, no EX-Power on this or any later turn of the
    game, from any Unit (the game goes through the opponent's turn and back)."""
    g = build(side(standby=["Kiln Warden", "Pyre Drake"], damage={1: 500}), side("Wandering Golem"), step=ST_MAIN)
    assert is_legal(g, "ex_power", 1) and is_legal(g, "ex_power", 2) and not is_legal(g, "ex_power", 0)
    twin = g.clone()
    do(g, "ex_power", 1)  # the Standby Kiln Warden heals itself 300
    assert damage(g, 0, 1) == 200 and int(field(g, "ex_used")[0]) == 1
    assert not any(n == "ex_power" for n, _ in legal(g))
    turn = int(g.states[0, H_TURN])
    end_turn(g)
    end_turn(g)
    assert int(field(g, "turn_player")) == 0 and int(g.states[0, H_TURN]) == turn + 2 and step_of(g) == ST_MAIN
    assert not any(n == "ex_power" for n, _ in legal(g))  # a new turn: still used
    end_turn(twin)
    end_turn(twin)
    assert is_legal(twin, "ex_power", 1) and is_legal(twin, "ex_power", 2)  # unused: offered on every turn


# ---------------------------------------------------------------------------------------------------- retreat
def test_DC_R1_R2_retreat_once_pays_energy_and_swaps() -> None:
    """DC-R1, DC-R2."""
    g = build(side("Kiln Warden", standby=["Cinderpaw Cub", "Ashfang Raider"], energy={0: 3}), side(), step=ST_MAIN)
    assert [i for n, i in legal(g) if n == "retreat"] == [0, 1]
    do(g, "retreat", 1)
    assert unit_name(g, 0) == "Ashfang Raider" and names(g, 0, "standby") == ["Cinderpaw Cub", "Kiln Warden"]
    assert energy(g, 0, 2) == 1 and int(field(g, "discard_count")[0]) == 2  # retreat cost 2 discarded
    assert not any(n == "retreat" for n, _ in legal(g))  # once per turn


def test_DC_R3_damage_stays_and_retreat_needs_standby_and_energy() -> None:
    g = build(side("Kiln Warden", energy={0: 2}), side(), step=ST_MAIN)
    assert not any(n == "retreat" for n, _ in legal(g))  # no Standby Unit
    g = build(side("Kiln Warden", standby=["Cinderpaw Cub"], energy={0: 1}), side(), step=ST_MAIN)
    assert not any(n == "retreat" for n, _ in legal(g))  # 1 Energy, cost 2
    g = build(side("Kiln Warden", standby=["Cinderpaw Cub"], energy={0: 2}, damage={0: 300, 1: 200}), side(),
              step=ST_MAIN)
    do(g, "retreat", 0)
    assert damage(g, 0, 0) == 200 and damage(g, 0, 1) == 300


def test_DC_R4_moving_up_after_a_ko_is_not_a_retreat() -> None:
    g = build(side(damage={0: 300}, standby=["Kiln Warden", "Ashfang Raider"], energy={1: 2}, deck=[], fill=False),
              side(), step=ST_MAIN)
    do(g, "charge", 0)  # deck-out KOs the Main Unit: its owner moves a Standby Unit up
    assert {n for n, _ in legal(g)} == {"promote"}
    do(g, "promote", 0)
    assert unit_name(g, 0) == "Kiln Warden" and int(field(g, "retreated")[0]) == 0
    assert is_legal(g, "retreat", 0)  # the once-per-turn retreat is still there


# ---------------------------------------------------------------------------------------------------- cards
def test_DC_E1_E2_events_once_per_turn_actions_and_assists_any_number() -> None:
    """DC-E1, DC-E2."""
    g = build(side(hand=["Firestorm", "Smoke Bomb", "Battle Fury", "Battle Fury", "Iron Buckler", "Flame Brand"],
                   standby=["Cinderpaw Cub"]), side("Elder Treant"), step=ST_MAIN)
    do(g, "hand", 0)  # Firestorm (Event)
    assert damage(g, 1) == 200 and not is_legal(g, "hand", 0)  # Smoke Bomb: a second Event this turn
    do(g, "hand", 1)
    do(g, "hand", 1)  # two Actions
    assert int(field(g, "boost")[0, unit(g, 0)]) == 400
    do(g, "hand", 1)
    do(g, "host", 0)
    do(g, "hand", 1)
    do(g, "host", 0)  # two Assists
    assert names(g, 0, "assist") == ["Iron Buckler", "Flame Brand"] and names(g, 0, "hand") == ["Smoke Bomb"]


def test_DC_E3_cards_only_in_their_owners_main_phase() -> None:
    g = build(side("Cinderpaw Cub", energy={0: 1}, hand=["Battle Fury"]),
              side("Wandering Golem", hand=["Battle Fury", "Firestorm"]), step=ST_MAIN)
    assert legal(g, player=1) == []  # the opponent has no decision at all
    do(g, "pass")
    assert step_of(g) == ST_BATTLE and {n for n, _ in legal(g)} == {"pass", "skill"}  # no cards in battle
    with pytest.raises(IllegalActionError):
        do(g, "hand", 0)


def test_DC_E4_assist_attaches_to_a_chosen_unit_and_stays() -> None:
    g = build(side(standby=["Kiln Warden"], hand=["Iron Buckler"]), side(), step=ST_MAIN)
    do(g, "hand", 0)
    assert {n for n, _ in legal(g)} == {"host"} and len(legal(g)) == 2
    do(g, "host", 1)
    inst = int(field(g, "assist")[0, 0])
    assert int(field(g, "host")[0, inst]) == unit(g, 0, 1) and names(g, 0, "hand") == []
    do(g, "retreat", 0)  # the host moves up: the Assist stays on it
    assert int(field(g, "host")[0, inst]) == unit(g, 0, 0)


def test_DC_E5_resolved_event_and_action_go_to_the_discard_pile() -> None:
    g = build(side(hand=["Treasure Map", "Sap Mend"]), side(), step=ST_MAIN)
    do(g, "hand", 0)
    do(g, "hand", 0)  # Sap Mend (the 2 drawn cards come after it)
    assert names(g, 0, "discard") == ["Treasure Map", "Sap Mend"]


# ---------------------------------------------------------------------------------------------------- damage
def test_DC_A1_step_one_printed_damage_and_skill_ability() -> None:
    g = skill_hit(side("Cinderpaw Cub", energy={0: 2}), side("Wandering Golem", damage={0: 100}), skill=1)
    assert damage(g, 1) == 100 + 300  # Flare Pounce 200 + 100 because the target already has damage
    g = skill_hit(side("Cinderpaw Cub", energy={0: 2}), side("Wandering Golem"), skill=1)
    assert damage(g, 1) == 200


def test_DC_A2_users_modifiers_in_the_order_its_player_chooses() -> None:
    """Quick Jab (100) with Cursed Blade (+200) and a -200 boost: -200 first (floored at 0) then +200 gives 200,
    the other order 100; the user chooses, so 200. (Before v2 this used Spore Cloud, printed 0: DC-A8.)"""
    attacker = side("Vagabond Scout", assists={0: ["Cursed Blade"]})
    g = build(attacker, side("Wandering Golem"), step=ST_BATTLE)
    field(g, "boost")[0, unit(g, 0)] = -200
    do(g, "skill", 0)
    assert damage(g, 1) == 200


def test_DC_A3_receivers_modifiers_after_the_users_ordered_by_the_user() -> None:
    # step 2 before step 3: 100 + 200 (Cursed Blade) = 300, then -200 (guard) = 100 (the reverse order gives 200)
    g = build(side(assists={0: ["Cursed Blade"]}), side("Wandering Golem"), step=ST_BATTLE)
    field(g, "guard")[1, unit(g, 1)] = 200
    do(g, "skill", 0)
    assert damage(g, 1) == 100
    # the receiver's halve and +100 (Cursed Blade): halve first then +100 = 200 (the receiver would pick 100)
    g = skill_hit(side(), side("Wandering Golem", assists={0: ["Mirror Ward", "Cursed Blade"]}))
    assert damage(g, 1) == 200


def test_DC_A4_advantage_doubles_last() -> None:
    g = skill_hit(side("Tidecaller Nymph", energy={0: 1}), side("Cinderpaw Cub"))
    assert damage(g, 1) == 200  # blue Ripple 100 vs red: x2
    g = skill_hit(side("Tidecaller Nymph", energy={0: 1}), side("Kiln Warden", assists={0: ["Iron Buckler"]}))
    assert damage(g, 1) == 0  # (100 - 100) x 2: the doubling comes after the receiver's reduction
    g = skill_hit(side("Tidecaller Nymph", energy={0: 1}), side("Wandering Golem"))
    assert damage(g, 1) == 100  # no attribute: no advantage


def test_DC_A5_damage_is_counted_in_hundreds(tmp_path) -> None:
    from cardenvs.core.errors import CardPoolError
    from cardenvs.games.divinecross import load_pool

    bad = tmp_path / "pool.toml"
    bad.write_text('[[card]]\nname = "Odd"\ntype = "unit"\nseries = ["X"]\nhp = 450\n'
                   '[[card.skill]]\nname = "Hit"\ndamage = 100\n')
    with pytest.raises(CardPoolError, match="hundreds"):
        load_pool([bad])
    values = [c["hp"] for c in POOL.cards] + [s["damage"] for c in POOL.cards for s in c["skills"]]
    assert all(v % 100 == 0 for v in values)
    g = skill_hit(side(), side("Wandering Golem", assists={0: ["Mirror Ward"]}))
    assert damage(g, 1) == 100  # 100 halved rounds up to the next hundred


def test_DC_A6_other_damage_is_dealt_as_stated() -> None:
    g = build(side("Cinderpaw Cub", hand=["Firestorm"], assists={0: ["Flame Brand"]}),
              side("Sproutling Guard", assists={0: ["Iron Buckler", "Mirror Ward"]}), step=ST_MAIN)
    do(g, "hand", 0)
    assert damage(g, 1) == 200  # no modifiers, no doubling (red vs green)
    g = build(side(), side("Sproutling Guard", assists={0: ["Iron Buckler"]}, deck=[], fill=False), step=ST_MAIN)
    do(g, "pass")
    do(g, "pass")
    assert damage(g, 1) == 100  # deck-out damage ignores the Buckler


def test_DC_A7_modified_damage_never_below_zero() -> None:
    g = skill_hit(side("Flicker Imp", energy={0: 1}), side("Moss Tortoise", damage={0: 100}))
    assert damage(g, 1) == 100 and int(field(g, "last_damage")) == 0  # 300 - 100 - 200 -> 0, no healing


def test_DC_A8_a_skill_that_deals_no_damage_takes_no_modifiers_and_no_doubling() -> None:
    """Issue 39 #14 (DC-A8, v2): Spore Cloud (printed 0, no damage ability) with Battle Fury (+200 this turn)
    against a blue Main Unit (Pollen Wisp has the advantage on blue) dealt (0 + 200) x 2 = 400. A skill whose step-1
    damage is 0 does no damage: steps 2-4 never turn it into a hit. One off, at 100, every step applies."""
    wisp = side("Pollen Wisp", energy={0: 3}, hand=["Battle Fury"])
    for k, want in ((0, 0), (1, (100 + 200 - 100) * 2)):  # Spore Cloud (0), Sleep Pollen (100); Titan: -100
        g = build(wisp, side("Reef Titan"), step=ST_MAIN)
        do(g, "hand", 0)  # Battle Fury: boost +200 on the Wisp
        do(g, "pass")
        do(g, "skill", k)
        assert damage(g, 1) == want and int(field(g, "last_damage")) == want, (k, damage(g, 1))
    g = build(side("Pollen Wisp", energy={0: 1}), side("Tidecaller Nymph", assists={0: ["Cursed Blade"]}),
              step=ST_BATTLE)
    do(g, "skill", 0)  # the receiver's "takes 100 more" does not reach a skill that deals nothing either
    assert damage(g, 1) == 0 and int(field(g, "poisoned")[1]) == 1  # the ability still resolves (Poison)


# ---------------------------------------------------------------------------------------------------- conditions
def test_DC_N1_N4_end_phase_checks_only_the_turn_players_main_and_poison_stays() -> None:
    """DC-N1, DC-N4."""
    g = build(side(poisoned=1), side("Wandering Golem", poisoned=1), step=ST_MAIN)
    do(g, "pass")
    do(g, "pass")
    assert damage(g, 0) == 100 and damage(g, 1) == 0
    assert int(field(g, "poisoned")[0]) == 1  # DC-N4: not removed


def test_DC_N2_N3_stunned_main_misses_its_battle_phase_and_stun_ends_at_its_end_phase() -> None:
    """DC-N2, DC-N3."""
    g = skill_hit(side("Pollen Wisp", energy={0: 3}), side("Wandering Golem", energy={0: 2}), skill=1)
    assert int(field(g, "stunned")[1]) == 1 and int(field(g, "turn_player")) == 1  # stunned on player 0's turn
    do(g, "pass")  # player 1's Main Phase ends; Battle Phase: no skill while Stunned -> ended automatically
    assert int(field(g, "turn_player")) == 0 and int(field(g, "stunned")[1]) == 0 and damage(g, 0) == 0


def test_DC_N3_R5_a_stunned_main_unit_may_retreat_and_the_replacement_attacks() -> None:
    """DC-R5 (v2): a Stunned Main Unit may retreat; the stun leaves with it (DC-N5), so the Unit misses its Battle
    Phase (DC-N3) but its player does not. v0/v1 forbade the retreat, which made a repeatable stun a lock (issue 39
    #13). The retreat still costs its Energy (DC-R2) and the once-per-turn retreat (DC-R1)."""
    g = build(side("Kiln Warden", standby=["Cinderpaw Cub"], energy={0: 2, 1: 2}, stunned=1),
              side("Wandering Golem"), step=ST_MAIN)
    assert not is_legal(g, "skill", 0)  # not the Battle Phase yet; the Stunned Warden has no skill there either
    do(g, "retreat", 0)
    assert unit_name(g, 0) == "Cinderpaw Cub" and int(field(g, "stunned")[0]) == 0  # DC-N5: the stun went with it
    assert energy(g, 0, 1) == 0 and unit_name(g, 0, 1) == "Kiln Warden"  # DC-R2: the Warden paid 2
    do(g, "pass")
    assert is_legal(g, "skill", 1)  # the replacement attacks this very turn
    do(g, "skill", 1)
    assert damage(g, 1) == 200
    g = build(side("Kiln Warden", standby=["Cinderpaw Cub"], energy={0: 1}, stunned=1), side("Wandering Golem"),
              step=ST_MAIN)
    assert not is_legal(g, "retreat", 0)  # a Stunned Unit still pays its retreat cost (2 > 1 Energy)


def _battle_turn(g: BatchGame, p: int) -> int:
    """Player ``p``'s Battle Phase (the Main Phase passed): the usable skill with the most damage; its damage."""
    if step_of(g) == ST_MAIN:
        do(g, "pass")
    if step_of(g) != ST_BATTLE or int(g.to_act[0]) != p:
        return 0
    usable = [k for name, k in legal(g) if name == "skill"]
    if not usable:
        do(g, "pass")
        return 0
    do(g, "skill", usable[-1])
    return int(field(g, "last_damage"))


def test_DC_N3_R5_no_repeatable_stun_lock_sleep_pollen_every_turn() -> None:
    """Issue 39 #13: Pollen Wisp's Sleep Pollen (3 Energy, never spent) stunned the opposing Main Unit every turn,
    and an Elder Treant with 6 Energy and 2 Standby Units could neither attack nor retreat for 5 rounds (DC-R5 of
    v0/v1). Now the stunned player retreats (DC-R5, v2) and a Standby Unit attacks the same turn, every turn the
    Wisp stuns, and the Wisp falls."""
    g = build(side("Elder Treant", standby=["Sproutling Guard", "Grove Stag"], energy={0: 6, 1: 2, 2: 2}),
              side("Pollen Wisp", standby=["Wandering Golem"], energy={0: 3}), turn_player=1, step=ST_BATTLE)
    hits = []
    for _ in range(5):
        if unit_name(g, 1) != "Pollen Wisp" or int(g.states[0, H_STATUS]) != LIVE:
            break
        do(g, "skill", 1)  # Sleep Pollen: 100 damage and a stun on player 0's Main Unit
        assert int(field(g, "stunned")[0]) == 1 and int(field(g, "turn_player")) == 0
        retreats = [k for name, k in legal(g) if name == "retreat"]
        assert retreats, f"player 0's Stunned {unit_name(g, 0)} cannot retreat: a stun-lock"
        best = max(retreats, key=lambda s: energy(g, 0, s + 1))
        do(g, "retreat", best)
        do(g, "charge", 0)  # the Energy a charge adds each turn (DC-C1) keeps paying retreats: skills spend none
        hits.append(_battle_turn(g, 0))
        if unit_name(g, 1) == "Pollen Wisp":  # player 1's next turn: straight to its Battle Phase
            do(g, "pass")
    assert all(h > 0 for h in hits), hits  # every stunned turn ended with a skill all the same
    assert "Pollen Wisp" in names(g, 1, "ko")


@pytest.mark.parametrize("card", [c["name"] for c in POOL.cards if c["type"] == "unit"])
def test_DC_R5_every_stunned_unit_can_hand_over_to_a_standby_unit(card: str) -> None:
    """Issue 39 #13, for the whole pool: whatever Unit is Stunned, with a Standby Unit and its retreat cost in
    Energy its player retreats it and the Standby Unit uses a skill that same turn, so no stun (repeatable or not)
    takes a player's Battle Phase while they have a Standby Unit and the Energy."""
    cost = int(POOL.cards[POOL.by_name[card]]["retreat"])
    g = build(side(card, standby=["Vagabond Scout"], energy={0: cost}, stunned=1), side("Wandering Golem"),
              step=ST_MAIN)
    do(g, "retreat", 0)
    do(g, "pass")
    assert is_legal(g, "skill", 0), card  # Quick Jab: 0 Energy


def test_main_phase_with_cards_in_hand_is_a_decision_even_with_only_pass_legal() -> None:
    """Decision timing: a Main Phase whose only legal action is pass used to end by itself, so the opponent learnt
    that the hand held nothing playable. While the hand holds cards it is a decision; with an empty hand (public)
    it still ends by itself."""
    g = build(side(hand=["Smoke Bomb"], event_played=1, ex_used=1), side("Wandering Golem"), step=ST_MAIN)
    do(g, "charge", 0)
    assert step_of(g) == ST_MAIN and int(g.to_act[0]) == 0 and legal(g) == [("pass", 0)]
    g = build(side(ex_used=1), side("Wandering Golem"), step=ST_MAIN)
    do(g, "charge", 0)
    assert step_of(g) == ST_BATTLE and int(g.to_act[0]) == 0  # empty hand: the Main Phase ended by itself


def test_DC_N5_leaving_the_main_area_ends_conditions() -> None:
    """DC-N5: a retreat ends the conditions (Poison here; the stun: DC-R5's test); a KO ends both."""
    g = build(side("Kiln Warden", standby=["Cinderpaw Cub"], energy={0: 2}, poisoned=1), side(), step=ST_MAIN)
    do(g, "retreat", 0)
    assert int(field(g, "poisoned")[0]) == 0 and unit_name(g, 0) == "Cinderpaw Cub"
    g = build(side(), side("Vagabond Scout", damage={0: 300}, standby=["Grove Stag"], poisoned=1, stunned=1),
              step=ST_BATTLE)
    do(g, "skill", 0)
    assert unit_name(g, 1) == "Grove Stag"
    assert int(field(g, "poisoned")[1]) == 0 and int(field(g, "stunned")[1]) == 0


# ---------------------------------------------------------------------------------------------------- KO
def test_DC_O1_ko_at_damage_equal_to_hp() -> None:
    g = skill_hit(side(), side("Wandering Golem", damage={0: 500}, standby=["Grove Stag"]))
    assert unit_name(g, 1) == "Wandering Golem" and damage(g, 1) == 600  # 600 < 700
    g = skill_hit(side(), side("Wandering Golem", damage={0: 600}, standby=["Grove Stag"]))
    assert names(g, 1, "ko") == ["Wandering Golem"] and unit_name(g, 1) == "Grove Stag"  # 700 >= 700


def test_DC_O2_O5_ko_checked_after_any_damage_and_the_owner_must_move_up() -> None:
    """DC-O2, DC-O5."""
    g = build(side(hand=["Firestorm", "Battle Fury"]),
              side("Pollen Wisp", damage={0: 200}, standby=["Grove Stag", "Bloom Dryad"]), step=ST_MAIN)
    do(g, "hand", 0)  # an Event in the Main Phase KOs the Main Unit at once
    assert names(g, 1, "ko") == ["Pollen Wisp"] and unit(g, 1) == -1
    assert int(g.states[0, H_TO_ACT]) == 1 and {n for n, _ in legal(g)} == {"promote"}  # DC-O5
    assert legal(g, player=0) == []


def test_DC_O3_O4_standby_ko_to_ko_zone_attachments_discarded() -> None:
    """DC-O3, DC-O4."""
    g = build(side(hand=["Smoldering Ember"]),
              side("Wandering Golem", standby=["Pollen Wisp", "Grove Stag"], damage={1: 300, 2: 100},
                   energy={1: 2, 0: 1}, assists={1: ["Living Armor"]}), step=ST_MAIN)
    do(g, "hand", 0)  # 100 to each Standby Unit: Pollen Wisp (400 + 200 HP from the Assist) survives
    assert names(g, 1, "ko") == []
    field(g, "damage")[1, unit(g, 1, 1)] = 500
    g.states[0, H_TO_ACT] = 0
    field(g, "event_played")[0] = 0
    field(g, "hand")[0, 0] = int(field(g, "discard")[0, 0])
    field(g, "hand_count")[0] = 1
    field(g, "discard")[0, 0] = -1
    field(g, "discard_count")[0] = 0
    do(g, "hand", 0)
    assert names(g, 1, "ko") == ["Pollen Wisp"]
    ko = int(field(g, "ko")[1, 0])
    assert field(g, "face_up")[1, ko] == 1 and names(g, 1, "standby") == ["Grove Stag"]
    assert sorted(names(g, 1, "discard")) == ["Living Armor", "Treasure Map", "Treasure Map"]
    assert energy(g, 1, 0) == 1  # the Main Unit keeps its own Energy


def test_DC_O6_owner_chooses_which_standby_unit_moves_up() -> None:
    g = skill_hit(side(), side("Vagabond Scout", damage={0: 300}, standby=["Grove Stag", "Bloom Dryad"]))
    assert int(g.states[0, H_TO_ACT]) == 1 and [i for n, i in legal(g)] == [0, 1]
    do(g, "promote", 1)
    assert unit_name(g, 1) == "Bloom Dryad" and names(g, 1, "standby") == ["Grove Stag"]
    assert int(field(g, "turn_player")) == 1 and step_of(g) == ST_MAIN  # then the game goes on


def test_DC_O7_main_ko_with_no_standby_loses() -> None:
    g = skill_hit(side(), side("Vagabond Scout", damage={0: 300}))
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 0


# ---------------------------------------------------------------------------------------------------- victory
def test_DC_V1_third_card_in_your_ko_zone_loses() -> None:
    g = build(side(hand=["Smoldering Ember"]),
              side("Wandering Golem", standby=["Pollen Wisp"], damage={1: 300}, ko=["Grove Stag"]), step=ST_MAIN)
    do(g, "hand", 0)
    assert g.states[0, H_STATUS] == LIVE and int(field(g, "ko_count")[1]) == 2  # second card: still playing
    g = build(side(hand=["Smoldering Ember"]),
              side("Wandering Golem", standby=["Pollen Wisp", "Grove Stag"], damage={1: 300},
                   ko=["Grove Stag", "Bloom Dryad"]), step=ST_MAIN)
    do(g, "hand", 0)
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 0
    # the same for player 0 (each player's count is checked): player 1 puts the third card in player 0's KO Zone
    g = build(side("Wandering Golem", standby=["Pollen Wisp", "Grove Stag"], damage={1: 300},
                   ko=["Grove Stag", "Bloom Dryad"]), side(hand=["Smoldering Ember"]), turn_player=1, step=ST_MAIN)
    do(g, "hand", 0)
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 1


def test_DC_V2_deck_out_ko_of_your_own_main_counts() -> None:
    g = build(side(), side("Vagabond Scout", damage={0: 300}, standby=["Grove Stag"],
                           ko=["Bloom Dryad", "Pollen Wisp"], deck=[], fill=False), step=ST_MAIN)
    do(g, "pass")
    do(g, "pass")  # player 1's Draw Phase: deck-out KOs its own Main Unit, the third card
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 0


def test_DC_V3_both_losing_at_once_is_a_draw_and_the_turn_cap_truncates() -> None:
    # Scorching Rush: 300 + 100 (Ashfang's passive) KOs the opposing Main Unit; its 100 recoil KOs Ashfang too
    g = skill_hit(side("Ashfang Raider", energy={0: 3}, damage={0: 500}, ko=["Kiln Warden", "Pyre Drake"]),
                  side("Wandering Golem", damage={0: 300}, ko=["Grove Stag", "Bloom Dryad"]), skill=1)
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == DRAW
    g = build(side(), side("Wandering Golem"), step=ST_MAIN, turn=TURN_CAP)
    do(g, "pass")
    do(g, "pass")
    assert g.states[0, H_STATUS] == TRUNCATED and g.states[0, H_WINNER] == -1


def test_end_phase_and_draw_steps_are_forced() -> None:
    """DC-T1/T8: ST_END and ST_DRAW never wait for a decision: two passes (Main, Battle) take the game through the
    End Phase (boosts end) and the opponent's Draw Phase (1 card) to the opponent's Main Phase decision, and only
    the two passes count as decisions."""
    g = build(side(), side("Wandering Golem", deck=["Smoke Bomb"]), step=ST_MAIN)
    field(g, "boost")[0, unit(g, 0)] = 200
    before = int(g.states[0, H_DECISIONS])
    do(g, "pass")
    assert step_of(g) == ST_BATTLE and int(g.to_act[0]) == 0  # Quick Jab is usable: a real decision
    do(g, "pass")
    assert step_of(g) == ST_MAIN and int(g.to_act[0]) == 1 and int(field(g, "turn_player")) == 1
    assert int(g.states[0, H_DECISIONS]) == before + 2 and int(g.states[0, H_TURN]) == 6
    assert names(g, 1, "hand") == ["Smoke Bomb"] and int(field(g, "boost")[0, unit(g, 0)]) == 0


def test_DC_O5_both_main_units_ko_turn_player_moves_up_first() -> None:
    """DC-O5/O6: a skill that KOs both Main Units (recoil): the turn player chooses first, then the opponent."""
    g = skill_hit(side("Ashfang Raider", energy={0: 3}, damage={0: 500}, standby=["Kiln Warden", "Pyre Drake"]),
                  side("Wandering Golem", damage={0: 300}, standby=["Grove Stag", "Bloom Dryad"]), skill=1)
    assert unit(g, 0) == -1 and unit(g, 1) == -1
    assert int(g.to_act[0]) == 0 and {n for n, _ in legal(g)} == {"promote"} and legal(g, player=1) == []
    do(g, "promote", 1)
    assert unit_name(g, 0) == "Pyre Drake" and int(g.to_act[0]) == 1
    do(g, "promote", 0)
    assert unit_name(g, 1) == "Grove Stag" and int(field(g, "turn_player")) == 1 and step_of(g) == ST_MAIN


def test_effects_on_several_units_do_not_depend_on_the_slot_order() -> None:
    """Choices the engine makes (RULES.md): an effect on several Units hits them in slot order; every order gives
    the same position, because each hit is independent and the KO check runs once after the effect (DC-O2)."""
    results = set()
    standby = [("Pollen Wisp", 300), ("Grove Stag", 0), ("Bloom Dryad", 400)]
    for order in ((0, 1, 2), (2, 1, 0), (1, 2, 0)):
        units = [standby[k] for k in order]
        g = build(side(hand=["Smoldering Ember"]),
                  side("Wandering Golem", standby=[n for n, _ in units],
                       damage={j + 1: d for j, (_, d) in enumerate(units) if d}), step=ST_MAIN)
        do(g, "hand", 0)
        left = tuple(sorted((unit_name(g, 1, j), damage(g, 1, j)) for j in range(1, 1 + len(names(g, 1, "standby")))))
        results.add((tuple(sorted(names(g, 1, "ko"))), left))
    assert len(results) == 1
    (ko, left), = results
    assert ko == ("Bloom Dryad", "Pollen Wisp") and left == (("Grove Stag", 100),)


def test_which_energy_card_pays_a_retreat_cannot_matter() -> None:
    """Choices the engine makes (RULES.md): a retreat discards the highest card id first. Energy is untyped
    (DC-C3), so positions that differ only in which cards are the Energy play the same: after the retreat and a
    whole turn cycle, every state field but the card identities is equal."""
    rows = []
    for energy_card in ("Treasure Map", "Smoke Bomb"):
        g = build(side("Kiln Warden", standby=["Cinderpaw Cub"], energy={0: 3, 1: 1}), side("Wandering Golem"),
                  step=ST_MAIN)
        for inst in field(g, "energy")[0, : int(field(g, "energy_count")[0])]:
            field(g, "deck_list")[0, inst] = POOL.by_name[energy_card]
        do(g, "retreat", 0)
        end_turn(g)
        end_turn(g)
        row = g.states[0].copy()
        rows.append((row, g.observe([0])[0].copy(), g.observe([1])[0].copy()))
    (a, oa0, oa1), (b, ob0, ob1) = rows
    from cardenvs.games.divinecross.state import STATE
    keep = np.ones(a.shape[0], dtype=bool)
    keep[STATE.slice("deck_list")] = False
    assert np.array_equal(a[keep], b[keep])
    for x, y in ((oa0, ob0), (oa1, ob1)):
        mask = np.ones(x.shape[0], dtype=bool)
        for name in ("public_cards", "attached"):  # the identities of the discarded / attached cards: all that differs
            mask[OBS.slice(name)] = False
        assert np.array_equal(x[mask], y[mask])


def _card_id_slot(g: BatchGame, viewer: int, index: int) -> int:
    """Pool index + 1 of the card the observation slot holding ``index`` describes to ``viewer`` (0: none/hidden),
    read from the state (not from the observation)."""
    name, pos = OBS.locate(index)
    if name == "pending":
        inst, owner = int(field(g, "pending_card")), int(field(g, "turn_player"))
    elif name == "hand":
        i = pos // L.CARD_SIZE
        owner = viewer
        inst = int(field(g, "hand")[viewer, i]) if i < int(field(g, "hand_count")[viewer]) else -1
    else:
        assert name == "units", name
        side, j = divmod(pos // L.SLOT_SIZE, AREA_SIZE)
        owner = viewer if side == 0 else 1 - viewer
        inst = unit(g, owner, j) if j == 0 or j <= int(field(g, "standby_count")[owner]) else -1
        if inst >= 0 and owner != viewer and field(g, "face_up")[owner, inst] == 0:
            inst = -1
    return 0 if inst < 0 else int(field(g, "deck_list")[owner, inst]) + 1


def test_issue14_every_observed_card_carries_its_identity_and_hidden_cards_none() -> None:
    """Issue 14 item 2: every index of ``SPEC.obs_card_ids`` reads the card's pool index + 1 (hand slots, both
    players' Units, the Assist being played) and 0 for an empty slot or a card the viewer cannot see: the opponent's
    hand never shows, nor the opponent's face-down Main Unit."""
    g = build(side("Kiln Warden", standby=["Cinderpaw Cub", "Pyre Drake"], hand=["Iron Buckler", "Firestorm"]),
              side("Reef Titan", standby=["Pearl Sprite"], hand=["Riptide", "Coral Aegis", "Abyss Jelly"]),
              step=ST_ASSIST_HOST)
    field(g, "pending_card")[...] = field(g, "hand")[0, 0]  # Iron Buckler waits for its host
    ids = np.array(SPEC.obs_card_ids)
    assert len(ids) == len(set(ids.tolist())) and len(ids) > 0
    for viewer in (0, 1):
        obs = g.observe([viewer])[0]
        expected = [_card_id_slot(g, viewer, int(i)) for i in ids]
        assert obs[ids].tolist() == expected
        assert sum(e > 0 for e in expected) == (8, 9)[viewer]  # own hand, own Units, opponent's Units, pending
    opp_hand = {POOL.by_name[n] + 1 for n in ("Riptide", "Coral Aegis", "Abyss Jelly")}
    assert not opp_hand & set(g.observe([0])[0][ids].tolist())  # the opponent's hand never shows
    assert g.observe([0])[0][ids].tolist().count(POOL.by_name["Pearl Sprite"] + 1) == 1  # its face-up Units do
    field(g, "face_up")[1, unit(g, 1)] = 0  # the opponent's Main Unit face down (as before the reveal)
    units = OBS.get(g.observe([0])[0], "units")
    assert units[1, 0, L.CARD_CARD_ID] == 0 and units[1, 0, L.CARD_PRESENT] == 1
    assert OBS.get(g.observe([1])[0], "units")[0, 0, L.CARD_CARD_ID] == POOL.by_name["Reef Titan"] + 1
