"""The ``cardenvs`` command line: deck evaluation by self-play, and deck files.

    cardenvs eval levelneo                                  round robin of the starter decks, strongest pilot available
    cardenvs eval levelneo --decks aggro my.toml --games 2000 --json out.json --report out/
    cardenvs eval levelneo --ci-width 0.04                  play in rounds until every interval is that narrow
    cardenvs eval levelneo --sprt aggro control --elo0 0 --elo1 20
    cardenvs eval levelneo --decks mine.toml --field         gauntlet: mine.toml against the starter decks only
    cardenvs cards levelneo --search beast                  the card pool as a table (--json for scripts)
    cardenvs decks list levelneo
    cardenvs decks validate my.toml --game levelneo
    cardenvs decks optimize levelneo --start my.toml --budget 15m --out best.toml   deck search against the field
    cardenvs balance levelneo --decks 200             per-card balance report (too strong / never worth playing)
    cardenvs games
    cardenvs play levelneo --opponent heuristic             you against an agent in the terminal (saves a replay)
    cardenvs replay replays/levelneo-....json [--html out.html]   watch a saved game
    cardenvs train levelneo --max-minutes 60                MaskablePPO by self-play (python -m cardenvs.train.ppo)
    cardenvs match levelneo heuristic random --games 2000   one pilot against another: both seats, every deck pairing

Every user mistake (unknown game, missing or illegal deck file, bad flag) is reported as one line on stderr with
exit status 2, never a traceback.
"""
from __future__ import annotations

import argparse
import importlib.util  # noqa: F401  (the registry's available_games uses importlib.util)
import math
import sys
from pathlib import Path
from typing import Sequence

from .core.errors import BadArgumentError, CardenvsError
from .core.escaping import terminal

PROG = "cardenvs"
EXIT_USAGE = 2


class UsageError(Exception):
    """A command-line mistake, reported as one line."""


def _usage_error(prog: str, message: str) -> UsageError:
    return UsageError(f"{prog}: error: {message} (see {prog} --help)")


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting, so every error is one line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _usage_error(self.prog, message)

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        namespace, extra = super().parse_known_args(args, namespace)
        # the innermost (sub)command's parser returns first: its name is the one an unknown argument was given to
        if not hasattr(namespace, "command_prog"):
            namespace.command_prog = self.prog
        return namespace, extra


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def seed_type(text: str) -> int:
    """The one seed rule of the commands (eval, balance, play, decks random): any integer, negative or past 64 bits
    included, as the core takes it; the same seed gives the same games and decks."""
    import re

    try:  # ASCII digits only: int() also reads "٣" and would refuse "²" (which str.isdigit() accepts)
        if not re.fullmatch(r"[+-]?[0-9]+", text.strip()):
            raise ValueError(text)
        return int(text)
    except ValueError:  # also a number past int()'s 4,300 digits
        raise argparse.ArgumentTypeError(f"a seed is an integer (any sign), got {text[:40]!r}") from None


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}")
    return value


def _float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def _bootstrap(text: str) -> int:
    from .eval.stats import MAX_BOOTSTRAP

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to {MAX_BOOTSTRAP}, got {text!r}") from None
    if not 0 <= value <= MAX_BOOTSTRAP:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to {MAX_BOOTSTRAP}, got {text!r}")
    return value


def _even_games(text: str) -> int:
    value = _positive_int(text)
    if value % 2:
        raise argparse.ArgumentTypeError(f"expected an even number of games (half in each seating), got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Fast two-player card-game environments: evaluate decks by self-play and check deck files.",
        epilog="Examples:\n"
               "  cardenvs eval levelneo --games 1000 --report out/\n"
               "  cardenvs eval levelneo --sprt aggro control --elo0 0 --elo1 20\n"
               "  cardenvs decks validate mydeck.toml --game levelneo\n"
               "  cardenvs play levelneo --opponent heuristic\n"
               "  cardenvs replay replays/levelneo-....json --html game.html\n"
               "  cardenvs match levelneo ppo heuristic --json match.json\n"
               "Run 'cardenvs COMMAND --help' for the options of a command.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from . import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

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
                    help="pilots: random, heuristic, ppo (the shipped policy) or ppo:PATH (a pickle-free .npz; an SB3 "
                         ".zip is unpickled, so a crafted one runs code: it needs --trust-pickle); several pilots make "
                         "every deck x pilot an entry and add a pilot-agreement table (default: the strongest "
                         "available: ppo where a policy ships for the game, else heuristic)")
    ev.add_argument("--trust-pickle", action="store_true",
                    help="load ppo:FILE.zip pilots although SB3 unpickles them (a crafted .zip runs code): only for "
                         "models you made or trust; prefer the pickle-free .npz (python -m cardenvs.agents.policy)")
    how = ev.add_mutually_exclusive_group()
    how.add_argument("--games", type=_even_games, default=None,
                     help="games per pairing, half in each seating (default: 200); the first round with --ci-width, "
                          "the round size with --sprt (default there: 400)")
    how.add_argument("--ci-width", type=_fraction, default=None, metavar="W",
                     help="play in rounds until every pairing's 95%% interval is at most W wide (e.g. 0.04)")
    ev.add_argument("--max-games", type=_positive_int, default=20000,
                    help="cap per pairing for --ci-width and --sprt, never exceeded (default: %(default)s)")
    ev.add_argument("--seed", type=seed_type, default=0, help="tournament seed; game and pilot seeds derive from it (default: %(default)s)")
    ev.add_argument("--sprt", nargs=2, metavar=("A", "B"),
                    help="sequential test of deck A against deck B instead of a round robin")
    ev.add_argument("--field", nargs="*", metavar="DECK", default=None,
                    help="gauntlet: play only the --decks against these decks (no DECK: the game's starter decks), "
                         "both seatings, common random numbers; the report adds each deck's score against the field")
    ev.add_argument("--elo0", type=_float, default=0.0, help="SPRT H0: A is at most this much stronger, in Elo (default: %(default)s)")
    ev.add_argument("--elo1", type=_float, default=20.0, help="SPRT H1: A is at least this much stronger, in Elo (default: %(default)s)")
    ev.add_argument("--alpha", type=_fraction, default=0.05, help="SPRT false-positive rate (default: %(default)s)")
    ev.add_argument("--beta", type=_fraction, default=0.05, help="SPRT false-negative rate (default: %(default)s)")
    ev.add_argument("--bootstrap", type=_bootstrap, default=1000,
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
    ev.add_argument("--replays", type=_positive_int, default=20, metavar="N",
                    help="how many games --save-replays keeps (default: %(default)s)")
    ev.add_argument("--backend", choices=("local", "ray"), default="local", help="where games are played (default: %(default)s)")
    ev.add_argument("--address", help="Ray cluster address (default: start a local Ray)")
    ev.add_argument("--workers", type=_positive_int, default=None, help="CPUs for a local Ray (default: all)")
    ev.add_argument("--chunk-size", type=_positive_int, default=4096,
                    help="games per batch and per Ray task (default: %(default)s); random pilots give the same "
                         "results for any value, other pilots need the same value to reproduce a run")
    ev.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no tables")
    ev.set_defaults(func=_cmd_eval)

    dk = sub.add_parser("decks",
                        help="list starter decks, validate deck files, make random legal decks, search for better decks",
                        description="Deck files: list a game's starter decks or check files against its rules.")
    dsub = dk.add_subparsers(dest="decks_command", metavar="ACTION")
    dk.set_defaults(func=_cmd_decks_missing)
    ls = dsub.add_parser("list", help="the starter decks of a game")
    ls.add_argument("game")
    ls.set_defaults(func=_cmd_decks_list)
    va = dsub.add_parser("validate", help="check deck files against a game's deck-building rules")
    va.add_argument("files", nargs="+", metavar="FILE",
                    help="deck files; a game's name stands for all of its starter decks")
    va.add_argument("--game", help="the game the decks are for (default: inferred from the folder, else every game)")
    va.set_defaults(func=_cmd_decks_validate)

    from . import cards_cli

    cards_cli.add_decks_random(dsub)
    from .eval import balance, optimize

    optimize.add_command(dsub)
    balance.add_command(sub)
    sub.add_parser("games", help="list the registered games").set_defaults(func=_cmd_games)
    from . import play, viewer

    play.add_command(sub)
    from . import cards_cli

    cards_cli.add_command(sub)
    viewer.add_command(sub)
    from .eval import match_cmd

    match_cmd.add_command(sub)
    sub.add_parser("train", add_help=False,
                   help="train a MaskablePPO policy by self-play: cardenvs train GAME [options] "
                        "(the options of python -m cardenvs.train.ppo; 'cardenvs train --help' lists them)")
    return parser


def _cmd_train(argv: Sequence[str]) -> int:
    """``cardenvs train ...`` is ``python -m cardenvs.train.ppo ...`` (its options are passed through as given; a
    --max-minutes budget counts from this process's start)."""
    from .train.ppo import command as train

    train(list(argv))
    return 0


# ----- commands -----------------------------------------------------------------------------------------------------
def _cmd_decks_missing(args: argparse.Namespace) -> int:
    raise _usage_error(f"{PROG} decks", "choose an action: list, validate, random or optimize")


def _cmd_games(args: argparse.Namespace) -> int:
    from . import available_games, get_game

    for name in available_games():
        spec = get_game(name)
        print(f"{spec.env_name:16} {spec.description}")
    return 0


def _cmd_decks_list(args: argparse.Namespace) -> int:
    from . import get_game

    spec = get_game(args.game)
    pool = spec.load_pool(None)
    for name in spec.starter_decks():
        deck = spec.load_deck(name, pool)
        print(f"{name:14} {len(deck):3d} cards  {deck.name}: {deck.description}")
    return 0


def _cmd_decks_validate(args: argparse.Namespace) -> int:
    from . import available_games, get_game

    specs = [get_game(args.game)] if args.game else [get_game(g) for g in available_games()]
    files: list[str] = []
    for file in args.files:  # a registered game's name (not a file) stands for its starter decks
        game_spec = None if Path(file).is_file() else next((s for s in specs if s.name == file.lower()), None)
        if game_spec is None:
            files.append(file)
        else:
            files.extend(str(game_spec.deck_dir / f"{name}.toml") for name in game_spec.starter_decks())
    failed = 0
    for file in files:
        path = Path(file)
        if not path.is_file():
            print(f"{PROG}: error: {file}: no such deck file", file=sys.stderr)
            failed += 1
            continue
        candidates = specs
        if not args.game:  # a deck inside a game's decks/ folder belongs to that game
            owner = [s for s in specs if s.deck_dir.resolve() == path.resolve().parent]
            candidates = owner or specs
        ok, errors = [], []
        for spec in candidates:
            try:
                deck = spec.load_deck(path, spec.load_pool(None))
                ok.append(f"{spec.name} ({len(deck)} cards, {deck.name!r})")
            except CardenvsError as exc:
                errors.append((spec.name, str(exc)))
        if ok:
            print(f"ok {file}: valid for {', '.join(ok)}")
        else:
            failed += 1
            messages = {e for _, e in errors}  # a file no game can read (bad TOML) says so once, not once per game
            detail = messages.pop() if len(messages) == 1 else "; ".join(f"{g}: {e}" for g, e in errors)
            print(f"{PROG}: error: {detail}", file=sys.stderr)
    return EXIT_USAGE if failed else 0


def _check_pilots(game: str, pilots: Sequence[str]) -> None:
    """Build each pilot once before playing, so a bad --agent fails fast with one line."""
    try:
        from .core.agents import make_agent
    except ImportError as exc:
        raise BadArgumentError(f"the agents package is not importable ({exc})") from None
    for kind in pilots:
        try:
            make_agent(game, kind, seed=0)
        except CardenvsError:
            raise
        except (ImportError, OSError, ValueError) as exc:
            raise BadArgumentError(f"cannot load pilot {kind!r}: {exc}") from None


def _cmd_eval(args: argparse.Namespace) -> int:
    from rich.console import Console

    from . import get_game
    from .eval import report
    from .eval.tournament import make_backend, run_sprt, run_tournament

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
    from .core.agents import default_pilot, describe_pilot

    chosen = not args.agents
    if chosen:  # no --agents: the strongest pilot the install can run, named in the report's first line
        args.agents = [default_pilot(spec.name)]
    if args.trust_pickle:  # the user vouches for the .zip pilots named here (SB3 unpickles them)
        from .agents.policy import trust_pilots

        trust_pilots(args.agents, True)
    _check_pilots(spec.name, args.agents)
    from .eval.tournament import make_entries

    # load every deck before any game (and before the progress bar), so a bad file is reported at once, alone
    gauntlet = None
    if args.field is not None:  # the gauntlet: the --decks against the field only
        from .eval.gauntlet import gauntlet_entries

        entries, gauntlet = gauntlet_entries(spec, args.decks, args.field, args.agents)
    else:
        entries = make_entries(spec, args.sprt or args.decks, args.agents)
    if args.save_replays and args.backend != "local":
        raise BadArgumentError("--save-replays needs the local backend (the games' decisions stay in this process)")
    json_path = args.json or (None if args.report else f"eval-{spec.name}.json")
    # every output path is checked before the first game, not after the last (issue 43)
    report.check_outputs(json_path, args.csv, args.report, args.save_replays)
    if args.save_replays:
        from .eval.tournament import LocalBackend

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
        from .eval.gauntlet import mark_gauntlet

        mark_gauntlet(result, len(args.decks) * len(args.agents))
    summary = report.summarize(result, bootstrap=args.bootstrap, cards=not args.no_cards, sprt=sprt)
    if gauntlet is not None:
        from .eval.gauntlet import gauntlet_stats

        summary["gauntlet"] = gauntlet_stats(result)
    summary["pilot_notes"] = {p: ", ".join(x for x in (describe_pilot(spec.name, p),
                                                       "default: the strongest available" if chosen else "") if x)
                              for p in args.agents}
    if not args.quiet:
        report.print_summary(summary)
        if gauntlet is not None:
            from .eval.gauntlet import format_gauntlet

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
            from .eval.gauntlet import add_to_report

            add_to_report(out, summary["gauntlet"])
        if not args.quiet:
            print(f"report: {terminal(out)}")
    if args.save_replays:
        from .eval.replays import save_tournament_replays

        saved = save_tournament_replays(result, backend.history, args.replays, args.save_replays)
        if not args.quiet:
            print(terminal(f"replays: {len(saved)} games in {args.save_replays} (watch one: cardenvs replay "
                           f"{saved[0]})" if saved else "replays: none"))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cardenvs`` console script; returns the exit status."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["train"]:  # its own parser takes every option after the word
            return _cmd_train(argv[1:])
        args, extra = parser.parse_known_args(argv)
        if extra:  # named after the command they were given to, not the top level
            raise _usage_error(args.command_prog, f"unrecognized arguments: {' '.join(extra)}")
        if getattr(args, "func", None) is None:
            parser.print_help()
            return 0
        return args.func(args)
    except UsageError as exc:  # messages quote names from files and the command line: shown, never acted on
        print(terminal(exc), file=sys.stderr)
        return EXIT_USAGE
    except CardenvsError as exc:
        print(f"{PROG}: error: {terminal(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:  # an output file that cannot be written, a full disk
        print(terminal(f"{PROG}: error: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": ")), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print(f"{PROG}: error: out of memory", file=sys.stderr)
        return 1
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
