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


def test_the_core_does_not_import_the_agents():
    """The import cycle core -> agents -> core is gone: agent names resolve through the core's own factory."""
    code = ("import sys, cardenvs, cardenvs.core.vector, cardenvs.core.batch, cardenvs.testing, cardenvs.eval; "
            "print(any(m == 'cardenvs.agents' or m.startswith('cardenvs.agents.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.strip() == "False", out.stderr[-2000:]
