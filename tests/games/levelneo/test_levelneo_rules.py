"""Scenario tests, one or more per checklist rule ID (LN-*): build a position, play actions, check the outcome.

Positions come from ``levelneo_helpers.build``. Decisions with a single legal action are played automatically by the
kernels, so a test usually gives the turn player a support it could still play in main phase 2 (``STOP``) to make
the game stop there after the battle.
"""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import IllegalActionError
from cardenvs.core.header import DRAW, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, TERMINATED, TRUNCATED
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.obs_layout import AP_UNIT
from cardenvs.games.levelneo.observe import OBS
from cardenvs.games.levelneo.state import (
    ST_ATTACK, ST_BATTLE_WINDOW, ST_BURST, ST_CHOOSE_MAIN, ST_COMBI_LOSS, ST_COVER, ST_COVER_WINDOW, ST_DECL_WINDOW,
    ST_END, ST_LEVEL_DOWN, ST_LEVEL_UP, ST_MAIN, ST_MULLIGAN, ST_ORDER, ST_PARTNER, ST_TARGET, SUPPORT_CAP, TURN_CAP,
)

from levelneo_helpers import (
    FILLER, POOL, ap, build, do, field, inst_of, is_legal, judge, legal, level, pass_until, step_name, zone_names,
)

STOP = "Clumsy Page"  # red turn-cost-1 character: keeps red player 0 deciding in main phase 2
LV = FILLER + ":up"  # a face-up level card: counts for the level, cannot be burst (keeps bursts out of the way)


def red(**kw) -> dict:
    side = {"main": "Ashen Recruit", "hand": [STOP]}  # AP 2500 (+500 x level on its own turn)
    side.update(kw)
    return side


def blue(**kw) -> dict:
    side = {"main": "Harbor Watch"}  # AP 2500
    side.update(kw)
    return side


def set_battle(g: BatchGame, atk_a: int, target: int, atk_b: int = -1) -> None:
    field(g, "battle")[...] = 1
    field(g, "atk_a")[...] = atk_a
    field(g, "atk_b")[...] = atk_b
    field(g, "target")[...] = target
    field(g, "orig_target")[...] = target


# ---------------------------------------------------------------------------------------------------- deck rule D4
def test_LN_D4_colour_cost_needs_a_character_of_that_colour() -> None:
    g = build(red(hand=["Mist Wisp", "Cinder Pup"]), blue())
    assert not is_legal(g, "hand", 0)  # blue support, only red characters on the field
    assert is_legal(g, "hand", 1)  # red support
    g = build(red(hand=["Mist Wisp", "Cinder Pup"], supports=["Drowsy Ghost"]), blue())
    assert is_legal(g, "hand", 0)  # a blue character on the field pays the colour cost


def test_LN_D4_colour_cost_of_events_and_none_for_skills_on_the_field() -> None:
    """LN-D4: an event needs a character of its colour too (Freezing Gale is blue, Flashfire the same effect in
    red); a [Use] skill of a card already on the field needs nothing (yellow Solar Engineer on a red field)."""
    for supports, gale_ok in (([], False), (["Drowsy Ghost"], True)):
        g = build(red(hand=["Freezing Gale", "Flashfire"], supports=supports), blue(), step=ST_DECL_WINDOW)
        set_battle(g, inst_of(g, 0, "main"), inst_of(g, 1, "main"))
        assert is_legal(g, "hand", 1)  # red event, red main
        assert is_legal(g, "hand", 0) == gale_ok
    g = build(red(supports=["Solar Engineer", "Clumsy Page:R"]), blue())
    assert is_legal(g, "skill", 1)


# ---------------------------------------------------------------------------------------------------- setup
def test_LN_S1_random_rps_winner_chooses_turn_order() -> None:
    g = BatchGame(SPEC, 16, decks=("aggro", "control"), seed=0)
    assert set(g.to_act.tolist()) == {0, 1}
    assert (field_all(g, "step") == ST_ORDER).all()
    winner = int(g.to_act[0])
    g1 = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=0)
    do(g1, "go_second")
    assert int(field(g1, "first_player")) == 1 - winner
    assert step_name(g1) == ST_CHOOSE_MAIN and int(g1.to_act[0]) == 1 - winner  # the first player chooses first


def field_all(g: BatchGame, name: str) -> np.ndarray:
    return SPEC.state_layout.get(g.states, name)


def test_LN_S2_main_character_is_a_chosen_turn_cost_1_character_face_down() -> None:
    g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=3)
    do(g, "go_first")
    p = int(g.to_act[0])
    options = [i for name, i in legal(g) if name == "choose_main"]
    names = [POOL.name(int(field(g, "deck_list")[p, i])) for i in options]
    assert len(names) == len(set(names)) > 1  # one action per distinct card
    assert all(POOL.cards[POOL.by_name[n]]["turn_cost"] == 1 and POOL.cards[POOL.by_name[n]]["type"] == "character"
               for n in names)
    do(g, "choose_main", options[1])
    assert inst_of(g, p, "main") == options[1]
    assert field(g, "face_up")[p, options[1]] == 0
    seen_by_other = OBS.get(g.observe([1 - p])[0], "main")[1]
    assert seen_by_other[0] == 1 and seen_by_other[1:].sum() == 0  # the opponent sees a face-down card only


def test_LN_S3_shuffle_then_draw_six() -> None:
    hands = []
    for seed in (1, 2):
        g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=seed)
        do(g, "go_first")
        for _ in range(2):
            do(g, "choose_main", [i for n, i in legal(g) if n == "choose_main"][0])
        assert step_name(g) == ST_MULLIGAN
        assert list(field(g, "hand_count")) == [6, 6] and list(field(g, "deck_count")) == [33, 33]
        hands.append(sorted(zone_names(g, 0, "hand")))
    assert hands[0] != hands[1]


def test_LN_S4_mulligan_returns_chosen_cards_to_the_bottom_and_redraws_once() -> None:
    g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=5)
    do(g, "go_first")
    for _ in range(2):
        do(g, "choose_main", [i for n, i in legal(g) if n == "choose_main"][0])
    p = int(g.to_act[0])
    first, second = inst_of(g, p, "hand", 0), inst_of(g, p, "hand", 2)
    do(g, "hand", 0)
    do(g, "hand", 1)  # the old index 2 after the first card left
    assert int(field(g, "hand_count")[p]) == 4
    assert field(g, "deck")[p, 0] == second and field(g, "deck")[p, 1] == first  # bottom, in the chosen order
    do(g, "pass")  # keep: redraw to 6
    assert int(field(g, "hand_count")[p]) == 6 and field(g, "mulligan_used")[p] == 1
    assert int(g.to_act[0]) == 1 - p and step_name(g) == ST_MULLIGAN
    do(g, "pass")
    assert step_name(g) != ST_MULLIGAN  # never offered again


def test_LN_S5_turn_markers_start_at_zero() -> None:
    g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=7)
    do(g, "go_first")
    first = int(field(g, "first_player"))
    for _ in range(2):
        do(g, "choose_main", [i for n, i in legal(g) if n == "choose_main"][0])
    assert list(field(g, "marker")) == [0, 0]
    do(g, "pass")
    do(g, "pass")
    # each turn adds 1 to its player's marker only (the first turn may already be over if it had no decision)
    turn = int(g.states[0, H_TURN])
    assert turn >= 1
    assert int(field(g, "marker")[first]) == (turn + 1) // 2 and int(field(g, "marker")[1 - first]) == turn // 2


# ---------------------------------------------------------------------------------------------------- turn
def test_LN_T1_start_of_turn_marker_draw_activate() -> None:
    g = build(blue(hand=["Drowsy Ghost"], supports=["Frost Sage:R"]),
              red(main="Ashen Recruit:R", supports=["Cinder Pup:R"], deck=["Blaze Vanguard"], hand=[STOP]),
              turn_player=0, main_phase=2, markers=(3, 2))
    do(g, "pass")  # player 0 ends main phase 2
    assert int(g.to_act[0]) == 1 and step_name(g) == ST_MAIN  # player 1 holds a card: its window is a decision
    do(g, "pass")
    assert int(field(g, "turn_player")) == 1
    assert int(field(g, "marker")[1]) == 3
    assert zone_names(g, 1, "hand") == [STOP, "Blaze Vanguard"]
    rested = field(g, "rested")
    assert rested[1, inst_of(g, 1, "main")] == 0 and rested[1, inst_of(g, 1, "support")] == 0
    assert rested[0, inst_of(g, 0, "support")] == 1  # only the turn player's characters become Active


def test_LN_T2_one_support_per_main_phase() -> None:
    g = build(red(hand=["Cinder Pup", "Clumsy Page", "Inferno Burst"]), blue())
    assert is_legal(g, "hand", 0) and is_legal(g, "hand", 1)
    do(g, "hand", 0)
    assert zone_names(g, 0, "support") == ["Cinder Pup"]
    assert not is_legal(g, "hand", 0) and is_legal(g, "hand", 1)  # the second support must wait; events may go


def test_LN_T3_windows_for_both_players_when_public_information_allows() -> None:
    """LN-T3 (issue 12 C.1): a window is offered to a player whenever public information allows it to act (a card
    in hand, a usable skill on the field), even if its hand holds nothing usable now: whether the window is a
    decision must not tell the other player what the hand holds. Only a player with an empty hand and no usable
    skill is passed for."""
    g = build(red(supports=["Clumsy Page"]), blue(hand=["Undertow"], supports=["Drowsy Ghost"]))
    do(g, "pass")
    assert int(g.to_act[0]) == 1 and step_name(g) == ST_MAIN and int(field(g, "sub")) == 1
    assert is_legal(g, "hand", 0)  # Undertow (Main/Any) in the opponent's window
    g = build(red(), blue(hand=["Freezing Gale"], supports=["Drowsy Ghost"]))  # (Battle/Any): nothing usable now
    do(g, "pass")
    assert step_name(g) == ST_MAIN and int(g.to_act[0]) == 1 and legal(g) == [("pass", 0)]  # same timing
    g = build(red(), blue(hand=[], supports=["Drowsy Ghost"]))  # empty hand, no skill: passed for
    do(g, "pass")
    assert not (step_name(g) == ST_MAIN and int(g.to_act[0]) == 1)


def test_LN_T3_window_timing_does_not_depend_on_the_hidden_hand() -> None:
    """LN-T3, issue 12 C.1: the same public position with a usable and an unusable hidden card gives the same
    sequence of deciders under the same passes."""
    seqs = []
    for card in ("Freezing Gale", "Undertow", "Frost Sage"):
        g = build(red(hand=[STOP, "Battle Cry"]), blue(hand=[card], supports=["Drowsy Ghost"]), step=ST_ATTACK)
        do(g, "attack", 0, skip=False)
        seq = []
        for _ in range(12):
            if g.status[0] != 0 or step_name(g) in (ST_LEVEL_UP, ST_BATTLE_WINDOW):
                break
            seq.append((step_name(g), int(g.to_act[0])))
            g.step([0])
        seqs.append(seq)
    assert seqs[0] == seqs[1] == seqs[2]
    assert (ST_DECL_WINDOW, 1) in seqs[0] and (ST_COVER_WINDOW, 1) in seqs[0]


def test_LN_T3_windows_reopen_until_both_pass_in_succession() -> None:
    """LN-T3, issue 12 item 13: after the defender acts in the window after cover, the attacker may answer (Battle
    Cry after Freezing Gale); the window closes only after two passes in a row."""
    g = build(red(hand=["Battle Cry", STOP]), blue(hand=["Freezing Gale", "Frost Sage"], supports=["Dynamo Mech"]),
              step=ST_ATTACK)
    do(g, "attack", 0, skip=False)  # Ashen Recruit 3000 (level 1, own turn)
    do(g, "cover", 0)  # Dynamo Mech 4000 covers
    assert step_name(g) == ST_COVER_WINDOW and int(g.to_act[0]) == 0
    do(g, "pass", skip=False)
    assert int(g.to_act[0]) == 1
    do(g, "hand", 0, skip=False)  # Freezing Gale: attacker -1000
    assert step_name(g) == ST_COVER_WINDOW and int(g.to_act[0]) == 1  # the actor keeps the initiative
    do(g, "pass", skip=False)
    assert step_name(g) == ST_COVER_WINDOW and int(g.to_act[0]) == 0  # reopened for the attacker
    assert is_legal(g, "hand", 0)
    do(g, "hand", 0, skip=False)  # Battle Cry +1000: back to 3000
    do(g, "pass", skip=False)
    assert step_name(g) == ST_COVER_WINDOW and int(g.to_act[0]) == 1
    do(g, "pass", skip=False)  # two passes in succession: the window closes
    assert step_name(g) != ST_COVER_WINDOW


def test_LN_T4_battle_steps_in_order() -> None:
    p0 = red(hand=["Battle Cry", STOP], level=["Phoenix Ember"])
    p1 = blue(hand=["Freezing Gale"], supports=["Drowsy Ghost"], level=["Frozen Echo"])
    g = build(p0, p1, step=ST_BATTLE_WINDOW)
    seen = []
    for action in ["pass", "pass", "attack", "pass", "pass", "pass", "pass", "pass", "pass", "pass", "level_up"]:
        seen.append((step_name(g), int(g.to_act[0])))
        do(g, action, skip=False)
    assert seen == [
        (ST_BATTLE_WINDOW, 0), (ST_BATTLE_WINDOW, 1), (ST_ATTACK, 0), (ST_DECL_WINDOW, 0), (ST_DECL_WINDOW, 1),
        (ST_COVER, 1), (ST_COVER_WINDOW, 0), (ST_COVER_WINDOW, 1), (ST_BURST, 0), (ST_BURST, 1), (ST_LEVEL_UP, 0),
    ]
    assert level(g, 0) == 3  # judgement followed: 3500 vs 2500, the attacking main levelled up


def test_LN_T5_no_battle_phase_on_the_first_turn() -> None:
    g = build(red(), blue(hand=["Drowsy Ghost"]), turn=1)
    do(g, "pass")  # end of main phase 1 on turn 1
    do(g, "pass")  # the opponent's window
    assert int(field(g, "turn_player")) == 1 and g.states[0, H_TURN] == 2
    assert int(field(g, "main_phase")) == 1 and step_name(g) == ST_MAIN  # player 1's main phase 1


def test_LN_T6_main_phase_2_allows_another_support() -> None:
    g = build(red(hand=["Cinder Pup"]), blue(), step=ST_ATTACK)
    field(g, "support_played")[...] = 1  # a support was played in main phase 1
    do(g, "pass")
    assert step_name(g) == ST_MAIN and int(field(g, "main_phase")) == 2
    assert is_legal(g, "hand", 0)


def test_LN_T7_end_of_turn_discard_down_to_six_by_choice() -> None:
    g = build(red(hand=[STOP] * 3 + ["Flashfire"] * 5), blue(hand=["Frost Sage"] * 7), main_phase=2)
    do(g, "pass")
    do(g, "pass")  # the opponent's window
    assert step_name(g) == ST_END and int(g.to_act[0]) == 0
    assert {n for n, _ in legal(g)} == {"hand"}
    do(g, "hand", 3)
    do(g, "hand", 3)
    assert zone_names(g, 0, "discard") == ["Flashfire", "Flashfire"] and int(field(g, "hand_count")[0]) == 6
    assert step_name(g) == ST_END and int(g.to_act[0]) == 1  # then the opponent (7 cards)
    do(g, "hand", 0)
    assert int(field(g, "hand_count")[1]) == 7  # 6, then the draw of its own turn
    assert int(field(g, "turn_player")) == 1


def test_LN_T7_end_of_turn_start_skill_resolves() -> None:
    g = build(red(supports=["Moonlit Scholar"], level=[FILLER, FILLER], deck=["Blaze Vanguard"]), blue(),
              main_phase=2)
    do(g, "pass")
    assert "Blaze Vanguard" in zone_names(g, 0, "hand")  # [Start] end_turn (Lv 3): draw 1


def test_LN_T8_until_end_of_turn_and_next_battle_expire_at_end_of_turn() -> None:
    g = build(red(hand=["Cinder Pup", "Inferno Burst"], supports=["Blaze Vanguard"]), blue(), main_phase=2)
    main0 = inst_of(g, 0, "main")
    sup0 = inst_of(g, 0, "support")
    field(g, "ap_next")[0, sup0] = 700
    do(g, "hand", 0)  # Cinder Pup: [Start] own main AP +500 until end of turn
    assert field(g, "ap_turn")[0, main0] == 500
    do(g, "pass")
    assert int(field(g, "turn_player")) == 1
    assert field(g, "ap_turn")[0, main0] == 0 and field(g, "ap_next")[0, sup0] == 0


def test_LN_T9_turn_cost_needs_the_turn_marker() -> None:
    g = build(red(hand=["Scorch Hound", "War Drums"]), blue(), markers=(1, 1))
    assert not is_legal(g, "hand", 0) and not is_legal(g, "hand", 1)
    g = build(red(hand=["Scorch Hound", "War Drums"]), blue(), markers=(2, 1))
    assert is_legal(g, "hand", 0) and is_legal(g, "hand", 1)


def test_LN_T10_support_zone_holds_four() -> None:
    g = build(red(supports=["Clumsy Page"] * SUPPORT_CAP, hand=["Cinder Pup"]), blue())
    assert not is_legal(g, "hand", 0)
    g = build(red(supports=["Clumsy Page"] * (SUPPORT_CAP - 1), hand=["Cinder Pup"]), blue())
    assert is_legal(g, "hand", 0)


# ---------------------------------------------------------------------------------------------------- skills
def test_LN_K1_cont_skill_applies_while_its_condition_holds() -> None:
    on_their_turn = build(red(), blue(supports=["Glacier Warden"]))
    assert ap(on_their_turn, 1, 0) == 4000  # +1000 during the opponent's turn
    on_own_turn = build(blue(supports=["Glacier Warden"]), red(), turn_player=0)
    assert ap(on_own_turn, 0, 0) == 3000
    knights = build(red(supports=["Ignis Captain", "Cinder Pup"]), blue())  # Knights +500 on own turn
    assert ap(knights, 0, "main") == 2500 + 500 + 500
    assert ap(knights, 0, 1) == 1500  # Cinder Pup is a Beast


def test_LN_K2_start_skills_trigger_on_their_event() -> None:
    g = build(red(hand=["Mist Wisp"], supports=["Drowsy Ghost"], deck=["Blaze Vanguard"]), blue())
    do(g, "hand", 0)
    assert zone_names(g, 0, "hand") == ["Blaze Vanguard"]  # on_play: draw 1
    g = build(red(main="Ember Squire"), blue(main="Dynamo Mech"), step=ST_ATTACK)
    do(g, "attack", 0)  # on_attack: AP +500 -> 3000 + 500 = 3500 < 4000, the attack loses
    assert field(g, "ap_turn")[0, inst_of(g, 0, "main")] == 500
    assert level(g, 0) == 1


def test_LN_K3_use_skill_needs_its_phase_and_turn_and_is_optional() -> None:
    g = build(red(main="Tide Apprentice", hand=[STOP], deck=["Blaze Vanguard"]), blue())
    assert is_legal(g, "skill", 0) and is_legal(g, "pass")
    do(g, "skill", 0)  # (Main/Own), cost: rest this character; draw 1
    assert field(g, "rested")[0, inst_of(g, 0, "main")] == 1 and "Blaze Vanguard" in zone_names(g, 0, "hand")
    g = build(red(main="Tide Apprentice", hand=["Battle Cry"]), blue(), step=ST_BATTLE_WINDOW)
    assert not is_legal(g, "skill", 0)  # not in the battle phase
    g = build(blue(), red(main="Tide Apprentice", hand=["Undertow"]), turn_player=0)
    do(g, "pass")
    assert int(g.to_act[0]) == 1 and not is_legal(g, "skill", 0)  # not in the opponent's turn


def test_LN_K4_same_use_skill_once_per_turn_across_cards() -> None:
    g = build(red(supports=["Banner Knight", "Banner Knight", "Rusty Bot"], hand=["Rally Banner", STOP]), blue())
    assert is_legal(g, "skill", 1) and is_legal(g, "skill", 2) and is_legal(g, "hand", 0)
    do(g, "skill", 1)
    # another Banner Knight and the Rally Banner event share the skill "Rally": both refused this turn
    assert not is_legal(g, "skill", 2) and not is_legal(g, "hand", 0)
    pass_until(g, ST_ATTACK)
    do(g, "pass")  # no attack: main phase 2 of the same turn
    assert step_name(g) == ST_MAIN and int(field(g, "main_phase")) == 2
    assert not is_legal(g, "skill", 1) and not is_legal(g, "skill", 2) and not is_legal(g, "hand", 0)
    for _ in range(40):  # through the end of turn and the opponent's turn, back to player 0's main phase
        if int(field(g, "turn_player")) == 0 and step_name(g) == ST_MAIN and int(g.to_act[0]) == 0 \
                and int(field(g, "main_phase")) == 1:
            break
        do(g, "pass")
    assert g.states[0, H_TURN] == 7
    assert is_legal(g, "skill", 1) and is_legal(g, "skill", 2) and is_legal(g, "hand", 0)  # the end of turn reset


def test_observation_carries_the_public_discard_piles_and_used_skills() -> None:
    """Issue 12 C.3: what the rules make public is in both players' observations: discard piles per card id, and
    the skills each player used this turn (LN-K4: the other player knows what it can no longer use)."""
    g = build(red(supports=["Banner Knight"], discard=["Flashfire", "Flashfire", "Cinder Pup"]),
              blue(discard=["Undertow"]))
    do(g, "skill", 1)  # Banner Knight's "Rally"
    rally = POOL.skills.index("Rally")
    for viewer in (0, 1):
        obs = g.observe([viewer])[0]
        red_side = viewer  # "own" first: player 0 (red) is side 0 for itself, side 1 for player 1
        pile = OBS.get(obs, "discard")
        assert pile[red_side, POOL.by_name["Flashfire"]] == 2 and pile[red_side, POOL.by_name["Cinder Pup"]] == 1
        assert pile[1 - red_side, POOL.by_name["Undertow"]] == 1 and pile.sum() == 4
        used = OBS.get(obs, "used_skills")
        assert used[red_side, rally] == 1 and used.sum() == 1


def test_LN_K5_level_requirement() -> None:
    g = build(red(supports=["Furnace Knight"], hand=["Battle Cry"]), blue(), step=ST_BATTLE_WINDOW)
    assert not is_legal(g, "skill", 1)  # (Lv 2) at level 1
    g = build(red(supports=["Furnace Knight"], hand=["Battle Cry"], level=[FILLER]), blue(), step=ST_BATTLE_WINDOW)
    assert is_legal(g, "skill", 1)


def test_LN_K3_one_support_effects_target_the_players_choice() -> None:
    """LN-K3 (issue 12 item 14): "one support" effects apply to the support their owner chooses, not to the
    highest-AP one; the card's later effects resolve after the choice (Second Wind: activate one, then draw)."""
    g = build(blue(hand=["Undertow", "Frost Sage"]), red(supports=["Clumsy Page", "Blaze Vanguard"], hand=[STOP]))
    do(g, "hand", 0)
    assert int(g.to_act[0]) == 0 and sorted(legal(g)) == [("effect_target", 0), ("effect_target", 1)]
    do(g, "effect_target", 0)  # the weaker Clumsy Page
    page, vanguard = inst_of(g, 1, "support", 0), inst_of(g, 1, "support", 1)
    assert field(g, "rested")[1, page] == 1 and field(g, "rested")[1, vanguard] == 0
    assert int(field(g, "choice_player")) == -1 and step_name(g) == ST_MAIN
    g = build(red(hand=["Second Wind", STOP], supports=["Clumsy Page:R", "Blaze Vanguard:R"], deck=["Lost Lamb"]),
              blue(), step=ST_DECL_WINDOW)
    set_battle(g, inst_of(g, 0, "main"), inst_of(g, 1, "main"))
    do(g, "hand", 0, skip=False)
    assert legal(g) == [("effect_target", 0), ("effect_target", 1)] and "Lost Lamb" not in zone_names(g, 0, "hand")
    do(g, "effect_target", 0)
    assert field(g, "rested")[0, inst_of(g, 0, "support", 0)] == 0
    assert field(g, "rested")[0, inst_of(g, 0, "support", 1)] == 1
    assert "Lost Lamb" in zone_names(g, 0, "hand")  # the draw after the choice
    g = build(blue(hand=["Undertow", "Frost Sage"]), red(supports=["Clumsy Page", "Blaze Vanguard:R"]))
    do(g, "hand", 0)  # a single candidate: no decision
    assert field(g, "rested")[1, inst_of(g, 1, "support", 0)] == 1 and step_name(g) == ST_MAIN


def test_LN_K3_solar_engineer_never_targets_itself() -> None:
    """LN-K3 (issue 12 item 15): Solar Engineer rests itself as the cost and activates *another* support; with no
    other resting support the skill is not offered (it would only refund its own cost)."""
    g = build(red(supports=["Solar Engineer", "Clumsy Page"]), blue())
    assert not is_legal(g, "skill", 1)
    g = build(red(supports=["Solar Engineer", "Clumsy Page:R"]), blue())
    do(g, "skill", 1)
    engineer, page = inst_of(g, 0, "support", 0), inst_of(g, 0, "support", 1)
    assert field(g, "rested")[0, engineer] == 1 and field(g, "rested")[0, page] == 0


def test_LN_T3_battle_events_wait_for_a_battle() -> None:
    """LN-T3 (issue 12 item 17): an event whose every effect targets the battlers is not offered before an attack
    is declared (it would be discarded for nothing); after the declaration it is."""
    g = build(red(hand=["Battle Cry", "Flashfire", STOP]), blue(), step=ST_BATTLE_WINDOW)
    assert legal(g) == [("pass", 0)]
    do(g, "attack", 0)
    assert step_name(g) == ST_DECL_WINDOW and is_legal(g, "hand", 0) and is_legal(g, "hand", 1)


def test_hide_keeps_the_cards_the_viewer_put_at_the_bottom() -> None:
    """Issue 12 item 18: the viewer knows the cards it mulliganed to the bottom of its deck (no shuffle follows);
    ``hide`` re-deals only the rest of its deck, and the opponent's whole deck."""
    g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=5)
    do(g, "go_first")
    for _ in range(2):
        do(g, "choose_main", [i for n, i in legal(g) if n == "choose_main"][0])
    p = int(g.to_act[0])
    do(g, "hand", 0)
    do(g, "hand", 0)
    do(g, "pass")
    do(g, "hand", 0)
    do(g, "pass")
    row = g.states[0]
    deck = SPEC.state_layout.get(row, "deck")
    deck_list = SPEC.state_layout.get(row, "deck_list")
    n = int(SPEC.state_layout.get(row, "deck_count")[p])
    moved = opp_moved = 0
    for seed in range(20):
        h = SPEC.hide(row, p, np.random.default_rng(seed), g.pool)
        hdeck = SPEC.state_layout.get(h, "deck")
        assert (hdeck[p, :2] == deck[p, :2]).all()  # the two known bottom cards stay put
        assert (SPEC.state_layout.get(h, "deck_list")[p] == deck_list[p]).all()  # own deck list is known
        moved += int((hdeck[p, 2:n] != deck[p, 2:n]).any())
        opp = SPEC.state_layout.get(h, "deck_list")[1 - p]
        opp_moved += int((opp != deck_list[1 - p]).any())
    assert moved == 20 and opp_moved == 20


def test_LN_K2_simultaneous_start_skills_resolve_the_same_in_either_order() -> None:
    """LN-K2, "Choices the engine makes": the [Start] on_attack skills of a combi resolve attacker first, then
    partner; the orders are equivalent (AP changes add up), so swapping the roles gives the same battle."""
    results = []
    for first in (0, 1):
        g = build(red(supports=["Ember Squire", "Lightning Lancer"]), blue(main="Harbor Watch:R"), step=ST_ATTACK)
        do(g, "attack", 1 + first)
        do(g, "partner", 1 - first)
        assert step_name(g) == ST_DECL_WINDOW
        results.append((field(g, "ap_turn").copy(), OBS.get(g.observe([0])[0], "battle_ap").copy()))
    assert (results[0][0] == results[1][0]).all() and (results[0][1] == results[1][1]).all()
    assert results[0][1][0] * AP_UNIT == 3500 + 3500  # Ember 2500 + 500 + 500, Lancer 3000 + 500


# ---------------------------------------------------------------------------------------------------- attacks
def test_LN_A1_attacking_rests_and_each_character_attacks_once() -> None:
    g = build(red(supports=["Clumsy Page"]), blue(main="Dynamo Mech"), step=ST_ATTACK)
    main0 = inst_of(g, 0, "main")
    do(g, "attack", 0)
    do(g, "pass")  # no combi
    assert field(g, "rested")[0, main0] == 1 and field(g, "attacked")[0, main0] == 1
    g2 = build(red(supports=["Clumsy Page"]), blue(main="Dynamo Mech:R"), step=ST_ATTACK)
    field(g2, "attacked")[0, inst_of(g2, 0, "main")] = 1  # attacked already, then re-activated by an effect
    assert not is_legal(g2, "attack", 0) and is_legal(g2, "attack", 1)


def test_LN_A2_main_attack_targets_only_the_main_even_active() -> None:
    g = build(red(supports=["Clumsy Page"]), blue(supports=["Drowsy Ghost:R"]), step=ST_ATTACK)
    do(g, "attack", 0)
    do(g, "pass")  # no combi partner
    assert step_name(g) != ST_TARGET  # the (active) main is the only legal target: no choice of the resting support
    assert int(field(g, "battle")) == 1 and int(field(g, "target")) == inst_of(g, 1, "main")
    assert int(field(g, "orig_target")) == inst_of(g, 1, "main")
    g = build(red(), blue(supports=["Drowsy Ghost:R"]), step=ST_TARGET)
    field(g, "atk_a")[...] = inst_of(g, 0, "main")
    assert legal(g) == [("target", 0)]  # never the resting support
    do(g, "target", 0)
    judge(g)
    assert level(g, 0) == 2  # 3000 beat the active main's 2500


def test_LN_A3_support_attack_needs_a_resting_target() -> None:
    g = build(red(supports=["Blaze Vanguard"]), blue(supports=["Drowsy Ghost"]), step=ST_ATTACK)
    assert not is_legal(g, "attack", 1)  # nothing of player 1 is resting
    g = build(red(supports=["Blaze Vanguard", "Clumsy Page:R"]),
              blue(supports=["Drowsy Ghost", "Frost Sage:R", "Mist Wisp:R"]), step=ST_ATTACK)
    do(g, "attack", 1)  # the resting Clumsy Page cannot join: no combi decision
    assert sorted(legal(g)) == [("target", 2), ("target", 3)]  # resting supports only; not the active ones


def test_LN_A4_A5_main_support_combi_adds_ap_and_hits_the_main() -> None:
    """LN-A4, LN-A5."""
    g = build(red(supports=["Dynamo Mech"]), blue(main="Dynamo Mech", supports=["Drowsy Ghost:R"]), step=ST_ATTACK)
    do(g, "attack", 0)
    assert is_legal(g, "partner", 0)
    do(g, "partner", 0)  # 3000 + 4000 vs 4000: the target (active main) is the only option, auto-played
    assert int(field(g, "target")) == inst_of(g, 1, "main")
    judge(g)
    assert level(g, 0) == 2
    assert field(g, "rested")[0, inst_of(g, 0, "support")] == 1


def test_LN_A6_support_combi_targets_any_resting_character() -> None:
    g = build(red(supports=["Blaze Vanguard", "Cinder Pup"]),
              blue(main="Harbor Watch:R", supports=["Drowsy Ghost", "Frost Sage:R"]), step=ST_ATTACK)
    do(g, "attack", 1)
    do(g, "partner", 1)
    assert sorted(legal(g)) == [("target", 0), ("target", 2)]


def test_LN_A7_turn_player_may_stop_attacking() -> None:
    g = build(red(hand=["Cinder Pup"]), blue(), step=ST_ATTACK)
    assert is_legal(g, "attack", 0) and is_legal(g, "pass")
    do(g, "pass")
    assert step_name(g) == ST_MAIN and int(field(g, "main_phase")) == 2


# ---------------------------------------------------------------------------------------------------- cover
def test_LN_C1_C2_cover_redirects_and_beating_the_cover_still_levels_up() -> None:
    """LN-C1, LN-C2."""
    g = build(red(), blue(supports=["Drowsy Ghost"]), step=ST_ATTACK)
    ghost = inst_of(g, 1, "support")
    do(g, "attack", 0)
    pass_until(g, ST_COVER)
    assert int(g.to_act[0]) == 1 and is_legal(g, "cover", 0)
    do(g, "cover", 0)
    assert int(field(g, "target")) == ghost and int(field(g, "covered")) == 1  # LN-C1: the cover is the target
    assert field(g, "rested")[1, ghost] == 1
    assert int(field(g, "orig_target")) == inst_of(g, 1, "main")
    judge(g)
    assert zone_names(g, 1, "discard") == ["Drowsy Ghost"]  # 3000 vs 900: the cover lost
    assert level(g, 0) == 2  # LN-C2: a battle win for the attacking main
    assert level(g, 1) == 1 and zone_names(g, 1, "level") == []  # the covered main did not lose


def test_LN_C3_no_cover_against_a_level_neo_main() -> None:
    g = build(red(level=[FILLER] * 4), blue(supports=["Dynamo Mech"]), step=ST_COVER, to_act=1)
    set_battle(g, inst_of(g, 0, "main"), inst_of(g, 1, "main"))
    assert legal(g, 1) == [("pass", 0)]
    g = build(red(level=[FILLER] * 3), blue(supports=["Dynamo Mech"]), step=ST_COVER, to_act=1)
    set_battle(g, inst_of(g, 0, "main"), inst_of(g, 1, "main"))
    assert is_legal(g, "cover", 0, player=1)


# ---------------------------------------------------------------------------------------------------- level
def test_LN_L1_level_is_level_zone_plus_one() -> None:
    g = build(red(level=[FILLER, FILLER]), blue())
    assert list(OBS.get(g.observe([0])[0], "levels")) == [3, 1]


def test_LN_L2_level_up_puts_the_top_card_face_down() -> None:
    g = build(red(deck=["Phoenix Ember"]), blue(), step=ST_ATTACK)
    do(g, "attack", 0)
    judge(g)
    assert zone_names(g, 0, "level") == ["Phoenix Ember"]
    assert field(g, "face_up")[0, inst_of(g, 0, "level")] == 0


def test_LN_L2_level_up_is_the_winners_choice() -> None:
    """LN-L2 ("may level up"), issue 12 item 16: a win with one card left in the deck need not deck its player out."""
    g = build(red(deck=["Phoenix Ember"], fill=False), blue(), step=ST_ATTACK)
    do(g, "attack", 0)
    judge(g, level_up=False)
    assert g.states[0, H_STATUS] == 0 and level(g, 0) == 1 and zone_names(g, 0, "deck") == ["Phoenix Ember"]
    g = build(red(deck=["Phoenix Ember"], fill=False), blue(), step=ST_ATTACK)
    do(g, "attack", 0)
    judge(g, level_up=True)  # the last card goes to the level zone: the empty deck loses (LN-V2)
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 1
    g = build(red(level=[LV] * 4), blue(main="Dynamo Mech"), step=ST_ATTACK)
    do(g, "attack", 0)
    judge(g)  # 2500 + 2500 vs 4000: a Level Neo main's win ends the game, there is no level up to offer
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 0


def test_LN_L3_level_down_discards_the_owners_choice() -> None:
    g = build(red(), blue(level=["Frozen Echo:up", LV]), step=ST_ATTACK)
    do(g, "attack", 0)
    judge(g)
    assert step_name(g) == ST_LEVEL_DOWN and int(g.to_act[0]) == 1
    assert sorted(legal(g)) == [("level_down", 0), ("level_down", 1)]
    do(g, "level_down", 0)
    assert zone_names(g, 1, "discard") == ["Frozen Echo"] and zone_names(g, 1, "level") == [FILLER]


def test_LN_L4_main_gets_500_per_level_on_its_own_turn_only() -> None:
    g = build(red(level=[FILLER, FILLER]), blue(level=[FILLER]))
    assert ap(g, 0, "main") == 2500 + 1500
    assert ap(g, 1, "main") == 2500  # not on the opponent's turn


def test_LN_L5_level_neo_main_cannot_combi() -> None:
    g = build(red(level=[FILLER] * 4, supports=["Clumsy Page"]), blue(), step=ST_PARTNER)
    field(g, "atk_a")[...] = inst_of(g, 0, "main")
    assert legal(g) == [("pass", 0)]
    g = build(red(level=[FILLER] * 3, supports=["Clumsy Page"]), blue(), step=ST_PARTNER)
    field(g, "atk_a")[...] = inst_of(g, 0, "main")
    assert is_legal(g, "partner", 0)


def test_LN_L6_level_one_cannot_go_down_and_level_caps_at_five() -> None:
    g = build(red(), blue(), step=ST_ATTACK)
    do(g, "attack", 0)
    assert level(g, 1) == 1 and zone_names(g, 1, "discard") == []
    g = build({"main": "Meadow Scout", "hand": ["Overgrowth", "Lost Lamb"], "level": [FILLER] * 4}, blue())
    assert not is_legal(g, "hand", 0)  # Overgrowth's level up would do nothing at level 5: not offered (LN-T3)
    g = build({"main": "Meadow Scout", "supports": ["Ancient Treant"], "level": [FILLER] * 4, "hand": [STOP]},
              blue(main="Harbor Watch:R"), step=ST_ATTACK)
    before = int(field(g, "deck_count")[0])
    do(g, "attack", 1)  # Ancient Treant 4500 beats the resting main; its on_win level up at level 5 does nothing
    judge(g)
    assert level(g, 0) == 5 and int(field(g, "deck_count")[0]) == before and g.states[0, H_STATUS] == 0


# ---------------------------------------------------------------------------------------------------- level burst
def test_LN_B1_only_participating_main_characters_burst() -> None:
    # a support attacks player 1's resting main: the attacking main is not in the battle
    g = build(red(supports=["Blaze Vanguard"], level=["Phoenix Ember"]), blue(level=["Frozen Echo"]),
              step=ST_BURST)
    set_battle(g, inst_of(g, 0, "support"), inst_of(g, 1, "main"))
    assert legal(g, 0) == [("pass", 0)]
    field(g, "burst_player")[...] = 1
    g.states[0, H_TO_ACT] = 1
    assert is_legal(g, "burst", 0, player=1)
    # covered: the defending main left the battle
    g2 = build(red(level=["Phoenix Ember"]), blue(supports=["Dynamo Mech:R"], level=["Frozen Echo"]),
               step=ST_BURST, to_act=1)
    set_battle(g2, inst_of(g2, 0, "main"), inst_of(g2, 1, "support"))
    field(g2, "burst_player")[...] = 1
    assert legal(g2, 1) == [("pass", 0)]


def test_LN_B2_attacker_first_then_alternate_until_both_pass() -> None:
    g = build(red(level=["Phoenix Ember", "Thornback Boar"]), blue(level=["Frozen Echo", "Mossback Elder"]),
              step=ST_ATTACK)
    do(g, "attack", 0)
    pass_until(g, ST_BURST)
    order = []
    for action in ["burst", "burst", "pass", "burst", "pass"]:
        assert step_name(g) == ST_BURST
        order.append(int(g.to_act[0]))
        do(g, action)
    assert order == [0, 1, 0, 1, 0]  # then player 1 has no face-down card left: its pass is automatic
    assert step_name(g) != ST_BURST


def test_LN_B3_B5_burst_reveals_a_card_and_activates_burst_text() -> None:
    """LN-B3, LN-B5."""
    g = build(red(level=["Phoenix Ember"]), blue(main="Dynamo Mech"), step=ST_ATTACK)
    do(g, "attack", 0)
    pass_until(g, ST_BURST)
    do(g, "burst")  # Phoenix Ember: own main AP +1500 this battle -> 3500 + 1500 = 5000 > 4000
    judge(g)
    lvl = inst_of(g, 0, "level")
    assert field(g, "face_up")[0, lvl] == 1  # LN-B5: stays face up in the level zone
    assert level(g, 0) == 3  # 2 before the battle (the burst itself changes nothing), +1 for the win
    assert zone_names(g, 0, "level")[0] == "Phoenix Ember"


def test_LN_B3_a_face_down_card_its_owner_held_is_a_separate_burst_choice() -> None:
    """LN-B3 ("choose 1 face-down card"): unseen face-down cards are indistinguishable (``burst`` reveals the first
    unseen one), but a card its owner once held (mulliganed, then levelled from the bottom of the deck) is known to
    it, so revealing that one is its own action; the owner's observation shows that card."""
    g = build(red(level=[FILLER, "Phoenix Ember"]), blue(main="Dynamo Mech"), step=ST_BURST)
    set_battle(g, inst_of(g, 0, "main"), inst_of(g, 1, "main"))
    field(g, "drawn")[0, inst_of(g, 0, "level", 0)] = 1  # player 0 once held the filler
    assert sorted(legal(g)) == [("burst", 0), ("burst_known", 0), ("pass", 0)]
    own = OBS.get(g.observe([0])[0], "level")[0]
    assert own[0, 2] == 1 and own[1, 2] == 0  # the known card's features are shown to its owner only
    assert OBS.get(g.observe([1])[0], "level")[1][0, 2] == 0
    do(g, "burst")  # the unseen card, although it lies second
    face_up = field(g, "face_up")[0]
    assert face_up[inst_of(g, 0, "level", 1)] == 1 and face_up[inst_of(g, 0, "level", 0)] == 0
    assert field(g, "burst_failed")[0] == 0  # Phoenix Ember has Level Burst text


def test_LN_B4_failed_burst_stops_that_player() -> None:
    g = build(red(level=[FILLER, "Phoenix Ember"]), blue(level=["Frozen Echo"]), step=ST_ATTACK)
    do(g, "attack", 0)
    pass_until(g, ST_BURST)
    do(g, "burst")  # reveals the first face-down card: the filler has no Level Burst text
    assert field(g, "burst_failed")[0] == 1
    assert int(g.to_act[0]) == 1
    do(g, "pass")
    # player 0 cannot burst again this battle: its turn was passed automatically, so the bursting ended
    assert step_name(g) != ST_BURST
    assert field(g, "face_up")[0, inst_of(g, 0, "level", 1)] == 0


def test_LN_B6_burst_effects_last_until_the_end_of_the_battle() -> None:
    g = build(red(level=["Phoenix Ember"], supports=["Clumsy Page"]), blue(main="Dynamo Mech"), step=ST_ATTACK)
    do(g, "attack", 0)
    do(g, "pass")  # no combi
    do(g, "burst")
    assert field(g, "ap_battle")[0, inst_of(g, 0, "main")] == 1500  # in force during the battle
    judge(g)
    assert field(g, "ap_battle").sum() == 0  # cleared after the judgement
    assert level(g, 0) == 3


# ---------------------------------------------------------------------------------------------------- judgement
def test_LN_J1_higher_ap_wins_and_a_tie_loses_for_both() -> None:
    g = build(red(supports=["Blaze Vanguard"]), blue(supports=["Harbor Watch:R", "Drowsy Ghost:R"]), step=ST_ATTACK)
    do(g, "attack", 1)
    do(g, "target", 1)  # Blaze Vanguard 2000 + 1000 attacking = 3000 vs 2500
    judge(g)
    assert zone_names(g, 1, "discard") == ["Harbor Watch"] and zone_names(g, 0, "support") == ["Blaze Vanguard"]
    g = build(red(supports=["Ashen Recruit"]), blue(supports=["Harbor Watch:R", "Drowsy Ghost:R"]), step=ST_ATTACK)
    do(g, "attack", 1)
    do(g, "target", 1)  # 2500 vs 2500: both lose
    judge(g)
    assert zone_names(g, 1, "discard") == ["Harbor Watch"] and zone_names(g, 0, "discard") == ["Ashen Recruit"]


def test_LN_J2_attacking_main_wins_levels_up() -> None:
    g = build(red(), blue(), step=ST_ATTACK)
    do(g, "attack", 0)
    pass_until(g, ST_LEVEL_UP)
    assert int(g.to_act[0]) == 0 and sorted(legal(g)) == [("level_up", 0), ("pass", 0)]
    do(g, "level_up")
    assert level(g, 0) == 2 and step_name(g) == ST_BATTLE_WINDOW  # back before the next attack


def test_LN_J3_level_neo_attacking_main_wins_the_game() -> None:
    g = build(red(level=[LV] * 4), blue(supports=["Dynamo Mech"]), step=ST_ATTACK)
    do(g, "attack", 0)  # 2500 + 2500 vs 2500, no cover possible
    r = judge(g)
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 0
    assert r.rewards[0].tolist() == [1.0, -1.0]


def test_LN_J4_attacking_main_loses_nothing_happens() -> None:
    g = build(red(level=[LV]), blue(main="Dynamo Mech", level=[LV]), step=ST_ATTACK)
    do(g, "attack", 0)  # 3500 vs 4000
    judge(g, level_up=False)  # (the defending main won: its level up is declined, LN-L2)
    assert level(g, 0) == 2 and level(g, 1) == 2 and zone_names(g, 0, "discard") == []


def test_LN_L2_J2_a_defending_main_that_wins_may_level_up() -> None:
    """Issue 39 item 7: "your Main Character may level up ... when your Main Character wins a battle" is general,
    like the Level Neo victory (LN-V1): a defending main that wins its battle may level up too, the defending
    player's decision (pass declines); a covered main is not in the judgement, so its cover's win levels nobody up."""
    g = build(red(), blue(main="Dynamo Mech", deck=["Phoenix Ember"]), step=ST_ATTACK)
    do(g, "attack", 0)  # 2500 + 500 vs 4000: the defender wins
    pass_until(g, ST_LEVEL_UP)
    assert int(g.to_act[0]) == 1 and sorted(legal(g)) == [("level_up", 0), ("pass", 0)]
    do(g, "level_up")
    assert level(g, 1) == 2 and zone_names(g, 1, "level") == ["Phoenix Ember"] and level(g, 0) == 1
    assert step_name(g) == ST_BATTLE_WINDOW and int(field(g, "turn_player")) == 0
    g = build(red(), blue(main="Dynamo Mech"), step=ST_ATTACK)
    do(g, "attack", 0)
    pass_until(g, ST_LEVEL_UP)
    do(g, "pass")  # declined
    assert level(g, 1) == 1 and step_name(g) == ST_BATTLE_WINDOW
    g = build(red(supports=["Clumsy Page"]), blue(main="Harbor Watch:R", level=[LV] * 3), step=ST_ATTACK)
    do(g, "attack", 1)  # a support attack: 1000 vs 2500, the defending main wins and reaches Level Neo
    pass_until(g, ST_LEVEL_UP)
    do(g, "level_up")
    assert level(g, 1) == 5 and g.states[0, H_STATUS] == 0 and zone_names(g, 0, "discard") == ["Clumsy Page"]
    g = build(red(), blue(supports=["Dynamo Mech"]), step=ST_ATTACK)
    do(g, "attack", 0)
    do(g, "cover", 0)  # Dynamo Mech 4000 covers and beats 3000
    judge(g)
    assert level(g, 1) == 1 and level(g, 0) == 1 and step_name(g) == ST_BATTLE_WINDOW


def test_LN_J5_defending_main_loses_levels_down() -> None:
    g = build(red(), blue(level=[LV]), step=ST_ATTACK)
    do(g, "attack", 0)  # single level card: the choice is forced
    judge(g)
    assert level(g, 1) == 1 and zone_names(g, 1, "discard") == [FILLER]


def test_LN_J6_losing_support_goes_to_the_discard_pile() -> None:
    g = build(red(supports=["Clumsy Page"]), blue(main="Harbor Watch:R"), step=ST_ATTACK)
    do(g, "attack", 1)  # the resting main is the only target: auto-played; 1000 vs 2500
    judge(g)
    assert zone_names(g, 0, "discard") == ["Clumsy Page"] and zone_names(g, 0, "support") == []


def test_LN_J7_support_combi_loss_winner_chooses() -> None:
    g = build(red(supports=["Clumsy Page", "Cinder Pup"]), blue(main="Dynamo Mech:R"), step=ST_ATTACK)
    do(g, "attack", 1)
    do(g, "partner", 1)  # the resting main is the only target; 1000 + 1500 vs 4000
    judge(g)
    assert step_name(g) == ST_COMBI_LOSS and int(g.to_act[0]) == 1
    do(g, "combi_loss", 1)  # the winner discards the partner
    assert zone_names(g, 0, "discard") == ["Cinder Pup"] and zone_names(g, 0, "support") == ["Clumsy Page"]


def test_LN_J7_main_support_combi_loss_costs_nothing() -> None:
    g = build(red(supports=["Clumsy Page"]), blue(main="Dynamo Mech"), step=ST_ATTACK)
    do(g, "attack", 0)
    do(g, "partner", 0)  # 3000 + 1000 vs 4000: a tie, both sides lose; main + support loses nothing
    judge(g)
    assert zone_names(g, 0, "discard") == [] and zone_names(g, 0, "support") == ["Clumsy Page"]
    assert level(g, 0) == 1


def test_LN_J8_next_battle_effects_end_only_for_characters_in_the_judgement() -> None:
    g = build(red(supports=["Clumsy Page"]), blue(supports=["Dynamo Mech"]), step=ST_ATTACK)
    main0, page = inst_of(g, 0, "main"), inst_of(g, 0, "support")
    main1, mech = inst_of(g, 1, "main"), inst_of(g, 1, "support")
    for p, inst in ((0, main0), (0, page), (1, main1), (1, mech)):
        field(g, "ap_next")[p, inst] = 100
    do(g, "attack", 0)
    do(g, "pass")  # no combi
    do(g, "cover", 0)  # Dynamo Mech 4100 covers; 3100 loses
    judge(g)
    nxt = field(g, "ap_next")
    assert nxt[0, main0] == 0 and nxt[1, mech] == 0  # in the judgement
    assert nxt[1, main1] == 100  # attacked first but covered: not in the judgement
    assert nxt[0, page] == 100  # outside the battle


# ---------------------------------------------------------------------------------------------------- caps
def test_LN_K4_no_cap_on_how_many_different_skills_a_turn() -> None:
    """Issue 39 item 8: LN-K4 limits each skill to once a turn and nothing else; a 17th different skill in a turn is
    offered and recorded (it used to be refused once 16 were recorded)."""
    from cardenvs.games.levelneo.rules import mark_skill

    g = build(red(main="Tide Apprentice", hand=[STOP], deck=["Blaze Vanguard"]), blue())
    tide = POOL.skills.index("Tide Apprentice")
    others = [k for k in range(len(POOL.skills)) if k != tide][:16]
    for k in others:
        mark_skill(g.states[0], 0, k)
    assert is_legal(g, "skill", 0)
    do(g, "skill", 0)
    used = OBS.get(g.observe([1])[0], "used_skills")[1]  # the opponent sees all 17
    assert used.sum() == 17 and used[tide] == 1


def test_queue_holds_the_most_effects_one_event_can_trigger() -> None:
    """Issue 39 item 8: the effect queue holds one entry per triggered source, and the most sources one event
    triggers are the turn player's main and full support zone at end of turn (QUEUE_CAP = 1 + SUPPORT_CAP, RULES.md
    "Caps"): all five end-of-turn draws of five Moonlit Scholars resolve."""
    from cardenvs.games.levelneo.state import QUEUE_CAP

    assert QUEUE_CAP == 1 + SUPPORT_CAP
    scholars = ["Moonlit Scholar"] * SUPPORT_CAP
    g = build(blue(main="Moonlit Scholar", supports=scholars, level=[LV] * 2, hand=["Drowsy Ghost"]),
              red(hand=[]), main_phase=2)
    deck = int(field(g, "deck_count")[0])
    do(g, "pass")
    assert int(field(g, "deck_count")[0]) == deck - 5 and int(field(g, "hand_count")[0]) == 6


# ---------------------------------------------------------------------------------------------------- victory
def test_LN_V1_level_neo_main_winning_as_defender_wins_the_game() -> None:
    g = build(red(supports=["Clumsy Page"]), blue(main="Harbor Watch:R", level=[LV] * 4), step=ST_ATTACK)
    do(g, "attack", 1)  # 1000 vs 2500: the defending Level Neo main wins the battle
    judge(g)
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 1


def test_LN_V2_deck_out_loses_after_effects_resolve() -> None:
    g = build(red(), blue(deck=["Harbor Watch"], fill=False), main_phase=2)
    do(g, "pass")  # player 1 draws its last card at the start of its turn
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == 0
    g = build(red(hand=["Insight"], supports=["Drowsy Ghost"], level=[FILLER], deck=["Lost Lamb", "Meadow Scout"],
                  fill=False), blue())
    do(g, "hand", 0)  # draw 2: both cards are drawn, then the empty deck loses
    assert zone_names(g, 0, "hand")[-2:] == ["Meadow Scout", "Lost Lamb"]
    assert g.states[0, H_WINNER] == 1


def test_LN_V3_both_decks_out_is_a_draw_and_turn_cap_truncates() -> None:
    g = build(red(deck=[], fill=False), blue(deck=[], fill=False), main_phase=2)
    g.step([0])  # any decision: the deck-out check runs once it has resolved
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == DRAW
    g = build(red(), blue(), main_phase=2, turn=TURN_CAP)
    r = do(g, "pass")
    assert g.states[0, H_STATUS] == TRUNCATED and bool(r.truncated[0]) and r.rewards[0].tolist() == [0.0, 0.0]


def test_illegal_action_leaves_the_row_untouched() -> None:
    g = build(red(), blue(), step=ST_ATTACK)
    before = g.states.copy()
    with pytest.raises(IllegalActionError):
        do(g, "cover", 0)
    assert np.array_equal(before, g.states)


def test_pass_until_helper_reaches_end_of_turn() -> None:
    g = build(red(hand=[STOP] * 8), blue(), main_phase=2)
    pass_until(g, ST_END)
    assert int(g.to_act[0]) == 0

