"""``cardenvs match GAME A B``: one pilot against another on every deck pairing, from both seats; the games and
the statistics are :mod:`cardenvs.eval.head_to_head`'s."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..core.errors import BadArgumentError
from ..core.escaping import terminal
from ..core.registry import get_game
from .args import add_trust_pickle, bootstrap_count, positive_int, seed_type, trust_pickled

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """``cardenvs match``: added to the command line's subcommands."""
    p = sub.add_parser(
        "match", help="one pilot against another (random, heuristic, ppo, ppo:FILE, py:FILE): both seats, every deck pairing, "
                      "95%% intervals",  # argparse %-formats a subcommand's help (not its description)
        description="Play pilot A against pilot B on every ordered pairing of the decks (default: the game's starter "
                    "decks), each in both seats with common random numbers, on the batch core. Prints A's score "
                    "(wins + draws/2) with a 95% Wilson interval and a 95% bootstrap interval over deck pairs (A's deck i "
                    "against B's deck j drawn together with j against i, so the decks' own strength cancels) and "
                    "seeds (games that share decks or deals are not independent), the Elo difference, A's "
                    "results from each seat and per deck pairing.",
        epilog="Examples: cardenvs match levelneo heuristic random --games 2000 --json match.json; "
               "cardenvs match levelneo heuristic py:old.py (the heuristic against an older copy of itself)")
    p.add_argument("game", help="game name (see 'cardenvs games')")
    p.add_argument("a", metavar="A", help="pilot A: random, heuristic, ppo (the shipped policy), search[:N], "
                                         "ppo:FILE (a .npz; an SB3 .zip is unpickled, so a crafted one runs code: it "
                                         "needs --trust-pickle) or py:FILE[:CLASS] (an agent class from a Python "
                                         "file, e.g. a heuristic from history: git show REV:agents/heuristic_GAME.py "
                                         "> old.py; its code runs)")
    p.add_argument("b", metavar="B", help="pilot B, as A")
    p.add_argument("--decks", nargs="+", metavar="DECK",
                   help="starter deck names or deck files; every ordered pairing is played (default: the game's "
                        "starter decks)")
    # the defaults are the library's (eval.head_to_head), filled in by run: --help imports no evaluation code, and
    # tests/core/test_cli_newcomer.py keeps the numbers written here equal to them
    p.add_argument("--games", type=positive_int, default=None,
                   help="games in all, spread evenly over the deck pairings, each an even number of at least 2 "
                        "(rounded up; default: 1000)")
    p.add_argument("--seed", type=seed_type, default=0, help="seed of the games and the pilots (default: %(default)s)")
    p.add_argument("--bootstrap", type=bootstrap_count, default=None,
                   help="bootstrap replicates for the interval over deck pairings, 0 for none (default: 2000)")
    p.add_argument("--json", metavar="FILE", help="write every number to FILE as JSON")
    add_trust_pickle(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar (the results still go to stdout)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run ``cardenvs match`` from parsed arguments; user mistakes raise one-line errors (shown by the CLI)."""
    from rich.console import Console

    from ..eval.head_to_head import DEFAULT_BOOTSTRAP, DEFAULT_GAMES, format_match, match_entries, run_match
    from ..eval.report import RichProgress

    args.games = DEFAULT_GAMES if args.games is None else args.games
    args.bootstrap = DEFAULT_BOOTSTRAP if args.bootstrap is None else args.bootstrap

    spec = get_game(args.game)
    if args.games < 2:
        raise BadArgumentError(f"--games must be at least 2 (one game in each seat), got {args.games}")
    if args.json:
        from ..core.outputs import check_file

        check_file(args.json, "--json")  # before the games, not after them
    trust_pickled(args, [args.a, args.b])
    prepared = match_entries(spec.name, args.a, args.b, args.decks)  # bad pilots and decks: before the bar
    with RichProgress(f"{spec.name} match", console=Console(stderr=True), disable=args.quiet) as bar:
        summary = run_match(spec.name, args.a, args.b, games=args.games, seed=args.seed, bootstrap=args.bootstrap,
                            progress=bar, prepared=prepared)
    # pilot and deck names come from the command line and files: shown, never acted on
    print(terminal(format_match(summary), newlines=True))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))
        print(f"json: {terminal(args.json)}")
    return 0
