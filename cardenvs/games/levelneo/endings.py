"""How a levelneo game ended, read from its final state (``eval``'s "how games end").

A game ends one of three ways (RULES.md): a Level Neo main wins a battle (LN-V1, checked at judgement), a player's
deck is empty at the check before a decision (LN-V2: that player loses), or both decks are empty at that check
(LN-V3: a draw). Each is read from what it leaves: a deck-out loser's deck is empty; a Level Neo winner's level zone
is full (level 5) while the loser still has deck cards (the win ends the game at its judgement, before the next deck
check). A game that ended otherwise (a forfeit: an illegal action under ``illegal_action="lose"``) has no ending.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.outcomes import final_outcomes

from .state import DECK_COUNT, LEVEL_CAP, LEVEL_COUNT

ENDINGS = (
    ("LN-V1", "a Level Neo main won a battle"),
    ("LN-V2", "the loser's deck ran out"),
    ("LN-V3", "both decks ran out at once (draw)"),
)
LEVEL_NEO, DECK_OUT, BOTH_DECKS_OUT = range(3)


def end_reason(states: np.ndarray) -> np.ndarray:
    """int8 [G]: each final state's ending (an index into ``ENDINGS``; -1 for a game not ended by the rules)."""
    game = final_outcomes(states)
    out = game.no_ending()
    loser_deck = game.of_loser(DECK_COUNT)
    out[game.won & (loser_deck != 0) & (game.of_winner(LEVEL_COUNT) == LEVEL_CAP)] = LEVEL_NEO
    out[game.won & (loser_deck == 0)] = DECK_OUT
    out[game.drawn] = BOTH_DECKS_OUT
    return out
