"""The skeleton's observation: what player ``p`` may see, as float32 (the ``OBS`` layout; RULES.md's table).

Visible: your hand, both cards on the table, both scores, how many cards each deck and the opponent's hand hold.
Never: the opponent's hand or either deck's order (``hide`` re-deals exactly those).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE
from cardenvs.core.jit import helper
from cardenvs.core.layout import Layout, fields

from . import state as S
from .cards import C_POWER
from .rules import card_of, resolve_effects

CARD = 3  # a card's block: present, power / 9, bonus / 3
OBS = Layout("skeleton_obs", fields(
    ("my_hand", (S.HAND_SIZE, CARD), "my hand by slot (the slot the play action names): present, power/9, bonus/3"),
    ("my_table", (CARD,), "the card I played to this trick (same block)"),
    ("opp_table", (CARD,), "the card the opponent played to this trick (same block)"),
    ("points", (2,), "my points / 5, the opponent's points / 5"),
    ("counts", (4,), "my deck / 12, the opponent's deck / 12, my hand / 3, the opponent's hand / 3"),
    ("turn", (), "trick number / 12"),
    ("leading", (), "1 when I lead this trick"),
    ("my_turn", (), "1 when the decision is mine"),
), dtype_scalar=np.float32)
O_MY_HAND, O_MY_TABLE, O_OPP_TABLE, O_POINTS, O_COUNTS, O_TURN, O_LEADING, O_MY_TURN = OBS.offsets(
    "my_hand", "my_table", "opp_table", "points", "counts", "turn", "leading", "my_turn")


@helper
def write_card(row: np.ndarray, tables, p: int, inst: int, out: np.ndarray, at: int) -> None:
    card = card_of(row, p, inst)
    out[at] = 1.0
    out[at + 1] = tables.cards[card, C_POWER] / 9.0
    out[at + 2] = resolve_effects(row, tables, p, card) / 3.0


@helper
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    """Player ``p``'s view of ``row`` into ``out``; zeros for ``p < 0`` (nobody to act)."""
    out[:] = 0.0
    if p < 0:
        return
    o = 1 - p
    for i in range(row[S.HAND_COUNT + p]):
        write_card(row, tables, p, row[S.HAND + p * S.MAX_DECK + i], out, O_MY_HAND + i * CARD)
    if row[S.TABLE_COUNT + p] > 0:
        write_card(row, tables, p, row[S.TABLE + p * S.MAX_DECK], out, O_MY_TABLE)
    if row[S.TABLE_COUNT + o] > 0:
        write_card(row, tables, o, row[S.TABLE + o * S.MAX_DECK], out, O_OPP_TABLE)
    out[O_POINTS] = row[S.POINTS + p] / 5.0
    out[O_POINTS + 1] = row[S.POINTS + o] / 5.0
    out[O_COUNTS] = row[S.DECK_COUNT + p] / 12.0
    out[O_COUNTS + 1] = row[S.DECK_COUNT + o] / 12.0
    out[O_COUNTS + 2] = row[S.HAND_COUNT + p] / 3.0
    out[O_COUNTS + 3] = row[S.HAND_COUNT + o] / 3.0
    out[O_TURN] = row[H_TURN] / 12.0
    out[O_LEADING] = 1.0 if row[S.LEADER] == p else 0.0
    out[O_MY_TURN] = 1.0 if row[H_STATUS] == LIVE and row[H_TO_ACT] == p else 0.0


def hide(row: np.ndarray, viewer: int, rng: np.random.Generator, pool: Any = None) -> np.ndarray:
    """A copy of ``row`` with what ``viewer`` cannot know re-dealt: the opponent's hand and deck pooled, shuffled and
    dealt back with the same sizes, and the viewer's own deck order shuffled."""
    out = np.array(row, dtype=np.int32, copy=True)
    opp = 1 - viewer
    hand_at, deck_at = S.HAND + opp * S.MAX_DECK, S.DECK + opp * S.MAX_DECK
    hand_n, deck_n = int(out[S.HAND_COUNT + opp]), int(out[S.DECK_COUNT + opp])
    hidden = np.concatenate([out[hand_at:hand_at + hand_n], out[deck_at:deck_at + deck_n]])
    rng.shuffle(hidden)
    out[hand_at:hand_at + hand_n] = hidden[:hand_n]
    out[deck_at:deck_at + deck_n] = hidden[hand_n:]
    own_at, own_n = S.DECK + viewer * S.MAX_DECK, int(out[S.DECK_COUNT + viewer])
    own = out[own_at:own_at + own_n].copy()
    rng.shuffle(own)
    out[own_at:own_at + own_n] = own
    return out
