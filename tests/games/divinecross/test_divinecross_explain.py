"""Issue 16 for divinecross: ``SPEC.explain_illegal`` (why an action is refused, in the game's terms) and
``SPEC.legend`` (every mark the text board prints).

Scenario tests build a position with ``divinecross_helpers.build`` where one action is illegal for a known reason
(the checklist rule ID is in the test name) and check that the explanation names that reason; sweeps over states
of random and heuristic play check that the mask's own code (``rules.why_row``) records a declared reason for every
refusal and none for a legal action, that every refusal is worded, every legal action gets "", and no explanation
names a card the player cannot see; a render scan checks the legend covers every bracketed mark.
"""
from __future__ import annotations

import re

import numpy as np
import pytest
from divinecross_helpers import A, POOL, build, field

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_WINNER, LIVE, TERMINATED
from cardenvs.games.divinecross import SPEC
from cardenvs.games.divinecross.actions import NUM_ACTIONS
from cardenvs.games.divinecross.reasons import R_UNKNOWN, REASONS
from cardenvs.games.divinecross.rules import why_row
from cardenvs.games.divinecross.state import (
    ST_ASSIST_HOST,
    ST_BATTLE,
    ST_EXTRA_DRAW,
    ST_MAIN,
    ST_SETUP_PLACE,
    STATE,
    STEP_NAMES,
)
from cardenvs.games.divinecross.text import _NO_REASON

EXPLAIN = SPEC.explain_illegal
LEGEND = SPEC.legend
OPP = {"main": "Reef Titan", "hand": ["Riptide"]}


def why(g: BatchGame, name: str, index: int = 0, player: int | None = None) -> str:
    p = int(g.to_act[0]) if player is None else player
    text = EXPLAIN(g.states[0], g.pool, p, A(name, index))
    assert text, f"{name} {index} is legal here"
    assert not g.legal_mask([p])[0][A(name, index)]
    return text


def main_phase(**me) -> BatchGame:
    side = {"main": "Kiln Warden", "standby": ["Cinderpaw Cub"], "hand": ["Firestorm", "Flicker Imp"]}
    side.update(me)
    return build(side, dict(OPP))


# ---------------------------------------------------------------------------------------------- legal: no reason
def test_legal_actions_get_no_explanation() -> None:
    g = main_phase(energy={0: 2})
    mask = g.legal_mask([0])[0]
    assert mask.sum() > 3
    for a in np.flatnonzero(mask):
        assert EXPLAIN(g.states[0], g.pool, 0, int(a)) == ""


# ---------------------------------------------------------------------------------------------- whose decision
def test_not_your_decision_names_who_decides() -> None:
    g = main_phase()
    text = EXPLAIN(g.states[0], g.pool, 1, A("pass"))
    assert "not your decision" in text and "P0 decides" in text and "main phase" in text


def test_game_over() -> None:
    g = main_phase()
    g.states[0, H_STATUS] = TERMINATED
    g.states[0, H_WINNER] = 1
    assert "game is over" in EXPLAIN(g.states[0], g.pool, 0, A("pass"))


# ---------------------------------------------------------------------------------------------- setup
def test_DC_S4_only_a_unit_can_be_placed_as_main_unit() -> None:
    g = build({"hand": ["Firestorm", "Flicker Imp", "Flame Brand"]}, {"hand": ["Riptide", "Pearl Sprite"]},
              step=ST_SETUP_PLACE, turn=0)
    assert "'Firestorm' is an event card: only a Unit" in why(g, "hand", 0)
    assert "'Flame Brand' is an assist card" in why(g, "hand", 2)
    assert "there is no hand card 3: your hand holds 3 cards" in why(g, "hand", 3)
    text = why(g, "pass")
    assert "setup: place main unit" in text and "must place a Unit" in text
    assert "only in your Main Phase" in why(g, "charge", 0)


def test_DC_S6_extra_draw_only_in_setup_after_an_opponent_redeal() -> None:
    g = main_phase()
    text = why(g, "extra_draw")
    assert "only during setup" in text and "redeal" in text and "main phase" in text
    g = build({"hand": ["Flicker Imp"]}, {"hand": ["Pearl Sprite"]}, step=ST_EXTRA_DRAW, turn=0)
    field(g, "extra_left")[0] = 1
    assert "setup: extra draw" in why(g, "hand", 0)


# ---------------------------------------------------------------------------------------------- main phase
def test_DC_U3_unit_with_a_full_standby_area() -> None:
    g = main_phase(standby=["Cinderpaw Cub", "Ashfang Raider", "Blaze Herald"])
    assert "'Flicker Imp' is a Unit and your Standby Area is full (3 Units" in why(g, "hand", 1)


def test_DC_E2_second_event_in_a_turn() -> None:
    g = main_phase(event_played=1)
    assert "'Firestorm' is an Event and you already played an Event this turn" in why(g, "hand", 0)


def test_empty_hand_slot() -> None:
    g = main_phase()
    assert "there is no hand card 2: your hand holds 2 cards" in why(g, "hand", 2)


def test_DC_C1_charge_once_per_turn_and_empty_position() -> None:
    g = main_phase(charged=1)
    assert "already charged a Unit this turn (once per turn, DC-C1)" in why(g, "charge", 0)
    g = main_phase()
    assert "no Unit in standby slot 2: you have 1 Standby Unit" in why(g, "charge", 2)


def test_DC_R1_R2_R5_retreat_reasons() -> None:
    g = main_phase(energy={0: 1})  # Kiln Warden: retreat cost 2
    assert "retreating 'Kiln Warden' costs 2 Energy and it has 1 attached" in why(g, "retreat", 0)
    g = main_phase(energy={0: 2}, retreated=1)
    assert "already retreated this turn (once per turn, DC-R1)" in why(g, "retreat", 0)
    g = main_phase(energy={0: 2}, stunned=1)
    assert EXPLAIN(g.states[0], g.pool, 0, A("retreat", 0)) == ""  # DC-R5 (v2): a Stunned Main Unit may retreat
    g = main_phase(energy={0: 2})
    assert "no Unit in standby slot 2" in why(g, "retreat", 1)
    g = main_phase(energy={0: 0}, retreated=1, stunned=1)  # every reason at once, and the stun is none of them
    text = why(g, "retreat", 0)
    assert "already retreated" in text and "costs 2 Energy" in text and "Stunned" not in text


def test_DC_K5_ex_power_once_per_game_and_units_without_one() -> None:
    g = main_phase(ex_used=1)
    assert "already used your EX-Power this game (once per game, DC-K5)" in why(g, "ex_power", 0)
    g = main_phase()
    assert "standby 1 'Cinderpaw Cub' has no EX-Power" in why(g, "ex_power", 1)
    assert "no Unit in standby slot 3" in why(g, "ex_power", 3)


def test_DC_K1_skill_only_in_the_battle_phase() -> None:
    g = main_phase(energy={0: 4})
    text = why(g, "skill", 0)
    assert "only in your Battle Phase" in text and "the step now is 'main phase'" in text


# ---------------------------------------------------------------------------------------------- battle phase
def battle(turn: int = 5, **me) -> BatchGame:
    side = {"main": "Kiln Warden", "hand": ["Flicker Imp"]}
    side.update(me)
    return build(side, dict(OPP), step=ST_BATTLE, turn=turn)


def test_DC_C4_skill_needs_its_energy() -> None:
    g = battle(energy={0: 1})
    assert "skill 'Ember Wall' needs 2 Energy attached to 'Kiln Warden' and it has 1" in why(g, "skill", 0)
    assert "skill 'Meltdown' needs 4 Energy" in why(g, "skill", 1)


def test_DC_K2_no_skill_on_the_first_turn() -> None:
    g = battle(turn=1, energy={0: 4})
    assert "cannot use a skill on the first turn of the game (DC-K2)" in why(g, "skill", 0)


def test_DC_N3_stunned_main_unit_uses_no_skill() -> None:
    g = battle(energy={0: 4}, stunned=1)
    assert "'Kiln Warden' is Stunned and cannot use a skill" in why(g, "skill", 0)


def test_DC_U8_a_unit_with_one_skill_has_no_second() -> None:
    g = battle(main="Flicker Imp", energy={0: 4})
    assert "'Flicker Imp' has 1 skill: there is no skill 1" in why(g, "skill", 1)


def test_battle_phase_refuses_main_phase_actions() -> None:
    g = battle(energy={0: 4})
    text = why(g, "hand", 0)
    assert "only in your Main Phase" not in text and "Main Phase (play the card)" in text
    assert "battle phase" in text
    assert "battle phase" in why(g, "charge", 0)


# ---------------------------------------------------------------------------------------------- assists, KOs
def test_DC_E4_assist_host_must_be_a_unit_and_only_while_playing_an_assist() -> None:
    g = main_phase()
    assert "only while you choose the Unit an Assist you are playing attaches to" in why(g, "host", 0)
    g = build({"main": "Kiln Warden", "standby": ["Cinderpaw Cub"], "hand": ["Flame Brand", "Firestorm"]},
              dict(OPP), step=ST_ASSIST_HOST)
    field(g, "pending_card")[...] = int(field(g, "hand")[0, 0])
    assert "no Unit in standby slot 2" in why(g, "host", 2)
    text = why(g, "hand", 1)
    assert "choose assist host" in text and "choose the Unit it attaches to" in text
    assert "choose assist host" in why(g, "pass")


def test_DC_O5_a_kod_main_unit_is_replaced_before_anything_else() -> None:
    g = build({"standby": ["Cinderpaw Cub"], "hand": ["Firestorm"]}, dict(OPP), step=ST_MAIN)
    field(g, "promote")[...] = 1
    text = why(g, "charge", 1)
    assert "Main Unit was KO'd" in text and "move a Standby Unit up" in text
    assert "no Unit in standby slot 2" in why(g, "promote", 1)
    g = main_phase()
    assert "only when your Main Unit was KO'd" in why(g, "promote", 0)


# ---------------------------------------------------------------------------------------------- through PlaySession
def test_play_explain_uses_the_game_reason() -> None:
    from cardenvs.play import explain

    g = main_phase(charged=1)
    text = explain(g, 0, A("charge", 0))
    assert "already charged a Unit this turn" in text


# ---------------------------------------------------------------------------------------------- sweep
def _visible_names(g: BatchGame, row: int, p: int) -> set[str]:
    board = g.render(row, viewer=p)
    return {c["name"] for c in POOL.cards if c["name"] in board}


def _played_states(pilot: str, games: int = 24, seed: int = 5, every: int = 3):
    """The batch every ``every`` steps of games that ``pilot`` plays on both seats (the starter deck pairings)."""
    from cardenvs.agents import make_agent

    g = BatchGame(SPEC, games, decks=[("blaze", "tide"), ("grove", "blaze"), ("tide", "grove")] * (games // 3),
                  seed=seed)
    agent = make_agent("divinecross", pilot, seed=seed)
    step = 0
    while (g.status == LIVE).any() and step < 400:
        if step % every == 0 or step < 3:  # the first steps show the face-down placements
            yield g
        players = np.where(g.status == LIVE, g.to_act, -1).astype(np.int32)
        mask = g.legal_mask(players)
        g.step(agent.act(g.observe(players), mask, g.states, players), players=players)
        step += 1
    yield g


@pytest.mark.parametrize("pilot", ["random", "heuristic"])
def test_mask_records_a_reason_for_every_refusal_and_none_for_a_legal_action(pilot: str) -> None:
    """Rules once: ``why_row`` runs the mask's own code with recording on; over positions of random and heuristic
    play, for both players, its legal actions are the mask's, every refused action carries a declared reason (not
    ``unknown``) and no legal action carries one."""
    refused = 0
    codes = set()
    for g in _played_states(pilot):
        for player in (0, 1):
            masks = g.legal_mask(np.full(g.num_games, player, dtype=np.int32))
            for r in range(g.num_games):
                why = np.zeros(NUM_ACTIONS, dtype=np.int32)
                n = why_row(g.states[r], g.pool.tables, player, why)
                assert n == masks[r].sum()
                np.testing.assert_array_equal(why == 0, masks[r] == 1)
                assert not (why & R_UNKNOWN).any(), g.render(r)
                refused += int((why != 0).sum())
                codes.update(c for c in range(len(REASONS)) for bits in np.unique(why) if bits >> c & 1)
    assert refused > 10_000
    assert {"not_your_decision", "wrong_step", "no_hand_card", "empty_slot", "charged"} <= {REASONS[c].name
                                                                                           for c in codes}


@pytest.mark.parametrize("pilot", ["random", "heuristic"])
def test_sweep_every_refusal_has_a_reason_and_names_only_visible_cards(pilot: str) -> None:
    checked = steps = 0
    seen_steps = set()
    for g in _played_states(pilot):
        masks = g.legal_mask()
        for r in range(g.num_games):
            row = g.states[r]
            if int(row[H_STATUS]) != LIVE:
                continue
            p = int(row[H_TO_ACT])
            seen_steps.add(int(STATE.get(row, "step")))
            mask = masks[r]
            visible = _visible_names(g, r, p)
            steps += 1
            for a in range(NUM_ACTIONS):
                text = EXPLAIN(row, g.pool, p, a)
                if mask[a]:
                    assert text == "", (a, text)
                    continue
                checked += 1
                assert text and _NO_REASON not in text and "{" not in text, (g.render(r), g.action_name(a, r, p))
                for c in POOL.cards:
                    if f"'{c['name']}'" in text:
                        assert c["name"] in visible, (text, g.render(r, viewer=p))
            other = EXPLAIN(row, g.pool, 1 - p, A("pass"))
            assert "not your decision" in other
    assert steps >= 300 and checked > 10_000
    assert {ST_SETUP_PLACE, ST_MAIN, ST_BATTLE} <= seen_steps
    if pilot == "random":
        assert ST_ASSIST_HOST in seen_steps  # random play reaches every decision step; the heuristic may not


# ---------------------------------------------------------------------------------------------- legend
def test_legend_explains_every_bracketed_mark_and_label_the_render_prints() -> None:
    marks, labels = set(), set()
    for g in _played_states("random", games=12, seed=9, every=5):
        for r in range(g.num_games):
            for viewer in (None, 0, 1):
                board = g.render(r, viewer=viewer)
                for m in re.findall(r"\[([^\]]+)\]", board):
                    marks.update(x.strip() for x in m.split(","))
                labels.update(re.findall(r"step: ([a-z: ]+?)  ", board))
                labels.update(re.findall(r"^\s*([A-Za-z ]+):", board, flags=re.M))
    assert {"face down", "stunned", "EX used"} <= marks
    assert any(m.startswith("P") and m.endswith("wins") for m in marks)
    for m in marks:
        assert f"[{m}]" in LEGEND or (m in ("P0 wins", "P1 wins") and "[P0 wins] / [P1 wins]" in LEGEND), m
    for extra in ("[draw]", "[truncated]", "[poisoned]"):
        assert extra in LEGEND
    for name in STEP_NAMES:
        assert f'"{name}"' in LEGEND, name
    for label in labels:
        assert label.strip() in LEGEND, label
    for token in ("dmg D/HP", "En", "+Assist", "boost +X", "guard +X", "KO n/3", "deck N", "discard N", "hand N"):
        assert token in LEGEND


def test_rules_md_carries_the_legend() -> None:
    from pathlib import Path

    import cardenvs.games.divinecross as dc

    rules = (Path(dc.__file__).parent / "RULES.md").read_text()
    assert LEGEND in rules
    assert "Why an action is illegal" in rules


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS])
def test_out_of_range_action(bad: int) -> None:
    g = main_phase()
    assert "there is no action" in EXPLAIN(g.states[0], g.pool, 0, bad)


def test_legend_lists_the_range_of_every_action_id() -> None:
    text = LEGEND[LEGEND.index("Action ids"):].replace("\n  ", " ")
    covered = set()
    for lo, hi in re.findall(r"(?:^|; |: )(\d+)(?:-(\d+))? ", text):
        covered.update(range(int(lo), int(hi or lo) + 1))
    assert covered == set(range(NUM_ACTIONS))


def test_render_shows_hp_with_the_assists_hp() -> None:
    """The board's D/HP is the HP that KOs the Unit (DC-U6): printed HP plus attached Assists' HP (Coral Aegis +100)."""
    g = build({"main": "Flicker Imp", "assists": {0: ["Coral Aegis"]}, "damage": {0: 100}}, dict(OPP))
    board = g.render(0, viewer=0)
    assert "dmg 100/500" in board and "+Coral Aegis" in board


def test_a_person_asks_why_and_for_the_legend_in_play() -> None:
    """`cardenvs play` as a person types it: the setup placement refuses a non-Unit with the game's reason. Seed 4:
    the person's opening hand holds two Units (play takes a person's only legal action for them) and hand 0 is not
    a Unit."""
    import io

    from rich.console import Console

    from cardenvs.play import PlaySession

    out = io.StringIO()
    session = PlaySession("divinecross", opponent="random", seed=4, console=Console(file=out, width=200),
                          inp=io.StringIO("why 0\nwhy 32\nlegend\n2\nquit\n"))
    session.run()
    text = out.getvalue()
    assert "every player must place a Unit as Main Unit (DC-S4)" in text
    assert "charging is allowed only in your Main Phase (DC-C1); the step now is 'setup: place main unit'" in text
    assert "divinecross board legend" in text
    assert "only a Unit can be placed face down as your Main Unit" in text  # seed 4: hand 0 is not a Unit


def test_DC_U7_board_shows_both_discard_piles_and_the_log_names_public_cards() -> None:
    """Issue 39 #15 (DC-U7: discard piles are face up): the board printed only the piles' sizes, and the play log
    showed the opponent's Firestorm and Battle Fury as "an action you cannot see the details of" although both cards
    go face up to the discard pile. Every viewer's board lists both piles card by card, and the log names them."""
    from cardenvs.viewer import HIDDEN_ACTION, public_action_name

    g = build({"main": "Kiln Warden", "hand": ["Firestorm", "Battle Fury", "Flicker Imp"], "discard": ["Sap Mend"]},
              {"main": "Reef Titan", "standby": ["Pearl Sprite"], "hand": ["Riptide"], "discard": ["Still Waters"]})
    for viewer in (None, 0, 1):
        board = g.render(0, viewer=viewer)
        assert "  discard: Sap Mend" in board and "  discard: Still Waters" in board, board
    for card in ("Firestorm", "Battle Fury"):
        before = g.states[0].copy()
        in_hand = field(g, "hand")[0, :int(field(g, "hand_count")[0])]
        hand = [POOL.name(int(field(g, "deck_list")[0, i])) for i in in_hand]
        action = A("hand", hand.index(card))
        g.step([action])
        shown = public_action_name(SPEC, before, g.pool, 0, action, viewer=1, after=g.states[0])
        assert shown != HIDDEN_ACTION and f"'{card}'" in shown, shown
    board = g.render(0, viewer=1)
    assert "  discard: Sap Mend, Firestorm, Battle Fury\n" in board, board  # oldest first
    assert "Flicker Imp" not in board  # the hand stays hidden: only public cards are named
