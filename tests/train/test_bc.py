"""The behaviour-cloning warm start (train/bc.py, ``[bc]`` in a config): recorded heuristic decisions, a policy
fitted to them, and a run that starts from the clone."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cardenvs.core.errors import BadArgumentError
from cardenvs.train.bc import check_settings, clone, record
from cardenvs.train.config import DEFAULTS

GAME = "relics"  # compiles fast; its heuristic beats random 1000 / 1000


def _model(game: str, net: int = 64):
    import cardenvs
    from sb3_contrib import MaskablePPO

    env = cardenvs.make_vec(game, 4, opponent="random", seed=0)
    return MaskablePPO("MlpPolicy", env, seed=0, device="cpu", verbose=0,
                       policy_kwargs={"net_arch": {"pi": [net], "vf": [net]}})


def test_recorded_decisions_carry_the_movers_result() -> None:
    demos = record(GAME, 12, seed=0, explore=0.0, opponent_random=0.0, gamma=0.9, batch_games=6)
    assert demos.games == 12 and len(demos) > 100
    import cardenvs

    dtype = cardenvs.get_game(GAME).obs_dtype  # a compact observation is kept as stored (issue 41), else float16
    assert demos.obs.dtype == (np.float16 if dtype == np.float32 else dtype)
    assert demos.obs.shape[0] == demos.mask.shape[0] == len(demos)
    assert np.all(demos.mask[np.arange(len(demos)), demos.action])  # every label is a legal move
    # a result per decision: +-gamma^k for a decided game, the mover's last decision undiscounted
    assert np.all(np.abs(demos.ret) <= 1.0) and np.any(demos.ret > 0) and np.any(demos.ret < 0)
    assert np.count_nonzero(np.isclose(np.abs(demos.ret), 1.0)) >= 12  # (at least) one last decision per game
    decided = demos.ret[demos.ret != 0]  # a drawn game records 0 (draw_reward)
    powers = np.log(np.abs(decided)) / np.log(0.9)  # the number of the mover's later decisions
    assert np.allclose(powers, np.round(powers), atol=1e-3) and powers.max() > 10


def test_clone_learns_the_heuristics_choices() -> None:
    """Agreement on held-out decisions well above a uniform pick among the legal moves (checked failing with the
    optimizer step removed: agreement then stays at the untrained policy's level)."""
    demos = record(GAME, 40, seed=1, explore=0.1, opponent_random=0.2, batch_games=20)
    model = _model(GAME)
    chance = float(np.mean(1.0 / demos.mask.sum(axis=1)))
    fit = clone(model, demos, epochs=3, batch_size=256, learning_rate=2e-3, seed=0)
    assert fit["holdout"] > 50 and len(fit["loss"]) == 3 and fit["loss"][-1] < fit["loss"][0]
    assert fit["agreement"] > chance + 0.25, (fit["agreement"], chance)


def test_dagger_records_the_pilots_positions_with_the_heuristics_labels() -> None:
    """With a pilot the recorded seats play the pilot's moves, and the labels stay the heuristic's: a pilot that
    always takes the last legal action reaches other positions, where the labels often differ from its moves."""
    class LastLegal:
        def act(self, obs, mask, states=None, players=None):
            return (mask.shape[1] - 1 - np.argmax(mask[:, ::-1] != 0, axis=1)).astype(np.int32)

    own = record(GAME, 6, seed=3, explore=0.0, opponent_random=0.0, batch_games=6)
    led = record(GAME, 6, seed=3, explore=0.0, opponent_random=0.0, batch_games=6, pilot=LastLegal())
    pilot_moves = LastLegal().act(None, led.mask.astype(np.int8))
    assert np.mean(led.action != pilot_moves) > 0.2  # labels are not the pilot's moves
    assert len(led) != len(own) or not np.array_equal(led.obs, own.obs)  # other games were played
    both = own.merged(led, len(own) + 5)
    assert len(both) == len(own) + 5 and both.games == 12
    np.testing.assert_array_equal(both.action[-5:], led.action[-5:])  # the newest kept


@pytest.mark.parametrize("key, value", [("games", -1), ("games", 2.5), ("epochs", 0), ("explore", 1.5),
                                        ("opponent_random", "x"), ("learning_rate", True), ("max_mb", 0),
                                        ("dagger_rounds", -1), ("dagger_games", 1.5), ("teacher", ""),
                                        ("teacher", 3)])
def test_bad_bc_settings_are_one_clear_error(key: str, value: object) -> None:
    bcfg = dict(DEFAULTS["bc"], **{key: value})
    with pytest.raises(BadArgumentError, match=rf"\[bc\] {key} must be"):
        check_settings(bcfg)


def test_a_teacher_other_than_the_heuristic_gives_the_labels() -> None:
    """``[bc] teacher`` (distillation: a trained policy cloned into another network): every label is the teacher's
    choice in the recorded position. Checked failing with record() labelling by the heuristic whatever the teacher."""
    class LastLegal:
        def act(self, obs, mask, states=None, players=None):
            return (mask.shape[1] - 1 - np.argmax(mask[:, ::-1] != 0, axis=1)).astype(np.int32)

    demos = record(GAME, 6, seed=3, explore=0.0, opponent_random=0.0, batch_games=6, teacher=LastLegal())
    np.testing.assert_array_equal(demos.action, LastLegal().act(None, demos.mask.astype(np.int8)))
    # and by name: the heuristic's labels differ from the last-legal teacher's in the same kind of games
    heur = record(GAME, 6, seed=3, explore=0.0, opponent_random=0.0, batch_games=6, teacher="heuristic")
    assert np.mean(heur.action != LastLegal().act(None, heur.mask.astype(np.int8))) > 0.2


def test_a_bad_teacher_is_one_clear_error_before_the_run_starts(tmp_path: Path) -> None:
    from cardenvs.train.ppo import main

    cfg = tmp_path / "t.toml"
    cfg.write_text('[bc]\ngames = 4\nteacher = "ppo:missing.npz"\n')
    with pytest.raises(BadArgumentError, match="missing.npz"):
        main([GAME, "--config", str(cfg), "--out", str(tmp_path / "r"), "--no-progress", "-q"])
    cfg.write_text('[bc]\ngames = 4\nteacher = "expert"\n')
    with pytest.raises(BadArgumentError, match="unknown agent 'expert'"):
        main([GAME, "--config", str(cfg), "--out", str(tmp_path / "r"), "--no-progress", "-q"])


def test_a_run_with_bc_starts_from_the_clone(tmp_path: Path) -> None:
    from cardenvs.agents.policy import read_npz
    from cardenvs.train.ppo import main

    cfg = tmp_path / "bc.toml"
    cfg.write_text("""
[ppo]
n_steps = 16
batch_size = 64
n_epochs = 1
net_arch = [32]
[train]
num_envs = 8
decks = "mixed"
deck_bank = 4
[opponents]
mix = { random = 1.0 }
[eval]
every = 100000
games = 10
opponents = ["random"]
[bc]
games = 16
epochs = 2
batch_games = 8
dagger_rounds = 1
dagger_games = 8
""")
    out = tmp_path / "run"
    summary = main([GAME, "--config", str(cfg), "--total-steps", "128", "--out", str(out), "--no-progress", "-q"])
    fit = json.loads((out / "bc.json").read_text())
    assert fit["games"] == 16 + 8 and fit["decisions"] > 0 and summary["warm_start"]["agreement"] == fit["agreement"]
    assert [r["games"] for r in fit["rounds"]] == [16, 24]  # one DAgger round: the clone's 8 games added
    assert read_npz(out / "policy.npz")[0]["warm_start"]["games"] == 24
    assert fit["teacher"] == {"name": "heuristic"}
    # distillation: that run's policy as the teacher of a narrower network; the student's file names the teacher
    teacher_steps = read_npz(out / "policy.npz")[0]["steps"]
    student = tmp_path / "student"
    cfg.write_text(cfg.read_text().replace("net_arch = [32]", "net_arch = [16]").replace(
        "dagger_games = 8", f'dagger_games = 8\nteacher = "ppo:{out / "policy.npz"}"'))
    main([GAME, "--config", str(cfg), "--total-steps", "128", "--out", str(student), "--no-progress", "-q"])
    taught = read_npz(student / "policy.npz")[0]
    assert taught["hidden"] == [16] and taught["warm_start"]["teacher"]["name"] == f"ppo:{out / 'policy.npz'}"
    assert taught["warm_start"]["teacher"]["steps"] == teacher_steps and taught["warm_start"]["teacher"]["hidden"] == [32]
    with pytest.raises(BadArgumentError, match=r"\[bc\] epochs must be"):
        cfg.write_text(cfg.read_text().replace("epochs = 2", "epochs = 0"))
        main([GAME, "--config", str(cfg), "--out", str(tmp_path / "bad"), "--no-progress", "-q"])
