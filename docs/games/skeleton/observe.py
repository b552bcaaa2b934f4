"""The skeleton's observation: what player ``p`` may see, as a compact int8 row (the ``OBS`` layout; RULES.md's table).

Visible: your hand, both cards on the table, both scores, how many cards each deck and the opponent's hand hold.
Never: the opponent's hand or either deck's order (``hide`` re-deals exactly those).

Compact (the worked example of issue 41): every entry is a small integer stored as int8, and a field's ``divide_by``
(a card block's, for the card fields) says what the float view divides it by: power 7 is stored as 7 and read as
7 / 9, what the float32 observation held. ``SPEC.float_observation(rows)`` is that float view; the envs give it with
``obs_format="float32"``. The kernel writes integers only: ``check_game``'s range guard fails on a value int8 cannot
hold (or a fraction).
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

#: one card: present, power / 9, bonus / 3
CARD_BLOCK = Layout("skeleton_card", fields(
    ("present", (), "1 when a card is there"),
    ("power", (), "power / 9", {"divide_by": 9}),
    ("bonus", (), "bonus / 3", {"divide_by": 3}),
), dtype_scalar=np.int8)
CARD = CARD_BLOCK.size
OBS = Layout("skeleton_obs", fields(
    ("my_hand", (S.HAND_SIZE, CARD), "my hand by slot (the slot the play action names): present, power/9, bonus/3",
     {"block": CARD_BLOCK}),
    ("my_table", (CARD,), "the card I played to this trick (same block)", {"block": CARD_BLOCK}),
    ("opp_table", (CARD,), "the card the opponent played to this trick (same block)", {"block": CARD_BLOCK}),
    ("points", (2,), "my points / 5, the opponent's points / 5", {"divide_by": 5}),
    ("decks", (2,), "my deck / 12, the opponent's deck / 12", {"divide_by": 12}),
    ("hands", (2,), "my hand / 3, the opponent's hand / 3", {"divide_by": 3}),
    ("turn", (), "trick number / 12", {"divide_by": 12}),
    ("leading", (), "1 when I lead this trick"),
    ("my_turn", (), "1 when the decision is mine"),
), dtype_scalar=np.int8)
O_MY_HAND, O_MY_TABLE, O_OPP_TABLE, O_POINTS, O_DECKS, O_HANDS, O_TURN, O_LEADING, O_MY_TURN = OBS.offsets(
    "my_hand", "my_table", "opp_table", "points", "decks", "hands", "turn", "leading", "my_turn")


@helper
def write_card(row: np.ndarray, tables, p: int, inst: int, out: np.ndarray, at: int) -> None:
    card = card_of(row, p, inst)
    out[at] = 1
    out[at + 1] = tables.cards[card, C_POWER]
    out[at + 2] = resolve_effects(row, tables, p, card)


@helper
def observe_row(row: np.ndarray, tables, p: int, out: np.ndarray) -> None:
    """Player ``p``'s view of ``row`` into ``out`` (stored integers: the layout's divisors scale them); zeros for
    ``p < 0`` (nobody to act)."""
    out[:] = 0
    if p < 0:
        return
    o = 1 - p
    for i in range(row[S.HAND_COUNT + p]):
        write_card(row, tables, p, row[S.HAND + p * S.MAX_DECK + i], out, O_MY_HAND + i * CARD)
    if row[S.TABLE_COUNT + p] > 0:
        write_card(row, tables, p, row[S.TABLE + p * S.MAX_DECK], out, O_MY_TABLE)
    if row[S.TABLE_COUNT + o] > 0:
        write_card(row, tables, o, row[S.TABLE + o * S.MAX_DECK], out, O_OPP_TABLE)
    out[O_POINTS] = row[S.POINTS + p]
    out[O_POINTS + 1] = row[S.POINTS + o]
    out[O_DECKS] = row[S.DECK_COUNT + p]
    out[O_DECKS + 1] = row[S.DECK_COUNT + o]
    out[O_HANDS] = row[S.HAND_COUNT + p]
    out[O_HANDS + 1] = row[S.HAND_COUNT + o]
    out[O_TURN] = row[H_TURN]
    out[O_LEADING] = 1 if row[S.LEADER] == p else 0
    out[O_MY_TURN] = 1 if row[H_STATUS] == LIVE and row[H_TO_ACT] == p else 0


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
