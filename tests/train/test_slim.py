"""``train.slim``: a saved model without its Adam state and last batch plays exactly as before and resumes."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

GAME = "levelneo"
RUN = """
[ppo]
n_steps = 16
batch_size = 128
n_epochs = 1
net_arch = [32, 32]
[train]
num_envs = 8
checkpoint_every = 100000
total_steps = 128
[opponents]
mix = { random = 1.0 }
[eval]
every = 100000
games = 4
holdout_pairs = 0
opponents = ["random"]
"""


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from cardenvs.train.ppo import main

    root = tmp_path_factory.mktemp("slim")
    cfg = root / "run.toml"
    cfg.write_text(RUN)
    summary = main([GAME, "--config", str(cfg), "--out", str(root / "run"), "-q", "--no-progress"])
    return Path(summary["final_model"])


def test_slim_model_has_the_same_policy_without_optimizer_moments_or_last_batch(trained: Path, tmp_path: Path) -> None:
    """Same logits and values on real observations, same step count; the saved optimizer state holds no moments and
    the last observations are gone (checked failing with ``exclude`` dropped from the save: ``_last_obs`` stayed)."""
    import torch
    from sb3_contrib import MaskablePPO

    import cardenvs
    from cardenvs.train.slim import slim

    out = tmp_path / "slim.zip"
    summary = slim(trained, out)
    assert summary["bytes"][1] < summary["bytes"][0]
    old, new = MaskablePPO.load(str(trained), device="cpu"), MaskablePPO.load(str(out), device="cpu")
    assert new.num_timesteps == old.num_timesteps > 0 and new.n_steps == old.n_steps
    assert new._last_obs is None and old._last_obs is not None
    saved = torch.load(zipfile.ZipFile(out).open("policy.optimizer.pth"), weights_only=False)
    assert saved["state"] == {}
    vec = cardenvs.make_vec(GAME, 8, opponent="random", seed=5)
    obs = torch.as_tensor(vec.reset(), dtype=torch.float32)
    with torch.no_grad():
        for a, b in ((old.policy.get_distribution(obs).distribution.logits, new.policy.get_distribution(obs).distribution.logits),
                     (old.policy.predict_values(obs), new.policy.predict_values(obs))):
            np.testing.assert_array_equal(a.numpy(), b.numpy())
    lineage = json.loads(out.with_suffix(".json").read_text())["lineage"]
    assert lineage[-1]["slimmed"]["steps"] == old.num_timesteps


def test_slim_model_resumes_and_cli_errors_are_one_line(trained: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``--resume`` of the slim copy trains on from its step count; a missing file, a non-model file and an
    overwrite of the source are one message each, not a traceback."""
    from cardenvs.train.ppo import main as train
    from cardenvs.train.slim import main

    out = tmp_path / "slim.zip"
    main([str(trained), str(out)])
    cfg = tmp_path / "more.toml"
    cfg.write_text(RUN.replace("total_steps = 128", "total_steps = 384"))
    summary = train([GAME, "--config", str(cfg), "--resume", str(out), "--out", str(tmp_path / "more"), "-q",
                     "--no-progress"])
    assert summary["steps"] >= 384
    bad = tmp_path / "bad.zip"
    bad.write_text("not a zip")
    for argv, expected in (([str(tmp_path / "none.zip"), str(out)], "no model file"),
                           ([str(bad), str(tmp_path / "b.zip")], "--trust-pickle"),  # before a call that trusts
                           (["--trust-pickle", str(bad), str(tmp_path / "b.zip")], "not a saved MaskablePPO model"),
                           ([str(out), str(out)], "must not overwrite")):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
        assert expected in capsys.readouterr().err
