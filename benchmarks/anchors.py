"""The comparison points: PettingZoo classic, RLCard, pgx (JAX on CPU). Each one is optional.

Every runner returns an :class:`Entry` whose ``status`` is ``ok``, ``not installed`` (its package is missing),
``not available`` (the package is there but no longer ships that env) or ``error`` (it raised; the reason is kept),
so a missing anchor never stops the comparison. All of them draw actions with the same masked-uniform sampler.
"""
from __future__ import annotations

import importlib
import importlib.util
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .common import Budget, masked_uniform, measure

PETTINGZOO_ENVS = ("leduc_holdem_v4", "texas_holdem_v4", "gin_rummy_v4", "texas_holdem_no_limit_v6")
RLCARD_ENVS = ("limit-holdem", "doudizhu", "uno", "gin-rummy")
PGX_ENVS = ("leduc_holdem", "kuhn_poker", "backgammon")
PGX_SCAN_LENGTH = 64  # decisions per jitted call in the lax.scan variant


@dataclass
class Entry:
    """One row of the comparison: an environment through one API, with decisions/s per batch size."""

    name: str
    group: str  # cardenvs | ceiling | pettingzoo | rlcard | pgx
    api: str
    status: str = "ok"
    reason: str = ""
    obs_dim: int | None = None
    num_actions: int | None = None
    figures: dict[str, dict] = field(default_factory=dict)  # batch size (str) -> Measurement.to_dict()
    extra: dict[str, Any] = field(default_factory=dict)

    def median(self, batch: int | str) -> float | None:
        fig = self.figures.get(str(batch))
        return None if fig is None else fig["median"]

    def to_dict(self) -> dict:
        return {"name": self.name, "group": self.group, "api": self.api, "status": self.status,
                "reason": self.reason, "obs_dim": self.obs_dim, "num_actions": self.num_actions,
                "figures": self.figures, **({"extra": self.extra} if self.extra else {})}


def _guard(entry: Entry, body: Callable[[Entry], None]) -> Entry:
    """Run ``body(entry)``; turn any failure into a status instead of an exception."""
    try:
        body(entry)
    except ImportError as err:
        entry.status, entry.reason = "not installed", f"{type(err).__name__}: {err}"
    except Exception as err:  # an anchor that breaks is reported, not fatal
        entry.status = "error"
        entry.reason = f"{type(err).__name__}: {err}\n{traceback.format_exc(limit=3)}"
    return entry


# ----- PettingZoo classic ------------------------------------------------------------------------------------------
def pettingzoo_env(name: str, budget: Budget, seed: int = 0) -> Entry:
    from .workloads import pettingzoo_loop

    entry = Entry(name, "pettingzoo", "AEC (agent_iter)")

    def body(e: Entry) -> None:
        import pettingzoo

        module = f"pettingzoo.classic.{name}"
        if importlib.util.find_spec(module) is None:
            e.status = "not available"
            e.reason = f"pettingzoo {pettingzoo.__version__} does not ship {module} (removed upstream)"
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the _vN shims warn since 1.27
            env = importlib.import_module(module).env()
            env.reset(seed=seed)
            agent = env.possible_agents[0]
            e.obs_dim = int(np.prod(env.observation_space(agent)["observation"].shape))
            e.num_actions = int(env.action_space(agent).n)
            e.figures["1"] = measure(pettingzoo_loop(env, seed), budget).to_dict()

    return _guard(entry, body)


# ----- RLCard -------------------------------------------------------------------------------------------------------
def rlcard_env(name: str, budget: Budget, seed: int = 0) -> Entry:
    entry = Entry(name, "rlcard", "Env.step")

    def body(e: Entry) -> None:
        import rlcard

        env = rlcard.make(name, config={"seed": seed})
        e.obs_dim = int(np.prod(env.state_shape[0]))
        e.num_actions = int(env.num_actions)
        rng = np.random.default_rng(seed)
        mask = np.zeros((1, env.num_actions), dtype=np.int8)
        state, _ = env.reset()

        def run(n: int) -> int:
            nonlocal state
            for _ in range(n):
                mask[:] = 0
                mask[0, list(state["legal_actions"])] = 1  # RLCard lists legal ids; the sampler reads a mask
                state, _ = env.step(int(masked_uniform(mask, rng)[0]))
                if env.is_over():
                    state, _ = env.reset()
            return n

        e.figures["1"] = measure(run, budget).to_dict()
        e.extra["players"] = int(env.num_players)

    return _guard(entry, body)


# ----- pgx ----------------------------------------------------------------------------------------------------------
def _pgx_step_fn(env: Any, batch: int, scan: int = 0):
    """A jitted ``(state, key) -> (state, key)``: the shared sampler in jnp, then a vmapped auto-reset step."""
    import jax
    import jax.numpy as jnp
    from pgx.experimental import auto_reset

    step = jax.vmap(auto_reset(env.step, env.init))

    def one(carry, _=None):
        state, key = carry
        key, k_act, k_step = jax.random.split(key, 3)
        noise = jax.random.uniform(k_act, state.legal_action_mask.shape) + 1.0  # same formula as masked_uniform
        action = jnp.argmax(noise * state.legal_action_mask, axis=1)
        state = step(state, action, jax.random.split(k_step, batch))
        return (state, key), None

    if scan:
        return jax.jit(lambda carry: jax.lax.scan(one, carry, None, length=scan)[0])
    return jax.jit(lambda carry: one(carry)[0])


def pgx_env(name: str, batches: tuple[int, ...], budget: Budget, seed: int = 0, scan: int = 0) -> Entry:
    api = f"jit+vmap, lax.scan x{scan} per call" if scan else "jit+vmap, one call per step"
    entry = Entry(name if not scan else f"{name} (scan)", "pgx", api)

    def body(e: Entry) -> None:
        import jax
        import pgx

        if jax.default_backend() != "cpu":
            e.extra["backend_warning"] = f"JAX backend is {jax.default_backend()}, not cpu"
        env = pgx.make(name)
        e.obs_dim = int(np.prod(env.observation_shape))
        e.num_actions = int(env.num_actions)
        e.extra["jax_backend"] = jax.default_backend()
        e.extra["compile_s"] = {}
        e.extra["state_bytes_per_game"] = {}
        for b in batches:
            key = jax.random.PRNGKey(seed)
            key, k0 = jax.random.split(key)
            state = jax.jit(jax.vmap(env.init))(jax.random.split(k0, b))
            fn = _pgx_step_fn(env, b, scan)
            import time

            t0 = time.perf_counter()
            carry = jax.block_until_ready(fn((state, key)))  # trace + XLA compile, excluded from the rate
            e.extra["compile_s"][str(b)] = time.perf_counter() - t0
            e.extra["state_bytes_per_game"][str(b)] = sum(
                x.nbytes for x in jax.tree_util.tree_leaves(carry[0])) / b
            per_call = b * (scan or 1)

            def run(n: int, fn=fn, per_call=per_call) -> int:
                nonlocal carry
                for _ in range(n):
                    carry = fn(carry)
                jax.block_until_ready(carry)  # JAX dispatches asynchronously: wait for the work we timed
                return n * per_call

            e.figures[str(b)] = measure(run, budget).to_dict()

    return _guard(entry, body)


__all__ = [
    "Entry", "pettingzoo_env", "PETTINGZOO_ENVS", "pgx_env", "PGX_ENVS", "PGX_SCAN_LENGTH", "rlcard_env",
    "RLCARD_ENVS"
]
