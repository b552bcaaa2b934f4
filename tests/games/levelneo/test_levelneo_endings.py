"""How a levelneo game ended (``endings.end_reason``, read by ``cardenvs eval``'s "how games end"): each ending
reached by the rules from a built position, and every game of random play explained. Rule IDs: LN-V1 (a Level Neo
main wins a battle), LN-V2 (deck-out), LN-V3 (both decks out: a draw; the turn cap truncates)."""
from __future__ import annotations


from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, TERMINATED, TRUNCATED
from cardenvs.core.rows import forfeit_game
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.endings import BOTH_DECKS_OUT, DECK_OUT, LEVEL_NEO
from cardenvs.games.levelneo.state import ST_ATTACK, TURN_CAP
from cardenvs.testing import random_endings

from levelneo_helpers import FILLER, build, do, judge

LV = FILLER + ":up"  # a face-up level card: counts for the level, cannot be burst


def ending(g: BatchGame) -> int:
    return int(SPEC.end_reason(g.states)[0])


def test_LN_V1_endings_a_level_neo_win_is_read_as_level_neo_attacking_or_defending() -> None:
    g = build({"main": "Ashen Recruit", "level": [LV] * 4}, {"main": "Harbor Watch", "supports": ["Dynamo Mech"]},
              step=ST_ATTACK)
    do(g, "attack", 0)  # 2500 + 4 x 500 against 2500: the attacking Level Neo main wins the game
    judge(g)
    assert g.states[0, H_STATUS] == TERMINATED and ending(g) == LEVEL_NEO
    g = build({"main": "Ashen Recruit", "supports": ["Clumsy Page"]}, {"main": "Harbor Watch:R", "level": [LV] * 4},
              step=ST_ATTACK)
    do(g, "attack", 1)  # 1000 against 2500: the defending Level Neo main wins
    judge(g)
    assert g.states[0, H_STATUS] == TERMINATED and ending(g) == LEVEL_NEO
    g = build({"main": "Ashen Recruit", "level": [LV] * 4},
              {"main": "Harbor Watch", "supports": ["Dynamo Mech"], "deck": ["Harbor Watch"], "fill": False},
              step=ST_ATTACK)
    do(g, "attack", 0)  # the loser's last deck card is not a deck-out: the win ends the game before the deck check
    judge(g)
    assert g.states[0, H_STATUS] == TERMINATED and ending(g) == LEVEL_NEO


def test_LN_V2_endings_a_deck_out_is_read_as_deck_out() -> None:
    g = build({"main": "Ashen Recruit", "hand": ["Clumsy Page"]}, {"main": "Harbor Watch", "deck": ["Harbor Watch"],
                                                                    "fill": False}, main_phase=2)
    do(g, "pass")  # player 1 draws its last card at the start of its turn and loses
    assert g.states[0, H_STATUS] == TERMINATED and ending(g) == DECK_OUT


def test_LN_V3_endings_both_decks_out_is_a_draw_and_a_truncated_game_has_no_ending() -> None:
    g = build({"main": "Ashen Recruit", "deck": [], "fill": False}, {"main": "Harbor Watch", "deck": [], "fill": False},
              main_phase=2)
    g.step([0])  # the deck-out check runs once the decision has resolved
    assert ending(g) == BOTH_DECKS_OUT
    for level in ([], [LV] * 4):  # a full level zone is no Level Neo win in a game the turn cap truncated
        g = build({"main": "Ashen Recruit", "hand": ["Clumsy Page"], "level": level}, {"main": "Harbor Watch"},
                  main_phase=2, turn=TURN_CAP)
        do(g, "pass")
        assert g.states[0, H_STATUS] == TRUNCATED and ending(g) == -1


def test_LN_V1_V2_endings_a_forfeit_is_no_ending() -> None:
    """A game lost by an illegal action (``illegal_action="lose"``) or a resignation ended by no rule of the game."""
    g = build({"main": "Ashen Recruit", "hand": ["Clumsy Page"]}, {"main": "Harbor Watch"}, main_phase=2)
    forfeit_game(g.states[0], 0)
    assert g.states[0, H_STATUS] == TERMINATED and ending(g) == -1


def test_LN_V1_V2_endings_every_game_of_random_play_is_explained() -> None:
    """200 random games: each one that ended gets an ending, and both victory kinds occur."""
    codes = random_endings(SPEC, draw_codes=(BOTH_DECKS_OUT,))  # checked in cardenvs.testing
    assert (codes == LEVEL_NEO).any() and (codes == DECK_OUT).any()
