"""``cardenvs balance GAME``: the card balance report (:mod:`cardenvs.eval.balance`) from the command line."""
from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from ..core.errors import BadArgumentError
from ..core.escaping import terminal
from ..core.registry import get_game
from .args import add_trust_pickle, seed_type, trust_pickled, warn_slow_pilots

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """``cardenvs balance``: added to the command line's subcommands."""
    p = sub.add_parser(
        "balance", help="card balance report: each card's effect separated from its deck, flags for strong and weak",
        description="Random legal decks played by the game's default pilot (the one 'cardenvs eval' and 'decks "
                    "optimize' use, named on the first line): for every card, its effect on the win rate when drawn "
                    "instead of the average card of the same deck (a penalised logistic model of the results with "
                    "each deck's strength as a term) with a 95% interval, how often random and searched (--strong) "
                    "decks hold it, and a flag when the effect is reliably above or below that average (Holm, 5% "
                    "family-wise): strong, or weak. Writes a table, CSV, JSON, a plot and an HTML page.")
    p.add_argument("game", help="game name (see 'cardenvs games')")
    p.add_argument("--decks", type=int, default=200, help="random legal decks (default: %(default)s)")
    p.add_argument("--starters", action="store_true",
                   help="play the game's starter decks instead of random ones (cheap: the dead cards of a shipped "
                        "deck, those the pilot draws and does not play, show in a few hundred games)")
    p.add_argument("--pilot", default=None, help="pilot of every deck: heuristic, random, ppo or ppo:PATH (an SB3 .zip "
                                                  "needs --trust-pickle) (default: the strongest available, as in eval)")
    add_trust_pickle(p)
    p.add_argument("--opponents", type=int, default=4, help="opponents per deck (default: %(default)s)")
    p.add_argument("--pairs", type=int, default=4, help="games per opponent and seat (default: %(default)s)")
    p.add_argument("--seed", type=seed_type, default=0, help="seed, any integer (default: %(default)s)")
    p.add_argument("--pool", nargs="+", metavar="FILE", help="card pool files (default: the game's pool)")
    p.add_argument("--strong", nargs="+", metavar="REPORT", default=(),
                   help="deck search reports (cardenvs decks optimize ... JSON): their best decks give the inclusion "
                        "rate in strong decks")
    p.add_argument("--z", type=float, default=None, help="interval z (default 1.96: 95%%)")
    p.add_argument("--out", metavar="DIR", help="output folder (default: balance-GAME)")
    p.add_argument("--no-plot", action="store_true", help="skip the matplotlib plot and HTML page")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no table")
    p.set_defaults(func=run)


def _starters(spec: Any, pool: Any) -> list:
    from ..core.deckgen import load_game_pool, starter_decks

    return starter_decks(spec, load_game_pool(spec, pool))


def run(args: argparse.Namespace) -> int:
    """``cardenvs balance``: the report's files, and its table on the terminal."""
    from rich.console import Console

    from ..eval.balance import BALANCE_KIND, balance_report, format_balance, read_strong_report, write_balance
    from ..eval.report import RichProgress
    from ..eval.stats import Z95  # here, not at the top: `cardenvs --help` imports no evaluation code

    if args.z is None:
        args.z = Z95
    spec = get_game(args.game)
    if args.decks < 2 or args.opponents < 1 or args.pairs < 1:
        raise BadArgumentError(f"--decks must be at least 2 and --opponents, --pairs positive (got {args.decks}, "
                               f"{args.opponents}, {args.pairs})")
    if not (math.isfinite(args.z) and args.z > 0):
        raise BadArgumentError(f"--z must be a positive number, got {args.z}")
    for p in args.strong:
        if not Path(p).is_file():
            raise BadArgumentError(f"--strong: no such report file: {p}")
        read_strong_report(p)  # a file that is not a deck search report: one line now, not after the games
    out = args.out or f"balance-{spec.name}"
    from ..core.outputs import check_folder

    check_folder(out, "--out", BALANCE_KIND)
    if args.pilot is None:  # the default pilot of eval and decks optimize too (issue 38 step 7)
        from ..agents import default_pilot

        args.pilot = default_pilot(spec.name)
        chosen = True
    else:
        chosen = False
    trust_pickled(args, args.pilot)
    if args.pilot != "random":
        from ..agents import make_agent

        make_agent(spec.name, args.pilot)
    pool = [Path(p) for p in args.pool] if args.pool else None
    if not args.quiet:  # who plays, before the games: the first line, as eval's
        from ..agents import describe_pilot
        from ..eval.report import pilot_line

        note = ", ".join(x for x in (describe_pilot(spec.name, args.pilot),
                                     "default: the strongest available" if chosen else "") if x)
        print(terminal(f"{spec.name}: " + pilot_line({"config": {"pilots": [args.pilot]},
                                                      "pilot_notes": {args.pilot: note}})), flush=True)
        warn_slow_pilots("balance", [args.pilot])
    with RichProgress(f"{spec.name} balance", console=Console(stderr=True), disable=args.quiet) as bar:
        result = balance_report(spec, args.decks, None if chosen else args.pilot, args.seed, pool, opponents=args.opponents,
                                pairs=args.pairs, strong_reports=list(args.strong), z=args.z, progress=bar,
                                decks=_starters(spec, pool) if args.starters else None)
    paths = write_balance(result, out, plot=not args.no_plot)
    if not args.quiet:  # card names come from the pool files: shown, never acted on by the terminal
        print(terminal(format_balance(result).split("\n", 1)[1], newlines=True))  # its first line came first
        print("\nwritten: " + terminal(", ".join(str(p) for p in paths)))
    return 0
