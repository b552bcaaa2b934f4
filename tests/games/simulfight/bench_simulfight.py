"""Throughput of the simulfight kernels under random play (not a test): python bench_simulfight.py [N] [steps]."""
from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit, prange

t0 = time.perf_counter()
from cardenvs.games.simulfight import SPEC  # noqa: E402
from cardenvs.games.simulfight.observe import batch_observe  # noqa: E402
from cardenvs.games.simulfight.rules import batch_mask, batch_reset, batch_step  # noqa: E402
from cardenvs.core.decks import pack_decks  # noqa: E402


@njit(parallel=True, cache=True)
def pick(mask, salt, out):
    for i in prange(mask.shape[0]):
        n = 0
        for a in range(mask.shape[1]):
            n += mask[i, a]
        k = ((i * 1000003 + salt * 7919 + 12345) * 2654435761 % 4294967296) % max(n, 1)
        out[i] = 0
        for a in range(mask.shape[1]):
            if mask[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    steps = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    pool = SPEC.load_pool(None)
    deck = SPEC.load_deck(None, pool)
    decks = pack_decks([(deck, deck)] * n, SPEC.max_deck)
    states = np.zeros((n, SPEC.state_layout.size), np.int32)
    mask = np.zeros((n, SPEC.num_actions), np.int8)
    obs = np.zeros((n, SPEC.obs_dim), np.float32)
    acts = np.zeros(n, np.int32)
    errors = np.zeros(n, np.int32)
    c0 = time.perf_counter()
    batch_reset(states, pool.tables, decks, np.arange(n, dtype=np.int64), np.ones(n, np.bool_))
    players = states[:, 1].copy()
    batch_mask(states, pool.tables, players, mask)
    batch_observe(states, pool.tables, players, obs)
    pick(mask, 0, acts)
    batch_step(states, pool.tables, players, acts, errors)
    c1 = time.perf_counter()
    print(f"import {c0 - t0:.1f}s, first calls (compile or cache load) {c1 - c0:.1f}s")
    seed = n
    t_step = t_mask = t_obs = 0.0
    decisions = 0
    games = 0
    for s in range(steps):
        done = states[:, 0] != 0
        if done.any():
            games += int(done.sum())
            batch_reset(states, pool.tables, decks, np.arange(seed, seed + n, dtype=np.int64), done)
            seed += n
        players = states[:, 1].copy()
        a = time.perf_counter()
        batch_mask(states, pool.tables, players, mask)
        b = time.perf_counter()
        batch_observe(states, pool.tables, players, obs)
        c = time.perf_counter()
        pick(mask, s, acts)
        d = time.perf_counter()
        batch_step(states, pool.tables, players, acts, errors)
        e = time.perf_counter()
        assert not errors.any()
        t_mask += b - a
        t_obs += c - b
        t_step += e - d
        decisions += n
    print(f"N={n}: {decisions} decisions, {games} games finished; step {decisions / t_step / 1e6:.2f} M/s, "
          f"mask {decisions / t_mask / 1e6:.2f} M/s, observe {decisions / t_obs / 1e6:.2f} M/s, "
          f"step+mask {decisions / (t_step + t_mask) / 1e6:.2f} M/s, all three {decisions / (t_step + t_mask + t_obs) / 1e6:.2f} M/s")


if __name__ == "__main__":
    main()
