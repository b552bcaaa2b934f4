"""The strength bars a policy must clear before it ships: ``python -m cardenvs.train.bars GAME POLICY``.

Six seat-swapped matches of ``--games`` games each (2,000 by default), the policy against the heuristic and against
random, on three sets of decks: the game's default starter pair, every ordered pair of starter decks (mirrors
included) and 20 pairs of the *test* deck set (:mod:`train.protocol`: random legal decks from a seed family that
training and model selection never draw from; ``--deck-bank`` and ``--train-seed`` must be the run's). Against
random the test pairs are balanced ones only (their random mirror within 0.35-0.65 of the decisive games, under 10%
draws; how many candidates were tried is reported). A bar is met when the win rate (draws count as not won) reaches
it: 0.60 against the heuristic, 0.95 against random; on the all-starters and test checks each seat's win rate must
reach it too (there both seats play the same decks, so a seat gap is the policy's), and on the test check every deck
must clear the per-deck floor (the policy must not score below a random pilot of the same deck against the same
opponent). The test check also reports the pair-bootstrap (cluster) interval: games within a deck pair are not
independent draws of a deck. On the default pair the seats are reported but do not gate: one seat holds one deck,
and a lopsided matchup (divinecross's blaze against tide) moves that seat's figure whoever pilots.

Prints one table, writes ``<out>/<game>_<opponent>_<check>.json`` per match (with the per-pairing counts) and
``<out>/bars.json``; the exit status is 0 when every bar is met, 1 when one is not.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Sequence

#: the issue-14 bars: win rate of the policy against each opponent
BARS: dict[str, float] = {"heuristic": 0.60, "random": 0.95}
CHECKS = ("pair", "starters", "test")
#: checks where each seat must clear the bar too (both seats play the same decks there)
SEAT_GATED = ("starters", "test")
#: random-vs-random games per candidate pair when the test pairs against random are chosen (balanced pairs only)
MIRROR_GAMES = 100


def seat_rates(result: Any) -> dict[int, float]:
    return {int(s): w / max(w + d + l_, 1) for s, (w, d, l_) in result.by_seat.items()}


def verdict(opponent: str, check: str, result: Any, floor: dict | None = None) -> bool:
    """Whether one match meets its bar (the rate, on the seat-gated checks each seat's rate, and the per-deck
    ``floor`` where one was measured)."""
    bar = BARS[opponent]
    if result.win_rate < bar or (floor is not None and not floor["met"]):
        return False
    return check not in SEAT_GATED or all(r >= bar for r in seat_rates(result).values())


def play_test(game: str, policy: str, opponent: str, games: int, seed: int, train_seed: int, deck_bank: int,
              pairs: int, pairings: dict, validation_pairs: int = 20) -> tuple[Any, dict]:
    """The test check: ``policy`` against ``opponent`` on the test pairs (balanced ones against random), the random
    pilot's baseline on the same pairs for the per-deck floor, and the pair-bootstrap interval."""
    from .evaluate import MatchResult, add_result, play_match
    from .protocol import balanced_pairs, deck_floor, pair_bootstrap, sealed_pairs

    extra: dict = {}
    if opponent == "random":
        chosen, info = balanced_pairs(game, pairs, games=MIRROR_GAMES, seed=seed, train_seed=train_seed,
                                      deck_bank=deck_bank, validation_pairs=validation_pairs)
        baseline = info["mirrors"]
        extra.update(pairs_tried=info["tried"], pairs_kept=info["kept"])
    else:
        chosen = sealed_pairs(game, pairs, train_seed, deck_bank, validation_pairs=validation_pairs)
        baseline = None
    per = max(2, int(games) // max(len(chosen), 1))
    total, results = MatchResult.empty(), []
    for k, pair in enumerate(chosen):
        r = play_match(game, policy, opponent, games=per, seed=seed * 1000 + k, decks=pair)
        pairings[f"test pair {k}"] = r
        results.append(r)
        add_result(total, r)
    if baseline is None:
        baseline = [play_match(game, "random", opponent, games=per, seed=seed * 1000 + k, decks=pair)
                    for k, pair in enumerate(chosen)]
    extra["pair_ci95"] = list(pair_bootstrap(results, seed=seed))
    extra["pairs"] = len(chosen)
    extra["floor"] = deck_floor(chosen, results, baseline)
    return total, extra


def run_bars(game: str, policy: str, games: int = 2000, seed: int = 0, deck_bank: int = 256, train_seed: int = 0,
             test_pairs: int = 20, validation_pairs: int = 20, out: str | Path | None = None,
             log: Any = print) -> dict:
    """Play the six matches and return ``{"game", "policy", "passed", "checks": [...]}`` (see the module doc)."""
    from .evaluate import match_json, play_match, play_starters

    rows = []
    for opponent in BARS:
        for check in CHECKS:
            t = time.perf_counter()
            pairings: dict = {}
            extra: dict = {}
            if check == "pair":
                res = play_match(game, policy, opponent, games=games, seed=seed)
            elif check == "starters":
                res = play_starters(game, policy, opponent, games=games, seed=seed, per_pairing=pairings)
            else:
                res, extra = play_test(game, policy, opponent, games, seed, train_seed, deck_bank, test_pairs,
                                       pairings, validation_pairs)
            ok = verdict(opponent, check, res, extra.get("floor"))
            lo, hi = res.ci
            seats = seat_rates(res)
            rows.append({"opponent": opponent, "check": check, "bar": BARS[opponent], "passed": ok,
                         "win_rate": res.win_rate, "ci95": [lo, hi], "seat_win_rates": seats,
                         "wins": res.wins, "draws": res.draws, "losses": res.losses, **extra,
                         "seconds": round(time.perf_counter() - t, 1)})
            more = ""
            if "pair_ci95" in extra:
                plo, phi = extra["pair_ci95"]
                floor = extra["floor"]
                more = (f"  pairs [{plo:.3f}, {phi:.3f}] over {extra['pairs']}"
                        + (f" (balanced: {extra['pairs_kept']} of {extra['pairs_tried']} tried)"
                           if "pairs_tried" in extra else "")
                        + f"  floor {'met' if floor['met'] else 'MISSED on ' + str(len(floor['below']))} of "
                          f"{floor['decks']} decks")
            log(f"{game} vs {opponent:<9} {check:<8} {res.win_rate:.3f} [{lo:.3f}, {hi:.3f}]  seats "
                f"{seats.get(0, 0):.3f} / {seats.get(1, 0):.3f}{more}  bar {BARS[opponent]:.2f}  "
                f"{'met' if ok else 'NOT MET'}  ({rows[-1]['seconds']:.0f} s)")
            if out is not None:
                Path(out).mkdir(parents=True, exist_ok=True)
                data = match_json(game, policy, opponent, seed, res, pairings)
                (Path(out) / f"{game}_{opponent}_{check}.json").write_text(json.dumps(data, indent=1))
    summary = {"game": game, "policy": policy, "games": games, "seed": seed, "deck_bank": deck_bank,
               "train_seed": train_seed, "test_pairs": test_pairs, "validation_pairs": validation_pairs,
               "passed": all(r["passed"] for r in rows), "checks": rows}
    if out is not None:
        (Path(out) / "bars.json").write_text(json.dumps(summary, indent=1))
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    import numba

    import cardenvs
    from cardenvs.core.errors import CardenvsError

    ap = argparse.ArgumentParser(prog="python -m cardenvs.train.bars", description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("policy", help="ppo (the shipped policy) or ppo:PATH (.npz or .zip)")
    ap.add_argument("--games", type=int, default=2000, help="games per match (default 2000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--deck-bank", type=int, default=256, dest="deck_bank",
                    help="the training run's [train] deck_bank (its decks are kept out of the test pairs)")
    ap.add_argument("--test-pairs", type=int, default=20, dest="test_pairs",
                    help="deck pairs of the test set (train/protocol.py; default 20)")
    ap.add_argument("--validation-pairs", type=int, default=20, dest="validation_pairs",
                    help="the training run's [eval] holdout_pairs: its validation pairs are kept out of the test set")
    ap.add_argument("--train-seed", type=int, default=0, dest="train_seed", help="the training run's seed")
    ap.add_argument("--out", help="folder for the per-match JSON and bars.json")
    ap.add_argument("--ship", metavar="PATH", help="when every bar is met, write the policy (.npz) to PATH as a policy "
                    "of the current rules and observation, its bar results in its metadata (agents/policy.py "
                    "certify): how a policy trained on an older rules version of the same fields ships again")
    args = ap.parse_args(argv)
    if args.games < 2:
        ap.error(f"--games must be at least 2, got {args.games}")
    if args.test_pairs < 1:
        ap.error(f"--test-pairs must be at least 1, got {args.test_pairs}")
    numba.set_num_threads(1)  # tiny kernels per call: one thread is fastest on small machines
    try:
        game = cardenvs.get_game(args.game).name
        summary = run_bars(game, args.policy, games=args.games, seed=args.seed, deck_bank=args.deck_bank,
                           train_seed=args.train_seed, test_pairs=args.test_pairs,
                           validation_pairs=args.validation_pairs, out=args.out)
    except CardenvsError as exc:
        print(f"python -m cardenvs.train.bars: error: {exc}", file=sys.stderr)
        return 2
    failed = [f"vs {r['opponent']} {r['check']}" for r in summary["checks"] if not r["passed"]]
    print(f"{game}: every bar met" if not failed else f"{game}: bars not met: {', '.join(failed)}")
    if args.ship and not failed:
        from cardenvs.agents.policy import certify, shipped_path

        src = shipped_path(game) if args.policy == "ppo" else args.policy.removeprefix("ppo:")
        try:
            print(f"[ship] {certify(src, game, args.ship, summary)}: written as a {game} policy of the current rules "
                  f"and observation, with these bar results")
        except CardenvsError as exc:
            print(f"python -m cardenvs.train.bars: error: --ship: {exc}", file=sys.stderr)
            return 2
    elif args.ship:
        print(f"[ship] {args.ship} not written: a policy ships only when every bar is met")
    return 0 if not failed else 1


__all__ = ["BARS", "CHECKS", "play_test", "run_bars", "verdict", "main"]


if __name__ == "__main__":
    sys.exit(main())
