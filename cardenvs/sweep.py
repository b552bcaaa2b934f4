"""Truncation and win rates of a game under competent and random pilots (issue 12 C.5), for any registered game.

``python -m cardenvs.sweep GAME [GAMES] [SEED] [--pilots heuristic-heuristic,heuristic-random,random-random]``
plays GAMES games (default 2000) for each pilot pairing over all starter-deck pairings (row i uses pairing i mod the
number of pairings; pilot A sits in seat i mod 2), with the one match loop of the evaluators
(``BatchGame.play_out``) and the registered agents; a heuristic runs without its legal-action fallback, so an
illegal choice fails the sweep. Prints one line per pairing: truncations (a defect unless the game's documented caps,
``turn_cap`` and ``decision_cap``, explain them), draws and those at the turn cap, pilot A's wins, decisions and
turns. Each game's RULES.md records what it measured.
"""
from __future__ import annotations

import argparse
import itertools
import time

import numpy as np

from .core.agents import make_agent
from .core.batch import BatchGame
from .core.header import DRAW, H_DECISIONS, H_STATUS, H_TURN, H_WINNER, TRUNCATED
from .core.registry import get_game
from .testing import Seats

__all__ = ["PAIRINGS", "sweep", "main"]

PAIRINGS = (("heuristic", "heuristic"), ("heuristic", "random"), ("random", "random"))


def sweep(game: str, pilots: tuple[str, str], games: int, seed: int = 2026) -> dict:
    """Play ``games`` games of ``pilots[0]`` (seat ``i % 2`` of row ``i``) against ``pilots[1]``; the counts."""
    spec = get_game(game)
    pairs = list(itertools.product(spec.starter_decks(), repeat=2))
    g = BatchGame(spec, games, decks=[pairs[i % len(pairs)] for i in range(games)], seed=seed)
    agents = [make_agent(spec.name, kind, seed=seed + j) for j, kind in enumerate(pilots)]
    seat_a = np.arange(games) % 2

    seats = Seats(agents, games, by="parity", fallback=False)  # a heuristic's illegal choice shows

    def decide(who: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = seats.act(obs, mask, g.states, who, spec)
        live = np.flatnonzero(who >= 0)
        if (mask[live, out[live]] == 0).any():
            raise AssertionError(f"{spec.name} {'-'.join(pilots)}: an illegal choice")
        return out

    start = time.time()
    decisions = g.play_out(decide)
    st = g.states
    winner = st[:, H_WINNER]
    return {
        "pilots": "-".join(pilots), "games": games, "truncated": int((st[:, H_STATUS] == TRUNCATED).sum()),
        "a_wins": int((winner == seat_a).sum()), "draws": int((winner == DRAW).sum()),
        "turn_cap_draws": int(((winner == DRAW) & (st[:, H_TURN] >= spec.turn_cap)).sum()),
        "decisions_mean": decisions / games, "decisions_max": int(st[:, H_DECISIONS].max()),
        "turns_mean": float(st[:, H_TURN].mean()), "turns_max": int(st[:, H_TURN].max()),
        "seconds": time.time() - start,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardenvs.sweep", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("games", nargs="?", type=int, default=2000)
    parser.add_argument("seed", nargs="?", type=int, default=2026)
    parser.add_argument("--pilots", default=",".join("-".join(p) for p in PAIRINGS),
                        help="comma-separated pairings A-B (default: %(default)s)")
    args = parser.parse_args(argv)
    for pairing in args.pilots.split(","):
        pilots = tuple(pairing.split("-"))
        if len(pilots) != 2:
            parser.error(f"a pairing is two pilots joined by '-', not {pairing!r}")
        r = sweep(args.game, pilots, args.games, args.seed)
        print(f"{pilots[0]} vs {pilots[1]}: {r['games']} games, truncated {r['truncated']}, {pilots[0]} (A) wins "
              f"{r['a_wins'] / r['games']:.3f}, draws {r['draws']} (turn cap {r['turn_cap_draws']}), decisions mean "
              f"{r['decisions_mean']:.0f} max {r['decisions_max']}, turns mean {r['turns_mean']:.1f} max "
              f"{r['turns_max']} ({r['seconds']:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
