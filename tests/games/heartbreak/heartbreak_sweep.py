"""Truncation and win rates of heartbreak under competent and random pilots (issue 12 C.5).

``python tests/games/heartbreak/heartbreak_sweep.py [GAMES] [SEED]`` plays GAMES games for each of heuristic vs
heuristic and heuristic vs random over all starter-deck pairings (row i uses pairing i mod 9; pilot A sits in seat
i mod 2), with the one match loop of the evaluators (``BatchGame.play_out``) and ``agents.make_agent``; the heuristic
runs without its legal-action fallback, so an illegal choice fails the sweep. Prints one line per pairing:
truncations (the documented cap is ``DECISION_CAP``; ``TURN_CAP`` ends a game as a draw), pilot A's wins, draws,
decisions and turns. Not a test module (pytest collects ``test_*.py`` only).
"""
from __future__ import annotations

import itertools
import sys
import time

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_DECISIONS, H_STATUS, H_TURN, H_WINNER, TRUNCATED
from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.state import TURN_CAP


def sweep(pilots: tuple[str, str], games: int, seed: int = 2026) -> dict:
    from cardenvs.agents import make_agent

    pairs = list(itertools.product(SPEC.starter_decks(), repeat=2))
    g = BatchGame(SPEC, games, decks=[pairs[i % len(pairs)] for i in range(games)], seed=seed)
    agents = [make_agent("heartbreak", kind, seed=seed + j) for j, kind in enumerate(pilots)]
    seat_a = np.arange(games) % 2

    def decide(who, obs, mask):
        out = np.zeros(games, dtype=np.int32)
        for j, agent in enumerate(agents):
            idx = np.flatnonzero((who >= 0) & ((who == seat_a) == (j == 0)))
            if idx.size:
                if hasattr(agent, "kernel"):
                    out[idx] = agent.act(obs[idx], mask[idx], g.states[idx], who[idx], fallback=False)
                else:
                    out[idx] = agent.act(obs[idx], mask[idx])
        return out

    t = time.time()
    g.play_out(decide)
    st = g.states
    winner = st[:, H_WINNER]
    return {
        "pilots": "-".join(pilots), "games": games,
        "truncated": int(np.sum(st[:, H_STATUS] == TRUNCATED)),
        "a_wins": int(np.sum(winner == seat_a)), "draws": int(np.sum(winner == 2)),
        "turn_cap_draws": int(np.sum((winner == 2) & (st[:, H_TURN] >= TURN_CAP))),
        "decisions_mean": float(st[:, H_DECISIONS].mean()), "decisions_max": int(st[:, H_DECISIONS].max()),
        "turns_mean": float(st[:, H_TURN].mean()), "turns_max": int(st[:, H_TURN].max()),
        "seconds": time.time() - t,
    }


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 2000
    seed = int(argv[1]) if len(argv) > 1 else 2026
    for pilots in (("heuristic", "heuristic"), ("heuristic", "random")):
        r = sweep(pilots, games, seed)
        print(f"{r['pilots']}: {r['games']} games, truncated {r['truncated']}, draws {r['draws']} "
              f"(turn cap {r['turn_cap_draws']}), pilot A wins {r['a_wins']} ({r['a_wins'] / games:.3f}), "
              f"decisions mean {r['decisions_mean']:.0f} max {r['decisions_max']}, turns mean "
              f"{r['turns_mean']:.1f} max {r['turns_max']}, {r['seconds']:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
