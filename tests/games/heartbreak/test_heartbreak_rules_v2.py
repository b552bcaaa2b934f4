"""Scenario tests of the rules-version-2 changes (issue 39): a negated action still lets [X Strike] rise (HB-A8/K4),
KOs between the effects of one entry (HB-B11/V5), keyword abilities that trigger open a response window (HB-R2), and
no deck, hand or heart limit the rulebook lacks (HB-D1/D9, HB-E3, HB-H10)."""
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
    legal,
    pass_window,
    rested_at,
    step_of,
    zone_names,
)

from cardenvs.core.header import H_STATUS, H_WINNER, TERMINATED
from cardenvs.games.heartbreak.tables import TR_COUNTER, TR_STRIKE
from cardenvs.games.heartbreak.obs_layout import COUNTS, HEART_SLOT, OBS
from cardenvs.games.heartbreak.state import K_ACTION, K_TRIGGER, SK_INDEX, SK_KIND, ST_ACTION, ST_CLIMAX, ST_WINDOW

STOP = "Reinforcements"  # free Turbo: keeps the action / climax phase a real decision


def OBS_VIEW(g, player: int) -> dict:  # noqa: N802
    """Player ``player``'s observation of row 0, by block name."""
    obs = g.observe(np.array([player], dtype=np.int32))[0]
    return {name: OBS.get(obs, name) for name in ("heart", "counts", "hand")}


def acts(g) -> list[int]:
    return [i for f, i in legal(g) if f == "act"]


def top_kind(g) -> int:
    n = int(field(g, "stack_count"))
    return int(field(g, "stack")[n - 1, SK_KIND]) if n else -1


def top_index(g) -> int:
    n = int(field(g, "stack_count"))
    return int(field(g, "stack")[n - 1, SK_INDEX]) if n else -1


# ------------------------------------------------------------------------------------- finding 1: negate and Strike
def test_HB_A8_K4_a_negated_action_still_lets_x_strike_rise() -> None:
    """HB-A8, HB-K4: "[X Strike]: A fighter rises after acting less than X times". Acting is the declaration (rest,
    choose, pay: HB-A5); a negate Turbo makes the *action* do nothing (no effects, no attack, so no Counter), but the
    fighter has acted, so its own [Dual Strike] still rises it and it may act again."""
    g = build({"lead": "Pyre Duelist", "hand": [STOP]},
              {"lead": "Thornwood Elder", "hand": ["Riptide Denial"], "charge": 1}, step=ST_ACTION)
    do(g, "act", 0)  # Twin Cuts 20
    do(g, "hand", 0, player=1)  # Riptide Denial: negate the action
    pass_window(g)
    assert step_of(g) == ST_ACTION
    assert damage_at(g, 1, 0) == 0 and int(field(g, "charge_count")[1]) == 0  # negated: no attack damage
    assert int(field(g, "acted")[0, inst_at(g, 0, 0)]) == 1
    assert not rested_at(g, 0, 0)  # [Dual Strike]: acted once, rises
    assert 0 in acts(g)
    do(g, "act", 0)  # the second action is not negated: 20 damage, and no rise after the second action
    pass_window(g)
    assert damage_at(g, 1, 0) == 20 and rested_at(g, 0, 0) and acts(g) == []


# ------------------------------------------------------------------------------ finding 2: KOs between effects
def test_HB_B11_V5_a_ko_between_two_effects_of_one_card_ends_the_game_at_once() -> None:
    """HB-B11, HB-V5, HB-H6: Wildfire deals 30 to the opponent's fighters, then 20 to its own. The first effect KOs
    the opposing Lead; its owner's empty heart breaks and that player loses at once, before the second effect would
    KO the own Lead (which would have made it a draw)."""
    g = build({"lead": FILLER + ":d20", "hand": ["Wildfire", STOP], "charge": 2, "heart": []},
              {"lead": FILLER + ":d10", "heart": []}, step=ST_CLIMAX)
    do(g, "hand", 0)
    pass_window(g, end_open=False)
    assert int(g.states[0, H_STATUS]) == TERMINATED and int(g.states[0, H_WINNER]) == 0
    assert damage_at(g, 0, 0) == 20  # the second effect never happened


# ------------------------------------------------------------------ finding 4: keyword abilities open a window
def test_HB_R2_K3_counter_opens_a_window_for_the_attacker() -> None:
    """HB-R2, HB-K3, HB-L4 ("all keyword abilities are considered abilities"): [Counter] triggers after the attack
    and, like any triggered ability, opens a window; the attacker may answer it (here with a negate: no damage)."""
    g = build({"lead": "Kiln Warden", "hand": ["Echo Hex", STOP], "charge": 2},
              {"lead": "Reefling Leviathan"}, step=ST_ACTION)
    do(g, "act", 0)  # Coal Toss 20 into [Armor 20] [Counter 20]
    # the opponent (empty hand) passed the action's window by itself; the attack resolved
    assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 0, "no window for the Counter"
    assert top_kind(g) == K_TRIGGER and top_index(g) == TR_COUNTER
    assert is_legal(g, "hand", 0)  # Echo Hex may negate the Counter
    do(g, "hand", 0)
    pass_window(g)
    assert step_of(g) == ST_ACTION and damage_at(g, 0, 0) == 0
    # without an answer the Counter deals its damage when it resolves
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Leviathan"}, step=ST_ACTION)
    do(g, "act", 0)
    assert step_of(g) == ST_WINDOW and top_kind(g) == K_TRIGGER and int(g.to_act[0]) == 0
    do(g, "pass")
    assert step_of(g) == ST_ACTION and damage_at(g, 0, 0) == 20


def test_HB_R2_K4_a_strike_rise_is_an_ability_the_opponent_may_answer() -> None:
    """HB-R2, HB-K4: [X Strike]'s rise is a keyword ability that triggers after the action: the opponent gets a
    window (here it negates the rise, so the Lead stays rested)."""
    g = build({"lead": "Pyre Duelist", "hand": [STOP]},
              {"lead": "Thornwood Elder", "hand": ["Echo Hex"], "charge": 2}, step=ST_ACTION)
    do(g, "act", 0)
    assert top_kind(g) == K_ACTION and int(g.to_act[0]) == 1
    do(g, "pass", player=1)  # no answer to the action: it resolves, then [Dual Strike] triggers
    assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 1 and top_kind(g) == K_TRIGGER
    assert top_index(g) == TR_STRIKE and damage_at(g, 1, 0) == 20
    do(g, "hand", 0, player=1)  # Echo Hex negates the rise
    pass_window(g)
    assert step_of(g) == ST_ACTION and rested_at(g, 0, 0) and acts(g) == []


# ------------------------------------------------------------------- finding 3: no limit the rulebook lacks
def test_HB_H10_a_heart_has_no_size_limit_and_the_observation_shows_its_top_10() -> None:
    """HB-H10 (rules version 2): the rulebook gives the heart no size limit, so High Tide adds a card at 10 heart cards
    too (version 1 stopped there). The observation's 10 heart slots show the top 10 cards, bottom first."""
    g = build({"lead": "Kiln Warden", "heart": [FILLER] * 9 + ["Kelp Mail:up"],
               "hand": ["High Tide", "High Tide", STOP], "charge": 2}, {"lead": "Reefling Scout"}, step=ST_CLIMAX)
    do(g, "hand", 0)
    pass_window(g, end_open=False)
    assert int(field(g, "heart_count")[0]) == 11 and int(field(g, "deck_count")[0]) == 19
    field(g, "climax_used")[...] = 0
    do(g, "hand", 0)
    pass_window(g, end_open=False)
    assert int(field(g, "heart_count")[0]) == 12 and int(field(g, "deck_count")[0]) == 18
    obs = OBS_VIEW(g, 0)
    heart = obs["heart"][0]  # own heart: the top 10 of 12 cards, bottom first
    assert heart[:, HEART_SLOT.offset("present")].tolist() == [1.0] * 10
    up = heart[:, HEART_SLOT.offset("face_up")].tolist()
    assert up == [0.0] * 7 + [1.0] + [0.0] * 2  # Kelp Mail was 10th from the bottom: now 8th of the top 10
    counts = obs["counts"][0]
    assert counts[COUNTS.offset("heart")] == 12 and counts[COUNTS.offset("heart_face_down")] == 11


def test_HB_E3_a_hand_of_more_than_60_cards_keeps_every_distinct_card_playable() -> None:
    """HB-E3: no hand limit. The actions address 60 hand slots; a hand of 70 cards is kept ordered so that every
    distinct card in it has a copy among the first 60 (a pool has at most 60 titles), so nothing in hand is ever out
    of reach of an action."""
    late = ["Reinforcements", "Kelp Mail", "Second Wind", "Cinderwing Hatchling", "Hunter's Mark"]
    g = build({"lead": "Kiln Warden", "hand": [FILLER] * 65 + late, "charge": 1, "deck_fill": 5},
              {"lead": "Reefling Scout"})
    do(g, "hand", 0)  # call a Wandering Sellsword into the Back-Up; the opponent (no hand) passes by itself
    assert int(field(g, "hand_count")[0]) == 69
    names = zone_names(g, 0, "hand")
    assert set(late) <= set(names[:60]), names[:60]
    assert is_legal(g, "hand", names.index("Hunter's Mark")) and is_legal(g, "hand", names.index("Second Wind"))
    assert is_legal(g, "onto", names.index("Kelp Mail") * 4 + 0)  # equip
