"""The fields every game row starts with, read by the generic batch, env and checker code.

A game's state layout is ``Layout(name, HEADER + its own fields)``; these offsets are therefore the same in every
game, which is what lets one AEC env, one vector env and one checker serve all rulesets.
"""
from __future__ import annotations

from .layout import fields

HEADER = fields(
    ("status", (), "0 live, 1 terminated (someone won or a draw), 2 truncated at the cap"),
    ("to_act", (), "player whose decision is pending (sequential order; -1 when the game is over)"),
    ("needs", (), "bit p set while player p has a decision pending (both bits in simultaneous phases)"),
    ("winner", (), "-1 while live or truncated, 0 or 1 the winner, 2 a draw"),
    ("decisions", (), "decisions taken so far in this game"),
    ("turn", (), "turn (or round) number, for the truncation cap"),
    ("rng_key_lo", (), "random key, low 32 bits"),
    ("rng_key_hi", (), "random key, high 32 bits"),
    ("rng_counter", (), "draws taken from the key so far"),
)
(H_STATUS, H_TO_ACT, H_NEEDS, H_WINNER, H_DECISIONS, H_TURN, H_RNG_KEY_LO, H_RNG_KEY_HI, H_RNG_COUNTER) = range(9)
HEADER_SIZE = 9

LIVE, TERMINATED, TRUNCATED = 0, 1, 2
NO_WINNER, DRAW = -1, 2


__all__ = [
    "DRAW", "H_DECISIONS", "H_NEEDS", "H_RNG_COUNTER", "H_RNG_KEY_HI", "H_RNG_KEY_LO", "H_STATUS", "H_TO_ACT",
    "H_TURN", "H_WINNER", "HEADER", "HEADER_SIZE", "LIVE", "NO_WINNER", "TERMINATED", "TRUNCATED"
]
