"""The skeleton in words: action names, the text board and its legend."""
from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE

from . import state as S
from .actions import A_PLAY, NUM_ACTIONS

LEGEND = """skeleton board legend
Header "skeleton trick N | player_0's view": the trick number and whose view it is ("full view": every hand).
"P0 (leads): points X, deck D, hand: ...": a player's points (5 win), cards left in the deck, and the hand as
  "Name(power)" with "+N" for a card whose win scores N more; a hand you may not see shows its size only.
"table: ...": the card each player has played to the current trick ("-": not yet).
Actions: "play slot i: Name(power)" plays the card in hand slot i."""


def _card(row: np.ndarray, pool: Any, p: int, inst: int) -> str:
    card = pool.cards[int(row[S.DECK_LIST + p * S.MAX_DECK + inst])]
    bonus = sum(e["amount"] for e in card["effects"] if e["op"] == "bonus")
    return f"{card['name']}({card['power']}{f', +{bonus}' if bonus else ''})"


def _zone(row: np.ndarray, pool: Any, p: int, zone: int, count: int) -> list[str]:
    return [_card(row, pool, p, int(row[zone + p * S.MAX_DECK + i])) for i in range(int(row[count + p]))]


def action_name(row: np.ndarray, pool: Any, player: int, action: int) -> str:
    """``play slot i: Name(power)`` (the card named when the slot holds one)."""
    if not 0 <= action < NUM_ACTIONS:
        return f"action {action} (out of range)"
    slot = action - A_PLAY
    hand = _zone(row, pool, player, S.HAND, S.HAND_COUNT)
    return f"play slot {slot}: {hand[slot]}" if slot < len(hand) else f"play slot {slot} (empty)"


def render(row: np.ndarray, pool: Any, viewer: int | None = None) -> str:
    """The board as ``viewer`` may see it (None: everything)."""
    view = "full view" if viewer is None else f"player_{viewer}'s view"
    lines = [f"skeleton trick {int(row[H_TURN])} | {view}"]
    if row[H_STATUS] != LIVE:
        lines[0] += f" -- game over: {'finished' if row[H_STATUS] == 1 else 'truncated'}, winner {int(row[H_WINNER])}"
    for p in range(2):
        lead = " (leads)" if row[S.LEADER] == p else ""
        you = " (you)" if viewer == p else ""
        if viewer is None or viewer == p:
            hand = "hand: " + (" ".join(f"{i}:{c}" for i, c in enumerate(_zone(row, pool, p, S.HAND, S.HAND_COUNT)))
                               or "-")
        else:
            hand = f"hand: {int(row[S.HAND_COUNT + p])} cards"
        lines.append(f"P{p}{you}{lead}: points {int(row[S.POINTS + p])}, deck {int(row[S.DECK_COUNT + p])}, {hand}")
    table = [(_zone(row, pool, p, S.TABLE, S.TABLE_COUNT) or ["-"])[0] for p in range(2)]
    lines.append(f"table: P0 {table[0]}, P1 {table[1]}")
    if row[H_STATUS] == LIVE:
        lines.append(f"to act: player_{int(row[H_TO_ACT])}")
    return "\n".join(lines)
