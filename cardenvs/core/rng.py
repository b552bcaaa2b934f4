"""Counter-based random numbers kept inside the game state.

Every game row begins with the core header (see :mod:`cardenvs.core.header`), which holds a 64-bit key (two int32
words) and a 32-bit counter. A draw hashes ``key + counter * golden`` with SplitMix64 and bumps the counter, so the
whole future of a game, its shuffles included, is a function of the row alone: copying a row snapshots the game,
and the same seed replays the same game on any batch size or thread count.
"""
from __future__ import annotations

import numpy as np
from numba import njit, uint64

from .header import H_RNG_COUNTER, H_RNG_KEY_HI, H_RNG_KEY_LO
from .jit import helper

_GOLDEN = uint64(0x9E3779B97F4A7C15)
_MIX1 = uint64(0xBF58476D1CE4E5B9)
_MIX2 = uint64(0x94D049BB133111EB)
_MASK32 = uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def splitmix64(x: np.uint64) -> np.uint64:
    z = x + _GOLDEN
    z = (z ^ (z >> uint64(30))) * _MIX1
    z = (z ^ (z >> uint64(27))) * _MIX2
    return z ^ (z >> uint64(31))


@helper
def rng_seed(row: np.ndarray, seed: np.int64) -> None:
    """Key the row's generator from a 64-bit seed and zero its counter."""
    key = splitmix64(uint64(seed))
    row[H_RNG_KEY_LO] = np.int32(np.uint32(key & _MASK32))
    row[H_RNG_KEY_HI] = np.int32(np.uint32(key >> uint64(32)))
    row[H_RNG_COUNTER] = 0


@helper
def rng_next(row: np.ndarray) -> np.uint64:
    """Next 64 random bits of this row's stream."""
    key = (uint64(np.uint32(row[H_RNG_KEY_LO]))) | (uint64(np.uint32(row[H_RNG_KEY_HI])) << uint64(32))
    counter = uint64(np.uint32(row[H_RNG_COUNTER]))
    row[H_RNG_COUNTER] = np.int32(np.uint32((counter + uint64(1)) & _MASK32))
    return splitmix64(key ^ (counter * _GOLDEN))


@helper
def rng_below(row: np.ndarray, n: int) -> int:
    """Uniform integer in ``[0, n)`` (multiply-shift on the top 32 bits; bias below 1e-9 for small n)."""
    bits = rng_next(row) >> uint64(32)
    return int((bits * uint64(n)) >> uint64(32))


@helper
def shuffle_slice(row: np.ndarray, start: int, count: int) -> None:
    """Fisher-Yates shuffle of ``row[start:start+count]`` in place."""
    for i in range(count - 1, 0, -1):
        j = rng_below(row, i + 1)
        tmp = row[start + i]
        row[start + i] = row[start + j]
        row[start + j] = tmp


__all__ = ["rng_below", "rng_next", "rng_seed", "shuffle_slice", "splitmix64"]
