"""Issue 38 step 1: what check_game's completeness check found missing from the relics observation, case by case.

Two kinds of gap. What the acting player knows and the observation did not hold: the order its party entered play
(RL-A8: a Retreat sends the party to the reserves in that order, and a discarded party reaches the discard pile in
it), the place of each known character in the opponent's reserves (RL-Z4, RL-A8) and the order in which the
opponent's relic actions name its relics (RL-B5, RL-E3). And rows no kernel can leave, which the check built by
changing one field of a real row (host, attached, gear, hand, down, def_mod, leader, battle_winner, setup_player):
the row check (``state.check_rows``) refuses them with one clear error, as it does a bad pending choice, so the check
counts them invalid instead of playing them. Rule IDs: RL-A8, RL-Z4, RL-B5, RL-E1/RL-E2/RL-E3, RL-L3, RL-B1..B6,
RL-G4/G5, RL-U7.
"""
from __future__ import annotations

import numpy as np
import pytest
from relics_helpers import A, build, do, field, inst_at

from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import BadArgumentError
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.obs_layout import CARD, CELL_SLOT, OBS, SLOT_ENTERED
from cardenvs.games.relics.state import BATTLE_DRAW, MAX_DECK, ST_LOCATION, check_rows

OPP = {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}
CARD_ID = CARD.offset("card_id")


def obs(g, viewer: int = 0) -> np.ndarray:
    return g.observe([viewer])[0].copy()


def _party(first: str, second: str):
    """P0's party entered play as ``first`` (slot 0, the leader) then ``second`` (slot 1), or the other way round."""
    entries = {"Gale Duelist": "Gale Duelist@0:L", "Thornwall Sentinel": "Thornwall Sentinel@1"}
    return build({"party": [entries[first], entries[second]], "hand": ["Oak Buckler"]}, OPP,
                 location=("Royal Arena", 1))


def test_RL_A8_the_order_a_party_entered_play_is_observed() -> None:
    """Checks RL-A8: the same characters on the same slots, entered in another order, give both players another
    observation (``entered`` of each grid cell), and the order matters: a Retreat puts them into the reserves in
    it, where the reserve actions name them by place."""
    a, b = _party("Gale Duelist", "Thornwall Sentinel"), _party("Thornwall Sentinel", "Gale Duelist")
    for viewer, side in ((0, 0), (1, 1)):
        assert not np.array_equal(obs(a, viewer), obs(b, viewer))
        grid_a, grid_b = OBS.get(obs(a, viewer), "grid"), OBS.get(obs(b, viewer), "grid")
        assert [int(grid_a[side, s, CELL_SLOT + SLOT_ENTERED]) for s in (0, 1)] == [1, 2]
        assert [int(grid_b[side, s, CELL_SLOT + SLOT_ENTERED]) for s in (0, 1)] == [2, 1]
    first = []
    for g in (a, b):
        do(g, "retreat")
        first.append(int(OBS.get(obs(g, 0), "reserves")[0, CARD_ID]))
    assert first[0] != first[1] and min(first) > 0


def _opp_reserves(order: tuple[str, str]):
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"], "reserves": list(order)})
    for j in range(2):
        field(g, "known")[1, int(field(g, "reserves")[1, j])] = 1  # P0 saw both arrive (a Retreat, a keep)
    return g


def test_RL_Z4_A8_the_place_of_the_opponents_known_reserve_characters_is_observed() -> None:
    """Checks RL-Z4, RL-A8: P0 saw two characters arrive in P1's reserves in an order (a Retreat keeps the party's);
    the other order gives P0 another observation (``opp_known_reserves``); a character P0 never saw is a 0 there."""
    a, b = _opp_reserves(("Dust Monk", "Ironbrand Squire")), _opp_reserves(("Ironbrand Squire", "Dust Monk"))
    assert not np.array_equal(obs(a), obs(b))
    ra, rb = OBS.get(obs(a), "opp_known_reserves"), OBS.get(obs(b), "opp_known_reserves")
    assert ra[0] == rb[1] > 0 and ra[1] == rb[0] > 0 and ra[0] != ra[1] and not ra[2:].any()
    field(a, "known")[1, int(field(a, "reserves")[1, 0])] = 0
    assert OBS.get(obs(a), "opp_known_reserves")[0] == 0 and OBS.get(obs(a), "opp_known_reserves")[1] == ra[1]
    # P1 sees its own reserves in full, not through this field
    assert not OBS.get(obs(a, 1), "opp_known_reserves").any()


def _equipped():
    return build({"party": ["Gale Duelist@0:L", "Thornwall Sentinel@1"], "equip": {0: "Tin Sword"},
                  "hand": ["Oak Buckler"]}, OPP)


def test_RL_E1_E2_attached_and_host_must_name_each_other() -> None:
    """Checks RL-E1, RL-E2: an equipment's ``host`` and its character's ``attached`` name each other; a row where
    one of them was changed alone (the equipment moved to the other character on one side only) is refused."""
    g = _equipped()
    assert check_rows(g.states.copy(), len(g.pool)) is None
    sword = int(field(g, "gear")[0, 0])
    field(g, "host")[0, sword] = inst_at(g, 0, 1)
    with pytest.raises(BadArgumentError, match="attached names a card whose host is not that character"):
        g.legal_mask([0])
    g = _equipped()
    field(g, "attached")[0, inst_at(g, 0, 1)] = int(field(g, "attached")[0, inst_at(g, 0, 0)])
    with pytest.raises(BadArgumentError, match="attached names a card whose host"):
        g.observe([0])


def _refusal(g) -> str | None:
    """What the row check says of game 0's row: the first problem's text, without the pending fields it prints."""
    found = check_rows(g.states.copy(), len(g.pool))
    if found is None:
        return None
    assert found[0] == 0
    return found[1].split(": ", 1)[1].removesuffix(" (no kernel leaves such a row)")


def test_RL_E1_E3_attached_and_host_hold_no_value_past_their_range() -> None:
    """Checks RL-E1, RL-E3: ``attached`` holds -1 or owner * MAX_DECK + instance (below 2 * MAX_DECK) and ``host``
    -1 or an instance (below MAX_DECK); the first value past either range is refused with the field named."""
    for name, value, says in (("attached", 2 * MAX_DECK, "attached is neither -1 nor owner * MAX_DECK + instance"),
                              ("host", MAX_DECK, "host is neither -1 nor an instance"),
                              ("host", -2, "host is neither -1 nor an instance")):
        g = _equipped()
        field(g, name)[0, inst_at(g, 0, 1)] = value  # the Sentinel, which carries nothing
        assert _refusal(g) == says, (name, value)


def test_RL_K12_a_pending_throw_targets_a_character_of_the_opponents_party() -> None:
    """Checks RL-K12: a Throw waiting for its equipment names its target among the opponent's party; a row whose
    ``pend_target`` names nothing (-1) or an opponent's card outside its party (its hand card) is refused."""
    g = build({"party": ["Knife Juggler@0:L"], "hand": ["Oak Buckler", "Supply Cart"]},
              {"party": ["Cutpurse Vex@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    do(g, "throw", 0)
    assert check_rows(g.states.copy(), len(g.pool)) is None
    for target in (-1, int(field(g, "hand")[1, 0])):
        field(g, "pend_target")[...] = target
        assert _refusal(g) == "pend_target is not in the opponent's party", target


def test_RL_L3_the_leader_is_a_character_in_play() -> None:
    """Checks RL-L3: ``leader`` is -1 or a character of its owner's party (one in the character deck is refused)."""
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]}, OPP)
    field(g, "leader")[0] = -1
    assert check_rows(g.states.copy(), len(g.pool)) is None
    field(g, "leader")[0] = int(field(g, "char_deck")[0, 0])
    with pytest.raises(BadArgumentError, match=r"leader\[0\] is neither -1 nor a character of player 0's party"):
        g.legal_mask([0])


def test_RL_B1_B6_the_battle_result_and_the_setup_player_fit_the_step() -> None:
    """Checks RL-B1, RL-B6, RL-G5: during the battle ``battle_winner`` is -1 (a result set there would end the
    battle at the next decision, unseen); at a Relic-phase or Resolution step ``setup_player`` is the player to act
    (the kernels pick the next decider from it)."""
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]}, OPP)
    field(g, "battle_winner")[...] = BATTLE_DRAW
    with pytest.raises(BadArgumentError, match="battle_winner is set before the battle ended"):
        g.legal_mask([0])
    g = BatchGame(SPEC, 1, seed=3)
    assert int(field(g, "step")) == ST_LOCATION
    assert check_rows(g.states.copy(), len(g.pool)) is None
    to_act = int(g.to_act[0])
    field(g, "setup_player")[...] = 1 - to_act
    with pytest.raises(BadArgumentError, match="setup_player is not the player to act"):
        g.legal_mask([to_act])


def test_RL_E1_equipment_in_play_sits_in_the_gear_and_nowhere_else() -> None:
    """Checks RL-E1: an equipment in play is in its owner's gear with a host; a hand card carries nothing. The check
    swapped a hand card with an attached equipment (hand[0, 1] and gear[0, 0] of seed 5): the character still showed
    its equipment and nothing told the two rows apart until the hand card was played; that row is refused."""
    g = _equipped()
    hand, gear = int(field(g, "hand")[0, 0]), int(field(g, "gear")[0, 0])
    field(g, "hand")[0, 0], field(g, "gear")[0, 0] = gear, hand
    with pytest.raises(BadArgumentError, match=r"player 0's (gear has no host|hand has a host)"):
        g.legal_mask([0])
    g = _equipped()
    field(g, "discard")[0, 0] = int(field(g, "hand")[0, 0])  # a discarded card carried by a character
    field(g, "hand")[0, 0], field(g, "hand_count")[0], field(g, "discard_count")[0] = -1, 0, 1
    assert check_rows(g.states.copy(), len(g.pool)) is None
    sword = int(field(g, "gear")[0, 0])
    field(g, "discard")[0, 0], field(g, "gear")[0, 0] = sword, int(field(g, "discard")[0, 0])
    with pytest.raises(BadArgumentError, match="player 0's"):
        g.observe([0])


@pytest.mark.parametrize("name", ["down", "att_mod", "def_mod"])
def test_RL_G5_U7_a_face_down_character_is_up_and_unboosted(name: str) -> None:
    """Checks RL-G5, RL-U7: a face-down character entered play Up with no modifier and nothing reaches it before the
    reveal. The check set Down or a DEF modifier on an opposing face-down character (down[0, 12], def_mod[0, 15] of
    seed 5; the viewer sees only "present, face down"): a row no kernel leaves, refused."""
    g = build({"party": ["Gale Duelist@0:L", "Thornwall Sentinel@1:?"], "hand": ["Oak Buckler"]}, OPP)
    assert check_rows(g.states.copy(), len(g.pool)) is None
    field(g, name)[0, inst_at(g, 0, 1)] = 1
    with pytest.raises(BadArgumentError, match=f"{name} is set for a face-down character"):
        g.legal_mask([0])


def _opp_relics(order: tuple[str, str]):
    return build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]},
                 {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"], "relics": list(order)}, actor=1)


def test_RL_B5_E3_the_order_of_the_opponents_relics_is_observed() -> None:
    """Checks RL-B5, RL-E3: P0 saw P1 win two locations in an order (public), and P1's relic actions name its relics
    in that order; the other order gives P0 another observation (``opp_relics``). Before it, both read as the same
    counts by card id (``public_cards``), the gap the check found at won[0, 0] of test_relics_game's run."""
    a, b = _opp_relics(("Iron Foundry", "Royal Arena")), _opp_relics(("Royal Arena", "Iron Foundry"))
    oa, ob = obs(a), obs(b)
    assert np.array_equal(OBS.get(oa, "public_cards"), OBS.get(ob, "public_cards"))
    assert not np.array_equal(oa, ob)
    ra, rb = OBS.get(oa, "opp_relics"), OBS.get(ob, "opp_relics")
    assert ra[0, 0] == rb[1, 0] > 0 and ra[1, 0] == rb[0, 0] > 0 and not ra[2:].any() and not ra[:, 1].any()
    # the order matters: P1's first relic action names a different relic in each
    first = [g.action_name(A("relic", 0), 0, 1) for g in (a, b)]
    assert first[0] != first[1], first
    # the relic's owner knows its own order from the sideboard: this field shows only the opponent's
    assert not OBS.get(obs(a, 1), "opp_relics").any()
