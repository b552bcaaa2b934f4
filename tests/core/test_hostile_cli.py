"""Issue 43, findings 4, 5 (schedule) and 10: model files that would run code, absurd game counts, an opponent's
illegal action, Ctrl-C during ``eval``, an unreachable Ray address, a search turned off by its own parameter, and
two deck files with one label. Each test was seen failing without its fix."""
from __future__ import annotations

import base64
import json
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


# ----- finding 10: an opponent's illegal action, Ctrl-C, an unreachable Ray, --elo1, labels --------------------------
class _OnceIllegal:
    """A pilot that plays legal random moves, except once: an illegal action in the first row it is asked about."""

    name = "once-illegal"

    def __init__(self) -> None:
        self.calls = 0
        self.armed = False  # set once the env is reset: the illegal action comes during a step
        self.rng = np.random.default_rng(0)

    def act(self, obs, mask, states=None, players=None) -> np.ndarray:
        self.calls += 1
        noise = (self.rng.random(mask.shape) + 1.0) * (mask != 0)
        actions = np.argmax(noise, axis=1).astype(np.int32)
        if self.armed and len(actions):
            self.armed = False
            actions[0] = int(np.flatnonzero(mask[0] == 0)[0])  # an illegal action, once
        return actions


@pytest.mark.parametrize("mode", ["raise", "lose"])
def test_finding10_an_opponents_illegal_action_does_not_wedge_the_vector_env(mode: str) -> None:
    import cardenvs
    from cardenvs.core.errors import IllegalActionError

    opponent = _OnceIllegal()
    env = cardenvs.make_vec(GAME, 4, opponent=opponent, seed=0, illegal_action=mode, learner_seat=0)
    env.reset()
    opponent.armed = True
    raised = []
    for _ in range(40):
        actions = np.argmax(env.action_masks(), axis=1)
        try:
            env.step_async(actions)
            _, _, dones, infos = env.step_wait()
        except IllegalActionError as exc:
            raised.append(str(exc))
            continue
        if mode == "lose" and any("opponent_illegal_action" in info for info in infos):
            raised.append(next(info["opponent_illegal_action"] for info in infos if "opponent_illegal_action" in info))
    assert opponent.calls > 10, "the env stopped asking the opponent: wedged"
    assert len(raised) == 1, raised
    assert "once-illegal" in raised[0] and "illegal action" in raised[0]


def _eval_process(tmp_path: Path) -> subprocess.Popen:
    env = dict(os.environ, CARDENVS_QUIET="1", PYTHONUNBUFFERED="1")
    return subprocess.Popen([sys.executable, "-m", "cardenvs", "eval", GAME, "--agents", "random", "--games",
                             "400000", "--json", str(tmp_path / "out.json"), "--no-cards"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("delay", [6.0, 12.0])
def test_finding10_ctrl_c_during_eval_exits_130_and_writes_nothing(tmp_path: Path, delay: float) -> None:
    """Decided: an interrupted eval writes no result (a partial round robin would read as a finished one) and exits
    with status 130, one line on stderr, whatever it was doing (playing, merging, its worker threads busy)."""
    proc = _eval_process(tmp_path)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:  # pragma: no cover
        proc.kill()
        raise
    assert proc.returncode == 130, (proc.returncode, err[-2000:])
    # "cardenvs eval: interrupted: nothing was written" while playing, "cardenvs: interrupted" while still loading
    assert "Traceback" not in err and "interrupted" in err.strip().splitlines()[-1], err  # after the progress bar
    assert not (tmp_path / "out.json").exists()


def test_finding10_an_unreachable_ray_address_fails_in_seconds() -> None:
    import socket

    from cardenvs.eval.ray_backend import check_reachable

    with socket.socket() as s:  # a port nothing listens on: bound, never listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        t = time.perf_counter()
        for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
            with pytest.raises(BadArgumentError, match="could not reach Ray at"):
                check_reachable(address, timeout=2.0)
    assert time.perf_counter() - t < 10


def test_finding10_eval_backend_ray_with_a_dead_address_is_one_line(tmp_path: Path, capsys) -> None:
    pytest.importorskip("ray")
    import socket

    from cardenvs.cli import main

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        t = time.perf_counter()
        assert main(["eval", GAME, "--agents", "random", "--games", "2", "--backend", "ray", "--address",
                     f"127.0.0.1:{port}", "-q", "--json", str(tmp_path / "r.json")]) == 2
    assert time.perf_counter() - t < 60
    assert "could not reach Ray" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["0", "-5", "nan", "inf", "-inf"])
def test_finding10_optimize_refuses_an_elo1_that_turns_the_search_off(tmp_path: Path, value: str, capsys) -> None:
    from cardenvs.cli import main
    from cardenvs.eval.optimize import optimize_deck

    assert main(["decks", "optimize", GAME, "--start", "aggro", "--budget", "10", f"--elo1={value}",
                 "--out", str(tmp_path / "o.toml")]) == 2
    err = capsys.readouterr().err
    assert "--elo1 must be a finite number of Elo above 0" in err, err
    assert not (tmp_path / "o.toml").exists()
    with pytest.raises(BadArgumentError, match="elo1"):
        optimize_deck(GAME, "aggro", elo1=float(value), budget_games=10)


def test_finding10_deck_labels_are_unique_and_name_their_files(tmp_path: Path) -> None:
    from cardenvs.core.registry import get_game
    from cardenvs.eval.tournament import make_entries

    spec = get_game(GAME)
    text = (spec.deck_dir / "aggro.toml").read_text()
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    files = [tmp_path / "x" / "a.toml", tmp_path / "y" / "a.toml", tmp_path / "a#2.toml", tmp_path / "a#1.toml"]
    for f in files:
        f.write_text(text)
    labels = [e.label for e in make_entries(spec, [str(f) for f in files])]
    assert len(set(labels)) == len(labels), labels
    assert any("x" in label for label in labels) and any("y" in label for label in labels), labels
    assert "a#2" in labels and "a#1" in labels  # a file's own name is never taken by another file
    twice = [e.label for e in make_entries(spec, [str(files[0]), str(files[0])])]
    assert len(set(twice)) == 2, twice


# ----- finding 5 (schedule): an absurd game count is refused at once, and a schedule is made chunk by chunk --------
def test_finding5_absurd_game_counts_are_refused_with_the_limit(tmp_path: Path, capsys) -> None:
    from cardenvs.cli import main
    from cardenvs.eval.tournament import MAX_TOURNAMENT_GAMES, run_tournament

    t = time.perf_counter()
    assert main(["eval", GAME, "--agents", "random", "--games", "2000000000", "-q", "--json",
                 str(tmp_path / "r.json")]) == 2
    err = capsys.readouterr().err
    assert f"{MAX_TOURNAMENT_GAMES:,}" in err and "--games" in err, err
    assert main(["eval", GAME, "--sprt", "aggro", "burst", "--max-games", "2000000000", "-q", "--json",
                 str(tmp_path / "r.json")]) == 2
    assert f"{MAX_TOURNAMENT_GAMES:,}" in capsys.readouterr().err
    with pytest.raises(BadArgumentError, match="at most"):
        run_tournament(GAME, games=10**9, seed=0)
    assert time.perf_counter() - t < 60


def test_finding5_the_schedule_is_made_one_chunk_at_a_time() -> None:
    from cardenvs.eval.tournament import iter_round, plan_round

    chunks = iter_round(1, [(0, 1), (0, 2), (1, 2)], {0: (0, 10**9), 1: (0, 10**9)}, 4096)
    first = next(chunks)  # a billion games a pairing: made lazily, not allocated
    assert len(first) == 4096 and first.index == 0
    small = {0: (0, 7), 2: (3, 20)}
    lazy = list(iter_round(5, [(0, 1), (0, 2), (1, 2)], small, 5, 2, False, [7, 9, 11]))
    whole = plan_round(5, [(0, 1), (0, 2), (1, 2)], small, 5, 2, False, [7, 9, 11])
    assert [len(c) for c in lazy] == [5] * 9 + [3]
    for a, b in zip(lazy, whole):
        assert a.index == b.index and np.array_equal(a.seeds, b.seeds) and np.array_equal(a.game_ids, b.game_ids)
