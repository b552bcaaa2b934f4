"""Scenario tests for the mutants of relics' rule code that the other tests let through (issue 39: docs/CHECKS.md,
"Mutation testing"; the tables are docs/mutation/relics.md).

Each test builds a position that tells a mutant from the rule: player 1 acting where the code reads ``1 | p``,
``p ** n`` or ``count >> p`` (right for player 0 only), an instance 0 where the code tests ``!= 0``, a threshold at its
value and one off, every observed field of a card, a grid cell and a pile read back against the state and the pool.
"""
from __future__ import annotations

import numpy as np
import pytest
from pool_files import pool_with  # tests/pool_files.py
from relics_helpers import POOL, A, build, do, field, inst_at, is_legal, legal, names, party_at, stats, step_of

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import HEADER_SIZE, H_STATUS, H_TO_ACT, H_WINNER, LIVE, TERMINATED
from cardenvs.games.relics import SPEC, load_pool
from cardenvs.games.relics import cards as C
from cardenvs.games.relics import reasons as R
from cardenvs.games.relics.actions import NUM_ACTIONS
from cardenvs.games.relics.board import att_of
from cardenvs.games.relics.cards import DEFAULT_POOL
from cardenvs.games.relics.obs_layout import (
    CARD,
    CARD_SIZE,
    CELL_CARD,
    CELL_SLOT,
    CTX_DISCARD,
    CTX_DOOM,
    CTX_HAND,
    CTX_PARTY,
    CTX_RELICS,
    CTX_RESERVES,
    OBS,
    PILE_DISCARD,
    PILE_DOOM,
    PILE_RELICS,
    SIDE_CARD,
    SIDE_IN_PLAY,
    SLOT_DOWN,
    SLOT_FACE_DOWN,
    SLOT_LEADER,
    KNOWN_HAND,
)
from cardenvs.games.relics.rules import advance, begin_battle, why_row
from cardenvs.games.relics.state import (HAND_CAP, MAX_DECK, PARTY_SIZE, PK_NONE, PK_REINFORCE, ST_BATTLE, ST_HAND,
                                         ST_JUMP, ST_LOCATION, ST_PILE, ST_PLACE, ST_TRIM)

CTAB = POOL.tables.cards


def obs(g, viewer: int) -> np.ndarray:
    return g.observe([viewer])[0].copy()


def _bits(value: int, n: int) -> list[int]:
    return [(int(value) >> b) & 1 for b in range(n)]


def expected_card(card: int) -> dict[str, list[int]]:
    """The card block ``write_card`` must give ``card``, field by field, read from the pool's card table."""
    r = CTAB[card]
    size = {f.name: f.size for f in CARD.fields}

    def one_hot(name: str, k: int) -> list[int]:
        out = [0] * size[name]
        if k >= 0:
            out[k] = 1
        return out

    skills = r[C.C_RELIC_SKILLS] if r[C.C_TYPE] == C.T_LOCATION else r[C.C_SKILLS]
    return {
        "present": [1], "card_id": [card + 1], "type": one_hot("type", r[C.C_TYPE]), "rare": [r[C.C_RARITY]],
        "att": [r[C.C_ATT]], "def": [r[C.C_DEF]], "class": one_hot("class", r[C.C_CLASS]),
        "descriptor": _bits(r[C.C_DESC], size["descriptor"]), "skill": _bits(skills, size["skill"]),
        "school": one_hot("school", r[C.C_SCHOOL] - C.SC_BLACK if r[C.C_SCHOOL] >= C.SC_BLACK else -1),
        "cost_down": [r[C.C_COST_DOWN]], "has_act": [int(r[C.C_ACT] >= 0)], "act_needs_leader": [r[C.C_ACT_LEADER]],
        "has_cont": [r[C.C_HAS_CONT]], "has_enter": [r[C.C_HAS_ENTER]], "has_defeat": [r[C.C_HAS_DEFEAT]],
        "targets_own": [int(r[C.C_ONE_TARGET] == C.ONE_OWN)], "targets_opp": [int(r[C.C_ONE_TARGET] == C.ONE_OPP)],
        "op": _bits(r[C.C_OPS], size["op"]), "relic_att": [r[C.C_RELIC_ATT]], "relic_def": [r[C.C_RELIC_DEF]],
        "qualifies_class": _bits(r[C.C_QUAL_CLASS], size["qualifies_class"]),
        "qualifies_descriptor": _bits(r[C.C_QUAL_DESC], size["qualifies_descriptor"]),
        "has_requirement": [int((r[C.C_REQ_CLASS] | r[C.C_REQ_DESC] | r[C.C_REQ_SKILL]) != 0)],
        "requires_class": _bits(r[C.C_REQ_CLASS], size["requires_class"]),
    }


def check_card_block(block: np.ndarray, card: int, where: str) -> None:
    for name, want in expected_card(card).items():
        got = [int(v) for v in np.atleast_1d(CARD.get(block, name))]
        assert got == [int(v) for v in want], f"{where}: {POOL.name(card)}: {name} {got} != {want}"


# ---------------------------------------------------------------------------------------------------- observation
def test_RL_D7_D8_D9_D10_D12_every_card_feature_is_observed_for_either_viewer() -> None:
    """Checks RL-D7 (a character's ATT, DEF, class, descriptors and skills), RL-D8 (equipment and what it requires),
    RL-D9/RL-D10 (items and spells: school, down cost, targets, ops), RL-D11/RL-D12 (a location's relic side and the
    classes and descriptors that qualify a leader): every card of the pool, held in a hand (any position of it), reads
    back in its owner's observation field by field as the pool gives it, for player 0 and for player 1."""
    every = list(range(len(POOL.cards)))
    chunks = [every[k:k + HAND_CAP - 6] for k in range(0, len(every), HAND_CAP - 6)]
    for viewer in (0, 1):
        for chunk in chunks:
            hand = [POOL.name(c) for c in chunk]
            mine = {"party": ["Brass Golem@0:L"], "hand": hand}
            other = {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]}
            g = build(mine, other, actor=0) if viewer == 0 else build(other, mine, actor=1)
            blocks = OBS.get(obs(g, viewer), "hand")
            for i, card in enumerate(chunk):
                check_card_block(blocks[i], card, f"viewer {viewer} hand {i}")
            assert not blocks[len(chunk):].any()


def test_RL_U2_G5_L1_each_grid_cell_shows_its_down_face_down_and_leader_flags() -> None:
    """Checks RL-U2 (a Down character reads Down in both players' observations, an Up one Up), RL-G5 (face down) and
    RL-L1 (the leader flag): characters of both players on several slots and instances, instance 0 Down and Up."""
    for down0 in (True, False):
        g = build({"party": [f"Gale Duelist@1:{'v' if down0 else ''}", "Brass Golem@3:L", "Ironbrand Squire@5:v"],
                   "hand": ["Oak Buckler"]},
                  {"party": ["Thornwall Sentinel@2:L", "Dust Monk@0:v", "Quill Archer@4"], "hand": ["Oak Buckler"]})
        for viewer in (0, 1):
            grid = OBS.get(obs(g, viewer), "grid")
            for side in (0, 1):
                q = viewer if side == 0 else 1 - viewer
                for slot in range(PARTY_SIZE):
                    inst = inst_at(g, q, slot)
                    cell = grid[side, slot]
                    if inst < 0:
                        assert not cell.any()
                        continue
                    assert cell[CELL_SLOT + SLOT_DOWN] == field(g, "down")[q, inst], (viewer, q, slot)
                    assert cell[CELL_SLOT + SLOT_FACE_DOWN] == 0
                    assert cell[CELL_SLOT + SLOT_LEADER] == int(field(g, "leader")[q] == inst), (viewer, q, slot)
                    check_card_block(cell[CELL_CARD:CELL_CARD + CARD_SIZE], int(field(g, "deck_list")[q, inst]),
                                     f"viewer {viewer} side {side} slot {slot}")


def test_RL_Z5_Z6_E4_B5_public_piles_and_counts_are_observed_for_either_viewer() -> None:
    """Checks RL-Z5/RL-Z6 (both discard and doom piles are public: every card counted by id, several entries each),
    RL-E4/RL-B5 (the relics each player controls, its own won locations and the opponent's, counted and listed, with
    whether each is in play) and the public counts of hands, reserves, parties and piles, for player 0 and player 1."""
    g = build({"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler", "Tin Sword"],
               "reserves": ["Dust Monk", "Quill Archer", "Dust Monk"],
               "discard": ["Night Bolt", "Tin Sword", "Night Bolt"], "doom": ["Wither", "Longbow", "Wither"],
               "relics": ["Iron Foundry@1", "Bone Chapel"]},
              {"party": ["Thornwall Sentinel@0:L"], "hand": ["Oak Buckler"], "reserves": ["Ember Savant"],
               "discard": ["Smoke Bomb"], "doom": ["Rune Plate", "Sage Staff"], "relics": ["Storm Peak", "Mirror Lake"]})
    # one of player 1's won locations is player 0's relic (won back), the other player 1's own
    mirror = int(field(g, "won")[1, 1])
    field(g, "controller")[1, mirror] = 0
    controls = {0: ["Iron Foundry", "Bone Chapel", "Mirror Lake"], 1: ["Storm Peak"]}
    for viewer in (0, 1):
        o = obs(g, viewer)
        ctx = OBS.get(o, "context")
        pub = OBS.get(o, "public_cards")
        for side in (0, 1):
            q = viewer if side == 0 else 1 - viewer
            for pile, zone in ((PILE_DISCARD, "discard"), (PILE_DOOM, "doom")):
                want = np.zeros(pub.shape[2], dtype=int)
                for inst in field(g, zone)[q, : field(g, f"{zone}_count")[q]]:
                    want[field(g, "deck_list")[q, inst]] += 1
                assert list(pub[side, pile]) == list(want), (viewer, side, zone)
            relics = np.zeros(pub.shape[2], dtype=int)
            for name in controls[q]:
                relics[POOL.by_name[name]] += 1
            assert list(pub[side, PILE_RELICS]) == list(relics), (viewer, side)
            assert ctx[CTX_RELICS + side] == len(controls[q])
            for at, zone in ((CTX_HAND, "hand"), (CTX_RESERVES, "reserves"), (CTX_PARTY, "party"),
                             (CTX_DISCARD, "discard"), (CTX_DOOM, "doom")):
                assert ctx[at + side] == field(g, f"{zone}_count")[q], (viewer, side, zone)
    # the sideboard (own view) and the opponent's relics: which relic, and whether it is in play
    side0 = OBS.get(obs(g, 0), "sideboard")
    assert [int(side0[k, SIDE_CARD + 1]) - 1 for k in (0, 1, 6)] == [POOL.by_name[n] for n in controls[0]]
    assert [int(side0[k, SIDE_IN_PLAY]) for k in (0, 1, 6)] == [1, 0, 0]
    opp = OBS.get(obs(g, 1), "opp_relics")
    assert [list(opp[k]) for k in (0, 1, 6)] == [[POOL.by_name["Iron Foundry"] + 1, 1],
                                                 [POOL.by_name["Bone Chapel"] + 1, 0],
                                                 [POOL.by_name["Mirror Lake"] + 1, 0]]
    assert not opp[[2, 3, 4, 5, 7, 8, 9]].any()


def test_RL_Z4_a_known_opposing_hand_card_of_instance_0_is_observed() -> None:
    """Checks RL-Z4: a card of the opponent's hand that the viewer saw arrive is counted in ``known_cards`` whatever
    its instance number, the first one (0) included; an unseen one is not."""
    for seen in (1, 0):
        g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]},
                  {"hand": ["Longbow", "Oak Buckler"]})
        assert int(field(g, "hand")[1, 0]) == 0
        field(g, "known")[1, 0] = seen
        known = OBS.get(obs(g, 0), "known_cards")[1, KNOWN_HAND]
        assert known[POOL.by_name["Longbow"]] == seen and known.sum() == seen


def test_RL_E7_K13_cont_boosts_from_any_party_position_and_of_either_owner_are_observed() -> None:
    """Checks RL-E7 (ATT/DEF now: printed value plus [Cont] boosts), RL-K13: a Bramble Beast's own DEF +1 and a
    Warcry Captain's DEF -1 on every opposing character apply from the second place of the party and for either
    owner, and read back in the grid (``def_now``) as the rules compute them."""
    for owner in (0, 1):
        beast = {"party": ["Gale Duelist@0:L", "Bramble Beast@1", "Warcry Captain@2"], "hand": ["Oak Buckler"]}
        plain = {"party": ["Thornwall Sentinel@0:L", "Ironbrand Squire@1"], "hand": ["Oak Buckler"]}
        g = build(beast, plain) if owner == 0 else build(plain, beast, actor=1)
        other = 1 - owner
        assert stats(g, owner, 1) == (4, 5 + 1)  # Bramble Beast: DEF 5, +1 of its own
        assert stats(g, owner, 0) == (4, 3) and stats(g, owner, 2) == (4, 4)  # own side: no -1
        assert stats(g, other, 0) == (2, 6 - 1) and stats(g, other, 1) == (3, 4 - 1)  # Warcry Captain: -1 DEF


# ---------------------------------------------------------------------------------------------------- rules
def test_RL_K9_player_1_jumps_on_entry() -> None:
    """Checks RL-K9: player 1's Jump hits player 0's character (printed ATT, any row), as player 0's does."""
    g = build({"party": ["Brass Golem@0:L", "Longshot Ranger@5"], "hand": ["Oak Buckler"]},
              {"party": ["Ironbrand Squire@0:L"], "reserves": ["Ashen Pikeman"], "hand": ["Oak Buckler"]}, actor=1)
    do(g, "reserve", 0)
    do(g, "slot", 3)
    assert step_of(g) == ST_JUMP and is_legal(g, "target", 5)
    do(g, "target", 5)
    assert 5 not in party_at(g, 0) and party_at(g, 1)[3] == "Ashen Pikeman"
    assert party_at(g, 0)[0] == "Brass Golem" and party_at(g, 1)[0] == "Ironbrand Squire"


def test_RL_A4_player_1_moves_a_character() -> None:
    """Checks RL-A4: player 1's Move puts its character on the chosen empty slot of the other row and downs it."""
    g = build({"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]},
              {"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "hand": ["Oak Buckler"]}, actor=1)
    do(g, "move", 1 * PARTY_SIZE + 4)
    assert party_at(g, 1) == {0: "Ironbrand Squire", 4: "Gale Duelist"} and party_at(g, 0) == {0: "Brass Golem"}
    assert field(g, "down")[1, inst_at(g, 1, 4)] == 1


def test_RL_A6_recruit_needs_one_character_in_the_deck_not_two() -> None:
    """Checks RL-A6 at its boundary: with 3 cards in hand, Recruit is legal with exactly 1 character left in the
    character deck (and draws it), illegal with none."""
    for left in (1, 0):
        g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"] * 3, "char_deck": ["Dust Monk"] * left},
                  {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
        assert is_legal(g, "recruit") == (left == 1)
    do(g2 := build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"] * 3, "char_deck": ["Dust Monk"]},
                   {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}), "recruit")
    for _ in range(3):
        do(g2, "hand", 0)
    assert int(field(g2, "reserves_count")[0]) == 1 and int(field(g2, "char_deck_count")[0]) == 0


def test_RL_E3_E4_a_relic_won_from_the_opponents_location_is_played_from_the_sideboard() -> None:
    """Checks RL-E3/RL-E4: a relic player 0 controls whose location card is player 1's (listed at relic entry 5, the
    opponent's first won location) is played by Reinforce like any relic of the sideboard."""
    g = build({"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]},
              {"party": ["Ironbrand Squire@0:L"], "hand": ["Oak Buckler"], "relics": ["Iron Foundry"]})
    relic = int(field(g, "won")[1, 0])
    field(g, "controller")[1, relic] = 0
    assert [a for a in legal(g) if a[0] == "relic"] == [("relic", 5)]
    do(g, "relic", 5)
    do(g, "slot", 1)
    assert int(field(g, "attached")[0, inst_at(g, 0, 1)]) == MAX_DECK + relic
    assert int(field(g, "host")[1, relic]) == inst_at(g, 0, 1)


def test_RL_K9_E7_a_self_boost_reaches_instance_0_and_player_1() -> None:
    """Checks RL-E7 / the Gravecrawler's Defeat effect (ATT +1 to itself until the next Up) for a Gravecrawler that
    is its owner's instance 0, played by player 0 and by player 1."""
    for p in (0, 1):
        mine = {"party": ["Gravecrawler@0:L"], "hand": ["Oak Buckler"]}
        theirs = {"party": ["Ironbrand Squire@0:L", "Marrow Witch@1"], "hand": ["Oak Buckler"]}
        g = build(mine, theirs) if p == 0 else build(theirs, mine, actor=1)
        assert inst_at(g, p, 0) == 0
        do(g, "fight", 0 * PARTY_SIZE + 1)  # ATT 4 vs the Witch's DEF 3: defeated
        assert 1 not in party_at(g, 1 - p)
        assert int(field(g, "att_mod")[p, 0]) == 1
        assert not field(g, "att_mod")[1 - p].any()


def test_RL_M4_U5_mending_light_is_useful_for_a_down_character_in_the_second_place() -> None:
    """Checks RL-M4 / RL-U5: Mending Light (Up every own character) is offered when a character other than its caster
    is Down, wherever it stands in the party order, and not when only the caster could be Upped."""
    for down in (True, False):
        g = build({"party": ["Glimmer Acolyte@0:L", f"Ironbrand Squire@1:{'v' if down else ''}"],
                   "hand": ["Mending Light", "Oak Buckler"]},
                  {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
        assert is_legal(g, "hand", 0) == down


def test_RL_Z5_player_1_takes_back_from_its_discard_pile() -> None:
    """Checks RL-Z5: player 1's Scavenger's Hook offers every equipment, item or spell of player 1's discard pile."""
    g = build({"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"], "discard": ["Smoke Bomb"]},
              {"party": ["Gale Duelist@0:L", "Thornwall Sentinel@1"], "hand": ["Scavenger's Hook", "Whetstone"],
               "discard": ["Longbow", "Night Bolt", "Tin Sword"]}, actor=1)
    do(g, "hand", 0)
    if step_of(g) != ST_PILE:
        do(g, "slot", 0)
    assert step_of(g) == ST_PILE
    assert sorted(a for a in legal(g)) == sorted(("pile", POOL.by_name[n]) for n in ("Longbow", "Night Bolt",
                                                                                      "Tin Sword"))


def test_RL_V3_player_1_loses_with_no_character_deck_at_the_next_battle_not_with_one_card() -> None:
    """Checks RL-V3 at its boundary for either player: a battle starts when each character deck holds 1 card; the
    player whose deck is empty loses when the next battle would start."""
    for p in (0, 1):
        for left in (1, 0):
            decks = [{"party": [], "hand": ["Oak Buckler"], "char_deck": ["Dust Monk"]} for _ in range(2)]
            decks[p]["char_deck"] = ["Dust Monk"] * left
            g = build(decks[0], decks[1])
            row = g.states[0]
            begin_battle(row)
            if left:
                assert row[H_STATUS] == LIVE and step_of(g) == ST_LOCATION
            else:
                assert row[H_STATUS] == TERMINATED and row[H_WINNER] == 1 - p


def test_RL_V2_player_1_loses_with_no_card_in_hand_and_item_deck_not_with_one_left() -> None:
    """Checks RL-V2 at its boundary for either player: no card in hand and one in the item deck plays on; none in
    either loses at once."""
    for p in (0, 1):
        for left in (1, 0):
            sides = [{"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]},
                     {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}]
            sides[p] = {**sides[p], "hand": [], "item_deck": ["Oak Buckler"] * left}
            g = build(sides[0], sides[1])
            advance(g.states[0], g.pool.tables)
            row = g.states[0]
            if left:
                assert row[H_STATUS] == LIVE and step_of(g) == ST_BATTLE
            else:
                assert row[H_STATUS] == TERMINATED and row[H_WINNER] == 1 - p


def reasons(g, p: int, name: str, index: int = 0) -> set[int]:
    """The reason codes ``why_row`` records for ``p``'s action (an empty set: legal)."""
    why = np.zeros((NUM_ACTIONS, R.MAX_REASONS), dtype=np.int32)
    why_row(g.states[0], g.pool.tables, p, why)
    return {int(c) for c in why[A(name, index)] if c != 0}


def test_RL_Z5_a_character_of_card_id_0_in_the_discard_pile_is_refused_with_its_reason() -> None:
    """Checks RL-Z5: a reclaim (Scavenger's Hook) takes back equipment, items or spells; the character in the
    discard pile whose card id is 0 (Ironbrand Squire) is refused as the wrong kind, the Longbow and the Tin Sword
    offered."""
    g = build({"party": ["Gale Duelist@0:L", "Thornwall Sentinel@1"], "hand": ["Scavenger's Hook", "Whetstone"],
               "discard": ["Ironbrand Squire", "Longbow", "Tin Sword"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    assert POOL.by_name["Ironbrand Squire"] == 0
    do(g, "hand", 0)
    if step_of(g) != ST_PILE:
        do(g, "slot", 0)
    assert step_of(g) == ST_PILE
    assert sorted(legal(g)) == sorted(("pile", POOL.by_name[n]) for n in ("Longbow", "Tin Sword"))
    assert reasons(g, 0, "pile", 0) == {R.R_PILE_WRONG_KIND}
    assert reasons(g, 0, "pile", POOL.by_name["Night Bolt"]) == {R.R_PILE_NOT_THERE}


def test_RL_E2_E3_a_relic_needs_a_character_without_an_attachment_and_says_so() -> None:
    """Checks RL-E2/RL-E3: a relic of the sideboard is refused while every own character carries an attachment, with
    that reason; offered once one character carries none."""
    for full in (True, False):
        g = build({"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"],
                   "equip": {0: "Traveler's Charm", **({1: "Rune Plate"} if full else {})}, "relics": ["Bone Chapel"]},
                  {"party": ["Ironbrand Squire@0:L"], "hand": ["Oak Buckler"]})
        assert is_legal(g, "relic", 0) == (not full)
        assert reasons(g, 0, "relic", 0) == ({R.R_HOSTS_ALL_ATTACHED} if full else set())


def test_RL_M4_K1_a_strike_on_one_opposing_character_is_judged_by_the_opponents_characters() -> None:
    """Checks RL-M4: Night Bolt (a strike of power 4 on one opposing character) is offered when an opposing
    character has DEF 4 or less, and refused as useless when every opposing one has more, whatever the own side."""
    for opp, useful in ((["Brass Golem@0:L"], False), (["Brass Golem@0:L", "Gale Duelist@1"], True)):
        g = build({"party": ["Marrow Witch@0:L", "Ironbrand Squire@1"], "hand": ["Night Bolt", "Oak Buckler"]},
                  {"party": opp, "hand": ["Oak Buckler"]})
        assert is_legal(g, "hand", 0) == useful
        assert reasons(g, 0, "hand", 0) == (set() if useful else {R.R_USELESS})


def test_RL_K7_K6_a_counter_without_steal_owes_no_discard() -> None:
    """Checks RL-K7 and RL-K6: a Counter that defeats the attacker makes no one discard unless the counterer has
    Steal; the turn passes to the defender's player in the battle step."""
    g = build({"party": ["Marrow Witch@0:L", "Brass Golem@1"], "hand": ["Oak Buckler", "Tin Sword"]},
              {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]})
    do(g, "fight", 0)  # ATT 2 vs DEF 3 misses; the Duelist's Counter 4 vs DEF 3 defeats the Witch
    assert party_at(g, 0) == {1: "Brass Golem"} and party_at(g, 1) == {0: "Gale Duelist"}
    assert list(field(g, "steal_owed")) == [0, 0] and step_of(g) == ST_BATTLE and int(g.to_act[0]) == 1
    assert int(field(g, "hand_count")[0]) == 2


def test_RL_A5_G5_entering_play_changes_no_cards_identity() -> None:
    """Checks RL-A5 (a Reinforce from the reserves) and RL-G5 (a placement in the Relic phase): the character enters
    play, is recorded as played, and every card of both deck lists stays what it was."""
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"], "reserves": ["Dust Monk"],
               "item_deck": ["Oak Buckler"] * 4},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    before = field(g, "deck_list").copy()
    inst = int(field(g, "reserves")[0, 0])
    do(g, "reserve", 0)
    do(g, "slot", 4)
    assert party_at(g, 0)[4] == "Dust Monk" and int(field(g, "played")[0, inst]) == 1
    assert np.array_equal(field(g, "deck_list"), before)
    place = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"], "lineup": ["Dust Monk"] * 3},
                  {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}, step=ST_PLACE, location=None)
    before = field(place, "deck_list").copy()
    header = place.states[0, :HEADER_SIZE].copy()
    for slot in (1, 2, 3):
        inst = int(field(place, "lineup")[0, 0])
        do(place, "slot", slot)
        assert int(field(place, "played")[0, inst]) == 1
    assert np.array_equal(field(place, "deck_list"), before)
    assert place.states[0, H_STATUS] == header[H_STATUS] and not field(place, "down").any()


def test_RL_L2_D13_K13_a_leader_cards_cont_boost_works_for_either_owner() -> None:
    """Checks RL-L2/RL-D13: Banner of Command's [Cont] (ATT +1 for every own character) works while its leader
    qualifies for the location (Royal Arena names class 0: Gale Duelist), for player 0 and for player 1, on its
    owner's side only."""
    for owner in (0, 1):
        banner = {"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"],
                  "leader_card": "Banner of Command"}
        plain = {"party": ["Thornwall Sentinel@0:L"], "hand": ["Oak Buckler"]}
        g = build(banner, plain) if owner == 0 else build(plain, banner, actor=1)
        assert stats(g, owner, 0) == (4 + 1, 3) and stats(g, owner, 1) == (3 + 1, 7)
        assert stats(g, 1 - owner, 0) == (2, 6)


def test_RL_B7_B8_both_players_redraw_to_three_and_doom_their_whole_discard_piles() -> None:
    """Checks RL-B7 (each player, player 1 too, discards and then draws up to 3; RL-G14: the cards set aside are
    discarded once both chose) and RL-B8 (each whole discard pile, six cards or more, goes to its owner's doom pile in
    order, and nothing else changes there)."""
    d0 = ["Night Bolt", "Tin Sword", "Wither", "Longbow", "Smoke Bomb", "Rune Plate", "Sage Staff"]
    d1 = ["Dust Monk", "Whetstone", "Oak Buckler", "Hex of Sleep", "Brass Golem", "Gale Duelist"]
    g = build({"party": [], "hand": ["Oak Buckler"] * 3, "discard": d0, "doom": ["Mending Light"],
               "item_deck": ["Longbow"] * 5, "pile": ["Royal Arena"]},
              {"party": [], "hand": ["Tin Sword", "Oak Buckler"], "discard": d1, "item_deck": ["Supply Cart"] * 5,
               "pile": ["Iron Foundry"]},
              step=ST_HAND, location=None, lead=0, to_act=0)
    do(g, "hand", 2)  # each player sets one card aside (RL-G14), discarded once both chose
    do(g, "pass")
    do(g, "hand", 0)
    do(g, "pass")
    assert names(g, 0, "hand") == ["Oak Buckler"] * 2 + ["Longbow"]
    assert names(g, 1, "hand") == ["Oak Buckler", "Supply Cart", "Supply Cart"]
    assert names(g, 0, "doom") == ["Mending Light"] + d0 + ["Oak Buckler"]
    assert names(g, 1, "doom") == d1 + ["Tin Sword"]
    assert list(field(g, "hand_aside_count")) == [0, 0]
    assert names(g, 0, "discard") == [] and names(g, 1, "discard") == []
    assert (field(g, "discard") == -1).all()


#: a card the package's pool lacks: a character whose [Cont] boosts its own ATT (the pool's own [Cont] boosts are a
#: self DEF boost and side-wide ones), written to an extra pool file
SELF_ATT_CARD = ('[[card]]\nname = "Test Bruiser"\ntype = "character"\nclass = "Blade"\ndescriptors = ["Human"]\n'
                 'att = 3\ndef = 3\nskills = []\neffects = [{ trigger = "cont", op = "boost", target = "self", att = 2 }]\n')


def test_RL_E7_L2_a_self_att_cont_and_a_side_wide_one_add_up_in_the_observation(tmp_path) -> None:
    """Checks RL-E7 (ATT now: printed value plus every [Cont] boost) with RL-L2 (Banner of Command's ATT +1 for every
    own character while the leader qualifies): a character whose own [Cont] gives it ATT +2 (a card of an extra pool
    file) reads 3 + 2 + 1 in the grid, as the rules compute it, for player 0 and for player 1."""
    pool = pool_with(load_pool, DEFAULT_POOL, tmp_path / "extra.toml", SELF_ATT_CARD)
    assert all(pool.by_name[c["name"]] == POOL.by_name[c["name"]] for c in POOL.cards)
    for owner in (0, 1):
        mine = {"party": ["Gale Duelist@0:L", "Test Bruiser@1"], "hand": ["Oak Buckler"],
                "leader_card": "Banner of Command"}
        plain = {"party": ["Thornwall Sentinel@0:L"], "hand": ["Oak Buckler"]}
        g = build(mine, plain, pool=pool) if owner == 0 else build(plain, mine, actor=1, pool=pool)
        inst = inst_at(g, owner, 1)
        assert att_of(g.states[0], pool.tables, owner, inst) == 3 + 2 + 1
        assert stats(g, owner, 1) == (3 + 2 + 1, 3) and stats(g, owner, 0) == (4 + 1, 3)


def test_RL_S1_S2_player_1s_decks_are_shuffled_too() -> None:
    """Checks RL-S1/RL-S2 for player 1 (the setup test compares player 0's orders): each of player 1's decks holds
    exactly its deck list's cards of that kind, in an order that changes with the seed."""
    orders = []
    for seed in (1, 2):
        g = BatchGame(SPEC, 1, decks=("vanguard", "arcana"), seed=seed)
        for p in (0, 1):
            listed = sorted(POOL.name(int(c)) for c in field(g, "deck_list")[p] if c >= 0)
            held = names(g, p, "char_deck") + names(g, p, "item_deck") + names(g, p, "hand") + names(g, p, "loc_pile")
            held += [names(g, p, "leader_card")[0]]
            assert sorted(held) == listed
        orders.append((names(g, 1, "char_deck"), names(g, 1, "item_deck")))
    assert orders[0][0] != orders[1][0] and orders[0][1] != orders[1][1]


def test_RL_G3_Z3_the_own_line_up_is_observed_card_by_card_for_either_viewer() -> None:
    """Checks RL-G3 (the 6 characters drawn in the Relic phase wait in the line-up) with RL-Z3: their owner sees each
    of them, in line-up order, player 0 and player 1 alike."""
    lineup = ["Dust Monk", "Iron Abbot", "Quill Archer"]
    for viewer in (0, 1):
        mine = {"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"], "lineup": lineup}
        other = {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}
        g = build(*((mine, other) if viewer == 0 else (other, mine)), step=ST_PLACE, location=None, actor=viewer,
                  lead=viewer)
        blocks = OBS.get(obs(g, viewer), "lineup")
        for j, name in enumerate(lineup):
            check_card_block(blocks[j], POOL.by_name[name], f"viewer {viewer} line-up {j}")
        assert not blocks[len(lineup):].any()


def test_RL_A5_K9_the_own_pending_choice_is_observed_one_hot() -> None:
    """Checks RL-A5 (a Reinforce waits for its slot: pending kind ``reinforce``) and RL-K9 (the Jump offer: a pending
    choice of no kind): the own observation's ``pending`` field holds exactly that kind, and the step field exactly
    the step."""
    g = build({"party": ["Ironbrand Squire@0:L"], "reserves": ["Ashen Pikeman"], "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "reserve", 0)
    for kind in (PK_REINFORCE, PK_NONE):
        o = obs(g, 0)
        want = np.zeros(OBS["pending"].size, dtype=int)
        want[kind] = 1
        assert list(OBS.get(o, "pending")) == list(want)
        step = OBS.get(o, "step")
        assert step.sum() == 1 and step[step_of(g)] == 1
        if kind == PK_REINFORCE:
            do(g, "slot", 3)
            assert step_of(g) == ST_JUMP


@pytest.mark.parametrize("k", range(6))
def test_RL_K13_M4_a_leaders_own_all_boost_is_offered_whatever_its_instance_number(k: int) -> None:
    """RL-K13 / RL-M4: Iron Abbot's [Act] Leader boost of the whole own party is useful while an own character is face
    up, whatever instance numbers the characters carry. The leader, alone in the party, is instance ``k`` (``k``
    fillers were built before it, then moved to the discard pile). Kills effects.py:244 of the sample, the face-down
    skip of ``op_useful`` reading ``FACE_DOWN + side * MAX_DECK >> inst`` (another field for instances past 0): the
    ability was refused as useless in battle for k = 1..5 (seen failing; stop 52)."""
    fillers = [f"Ironbrand Squire@{s}" for s in range(1, k + 1)]
    g = build({"party": fillers + ["Iron Abbot@0:L"], "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    party = field(g, "party")
    assert party[0, k] == k
    for j in range(k):  # the fillers leave play for the discard pile: Abbot stays, at instance k
        field(g, "discard")[0, j] = party[0, j]
        field(g, "pos")[0, party[0, j]] = -1
    field(g, "discard_count")[0] = k
    party[0, 0], party[0, k] = k, -1 if k else k
    field(g, "party_count")[0] = 1
    assert is_legal(g, "ability", 0)


def test_RL_Z4_G14_known_reserves_are_blank_only_once_their_owner_began_its_trim() -> None:
    """RL-Z4 / RL-G14: a player sees, in order, the opponent's reserve characters it saw arrive, except once that
    opponent began its reserve trim (1P trims first, then 2P; a hidden set-aside entry closes its gap). Player 1
    sees the reserves of player 0 (1P, the lead) in a battle and not during the trim; player 0 sees those of player
    1 (2P) during the trim while 1P trims, and not once 2P does (``setup_player``). The other tests looked at 2P's
    reserves outside the trim only. Kills observe.py:259 of the sample, ``row[S.SETUP_PLAYER] == o`` as ``!=`` (and
    ``row[S.STEP] == S.ST_TRIM`` as ``!=``), each seen failing (stop 52)."""
    monk, golem = POOL.by_name["Dust Monk"] + 1, POOL.by_name["Brass Golem"] + 1
    for owner in (0, 1):
        sides = [{"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]},
                 {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}]
        sides[owner]["reserves"] = ["Dust Monk", "Brass Golem"]
        g = build(*sides)
        for inst in field(g, "reserves")[owner, :2]:
            field(g, "known")[owner, inst] = 1
        viewer = 1 - owner

        def seen() -> list[int]:
            return [int(v) for v in OBS.get(g.observe([viewer])[0], "opp_known_reserves")[:3]]

        assert seen() == [monk, golem, 0]  # a battle: nobody trims
        field(g, "step")[...] = ST_TRIM
        for trimmer in (0, 1):  # 1P (player 0, the lead) trims first, then 2P
            field(g, "setup_player")[...] = trimmer
            g.states[0, H_TO_ACT] = trimmer  # the trimmer decides (the row check asks it)
            began = owner == 0 or trimmer == owner  # the lead's trim comes first: it began whoever trims now
            assert seen() == ([0, 0, 0] if began else [monk, golem, 0]), (owner, trimmer)
