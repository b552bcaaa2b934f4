"""The skeleton state row: one int32 row per game, declared once as a :class:`~cardenvs.core.layout.Layout`.

Card instances: instance ``i`` of player ``p`` is the card ``deck_list[p, i]``. Zones (``zone=True`` fields) hold
instance ids, compact (-1 after the last one); the deck is a stack whose top is its *last* entry. Kernel modules read
this module through its namespace (``from . import state as S``; ``row[S.HAND + p * S.MAX_DECK + i]``): the offsets
are frozen into the compiled kernels, and the on-disk cache is keyed on this file too.
"""
from __future__ import annotations

from cardenvs.core.header import HEADER
from cardenvs.core.layout import Layout, card_zones, fields

# ---- sizes and caps (RULES.md) -------------------------------------------------------------------------------------
DECK_SIZE = 12  # SK-D1: a deck holds exactly 12 cards
MAX_DECK = DECK_SIZE  # every zone is this wide, so no zone can overflow
HAND_SIZE = 3  # SK-S2: each player starts with 3 cards and draws back up after each trick
TARGET_POINTS = 5  # SK-E1
TURN_CAP = DECK_SIZE  # one trick per turn: at most 12 tricks can be played, so the cap is never reached
DECISION_CAP = 2 * DECK_SIZE + 2  # the same bound counted in decisions (a backstop for the kernel template)

# card_zones: deck_list, the zones (a ``(name, width)`` zone takes the docs every game gives it), then their counts
STATE = Layout("skeleton_state", HEADER + card_zones(
    MAX_DECK,
    ("deck", MAX_DECK),
    ("hand", MAX_DECK),
    ("table", MAX_DECK, "the card each player has played to the current trick (at most one)",
     "cards on the table (0 or 1)"),
    ("discard", MAX_DECK, "discard pile, instance ids", "cards in each discard pile"),
) + fields(
    ("points", (2,), "each player's points"),
    ("leader", (), "the player who plays first to the current trick"),
))
DECK_LIST, DECK, HAND, TABLE, DISCARD, DECK_COUNT, HAND_COUNT, TABLE_COUNT, DISCARD_COUNT, POINTS, LEADER = (
    STATE.offsets("deck_list", "deck", "hand", "table", "discard", "deck_count", "hand_count", "table_count",
                  "discard_count", "points", "leader"))
STATE_SIZE = STATE.size
