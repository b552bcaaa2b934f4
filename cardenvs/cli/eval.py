"""``cardenvs eval GAME``: a round robin (or a gauntlet, or a sequential test) of decks by self-play.

The games, statistics and report files are :mod:`cardenvs.eval`'s; this module parses the options, checks them and
every output path before the first game, shows the progress bar and the tables, and says where the files went.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core.errors import BadArgumentError
from ..core.escaping import terminal
from .args import warn_slow_pilots as shared_warn_slow_pilots
from .args import (
    PROG, add_trust_pickle, bootstrap_count, check_pilots, even_games, finite_float, fraction, positive_int, seed_type,
    trust_pickled,
)

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """``cardenvs eval``: added to the command line's subcommands."""
    ev = sub.add_parser(
        "eval", help="round-robin deck evaluation by self-play: win rates, ratings, per-card statistics",
        description="Play every pair of decks (x every pilot) in both seats with common random numbers on the batch "
                    "core; print win rates with 95% Wilson intervals, Bradley-Terry ratings with bootstrap intervals, "
                    "first-player advantage and 17lands-style card statistics; optionally write JSON, CSV and an HTML "
                    "report. The same --seed gives the same numbers, on either backend.",
    )
    ev.add_argument("game", help="game name (see 'cardenvs games')")
    ev.add_argument("--decks", nargs="+", metavar="DECK",
                    help="starter deck names or deck files (default: all starter decks of the game)")
    ev.add_argument("--agent", "--agents", dest="agents", nargs="+", default=None, metavar="PILOT",
                    help="pilots: random, heuristic, ppo (the shipped policy), search[:N] (flat Monte Carlo search "
                         "over the default pilot, N rollouts per legal action, slow), ppo:PATH (a pickle-free .npz; "
                         "an SB3 .zip is unpickled, so a crafted one runs code: it needs --trust-pickle) or "
                         "py:FILE[:CLASS] (an agent class from a Python file, e.g. an older heuristic taken from "
                         "history; default class HeuristicAgent; its code runs); several pilots make "
                         "every deck x pilot an entry and add a pilot-agreement table (default: the strongest "
                         "available: ppo where a policy ships for the game, else heuristic)")
    add_trust_pickle(ev)
    how = ev.add_mutually_exclusive_group()
    how.add_argument("--games", type=even_games, default=None,
                     help="games per pairing, half in each seating (default: 200); the first round with --ci-width, "
                          "the round size with --sprt (default there: 400)")
    how.add_argument("--ci-width", type=fraction, default=None, metavar="W",
                     help="play in rounds until every pairing's 95%% interval is at most W wide (e.g. 0.04)")
    ev.add_argument("--max-games", type=positive_int, default=20000,
                    help="cap per pairing for --ci-width and --sprt, never exceeded (default: %(default)s)")
    ev.add_argument("--seed", type=seed_type, default=0, help="tournament seed; game and pilot seeds derive from it (default: %(default)s)")
    ev.add_argument("--sprt", nargs=2, metavar=("A", "B"),
                    help="sequential test of deck A against deck B instead of a round robin")
    ev.add_argument("--field", nargs="*", metavar="DECK", default=None,
                    help="gauntlet: play only the --decks against these decks (no DECK: the game's starter decks), "
                         "both seatings, common random numbers; the report adds each deck's score against the field")
    ev.add_argument("--elo0", type=finite_float, default=0.0, help="SPRT H0: A is at most this much stronger, in Elo (default: %(default)s)")
    ev.add_argument("--elo1", type=finite_float, default=20.0, help="SPRT H1: A is at least this much stronger, in Elo (default: %(default)s)")
    ev.add_argument("--alpha", type=fraction, default=0.05, help="SPRT false-positive rate (default: %(default)s)")
    ev.add_argument("--beta", type=fraction, default=0.05, help="SPRT false-negative rate (default: %(default)s)")
    ev.add_argument("--bootstrap", type=bootstrap_count, default=1000,
                    help="bootstrap replicates for rating intervals, 0 for none, at most 100000 (default: %(default)s)")
    ev.add_argument("--no-cards", action="store_true", help="skip per-card statistics")
    ev.add_argument("--json", metavar="FILE",
                    help="write every number to FILE as JSON (default: eval-GAME.json, or DIR/results.json with "
                         "--report DIR)")
    ev.add_argument("--csv", metavar="DIR", help="write pairings.csv, ratings.csv and cards.csv into DIR")
    ev.add_argument("--report", metavar="DIR", help="write report.html (self-contained) with PNG charts, JSON and CSV into DIR")
    ev.add_argument("--save-replays", metavar="DIR",
                    help="save some of the games as replays into DIR (watch them with 'cardenvs replay'); up to half "
                         "are upsets, games the lower-rated entry won")
    ev.add_argument("--replays", type=positive_int, default=20, metavar="N",
                    help="how many games --save-replays keeps (default: %(default)s)")
    ev.add_argument("--backend", choices=("local", "ray"), default="local", help="where games are played (default: %(default)s)")
    ev.add_argument("--address", help="Ray cluster address (default: start a local Ray)")
    ev.add_argument("--workers", type=positive_int, default=None, help="CPUs for a local Ray (default: all)")
    ev.add_argument("--chunk-size", type=positive_int, default=4096,
                    help="games per batch and per Ray task (default: %(default)s); random pilots give the same "
                         "results for any value, other pilots need the same value to reproduce a run")
    ev.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no tables")
    ev.set_defaults(func=run)


def warn_slow_pilots(pilots: Any) -> None:
    """:func:`.args.warn_slow_pilots` for eval, with its hint (a search pilot: hours where the heuristic takes
    seconds)."""
    shared_warn_slow_pilots("eval", pilots, ": try --games 2 first")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from ..core.registry import get_game
    from ..eval import report
    from ..eval.tournament import make_backend, run_sprt, run_tournament

    spec = get_game(args.game)
    if args.bootstrap < 0:
        raise BadArgumentError(f"--bootstrap must be 0 or more, got {args.bootstrap}")
    if args.sprt and (args.decks or args.ci_width):
        raise BadArgumentError("--sprt A B takes its two decks itself; drop --decks / --ci-width")
    if args.sprt and args.agents and len(args.agents) != 1:
        raise BadArgumentError("--sprt uses one pilot; pass a single --agent")
    if args.address and args.backend != "ray":
        raise BadArgumentError("--address needs --backend ray")
    if args.sprt and not args.elo1 > args.elo0:
        raise BadArgumentError(f"--elo1 must be greater than --elo0 (got {args.elo0:g} and {args.elo1:g})")
    if args.sprt and not (args.alpha < 0.5 and args.beta < 0.5):
        raise BadArgumentError("--alpha and --beta must be below 0.5")
    if args.field is not None and (args.sprt or not args.decks):
        raise BadArgumentError("--field plays the --decks against a field: pass --decks DECK... (and no --sprt)")
    if (args.ci_width or args.sprt) and args.max_games < 2:
        raise BadArgumentError(f"--max-games must be at least 2 (one game in each seating), got {args.max_games}")
    from ..agents import default_pilot, describe_pilot

    chosen = not args.agents
    if chosen:  # no --agents: the strongest pilot the install can run, named in the report's first line
        args.agents = [default_pilot(spec.name)]
    trust_pickled(args, args.agents)
    check_pilots(spec.name, args.agents)
    if not args.quiet:
        warn_slow_pilots(args.agents)
    from ..eval.tournament import make_entries

    # load every deck before any game (and before the progress bar), so a bad file is reported at once, alone
    gauntlet = None
    if args.field is not None:  # the gauntlet: the --decks against the field only
        from ..eval.gauntlet import gauntlet_entries

        entries, gauntlet = gauntlet_entries(spec, args.decks, args.field, args.agents)
    else:
        entries = make_entries(spec, args.sprt or args.decks, args.agents)
    if args.save_replays and args.backend != "local":
        raise BadArgumentError("--save-replays needs the local backend (the games' decisions stay in this process)")
    json_path = args.json or (None if args.report else f"eval-{spec.name}.json")
    # every output path is checked before the first game, not after the last (issue 43)
    report.check_outputs(json_path, args.csv, args.report, args.save_replays)
    if args.save_replays:
        from ..eval.tournament import LocalBackend

        backend = LocalBackend(history=[])
    else:
        backend = make_backend(args.backend, address=args.address, workers=args.workers)
    err = Console(stderr=True)
    sprt = None
    try:
        with report.RichProgress(f"{spec.name}", console=err, disable=args.quiet) as bar:
            if args.sprt:
                sprt = run_sprt(spec, entries[0].deck, entries[1].deck, elo0=args.elo0, elo1=args.elo1,
                                alpha=args.alpha, beta=args.beta, pilot=args.agents[0], seed=args.seed,
                                max_games=args.max_games, round_games=args.games or 400, chunk_size=args.chunk_size,
                                backend=backend, progress=bar)
                result = sprt.tournament
            else:
                result = run_tournament(spec, entries=entries, games=args.games or 200, seed=args.seed,
                                        ci_width=args.ci_width, max_games=args.max_games, chunk_size=args.chunk_size,
                                        backend=backend, progress=bar, pairs=gauntlet)
    except KeyboardInterrupt:  # decided (issue 43): a part of a round robin is not a result, so none is written
        print(f"{PROG} eval: interrupted: nothing was written (exit status 130)", file=sys.stderr)
        return 130
    if gauntlet is not None:
        from ..eval.gauntlet import mark_gauntlet

        mark_gauntlet(result, len(args.decks) * len(args.agents))
    summary = report.summarize(result, bootstrap=args.bootstrap, cards=not args.no_cards, sprt=sprt)
    if gauntlet is not None:
        from ..eval.gauntlet import gauntlet_stats

        summary["gauntlet"] = gauntlet_stats(result)
    summary["pilot_notes"] = {p: ", ".join(x for x in (describe_pilot(spec.name, p),
                                                       "default: the strongest available" if chosen else "") if x)
                              for p in args.agents}
    if not args.quiet:
        report.render_summary(summary, Console())
        if gauntlet is not None:
            from ..eval.gauntlet import format_gauntlet

            print(terminal(format_gauntlet(summary["gauntlet"]), newlines=True))
    if json_path:
        report.write_json(summary, json_path)
        if not args.quiet:
            print(f"json: {terminal(json_path)}")
    if args.csv:
        report.write_csv(summary, args.csv)
    if args.report:
        out = report.write_report(summary, args.report)
        if gauntlet is not None:
            from ..eval.gauntlet import add_to_report

            add_to_report(out, summary["gauntlet"])
        if not args.quiet:
            print(f"report: {terminal(out)}")
    if args.save_replays:
        from ..eval.replays import save_tournament_replays

        saved = save_tournament_replays(result, backend.history, args.replays, args.save_replays)
        if not args.quiet:
            print(terminal(f"replays: {len(saved)} games in {args.save_replays} (watch one: cardenvs replay "
                           f"{saved[0]})" if saved else "replays: none"))
    return 0
