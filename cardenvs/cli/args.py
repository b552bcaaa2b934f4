"""What every command of the ``cardenvs`` command line shares: the parser that reports a mistake as one line, the
argument types (one seed rule, positive counts, fractions) and the checks made before any game is played."""
from __future__ import annotations

import argparse
import math
import re
import sys
from typing import Any, Callable, Sequence

from ..core.errors import BadArgumentError, CardenvsError
from ..core.escaping import terminal

__all__ = ["EXIT_USAGE", "PROG", "Parser", "Passthrough", "UsageError", "add_trust_pickle", "bootstrap_count",
           "check_pilots", "even_games", "finite_float", "fraction", "positive_int", "seed_type", "trust_pickled",
           "usage_error", "warn_slow_pilots"]

PROG = "cardenvs"
EXIT_USAGE = 2


class UsageError(Exception):
    """A command-line mistake, reported as one line."""


def usage_error(prog: str, message: str) -> UsageError:
    return UsageError(f"{prog}: error: {message} (see {prog} --help)")


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting, so every error is one line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise usage_error(self.prog, message)

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        namespace, extra = super().parse_known_args(args, namespace)
        # the innermost (sub)command's parser returns first: its name is the one an unknown argument was given to
        if not hasattr(namespace, "command_prog"):
            namespace.command_prog = self.prog
        return namespace, extra


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def seed_type(text: str) -> int:
    """The one seed rule of the commands (eval, balance, play, decks random): any integer, negative or past 64 bits
    included, as the core takes it; the same seed gives the same games and decks."""
    try:  # ASCII digits only: int() also reads "٣" and would refuse "²" (which str.isdigit() accepts)
        if not re.fullmatch(r"[+-]?[0-9]+", text.strip()):
            raise ValueError(text)
        return int(text)
    except ValueError:  # also a number past int()'s 4,300 digits
        raise argparse.ArgumentTypeError(f"a seed is an integer (any sign), got {text[:40]!r}") from None


def fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}")
    return value


def finite_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return value


def bootstrap_count(text: str) -> int:
    from ..eval.stats import MAX_BOOTSTRAP

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to {MAX_BOOTSTRAP}, got {text!r}") from None
    if not 0 <= value <= MAX_BOOTSTRAP:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to {MAX_BOOTSTRAP}, got {text!r}")
    return value


def even_games(text: str) -> int:
    value = positive_int(text)
    if value % 2:
        raise argparse.ArgumentTypeError(f"expected an even number of games (half in each seating), got {text!r}")
    return value


def add_trust_pickle(parser: argparse.ArgumentParser) -> None:
    """``--trust-pickle``, the same flag and words in every command that loads pilots (see :func:`trust_pickled`)."""
    parser.add_argument("--trust-pickle", action="store_true",
                        help="load ppo:FILE.zip pilots although SB3 unpickles them (a crafted .zip runs code): only "
                             "for models you made or trust; prefer the pickle-free .npz (python -m "
                             "cardenvs.agents.policy)")


def trust_pickled(args: Any, pilots: str | Sequence[str]) -> None:
    """With ``--trust-pickle`` the user vouches for the SB3 ``.zip`` pilots named on the command line (SB3 unpickles
    them, so a crafted one runs code); without it they are refused when loaded."""
    if getattr(args, "trust_pickle", False):
        from ..agents.policy import trust_pilots

        trust_pilots(pilots, True)


def check_pilots(game: str, pilots: Sequence[str]) -> None:
    """Build each pilot once before playing, so a bad --agent fails fast with one line."""
    from ..agents import make_agent

    for kind in pilots:
        try:
            make_agent(game, kind, seed=0)
        except CardenvsError:
            raise
        except (ImportError, OSError, ValueError) as exc:
            raise BadArgumentError(f"cannot load pilot {kind!r}: {exc}") from None


def warn_slow_pilots(command: str, pilots: Sequence[str], hint: str = "") -> None:
    """One line on stderr per slow pilot (``agents.slow_pilot_note``: a search pilot), before the command's games."""
    from ..agents import slow_pilot_note

    for kind in dict.fromkeys(pilots):
        note = slow_pilot_note(kind)
        if note:
            print(terminal(f"{PROG} {command}: {note}{hint}"), file=sys.stderr)


class Passthrough:
    """A command whose options are its program's own (``cardenvs train`` is ``python -m cardenvs.train.ppo``): listed
    among the subcommands without a parser here (``add_help=False``: ``--help`` is the program's), and
    :func:`cardenvs.cli.main` hands it every word after its name. ``program()`` returns the program's
    ``command(argv)``; it is imported only when the command runs, since it loads the training stack."""

    def __init__(self, name: str, program: Callable[[], Callable[[list[str]], Any]], help: str) -> None:
        self.name, self.program, self.help = name, program, help

    def add_parser(self, sub: Any) -> None:
        """Listed among the subcommands (``cardenvs --help``); the words after the name are not parsed here."""
        sub.add_parser(self.name, add_help=False, help=self.help)

    def run(self, argv: Sequence[str]) -> int:
        self.program()(list(argv))
        return 0
