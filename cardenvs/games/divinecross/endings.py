"""How a divinecross game ended, read from its final state (``eval``'s "how games end").

A game ends at a KO check (``board.check_ko``), which tests both players at once (RULES.md): a player with a third
card in the KO Zone loses (DC-V1), a player whose Main Unit was KO'd with no Standby Unit to move up loses (DC-O7),
and both players losing at the same check is a draw (DC-V3). The check leaves what it found in the final state: the
loser's ``ko_count`` is 3 or more, or its ``main`` is empty (-1) with ``standby_count`` 0. A loser meeting both (its
Main Unit was the third card and no Standby Unit was left) is read as DC-V1, the rule that counts the KO Zone.
DC-V2 (every KO counts: deck-out, poison, recoil) names no ending of its own: a KO by deck-out damage ends the game
through DC-V1 or DC-O7 like any other KO, and an empty deck is never a loss by itself (DC-T4). A finished game whose
loser meets neither condition (a forfeit) is no ending of the rules: -1.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.outcomes import final_outcomes

from .state import KO_COUNT, KO_LIMIT, MAIN, STANDBY_COUNT

ENDINGS = (
    ("DC-V1", "the loser's third card went to its KO Zone"),
    ("DC-O7", "the loser's Main Unit was KO'd with no Standby Unit to move up"),
    ("DC-V3", "both players lost at the same KO check (draw)"),
)
THIRD_KO, NO_UNIT_LEFT, BOTH_LOST = range(3)


def end_reason(states: np.ndarray) -> np.ndarray:
    """int8 [G]: each final state's ending (an index into ``ENDINGS``; -1 for a game not ended by the rules)."""
    game = final_outcomes(states)
    out = game.no_ending()
    # [G, 2]: the two loss conditions check_ko tests, per player
    third_ko = game.both(KO_COUNT) >= KO_LIMIT
    no_unit = (game.both(MAIN) < 0) & (game.both(STANDBY_COUNT) == 0)
    out[game.won & no_unit[game.rows, game.loser]] = NO_UNIT_LEFT
    out[game.won & third_ko[game.rows, game.loser]] = THIRD_KO  # after DC-O7: a loser meeting both is read as DC-V1
    out[game.drawn & (third_ko | no_unit).all(axis=1)] = BOTH_LOST
    return out
