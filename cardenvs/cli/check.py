"""``cardenvs check GAME...``: play each game under pairs of pilots and check every invariant
(:func:`cardenvs.testing.check_game`); one report per game, exit status 1 when any fails.

    cardenvs check levelneo heartbreak --pilots heuristic --games 10000
"""
from __future__ import annotations

import argparse
import time
from typing import Any

from .args import positive_int, seed_type

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """``cardenvs check``: added to the command line's subcommands (``python -m cardenvs check`` is the same)."""
    p = sub.add_parser("check", help="play games under pilots and check every invariant (conservation, masks, "
                                     "hidden information, timing leaks, replay, single == batch)",
                       description="Play a game under pilots and check every invariant.")
    p.add_argument("games", nargs="+", help="game names")
    p.add_argument("--games-per-pairing", "--games", dest="n", type=positive_int, default=1000)
    p.add_argument("--pilots", nargs="+", default=["random", "heuristic"])
    p.add_argument("--seed", type=seed_type, default=0)
    p.add_argument("--batch-size", type=positive_int, default=2000)
    p.add_argument("--allow-truncation", type=float, default=None)
    p.add_argument("--no-timing", action="store_true", help="skip the decision-timing leak check")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..testing import InvariantError, check_game, pairing_name, pairings_of

    failed = 0
    for name in args.games:
        pairs = [pairing_name(a, b) for a, b in pairings_of(args.pilots)]
        started = time.perf_counter()
        try:
            report = check_game(name, num_games={p: args.n for p in pairs}, seed=args.seed, pilots=args.pilots,
                                batch_size=args.batch_size, allow_truncation=args.allow_truncation,
                                timing=not args.no_timing)
            print(report.summary())
        except InvariantError as exc:
            failed += 1
            print(f"FAIL {exc}")
        print(f"  ({time.perf_counter() - started:.1f} s)", flush=True)
    return 1 if failed else 0
