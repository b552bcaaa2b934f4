"""Issue 16 for levelneo: ``explain_illegal`` (why an action is not legal now) and the board legend.

Scenario tests build a position where an action is illegal for one known reason (rule IDs in the test names) and
check that the explanation names that reason; the sweeps check over random-play and heuristic-play states that the
mask's own branches record a real reason for every refused action and none for a legal one (rules once: the
explanation words that code, ``rules.why_row``), and that the explanation is "" exactly for the legal actions and
never the catch-all; the legend test scans renders for every bracketed mark.
"""
from __future__ import annotations

import io
import re

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, LIVE, TERMINATED
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.state import (
    ST_ATTACK, ST_BATTLE_WINDOW, ST_BURST, ST_CHOOSE_MAIN, ST_COVER, ST_LEVEL_DOWN, ST_MULLIGAN, ST_PARTNER,
    ST_TARGET, STEP_NAMES,
)
from cardenvs.games.levelneo.text import FALLBACK, LEGEND, explain_illegal

from levelneo_helpers import POOL, A, build, field, inst_of, is_legal, mark_used, play_positions

explain = SPEC.explain_illegal


def why(g: BatchGame, name: str, index: int = 0, player: int | None = None) -> str:
    p = int(g.to_act[0]) if player is None else player
    assert not is_legal(g, name, index, p), f"{name} {index} is legal here"
    text = explain(g.states[0], g.pool, p, A(name, index))
    assert text and text != FALLBACK
    return text


def side(main: str = "Ashen Recruit", **kw) -> dict:
    return {"main": main, **kw}


def test_hooks_registered_and_legal_action_has_no_reason() -> None:
    assert SPEC.legend is LEGEND and SPEC.explain_illegal is explain_illegal
    g = build(side(hand=["Ashen Recruit"]), side())
    assert is_legal(g, "hand", 0) and explain(g.states[0], g.pool, 0, A("hand", 0)) == ""
    assert explain(g.states[0], g.pool, 0, A("pass")) == ""


# ------------------------------------------------------------------------------------------------------ general
def test_not_your_decision_and_game_over_and_no_such_action() -> None:
    g = build(side(hand=["Ashen Recruit"]), side(hand=["Insight"]))
    assert "not your decision: P0 decides" in why(g, "hand", 0, player=1)
    assert "there is no action 9999" in explain(g.states[0], g.pool, 0, 9999)
    g.states[0, H_STATUS] = TERMINATED
    assert "game is over" in explain(g.states[0], g.pool, 0, A("pass"))


def test_wrong_step_names_the_step_and_where_the_action_belongs() -> None:
    g = build(side(), side())
    text = why(g, "go_first")
    assert "the step is 'main phase'" in text and "'choose turn order'" in text
    assert "'level up' step" in why(g, "level_up")
    assert "'combi loss' step" in why(g, "combi_loss", 1)
    assert "'choose main character' step" in why(g, "choose_main", 0)
    assert "'level burst' step" in why(g, "burst")
    assert "no effect waits" in why(g, "effect_target", 0)
    g = build(side(), side(main="Ashen Recruit:R"), step=ST_TARGET)
    field(g, "atk_a")[...] = inst_of(g, 0, "main")
    assert "cannot pass in the 'attack target' step" in why(g, "pass")


# ------------------------------------------------------------------------------------------- hand: supports (LN-T*)
def test_hand_empty_slot() -> None:
    g = build(side(hand=["Insight"]), side())
    assert "hand slot 3 is empty (you hold 1 card)" in why(g, "hand", 3)
    g = build(side(hand=["Insight"]), side(), step=ST_MULLIGAN)
    assert "hand slot 2 is empty" in why(g, "hand", 2)


def test_LN_T2_support_only_in_own_main_phase() -> None:
    g = build(side(hand=["Ashen Recruit"]), side(), step=ST_BATTLE_WINDOW)
    assert "supports are played only in your own main phase and now it is the 'battle phase' window" \
        in why(g, "hand", 0)
    g = build(side(), side(hand=["Harbor Watch"]), sub=1)  # the opponent's window in P0's main phase
    assert "only in your own main phase and this is P0's turn, not yours" in why(g, "hand", 0)


def test_LN_T6_one_support_per_main_phase() -> None:
    g = build(side(hand=["Ashen Recruit"]), side())
    field(g, "support_played")[...] = 1
    assert "already played a support this main phase" in why(g, "hand", 0)


def test_LN_T10_support_zone_full() -> None:
    g = build(side(hand=["Ashen Recruit"], supports=["Clumsy Page"] * 4), side())
    assert "support zone is full (4 supports)" in why(g, "hand", 0)


def test_LN_T9_turn_cost_and_LN_D4_colour_cost_of_a_support() -> None:
    g = build(side(hand=["Magma Titan"]), side())
    assert "'Magma Titan' costs turn cost 4 and you have 3 turn markers" in why(g, "hand", 0)
    g = build(side(hand=["Harbor Watch"]), side())
    assert "needs a blue character on your field" in why(g, "hand", 0)


# --------------------------------------------------------------------------------------------- hand: events (LN-K*)
def test_LN_K3_event_timing_tag() -> None:
    g = build(side(hand=["Battle Cry"]), side())
    assert "only in the battle phase and only in your own turn; now it is the main phase of your turn" \
        in why(g, "hand", 0)


def test_LN_T9_event_cost_and_LN_D4_event_colour() -> None:
    g = build(side(hand=["War Drums"]), side(), markers=(1, 3))
    assert "costs turn cost 2 and you have 1 turn marker" in why(g, "hand", 0)
    g = build(side(hand=["Rally Banner"]), side())
    assert "event 'Rally Banner': it has a colour cost: it needs a yellow character" in why(g, "hand", 0)


def test_LN_K5_event_level_requirement() -> None:
    g = build(side(main="Harbor Watch", hand=["Insight"]), side())
    assert "needs your main character at level 2 (Lv 2) and it is level 1" in why(g, "hand", 0)


def test_LN_K4_event_once_per_turn() -> None:
    g = build(side(main="Harbor Watch", hand=["Insight"], level=["Clumsy Page"]), side())
    assert is_legal(g, "hand", 0)
    mark_used(g, 0, "Insight")
    assert "'Insight' was already used this turn" in why(g, "hand", 0)


def test_event_without_a_target_does_nothing() -> None:
    g = build(side(main="Harbor Watch", hand=["Undertow"]), side())
    assert "would do nothing now" in why(g, "hand", 0)


def test_LN_T3_an_offer_that_would_change_nothing_says_why() -> None:
    """Issue 39 item 6: the reason names what would not change (the words follow effects.effect_can_act)."""
    g = build(side(main="Harbor Watch", hand=["Mind Drain"]), side(hand=[]))
    assert "the opponent's hand is empty" in why(g, "hand", 0)
    g = build(side(main="Brass Footman", hand=["Recall Signal"]), side())
    assert "already Active" in why(g, "hand", 0)
    g = build(side(main="Meadow Scout", hand=["Overgrowth"], level=["Clumsy Page:up"] * 4), side())
    assert "level 5 (Level Neo)" in why(g, "hand", 0)
    g = build(side(main="Brass Footman", hand=["Rally Banner"]), side(), main_phase=2)
    assert "can still be in a battle this turn" in why(g, "hand", 0)


# ------------------------------------------------------------------------------------------------- [Use] skills
def test_skill_empty_slot_and_no_use_skill() -> None:
    g = build(side(hand=["Insight"]), side())
    assert "your support 2 is empty (you have 0 supports)" in why(g, "skill", 2)
    assert "'Ashen Recruit' has no [Use] skill" in why(g, "skill", 0)


def test_LN_K3_skill_rest_cost_needs_an_active_character() -> None:
    g = build(side(main="Tide Apprentice:R"), side())
    assert "its cost is to rest this character, and it is already resting" in why(g, "skill", 0)


def test_LN_K4_skill_once_per_turn() -> None:
    g = build(side(main="Tide Apprentice"), side())
    assert is_legal(g, "skill", 0)
    mark_used(g, 0, "Tide Apprentice")
    assert "'Tide Apprentice' was already used this turn (each skill once per turn)" in why(g, "skill", 0)


def test_LN_K3_skill_phase_tag_and_LN_K5_level() -> None:
    g = build(side(main="Furnace Knight", level=["Clumsy Page"]), side())
    assert "only in the battle phase" in why(g, "skill", 0)
    g = build(side(main="Sprout Druid"), side())
    assert "at level 3 (Lv 3) and it is level 1" in why(g, "skill", 0)


# ---------------------------------------------------------------------------------------------- attacks (LN-A*)
def test_LN_A1_attacker_must_be_active_and_not_have_attacked() -> None:
    g = build(side(main="Ashen Recruit:R"), side(), step=ST_ATTACK)
    assert "is resting [R]: only an Active character can attack" in why(g, "attack", 0)
    g = build(side(), side(), step=ST_ATTACK)
    field(g, "attacked")[0, inst_of(g, 0, "main")] = 1
    assert "already attacked this turn" in why(g, "attack", 0)
    assert "your support 1 is empty" in why(g, "attack", 1)


def test_LN_A3_support_attack_needs_a_resting_target() -> None:
    g = build(side(supports=["Meadow Scout"]), side(), step=ST_ATTACK)
    assert "none of the opponent's characters is resting" in why(g, "attack", 1)


def test_LN_L5_partner_no_combi_for_level_neo_and_partner_checks() -> None:
    g = build(side(supports=["Meadow Scout"], level=["Clumsy Page"] * 4), side(), step=ST_PARTNER)
    field(g, "atk_a")[...] = inst_of(g, 0, "main")
    assert "Level Neo main attacks alone" in why(g, "partner", 0)
    g = build(side(supports=["Meadow Scout", "Harbor Watch:R"]), side(main="Ashen Recruit:R"), step=ST_PARTNER)
    field(g, "atk_a")[...] = inst_of(g, 0, "support", 0)
    assert "'Meadow Scout' is the attacker itself" in why(g, "partner", 0)
    assert "a combi partner must be Active" in why(g, "partner", 1)
    assert "your support 3 is empty" in why(g, "partner", 2)


def test_LN_A2_A5_targets() -> None:
    g = build(side(), side(supports=["Meadow Scout:R"]), step=ST_TARGET)
    field(g, "atk_a")[...] = inst_of(g, 0, "main")
    assert "must target the opponent's main" in why(g, "target", 1)
    g = build(side(supports=["Harbor Watch"]), side(main="Ashen Recruit:R", supports=["Meadow Scout"]),
              step=ST_TARGET)
    field(g, "atk_a")[...] = inst_of(g, 0, "support", 0)
    assert "'Meadow Scout' is Active [A]: a support's attack can target only a resting character" in why(g, "target", 1)
    assert "the opponent's support 2 is empty" in why(g, "target", 2)


def _cover(neo: bool = False, supports: tuple[str, ...] = ("Meadow Scout:R",), target_support: bool = False):
    g = build(side(level=["Clumsy Page"] * (4 if neo else 0)), side(supports=list(supports)), step=ST_COVER,
              to_act=1)
    field(g, "battle")[...] = 1
    field(g, "atk_a")[...] = inst_of(g, 0, "main")
    field(g, "target")[...] = inst_of(g, 1, "support", 0) if target_support else inst_of(g, 1, "main")
    return g


def test_LN_C1_C3_cover() -> None:
    assert "only an Active support can cover" in why(_cover(), "cover", 0)
    assert "your support 2 is empty" in why(_cover(), "cover", 1)
    assert "Level Neo main character: its attack cannot be covered" in why(_cover(neo=True, supports=("Meadow Scout",)),
                                                                           "cover", 0)
    assert "is the attack's target itself" in why(_cover(supports=("Meadow Scout",), target_support=True), "cover", 0)


# ------------------------------------------------------------------------------------------- Level Burst (LN-B*)
def _burst(level: list[str], in_battle: bool = True):
    g = build(side(level=level), side(), step=ST_BURST)
    field(g, "battle")[...] = 1
    field(g, "atk_a")[...] = inst_of(g, 0, "main") if in_battle else -1
    field(g, "target")[...] = inst_of(g, 1, "main")
    return g


def test_LN_B3_B4_burst_reasons() -> None:
    assert "your main character is not in this battle" in why(_burst(["Grove Runner"], in_battle=False), "burst")
    assert "no face-down level card" in why(_burst(["Grove Runner:up"]), "burst")
    g = _burst(["Grove Runner"])
    field(g, "burst_failed")[0] = 1
    assert "already failed this battle" in why(g, "burst")
    g = _burst(["Grove Runner", "Clumsy Page:up"])
    assert "you never saw that face-down level card" in why(g, "burst_known", 0)
    assert "level card 1 is already face up" in why(g, "burst_known", 1)
    assert "level card 3 does not exist" in why(g, "burst_known", 3)
    g = _burst(["Grove Runner"])
    field(g, "drawn")[0, inst_of(g, 0, "level", 0)] = 1
    assert "one you once held" in why(g, "burst")


def test_level_down_slot_and_choose_main() -> None:
    g = build(side(level=["Clumsy Page"]), side(), step=ST_LEVEL_DOWN)
    assert "level card 2 does not exist (your level zone holds 1)" in why(g, "level_down", 2)
    g = build(side(main="Ashen Recruit", hand=["Ashen Recruit", "Magma Titan", "Insight"]), side(),
              step=ST_CHOOSE_MAIN)
    assert "'Ashen Recruit' is a copy: choose deck card 0" in why(g, "choose_main", 1)
    assert "only a character with turn cost 1" in why(g, "choose_main", 2)
    assert "only a character with turn cost 1" in why(g, "choose_main", 3)


# ------------------------------------------------------------------------------------ one-support effect choice
def test_effect_target_choice() -> None:
    g = build(side(supports=["Storm Archon"]), side(supports=["Ashen Recruit:R", "Meadow Scout"]))
    field(g, "choice_player")[...] = 0
    field(g, "choice_inst")[...] = inst_of(g, 0, "support", 0)
    field(g, "choice_effect")[...] = 0
    assert is_legal(g, "effect_target", 1)
    assert "the effect of 'Storm Archon' waits for you to choose" in why(g, "pass")
    assert "needs an Active support and 'Ashen Recruit' is resting" in why(g, "effect_target", 0)
    assert "the opponent's support 3 is empty" in why(g, "effect_target", 2)
    g = build(side(supports=["Solar Engineer:R", "Meadow Scout:R"]), side())
    field(g, "choice_player")[...] = 0
    field(g, "choice_inst")[...] = inst_of(g, 0, "support", 0)
    field(g, "choice_effect")[...] = 0
    assert "'Solar Engineer' cannot choose itself" in why(g, "effect_target", 0)


# ------------------------------------------------------------------------------------------- sweep and legend
def test_sweep_explanation_is_empty_exactly_for_legal_actions() -> None:
    checked = 0
    steps = set()
    for g in play_positions():
        mask = g.legal_mask(g.to_act.copy())
        for r in range(g.num_games):
            if g.states[r, H_STATUS] != LIVE:
                continue
            p = int(g.to_act[r])
            steps.add(int(field_row(g, r, "step")))
            for a in range(SPEC.num_actions):
                text = explain(g.states[r], g.pool, p, a)
                assert (text == "") == bool(mask[r, a]), (a, text)
                assert text != FALLBACK, (a, g.action_name(a, r, p))
            # the other player is never to decide
            assert "not your decision" in explain(g.states[r], g.pool, 1 - p, 0)
            checked += 1
    assert checked >= 300 and len(steps) >= 8


@pytest.mark.parametrize("pilot", ["random", "heuristic"])
def test_the_mask_records_a_reason_for_every_refused_action_and_none_for_a_legal_one(pilot: str) -> None:
    """Rules once: ``why_row`` runs the mask's own branches recording; the legal actions are the mask's, each has no
    reason, and every refused action has a real reason code of an action (not unknown, not a per-effect code), for
    the player to act and (``NOT_YOUR_DECISION``) for the other."""
    from cardenvs.games.levelneo import reasons as W
    from cardenvs.games.levelneo.rules import why_row

    seen: set[int] = set()
    checked = 0
    for g in play_positions(pilot, games=4, steps=300, seed=23):
        masks = g.legal_mask(g.to_act.copy())
        for r in np.flatnonzero(g.states[:, H_STATUS] == LIVE):
            p = int(g.to_act[r])
            why = np.full(SPEC.num_actions, -1, np.int8)
            assert why_row(g.states[r], g.pool.tables, p, why) == masks[r].sum()
            legal = masks[r] != 0
            assert (why[legal] == W.NONE).all()
            refused = [int(c) for c in why[~legal]]
            assert all(0 < c < W.NUM_REASONS and c not in W.IDLE_REASONS for c in refused), refused
            seen.update(refused)
            why_row(g.states[r], g.pool.tables, 1 - p, why)
            assert (why == W.NOT_YOUR_DECISION).all()
            checked += 1
    assert checked >= 400 and len(seen) >= 18, (checked, sorted(seen))


def field_row(g: BatchGame, r: int, name: str) -> np.ndarray:
    from cardenvs.games.levelneo.state import STATE
    return STATE.get(g.states[r], name)


def test_explanations_never_name_the_opponents_hidden_cards() -> None:
    """An explanation for P0 is the same whatever P1's hand and face-down cards are (P1's hidden cards re-dealt)."""
    hide = SPEC.hide
    for g in play_positions(games=3, steps=60, seed=11, every=3):
        for r in range(g.num_games):
            if g.states[r, H_STATUS] != LIVE:
                continue
            p = int(g.to_act[r])
            other = hide(g.states[r], p, np.random.default_rng(r), g.pool)
            for a in range(SPEC.num_actions):
                assert explain(g.states[r], g.pool, p, a) == explain(other, g.pool, p, a)


def test_legend_explains_every_mark_the_render_prints() -> None:
    marks, seen_steps = set(), set()
    g = BatchGame(SPEC, 6, decks=("aggro", "control"), seed=3)
    rng = np.random.default_rng(3)
    for k in range(2000):
        for r in range(g.num_games):
            for viewer in (None, 0, 1):
                board = g.render(r, viewer=viewer)
                marks.update(re.findall(r"\[[^\]]+\]", board))
                seen_steps.update(re.findall(r"step: ([a-z ]+?)(?:  |$)", board.splitlines()[0]))
        if not (g.states[:, H_STATUS] == LIVE).any():
            break
        to = g.to_act.copy()
        mask = g.legal_mask(to)
        g.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask]), to)
    assert {"[A]", "[R]", "[R*]"} <= marks and any("wins]" in m or m == "[draw]" for m in marks)
    for m in marks:
        assert m in LEGEND, m
    for name in STEP_NAMES:
        assert name in LEGEND
    for token in ("marker", "(Level Neo)", "(up)", "face-down", "(down)", "(cover)", "[face down]", "[truncated]"):
        assert token in LEGEND


def test_legend_lists_every_action_id_range() -> None:
    from cardenvs.games.levelneo.actions import ACTIONS

    ids = LEGEND[LEGEND.index("Action ids"):]
    for f in ACTIONS.fields:
        lo = ACTIONS.offset(f.name)
        assert re.search(rf"(^|[ :;]){lo}{'' if f.size == 1 else f'-{lo + f.size - 1}'} ", ids), f.name


def test_rules_md_carries_the_legend() -> None:
    text = (SPEC.package_dir / "RULES.md").read_text()
    assert "## Board legend" in text and LEGEND.strip() in text
    assert "## Why an action is illegal" in text


def test_play_session_why_and_legend() -> None:
    from rich.console import Console

    from cardenvs.play import PlaySession

    out = io.StringIO()
    session = PlaySession("levelneo", opponent="random", seed=4, console=Console(file=out, width=200),
                          inp=io.StringIO(f"why {A('attack', 0)}\nwhy 9999\nlegend\nbogus\nquit\n"))
    session.run()
    text = out.getvalue()
    assert "levelneo board legend" in text
    assert "the step is '" in text and "'attack declaration' step" in text

