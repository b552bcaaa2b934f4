"""train.ppo: a short run saves checkpoints and a final model that reloads and plays; resume continues it."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import cardenvs
from cardenvs.agents.policy import load
from cardenvs.train.config import load_config
from cardenvs.train.evaluate import play_match
from cardenvs.train.ppo import main
from stale_teachers import unless_stale_teacher

# simulfight: its games end within 40 rounds whatever the learner does, so a 3000-step run sees league episodes
GAME = "simulfight" if "simulfight" in cardenvs.available_games() else cardenvs.available_games()[0]

SMALL = """
[ppo]
n_steps = 32
batch_size = 256
n_epochs = 1
net_arch = [32]
[train]
num_envs = 16
checkpoint_every = 1024
torch_threads = 1
[[opponents.phases]]
until = 1024
mix = { random = 1.0 }
[[opponents.phases]]
mix = { random = 0.4, heuristic = 0.3, league = 0.3 }
[opponents]
league_size = 2
league_every = 1024
[eval]
every = 2048
games = 20
opponents = ["random"]
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    cfg = tmp_path_factory.mktemp("cfg") / "small.toml"
    cfg.write_text(SMALL)
    out = tmp_path_factory.mktemp("run")
    summary = main([GAME, "--config", str(cfg), "--total-steps", "3000", "--seed", "3", "--out", str(out),
                    "--no-progress", "-q"])
    assert summary["steps"] >= 3000
    return out


def test_short_run_saves_checkpoints_final_model_and_logs(run_dir: Path) -> None:
    assert (run_dir / "final.zip").exists()
    ckpts = sorted((run_dir / "checkpoints").glob("step_*.zip"))
    assert len(ckpts) >= 2
    rows = list(csv.DictReader(open(run_dir / "eval.csv")))
    assert rows and "win_random" in rows[-1]
    assert list((run_dir / "tb").glob("events.out.tfevents*")), "no TensorBoard log"
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["steps_per_s"] > 0 and 0 < summary["env_share"] < 1
    # the league pool holds at most league_size frozen checkpoints, all saved files of this run
    assert 1 <= len(summary["league"]) <= 2
    assert all(Path(p).exists() and Path(p).parent == run_dir / "checkpoints" for p in summary["league"])
    assert summary["opponent_episodes"].get("league", 0) > 0


def test_final_model_reloads_and_evaluates(run_dir: Path) -> None:
    agent = load(run_dir / "final.zip", game=GAME)
    res = play_match(GAME, agent, "random", games=40, seed=1)
    assert res.games == 40 and res.wins + res.draws + res.losses == 40


def test_resume_continues_steps_and_league(run_dir: Path, tmp_path: Path, capsys) -> None:
    ckpt = sorted((run_dir / "checkpoints").glob("step_*.zip"))[-1]
    out = tmp_path / "resumed"
    cfg = tmp_path / "small.toml"
    cfg.write_text(SMALL)
    summary = main([GAME, "--config", str(cfg), "--total-steps", "4096", "--resume", str(ckpt), "--out", str(out),
                    "--no-progress", "-q"])
    assert summary["steps"] >= 4096
    assert summary["steps_this_run"] < 4096  # it started from the checkpoint's step count, not from zero
    assert any(Path(p).parent == run_dir / "checkpoints" for p in summary["league"])  # the old pool came along
    assert "warning" not in capsys.readouterr().out  # the same settings: nothing is kept against the config


def test_a_resumed_run_warns_about_ppo_settings_the_model_keeps(run_dir: Path, tmp_path: Path, capsys) -> None:
    """``--resume`` applies only the learning rate and its schedule; a stage file that sets another [ppo] value (here
    n_steps, clip_range and net_arch) gets one warning line for each, naming the value the model keeps."""
    cfg = tmp_path / "stage.toml"
    cfg.write_text(SMALL.replace("n_steps = 32", "n_steps = 64\nclip_range = 0.1").replace("[32]", "[48]"))
    summary = main([GAME, "--config", str(cfg), "--total-steps", "4096", "--resume", str(run_dir / "final.zip"),
                    "--out", str(tmp_path / "resumed"), "--no-progress", "-q"])
    assert summary["steps"] >= 4096
    out = capsys.readouterr().out
    assert "[ppo] n_steps = 64 is not applied to a resumed model: it keeps 32" in out, out
    assert "[ppo] clip_range = 0.1 is not applied to a resumed model: it keeps 0.2" in out, out
    assert "[ppo] net_arch = [48] is not applied to a resumed model: it keeps [32]" in out, out
    assert out.count("warning") == 3, out


def test_shipped_configs_load() -> None:
    for game in cardenvs.available_games():
        cfg = load_config(game)
        assert {"ppo", "train", "opponents", "eval"} <= set(cfg)
        assert cfg["train"]["total_steps"] > 0


def test_stage_configs_load_over_their_game() -> None:
    """``train/configs/<game>_stage<k>.toml`` continue a run with ``--resume`` (docs/training): each is a valid
    override of its game's config and asks for more steps than the config it continues."""
    from cardenvs.train.config import CONFIG_DIR

    stages = sorted(CONFIG_DIR.glob("*_stage*.toml"))
    assert stages
    for path in stages:
        game = path.stem.split("_stage")[0]
        assert load_config(game, path)["train"]["total_steps"] > load_config(game)["train"]["total_steps"]


def test_experiment_configs_load_over_their_game() -> None:
    """``train/configs/experiments/<game>_<name>.toml``, the runs docs/training reports beside the shipped lineage,
    stay valid overrides (a renamed key would otherwise break them silently)."""
    from cardenvs.train.bc import check_settings
    from cardenvs.train.config import CONFIG_DIR

    files = sorted((CONFIG_DIR / "experiments").glob("*.toml"))
    assert files
    loaded = [unless_stale_teacher(lambda: load_config(path.stem.split("_")[0], path)) for path in files]
    assert any(cfg is not None for cfg in loaded)
    for cfg in loaded:
        if cfg is not None:
            check_settings(cfg["bc"])


@pytest.mark.parametrize("table, key", [("train", "num_env"), ("opponents", "mixx"), ("eval", "game"),
                                        ("ppo", "n_step"), ("trainn", "x")])
def test_unknown_config_keys_are_one_clear_error(tmp_path: Path, table: str, key: str) -> None:
    """Issue 13: ``num_env = 8`` in [train] ran with 64 envs; unknown [ppo] keys gave SB3's raw TypeError."""
    from cardenvs.core.errors import BadArgumentError

    cfg = tmp_path / "bad.toml"
    cfg.write_text(f"[{table}]\n{key} = 8\n")
    with pytest.raises(BadArgumentError, match="valid") as info:
        load_config(GAME, cfg)
    assert (table if table == "trainn" else key) in str(info.value)
    if table != "trainn":
        assert "num_envs" in str(info.value) or "mix" in str(info.value) or "every" in str(info.value) \
            or "n_steps" in str(info.value)


@pytest.mark.parametrize("table, key, value", [
    ("ppo", "card_embedding", '"8"'), ("ppo", "instance_head", "1.5"), ("ppo", "net_arch", '"a"'),
    ("ppo", "net_arch", "[64, 0]"), ("ppo", "learning_rate", '"x"'), ("ppo", "gamma", "2.0"),
    ("ppo", "n_steps", "0"), ("ppo", "lr_schedule", '"cosine"'), ("ppo", "target_kl", "-1"),
    ("train", "num_envs", '"x"'), ("train", "total_steps", "-5"), ("train", "seed", '"s"'),
    ("train", "decks", '"mix"'), ("train", "random_deck_share", "1.5"), ("train", "starter_weights", "{ weak = -1 }"),
    ("train", "export_dtype", '"int8"'), ("train", "learner_seat", "2"), ("train", "device", '"gpu"'),
    ("eval", "games", '"x"'),
    ("eval", "opponents", "[]"), ("opponents", "league_size", "0"), ("grow", "enabled", "1"),
])
def test_bad_config_values_are_one_clear_error_naming_the_file_and_key(tmp_path: Path, table: str, key: str,
                                                                        value: str) -> None:
    """A value of the wrong type or range is one BadArgumentError naming the file, ``[table] key`` and the value
    (before: ``num_envs = "x"`` or ``net_arch = "a"`` surfaced as an int() or torch traceback; ``card_embedding =
    "8"`` trained without the embedding). Checked failing with check_values' call in load_config removed."""
    from cardenvs.core.errors import BadArgumentError

    cfg = tmp_path / "bad.toml"
    cfg.write_text(f"[{table}]\n{key} = {value}\n")
    with pytest.raises(BadArgumentError, match=rf"bad\.toml: \[{table}\] {key} must be") as info:
        load_config(GAME, cfg)
    assert "got" in str(info.value)


def test_command_line_values_are_checked_with_the_config(tmp_path: Path) -> None:
    """``--num-envs 0`` passes argparse (an int) and is caught by the merged config's check, before any env is built."""
    from cardenvs.core.errors import BadArgumentError

    with pytest.raises(BadArgumentError, match=r"\[train\] num_envs must be a whole number from 1"):
        main([GAME, "--num-envs", "0", "--out", str(tmp_path / "x"), "--no-progress", "-q"])
    assert not (tmp_path / "x" / "checkpoints").exists()


def test_device_cuda_without_one_is_one_clear_error_and_auto_falls_back_to_the_cpu() -> None:
    """[train] device: "cuda" on a machine whose torch sees none names the setting and the way out; "auto" is the
    CPU there (checked failing with the availability check left out: torch's own error surfaced later)."""
    import torch

    from cardenvs.core.errors import BadArgumentError
    from cardenvs.train.ppo import _torch_device

    if torch.cuda.is_available():
        pytest.skip("this machine has a CUDA device")
    with pytest.raises(BadArgumentError, match=r'\[train\] device = "cuda".*"cpu" or "auto"'):
        _torch_device("cuda")
    assert _torch_device("auto") == "cpu" and _torch_device("cpu") == "cpu"


def test_every_default_shipped_and_experiment_config_passes_the_value_check() -> None:
    """The rules must not reject what ships (checked failing with a rule narrowed below a shipped value)."""
    from cardenvs.train.config import CONFIG_DIR, DEFAULTS, check_values

    check_values(DEFAULTS)
    for path in sorted(CONFIG_DIR.glob("*.toml")) + sorted((CONFIG_DIR / "experiments").glob("*.toml")):
        cfg = unless_stale_teacher(lambda: load_config(path.stem.split("_")[0], path))
        if cfg is not None:
            check_values(cfg, str(path))


def test_valid_ppo_keys_include_maskable_ppo_arguments(tmp_path: Path) -> None:
    cfg = tmp_path / "ok.toml"
    cfg.write_text("[ppo]\nnormalize_advantage = false\n[train]\nnum_envs = 8\n")
    assert load_config(GAME, cfg)["train"]["num_envs"] == 8


def test_the_training_command_reports_a_bad_config_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    cfg = tmp_path / "bad.toml"
    cfg.write_text("[train]\nnum_env = 8\n")
    proc = subprocess.run([sys.executable, "-m", "cardenvs.train.ppo", GAME, "--config", str(cfg), "--out", str(tmp_path / "r")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "num_env" in proc.stderr


def test_stop_steps_stops_early_on_the_full_learning_rate_schedule(tmp_path: Path) -> None:
    """``--stop-steps`` ends the run at a step count while the linear learning rate is still scheduled to
    ``--total-steps`` (how the shipped divinecross run, stopped by --max-minutes, is retraced from its config)."""
    cfg = tmp_path / "small.toml"
    cfg.write_text(SMALL.replace("[ppo]", '[ppo]\nlr_schedule = "linear"\nlearning_rate = 1e-3'))
    out = tmp_path / "stopped"
    summary = main([GAME, "--config", str(cfg), "--total-steps", "8192", "--stop-steps", "1024", "--seed", "3",
                    "--out", str(out), "--no-progress", "-q"])
    assert 1024 <= summary["steps"] < 2048  # one rollout of 16 envs x 32 steps past the stop at most
    model = load(out / "final.zip", game=GAME).model
    # linear schedule to 8192: after ~1024 steps the rate is still ~7/8 of its start (not 0, as a 1024-step run's)
    assert model.lr_schedule(1 - summary["steps"] / 8192) > 0.7e-3


def test_a_stop_file_in_the_run_folder_ends_the_run_and_still_saves_it(tmp_path: Path) -> None:
    """``touch <out>/STOP`` stops a running run as ``--max-minutes`` does (final model saved, evaluated, exported),
    and the file is removed once acted on, so a later ``--resume`` into the folder runs on (checked failing with the
    check left out of the callback: the run then goes to its 8,192 steps)."""
    cfg = tmp_path / "small.toml"
    cfg.write_text(SMALL)
    out = tmp_path / "run"
    out.mkdir()
    (out / "STOP").touch()
    summary = main([GAME, "--config", str(cfg), "--total-steps", "8192", "--seed", "3", "--out", str(out),
                    "--no-progress", "-q"])
    assert summary["steps"] < 1024  # the first rollout of 16 envs x 32 steps at most
    assert (out / "final.zip").exists() and (out / "policy.npz").exists() and not (out / "STOP").exists()


def test_stop_steps_must_be_a_step_count(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit):
        main([GAME, "--stop-steps", "-5", "--out", str(tmp_path / "x"), "--no-progress", "-q"])
    assert "--stop-steps: expected a step count >= 0" in capsys.readouterr().err


def test_stages_continue_the_run_with_each_stage_file(tmp_path: Path, monkeypatch) -> None:
    """``--stages``: the game's config, then ``<game>_stage2.toml`` resuming its final model in ``<out>-stage2``;
    the staged run's policy records the run it continues (lineage), and flags that would clash are one clear error."""
    from cardenvs.core.errors import BadArgumentError
    from cardenvs.train import config

    configs = tmp_path / "configs"
    configs.mkdir()
    (configs / f"{GAME}.toml").write_text(SMALL.replace("[train]", "[train]\ntotal_steps = 1024"))
    (configs / f"{GAME}_stage2.toml").write_text("[train]\ntotal_steps = 2048\ndraw_reward = -0.5\n")
    monkeypatch.setattr(config, "CONFIG_DIR", configs)
    out = tmp_path / "run"
    summary = main([GAME, "--stages", "--seed", "3", "--out", str(out), "--no-progress", "-q"])
    staged = tmp_path / "run-stage2"
    assert summary["final_model"] == str(staged / "final.zip") and summary["steps"] >= 2048
    stage_cfg = json.loads((staged / "config.json").read_text())
    assert stage_cfg["train"]["draw_reward"] == -0.5 and stage_cfg["train"]["seed"] == 3
    lineage = json.loads((staged / "run_state.json").read_text())["lineage"]
    assert [entry["model"] for entry in lineage] == [str(out / "final.zip")]
    assert lineage[0]["steps"] >= 1024 and lineage[0]["config"]["train"]["total_steps"] == 1024
    with pytest.raises(BadArgumentError, match="--total-steps"):
        main([GAME, "--stages", "--total-steps", "10", "--out", str(tmp_path / "x"), "-q"])


def test_a_chain_file_runs_its_stages_in_turn_each_from_the_last(tmp_path: Path) -> None:
    """``--stages CHAIN.toml`` (issue 14, one command per shipped policy): stage 1 from scratch with its config, then
    each [[stage]] resuming the one before in ``<out>-stage<k>``, stopped at its ``stop_steps`` and, with
    ``fresh_optimizer``, from a slim copy (no Adam moments) whose step is in the lineage."""
    (tmp_path / "first.toml").write_text(SMALL.replace("[train]", "[train]\ntotal_steps = 1024"))
    (tmp_path / "second.toml").write_text("[train]\ndraw_reward = -0.5\n")
    chain = tmp_path / "chain.toml"
    chain.write_text('[[stage]]\nconfig = "first.toml"\n\n[[stage]]\nconfig = "second.toml"\n'
                     "total_steps = 8192\nstop_steps = 2048\nfresh_optimizer = true\n")
    out = tmp_path / "run"
    summary = main([GAME, "--stages", str(chain), "--seed", "3", "--out", str(out), "--no-progress", "-q"])
    second = tmp_path / "run-stage2"
    assert summary["final_model"] == str(second / "final.zip")
    assert 2048 <= summary["steps"] < 4096  # stopped at stop_steps, far short of total_steps
    assert json.loads((out / "summary.json").read_text())["steps"] < 2048
    cfg = json.loads((second / "config.json").read_text())
    assert cfg["train"]["draw_reward"] == -0.5 and cfg["train"]["total_steps"] == 8192
    assert (second / "start.zip").exists()
    lineage = json.loads((second / "run_state.json").read_text())["lineage"]
    assert lineage[0]["model"] == str(out / "final.zip") and "slimmed" in lineage[1]
    assert lineage[-1]["model"] == str(second / "start.zip")


@pytest.mark.parametrize("text, message", [
    ('[[stage]]\nconfig = "first.toml"\nsteps = 5\n', "stage 1: unknown key 'steps'"),
    ('[[stage]]\nconfig = "missing.toml"\n', "stage 1: no config file 'missing.toml'"),
    ('[[stage]]\nconfig = "first.toml"\nfresh_optimizer = true\n', "fresh_optimizer needs a stage before it"),
    ('[[stage]]\nconfig = "first.toml"\n[[stage]]\nconfig = "first.toml"\nstop_steps = -3\n',
     "stage 2: stop_steps must be a step count"),
    ("[train]\ntotal_steps = 5\n", "one \\[\\[stage\\]\\] table per stage"),
    ("[[stage]\n", "not valid TOML"),
])
def test_a_bad_chain_file_is_one_error_naming_the_file_and_stage(tmp_path: Path, text: str, message: str) -> None:
    from cardenvs.core.errors import BadArgumentError

    (tmp_path / "first.toml").write_text("[train]\ntotal_steps = 1024\n")
    chain = tmp_path / "chain.toml"
    chain.write_text(text)
    with pytest.raises(BadArgumentError, match=message) as err:
        main([GAME, "--stages", str(chain), "--out", str(tmp_path / "x"), "-q"])
    assert str(chain) in str(err.value)
    with pytest.raises(BadArgumentError, match="drop --config"):
        main([GAME, "--stages", str(chain), "--config", str(tmp_path / "first.toml"), "-q"])


def test_the_shipped_chain_files_end_at_their_shipped_policys_steps() -> None:
    """``train/configs/chains/<game>.toml`` retraces ``agents/policies/<game>.npz``: every stage's config loads, and the
    last stage stops at the shipped policy's step count (a chain edited away from the policy fails here)."""
    from cardenvs.agents.policy import read_npz, shipped_path
    from cardenvs.train.config import CONFIG_DIR
    from cardenvs.train.ppo import chain_stages

    chains = sorted((CONFIG_DIR / "chains").glob("*.toml"))
    assert chains
    for path in chains:
        stages = unless_stale_teacher(lambda: chain_stages(path.stem, path))
        if stages is None:
            continue
        # the file's own record of its training: read whatever rules version it was trained on (a policy of an
        # older rules version is still the one its chain retraces)
        shipped_meta = read_npz(shipped_path(path.stem))[0]
        assert stages[-1].stop_steps == shipped_meta["steps"], path
        assert [s.fresh_optimizer for s in stages][0] is False
