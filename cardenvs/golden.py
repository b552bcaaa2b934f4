"""Golden playthroughs: seeded random games rendered to text, stored under ``tests/golden/`` and compared by a test.

A rules change shows up as a readable diff. Regenerate after an intended change with
``python -m cardenvs.golden --write`` and review the diff like code.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from . import available_games, make_env

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
SEEDS = (1, 2)
MAX_DECISIONS = 120


def playthrough(game: str, seed: int, max_decisions: int = MAX_DECISIONS) -> str:
    """The omniscient board before each decision, the decision taken, and the result."""
    env = make_env(game, raw=True, render_mode="ansi")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    lines = [f"# {env.metadata['name']} seed {seed}: random legal play, first {max_decisions} decisions"]
    for n in range(max_decisions):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = env.legal_actions()
        action = int(rng.choice(legal))
        lines += ["", f"## decision {n}: {agent} to act", env.render(), f"-> {action}: {env.action_name(action)}"]
        env.step(action)
    lines += ["", "## result", f"rewards: {env.rewards}", f"terminations: {env.terminations}",
              f"truncations: {env.truncations}"]
    return "\n".join(lines) + "\n"


def golden_path(game: str, seed: int) -> Path:
    return GOLDEN_DIR / f"{game}_seed{seed}.txt"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the golden files")
    parser.add_argument("games", nargs="*", default=None)
    args = parser.parse_args(argv)
    for game in args.games or available_games():
        for seed in SEEDS:
            text = playthrough(game, seed)
            path = golden_path(game, seed)
            if args.write:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
                print(f"wrote {path}")
            else:
                same = path.is_file() and path.read_text() == text
                print(f"{path}: {'ok' if same else 'DIFFERS'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
