"""Zone primitives every game's kernels share: a zone is ``cap`` slots per player at offset ``zone`` of the state
row (instance ids, -1 past the count), its count at ``count + p``. Kept compact: entries past the count are -1."""
from __future__ import annotations

import numpy as np

from .jit import helper

__all__ = ["ZONE_EMPTY", "ZONE_FULL", "deal_deck_lists", "zone_add", "zone_draw", "zone_find", "zone_pop", "zone_push",
           "zone_remove"]

#: what :func:`zone_draw` returns instead of an instance when nothing moves
ZONE_EMPTY, ZONE_FULL = -1, -2


@helper
def zone_push(row: np.ndarray, zone: int, count: int, cap: int, p: int, inst: int) -> None:
    """Append ``inst`` to player ``p``'s zone."""
    n = row[count + p]
    row[zone + p * cap + n] = inst
    row[count + p] = n + 1


@helper
def zone_remove(row: np.ndarray, zone: int, count: int, cap: int, p: int, idx: int) -> int:
    """Remove entry ``idx`` keeping the zone compact; returns the instance."""
    base = zone + p * cap
    n = row[count + p]
    inst = row[base + idx]
    for j in range(idx, n - 1):
        row[base + j] = row[base + j + 1]
    row[base + n - 1] = -1
    row[count + p] = n - 1
    return inst


@helper
def zone_find(row: np.ndarray, zone: int, count: int, cap: int, p: int, inst: int) -> int:
    """The index of ``inst`` in player ``p``'s zone, or -1."""
    base = zone + p * cap
    for j in range(row[count + p]):
        if row[base + j] == inst:
            return j
    return -1


@helper
def zone_pop(row: np.ndarray, zone: int, count: int, cap: int, p: int) -> int:
    """Remove and return the last entry of player ``p``'s zone (a deck's top card), or -1 when the zone is empty."""
    n = row[count + p]
    if n == 0:
        return -1
    return zone_remove(row, zone, count, cap, p, n - 1)


@helper
def zone_add(row: np.ndarray, zone: int, count: int, cap: int, p: int, inst: int) -> bool:
    """Append ``inst`` when player ``p``'s zone has room (True); False, the row unchanged, when it is full."""
    if row[count + p] >= cap:
        return False
    zone_push(row, zone, count, cap, p, inst)
    return True


@helper
def zone_draw(row: np.ndarray, src: int, src_count: int, src_cap: int, dst: int, dst_count: int, dst_cap: int,
              p: int) -> int:
    """A draw: the last entry of player ``p``'s ``src`` zone (a deck's top card) to the end of its ``dst`` zone (the
    hand). Returns the instance moved; ``ZONE_EMPTY`` when ``src`` is empty and ``ZONE_FULL`` when ``dst`` has no
    room, the row unchanged: where a card that does not fit goes is the game's rule."""
    n = row[src_count + p]
    if n == 0:
        return ZONE_EMPTY
    if row[dst_count + p] >= dst_cap:
        return ZONE_FULL
    inst = zone_remove(row, src, src_count, src_cap, p, n - 1)
    zone_push(row, dst, dst_count, dst_cap, p, inst)
    return inst


@helper
def deal_deck_lists(row: np.ndarray, decks: np.ndarray, deck_list: int, deck: int, deck_count: int, size: int) -> None:
    """At reset, each player's deck file into the row: ``decks[p]`` (card ids, -1 in an empty slot) becomes the deck
    list at ``deck_list + p * size`` as it is, and the deck zone at ``deck + p * size`` holds the instances (indices
    into the list) of its real entries in file order, counted at ``deck_count + p``; the deck zone's other slots are
    left as they are (the caller's reset has emptied them)."""
    for p in range(2):
        n = 0
        for i in range(size):
            card = decks[p, i]
            row[deck_list + p * size + i] = card
            if card >= 0:
                row[deck + p * size + n] = i
                n += 1
        row[deck_count + p] = n
