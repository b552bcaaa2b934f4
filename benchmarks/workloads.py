"""The timed loops for cardenvs games and the Numba ceiling. Each ``*_workload`` returns ``run(n) -> decisions``.

Every loop does, per call: sample a random legal action from the current mask with :func:`masked_uniform`, apply
it, then compute the observation and the mask of the player to act next (what an RL loop needs before its next
action). Finished games restart inside the loop (BatchGame ``autoreset=True``), so the batch stays full.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cardenvs.core.header import H_STATUS, H_TO_ACT, LIVE

from .common import masked_uniform

Run = Callable[[int], int]


def resolve_spec(game: Any):
    """A registered game's GameSpec, or the ceiling's for the name ``"ceiling"``."""
    if isinstance(game, str) and game == "ceiling":
        from .ceiling import SPEC

        return SPEC
    from cardenvs.core.batch import get_spec

    return get_spec(game)


def batch_workload(game: Any, batch: int, seed: int = 0, fused: bool = True) -> Run:
    """The batch core with autoreset on: ``BatchGame.play`` (step + observation + mask of the players to act next,
    one fused kernel where the game has one), or with ``fused=False`` the separate ``step``, ``observe`` and
    ``legal_mask`` calls."""
    from cardenvs.core.batch import BatchGame

    bg = BatchGame(resolve_spec(game), batch, seed=seed, autoreset=True)
    rng = np.random.default_rng(seed)
    players = bg.to_act.copy()
    bg.observe(players)
    mask = bg.legal_mask(players)

    def run(n: int) -> int:
        nonlocal players, mask
        decisions = 0
        for _ in range(n):
            actions = masked_uniform(mask, rng)
            decisions += int(np.count_nonzero(players >= 0))
            if fused:
                _, _, mask = bg.play(actions, players=players)
                players = bg.to_act.copy()
            else:
                bg.step(actions, players=players)
                players = bg.to_act.copy()
                bg.observe(players)
                mask = bg.legal_mask(players)
        return decisions

    return run


def aec_workload(game: Any, seed: int = 0) -> Run:
    """The single PettingZoo AEC env through ``agent_iter`` / ``last`` / ``step`` (the PettingZoo user's loop)."""
    from cardenvs.core.aec import make_env

    env = make_env(resolve_spec(game))
    return pettingzoo_loop(env, seed)


def pettingzoo_loop(env: Any, seed: int = 0) -> Run:
    """``run(n)``: n decisions of the standard AEC loop, resetting when a game ends (the reset is timed too)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def run(n: int) -> int:
        done = 0
        while done < n:
            for _agent in env.agent_iter():
                obs, reward, term, trunc, info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                env.step(int(masked_uniform(obs["action_mask"][None, :], rng)[0]))
                done += 1
                if done >= n:
                    break
            else:  # every agent is done: a new game
                env.reset()
        return done

    return run


def vec_workload(game: Any, num_envs: int, seed: int = 0) -> Run:
    """The SB3 VecEnv with the random opponent seat: learner decisions per second (the opponent's are inside)."""
    import cardenvs

    env = cardenvs.make_vec(game if isinstance(game, str) else game.name, num_envs, opponent="random", seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)

    def run(n: int) -> int:
        for _ in range(n):
            env.step(masked_uniform(env.action_masks(), rng))
        return n * num_envs

    return run


def ceiling_raw_workload(batch: int, seed: int = 0, serial: bool = False) -> Run:
    """The ceiling game's four prange kernels called directly: the least Python a batch step can have
    (``serial=True``: the same loops compiled without prange)."""
    from cardenvs.core.decks import pack_decks

    from .ceiling import POOL, PRANGE_KERNELS, SPEC, STARTER

    batch_reset, batch_step, batch_observe, batch_mask = (SPEC.kernels if serial else PRANGE_KERNELS)[:4]

    tables = POOL.tables
    states = np.zeros((batch, SPEC.state_layout.size), dtype=np.int32)
    decks = pack_decks([(STARTER, STARTER)] * batch, SPEC.max_deck)
    seeds = seed + np.arange(batch, dtype=np.int64)
    batch_reset(states, tables, decks, seeds, np.ones(batch, dtype=np.bool_))
    obs = np.zeros((batch, SPEC.obs_dim), dtype=SPEC.obs_dtype)
    mask = np.zeros((batch, SPEC.num_actions), dtype=np.int8)
    errors = np.zeros(batch, dtype=np.int32)
    rng = np.random.default_rng(seed)
    players = states[:, H_TO_ACT].copy()
    batch_observe(states, tables, players, obs)
    batch_mask(states, tables, players, mask)

    def run(n: int) -> int:
        nonlocal players
        for _ in range(n):
            actions = masked_uniform(mask, rng)
            batch_step(states, tables, players, actions, errors)
            done = states[:, H_STATUS] != LIVE
            if done.any():
                seeds[done] += batch
                batch_reset(states, tables, decks, seeds, done)
            players = states[:, H_TO_ACT].copy()
            batch_observe(states, tables, players, obs)
            batch_mask(states, tables, players, mask)
        return n * batch

    return run


def ceiling_fused_workload(batch: int, seed: int = 0, steps_per_call: int = 64) -> Run:
    """One Numba call runs ``steps_per_call`` decisions in every row (sampler inside the kernel)."""
    from cardenvs.core.decks import pack_decks

    from .ceiling import POOL, SPEC, STARTER, batch_mask, batch_observe, batch_reset, fused_run

    tables = POOL.tables
    states = np.zeros((batch, SPEC.state_layout.size), dtype=np.int32)
    decks = pack_decks([(STARTER, STARTER)] * batch, SPEC.max_deck)
    seeds = seed + np.arange(batch, dtype=np.int64)
    batch_reset(states, tables, decks, seeds, np.ones(batch, dtype=np.bool_))
    obs = np.zeros((batch, SPEC.obs_dim), dtype=SPEC.obs_dtype)
    mask = np.zeros((batch, SPEC.num_actions), dtype=np.int8)
    players = states[:, H_TO_ACT].copy()
    batch_observe(states, tables, players, obs)
    batch_mask(states, tables, players, mask)
    keys = (np.arange(batch, dtype=np.uint64) + np.uint64(seed) * np.uint64(7919)) | np.uint64(1)

    def run(n: int) -> int:
        total = 0
        for _ in range(n):
            total += fused_run(states, tables[0], decks, seeds, keys, obs, mask, steps_per_call)
        return int(total)

    return run


__all__ = [
    "aec_workload", "batch_workload", "ceiling_fused_workload", "ceiling_raw_workload", "pettingzoo_loop",
    "resolve_spec", "Run", "vec_workload"
]
