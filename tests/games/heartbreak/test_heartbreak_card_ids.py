"""Card identity in the observation (issue 14 item 2): every observed card slot carries ``card_id`` (pool index + 1,
0 for no card or a card the viewer cannot see) and ``SPEC.obs_card_ids`` lists exactly those flat indices."""
from __future__ import annotations

import numpy as np
from heartbreak_helpers import FILLER, POOL, build

from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.obs_layout import (
    CARD_CARD_ID,
    FIGHTER_CARD,
    FIGHTER_ITEM,
    HEART_SLOT_CARD,
    LEAD_OPT_CARD_ID,
    OBS,
    STACK_ENTRY_CARD,
    TRIGGER_CARD,
)
from cardenvs.games.heartbreak.state import FIELD_CAP, HAND_SLOTS, HEART_SLOTS, LEAD_SLOTS, STACK_CAP, TRIG_CAP

SECRET = "Tidecaller Siren"  # only ever in the opponent's hand: its id must appear nowhere


def card_id(name: str) -> int:
    return POOL.by_name[name] + 1


def test_obs_card_ids_cover_every_card_slot_once() -> None:
    ids = SPEC.obs_card_ids
    assert len(set(ids)) == len(ids) == (HAND_SLOTS + 2 * FIELD_CAP * 2 + 2 * HEART_SLOTS + STACK_CAP + TRIG_CAP
                                         + LEAD_SLOTS)
    assert all(0 <= i < OBS.size for i in ids)
    named = {OBS.locate(i)[0] for i in ids}
    assert named == {"hand", "field", "heart", "stack", "triggers", "lead_options"}


def test_card_ids_read_pool_index_plus_one_and_zero_for_hidden_cards() -> None:
    g = build({"lead": "Kiln Warden", "backup": ["Cinderwing Hatchling"], "hand": ["Kelp Mail", "Reinforcements"],
               "stock": [("Traveler's Cloak", 0, True)], "heart": [FILLER, FILLER, "Ashfang Raider:up"]},
              {"lead": "Reefling Scout", "hand": [SECRET, SECRET]})
    obs = g.observe([0])[0]
    at = np.asarray(SPEC.obs_card_ids)
    hand = OBS.get(obs, "hand")
    assert hand[0, CARD_CARD_ID] == card_id("Kelp Mail") and hand[1, CARD_CARD_ID] == card_id("Reinforcements")
    assert hand[2:, CARD_CARD_ID].sum() == 0
    fighters = OBS.get(obs, "field")
    assert fighters[0, 0, FIGHTER_CARD + CARD_CARD_ID] == card_id("Kiln Warden")
    assert fighters[0, 0, FIGHTER_ITEM + CARD_CARD_ID] == card_id("Traveler's Cloak")
    assert fighters[0, 1, FIGHTER_CARD + CARD_CARD_ID] == card_id("Cinderwing Hatchling")
    assert fighters[1, 0, FIGHTER_CARD + CARD_CARD_ID] == card_id("Reefling Scout")
    heart = OBS.get(obs, "heart")
    assert heart[0, 2, HEART_SLOT_CARD + CARD_CARD_ID] == card_id("Ashfang Raider")
    assert heart[0, :2, HEART_SLOT_CARD + CARD_CARD_ID].sum() == 0  # face-down heart cards: hidden, 0
    assert OBS.get(obs, "stack")[:, STACK_ENTRY_CARD + CARD_CARD_ID].sum() == 0
    assert OBS.get(obs, "triggers")[:, TRIGGER_CARD + CARD_CARD_ID].sum() == 0
    assert OBS.get(obs, "lead_options")[:, LEAD_OPT_CARD_ID].sum() == 0
    expected = sorted(card_id(n) for n in ("Kelp Mail", "Reinforcements", "Kiln Warden", "Traveler's Cloak",
                                           "Cinderwing Hatchling", "Reefling Scout", "Ashfang Raider"))
    assert sorted(obs[at][obs[at] != 0].astype(int).tolist()) == expected  # SPEC.obs_card_ids holds all of them
    assert card_id(SECRET) not in obs[at]  # the opponent's hand is never observed
    assert np.all(obs[at] == np.round(obs[at]))  # exact integers in float32
    # the opponent sees its own hand and none of player 0's hand cards
    seen = g.observe([1])[0][at]
    assert (seen == card_id(SECRET)).sum() == 2 and card_id("Kelp Mail") not in seen


def test_lead_options_carry_the_offered_card_id() -> None:
    from cardenvs.core.batch import BatchGame

    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=3)
    obs = g.observe([0])[0]
    options = OBS.get(obs, "lead_options")
    offered = np.flatnonzero(options[:, 0])
    deck_list = SPEC.state_layout.get(g.states[0], "deck_list")[0]
    assert len(offered) > 0
    for inst in offered:
        assert options[inst, LEAD_OPT_CARD_ID] == deck_list[inst] + 1
    assert OBS.get(g.observe([1])[0], "lead_options")[:, LEAD_OPT_CARD_ID].sum() == 0
