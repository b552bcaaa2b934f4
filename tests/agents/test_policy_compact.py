"""agents.policy on a compact observation (issue 41): the numpy policy reads int8/int16 rows as stored, the divisors
folded into its first layer, its card embedding and its instance head at load, and gives the probabilities of the same
network on the float view (stored / divisor); the observation digest that refuses stale policies covers the dtype and
the divisors."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import policy as policy_mod
from cardenvs.agents.policy import NumpyPolicy
from cardenvs.core.errors import BadArgumentError
from cardenvs.core.layout import Layout

OBS_DIM, N_CARDS, DIM, ACTIONS = 40, 6, 4, 6
CARD_IDX = [3, 20]  # card ids: stored unscaled (divisor 1)


def _network(seed: int = 0) -> tuple[dict, np.ndarray]:
    """Random weights of a policy with a card embedding, two hidden layers and an instance head whose two blocks
    (entries 5-7 and 9-11, ids at 3 and 20) share their divisors entry by entry; and the divisors."""
    rng = np.random.default_rng(seed)
    d = np.ones(OBS_DIM, np.float32)
    d[[5, 9]], d[[6, 10]], d[[12, 13, 30]], d[[31, 39]] = 2, 4, 10, 1000
    rest = np.setdiff1d(np.arange(OBS_DIM), CARD_IDX)
    width_in = len(rest) + len(CARD_IDX) * DIM

    def w(*shape: int) -> np.ndarray:
        return rng.normal(0, 0.5, shape).astype(np.float32)

    net = {
        "hidden": [(w(width_in, 16), w(16)), (w(16, 8), w(8))], "action": (w(8, ACTIONS), w(ACTIONS)),
        "embed": {"table": w(N_CARDS + 1, DIM), "card_idx": np.array(CARD_IDX), "rest_idx": rest},
        "instance": [{"a0": 2, "n": 2, "rest_pos": np.array([[5, 6, 7], [9, 10, 11]]), "id_pos": np.array([[3], [20]]),
                      "block_w": w(3 + DIM, 5), "block_b": w(5), "state_w": w(8, 5), "score_w": w(5),
                      "score_b": 0.3}],
    }
    return net, d


def _rows(n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = np.where(rng.random((n, OBS_DIM)) < 0.3, rng.integers(-100, 100, (n, OBS_DIM)), 0).astype(np.int8)
    rows[:, CARD_IDX] = rng.integers(0, N_CARDS + 1, (n, len(CARD_IDX)))
    return rows


def test_a_compact_policy_reads_stored_rows_as_the_float_policy_reads_their_float_view() -> None:
    net, d = _network()
    stored = _rows(64)
    mask = np.ones((64, ACTIONS), np.int8)
    flt = NumpyPolicy(**net)
    compact = NumpyPolicy(**net, divisors=d, obs_dtype=np.int8)
    want = flt.probs(stored / d, mask)
    np.testing.assert_allclose(compact.probs(stored, mask), want, rtol=1e-5, atol=1e-7)
    assert np.array_equal(compact.act(stored, mask), flt.act((stored / d).astype(np.float32), mask))
    rows = np.array([5, 0, 9])
    np.testing.assert_allclose(compact.logits(stored, rows), flt.logits(stored / d, rows), rtol=1e-5, atol=1e-6)
    # the same weights without the divisors folded in (a planted break) read the stored values as floats
    unfolded = NumpyPolicy(**net, divisors=np.ones(OBS_DIM, np.float32), obs_dtype=np.int8)
    assert not np.allclose(unfolded.probs(stored, mask), want, rtol=1e-3)


def test_a_compact_policy_refuses_float_rows_and_bad_divisors() -> None:
    net, d = _network()
    compact = NumpyPolicy(**net, divisors=d, obs_dtype=np.int8)
    with pytest.raises(BadArgumentError, match="stored int8 observation rows, got float32"):
        compact.probs((_rows(4) / d).astype(np.float32))  # the float view would be divided twice
    with pytest.raises(BadArgumentError, match="card-id positions must have divisor 1"):
        NumpyPolicy(**net, divisors=np.full(OBS_DIM, 2, np.float32), obs_dtype=np.int8)
    bad = d.copy()
    bad[9] = 3  # block 1's first entry no longer scales as block 0's
    with pytest.raises(BadArgumentError, match="different divisors from instance to instance"):
        NumpyPolicy(**net, divisors=bad, obs_dtype=np.int8)
    with pytest.raises(BadArgumentError, match="needs their divisors"):
        NumpyPolicy(**net, obs_dtype=np.int16)
    with pytest.raises(BadArgumentError, match="positive finite"):
        NumpyPolicy(**net, divisors=np.zeros(OBS_DIM, np.float32), obs_dtype=np.int8)


def test_int16_rows_and_a_network_without_embedding_fold_too() -> None:
    rng = np.random.default_rng(3)
    d = rng.choice([1, 10, 100, 1000], OBS_DIM).astype(np.float32)
    hidden = [(rng.normal(size=(OBS_DIM, 12)).astype(np.float32), rng.normal(size=12).astype(np.float32))]
    action = (rng.normal(size=(12, ACTIONS)).astype(np.float32), np.zeros(ACTIONS, np.float32))
    stored = np.where(rng.random((32, OBS_DIM)) < 0.4, rng.integers(-20000, 20000, (32, OBS_DIM)), 0).astype(np.int16)
    compact = NumpyPolicy(hidden, action, divisors=d, obs_dtype=np.int16)
    np.testing.assert_allclose(compact.probs(stored), NumpyPolicy(hidden, action).probs(stored / d), rtol=1e-4,
                               atol=1e-7)


def test_the_observation_digest_covers_the_dtype_and_the_divisors() -> None:
    spec = cardenvs.get_game("levelneo")
    lay = spec.obs_layout
    base = policy_mod.observation_digest(dataclasses.replace(spec, obs_layout=Layout(lay.name, lay.fields,
                                                                                     dtype_scalar=np.float32)))
    # the same fields stored as int16, and then with one field's divisor changed: both are other observations
    as_int = dataclasses.replace(spec, obs_layout=Layout(lay.name, lay.fields, dtype_scalar=np.int16))
    first = lay.fields[0]
    rescaled_fields = [dataclasses.replace(first, divide_by=first.divide_by + 1), *lay.fields[1:]]
    rescaled = dataclasses.replace(spec, obs_layout=Layout(lay.name, rescaled_fields, dtype_scalar=np.int16))
    digests = {base, policy_mod.observation_digest(as_int), policy_mod.observation_digest(rescaled)}
    assert len(digests) == 3
