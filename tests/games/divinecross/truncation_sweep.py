"""Truncation sweep under competent play (issue 12, C5): ``python tests/games/divinecross/truncation_sweep.py N``.

Plays N games for each pilot pairing (heuristic vs heuristic, heuristic vs random, random vs random) over all 9
starter-deck pairings (seats alternate), and prints per pairing: games, wins by seat, draws, truncations, the mean
and maximum number of turns. A truncation is a defect unless the documented caps (TURN_CAP, DECISION_CAP,
REDEAL_CAP in state.py) explain it.
"""
from __future__ import annotations

import sys
import time

import numpy as np

from cardenvs.agents import make_agent
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_TURN, TERMINATED, TRUNCATED
from cardenvs.core.seat_view import seat_view
from cardenvs.games.divinecross import SPEC


def sweep(pilots: tuple[str, str], games: int, seed: int = 0) -> dict:
    names = SPEC.starter_decks()
    pairs = [(a, b) for a in names for b in names]
    decks = [pairs[i % len(pairs)] for i in range(games)]
    agents = [make_agent("divinecross", pilots[0], seed=seed + 1), make_agent("divinecross", pilots[1], seed=seed + 2)]
    seat_a = (np.arange(games) // len(pairs)) % 2  # the seat pilots[0] plays, alternating over rounds of pairings
    g = BatchGame(SPEC, games, decks=decks, seed=np.arange(games, dtype=np.int64) + seed * 1_000_003)
    actions = np.zeros(games, dtype=np.int32)

    def decide(who, obs, mask):
        actions[:] = 0
        live = who >= 0
        for k, agent in enumerate(agents):
            rows = np.flatnonzero(live & ((who == seat_a) == (k == 0)))
            if rows.size:
                actions[rows] = agent.act(obs[rows], mask[rows], seat_view(SPEC, g.states, who[rows], rows=rows), who[rows])
        return actions

    t = time.perf_counter()
    g.play_out(decide)
    status, winner, turns = g.status, g.winner, g.states[:, H_TURN]
    a_wins = int(np.count_nonzero((status == TERMINATED) & (winner == seat_a)))
    b_wins = int(np.count_nonzero((status == TERMINATED) & (winner == 1 - seat_a)))
    return {
        "pilots": pilots, "games": games, "a_wins": a_wins, "b_wins": b_wins,
        "draws": int(np.count_nonzero((status == TERMINATED) & (winner == 2))),
        "truncated": int(np.count_nonzero(status == TRUNCATED)),
        "turns_mean": float(turns.mean()), "turns_max": int(turns.max()), "seconds": time.perf_counter() - t,
    }


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 2000
    for pilots in (("heuristic", "heuristic"), ("heuristic", "random"), ("random", "random")):
        r = sweep(pilots, games)
        print(f"{r['pilots'][0]} vs {r['pilots'][1]}: {r['games']} games, {r['a_wins']} / {r['b_wins']} wins, "
              f"{r['draws']} draws, {r['truncated']} truncated ({100 * r['truncated'] / r['games']:.2f}%), "
              f"turns mean {r['turns_mean']:.1f} max {r['turns_max']}  [{r['seconds']:.0f}s]", flush=True)


if __name__ == "__main__":
    main(sys.argv)
