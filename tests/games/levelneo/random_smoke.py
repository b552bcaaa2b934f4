"""Random-play smoke run for levelneo (not a pytest file): ``python tests/games/levelneo/random_smoke.py [games]``.

Plays random legal games at batch 1024 through the kernels, checking after every decision that each card instance is
in exactly one zone, that a live game's player to act has a legal action and the other has none, and that every game
ends; prints game lengths, results and the kernels' decisions per second.
"""
from __future__ import annotations

import sys
import time

import numpy as np

from cardenvs.core.decks import pack_decks
from cardenvs.core.header import H_DECISIONS, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE
from cardenvs.core.invariants import conservation_errors
from cardenvs.games.levelneo import SPEC


def main(total: int = 10_000, batch: int = 1024, decks: tuple[str, str] | None = None, seed: int = 0) -> None:
    t0 = time.perf_counter()
    k = SPEC.kernels
    pool = SPEC.load_pool(None)
    names = SPEC.starter_decks()
    rng = np.random.default_rng(seed)
    layout = SPEC.state_layout
    starts = np.array([layout.offset(f.name) for f in layout.zones], dtype=np.int64)
    widths = np.array([f.shape[1] for f in layout.zones], dtype=np.int64)
    deck_at = layout.offset("deck_list")
    loaded = {n: SPEC.load_deck(n, pool) for n in names}

    def pairs(n: int) -> np.ndarray:
        return pack_decks([(loaded[decks[0]], loaded[decks[1]]) if decks else
                           (loaded[names[rng.integers(len(names))]], loaded[names[rng.integers(len(names))]])
                           for _ in range(n)], SPEC.max_deck)

    n = batch
    states = np.zeros((n, layout.size), dtype=np.int32)
    packed = pairs(n)
    next_seed = seed * 1_000_003
    seeds = np.arange(next_seed, next_seed + n, dtype=np.int64)
    next_seed += n
    mask = np.zeros((n, SPEC.num_actions), dtype=np.int8)
    other = np.zeros_like(mask)
    errors = np.zeros(n, dtype=np.int32)
    cons = np.zeros(n, dtype=np.int32)
    obs = np.zeros((n, SPEC.obs_dim), dtype=np.float32)
    tc = time.perf_counter()
    k.batch_reset(states, pool.tables, packed, seeds, np.ones(n, dtype=np.bool_))
    print(f"first reset (compile or cache load): {time.perf_counter() - tc:.1f}s")
    tc = time.perf_counter()
    k.batch_mask(states, pool.tables, states[:, H_TO_ACT].copy(), mask)
    k.batch_observe(states, pool.tables, states[:, H_TO_ACT].copy(), obs)
    probe = states.copy()
    k.batch_step(probe, pool.tables, probe[:, H_TO_ACT].copy(), mask.argmax(axis=1).astype(np.int32), errors)
    print(f"first mask+observe+step (compile or cache load): {time.perf_counter() - tc:.1f}s")
    finished = 0
    kernel_time = 0.0
    decisions = 0
    lengths, turns, winners, status = [], [], [], []
    started = n
    active = np.ones(n, dtype=np.bool_)  # rows still counted (we stop refilling after `total` starts)
    while finished < total:
        live = (states[:, H_STATUS] == LIVE) & active
        players = np.where(live, states[:, H_TO_ACT], -1).astype(np.int32)
        t1 = time.perf_counter()
        k.batch_mask(states, pool.tables, players, mask)
        t2 = time.perf_counter()
        if (mask[live].sum(axis=1) == 0).any():
            bad = np.flatnonzero(live & (mask.sum(axis=1) == 0))[0]
            raise AssertionError(f"empty mask in a live game\n{SPEC.render(states[bad], pool, None)}")
        opp = np.where(live, 1 - states[:, H_TO_ACT], -1).astype(np.int32)
        k.batch_mask(states, pool.tables, opp, other)
        assert other.sum() == 0, "the player not to act has a legal action"
        actions = (rng.random(mask.shape) * mask).argmax(axis=1).astype(np.int32)
        t3 = time.perf_counter()
        k.batch_step(states, pool.tables, players, actions, errors)
        t4 = time.perf_counter()
        if active.all():  # steady state only: the tail with few live rows measures call overhead
            kernel_time += (t2 - t1) + (t4 - t3)
            decisions += int(live.sum())
        assert errors[live].sum() == 0, "a legal action was refused"
        conservation_errors(states, deck_at, SPEC.max_deck, starts, widths, cons)
        if cons.any():
            bad = np.flatnonzero(cons)[0]
            raise AssertionError(f"conservation error {cons[bad]}\n{SPEC.render(states[bad], pool, None)}")
        done = active & (states[:, H_STATUS] != LIVE)
        if done.any():
            idx = np.flatnonzero(done)
            lengths += list(states[idx, H_DECISIONS])
            turns += list(states[idx, H_TURN])
            winners += list(states[idx, H_WINNER])
            status += list(states[idx, H_STATUS])
            finished += idx.size
            refill = np.zeros(n, dtype=np.bool_)
            take = idx[: max(0, total - started)]
            refill[take] = True
            active[idx[len(take):]] = False
            if take.size:
                packed[take] = pairs(take.size)
                seeds[take] = np.arange(next_seed, next_seed + take.size)
                next_seed += take.size
                started += take.size
                t5 = time.perf_counter()
                k.batch_reset(states, pool.tables, packed, seeds, refill)
                if active.all():
                    kernel_time += time.perf_counter() - t5
    lengths, turns, winners, status = map(np.array, (lengths, turns, winners, status))
    print(f"{finished} games in {time.perf_counter() - t0:.1f}s")
    print(f"decisions/game mean {lengths.mean():.1f} max {lengths.max()}  turns mean {turns.mean():.1f} max {turns.max()}")
    print(f"terminated {np.mean(status == 1):.3f} truncated {np.mean(status == 2):.3f}  "
          f"P0 {np.mean(winners == 0):.3f} P1 {np.mean(winners == 1):.3f} draw {np.mean(winners == 2):.3f}")
    print(f"kernel throughput (mask + step + resets, batch {batch}, steady state): "
          f"{decisions / kernel_time:,.0f} decisions/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
