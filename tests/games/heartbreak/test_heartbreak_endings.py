"""``endings.py``: how a finished heartbreak game ended (``eval``'s "how games end"), read from the final state.

One test per ending code, reaching that ending the way the HB-V scenario tests do (``heartbreak_helpers.build``),
then random games played out through the batch core: every game the rules ended is explained, nothing else is.
"""
from __future__ import annotations

import numpy as np
from heartbreak_helpers import FILLER, build, do, field, inst_at, pass_window

from cardenvs.core.batch import BatchGame
from cardenvs.testing import random_endings
from cardenvs.core.header import DRAW, H_DECISIONS, H_STATUS, H_TURN, H_WINNER, TERMINATED, TRUNCATED
from cardenvs.core.rows import forfeit_game
from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.endings import BOTH_LOST, DECK_OUT, ENDINGS, HEART_BROKEN, TURN_CAP_DRAW
from cardenvs.games.heartbreak.state import (
    DECISION_CAP, ST_ACTION, ST_CLEANUP, ST_CLIMAX, ST_START, ST_WINDOW, TURN_CAP,
)

STOP = "Reinforcements"  # free Turbo: keeps the turn player's phase a real decision


def ended_as(g: BatchGame, winner: int) -> np.ndarray:
    """The game's final row, checked to be a finished game with ``winner``."""
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == winner
    return g.states[0].copy()


def end_turn(g: BatchGame) -> None:
    """The turn player passes in the climax phase and every window after it: the turn ends."""
    do(g, "pass")
    pass_window(g)


def test_endings_name_the_games_rules() -> None:
    assert SPEC.endings == ENDINGS
    assert [rule for rule, _ in ENDINGS] == ["HB-V1", "HB-V2", "HB-V6", "HB-V6"]
    assert [ENDINGS[c][0] for c in (HEART_BROKEN, DECK_OUT, BOTH_LOST, TURN_CAP_DRAW)] == ["HB-V1", "HB-V2", "HB-V6",
                                                                                           "HB-V6"]
    assert "both" in ENDINGS[BOTH_LOST][1] and "turn cap" in ENDINGS[TURN_CAP_DRAW][1]


def test_HB_V1_endings_a_broken_empty_heart_is_read_as_a_heart_loss() -> None:
    g = build({"lead": "Magma Tyrant", "charge": 1, "hand": [STOP]},
              {"lead": "Scorchmaw Brute:d30", "heart": [FILLER]}, step=ST_ACTION)
    do(g, "act", 0)  # a level-2 KO: one card breaks, the second break hits the empty heart (HB-H6)
    pass_window(g)
    by_ko = ended_as(g, 0)
    g = build({"lead": "Kiln Warden", "hand": ["Blaze of Glory"], "charge": 2},
              {"lead": "Reefling Scout", "heart": []}, step=ST_CLIMAX)
    do(g, "hand", 0)  # no heart cards and broken once more, by a card
    by_card = ended_as(g, 0)
    assert SPEC.end_reason(np.stack([by_ko, by_card])).tolist() == [HEART_BROKEN] * 2
    assert SPEC.end_reason(by_ko).tolist() == [HEART_BROKEN]  # one row (1-D) is one game


def test_HB_V2_endings_an_empty_deck_at_the_end_or_start_of_the_own_turn_is_read_as_deck_out() -> None:
    g = build({"lead": "Harbor Warden:d20", "hand": [STOP], "deck_fill": 0}, {"lead": "Reefling Scout"},
              step=ST_CLIMAX)
    end_turn(g)  # player 0's deck is empty at the end of its turn
    at_the_end = ended_as(g, 1)
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Coral Sentinel:d20", "deck_fill": 0},
              step=ST_CLIMAX)
    end_turn(g)  # player 1 starts its turn with an empty deck
    at_the_start = ended_as(g, 0)
    # an empty heart that was never broken does not make it a heart loss
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Coral Sentinel", "deck_fill": 0, "heart": []},
              step=ST_CLIMAX)
    end_turn(g)
    empty_heart = ended_as(g, 0)
    assert int(field(g, "heart_count")[1]) == 0
    codes = SPEC.end_reason(np.stack([at_the_end, at_the_start, empty_heart]))
    assert codes.tolist() == [DECK_OUT] * 3


def test_HB_V6_endings_both_losing_at_once_is_read_as_a_double_loss() -> None:
    # the end of the turn ends both +20 HP buffs: both Leads are KO'd at once and both empty hearts break
    g = build({"lead": "Kiln Warden:d40", "hand": [STOP], "heart": []},
              {"lead": "Kiln Warden:d40", "heart": []}, step=ST_CLIMAX)
    field(g, "mod_hp")[0, inst_at(g, 0, 0)] = 20
    field(g, "mod_hp")[1, inst_at(g, 1, 0)] = 20
    end_turn(g)
    assert SPEC.end_reason(ended_as(g, DRAW)[None]).tolist() == [BOTH_LOST]


def test_HB_V6_endings_the_turn_cap_is_read_as_a_turn_cap_draw() -> None:
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout"}, step=ST_CLIMAX, turn=TURN_CAP)
    end_turn(g)  # turn 121 would start: a draw by the rules (terminated, not truncated)
    assert SPEC.end_reason(ended_as(g, DRAW)[None]).tolist() == [TURN_CAP_DRAW]


def _heart_loss_and_deck_out() -> tuple[np.ndarray, np.ndarray]:
    """Two final rows: player 1's empty heart broken in player 0's action phase (HB-V1), and player 0's empty deck at
    the end of its own turn (HB-V2)."""
    g = build({"lead": "Magma Tyrant", "charge": 1, "hand": [STOP]},
              {"lead": "Scorchmaw Brute:d30", "heart": [FILLER]}, step=ST_ACTION)
    do(g, "act", 0)
    pass_window(g)
    heart = ended_as(g, 0)
    g = build({"lead": "Harbor Warden:d20", "hand": [STOP], "deck_fill": 0}, {"lead": "Reefling Scout"},
              step=ST_CLIMAX)
    end_turn(g)
    return heart, ended_as(g, 1)


def test_HB_V1_V2_endings_deck_out_needs_the_losers_own_empty_deck_at_its_start_or_cleanup() -> None:
    """HB-V2/HB-V3 (the turn player loses with an empty deck at the start or the end of its own turn) against HB-V1
    (an empty heart broken): the loser of a broken heart is read as a deck-out only when all three hold. Its empty
    deck on the other player's turn, or in its action phase or a response window, or its own start with cards left,
    is still a heart loss; a deck-out loser whose turn it is not, with hearts left, fits neither rule."""
    heart, deck_out = _heart_loss_and_deck_out()
    L = SPEC.state_layout
    assert SPEC.end_reason(np.stack([heart, deck_out])).tolist() == [HEART_BROKEN, DECK_OUT]
    assert int(L.get(heart, "turn_player")) == 0 and int(L.get(heart, "heart_count")[1]) == 0
    rows = np.stack([heart] * 5 + [deck_out])
    L.get(rows, "deck_count")[0:4, 1] = 0  # the loser's deck is empty too...
    L.get(rows, "step")[0] = ST_START  # ... at a start of turn, but the other player's
    L.get(rows, "turn_player")[1:3] = 1  # ... on its own turn, but in the action phase or a response window
    L.get(rows, "step")[1:3] = (ST_ACTION, ST_WINDOW)
    L.get(rows, "step")[3] = ST_CLEANUP  # ... at an end of turn, but the other player's
    L.get(rows, "turn_player")[4] = 1  # its own start of turn, with cards left in its deck
    L.get(rows, "step")[4] = ST_START
    L.get(rows, "turn_player")[5] = 1  # player 0's empty deck on player 1's turn, its heart not empty: neither
    assert int(L.get(deck_out, "heart_count")[0]) > 0
    assert SPEC.end_reason(rows).tolist() == [HEART_BROKEN] * 5 + [-1]


def test_HB_V6_endings_a_header_that_does_not_fit_the_state_is_no_ending() -> None:
    """end_reason reads each ending from the state, not from the header alone, so that the random-play check
    (``random_endings``: every ended game is explained) would catch an engine that ended a game against the rules:
    a loss with hearts left and no deck-out, a draw without both losses that is not at the turn cap's start, or a
    forfeit at the cap, is no ending; the double loss and a deck-out stay what they are at the cap's start."""
    heart, deck_out = _heart_loss_and_deck_out()
    L = SPEC.state_layout
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout"}, step=ST_CLIMAX, turn=TURN_CAP)
    end_turn(g)
    cap = ended_as(g, DRAW)
    g = build({"lead": "Kiln Warden:d40", "hand": [STOP], "heart": []},
              {"lead": "Kiln Warden:d40", "heart": []}, step=ST_CLIMAX)
    field(g, "mod_hp")[0, inst_at(g, 0, 0)] = 20
    field(g, "mod_hp")[1, inst_at(g, 1, 0)] = 20
    end_turn(g)
    both = ended_as(g, DRAW)
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout"}, step=ST_CLIMAX, turn=TURN_CAP)
    forfeit_game(g.states[0], 1)
    forfeit = g.states[0].copy()
    assert SPEC.end_reason(np.stack([cap, both])).tolist() == [TURN_CAP_DRAW, BOTH_LOST]
    assert int(L.get(cap, "step")) == ST_START and int(cap[H_TURN]) >= TURN_CAP
    rows = np.stack([heart, cap, cap, forfeit, both, deck_out])
    L.get(rows, "heart_count")[0, 1] = 2  # a loss with hearts left, not a deck-out
    L.get(rows, "step")[1] = ST_CLEANUP  # a draw at the cap, but not at a start of turn
    rows[2, H_TURN] = TURN_CAP - 7  # a draw at a start of turn, before the cap
    L.get(rows, "step")[3] = ST_START  # a resignation at the cap's start
    L.get(rows, "step")[4] = ST_START  # both losses at the cap's start: still the double loss
    rows[4, H_TURN] = TURN_CAP
    L.get(rows, "step")[5] = ST_START  # a deck-out at the start of the cap's turn: still a deck-out
    L.get(rows, "turn_player")[5] = 0
    rows[5, H_TURN] = TURN_CAP
    assert SPEC.end_reason(rows).tolist() == [-1, -1, -1, -1, BOTH_LOST, DECK_OUT]


def test_HB_V6_endings_truncation_forfeits_and_live_games_are_not_endings() -> None:
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout"}, step=ST_CLIMAX)
    live = g.states[0].copy()
    g.states[0, H_DECISIONS] = DECISION_CAP - 1
    do(g, "pass")  # the decision cap, a backstop: truncated (eval counts truncation itself)
    assert g.states[0, H_STATUS] == TRUNCATED
    truncated = g.states[0].copy()
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout", "heart": []}, step=ST_CLIMAX)
    forfeit_game(g.states[0], 1)  # a resignation, even with an empty heart: no rule of the game ended it
    assert SPEC.end_reason(np.stack([live, truncated, g.states[0]])).tolist() == [-1, -1, -1]


def test_HB_endings_every_random_game_that_ends_by_the_rules_is_explained() -> None:
    codes = random_endings(SPEC, draw_codes=(BOTH_LOST, TURN_CAP_DRAW))  # 200 random games, checked (cardenvs.testing)
    assert (codes == HEART_BROKEN).any() and (codes == DECK_OUT).any()  # both losses occur in random play
