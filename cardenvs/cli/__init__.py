"""The ``cardenvs`` command line: one module per command, each with ``add_parser(sub)`` and ``run(args)``.

    cardenvs eval levelneo                                  round robin of the starter decks, strongest pilot available
    cardenvs eval levelneo --decks aggro my.toml --games 2000 --json out.json --report out/
    cardenvs eval levelneo --ci-width 0.04                  play in rounds until every interval is that narrow
    cardenvs eval levelneo --sprt aggro control --elo0 0 --elo1 20
    cardenvs eval levelneo --decks mine.toml --field         gauntlet: mine.toml against the starter decks only
    cardenvs cards levelneo --search beast                  the card pool as a table (--json for scripts)
    cardenvs decks list levelneo
    cardenvs decks validate my.toml --game levelneo
    cardenvs decks optimize levelneo --start my.toml --budget 15m --out best.toml   deck search against the field
    cardenvs balance levelneo --decks 200             per-card balance report (card effects, strong / weak flags)
    cardenvs games
    cardenvs play levelneo --opponent heuristic             you against an agent in the terminal (saves a replay)
    cardenvs replay replays/levelneo-....json [--html out.html]   watch a saved game
    cardenvs train levelneo --max-minutes 60                MaskablePPO by self-play (python -m cardenvs.train.ppo)
    cardenvs exploit levelneo --minutes 20                  how exploitable the default pilot is (a fresh best response)
    cardenvs match levelneo heuristic random --games 2000   one pilot against another: both seats, every deck pairing
    cardenvs check levelneo --pilots heuristic --games 1000   play and check every invariant (cardenvs.testing)

Every user mistake (unknown game, missing or illegal deck file, bad flag) is reported as one line on stderr with
exit status 2, never a traceback. The command modules parse, check and print; what they run (the tournaments, the
deck search, the balance report, the replays) is in the library, which returns results and never parses or prints.
"""
from __future__ import annotations

import argparse
import sys
from typing import Sequence

from ..core.errors import CardenvsError
from ..core.escaping import terminal
from .args import EXIT_USAGE, PROG, Parser, UsageError, usage_error

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG,
        description="Fast two-player card-game environments: evaluate decks by self-play and check deck files.",
        epilog="Examples:\n"
               "  cardenvs eval levelneo --games 1000 --report out/\n"
               "  cardenvs eval levelneo --sprt aggro control --elo0 0 --elo1 20\n"
               "  cardenvs decks validate mydeck.toml --game levelneo\n"
               "  cardenvs play levelneo --opponent heuristic\n"
               "  cardenvs replay replays/levelneo-....json --html game.html\n"
               "  cardenvs match levelneo random heuristic --json match.json\n"
               "Run 'cardenvs COMMAND --help' for the options of a command.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    # imported here, inside main's error handling: they load the engine, and a Ctrl-C while they load is one line
    from . import balance, cards, check, decks, eval, exploit, games, match, play, replay, train

    for command in (eval, decks, balance, games, play, cards, replay, match, check, train, exploit):  # --help's order
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cardenvs`` console script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["train"]:  # its own parser takes every option after the word
            from . import train

            return train.run(argv[1:])
        if argv[:1] == ["exploit"]:  # likewise
            from . import exploit

            return exploit.run(argv[1:])
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
        if extra:  # named after the command they were given to, not the top level
            raise usage_error(args.command_prog, f"unrecognized arguments: {' '.join(extra)}")
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
