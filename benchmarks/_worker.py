"""Measure one cardenvs game in a child process (``benchmarks.compare`` isolates each game this way).

A game still being written can crash its process (a Numba kernel writing out of bounds); in a child that costs
only that game's figures, and the comparison still finishes and reports the crash. Prints one JSON line.
"""
from __future__ import annotations

import argparse
import json


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", required=True)
    ap.add_argument("--batches", type=int, nargs="+", required=True)
    ap.add_argument("--budget", type=float, required=True)
    ap.add_argument("--repeats", type=int, required=True)
    ap.add_argument("--warmup", type=float, required=True)
    ap.add_argument("--no-vec", action="store_true")
    args = ap.parse_args()

    from .common import Budget
    from .compare import game_entries

    budget = Budget(args.budget, args.repeats, args.warmup)
    game_entries(args.game, tuple(args.batches), budget, not args.no_vec,
                 log=lambda line: print(line, flush=True),
                 on_start=lambda e: print("BEGIN " + json.dumps(e.to_dict()), flush=True),
                 on_entry=lambda e: print("ENTRY " + json.dumps(e.to_dict()), flush=True))


if __name__ == "__main__":
    main()
