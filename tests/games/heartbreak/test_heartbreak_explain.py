"""Issue 16 for heartbreak: ``why N`` (``SPEC.explain_illegal``) and the board legend (``SPEC.legend``).

Scenario tests build a position where an action is illegal for a known reason (rule IDs in the names) and check the
explanation names that reason; a sweep over random play checks the explanation agrees with the mask everywhere and
reveals nothing hidden (it reads the same after ``hide``); the legend test scans renders for every bracketed mark.
"""
from __future__ import annotations

import re

import numpy as np
import pytest
from cardenvs.core.agents import make_agent
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import DRAW, H_STATUS, H_TO_ACT, H_WINNER, LIVE, TERMINATED, TRUNCATED
from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.state import (
    CH_EVOLVE,
    CH_SWAP,
    K_CALL,
    K_PHASE,
    ST_ACTION,
    ST_CHARGE,
    ST_CHOOSE,
    ST_CLIMAX,
    ST_MAIN,
    ST_REFILL,
    ST_SETUP_LEAD,
    ST_TARGET,
    ST_TRIGGERS,
    ST_WINDOW,
)
from cardenvs.games.heartbreak.reasons import R_NOT_YOURS, R_UNKNOWN, REASONS
from cardenvs.games.heartbreak.text import LEGEND, NO_REASON, explain_illegal, reason_names, render, why_codes

from heartbreak_helpers import POOL, A, build, field, is_legal, onto, skill

EXPLAIN = SPEC.explain_illegal


def why(g: BatchGame, name: str, index: int = 0, player: int | None = None) -> str:
    p = int(g.to_act[0]) if player is None else player
    assert not is_legal(g, name, index, p), f"{name} {index} is legal here: the scenario is wrong"
    text = EXPLAIN(g.states[0], g.pool, p, A(name, index))
    assert text and text != NO_REASON, text
    return text


def test_hooks_are_registered():
    assert SPEC.legend is LEGEND
    assert SPEC.explain_illegal is explain_illegal


def test_legal_actions_get_no_explanation():
    g = build({"lead": "Kiln Warden", "hand": ["Wandering Sellsword"], "charge": 2}, {"lead": "Coral Sentinel"})
    for name, index in [("pass", 0), ("hand", 0), ("skill", skill(0, 0))]:
        assert is_legal(g, name, index)
        assert explain_illegal(g.states[0], g.pool, 0, A(name, index)) == ""


# ---- the main phase: calls (HB-F4, HB-F6/F9, HB-C3/C4) -------------------------------------------------------
def test_HB_C4_call_cost_not_affordable_says_cost_and_charge():
    g = build({"lead": "Kiln Warden", "hand": ["Magma Tyrant"], "charge": 1}, {"lead": "Coral Sentinel"})
    text = why(g, "hand", 0)
    assert "Discharge 3" in text and "you have 1 charged card" in text


def test_HB_F4_call_with_a_full_field():
    g = build({"lead": "Kiln Warden", "backup": ["Wandering Sellsword"] * 3, "hand": ["Wandering Sellsword"]},
              {"lead": "Coral Sentinel"})
    assert "field is full" in why(g, "hand", 0)


def test_HB_F9_call_condition_ally_and_low_heart():
    g = build({"lead": None, "hand": ["Magma Tyrant", "Tidecaller Siren"], "charge": 5}, {"lead": "Coral Sentinel"})
    assert "another fighter on the field" in why(g, "hand", 0)
    assert "heart holds 2 cards or fewer (yours holds 5)" in why(g, "hand", 1)


def test_HB_C3_overdrive_cost_needs_a_face_down_heart_card():
    g = build({"lead": "Kiln Warden", "hand": ["Reckless Gambit"], "heart": ["Wandering Sellsword:up"] * 3},
              {"lead": "Coral Sentinel"})
    assert "Overdrive" in why(g, "hand", 0) and "no face-down card" in why(g, "hand", 0)


def test_main_phase_hand_cards_of_the_wrong_kind_and_empty_slots():
    g = build({"lead": "Kiln Warden", "hand": ["Emberforged Blade", "Final Flare", "Echo Hex"], "charge": 5},
              {"lead": "Coral Sentinel"})
    assert "is an item" in why(g, "hand", 0) and "equip" in why(g, "hand", 0)
    assert "climax phase" in why(g, "hand", 1)  # HB-X1
    assert "response window" in why(g, "hand", 2)  # HB-R7: a negate answers something on the stack
    assert "hand slot 3 is empty" in why(g, "hand", 3) and "3 cards" in why(g, "hand", 3)


# ---- evolve and equip (HB-I1/I2/I4, HB-I13) ----------------------------------------------------------------------
def test_HB_I4_evolve_of_a_fighter_that_entered_this_turn():
    g = build({"lead": "Cinderwing Hatchling:N", "hand": ["Cinderwing Drake"], "charge": 3}, {"lead": "Coral Sentinel"})
    assert "entered the field this turn" in why(g, "onto", onto(0, 0))


def test_HB_I1_I2_evolve_needs_the_same_name_one_level_higher():
    g = build({"lead": "Cinderwing Hatchling", "backup": ["Wandering Sellsword"],
               "hand": ["Cinderwing Sovereign", "Cinderwing Drake"], "charge": 3}, {"lead": "Coral Sentinel"})
    assert "exactly one level higher" in why(g, "onto", onto(0, 0))
    assert "same fighter name" in why(g, "onto", onto(1, 1))
    assert "Back-Up 2 is empty" in why(g, "onto", onto(1, 2))
    assert is_legal(g, "onto", onto(1, 0))


def test_HB_I13_one_item_per_fighter_and_equip_cost():
    g = build({"lead": "Kiln Warden", "backup": ["Wandering Sellsword"], "hand": ["Emberforged Blade"],
               "stock": [("Kelp Mail", 0, True)]}, {"lead": "Coral Sentinel"})
    assert "already has an item" in why(g, "onto", onto(0, 0))
    assert "Discharge 1" in why(g, "onto", onto(0, 1))


def test_support_and_climax_cards_do_not_go_onto_a_fighter():
    g = build({"lead": "Kiln Warden", "hand": ["Firestarter Rations"]}, {"lead": "Coral Sentinel"})
    assert "only a fighter (evolve) or an item (equip)" in why(g, "onto", onto(0, 0))


# ---- skills (HB-L1/L2/L4) and the swap (HB-M4) ------------------------------------------------------------------
def test_HB_L2_skill_once_per_turn_silenced_cost_and_missing():
    g = build({"lead": "Kiln Warden", "backup": ["Wandering Sellsword"], "charge": 1}, {"lead": "Coral Sentinel"})
    lead = int(field(g, "lead")[0, 0])
    field(g, "skills_used")[0, lead] = 1
    assert "already used this turn" in why(g, "skill", skill(0, 0))
    assert "has no skills" in why(g, "skill", skill(1, 0))
    assert "Back-Up 2 is empty" in why(g, "skill", skill(2, 0))
    field(g, "silenced")[0, lead] = 1
    assert "silenced" in why(g, "skill", skill(0, 1))
    field(g, "silenced")[0, lead] = 0
    field(g, "charge_count")[0] = 0
    assert "Discharge 1" in why(g, "skill", skill(0, 1))


def test_HB_M4_swap_once_per_turn_and_missing_back_up():
    g = build({"lead": "Kiln Warden", "backup": ["Wandering Sellsword"]}, {"lead": "Coral Sentinel"})
    assert "no Back-Up 2" in why(g, "swap", 1)
    field(g, "swap_used")[...] = 1
    assert "already swapped this turn" in why(g, "swap", 0)


# ---- the action phase (HB-A5, HB-B4, HB-C6) and the climax phase (HB-X3) ---------------------------------------
def test_HB_A5_rested_lead_cannot_act():
    g = build({"lead": "Kiln Warden:R"}, {"lead": "Coral Sentinel"}, step=ST_ACTION)
    assert "is rested" in why(g, "act", 0)
    assert "only 1 action" in why(g, "act", 1)


def test_HB_C6_act_cost_and_HB_B4_no_target_without_bypass():
    g = build({"lead": "Magma Tyrant", "backup": ["Wandering Sellsword"]}, {"lead": None, "backup": ["Coral Sentinel"]},
              step=ST_ACTION)
    text = why(g, "act", 0)
    assert "Discharge 1" in text and "no Lead to attack" in text


def test_wrong_step_says_the_step_and_where_the_action_is_allowed():
    g = build({"lead": "Kiln Warden", "backup": ["Wandering Sellsword"]}, {"lead": "Coral Sentinel"})
    text = why(g, "act", 0)
    assert "main phase step" in text and "action phase" in text
    g = build({"lead": "Kiln Warden", "backup": ["Wandering Sellsword"], "hand": ["Wandering Sellsword"]},
              {"lead": "Coral Sentinel"}, step=ST_ACTION)
    assert "action phase step" in why(g, "swap", 0) and "allowed in your main phase" in why(g, "swap", 0)
    assert "fighters are called only in your main phase" in why(g, "hand", 0)
    assert "only at setup" in why(g, "choose_lead", 3)


def test_HB_X3_one_climax_card_per_turn():
    g = build({"lead": "Kiln Warden", "hand": ["Final Flare", "Reckless Gambit"], "charge": 3},
              {"lead": "Coral Sentinel"}, step=ST_CLIMAX)
    field(g, "climax_used")[...] = 1
    assert "already played a Climax card this turn" in why(g, "hand", 0)
    assert "without [Turbo]" in why(g, "hand", 1)


# ---- response windows (HB-R1, HB-R7) -----------------------------------------------------------------------------
def _window(top_kind: int, inst: int = -1, responder_hand=("Riptide Denial", "Second Wind")) -> BatchGame:
    g = build({"lead": "Kiln Warden"}, {"lead": "Coral Sentinel", "hand": list(responder_hand), "charge": 3},
              step=ST_WINDOW, to_act=1)
    field(g, "stack")[0] = [top_kind, 0, inst, 0, -1, 0]
    field(g, "stack_count")[...] = 1
    field(g, "win_actor")[...] = 0
    field(g, "win_stage")[...] = 0
    field(g, "ret_step")[...] = ST_MAIN
    return g


def test_HB_R7_negate_needs_something_to_negate():
    g = _window(K_PHASE)
    assert "phase change" in why(g, "hand", 0)
    g = _window(K_CALL, inst=int(field(build({"lead": "Kiln Warden"}, {}), "lead")[0, 0]))
    assert "no call ability" in why(g, "hand", 0)


def test_HB_R1_only_turbo_cards_in_a_response_window():
    g = _window(K_PHASE)
    assert "without [Turbo]" in why(g, "hand", 1)
    assert "response window" in why(g, "swap", 0)


# ---- the other decisions: setup, triggers, charge, refill, target, effect choices --------------------------------
def test_HB_S1_setup_lead_capable_and_one_action_per_distinct_card():
    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=0, parallel=False)
    assert int(field(g, "step")) == ST_SETUP_LEAD
    deck_list = field(g, "deck_list")[0]
    names = [POOL.name(int(c)) for c in deck_list if c >= 0]
    assert "cannot be the Lead" in why(g, "choose_lead", names.index("Cinderwing Drake"))
    first = names.index("Cinderwing Hatchling")  # reset_row lists the first copies first, the others after them
    assert "another copy of 'Cinderwing Hatchling'" in why(g, "choose_lead", names.index("Cinderwing Hatchling",
                                                                                          first + 1))
    assert "no card 59" in why(g, "choose_lead", 59)


def test_other_players_decision_and_charge_refill_order_target():
    g = build({"lead": "Kiln Warden", "hand": ["Wandering Sellsword"]}, {"lead": "Coral Sentinel"}, step=ST_CHARGE)
    assert "hand slot 2 is empty" in why(g, "hand", 2)
    assert "not your decision" in explain_illegal(g.states[0], g.pool, 1, A("pass"))
    g = build({"lead": None, "backup": ["Kiln Warden"]}, {"lead": "Coral Sentinel"}, step=ST_REFILL)
    assert "no Back-Up 2" in why(g, "refill", 1)
    g = build({"lead": "Ashfang Raider"}, {"lead": "Coral Sentinel", "backup": ["Mistveil Oracle"]}, step=ST_TARGET)
    assert "no fighter in the Back-Up 2 place" in why(g, "target", 2)
    g = build({"lead": "Kiln Warden"}, {"lead": "Coral Sentinel"}, step=ST_TRIGGERS)
    field(g, "trig")[0] = [1, int(field(g, "lead")[1, 0])]
    field(g, "trig_count")[...] = 1
    assert "P1's ('Coral Sentinel')" in why(g, "order", 0)
    assert "no triggered ability waits in place 3" in why(g, "order", 3)


def test_effect_choices_swap_a_standing_back_up_and_evolve_when_eligible():
    g = build({"lead": "Mistveil Oracle", "backup": ["Kiln Warden:R", "Wandering Sellsword"]},
              {"lead": "Coral Sentinel"}, step=ST_CHOOSE)
    field(g, "choice_kind")[...] = CH_SWAP
    field(g, "choice_player")[...] = 0
    assert "is rested" in why(g, "swap", 0)
    assert "which standing Back-Up" in why(g, "pass")
    g = build({"lead": "Cinderwing Hatchling:N", "hand": ["Cinderwing Drake", "Flash Burn"]},
              {"lead": "Coral Sentinel"}, step=ST_CHOOSE)
    field(g, "choice_kind")[...] = CH_EVOLVE
    field(g, "choice_player")[...] = 0
    assert is_legal(g, "onto", onto(0, 0))  # HB-I5: an effect's evolve ignores when the fighter entered
    assert "must use it" in why(g, "pass")
    assert "not a fighter" in why(g, "onto", onto(1, 0))


def test_a_face_down_lead_is_never_named():
    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=0, parallel=False)
    lead = [a for a in np.flatnonzero(g.legal_mask(0)[0])][0]
    g.step(np.array([lead], np.int32), players=np.array([0], np.int32))
    assert int(g.states[0, H_TO_ACT]) == 1
    name = POOL.name(int(field(g, "deck_list")[0, int(field(g, "lead")[0, 0])]))
    for a in range(SPEC.num_actions):
        assert name not in explain_illegal(g.states[0], g.pool, 1, a)
        assert name not in SPEC.action_name(g.states[0], g.pool, 1, a)


# ---- sweeps over random and heuristic play ---------------------------------------------------------------------
def _random_states(rows: int = 16, steps: int = 600, every: int = 4, seed: int = 5, pilot: str = "random"):
    """Every ``every``-th position of ``rows`` games played by ``pilot`` (both seats), with the player to act."""
    g = BatchGame(SPEC, rows, seed=seed, parallel=False)
    rng = np.random.default_rng(seed)
    agent = make_agent("heartbreak", "heuristic") if pilot == "heuristic" else None
    for t in range(steps):
        live = g.states[:, H_STATUS] == LIVE
        players = np.where(live, g.states[:, H_TO_ACT], -1).astype(np.int32)
        if t % every == 0:
            for r in np.flatnonzero(live):
                yield g, int(r), int(players[r])
        if not live.any():
            return
        masks = g.legal_mask(players)
        if agent is not None:
            acts = agent.act(None, masks, states=g.states, players=players)
        else:
            acts = np.array([rng.choice(np.flatnonzero(m)) if live[r] else 0 for r, m in enumerate(masks)], np.int32)
        g.step(acts, players=players)


@pytest.mark.parametrize("pilot", ["random", "heuristic"])
def test_the_mask_records_a_reason_for_every_refused_action_and_none_for_a_legal_one(pilot):
    """Rules once (issue 40): the branch of the mask kernel that refuses an action records why (``rules.why_row``).
    Over positions of random and of heuristic play: every refused action carries declared reason codes only, never
    "unknown"; every legal action carries none; the other player is told it is not their decision."""
    declared = (1 << len(REASONS)) - 1
    seen = 0
    codes = 0
    for g, r, p in _random_states(rows=12, steps=400, every=4, seed=3, pilot=pilot):
        legal = g.legal_mask(p)[r] != 0
        why = why_codes(g.states[r], g.pool, p)
        assert (why[legal] == 0).all(), np.flatnonzero(legal & (why != 0))
        refused = why[~legal]
        assert (refused != 0).all()
        assert not (refused & (1 << R_UNKNOWN)).any(), np.flatnonzero(~legal)[(refused & 1 << R_UNKNOWN) != 0]
        assert not (refused & ~declared).any()
        assert (why_codes(g.states[r], g.pool, 1 - p) == 1 << R_NOT_YOURS).all()
        codes |= int(np.bitwise_or.reduce(refused))
        seen += 1
    assert seen >= 300, seen
    assert len(reason_names(codes)) >= 15, reason_names(codes)  # the sweep meets many kinds of refusal


def test_sweep_every_illegal_action_is_explained_every_legal_one_is_not():
    seen = steps = 0
    for g, r, p in _random_states(every=8):  # every 8th position; every step kind below must still be met
        mask = g.legal_mask(p)[r].copy()
        row = g.states[r]
        steps |= 1 << int(field_row(row, "step"))
        for a in range(SPEC.num_actions):
            text = explain_illegal(row, g.pool, p, a)
            assert (text == "") == bool(mask[a]), (a, text)
            assert text != NO_REASON, (a, int(field_row(row, "step")))
            assert "?" not in text, (a, text)  # every value a message names was found
        other = explain_illegal(row, g.pool, 1 - p, 0)
        assert other.startswith("it is not your decision")
        seen += 1
    assert seen >= 500, seen
    for st in (ST_SETUP_LEAD, ST_CHARGE, ST_MAIN, ST_ACTION, ST_CLIMAX, ST_WINDOW):
        assert steps >> st & 1, st


def test_sweep_explanations_reveal_nothing_hidden():
    """The explanation (and the action's name) reads the same after every card the asker cannot see is re-dealt."""
    rng = np.random.default_rng(1)
    seen = 0
    for g, r, p in _random_states(rows=4, steps=300, every=10, seed=9):
        row = g.states[r]
        hidden = SPEC.hide(row, p, rng, g.pool)
        for a in range(SPEC.num_actions):
            assert explain_illegal(hidden, g.pool, p, a) == explain_illegal(row, g.pool, p, a), a
            # what 'why N' and '? N' print as the action's name reads the same too
            assert SPEC.action_name(hidden, g.pool, p, a) == SPEC.action_name(row, g.pool, p, a), a
        seen += 1
    assert seen >= 80, seen


def field_row(row: np.ndarray, name: str) -> np.ndarray:
    return SPEC.state_layout.get(row, name)


# ---- the legend ------------------------------------------------------------------------------------------------
MARKS = (re.compile(r"\[[^\[\]]+\]"), re.compile(r"\([^()]+\)"))


def _marks(board: str) -> set[str]:
    """Every bracketed or parenthesised mark of a board (a bracket inside parentheses counts on its own)."""
    return {m.group(0) for pattern in MARKS for m in pattern.finditer(board)}


def test_legend_mentions_every_mark_the_render_prints():
    marks: set[str] = set()
    for g, r, p in _random_states(rows=4, steps=600, every=4, seed=11):
        for viewer in (None, p):
            marks |= _marks(render(g.states[r], g.pool, viewer))
    # rarer marks, from built positions: a face-up item and a face-down card in stock, a negated stack entry, a
    # face-up heart card, the opponent's face-down Lead at setup, and the end of the game
    g = _window(K_CALL, inst=0)
    field(g, "stack")[0, 5] = 1
    g2 = build({"lead": "Kiln Warden", "stock": [("Kelp Mail", 0, True), ("Wandering Sellsword", 0, False)],
                "heart": ["Wandering Sellsword:up"] + ["Wandering Sellsword"] * 2}, {"lead": "Coral Sentinel"})
    g3 = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=0, parallel=False)
    g3.step(np.flatnonzero(g3.legal_mask(0)[0])[:1].astype(np.int32), players=np.array([0], np.int32))
    built = [render(x.states[0], x.pool, v) for x in (g, g2, g3) for v in (None, 0, 1)]
    for board in built:
        marks |= _marks(board)
    assert "[Kelp Mail]" in built[3] and "(negated)" in built[0] and "[face down]" in built[-1]
    g = BatchGame(SPEC, 1, seed=0, parallel=False)
    for status, winner in ((TERMINATED, 0), (TERMINATED, 1), (TERMINATED, DRAW), (TRUNCATED, -1)):
        row = g.states[0].copy()
        row[H_STATUS], row[H_WINNER] = status, winner
        marks |= _marks(render(row, g.pool, None))
    words = set()
    for mark in marks:
        inner = mark[1:-1]
        if mark.startswith("[") and all(n.strip() in POOL.by_name for n in inner.split(", ")):
            words.add("[ITEM, ...]")  # a fighter's face-up stock cards, by name
        elif mark.startswith("(") and inner.startswith("Lv"):
            words.add("(LvN HP N dmg N")  # a fighter's stats
        else:
            words.add(mark)
    missing = [w for w in sorted(words) if w not in LEGEND]
    assert not missing, missing
    for expected in ("(up)", "(down)", "face-down", "[face down]", "(negated)", "[ITEM, ...]", "[P0 wins]"):
        assert expected in words or expected == "face-down", expected
        assert expected in LEGEND


def test_legend_names_every_step_and_stack_kind():
    from cardenvs.games.heartbreak.state import KIND_NAMES, STEP_NAMES

    for name in STEP_NAMES + KIND_NAMES:
        assert f"'{name}'" in LEGEND, name
    for mark in ("[P0 wins]", "[P1 wins]", "[draw]", "[truncated]", "standing", "rested", "stock N"):
        assert mark in LEGEND


def test_rules_md_carries_the_legend():
    from pathlib import Path

    import cardenvs.games.heartbreak as heartbreak

    rules = (Path(heartbreak.__file__).parent / "RULES.md").read_text()
    assert "## Board legend" in rules and "## Why an action is illegal" in rules
    assert LEGEND in rules


def test_legend_action_id_ranges_match_the_action_layout():
    from cardenvs.games.heartbreak.actions import ACTIONS

    text = " ".join(LEGEND.split())
    for f in ACTIONS.fields:
        start = ACTIONS.offset(f.name)
        span = f"{f.name} {start}" if f.size == 1 else f"{f.name} {start}-{start + f.size - 1}"
        assert span in text, span
