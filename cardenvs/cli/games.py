"""``cardenvs games``: the registered games, one line each (name with rules version, and what the game is)."""
from __future__ import annotations

import argparse
from typing import Any

from ..core.registry import available_games, get_game

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """``cardenvs games``: added to the command line's subcommands."""
    sub.add_parser("games", help="list the registered games").set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for name in available_games():
        spec = get_game(name)
        print(f"{spec.env_name:16} {spec.description}")
    return 0
