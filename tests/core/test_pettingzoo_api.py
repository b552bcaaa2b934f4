"""PettingZoo's own checkers on every registered game (AEC; parallel where play is simultaneous)."""
from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import cardenvs
from cardenvs.core.errors import IllegalActionError
from cardenvs.core.header import H_NEEDS


def test_api_test(game_name: str) -> None:
    env = cardenvs.make_env(game_name, render_mode="ansi")
    api_test(env, num_cycles=1000)


def test_seed_test(game_name: str) -> None:
    seed_test(lambda: cardenvs.make_env(game_name), num_cycles=200)


def test_parallel_api_test(simultaneous_game: str) -> None:
    parallel_api_test(cardenvs.make_parallel_env(simultaneous_game), num_cycles=1000)


def test_parallel_seed_test(simultaneous_game: str) -> None:
    parallel_seed_test(lambda: cardenvs.make_parallel_env(simultaneous_game, illegal_action="lose"))


def test_api_test_of_the_float_view(game_name: str) -> None:
    """``obs_format="float32"``: the float view of a compact observation (issue 41), with a float Box; the rows are
    ``spec.float_observation`` of the stored ones."""
    env = cardenvs.make_env(game_name, obs_format="float32")
    box = env.observation_space("player_0")["observation"]
    assert box.dtype == np.float32
    api_test(env, num_cycles=200)
    stored, flt = cardenvs.make_env(game_name, raw=True), cardenvs.make_env(game_name, raw=True, obs_format="float32")
    stored.reset(seed=4)
    flt.reset(seed=4)
    spec = cardenvs.get_game(game_name)
    want = spec.float_observation(stored.observe(stored.agent_selection)["observation"])
    np.testing.assert_array_equal(flt.observe(flt.agent_selection)["observation"], want)
    assert stored.observation_space("player_0")["observation"].dtype == spec.obs_dtype


def test_a_compact_observation_box_holds_every_value_its_dtype_can_store(game_name: str) -> None:
    """Issue 41: a compact observation's Box is its dtype's whole range (and the float view's Box that range over each
    entry's divisor), so a value no play reaches but a kernel can write (divinecross stores 6,220, past the old bound
    of 1000 x its divisor 1) stays inside the declared space."""
    spec = cardenvs.get_game(game_name)
    stored = cardenvs.make_env(game_name).observation_space("player_0")["observation"]
    flt = cardenvs.make_env(game_name, obs_format="float32").observation_space("player_0")["observation"]
    if spec.obs_dtype == np.float32:
        pytest.skip(f"{game_name}'s observation is float32: its Box is +-OBS_BOUND")
    info = np.iinfo(spec.obs_dtype)
    for value in (info.min, info.max, 6220 if info.max >= 6220 else info.max):
        row = np.full(spec.obs_dim, value, dtype=spec.obs_dtype)
        assert stored.contains(row)
        assert flt.contains(spec.float_observation(row[None])[0])


def test_parallel_api_test_of_the_float_view(simultaneous_game: str) -> None:
    parallel_api_test(cardenvs.make_parallel_env(simultaneous_game, obs_format="float32"), num_cycles=200)


def test_aec_and_parallel_play_the_same_game(simultaneous_game: str) -> None:
    """The AEC env (player_0's plan, then player_1's) and the parallel env give identical games for the same plans."""
    rng = np.random.default_rng(3)
    for seed in range(5):
        par = cardenvs.make_parallel_env(simultaneous_game)
        obs, _ = par.reset(seed=seed)
        plans: dict[str, list[int]] = {"player_0": [], "player_1": []}
        while par.agents:
            actions = {}
            for agent in par.agents:
                legal = np.flatnonzero(obs[agent]["action_mask"])
                actions[agent] = int(rng.choice(legal))
                if par.game.states[0, H_NEEDS] & (1 << int(agent[-1])):  # a real decision, not the no-op
                    plans[agent].append(actions[agent])
            obs, *_ = par.step(actions)
        aec = cardenvs.make_env(simultaneous_game, raw=True)
        aec.reset(seed=seed)
        queues = {a: list(p) for a, p in plans.items()}
        for agent in aec.agent_iter():
            if aec.terminations[agent] or aec.truncations[agent]:
                aec.step(None)
                continue
            aec.step(queues[agent].pop(0))
        assert not any(queues.values()), "AEC game ended before the plans were used up"
        np.testing.assert_array_equal(aec.row, par.game.states[0])


def test_render_ansi_returns_text(game_name: str) -> None:
    env = cardenvs.make_env(game_name, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and len(text.splitlines()) >= 3


def test_illegal_action_raises_and_leaves_state(game_name: str) -> None:
    env = cardenvs.make_env(game_name, raw=True)
    env.reset(seed=5)
    mask = env.action_mask()
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.row.copy()
    with pytest.raises(ValueError) as info:
        env.step(illegal)
    assert isinstance(info.value, IllegalActionError)
    assert f"illegal action {illegal}" in str(info.value) and "legal actions:" in str(info.value)
    np.testing.assert_array_equal(env.row, before)
    with pytest.raises(ValueError, match="out of range"):
        env.step(10**6)
    np.testing.assert_array_equal(env.row, before)


def test_illegal_action_lose_mode(game_name: str) -> None:
    env = cardenvs.make_env(game_name, raw=True, illegal_action="lose")
    env.reset(seed=5)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0
    assert env.infos[offender]["illegal_action"] == offender


def test_action_names_are_readable(game_name: str) -> None:
    env = cardenvs.make_env(game_name, raw=True)
    env.reset(seed=2)
    for a in env.legal_actions():
        name = env.action_name(a)
        assert isinstance(name, str) and name and not name.isdigit()


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(cardenvs.CardenvsError, match="unknown game 'chess'; known games:"):
        cardenvs.make_env("chess")
