"""``cardenvs play`` and ``cardenvs replay`` as a person uses them: in a real terminal (tmux), keys typed, screen read.

Skipped, with the reason, where tmux is missing (``apt-get install tmux``; ``.ci/run`` installs it) or cannot start a
server.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardenvs.core.replay import Replay, simulate



def tmux_problem(tmux: str = "tmux") -> str | None:
    """Why these tests cannot drive a terminal here, or None: tmux missing, or present but unable to start a server
    (seen where /dev/null is a regular file); either way the tests are skipped with the reason, not failed."""
    if shutil.which(tmux) is None:
        return "tmux is not installed (apt-get install tmux)"
    probe = [tmux, "-L", f"cardenvs-probe-{os.getpid()}"]
    try:
        started = subprocess.run([*probe, "new-session", "-d", "-s", "probe", "sleep 5"], capture_output=True,
                                 text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"tmux cannot start a server here ({exc})"
    subprocess.run([*probe, "kill-server"], capture_output=True, timeout=20)
    if started.returncode != 0:
        return f"tmux cannot start a server here: {(started.stderr or started.stdout).strip() or started.returncode}"
    return None


TMUX_PROBLEM = tmux_problem()
needs_tmux = pytest.mark.skipif(TMUX_PROBLEM is not None, reason=str(TMUX_PROBLEM))
ACTION_ROW = re.compile(r"^\s*│\s*(\d+)\s*│", re.M)
DECISION = re.compile(r"your legal actions \(decision (\d+)\)")


class Tmux:
    def __init__(self, name: str, command: str, cwd: Path) -> None:
        self.name = name
        self.tmux = ["tmux", "-L", f"{name}-{os.getpid()}"]  # a server of its own: no other session interferes
        subprocess.run([*self.tmux, "new-session", "-d", "-s", name, "-x", "160", "-y", "70", "-c", str(cwd),
                        f"{command}; echo EXITED $?; sleep 60"], check=True)

    def screen(self) -> str:
        out = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name, "-S", "-70"],
                             capture_output=True, text=True)
        assert out.returncode == 0, f"the terminal is gone ({out.stderr.strip()})"
        return out.stdout

    def type(self, text: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", self.name, text, "Enter"], check=True)

    def wait_for(self, needle: str, timeout: float = 240.0) -> str:
        end = time.time() + timeout
        while time.time() < end:
            text = self.screen()
            if needle in text:
                return text
            time.sleep(0.3)
        raise AssertionError(f"{needle!r} never appeared; the screen:\n{self.screen()}")

    def wait_for_decision_after(self, previous: int, timeout: float = 120.0) -> tuple[int, str]:
        """Wait until the actions table of a decision later than ``previous`` is on the screen."""
        end = time.time() + timeout
        while time.time() < end:
            text = self.screen()
            seen = [int(n) for n in DECISION.findall(text)]
            if seen and seen[-1] > previous:
                return seen[-1], text
            time.sleep(0.3)
        raise AssertionError(f"no decision after {previous} appeared; the screen:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


@needs_tmux
def test_play_and_watch_in_a_real_terminal(tmp_path):
    cmd = (f"{shlex.quote(sys.executable)} -m cardenvs play levelneo --opponent heuristic --seed 4 "
           f"--replay-dir {shlex.quote(str(tmp_path / 'replays'))}")
    term = Tmux("cardenvs-play-test", cmd, tmp_path)
    try:
        screen = term.wait_for("your legal actions")
        assert "you are player_0" in screen
        term.type("? Ember Squire")
        term.wait_for("on_attack")
        term.type("why 3")
        term.wait_for("action 3 (")
        term.type("nonsense")
        term.wait_for("unknown command 'nonsense'")
        decision = -1
        for _ in range(6):  # six decisions of our own: the first legal action each time
            decision, screen = term.wait_for_decision_after(decision)
            table = screen.rsplit("your legal actions", 1)[1]
            term.type(ACTION_ROW.findall(table)[0])
        term.wait_for_decision_after(decision)
        term.type("quit")
        screen = term.wait_for("EXITED")
        assert "game over: you lose" in screen and "EXITED 0" in screen
    finally:
        term.close()
    saved = list((tmp_path / "replays").glob("levelneo-*.json"))
    assert len(saved) == 1
    replay = Replay.load(saved[0])
    assert replay.decisions[-1]["action"] == -1 and sum(d["seat"] == 0 for d in replay.decisions) == 7
    simulate(replay)

    watch = Tmux("cardenvs-replay-test", f"{shlex.quote(sys.executable)} -m cardenvs replay {saved[0]} --view 0",
                 tmp_path)
    try:
        watch.wait_for("player_0's view")
        watch.type("g 3")
        watch.wait_for("decision 3/")
        watch.type("v 1")
        watch.wait_for("player_1's view")
        watch.type("q")
        assert "EXITED 0" in watch.wait_for("EXITED")
    finally:
        watch.close()


def test_a_tmux_that_cannot_start_a_server_skips_these_tests(tmp_path: Path) -> None:
    """A tmux that exits with an error when it starts its server (as on a machine whose /dev/null is a regular file)
    gives a reason to skip, not a failure (checked failing with the probe reduced to shutil.which)."""
    broken = tmp_path / "tmux"
    broken.write_text("#!/bin/sh\necho 'server exited unexpectedly' >&2\nexit 1\n")
    broken.chmod(0o755)
    reason = tmux_problem(str(broken))
    assert reason is not None and "cannot start a server" in reason and "server exited unexpectedly" in reason
    assert tmux_problem(str(tmp_path / "no-such-tmux")) == "tmux is not installed (apt-get install tmux)"
