"""User-facing errors: each says what was wrong and where, in one line."""
from __future__ import annotations

from typing import Any, Callable


class CardenvsError(Exception):
    """Base of every error caused by user input (files, names, flags, actions)."""


class CardPoolError(CardenvsError):
    """A card pool file breaks the schema: names the file, the card and the field or rule."""

    def __init__(self, path: str, card: str | None, problem: str):
        where = f"{path}: card {card!r}" if card else str(path)
        super().__init__(f"{where}: {problem}")
        self.path, self.card, self.problem = path, card, problem


class DeckError(CardenvsError):
    """A deck file breaks a deck-building rule: names the file, the card (if any) and the rule."""

    def __init__(self, path: str, problem: str, card: str | None = None, rule: str | None = None):
        where = f"{path}: card {card!r}" if card else str(path)
        tag = f" [{rule}]" if rule else ""
        super().__init__(f"{where}: {problem}{tag}")
        self.path, self.card, self.problem, self.rule = path, card, problem, rule


class UnknownGameError(CardenvsError, KeyError):
    def __str__(self) -> str:  # KeyError would quote the message
        return self.args[0]


class IllegalActionError(CardenvsError, ValueError):
    """An action that is not legal for the player to act; the game state is left untouched."""


class BadArgumentError(CardenvsError, ValueError):
    """A wrong value passed to the API or the command line."""


def run_cli(main: Callable[[Any], Any], argv: Any, prog: str) -> int:
    """Run a command's ``main(argv)``: a user mistake (a :class:`CardenvsError`) is one line on stderr and exit status
    2, never a traceback; 0 otherwise."""
    import sys

    try:
        main(argv)
    except CardenvsError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    return 0


__all__ = [
    "BadArgumentError", "CardenvsError", "CardPoolError", "DeckError", "IllegalActionError", "run_cli",
    "UnknownGameError"
]
