"""Scenario tests for issue 12 ("rules that hold under competent play"): state-based KOs, the first-turn evolve,
choices the player makes (not the engine), Turbo timing, decision timing that leaks nothing, engine limits.

Each test names the checklist rule it guards; each failed on the code before the fix it covers."""
from __future__ import annotations

import numpy as np
from heartbreak_helpers import (FILLER, POOL, build, damage_at, do, field, inst_at, is_legal, legal, name_at, onto,
                               pass_start, pass_window, rested_at, step_of, zone_names)

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_TO_ACT, H_TURN
from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.actions import NUM_ACTIONS
from cardenvs.games.heartbreak.state import (
    ST_ACTION,
    ST_CHARGE,
    ST_CHOOSE,
    ST_CLIMAX,
    ST_END_OPEN,
    ST_MAIN,
    ST_SETUP_LEAD,
    ST_START_OPEN,
    ST_WINDOW,
    STOCK_CAP,
)

STOP = "Reinforcements"  # free Turbo (+20 HP to the own Lead): keeps the holder's steps real decisions


def _in_discard(g: BatchGame, p: int, name: str) -> bool:
    return name in zone_names(g, p, "discard")


# ---------------------------------------------------------------------------------------------------- defect 7
def test_HB_B10_ko_when_an_hp_buff_ends_at_the_end_of_the_turn() -> None:
    """HB-B10: the fighter is KO'd as the buff ends, before its own start-of-turn heal could save it."""
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Coral Sentinel:d50", "backup": [FILLER]},
              step=ST_CLIMAX)
    field(g, "mod_hp")[1, inst_at(g, 1, 0)] = 20  # 70 HP until the end of the turn, 50 damage
    do(g, "pass")
    pass_window(g)
    assert int(field(g, "turn_player")) == 1
    assert _in_discard(g, 1, "Coral Sentinel") and int(field(g, "heart_count")[1]) == 4


def test_HB_B10_K7_ko_when_a_silence_on_a_baneful_fighter_ends() -> None:
    """HB-B10, HB-K7: the silence ends, [Baneful 10] lowers the Lead's HP to its damage: KO'd at once (the Coral
    Sentinel's start-of-turn heal on the next turn comes too late)."""
    g = build({"lead": "Coral Sentinel:d40", "backup": [FILLER], "hand": [STOP]}, {"lead": "Scorchmaw Brute"},
              step=ST_CLIMAX)
    field(g, "silenced")[1, inst_at(g, 1, 0)] = 1
    do(g, "pass")
    pass_window(g)
    assert _in_discard(g, 0, "Coral Sentinel") and int(field(g, "heart_count")[0]) == 4


def test_HB_B10_K7_ko_when_swapped_into_the_lead_under_baneful() -> None:
    """HB-B10, HB-K7, HB-M4: a Back-Up fighter swapped into the Lead under [Baneful] is KO'd at once."""
    g = build({"lead": FILLER, "backup": ["Coral Sentinel:d40"], "hand": [STOP]}, {"lead": "Scorchmaw Brute"})
    do(g, "swap", 0)
    assert name_at(g, 0, 0) == "-" and _in_discard(g, 0, "Coral Sentinel")
    assert int(field(g, "heart_count")[0]) == 4 and step_of(g) == ST_MAIN


# ---------------------------------------------------------------------------------------------------- defect 8
def test_HB_I4_the_first_players_lead_cannot_evolve_on_turn_1() -> None:
    """HB-I4: the Leads count as entering the field in the first turn; the first player's Lead has not been on the
    field since before its first turn began."""
    g = BatchGame(SPEC, 1, decks=("grove", "grove"), seed=3)
    for p in (0, 1):
        assert step_of(g) == ST_SETUP_LEAD
        pick = [i for f, i in legal(g) if f == "choose_lead"
                and POOL.name(int(field(g, "deck_list")[p, i])) == "Thornwood Seedling"]
        do(g, "choose_lead", pick[0])
    fp = int(field(g, "first_player"))
    assert [int(field(g, "since_turn")[q, inst_at(g, q, 0)]) for q in (0, 1)] == [1, 1]
    pass_window(g)
    assert step_of(g) == ST_CHARGE and int(g.states[0, H_TURN]) == 1
    do(g, "pass")
    pass_start(g)
    assert step_of(g) == ST_MAIN
    # give the first player a Sapling in hand and a charged card to pay for it
    hand0 = int(field(g, "hand")[fp, 0])
    field(g, "deck_list")[fp, hand0] = POOL.by_name["Thornwood Sapling"]
    n = int(field(g, "deck_count")[fp])
    top = int(field(g, "deck")[fp, n - 1])
    field(g, "deck")[fp, n - 1] = -1
    field(g, "deck_count")[fp] = n - 1
    field(g, "charge")[fp, 0] = top
    field(g, "charge_count")[fp] = 1
    assert not is_legal(g, "onto", onto(0, 0))
    field(g, "since_turn")[fp, inst_at(g, fp, 0)] = 0  # the old start: the same position offered the evolve
    assert is_legal(g, "onto", onto(0, 0))


# ---------------------------------------------------------------------------------------------------- defect 9
def test_HB_M6_swap_lead_effect_the_player_picks_the_back_up() -> None:
    """HB-M6 (swap_lead effects): the player picks which standing Back-Up fighter becomes the Lead."""
    g = build({"lead": FILLER, "backup": ["Kiln Warden", "Thornwood Elder:d100", "Moss Hermit:R"],
               "hand": ["Changing Currents", STOP]}, {"lead": "Reefling Scout"})
    do(g, "hand", 0)
    pass_window(g)
    assert step_of(g) == ST_CHOOSE and int(g.to_act[0]) == 0
    assert sorted(i for f, i in legal(g) if f == "swap") == [0, 1]  # standing ones only
    do(g, "swap", 1)  # the hurt Elder in slot 2 (the old code took the fighter with most HP left)
    pass_window(g)
    assert name_at(g, 0, 0) == "Thornwood Elder" and step_of(g) == ST_MAIN
    assert "Changing Currents" in zone_names(g, 0, "discard")


def test_HB_I5_evolve_effect_the_player_picks_fighter_and_card() -> None:
    """HB-I5 (evolve effects): the player picks the hand card and the fighter; an eligible evolve must be made."""
    g = build({"lead": "Thornwood Seedling:N", "backup": ["Thornwood Seedling:N"],
               "hand": ["Wild Growth", "Thornwood Sapling"], "charge": 1}, {"lead": "Reefling Scout"})
    do(g, "hand", 0)
    pass_window(g)
    assert step_of(g) == ST_CHOOSE
    assert sorted(i for f, i in legal(g) if f in ("onto", "pass")) == [onto(0, 0), onto(0, 1)]
    assert not is_legal(g, "pass")
    do(g, "onto", onto(0, 1))  # the Back-Up (the old code took the Lead)
    assert name_at(g, 0, 0) == "Thornwood Seedling" and name_at(g, 0, 1) == "Thornwood Sapling"
    # nothing eligible but a card in hand: still a decision (pass), so its timing tells the opponent nothing
    g = build({"lead": "Thornwood Seedling", "hand": ["Wild Growth", FILLER], "charge": 1},
              {"lead": "Reefling Scout"})
    do(g, "hand", 0)
    pass_window(g)
    assert step_of(g) == ST_CHOOSE and [f for f, _ in legal(g)] == ["pass"]
    do(g, "pass")
    assert step_of(g) == ST_MAIN and name_at(g, 0, 0) == "Thornwood Seedling"


# ---------------------------------------------------------------------------------------------------- defect 10
def test_HB_R3_turbo_at_the_open_moments_of_the_start_and_end_phases() -> None:
    """HB-R3: on the own turn a Turbo may be played at the end of the start phase and in the end phase."""
    g = build({"lead": "Kiln Warden", "hand": ["Flash Burn", "Flash Burn"], "charge": 2},
              {"lead": "Thornwood Elder", "hand": [STOP]}, turn_player=1, step=ST_CLIMAX, to_act=1)
    do(g, "pass", player=1)
    pass_window(g)  # the end phase of player 1 (it passes its own open moment too)
    assert int(field(g, "turn_player")) == 0 and step_of(g) == ST_CHARGE
    do(g, "pass")
    assert step_of(g) == ST_START_OPEN and is_legal(g, "hand", 0)
    do(g, "hand", 0)  # Flash Burn: 20 effect damage to the opposing Lead
    do(g, "pass", player=1)
    assert damage_at(g, 1, 0) == 20 and step_of(g) == ST_START_OPEN
    pass_start(g)
    assert step_of(g) == ST_MAIN
    do(g, "pass")
    pass_window(g, end_open=False)
    do(g, "pass")  # no action
    pass_window(g, end_open=False)
    do(g, "pass")  # no climax
    pass_window(g, end_open=False)
    assert step_of(g) == ST_END_OPEN and is_legal(g, "hand", 0)
    do(g, "hand", 0)
    do(g, "pass", player=1)
    assert damage_at(g, 1, 0) == 40 and step_of(g) == ST_END_OPEN and int(field(g, "turn_player")) == 0


def test_HB_R5_R9_the_opponent_may_answer_the_turn_players_answer_to_its_trigger() -> None:
    """HB-R5, HB-R9: after the non-turn player's trigger: the turn player answers, the trigger's owner may answer
    that Turbo, and the turn player has the last word."""
    g = build({"lead": "Kiln Warden", "hand": ["Flash Burn", STOP], "charge": 1},
              {"lead": "Harbor Warden:d30", "hand": ["Sudden Thicket"]}, step=ST_CLIMAX)
    do(g, "pass")  # to the end phase
    do(g, "pass", player=1)  # no answer to the phase change
    assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 0  # the opponent's end-of-turn heal: answer it
    do(g, "hand", 0)  # Flash Burn at the Harbor Warden
    assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 1  # the old code closed the window here
    do(g, "hand", 0, player=1)  # Sudden Thicket: Ward +20 resolves before the Flash Burn
    assert int(g.to_act[0]) == 0 and is_legal(g, "hand", 0)  # the turn player's last word
    do(g, "pass")
    assert damage_at(g, 1, 0) == 10  # Flash Burn 20 against Ward 30: nothing; then the heal 20


def test_HB_R7_negate_is_offered_only_against_what_it_can_negate() -> None:
    """HB-R7: negating a phase change, an evolve, an equip or the call of a fighter without call abilities changes
    nothing, so the negating Turbo is not offered there; against an action it is."""
    opp = {"lead": "Thornwood Elder", "hand": ["Riptide Denial"], "charge": 1}
    g = build({"lead": "Thornwood Seedling", "hand": ["Thornwood Sapling", FILLER, "Heartwood Charm", STOP],
               "charge": 3}, opp)
    do(g, "onto", onto(0, 0))  # evolve
    assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 1 and [f for f, _ in legal(g, 1)] == ["pass"]
    do(g, "pass", player=1)
    do(g, "hand", 0)  # call a vanilla fighter
    assert [f for f, _ in legal(g, 1)] == ["pass"]
    do(g, "pass", player=1)
    do(g, "onto", onto(0, 1))  # equip the charm onto the Back-Up
    assert [f for f, _ in legal(g, 1)] == ["pass"]
    do(g, "pass", player=1)
    do(g, "pass")  # the phase change to the action phase
    assert [f for f, _ in legal(g, 1)] == ["pass"]
    do(g, "pass", player=1)
    assert step_of(g) == ST_ACTION
    do(g, "act", 0)
    assert is_legal(g, "hand", 0, player=1)  # an action: negate it


# ---------------------------------------------------------------------------------------------------- defect 11
def test_HB_R8_a_window_is_a_decision_whether_or_not_the_responder_holds_a_turbo() -> None:
    """HB-R8: with a card in hand the responder always decides (pass only, when it holds no playable Turbo), so who
    decides next does not tell the turn player what the opponent holds."""
    for hand in ([FILLER], ["Sudden Thicket"]):
        g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Thornwood Elder", "hand": hand}, step=ST_ACTION)
        do(g, "act", 0)
        assert step_of(g) == ST_WINDOW and int(g.to_act[0]) == 1
    # an empty hand is public: that window passes by itself
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Thornwood Elder"}, step=ST_ACTION)
    do(g, "act", 0)
    assert step_of(g) == ST_ACTION and damage_at(g, 1, 0) == 20


def test_HB_M7_A12_X1_phases_with_only_pass_are_decisions_while_the_hand_holds_cards() -> None:
    """HB-M7, HB-A12, HB-X1: main, action and climax phases with nothing but pass legal are still decisions when
    the hand holds cards (the opponent cannot see that none of them is playable)."""
    g = build({"lead": "Kiln Warden:R", "hand": ["Magma Tyrant"]}, {"lead": "Thornwood Elder"})
    for st in (ST_MAIN, ST_ACTION, ST_CLIMAX):
        assert step_of(g) == st and int(g.to_act[0]) == 0 and [f for f, _ in legal(g)] == ["pass"]
        do(g, "pass")
        pass_window(g, end_open=False)
    assert step_of(g) == ST_END_OPEN


def test_decision_timing_does_not_depend_on_hidden_cards() -> None:
    """From states of random games, re-deal what the non-acting player cannot see (``hide``), play the same action
    in both copies: the next player to decide is the same (a small version of the shipped timing check)."""
    rng = np.random.default_rng(5)
    g = BatchGame(SPEC, 16, seed=11)
    compared = 0
    for _ in range(250):
        if not (g.status == 0).any():
            break
        masks = g.legal_mask()
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        for r in np.flatnonzero(g.status == 0)[:4]:
            row = g.states[r]
            actor = int(row[H_TO_ACT])
            other = SPEC.hide(row, 1 - actor, rng, g.pool)
            pair = np.stack([row, other]).copy()
            m = np.zeros((2, NUM_ACTIONS), dtype=np.int8)
            SPEC.kernels.batch_mask(pair, g.pool.tables, np.array([actor, actor], dtype=np.int32), m)
            if m[1, acts[r]] == 0:
                continue
            errors = np.zeros(2, dtype=np.int32)
            SPEC.kernels.batch_step(pair, g.pool.tables, np.array([actor, actor], dtype=np.int32),
                                    np.array([acts[r]] * 2, dtype=np.int32), errors)
            # a reveal (a draw into the viewer's own hand...) may legitimately change what follows; the step
            # kinds below reveal nothing to the opponent, so their timing must agree
            if int(field_step(row)) in (ST_WINDOW, ST_MAIN, ST_ACTION, ST_CLIMAX, ST_START_OPEN, ST_END_OPEN) \
                    and acts[r] == 0:
                assert pair[0, H_TO_ACT] == pair[1, H_TO_ACT]
                compared += 1
        g.step(acts)
    assert compared > 50


def field_step(row: np.ndarray) -> int:
    from cardenvs.games.heartbreak.state import STATE

    return int(STATE.get(row, "step"))


# ---------------------------------------------------------------------------------------------------- defect 12
def test_HB_E3_no_hand_limit_a_draw_into_20_cards_keeps_the_card() -> None:
    """HB-E3: a hand of 20 draws a 21st card (the old engine discarded it: a 20-card physical cap)."""
    g = build({"lead": "Kiln Warden", "hand": [FILLER] * 20, "deck": ["Pyre Duelist"]}, {"lead": "Reefling Scout"},
              turn_player=1, step=ST_CLIMAX, to_act=1)
    do(g, "pass", player=1)
    pass_window(g)
    assert int(field(g, "turn_player")) == 0 and int(field(g, "hand_count")[0]) == 21
    assert "Pyre Duelist" in zone_names(g, 0, "hand") and zone_names(g, 0, "discard") == []


def test_HB_I2_evolve_with_more_than_16_stock_cards() -> None:
    """HB-I2: an evolve needs no free stock slot (the old engine refused it with 16 stock cards)."""
    assert STOCK_CAP >= 60
    stock = [(FILLER, 1, False)] * 17
    g = build({"lead": "Thornwood Seedling", "backup": ["Kiln Warden"], "stock": stock,
               "hand": ["Thornwood Sapling"], "charge": 1}, {"lead": "Reefling Scout"})
    assert is_legal(g, "onto", onto(0, 0))
    do(g, "onto", onto(0, 0))
    assert name_at(g, 0, 0) == "Thornwood Sapling" and int(field(g, "stock_count")[0]) == 18


def test_flickering_lantern_rests_the_opposing_lead_before_it_acts() -> None:
    """Card fix: Flickering Lantern is a Turbo; played against the action-phase change it rests the Lead, which
    then cannot act (as a main-phase card it could never matter: fighters rise at the start of their turn)."""
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout", "hand": ["Flickering Lantern"],
                                                        "charge": 1})
    do(g, "pass")  # declare the action phase
    assert is_legal(g, "hand", 0, player=1)
    do(g, "hand", 0, player=1)
    do(g, "pass")
    assert step_of(g) == ST_ACTION and rested_at(g, 0, 0) and not any(f == "act" for f, _ in legal(g))


def test_batch_step_clears_errors_of_skipped_rows() -> None:
    """Kernel contract (issue 18): every row not in error reads 0 after batch_step, skipped rows too."""
    g = BatchGame(SPEC, 3, seed=2)
    errors = np.ones(3, dtype=np.int32)
    players = np.array([-1, -1, -1], dtype=np.int32)
    SPEC.kernels.batch_step(g.states.copy(), g.pool.tables, players, np.zeros(3, dtype=np.int32), errors)
    assert errors.tolist() == [0, 0, 0]


def test_targets_covering_several_fighters_apply_in_any_order() -> None:
    """Choices the engine makes: an ``own_all`` effect treats every fighter the same way, so the slot order it
    walks cannot matter: permuting the Back-Up slots gives the same result per fighter."""
    results = []
    for order in (["Kiln Warden:d30", "Moss Hermit:d10"], ["Moss Hermit:d10", "Kiln Warden:d30"]):
        g = build({"lead": "Coral Sentinel:d20", "backup": order, "hand": ["High Tide"], "charge": 1},
                  {"lead": "Reefling Scout"}, step=ST_CLIMAX)
        do(g, "hand", 0)
        pass_window(g)
        results.append(sorted((name_at(g, 0, pos), damage_at(g, 0, pos)) for pos in range(3)))
    assert results[0] == results[1] and all(d == 0 for _, d in results[0])
