"""Truncation and win rates of levelneo under competent and random pilots (issue 12 C.5).

``python -m cardenvs.games.levelneo.sweep [GAMES] [SEED]`` plays GAMES games for each of heuristic vs heuristic,
heuristic vs random and random vs random over all starter-deck pairings (row i uses pairing i mod 25; pilot A sits in
seat i mod 2), with the one match loop of the evaluators (``BatchGame.play_out``) and ``agents.make_agent``; the
heuristic runs without its legal-action fallback, so an illegal choice fails the sweep. Prints one line per pairing:
truncations (the documented caps are ``TURN_CAP`` and ``DECISION_CAP``), pilot A's wins, draws, decisions and turns.
"""
from __future__ import annotations

import itertools
import sys
import time

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import DRAW, H_DECISIONS, H_STATUS, H_TURN, H_WINNER, TRUNCATED

from . import SPEC


def sweep(pilots: tuple[str, str], games: int, seed: int = 2026) -> dict:
    from cardenvs.agents import make_agent

    pairs = list(itertools.product(SPEC.starter_decks(), repeat=2))
    g = BatchGame(SPEC, games, decks=[pairs[i % len(pairs)] for i in range(games)], seed=seed)
    agents = [make_agent("levelneo", kind, seed=seed + j) for j, kind in enumerate(pilots)]
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
        live = np.flatnonzero(who >= 0)
        if (mask[live, out[live]] == 0).any():
            raise AssertionError(f"{pilots}: an illegal choice")
        return out

    start = time.time()
    decisions = g.play_out(decide)
    st = g.states
    return {
        "pilots": pilots, "games": games, "truncated": int((st[:, H_STATUS] == TRUNCATED).sum()),
        "a_wins": int((st[:, H_WINNER] == seat_a).sum()), "draws": int((st[:, H_WINNER] == DRAW).sum()),
        "decisions_mean": decisions / games, "decisions_max": int(st[:, H_DECISIONS].max()),
        "turn_mean": float(st[:, H_TURN].mean()), "turn_max": int(st[:, H_TURN].max()), "seconds": time.time() - start,
    }


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 2000
    seed = int(argv[1]) if len(argv) > 1 else 2026
    for pilots in (("heuristic", "heuristic"), ("heuristic", "random"), ("random", "random")):
        r = sweep(pilots, games, seed)
        print(f"{pilots[0]} vs {pilots[1]}: {games} games, truncated {r['truncated']}, {pilots[0]} (A) wins "
              f"{r['a_wins'] / games:.3f}, draws {r['draws']}, decisions mean {r['decisions_mean']:.0f} max "
              f"{r['decisions_max']}, turns mean {r['turn_mean']:.1f} max {r['turn_max']} ({r['seconds']:.0f} s)",
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
