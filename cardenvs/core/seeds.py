"""Seeds given by people and scripts, as the 64 bits the engine and the agents take.

Kept apart from :mod:`cardenvs.core.rng` (the in-kernel generator): the kernels' compile cache is keyed on every
source they import, so Python-side seed helpers live where no kernel reads them.
"""
from __future__ import annotations

import numpy as np

from .errors import BadArgumentError

__all__ = ["seed_bits"]

_M64 = (1 << 64) - 1


def seed_bits(seed: int) -> int:
    """A seed as 64 bits: itself in [-2**63, 2**64) (negative ones two's complement), any other Python int through
    SeedSequence, so that 2**64 is not 0."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise BadArgumentError(f"seed must be an integer, got {seed!r}")
    seed = int(seed)
    if -(1 << 63) <= seed < (1 << 64):
        return seed & _M64
    return int(np.random.SeedSequence([2 if seed > 0 else 3, abs(seed)]).generate_state(1, dtype=np.uint64)[0])
