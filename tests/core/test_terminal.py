"""``cardenvs play`` and ``cardenvs replay`` as a person uses them: in a real terminal (tmux), keys typed, screen read.

Skipped, with the reason, where tmux is missing (``apt-get install tmux``; ``.ci/run`` installs it) or cannot start a
server.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
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


NARRATION = re.compile(r"^    (you: |opponent: |your [a-z ]+: |opponent's [a-z ]+: |battle: )", re.M)


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def legal_count(run, k: int) -> int:
    """How many actions were legal for player 0 before decision ``k`` of a replay played back."""
    run.game.states[0] = run.states[k]
    return int(run.game.legal_mask(0)[0].sum())


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
        term.wait_for("When it attacks: +500 AP to itself")  # card text in words, not ops
        term.type("why 3")
        term.wait_for("action 3 (")
        term.type("nonsense")
        term.wait_for("unknown command 'nonsense'")
        decision = -1
        screens = []
        for _ in range(6):  # six decisions of our own: the first legal action each time
            decision, screen = term.wait_for_decision_after(decision)
            screens.append(screen)
            table = screen.rsplit("your legal actions", 1)[1]
            term.type(ACTION_ROW.findall(table)[0])
        screens.append(term.wait_for_decision_after(decision)[1])
        seen = "\n".join(screens)
        assert "(your only legal action, taken for you)" in seen  # auto-advance, said
        # narration: under an action, what it changed on our own view of the board
        assert NARRATION.search(seen), seen
        term.type("quit")
        screen = term.wait_for("EXITED")
        assert "EXITED 0" in screen
        over = re.search(r"game over: you lose after (\d+) decisions", screen)
        assert over, screen
    finally:
        term.close()
    saved = list((tmp_path / "replays").glob("levelneo-*.json"))
    assert len(saved) == 1
    assert stat.S_IMODE(saved[0].stat().st_mode) == 0o644 & ~current_umask()  # as other files, not mkstemp's 0600
    replay = Replay.load(saved[0])
    # the screen and the replay count the same decisions (the resignation is one)
    assert replay.decisions[-1]["action"] == -1 and int(over.group(1)) == len(replay.decisions)
    run = simulate(replay)
    # auto-advance: every decision of ours with one legal action was taken for us, so exactly the six we typed had
    # a choice (checked failing with auto-advance off: one-action decisions then wait for a typed id)
    choices = [legal_count(run, k) for k, d in enumerate(replay.decisions) if d["seat"] == 0 and d["action"] != -1]
    assert sum(c > 1 for c in choices) == 6 and sum(c == 1 for c in choices) >= 1, choices

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


TICKER = """
import time
from rich.console import Console
from rich.progress import Progress
from cardenvs.core.compiling import compile_with_progress
compile_with_progress("relics", "batch_mask", lambda: time.sleep(3))
with Progress(console=Console(stderr=True)) as bar:
    bar.add_task("levelneo eval", total=10)
    compile_with_progress("relics", "batch_step", lambda: time.sleep(4))
print("TICKED")
"""


@needs_tmux
def test_the_first_compile_line_is_one_line_in_a_real_terminal(tmp_path: Path) -> None:
    """The compile ticker redraws one line, alone and under a progress bar (a rich live display printed each redraw as
    a new line: one line a second; checked failing on that code), and leaves one line saying what it compiled."""
    script = tmp_path / "tick.py"
    script.write_text(TICKER)
    term = Tmux("cardenvs-tick-test", f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}", tmp_path)
    try:
        screen = term.wait_for("compiling relics kernels (first run only): batch_mask", timeout=120)
        time.sleep(2.5)  # two redraws of the ticking line
        assert term.screen().count("batch_mask") == 1
        screen = term.wait_for("EXITED", timeout=120)
    finally:
        term.close()
    assert "TICKED" in screen and "EXITED 0" in screen
    assert screen.count("compiling relics kernels (first run only): batch_step") == 1, screen
    assert screen.count("compiled relics batch_step in 4 s") == 1 and screen.count("compiled relics batch_mask") == 1
