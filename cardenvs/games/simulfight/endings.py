"""How a simulfight game ended, read from its final state (``eval``'s "how games end").

Simulfight has one victory rule, SF-E2 (RULES.md; the game has no ``-V`` rows): after a Defend or Attack phase's
discards, once a player is at 0 health or less the game ends, the higher health wins (even negative) and equal health
is a draw. Both players' effects land together at the end of a phase (SF-E5), so a game can end three ways, told
apart by the final ``health`` of both players (nothing changes it after the check): the loser alone fell to 0 or
less; both fell and the winner kept the higher health; both fell to the same health (a draw). A finished game whose
health does not fit its winner (a forfeit) is no ending of the rules: -1.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.outcomes import final_outcomes

from .state import HEALTH

ENDINGS = (
    ("SF-E2", "the loser's health fell to 0 or less, the winner's stayed above 0"),
    ("SF-E2", "both fell to 0 or less, the higher health won"),
    ("SF-E2", "both fell to 0 or less with equal health (draw)"),
)
KNOCKOUT, BOTH_DOWN, EVEN_HEALTH = range(3)


def end_reason(states: np.ndarray) -> np.ndarray:
    """int8 [G]: each final state's ending (an index into ``ENDINGS``; -1 for a game not ended by the rules)."""
    game = final_outcomes(states)
    out = game.no_ending()
    mine, theirs = game.of_winner(HEALTH), game.of_loser(HEALTH)
    beaten = game.won & (theirs <= 0) & (mine > theirs)  # SF-E2: the check needs a player at 0 or less
    out[beaten] = KNOCKOUT
    out[beaten & (mine <= 0)] = BOTH_DOWN  # the winner fell too: the higher health won
    health = game.both(HEALTH)
    out[game.drawn & (health[:, 0] == health[:, 1]) & (health[:, 0] <= 0)] = EVEN_HEALTH
    return out
