"""How a heartbreak game ended, read from its final state (``eval``'s "how games end").

A game ends four ways (RULES.md): a break on an empty heart (HB-V1, HB-H6), a turn player's empty deck at the start or
the end of its own turn (HB-V2, checked at the steps ``ST_START`` and ``ST_CLEANUP``, HB-V3), both players losing at
once (HB-V6: a draw), or the turn cap (HB-V6: a draw when turn 121 would start; status terminated, not truncated, so
it is an ending here). Every loss sets the player's ``lost`` flag, and the game ends at once (HB-V5), so the final
state still holds the step it ended at: a loser whose deck is empty, who is the turn player, at ``ST_START`` or
``ST_CLEANUP``, lost by deck-out; any other loser has an empty heart that was broken. A draw with both ``lost`` flags
set is the double loss; one with neither, at ``ST_START`` with ``turn`` at ``TURN_CAP``, is the turn cap.

One overlap the final state cannot settle: a state-based KO at the turn change (HB-B10: a buff ends with the turn)
may break the empty heart of the player whose turn starts, before its deck is checked. If that player's deck is empty
too, both losses held at the same forced step with no decision between them, and the state is read as deck-out.
A finished game whose loser has no ``lost`` flag (a forfeit) is no ending of the rules: -1.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.header import H_TURN
from cardenvs.core.outcomes import final_outcomes

from .state import DECK_COUNT, HEART_COUNT, LOST, ST_CLEANUP, ST_START, STEP, TURN_CAP, TURN_PLAYER

ENDINGS = (
    ("HB-V1", "the loser's empty heart was broken"),
    ("HB-V2", "the loser's deck was empty at the start or end of its own turn"),
    ("HB-V6", "both players lost at once (draw)"),
    ("HB-V6", "the turn cap ended the game (draw)"),
)
HEART_BROKEN, DECK_OUT, BOTH_LOST, TURN_CAP_DRAW = range(4)


def end_reason(states: np.ndarray) -> np.ndarray:
    """int8 [G]: each final state's ending (an index into ``ENDINGS``; -1 for a game not ended by the rules)."""
    game = final_outcomes(states)
    out = game.no_ending()
    lost = game.both(LOST) != 0
    step = game.states[:, STEP]
    loser_lost = game.won & (game.of_loser(LOST) != 0)
    deck_out = ((game.of_loser(DECK_COUNT) == 0) & (game.states[:, TURN_PLAYER] == game.loser)
                & ((step == ST_START) | (step == ST_CLEANUP)))
    out[loser_lost & (game.of_loser(HEART_COUNT) == 0)] = HEART_BROKEN
    out[loser_lost & deck_out] = DECK_OUT  # after HB-V1: the overlap in the docstring is read as deck-out
    out[game.drawn & lost.all(axis=1)] = BOTH_LOST
    at_cap = (step == ST_START) & (game.states[:, H_TURN] >= TURN_CAP)
    out[game.drawn & ~lost.any(axis=1) & at_cap] = TURN_CAP_DRAW
    return out
