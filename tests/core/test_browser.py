"""The HTML replay viewer and the evaluation report, opened in a real browser (headless Chromium).

Skipped, with the reason, where Chromium is not installed (``apt-get install chromium``; ``.ci/run`` installs it).
Each page is loaded with console logging on: any JavaScript error fails the test. The replay page is opened at
several decisions and views through its ``#step=N&view=V`` link (which drives the slider's own input handler),
and the board the browser shows must be the game's render for that decision and seat.
"""
from __future__ import annotations

import html as html_lib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cardenvs.core.replay import record_match, simulate
from cardenvs.viewer import write_html

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0", "--window-size=1200,1000"]
SCREENSHOTS = Path(os.environ.get("CARDENVS_SCREENSHOTS", "")) if os.environ.get("CARDENVS_SCREENSHOTS") else None


def chromium(url: str, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    out = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *extra, url],
                         capture_output=True, text=True, timeout=120)
    errors = [line for line in out.stderr.splitlines()
              if "CONSOLE" in line and ("Uncaught" in line or "Error" in line)]
    assert not errors, f"console errors in {url}:\n" + "\n".join(errors)
    return out


def board_text(dom: str) -> str:
    match = re.search(r'<pre id="board">(.*?)</pre>', dom, re.S)
    assert match, "no board in the page"
    return html_lib.unescape(match.group(1))


def test_replay_page_in_a_browser(tmp_path):
    run = simulate(record_match("levelneo", seed=21))
    page = write_html(run, tmp_path / "replay.html")
    last = len(run.states) - 1
    for step, view in ((0, "all"), (25, "0"), (25, "1"), (last, "all")):
        dom = chromium(f"file://{page}#step={step}&view={view}", tmp_path, "--dump-dom").stdout
        viewer = None if view == "all" else int(view)
        assert board_text(dom).strip() == run.render(step, viewer).strip(), f"step {step} view {view}"
        assert f"decision {step} / {last}" in dom
    shot = tmp_path / "replay.png"
    chromium(f"file://{page}#step=40&view=0", tmp_path, f"--screenshot={shot}")
    assert shot.stat().st_size > 10_000
    if SCREENSHOTS:
        shutil.copy(shot, SCREENSHOTS / "replay_viewer.png")


def test_eval_report_in_a_browser(tmp_path):
    from cardenvs.eval import run_tournament, summarize, write_report

    result = run_tournament("levelneo", games=20, seed=0)
    folder = write_report(summarize(result, bootstrap=50), tmp_path / "report")
    page = Path(folder) / "report.html" if Path(folder).is_dir() else Path(folder)
    dom = chromium(f"file://{page}", tmp_path, "--dump-dom").stdout
    assert "<img" in dom and "levelneo" in dom
    shot = tmp_path / "report.png"
    chromium(f"file://{page}", tmp_path, f"--screenshot={shot}")
    assert shot.stat().st_size > 10_000
    if SCREENSHOTS:
        shutil.copy(shot, SCREENSHOTS / "eval_report.png")
