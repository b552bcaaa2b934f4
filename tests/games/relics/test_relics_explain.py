"""Issue 16 for relics: ``SPEC.explain_illegal`` (why an action is refused, in the game's terms) and
``SPEC.legend`` (every mark the text board prints).

Scenario tests build a position with ``relics_helpers.build`` where one action is illegal for a known reason (the
checklist rule ID is in the test name) and check that the explanation names that reason; over positions of random
and heuristic play the mask kernel itself (``rules.why_row``) must record a declared reason code for every refusal
and none for a legal action; a sweep over states of random play checks that every refusal has a reason, every legal
action gets "", and no explanation names a card the player cannot see; a render scan checks the legend covers every
bracketed mark.
"""
from __future__ import annotations

import re

import numpy as np
import pytest
from relics_helpers import A, POOL, build, do, fight, field

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_WINNER, LIVE, TERMINATED
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.actions import NUM_ACTIONS, action_range
from cardenvs.games.relics.state import (
    PARTY_SIZE,
    ST_BATTLE,
    ST_DISCARD,
    ST_LOCATION,
    ST_PLACE,
    ST_SLOT,
    ST_TARGET,
    STATE,
    STEP_NAMES,
)
from cardenvs.games.relics.reasons import MAX_REASONS, NUM_REASONS, R_NOT_YOUR_DECISION
from cardenvs.games.relics.reasons import NAMES as REASON_NAMES
from cardenvs.games.relics.rules import why_row
from cardenvs.games.relics.text import _NO_REASON

EXPLAIN = SPEC.explain_illegal
LEGEND = SPEC.legend
OPP = {"party": ["Ironbrand Squire@1:L", "Brass Golem@4"], "hand": ["Oak Buckler"]}


def why(g: BatchGame, name: str, index: int = 0, player: int | None = None) -> str:
    p = int(g.to_act[0]) if player is None else player
    text = EXPLAIN(g.states[0], g.pool, p, A(name, index))
    assert text, f"{name} {index} is legal here"
    assert not g.legal_mask([p])[0][A(name, index)]
    return text


def battle(opp: dict | None = None, **me) -> BatchGame:
    side = {"party": ["Gale Duelist@1:L", "Quill Archer@4"], "hand": ["Supply Cart", "Tin Sword", "Smoke Bomb"]}
    side.update(me)
    return build(side, dict(OPP if opp is None else opp))


# ---------------------------------------------------------------------------------------------- legal: no reason
def test_legal_actions_get_no_explanation() -> None:
    g = battle()
    mask = g.legal_mask([0])[0]
    assert mask.sum() > 5
    for a in np.flatnonzero(mask):
        assert EXPLAIN(g.states[0], g.pool, 0, int(a)) == ""


# ---------------------------------------------------------------------------------------------- whose decision
def test_not_your_decision_names_who_decides() -> None:
    g = battle()
    assert "it is not your decision: P0 decides now (step 'battle')" in EXPLAIN(g.states[0], g.pool, 1, A("pass"))


def test_game_over() -> None:
    g = battle()
    g.states[0, H_STATUS] = TERMINATED
    g.states[0, H_WINNER] = 0
    g.states[0, H_TO_ACT] = -1
    assert EXPLAIN(g.states[0], g.pool, 0, A("pass")) == "the game is over"


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS])
def test_out_of_range_action(bad: int) -> None:
    g = battle()
    assert "there is no action" in EXPLAIN(g.states[0], g.pool, 0, bad)


# ---------------------------------------------------------------------------------------------- wrong step
def test_RL_G9_battle_actions_only_in_the_battle_step() -> None:
    g = battle(lineup=["Dust Monk"], party=["Gale Duelist@1:L"])
    field(g, "step")[...] = ST_PLACE
    text = why(g, "fight", 1 * PARTY_SIZE + 1)
    assert "a Fight is allowed only in the battle step" in text and "the step now is 'place characters'" in text
    assert "choosing the location is allowed only in the choose location step" in why(battle(), "location", 0)


def test_RL_G5_placement_needs_an_empty_slot() -> None:
    g = battle(lineup=["Dust Monk"], party=["Gale Duelist@1:L"])
    field(g, "step")[...] = ST_PLACE
    assert "front 2 is taken by 'Gale Duelist' (front 2): choose an empty slot" in why(g, "slot", 1)


def test_RL_G2_location_entry_missing() -> None:
    g = battle(pile=["Iron Foundry"])
    field(g, "step")[...] = ST_LOCATION
    assert "there is no location 2 of yours in the pile: you have 1 left" in why(g, "location", 2)
    assert "there is no opposing location 0 in the pile: the opponent has 0 left" in why(g, "location", 5)


# ---------------------------------------------------------------------------------------------- Fight, Throw, Move
def test_RL_A1_fight_empty_slots_down_attacker_and_reach() -> None:
    g = battle(party=["Gale Duelist@1:vL", "Ironbrand Squire@4"])
    assert "you have no character on front 1" in why(g, "fight", 0 * PARTY_SIZE + 1)
    assert "the opponent has no character on front 1" in why(g, "fight", 1 * PARTY_SIZE + 0)
    assert "'Gale Duelist' (front 2) is Down: only an Up character can attack (RL-A1" in why(g, "fight", 1 * PARTY_SIZE + 1)
    text = why(g, "fight", 4 * PARTY_SIZE + 4)
    assert "'Brass Golem' (back 2) is 3 rows away from 'Ironbrand Squire' (back 2)" in text
    assert "a Fight reaches 1 row, 2 with Ranged (RL-A1)" in text


def test_RL_K4_ranged_reaches_two_rows_not_three() -> None:
    g = battle()
    assert EXPLAIN(g.states[0], g.pool, 0, fight(4, 1)) == ""  # Quill Archer (back) -> front: 2 rows, Ranged
    assert "Ranged reaches 2 rows (RL-K4)" in why(g, "fight", 4 * PARTY_SIZE + 4)


def test_RL_K11_throw_needs_the_skill_and_equipment_in_hand() -> None:
    g = battle(hand=["Supply Cart"])
    text = why(g, "throw", 1 * PARTY_SIZE + 1)
    assert "'Gale Duelist' (front 2) lacks the Throw skill (RL-K11)" in text
    assert "a Throw discards an equipment card from your hand and you hold none (RL-K11)" in text
    g = battle(party=["Knife Juggler@1:L"])
    assert EXPLAIN(g.states[0], g.pool, 0, A("throw", 1 * PARTY_SIZE + 1)) == ""


def test_RL_A4_move_down_character_and_taken_slot() -> None:
    g = battle(party=["Gale Duelist@1:vL", "Quill Archer@4"])
    assert "is Down: a Move downs the character, so it must be Up (RL-A4)" in why(g, "move", 1 * PARTY_SIZE + 0)
    assert "front 2 is taken by 'Gale Duelist' (front 2)" in why(g, "move", 4 * PARTY_SIZE + 1)
    assert "a Move goes to the other row" in why(g, "move", 4 * PARTY_SIZE + 5)  # RL-M4: back 2 -> back 3


def test_RL_M4_no_op_casts_and_abilities_say_why() -> None:
    """Checks RL-M4: a card or ability that would change nothing is refused with the reason."""
    g = battle(party=["Gale Duelist@1:L"], hand=["Healing Draught", "Supply Cart", "Scavenger's Hook", "Smoke Bomb"],
               item_deck=[])
    assert "'Healing Draught' would change nothing now (RL-M4): none of your characters is Down" in why(g, "hand", 0)
    assert "your item deck is empty: there is nothing to draw" in why(g, "hand", 1)
    assert "no equipment, item or spell in your discard pile to take back" in why(g, "hand", 2)
    down = battle(opp={"party": ["Brass Golem@0:Lv"], "hand": ["Oak Buckler"]}, hand=["Smoke Bomb"])
    assert "every character it may Down is Down already" in why(down, "hand", 0)


# ---------------------------------------------------------------------------------------------- Cast/Use, Reinforce
def test_RL_M2_spell_needs_a_caster_with_its_school() -> None:
    g = battle(hand=["Night Bolt"])
    assert "'Night Bolt' needs a caster of yours with the Black skill (RL-M2) and that is Up" in why(g, "hand", 0)


def test_RL_U3_down_cost_needs_an_up_user() -> None:
    g = battle(party=["Gale Duelist@1:vL", "Quill Archer@4:v"], hand=["Whetstone"])
    assert ("'Whetstone' needs a user of yours that is Up to pay its down cost (RL-U1/U3): none of your characters in "
            "play qualifies") in why(g, "hand", 0)


def test_RL_K1_spell_without_a_target_immune_opponents() -> None:
    g = battle(opp={"party": ["Marrow Witch@1:L"], "hand": ["Oak Buckler"]},
               party=["Ember Savant@1:L"], hand=["Night Bolt"])
    assert "every one of them is an Up Black character, immune to your black magic (RL-K1/K2)" in why(g, "hand", 0)


def test_RL_E1_E2_equipment_needs_a_suitable_free_host() -> None:
    g = battle(party=["Quill Archer@1:L"], hand=["Tin Sword"])
    assert "none of your characters without an attachment meets its requirements (requires " in why(g, "hand", 0)
    g = battle(party=["Gale Duelist@1:L"], equip={1: "Oak Buckler"}, hand=["Tin Sword"])
    assert "already carries an attachment (one each, RL-E2)" in why(g, "hand", 0)


def test_empty_hand_and_reserve_slots() -> None:
    g = battle()
    assert "there is no hand card 5: your hand holds 3 cards" in why(g, "hand", 5)
    assert "there is no reserve character 0: your reserves hold 0 characters" in why(g, "reserve", 0)


def test_RL_A5_reserve_character_only_while_the_party_has_fewer_than_6() -> None:
    g = battle(party=[f"Ironbrand Squire@{s}" + (":L" if s == 0 else "") for s in range(6)], reserves=["Dust Monk"])
    assert "your party is full (6 characters)" in why(g, "reserve", 0)


def test_relic_entry_missing_or_already_in_play() -> None:
    g = battle()
    assert "there is no relic 0 you control" in why(g, "relic", 0)
    g = battle(relics=["Iron Foundry@1"])
    assert "the relic 'Iron Foundry' is already in play" in why(g, "relic", 0) or "relic '" in why(g, "relic", 0)


# ---------------------------------------------------------------------------------------------- abilities
def test_RL_U1_K13_ability_reasons() -> None:
    g = battle(party=["Gale Duelist@1:L", "Iron Abbot@4", "Dawn Cleric@2:v"])
    assert "has no act ability" in why(g, "ability", 1)
    assert "is marked Leader and works only while it is your party leader (RL-K13)" in why(g, "ability", 4)
    assert "'Dawn Cleric' (front 3) is Down: using its ability downs it" in why(g, "ability", 2)


def test_RL_L2_leader_card_ability_needs_a_qualifying_leader() -> None:
    g = battle(party=["Quill Archer@1:L"])  # Royal Arena qualifies Blade, Noble; Quill Archer is a Hunter
    text = why(g, "leader_ability")
    assert "does not qualify for the location 'Royal Arena' (qualifies: Blade, Noble)" in text and "(RL-L2)" in text


# ---------------------------------------------------------------------------------------------- Recruit, Appoint
def test_RL_A6_A7_recruit_and_appoint_cost_three_cards() -> None:
    g = battle(hand=["Supply Cart"], party=["Gale Duelist@1:L"])
    assert "Recruit costs 3 cards from hand and you hold 1 (RL-A6)" in why(g, "recruit")
    text = why(g, "appoint")
    assert "Appoint costs 3 cards from hand and you hold 1 (RL-A7)" in text
    assert "no character in play other than your leader" in text


# ---------------------------------------------------------------------------------------------- pending choices
def test_RL_M2_caster_slot_and_RL_K1_immune_target() -> None:
    g = battle(opp={"party": ["Marrow Witch@1:L", "Ironbrand Squire@0"], "hand": ["Oak Buckler"]},
               party=["Ember Savant@1:L", "Gale Duelist@0"], hand=["Night Bolt"])
    do(g, "hand", 0)
    assert int(field(g, "step")) == ST_SLOT
    assert "'Gale Duelist' lacks the Black skill the black spell 'Night Bolt' needs in its caster (RL-M2)" in why(
        g, "slot", 0)
    assert "you have no character on front 3" in why(g, "slot", 2)
    # the opponent waits on P0's hidden hand card: P1 is told the battle step, not 'choose own character'
    assert "(step 'battle')" in EXPLAIN(g.states[0], g.pool, 1, A("pass"))
    assert "step: battle  to act: P0" in g.render(0, viewer=1)  # the board hides it the same way
    assert "step: choose own character  to act: P0" in g.render(0, viewer=0)
    do(g, "slot", 1)
    assert int(field(g, "step")) == ST_TARGET
    assert "'Marrow Witch' (front 2) is an Up Black character: it ignores your black magic (RL-K1/K2)" in why(
        g, "target", 1)
    assert "the opponent has no character on back 1" in why(g, "target", 3)
    assert "this choice cannot be declined" in why(g, "pass")


def test_RL_E1_host_slot_must_meet_the_requirements() -> None:
    g = battle(party=["Gale Duelist@1:L", "Quill Archer@4"], hand=["Tin Sword"])
    do(g, "hand", 0)
    assert int(field(g, "step")) == ST_SLOT
    assert "'Quill Archer' (back 2) does not meet the requirements of 'Tin Sword' (requires Blade, Rogue, Lancer" in \
        why(g, "slot", 4)


def test_RL_K11_throw_discards_equipment() -> None:
    g = battle(party=["Knife Juggler@1:L"], hand=["Supply Cart", "Tin Sword"])
    do(g, "throw", 1 * PARTY_SIZE + 1)
    assert int(field(g, "step")) == ST_DISCARD
    assert "'Supply Cart' is not equipment: a Throw discards an equipment card (RL-K11)" in why(g, "hand", 0)


def test_RL_Z5_take_back_only_a_card_of_the_right_kind_in_the_pile() -> None:
    g = battle(party=["Gale Duelist@1:L"], hand=["Grave Lantern"], discard=["Dust Monk", "Brass Golem", "Night Bolt"])
    do(g, "hand", 0)
    if int(field(g, "step")) == ST_SLOT:
        do(g, "slot", 1)
    assert STEP_NAMES[int(field(g, "step"))] == "take back"
    assert "is a spell card: raise takes back a character" in why(g, "pile", POOL.by_name["Night Bolt"])
    assert "there is no 'Iron Abbot' in your discard pile" in why(g, "pile", POOL.by_name["Iron Abbot"])
    assert EXPLAIN(g.states[0], g.pool, 0, A("pile", POOL.by_name["Dust Monk"])) == ""
    assert "taking back a card is allowed only in the take back step" in why(battle(), "pile", 0)


# ---------------------------------------------------------------------------------------------- through PlaySession
def test_play_explain_uses_the_game_reason() -> None:
    from cardenvs.play import explain

    g = battle(hand=["Supply Cart"])
    assert "Recruit costs 3 cards from hand and you hold 1" in explain(g, 0, A("recruit"))


# ---------------------------------------------------------------------------------------------- sweep
def _visible_names(g: BatchGame, row: int, p: int) -> set[str]:
    board = g.render(row, viewer=p)
    return {c["name"] for c in POOL.cards if c["name"] in board}


def _random_states(games: int = 12, seed: int = 5, every: int = 7, steps: int = 700):
    g = BatchGame(SPEC, games, decks=[("vanguard", "arcana"), ("shadow", "vanguard"), ("arcana", "shadow")]
                  * (games // 3), seed=seed)
    rng = np.random.default_rng(seed)
    for step in range(steps):
        if not (g.status == LIVE).any():
            break
        if step % every == 0:
            yield g
        mask = g.legal_mask()
        g.step((rng.random(mask.shape) * mask).argmax(axis=1))
    yield g


def _heuristic_states(games: int = 6, seed: int = 3, every: int = 8, steps: int = 900):
    """Positions of heuristic-vs-heuristic play: competent play reaches what random play rarely does (full parties,
    relics in play, casts aimed at chosen characters)."""
    from cardenvs.core.agents import make_agent

    g = BatchGame(SPEC, games, decks=[("vanguard", "arcana"), ("shadow", "vanguard"), ("arcana", "shadow")]
                  * (games // 3), seed=seed, autoreset=True)
    agent = make_agent("relics", "heuristic")
    for step in range(steps):
        if step % every == 0:
            yield g
        mask = g.legal_mask()
        g.step(agent.act(None, mask, states=g.states, players=g.to_act))


@pytest.mark.parametrize("pilot", ["random", "heuristic"])
def test_sweep_every_refusal_has_a_recorded_reason_and_names_only_visible_cards(pilot: str) -> None:
    """Rules once: ``why_row`` runs the mask's own branches (``legal_row`` with ``record``), so for every action the
    mask refuses it records a declared reason code (never 0, "unknown"), for every legal action none, and the same
    count of legal actions; the other player is told it is not their decision. Over positions of random and of
    heuristic play, every refusal's explanation is a filled message that names only cards the player can see, and
    every legal action's is ""."""
    checked = steps = 0
    seen_steps: set[int] = set()
    seen_codes: set[int] = set()
    for g in _random_states() if pilot == "random" else _heuristic_states():
        masks = g.legal_mask()
        for r in range(g.num_games):
            row = g.states[r]
            if int(row[H_STATUS]) != LIVE:
                continue
            p = int(row[H_TO_ACT])
            seen_steps.add(int(STATE.get(row, "step")))
            mask = masks[r]
            why = np.zeros((NUM_ACTIONS, MAX_REASONS), dtype=np.int32)
            assert why_row(row, g.pool.tables, p, why) == mask.sum()
            assert not why[mask != 0].any(), [g.action_name(int(a), r, p) for a in np.flatnonzero(why.any(1) & mask)]
            assert (why[mask == 0, 0] > 0).all(), [g.action_name(int(a), r, p)
                                                   for a in np.flatnonzero((why[:, 0] == 0) & (mask == 0))]
            assert ((why >= 0) & (why < NUM_REASONS)).all()
            seen_codes.update(why[why > 0].tolist())
            visible = _visible_names(g, r, p)
            steps += 1
            for a in range(NUM_ACTIONS):
                text = EXPLAIN(row, g.pool, p, a)
                if mask[a]:
                    assert text == "", (a, text)
                    continue
                checked += 1
                assert text and text != _NO_REASON and "{" not in text, (g.render(r, viewer=p), a,
                                                                          g.action_name(a, r, p), text)
                if action_range(a)[0] == "pile":  # names the card id asked for: pool data, not hidden
                    continue
                for c in POOL.cards:
                    if f"'{c['name']}'" in text:
                        assert c["name"] in visible, (text, g.render(r, viewer=p))
            other = np.zeros((NUM_ACTIONS, MAX_REASONS), dtype=np.int32)
            assert why_row(row, g.pool.tables, 1 - p, other) == 0
            assert (other[:, 0] == R_NOT_YOUR_DECISION).all() and not other[:, 1:].any()
            assert "not your decision" in EXPLAIN(row, g.pool, 1 - p, A("pass"))
    assert steps >= 300 and checked > 50_000
    assert {ST_LOCATION, ST_PLACE, ST_BATTLE, ST_SLOT} <= seen_steps
    assert len(seen_codes) >= 25, sorted(REASON_NAMES[c] for c in seen_codes)


# ---------------------------------------------------------------------------------------------- legend
def test_legend_explains_every_bracketed_mark_and_label_the_render_prints() -> None:
    marks, labels = set(), set()
    for g in _random_states(games=9, seed=9, every=11):
        for r in range(g.num_games):
            for viewer in (None, 0, 1):
                board = g.render(r, viewer=viewer)
                marks.update(re.findall(r"\[[^\]]+\]", board))
                labels.update(re.findall(r"step: ([a-z ]+?)(?:  |$)", board, flags=re.M))
                labels.update(re.findall(r"^\s*([A-Za-z ]+):", board, flags=re.M))
    assert {"[face down]", "[^L]", "[^]"} <= marks and any(m.startswith("[v") for m in marks)
    assert any(m.endswith("?]") for m in marks)
    for m in marks:
        assert m in LEGEND or (m in ("[P0 wins]", "[P1 wins]") and "[P0 wins] / [P1 wins]" in LEGEND), m
    for extra in ("[draw]", "[truncated]", "[face down]", "(not shown yet)"):
        assert extra in LEGEND
    for name in STEP_NAMES:
        assert f'"{name}"' in LEGEND, name
    for label in labels:
        assert label.strip() in LEGEND, label
    for token in ("character deck N", "item deck N", "hand N", "reserves N", "discard N", "doom N", "ATT/DEF",
                  "+Attachment", '"."', "1P", "round N", "battle N"):
        assert token in LEGEND, token


def test_rules_md_carries_the_legend() -> None:
    from pathlib import Path

    import cardenvs.games.relics as rl

    rules = (Path(rl.__file__).parent / "RULES.md").read_text()
    assert LEGEND in rules
    assert "Why an action is illegal" in rules


def test_legend_lists_the_range_of_every_action_id() -> None:
    text = LEGEND[LEGEND.index("Action ids"):].replace("\n  ", " ")
    covered = set()
    for lo, hi in re.findall(r"(?:^|; |:\s)(\d+)(?:-(\d+))? [a-z]", text):
        covered.update(range(int(lo), int(hi or lo) + 1))
    assert covered == set(range(NUM_ACTIONS))


def test_a_person_asks_why_and_for_the_legend_in_play() -> None:
    """`cardenvs play` as a person types it: why a Fight is refused in setup, the legend, a bad line, resign."""
    import io

    from rich.console import Console

    from cardenvs.play import PlaySession

    out = io.StringIO()
    session = PlaySession("relics", opponent="random", seed=7, console=Console(file=out, width=200),
                          inp=io.StringIO("why 1\nwhy 9999\nlegend\nfoo\nquit\n"))
    session.run()
    text = out.getvalue()
    assert "a Fight is allowed only in the battle step, on your turn (RL-A1); the step now is" in text
    assert "there is no action 9999" in text
    assert "relics board legend" in text
