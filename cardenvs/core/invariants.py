"""Numba checks of the invariants every ruleset must keep, generic over the state layout."""
from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(parallel=True, cache=True)
def conservation_errors(
    states: np.ndarray, deck_list_at: int, max_deck: int, zone_starts: np.ndarray, zone_widths: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[i] = 0`` when every card instance of both players is in exactly one zone of row ``i``.

    Non-zero codes: 1 an instance missing, 2 an instance in two places, 3 an id out of range, 4 a zone not compact
    (a card after an empty slot).
    """
    for i in prange(states.shape[0]):
        row = states[i]
        code = 0
        for p in range(2):
            seen = np.zeros(max_deck, dtype=np.int32)
            size = 0
            for j in range(max_deck):
                if row[deck_list_at + p * max_deck + j] >= 0:
                    size += 1
            for z in range(zone_starts.shape[0]):
                base = zone_starts[z] + p * zone_widths[z]
                gap = False
                for j in range(zone_widths[z]):
                    inst = row[base + j]
                    if inst < 0:
                        gap = True
                        continue
                    if gap and code == 0:
                        code = 4
                    if inst >= size:
                        code = 3
                    else:
                        seen[inst] += 1
            for j in range(size):
                if seen[j] == 0 and code == 0:
                    code = 1
                elif seen[j] > 1:
                    code = 2
        out[i] = code


__all__ = ["conservation_errors"]
