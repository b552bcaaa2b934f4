"""A look-ahead pilot: flat Monte Carlo search over a known opponent, to measure how much a game's luck leaves to win.

At each of its decisions :class:`LookaheadAgent` tries every legal action in ``rollouts`` copies of the game, plays
each copy to the end with a rollout pilot for itself and the opponent's own policy (by default the masked random
agent) for the other side, and takes the action that won most often (the rollout pilot's own choice wins ties). It
is a one-step policy improvement of the rollout pilot against that opponent, so its win rate against random is a
lower bound on what a pilot can reach there, and a much stronger one than any trained policy: a deck-strength bar
that this searcher misses is out of reach for reasons of luck rather than of training.

``hidden="redeal"`` (the fair mode) gives each copy the game's ``hide``: what the searcher cannot see is re-dealt
(the other hand, both deck orders). Every candidate action of a decision is tried on the same ``rollouts`` copies
(common random numbers), so actions are compared on the same deals. ``hidden="known"`` plays the copies on the seat
view as it is handed, without a re-deal: since every caller hands agents the view (issue 38), that is the view's
canonical deal, not the true cards, so it is no longer the oracle it was.
In games with simultaneous plans the copies keep the part of the opponent's plan already made this phase (``hide``
does not re-deal a plan), which only the second player to plan can have seen; the script reports results per seat for
that reason.

    python -m cardenvs.train.lookahead simulfight --games 200 --rollouts 16 --pilot ppo --hidden redeal

Slow by design (``rollouts`` x legal actions x the rest of the game, per decision). The agent itself is the search
pilot of ``agents/search.py`` (``--agents search[:N]``); this script runs it against a chosen opponent and model.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from cardenvs.agents.search import HIDDEN_MODES, SearchAgent
from cardenvs.core.errors import CardenvsError


#: the look-ahead pilot is the search pilot (``agents/search.py``), kept under this name for the script and its tests
LookaheadAgent = SearchAgent


#: deck settings: the bars' default pair, all starter pairings and sealed test pairs (train.bars, train.protocol),
#: and the validation ("unseen") pairs training's evaluations score
CHECKS = ("pair", "starters", "unseen", "test")


def deck_pairings(game: str, check: str, deck_bank: int = 256, train_seed: int = 0, pairs: int = 20) -> list:
    """The deck pairs of one of the bars' checks: the default pair (None), every ordered starter pairing, or the
    unseen pairs a deck-general run with ``train_seed`` and ``deck_bank`` never used (``train.evaluate``'s sets)."""
    from .evaluate import starter_pairings, unseen_pairings

    if check == "pair":
        return [None]
    if check == "starters":
        return starter_pairings(game)
    if check == "test":
        from .protocol import sealed_pairs

        return sealed_pairs(game, pairs, train_seed, deck_bank)
    return unseen_pairings(game, pairs, train_seed, deck_bank)


def main(argv: list[str] | None = None) -> int:
    from tqdm import tqdm

    from .evaluate import MatchResult, add_result, play_match

    ap = argparse.ArgumentParser(prog="python -m cardenvs.train.lookahead", description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=200, help="seat-swapped games, spread over the pairings (200)")
    ap.add_argument("--decks", choices=CHECKS, default="pair",
                    help="the default pair, all starter pairings, 20 validation ('unseen') pairs or the bars' 20 "
                         "sealed test pairs (default pair)")
    ap.add_argument("--rollouts", type=int, default=16, help="copies per legal action and decision (default 16)")
    ap.add_argument("--pilot", default="heuristic", help="rollout pilot for the searcher (default heuristic)")
    ap.add_argument("--opponent", default="random", help="the opponent, also its model in the copies")
    ap.add_argument("--hidden", choices=HIDDEN_MODES, default="redeal")
    ap.add_argument("--batch", type=int, default=50, help="games played at once (default 50)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, help="write the result as JSON here")
    ap.add_argument("--trust-pickle", action="store_true", dest="trust_pickle",
                    help="load ppo:FILE.zip pilots although SB3 unpickles them (a crafted .zip runs code)")
    args = ap.parse_args(argv)
    from cardenvs.agents.policy import trust_pilots

    trust_pilots([args.pilot, args.opponent], args.trust_pickle)
    t0 = time.perf_counter()
    total = MatchResult.empty()
    per_pairing: dict[str, MatchResult] = {}
    try:
        agent = LookaheadAgent(args.game, args.pilot, args.opponent, args.rollouts, args.hidden, args.seed)
        pairings = deck_pairings(args.game, args.decks)
        per = max(2, args.games // len(pairings))
        with tqdm(total=per * len(pairings), desc=f"lookahead {args.game} {args.decks}", unit="game") as bar:
            for k, pair in enumerate(pairings):
                name = "default pair" if pair is None else (f"{pair[0]} vs {pair[1]}" if args.decks == "starters"
                                                            else f"{args.decks} pair {k}")
                for j, start in enumerate(range(0, per, max(2, args.batch))):
                    n = min(max(2, args.batch), per - start)
                    r = play_match(args.game, agent, args.opponent, games=n, decks=pair,
                                   seed=(args.seed * 1000 + k) * 1000 + j)
                    add_result(per_pairing.setdefault(name, MatchResult.empty()), r)
                    add_result(total, r)
                    bar.update(n)
    except CardenvsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    games = total.games
    lo, hi = total.ci
    result = {"game": args.game, "decks": args.decks, "pilot": args.pilot, "opponent": args.opponent,
              "rollouts": args.rollouts, "hidden": args.hidden, "seed": args.seed, "games": games,
              "wins": total.wins, "draws": total.draws, "losses": total.losses,
              "by_seat": {s: list(v) for s, v in total.by_seat.items()}, "win_rate": total.win_rate, "ci95": [lo, hi],
              "pairings": {name: [r.wins, r.draws, r.losses] for name, r in per_pairing.items()},
              "searched_decisions": agent.searched, "overruled_pilot": agent.changed,
              "seconds": round(time.perf_counter() - t0, 1)}
    seat = "  ".join(f"seat {s}: {w}/{w + d + l_}" for s, (w, d, l_) in result["by_seat"].items())
    print(f"{args.game} {args.decks}: lookahead ({args.pilot} rollouts x{args.rollouts}, hidden {args.hidden}) vs "
          f"{args.opponent}: {result['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] over {games} games ({seat}); "
          f"{agent.changed} of {agent.searched} searched decisions overruled the pilot; {result['seconds']} s")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1))
    return 0


__all__ = ["CHECKS", "deck_pairings", "HIDDEN_MODES", "LookaheadAgent", "main"]


if __name__ == "__main__":
    raise SystemExit(main())
