"""Scenario tests for the audited defects of issue 12 (relics) and issue 18; each failed on the code before the fix.

Every test names the checklist rule it guards (RL-*) and the defect it pins down.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from relics_helpers import (A, POOL, act, build, do, field, fight, inst_at, is_down, is_legal, legal, names, party_at,
                            step_of)

from cardenvs.core.batch import BatchGame
from cardenvs.games.relics import SPEC, load_pool, rules
from cardenvs.games.relics.cards import DEFAULT_POOL
from cardenvs.games.relics.obs_layout import CARD_SIZE, OBS
from cardenvs.games.relics.state import (
    BATTLE_TURN_CAP,
    HAND_CAP,
    PARTY_SIZE,
    ST_BATTLE,
    ST_DISCARD,
    ST_JUMP,
    ST_LOCATION,
    ST_PILE,
    ST_SLOT,
    ST_TRIM,
)


def card_features(name: str) -> np.ndarray:
    """The observation's feature vector of one card (written by the kernel into a scratch row)."""
    from cardenvs.games.relics.observe import write_card

    out = np.zeros(CARD_SIZE, SPEC.obs_dtype)
    write_card(POOL.tables.cards, POOL.by_name[name], out, 0)
    return out


# ---------------------------------------------------------------------------------------------------- defect 1
def test_RL_M1_scavengers_hook_is_one_use_and_cannot_take_itself_back() -> None:
    """Checks RL-M1 (defect 1): the Hook leaves the hand, resolves, and only then goes to the discard pile, so it
    reclaims the most recent *other* item-deck card; it was returning itself (a free repeatable action)."""
    g = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Scavenger's Hook", "Oak Buckler"],
               "discard": ["Tin Sword", "Dust Monk"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "hand", 0)
    do(g, "slot", 0)  # its user goes Down (issue 39: the Hook costs a Down)
    assert names(g, 0, "hand") == ["Oak Buckler", "Tin Sword"]
    assert names(g, 0, "discard") == ["Dust Monk", "Scavenger's Hook"]
    alone = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Scavenger's Hook", "Oak Buckler"]},
                  {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    assert not is_legal(alone, "hand", 0)  # RL-M4: nothing to reclaim, so the Hook is not offered


# ---------------------------------------------------------------------------------------------------- defect 2
def test_RL_G13_G11_repeatable_actions_cannot_keep_a_battle_going() -> None:
    """Checks RL-G13, RL-G11 (defect 2, issue 39 finding 10): two Dawn Clerics used to Up themselves turn after turn
    (Down, then Up: never a pass, so no round ever ended) until the battle-turn cap drew the battle. Dawn Cleric's
    ability now gives +2 DEF, so each Cleric acts once, then only Pass is left: the round ends and both go Up."""
    g = build({"party": ["Dawn Cleric@0:L"], "hand": ["Oak Buckler"], "pile": ["Iron Foundry"]},
              {"party": ["Dawn Cleric@0:L"], "hand": ["Oak Buckler"], "pile": ["Storm Peak"]})
    for actor in (0, 1):
        assert int(g.to_act[0]) == actor
        do(g, "ability", 0)  # its only own target is itself: played for it (public, one legal action)
        assert is_down(g, actor, 0)  # it stays Down: nothing Ups it for free any more
    assert [n for n, _ in legal(g)] == ["pass", "retreat"]  # nothing else: the Clerics are spent
    do(g, "pass")
    do(g, "pass")
    assert int(field(g, "round")) == 2 and not is_down(g, 0, 0) and not is_down(g, 1, 0)
    assert int(field(g, "battle_turns")) == 4 < BATTLE_TURN_CAP


# ---------------------------------------------------------------------------------------------------- defect 3
def test_RL_K5_K4_an_adjacent_fight_by_a_ranged_character_is_not_a_ranged_attack() -> None:
    """Checks RL-K5, RL-K4 (defect 3): Ranged is the reach of 2 rows; a Ranged character fighting an adjacent
    (front row) character makes a plain attack, so a plain Counter answers it. From the back row the same Fight is
    a Ranged attack and the plain Counter cannot answer."""
    adjacent = build({"party": ["Ironbrand Squire@0:L", "Quill Archer@1"], "hand": ["Oak Buckler"]},
                     {"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    act(adjacent, fight(1, 0))  # archer 3 vs DEF 3 defeats; the Duelist's Counter 4 vs DEF 3 answers
    assert 1 not in party_at(adjacent, 0) and 0 not in party_at(adjacent, 1)
    far = build({"party": ["Ironbrand Squire@0:L", "Quill Archer@4"], "hand": ["Oak Buckler"]},
                {"party": ["Gale Duelist@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    act(far, fight(4, 0))  # 2 rows: a Ranged attack, no plain Counter
    assert 4 in party_at(far, 0) and 0 not in party_at(far, 1)


def test_RL_K12_K11_throw_is_an_attack_the_thrower_must_be_up_and_goes_down() -> None:
    """Checks RL-K12, RL-K11 (defect 3): a Throw is an attack by the character (a Ranged attack, RL-K11), so like
    every attack in the rulebook it downs the attacker; a Down character cannot Throw."""
    down = build({"party": ["Knife Juggler@0:Lv"], "hand": ["Oak Buckler"]},
                 {"party": ["Cutpurse Vex@0:L"], "hand": ["Oak Buckler"]})
    assert not any(n == "throw" for n, _ in legal(down))
    up = build({"party": ["Knife Juggler@0:L"], "hand": ["Oak Buckler", "Tin Sword"]},
               {"party": ["Brass Golem@0:L", "Cutpurse Vex@1"], "hand": ["Oak Buckler"]})
    do(up, "throw", 0 * PARTY_SIZE + 1)
    do(up, "hand", 1)
    assert is_down(up, 0, 0) and names(up, 1, "doom") == ["Cutpurse Vex"]
    assert not any(n == "throw" for n, _ in legal(up, player=0)) and int(up.to_act[0]) == 1


# ---------------------------------------------------------------------------------------------------- defect 4
def test_RL_K9_E3_wyrmscale_lance_brings_its_jump_into_play() -> None:
    """Checks RL-K9, RL-E3 (defect 4): the Lance grants Jump; attached by Reinforce to an Up character, that
    character may Jump at once (printed ATT, any row, no Counter). Before, Jump was read only from printed skills."""
    g = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Oak Buckler"], "relics": ["Dragon's Spine"]},
              {"party": ["Brass Golem@0:L", "Longshot Ranger@5"], "hand": ["Oak Buckler"]},
              location=("Iron Foundry", 1))
    do(g, "relic", 0)  # one free host: attached to the Squire (public, played for it)
    assert step_of(g) == ST_JUMP and is_legal(g, "target", 5) and is_legal(g, "pass")
    do(g, "target", 5)  # printed ATT 3 vs DEF 3, back row to back row, the Ranger's Counter does not answer
    assert 5 not in party_at(g, 1) and is_down(g, 0, 0) and 0 in party_at(g, 0)
    equip = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Tin Sword"]},
                  {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(equip, "hand", 0)
    do(equip, "slot", 0)  # equipment without Jump: the action ends
    assert step_of(equip) == ST_BATTLE and int(equip.to_act[0]) == 1


def _setup_trim(p0: dict, location: str) -> BatchGame:
    p0 = {"hand": ["Oak Buckler"], **p0}
    p1 = {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"], "reserves": ["Dust Monk"] * 3}
    return build(p0, p1, step=ST_TRIM, lead=0, to_act=0, location=(location, 1))


def test_RL_G7_G8_location_effects_that_fill_the_reserves_are_not_trimmed_away() -> None:
    """Checks RL-G7, RL-G8 (defect 4): the location's effect goes off after the reserves were set to 3, so Dragon's
    Spine's recruit keeps its character (it was trimmed at once) and Bone Chapel's raise finds the character just
    trimmed (the discard pile was empty when it fired)."""
    spine = _setup_trim({"party": ["Ashen Pikeman@0:L"], "reserves": ["Quill Archer"] * 3,
                         "char_deck": ["Brass Golem"] * 3}, "Dragon's Spine")
    spine.states[0, 2] = 1  # needs bit of player 0
    rules.advance(spine.states[0], spine.pool.tables)  # nobody is above 3: straight to the location effect
    assert step_of(spine) == ST_BATTLE
    assert names(spine, 0, "reserves") == ["Quill Archer"] * 3 + ["Brass Golem"]  # recruit 1 (a Lancer leader)
    chapel = _setup_trim({"party": ["Marrow Witch@0:L"], "reserves": ["Quill Archer", "Gale Duelist", "Dust Monk",
                                                                      "Brass Golem"]}, "Bone Chapel")
    assert step_of(chapel) == ST_TRIM and int(chapel.to_act[0]) == 0
    do(chapel, "reserve", 1)  # P0 trims the Duelist; P1 has 3: then the location raises 1 for the Undead leader
    assert step_of(chapel) == ST_BATTLE
    assert names(chapel, 0, "reserves") == ["Quill Archer", "Dust Monk", "Brass Golem", "Gale Duelist"]
    assert names(chapel, 0, "discard") == []


def test_RL_G7_Z6_mirror_lake_brings_back_a_doomed_card() -> None:
    """Checks RL-G7, RL-Z6 (defect 4): Mirror Lake's reclaim could never find an item-deck card in the discard pile
    at the location step; its effect is now exhume 1 (the most recent card of the doom pile comes back)."""
    g = _setup_trim({"party": ["Glimmer Acolyte@0:L"], "reserves": ["Quill Archer"] * 3,
                     "doom": ["Tin Sword", "Longbow"]}, "Mirror Lake")
    rules.advance(g.states[0], g.pool.tables)
    assert step_of(g) == ST_PILE and int(g.to_act[0]) == 0  # the player picks the card (RL-Z6)
    assert sorted(legal(g)) == sorted([("pile", POOL.by_name["Tin Sword"]), ("pile", POOL.by_name["Longbow"])])
    do(g, "pile", POOL.by_name["Tin Sword"])
    assert names(g, 0, "hand") == ["Oak Buckler", "Tin Sword"] and names(g, 0, "doom") == ["Longbow"]
    assert step_of(g) == ST_BATTLE  # then the location effect goes on (2P) and the battle starts


def test_RL_G7_the_location_effect_goes_off_once_for_each_player_even_when_both_take_back() -> None:
    """Checks RL-G7: the location's effect goes off once for 1P, then once for 2P. Both leaders qualify for Mirror
    Lake (Elf), so each exhumes one card: 1P's take-back pauses the effect and resumes it for 2P, and 2P's ends it
    (the battle starts); 2P does not get a second one."""
    side = {"party": ["Glimmer Acolyte@0:L"], "hand": ["Oak Buckler"], "reserves": ["Quill Archer"] * 3,
            "doom": ["Tin Sword", "Longbow"]}
    g = build(side, dict(side), step=ST_TRIM, lead=0, to_act=0, location=("Mirror Lake", 1))
    rules.advance(g.states[0], g.pool.tables)
    for p in (0, 1):
        assert step_of(g) == ST_PILE and int(g.to_act[0]) == p, p
        do(g, "pile", POOL.by_name["Tin Sword"])
        assert names(g, p, "hand") == ["Oak Buckler", "Tin Sword"] and names(g, p, "doom") == ["Longbow"]
    assert step_of(g) == ST_BATTLE and int(g.to_act[0]) == 0  # the battle phase starts with 1P (RL-G9)
    assert names(g, 1, "doom") == ["Longbow"]


# ---------------------------------------------------------------------------------------------------- defect 5
def test_RL_G4_the_opponents_leader_card_is_hidden_until_attached() -> None:
    """Checks RL-G4 (defect 5): the leader card is seen when its owner attaches it to its leader (face up); before,
    the other player's observation leaves its slot empty and hide() re-deals it among the pool's leader cards."""
    g = BatchGame(SPEC, 1, decks=("vanguard", "arcana"), seed=4)
    lead = int(g.to_act[0])
    assert step_of(g) == ST_LOCATION
    for viewer in (0, 1):
        cards = OBS.get(g.observe([viewer])[0], "leader_cards")
        assert cards[0, 0] == 1 and cards[1].sum() == 0
    a = np.zeros((2, SPEC.obs_dim), SPEC.obs_dtype)
    other = SPEC.hide(g.states[0], lead, np.random.default_rng(0), g.pool)
    SPEC.kernels.batch_observe(np.stack([g.states[0], other]), g.pool.tables, np.array([lead, lead], np.int32), a)
    assert np.array_equal(a[0], a[1])
    seen = set()
    for s in range(40):
        other = SPEC.hide(g.states[0], lead, np.random.default_rng(s), g.pool)
        seen.add(names_of_leader(other, 1 - lead))
    assert len(seen) > 1  # re-dealt among the leader cards
    do(g, "location", 0)
    while int(field(g, "leader_shown")[1 - lead]) == 0:
        mask = g.legal_mask()[0]
        g.step([int(np.flatnonzero(mask)[0])])
    cards = OBS.get(g.observe([lead])[0], "leader_cards")
    assert cards[1, 0] == 1  # attached: now seen


def names_of_leader(row: np.ndarray, p: int) -> str:
    from cardenvs.games.relics.state import STATE

    inst = int(STATE.get(row, "leader_card")[p, 0])
    return POOL.name(int(STATE.get(row, "deck_list")[p, inst]))


# ---------------------------------------------------------------------------------------------------- defect 6
def test_RL_B7_hands_carry_over_with_no_engine_limit() -> None:
    """Checks RL-B7 (defect 6): "discard any" is any number of the player's choice, none included, then draw up to
    3; so a hand can carry over and grow, and the engine never throws a drawn card away: a hand holds up to the whole
    item deck (HAND_CAP = 30). A 20-card hand draws its 21st card on a pass."""
    assert HAND_CAP == 30
    g = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Oak Buckler"] * 20, "item_deck": ["Tin Sword"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "pass")
    assert int(field(g, "hand_count")[0]) == 21 and names(g, 0, "hand")[-1] == "Tin Sword"
    assert names(g, 0, "discard") == []
    hand = OBS.get(g.observe([0])[0], "hand")
    assert hand[20, 0] == 1 and np.array_equal(hand[20], card_features("Tin Sword"))


# ---------------------------------------------------------------------------------------------------- timing leaks
def test_throw_equipment_choice_is_a_decision_even_with_one_equipment() -> None:
    """Decision timing must not depend on hidden cards: after a Throw the thrower always chooses the equipment
    (even when it holds only one, which the opponent cannot know), and the opponent's observation shows the battle
    step, not the thrower's discard step."""
    g = build({"party": ["Knife Juggler@0:L"], "hand": ["Oak Buckler", "Supply Cart"]},
              {"party": ["Cutpurse Vex@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    do(g, "throw", 0)
    assert step_of(g) == ST_DISCARD and int(g.to_act[0]) == 0 and legal(g) == [("hand", 0)]
    seen = OBS.get(g.observe([1])[0], "step")
    assert seen[ST_BATTLE] == 1 and seen[ST_DISCARD] == 0


def test_equipment_host_is_a_decision_even_with_one_host() -> None:
    """The host of a hand equipment card is chosen by its player even when only one character suits it (whether
    one or several do depends on the card, which the opponent has not seen yet)."""
    g = build({"party": ["Ironbrand Squire@0:L", "Quill Archer@1"], "hand": ["Longbow"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(g, "hand", 0)
    assert step_of(g) == ST_SLOT and legal(g) == [("slot", 1)]
    do(g, "slot", 1)
    assert int(field(g, "attached")[0, inst_at(g, 0, 1)]) >= 0


# ---------------------------------------------------------------------------------------------------- issue 18
def test_relics_turn_helpers_have_their_own_names() -> None:
    """Issue 18: relics' header helpers also set its step, so they do not reuse the names of core.turns."""
    for name in ("set_decision", "finish", "truncate"):
        assert not hasattr(rules, name)
    assert callable(rules.set_relics_decision) and callable(rules.finish_relics) and callable(rules.truncate_relics)


def test_batch_step_clears_errors_of_skipped_rows() -> None:
    """Issue 18: the kernel writes errors[i] = 0 for every row not in error, rows it skips included."""
    g = BatchGame(SPEC, 3, seed=0)
    errors = np.full(3, 7, np.int32)
    players = np.array([-1, -1, -1], np.int32)
    actions = np.zeros(3, np.int32)
    SPEC.kernels.batch_step(g.states, g.pool.tables, players, actions, errors)
    assert (errors == 0).all()
    players[0] = int(g.to_act[0])
    actions[0] = A("retreat")  # not legal at the location step
    SPEC.kernels.batch_step(g.states, g.pool.tables, players, actions, errors)
    assert errors.tolist() == [1, 0, 0]


# ---------------------------------------------------------------------------------------------------- choices
def test_location_effect_order_is_equivalent() -> None:
    """RULES.md "Choices the engine makes": the location effect goes off for 1P then 2P; each part acts on its own
    side or on every opposing character and reads nothing the other part changed, so both orders give the same
    position (Abyssal Gate: every opposing character goes Down; both leaders are Undead)."""
    results = []
    for lead in (0, 1):
        g = build({"party": ["Marrow Witch@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"],
                   "reserves": ["Dust Monk"] * 3},
                  {"party": ["Gravecrawler@0:L", "Quill Archer@4"], "hand": ["Oak Buckler"],
                   "reserves": ["Dust Monk"] * 3},
                  step=ST_TRIM, lead=lead, to_act=lead, location=("Abyssal Gate", 0))
        rules.advance(g.states[0], g.pool.tables)
        assert step_of(g) == ST_BATTLE
        results.append([is_down(g, p, s) for p, s in ((0, 0), (0, 1), (1, 0), (1, 4))])
    assert results[0] == results[1] == [True] * 4


def test_hide_keeps_what_the_viewer_saw_and_re_deals_the_rest() -> None:
    """Checks RL-Z4: hide() re-deals exactly what the viewer cannot know. Characters the viewer saw go back to the
    opponent's reserves (Retreat) and a card the viewer saw come back to the opponent's hand (reclaim) keep their
    identity; the reserve character and the hand card the viewer never saw are re-dealt."""
    from cardenvs.games.relics.state import STATE

    g = build({"party": ["Gale Duelist@0:L", "Thornwall Sentinel@1"], "hand": ["Scavenger's Hook", "Whetstone"],
               "reserves": ["Dust Monk"], "discard": ["Longbow"], "char_deck": ["Quill Archer"] * 4,
               "item_deck": ["Supply Cart"] * 4},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}, location=("Royal Arena", 1))
    do(g, "hand", 0)
    do(g, "slot", 0)  # its user goes Down; the Hook brings the Longbow back into the hand, seen by P1
    do(g, "pass", player=1)
    do(g, "retreat")  # the Duelist and the Sentinel go back to the reserves, seen by P1
    row = g.states[0]
    deck = STATE.get(row, "deck_list")[0]
    reserves = [int(i) for i in STATE.get(row, "reserves")[0, : int(STATE.get(row, "reserves_count")[0])]]
    hand = [int(i) for i in STATE.get(row, "hand")[0, : int(STATE.get(row, "hand_count")[0])]]
    known = {i for i in reserves + hand if STATE.get(row, "known")[0, i]}
    assert {POOL.name(int(deck[i])) for i in known} == {"Gale Duelist", "Thornwall Sentinel", "Longbow"}
    moved = set()
    for seed in range(30):
        other = STATE.get(SPEC.hide(row, 1, np.random.default_rng(seed), g.pool), "deck_list")[0]
        assert all(other[i] == deck[i] for i in known)
        moved |= {i for i in reserves + hand if other[i] != deck[i]}
    assert moved and not moved & known  # the Dust Monk and the Whetstone were re-dealt


def test_RL_Z5_K6_a_take_back_after_a_defeat_is_a_decision_then_the_action_ends(tmp_path: Path) -> None:
    """Checks RL-Z5, RL-K6: a defeat trigger that raises (a pool's own card: the project's Gravecrawler boosts
    itself since issue 39) takes a character of its owner's choice (a decision in the middle of the Fight); then the
    action ends and the turn passes (Steal discards would come first)."""
    extra = tmp_path / "ghoul.toml"
    extra.write_text('[[card]]\nname = "Test Ghoul"\ntype = "character"\nclass = "Blade"\ndescriptors = ["Undead"]\n'
                     'att = 4\ndef = 3\nskills = ["villain"]\n'
                     'effects = [{ trigger = "defeat", op = "raise", n = 1 }]\n')
    pool = load_pool([DEFAULT_POOL, extra])
    g = build({"party": ["Test Ghoul@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"],
               "discard": ["Dust Monk", "Quill Archer"]},
              {"party": ["Cutpurse Vex@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]}, pool=pool)
    act(g, fight(0, 0))  # 4 vs DEF 3: defeated
    assert step_of(g) == ST_PILE and int(g.to_act[0]) == 0
    do(g, "pile", pool.by_name["Dust Monk"])
    assert names(g, 0, "reserves") == ["Dust Monk"] and names(g, 0, "discard") == ["Quill Archer"]
    assert step_of(g) == ST_BATTLE and int(g.to_act[0]) == 1
