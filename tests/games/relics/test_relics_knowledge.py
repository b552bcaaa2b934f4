"""Issue 38 step 1: the relics observation holds what the acting player knows.

Each test builds two positions that differ only in what the viewer knows (or in a fact it saw) and requires the
viewer's observations to differ, then checks the field that carries it. Rule IDs: RL-Z4 (the reserves and the
``known`` cards), RL-Z5 (cards taken back into a hand), RL-E1/RL-E3 (what a character carries), RL-K9 (the
Jumper), RL-G14 (the own cards set aside), RL-K6 (Steal discards owed), RL-B1 (the battle's winner).
"""
from __future__ import annotations

import numpy as np
from relics_helpers import POOL, build, do, field, inst_at

from cardenvs.games.relics import SPEC
from cardenvs.games.relics.obs_layout import CELL_SLOT, CTX_BATTLE_WON, CTX_BATTLEFIELD_MINE, CTX_RETREATED
from cardenvs.games.relics.obs_layout import CTX_STEAL_OWED_OPP, KNOWN_HAND, KNOWN_RESERVES, OBS, SLOT_ATTACHMENT_ID
from cardenvs.games.relics.state import ST_HAND, ST_JUMP, ST_KEEP

P0 = {"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]}


def obs(g, viewer: int = 0) -> np.ndarray:
    return g.observe([viewer])[0].copy()


def known(g, viewer: int, side: int, zone: int) -> dict[str, int]:
    counts = OBS.get(obs(g, viewer), "known_cards")[side, zone]
    return {POOL.name(i): int(v) for i, v in enumerate(counts) if v}


def _with_known(zone: str, flag: int):
    """P1 holds a Dust Monk in ``zone`` (hand: a Longbow); ``flag`` says whether P0 saw it arrive there."""
    card = "Dust Monk" if zone == "reserves" else "Longbow"
    g = build(P0, {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"], zone: ([card, "Oak Buckler"]
                                                                               if zone == "hand" else [card])})
    inst = int(field(g, zone)[1, 0])
    field(g, "known")[1, inst] = flag
    return g


def test_RL_Z4_the_opponents_reserve_characters_seen_arriving_are_observed() -> None:
    """Checks RL-Z4: a character P0 saw go back to P1's reserves (kept, retreated, raised) is in P0's observation
    (``known_cards``, opp, reserves); the same reserves with a character P0 never saw give another observation."""
    seen, unseen = _with_known("reserves", 1), _with_known("reserves", 0)
    assert not np.array_equal(obs(seen), obs(unseen))
    assert known(seen, 0, 1, KNOWN_RESERVES) == {"Dust Monk": 1} and known(unseen, 0, 1, KNOWN_RESERVES) == {}
    # its owner knows that P0 knows it
    assert known(seen, 1, 0, KNOWN_RESERVES) == {"Dust Monk": 1} and known(unseen, 1, 0, KNOWN_RESERVES) == {}
    # in play: a Retreat sends the party to the reserves in sight of the opponent
    g = build({"party": ["Gale Duelist@0:L", "Thornwall Sentinel@1"], "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}, location=("Royal Arena", 1))
    do(g, "retreat")
    assert known(g, 1, 1, KNOWN_RESERVES) == {"Gale Duelist": 1, "Thornwall Sentinel": 1}
    assert known(g, 0, 0, KNOWN_RESERVES) == {"Gale Duelist": 1, "Thornwall Sentinel": 1}


def test_RL_Z4_Z5_cards_seen_returning_to_the_opponents_hand_are_observed() -> None:
    """Checks RL-Z4, RL-Z5: a card P0 saw come back to P1's hand (reclaim from the discard pile) is in P0's
    observation (``known_cards``, opp, hand); a hand of the same size whose cards P0 never saw is another one."""
    seen, unseen = _with_known("hand", 1), _with_known("hand", 0)
    assert not np.array_equal(obs(seen), obs(unseen))
    assert known(seen, 0, 1, KNOWN_HAND) == {"Longbow": 1} and known(unseen, 0, 1, KNOWN_HAND) == {}
    # in play: Scavenger's Hook takes the Longbow back from the discard pile, seen by P1
    g = build({"party": ["Gale Duelist@0:L", "Thornwall Sentinel@1"], "hand": ["Scavenger's Hook", "Whetstone"],
               "discard": ["Longbow"]}, {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "hand", 0)
    do(g, "slot", 0)
    assert known(g, 1, 1, KNOWN_HAND) == {"Longbow": 1} and known(g, 0, 0, KNOWN_HAND) == {"Longbow": 1}
    assert known(g, 1, 0, KNOWN_HAND) == {}  # P1's own hand: nothing P0 saw


def test_RL_E1_E3_which_equipment_or_relic_a_character_carries_is_observed() -> None:
    """Checks RL-E1, RL-E3, RL-D11: relics with the same bonuses (Tome of Tides, Grim Censer, War Banner: +1/+1) on
    a Glimmer Acolyte, who has Black and White already (so the skills they grant change nothing), are told apart by
    the carrier's ``attachment_id`` (the attached card's id + 1), for both players; nothing attached reads 0."""
    for relic in ("Tome of Tides", "Grim Censer", "War Banner"):
        loc = next(c["name"] for c in POOL.cards if c.get("relic_name") == relic)
        g = build({"party": ["Gale Duelist@0:L", "Glimmer Acolyte@1"], "hand": ["Oak Buckler"],
                   "relics": [f"{loc}@1"]},
                  {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
        for viewer, side in ((0, 0), (1, 1)):
            cell = OBS.get(obs(g, viewer), "grid")[side]
            assert cell[1, CELL_SLOT + SLOT_ATTACHMENT_ID] == POOL.by_name[loc] + 1
            assert cell[0, CELL_SLOT + SLOT_ATTACHMENT_ID] == 0
    # two relics on two Acolytes: which carries which is told apart only by attachment_id (the relic counts of
    # public_cards, the skills and the stats are the same either way)
    tome, censer = (next(c["name"] for c in POOL.cards if c.get("relic_name") == r) for r in ("Tome of Tides",
                                                                                               "Grim Censer"))
    views = [obs(build({"party": ["Gale Duelist@0:L", "Glimmer Acolyte@1", "Glimmer Acolyte@2"],
                        "hand": ["Oak Buckler"], "relics": [f"{a}@1", f"{b}@2"]},
                       {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}), 1)
             for a, b in ((tome, censer), (censer, tome))]
    assert not np.array_equal(*views)
    g = build({"party": ["Gale Duelist@0:L"], "equip": {0: "Tin Sword"}, "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    assert OBS.get(obs(g, 1), "grid")[1, 0, CELL_SLOT + SLOT_ATTACHMENT_ID] == POOL.by_name["Tin Sword"] + 1
    assert SPEC.obs_card_ids.count(OBS.offset("grid") + CELL_SLOT + SLOT_ATTACHMENT_ID) == 1


def test_RL_K9_the_character_that_may_jump_is_observed() -> None:
    """Checks RL-K9: at the Jump decision the player knows which character just came into play and may Jump
    (its printed ATT decides the attack): the ``pending_caster`` slot, so two Jumpers give two observations."""
    views = []
    for slot in (1, 3):
        g = build({"party": ["Ironbrand Squire@0:L", "Ashen Pikeman@1", "Ashen Pikeman@3"], "hand": ["Oak Buckler"]},
                  {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}, step=ST_JUMP)
        field(g, "jumper")[...] = inst_at(g, 0, slot)
        field(g, "pend_player")[...] = 0
        o = obs(g)
        assert OBS.get(o, "pending_caster").tolist() == [float(s == slot) for s in range(6)]
        views.append(o)
    assert not np.array_equal(*views)


def test_RL_G14_B7_the_own_cards_set_aside_are_observed() -> None:
    """Checks RL-G14, RL-B7: the Resolution discards a player chose so far wait face down; the player still knows
    them (``own_aside``), the opponent does not."""
    views, theirs = [], []
    for card in ("Night Bolt", "Smoke Bomb"):
        g = build({"party": [], "hand": ["Oak Buckler", card], "item_deck": ["Longbow"] * 5, "pile": ["Royal Arena"]},
                  {"party": [], "hand": ["Oak Buckler"] * 2, "item_deck": ["Longbow"] * 5, "pile": ["Iron Foundry"]},
                  step=ST_HAND, location=None, lead=0, to_act=0)
        do(g, "hand", 1)  # set aside, P0 may discard more
        o = obs(g)
        aside = OBS.get(o, "own_aside")
        assert aside[POOL.by_name[card]] == 1 and aside.sum() == 1
        views.append(o)
        theirs.append(obs(g, 1))
    assert not np.array_equal(*views)
    assert np.array_equal(*theirs)  # RL-G14: P1 sees nothing of P0's choice


def test_RL_K6_B1_public_battle_facts_are_observed() -> None:
    """Checks RL-K6 (the opponent's Steal discards owed), RL-B1 (who won the battle that just ended, and whether by
    a Retreat, while the winner keeps characters) and whose location card the battlefield is."""
    base = build(P0, {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    other = build(P0, {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    field(other, "steal_owed")[1] = 1
    assert not np.array_equal(obs(base), obs(other))
    assert OBS.get(obs(other), "context")[CTX_STEAL_OWED_OPP] == 1
    theirs = build(P0, {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}, location=("Royal Arena", 1))
    assert OBS.get(obs(base), "context")[CTX_BATTLEFIELD_MINE] == 1
    assert OBS.get(obs(theirs), "context")[CTX_BATTLEFIELD_MINE] == 0
    for retreated in (0, 1):
        g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]}, {"party": [], "hand": ["Oak Buckler"]},
                  step=ST_KEEP)
        field(g, "battle_winner")[...] = 0
        field(g, "retreated")[...] = retreated
        ctx = OBS.get(obs(g), "context")
        assert ctx[CTX_BATTLE_WON] == 1 and ctx[CTX_BATTLE_WON + 1] == 0 and ctx[CTX_RETREATED] == retreated
        assert OBS.get(obs(g, 1), "context")[CTX_BATTLE_WON + 1] == 1
