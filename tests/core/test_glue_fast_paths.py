"""Issue 15: the Python glue's fast paths give exactly what the general paths give, and check the same things.

``BatchGame.step_one`` (the single envs' step from Python ints) against ``step``; the cached seat arrays behind
``players=int`` / ``viewers=None`` against explicit arrays; the one-pass range check of ``int_array``; the
``OrderEnforcing`` wrapper's read-through properties before and after ``reset``.
"""
from __future__ import annotations

import numpy as np
import pytest

import cardenvs
from cardenvs.core.batch import INT32_MAX, INT32_MIN, BatchGame, int_array, outcome_rewards, rewards_from
from cardenvs.core.errors import BadArgumentError, IllegalActionError
from cardenvs.core.header import DRAW, H_STATUS, H_TO_ACT, LIVE, TERMINATED, TRUNCATED

GAME = "levelneo"


def test_step_one_plays_the_same_game_as_step() -> None:
    one, ref = BatchGame(GAME, 1, seed=5), BatchGame(GAME, 1, seed=5)
    rng = np.random.default_rng(0)
    for _ in range(400):
        if one.states[0, H_STATUS] != LIVE:
            break
        player = int(one.states[0, H_TO_ACT])
        action = int(rng.choice(np.flatnonzero(one.legal_mask(player)[0])))
        one.step_one(action, player)
        ref.step(np.array([action], np.int32), players=np.array([player], np.int32))
        np.testing.assert_array_equal(one.states, ref.states)


def test_step_one_refuses_like_step_and_changes_nothing() -> None:
    game = BatchGame(GAME, 1, seed=1)
    player = int(game.states[0, H_TO_ACT])
    illegal = int(np.flatnonzero(game.legal_mask(player)[0] == 0)[0])
    for action, error in ((illegal, IllegalActionError), (game.spec.num_actions, IllegalActionError),
                          (-1, IllegalActionError), (True, BadArgumentError), (1.0, BadArgumentError),
                          (INT32_MAX + 1, BadArgumentError)):
        before = game.states.copy()
        with pytest.raises(error):
            game.step_one(action, player)
        np.testing.assert_array_equal(game.states, before)
    with pytest.raises(BadArgumentError):
        game.step_one(0, 2)
    with pytest.raises(BadArgumentError):
        BatchGame(GAME, 2, seed=0).step_one(0, 0)


def test_cached_seat_arrays_match_explicit_ones_and_stay_unchanged() -> None:
    game = BatchGame(GAME, 6, seed=2)
    for seat in (-1, 0, 1):
        explicit = np.full(6, seat, np.int32)
        np.testing.assert_array_equal(game.observe(seat).copy(), game.observe(explicit, out=np.zeros_like(game._obs)))
        np.testing.assert_array_equal(game.legal_mask(seat).copy(),
                                      game.legal_mask(explicit, out=np.zeros_like(game._mask)))
        assert (game._players(seat) == seat).all()
    twin = game.clone()
    assert twin._players(0) is not game._players(0)  # a clone makes its own


@pytest.mark.parametrize("lo, hi", [(-1, 1), (0, 97), (INT32_MIN, 5), (-7, INT32_MAX)])
def test_int_array_range_check_finds_both_ends(lo: int, hi: int) -> None:
    values = np.array([lo, hi, (lo + hi) // 2], np.int32)
    assert int_array(values, "x", 3, lo, hi) is values
    for bad in (lo - 1, hi + 1):
        if INT32_MIN <= bad <= INT32_MAX:
            with pytest.raises(BadArgumentError, match=f"x {bad} is out of range"):
                int_array(np.array([lo, bad, hi], np.int32), "x", 3, lo, hi)


def test_outcome_rewards_agree_with_rewards_from() -> None:
    for status in (LIVE, TERMINATED, TRUNCATED):
        for winner in (-1, 0, 1, DRAW):
            batch = rewards_from(np.array([winner], np.int32), np.array([status], np.int32))[0]
            assert tuple(batch.tolist()) == outcome_rewards(status, winner)


def test_order_enforcing_reads_guard_before_reset_and_follow_the_env_after() -> None:
    env = cardenvs.make_env(GAME)
    for name in ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(env, name)
        assert not hasattr(env, name)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    env.reset(seed=3)
    raw = env.unwrapped
    assert env.agent_selection == raw.agent_selection and env.agents is raw.agents
    assert env.rewards is raw.rewards and env.infos is raw.infos
    obs, reward, term, trunc, info = env.last()
    np.testing.assert_array_equal(obs["action_mask"], raw.observe(raw.agent_selection)["action_mask"])
    assert (reward, term, trunc, info) == (raw._cumulative_rewards[raw.agent_selection], False, False, {})
