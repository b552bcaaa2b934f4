"""Issue 43, findings 4, 5 (schedule) and 10: model files that would run code, absurd game counts, an opponent's
illegal action, Ctrl-C during ``eval``, an unreachable Ray address, a search turned off by its own parameter, and
two deck files with one label. Each test was seen failing without its fix."""
from __future__ import annotations

import base64
import json
import math
import os
import pickle
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from cardenvs.core.errors import BadArgumentError

GAME = "levelneo"
ROOT = Path(__file__).resolve().parents[2]


# ----- finding 4: an SB3 .zip is unpickled, so it loads only when the user says they trust it ---------------------
class _Marker:
    """Unpickling this writes a file: proof that code from the model file ran."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self):
        return (Path.write_text, (Path(self.path), "code from the model file ran"))


def crafted_zip(tmp_path: Path) -> tuple[Path, Path]:
    """An SB3-shaped model file whose ``data`` entry carries a pickle that writes a marker file when loaded."""
    marker = tmp_path / "pwned.txt"
    payload = base64.b64encode(pickle.dumps(_Marker(marker))).decode()
    path = tmp_path / "model.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("data", json.dumps({"policy_class": {":type:": "x", ":serialized:": payload}}))
        zf.writestr("_stable_baselines3_version", "2.0.0")
    return path, marker


def test_finding4_an_untrusted_zip_is_refused_before_anything_is_unpickled(tmp_path: Path) -> None:
    from cardenvs.agents import make_agent
    from cardenvs.agents import policy as policy_mod

    path, marker = crafted_zip(tmp_path)
    for load in (lambda: make_agent(GAME, f"ppo:{path}"), lambda: policy_mod.load(path, game=GAME),
                 lambda: policy_mod.load_model(path), lambda: policy_mod.export(path, tmp_path / "o.npz", GAME),
                 lambda: make_agent(GAME, f"ppo:{str(path)[:-4]}")):  # "name" for "name.zip"
        with pytest.raises(BadArgumentError, match="--trust-pickle") as info:
            load()
        assert "runs whatever code" in str(info.value) and "model.zip" in str(info.value)
    assert not marker.exists()


def test_finding4_the_trust_flag_is_what_lets_a_zip_load(tmp_path: Path) -> None:
    """The refusal is the gate: with trust_pickle=True the (crafted) file reaches SB3's loader, which runs its pickle.
    This is the behaviour the flag's help text warns about."""
    pytest.importorskip("sb3_contrib")
    from cardenvs.agents import policy as policy_mod

    path, marker = crafted_zip(tmp_path)
    with pytest.raises(Exception):  # noqa: B017 (the crafted file is not a whole model: SB3 fails after unpickling)
        policy_mod.load_model(path, trust_pickle=True)
    assert marker.exists()


def test_finding4_eval_play_and_train_refuse_an_untrusted_zip_with_one_line(tmp_path: Path, capsys) -> None:
    from cardenvs.cli import main

    path, marker = crafted_zip(tmp_path)
    assert main(["eval", GAME, "--agents", f"ppo:{path}", "--games", "2", "-q", "--json",
                 str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert "--trust-pickle" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert main(["decks", "optimize", GAME, "--start", "aggro", "--pilot", f"ppo:{path}", "--budget", "10",
                 "--out", str(tmp_path / "o.toml")]) == 2
    assert "--trust-pickle" in capsys.readouterr().err
    assert not marker.exists()


def test_finding4_train_resume_and_bc_teacher_from_a_config_are_refused(tmp_path: Path, capsys) -> None:
    pytest.importorskip("sb3_contrib")
    from cardenvs.core.errors import CardenvsError
    from cardenvs.train.ppo import main as train

    path, marker = crafted_zip(tmp_path)
    with pytest.raises(CardenvsError, match="--trust-pickle"):
        train([GAME, "--resume", str(path), "--out", str(tmp_path / "run"), "-q", "--no-progress"])
    cfg = tmp_path / "bc.toml"
    cfg.write_text(f'[bc]\ngames = 4\nteacher = "ppo:{path}"\n')
    with pytest.raises(CardenvsError, match="--trust-pickle"):  # a configuration file cannot vouch for a zip
        train([GAME, "--config", str(cfg), "--out", str(tmp_path / "run2"), "-q", "--no-progress"])
    assert not marker.exists()


def test_finding4_help_texts_say_a_zip_runs_code() -> None:
    from cardenvs.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for command in ("eval", "play"):
        text = sub.choices[command].format_help()
        assert "--trust-pickle" in text and "runs code" in " ".join(text.split()), command
