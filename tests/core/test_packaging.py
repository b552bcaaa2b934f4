"""cardenvs lives beside a user's code: a project with its own ``agents/`` package and ``train.py`` changes nothing."""
from __future__ import annotations

import os
import subprocess
import sys

SCRIPT = """
import cardenvs
from cardenvs.agents import make_agent
env = cardenvs.make_vec("levelneo", 4, opponent="heuristic", seed=0)
env.reset()
make_agent("relics", "heuristic")
import agents, train  # the user's own modules are still theirs
assert agents.MINE and train.MINE
print("ok")
"""


def test_a_project_with_its_own_agents_and_train_modules(tmp_path):
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text("MINE = True\ndef make_agent(*a, **k):\n    raise RuntimeError\n")
    (tmp_path / "train.py").write_text("MINE = True\n")
    (tmp_path / "benchmarks.py").write_text("MINE = True\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-2000:]
    help_out = subprocess.run([sys.executable, "-m", "cardenvs", "train", "--help"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)
    assert help_out.returncode == 0 and "cardenvs train" in help_out.stdout, help_out.stderr[-2000:]


def test_a_built_wheel_holds_every_games_folder(tmp_path):
    """The packages are found (setup.py), not listed: a wheel built from the checkout's files installs every game folder
    with its data (cards, decks, game.toml, RULES.md, CHECKLIST.md, golden/), and the remapped agents and train."""
    import shutil
    import zipfile
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists() or shutil.which("git") is None:
        import pytest

        pytest.skip("needs the git checkout to list the tracked files")
    tracked = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard", "--", "cardenvs", "agents", "train", "benchmarks", "setup.py",
                              "pyproject.toml", "README.md"], cwd=root, capture_output=True, check=True).stdout
    src = tmp_path / "src"
    for name in filter(None, tracked.decode().split("\0")):
        if (root / name).is_file():  # a file deleted but not yet committed is listed and absent
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, src / name)
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                          str(tmp_path / "dist"), str(src)], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    names = set(zipfile.ZipFile(next((tmp_path / "dist").glob("*.whl"))).namelist())
    # the checkout's game folders, not cardenvs.GAMES: a test in this process may have registered the skeleton
    for game in sorted(p.parent.name for p in (root / "cardenvs" / "games").glob("*/game.toml")):
        for data in ("__init__.py", "game.toml", "cards.toml", "RULES.md", "CHECKLIST.md", "golden/seed1.txt",
                     "golden/streams.json"):
            assert f"cardenvs/games/{game}/{data}" in names, (game, data)
        assert any(n.startswith(f"cardenvs/games/{game}/decks/") for n in names), game
    assert {"cardenvs/agents/__init__.py", "cardenvs/train/__init__.py", "cardenvs/benchmarks/__init__.py",
            "cardenvs/agents/policies/levelneo.npz"} <= names
    assert not any("__pycache__" in n or n.startswith(("tests/", "agents/", "docs/")) for n in names)
