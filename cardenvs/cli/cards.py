"""``cardenvs cards GAME``: a game's card pool as a table (name, cost, stats, text), searchable, or as JSON; the rows
are :mod:`cardenvs.cards_table`'s.

    cardenvs cards levelneo
    cardenvs cards levelneo --search beast
    cardenvs cards relics --json > relics-cards.json
    cardenvs cards simulfight --pool my-pool.toml --search overpowered
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

from ..cards_table import card_rows, render_table, search_rows
from ..core.errors import BadArgumentError, UnknownGameError
from ..core.escaping import json_text, terminal
from ..core.registry import available_games, get_game

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """``cardenvs cards``: added to the command line's subcommands."""
    p = sub.add_parser(
        "cards", help="a game's card pool: name (as deck files spell it), cost, stats and text; --search, --json",
        description="List a game's card pool as a table: each card's name exactly as deck files spell it, its cost, "
                    "its stats and its text (effects, skills, actions). --search keeps the cards whose name, stats "
                    "or text contain the words (case-insensitive); --json prints every card's fields as JSON.")
    p.add_argument("game", help="game name (see 'cardenvs games')")
    p.add_argument("--search", "-s", metavar="TEXT", help="only cards whose name, stats or text contain TEXT "
                                                          "(case-insensitive)")
    p.add_argument("--json", action="store_true", help="print the cards as a JSON list instead of a table")
    p.add_argument("--pool", nargs="+", metavar="FILE", help="card pool files to list instead of the game's own")
    p.add_argument("--width", type=int, default=None, help="table width in characters (default: the terminal's, "
                                                            "at least 60; 100 when not a terminal)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``cardenvs cards GAME``: the pool as a table or JSON; exit status 1 when --search matches nothing."""
    from ..core.decks import did_you_mean  # here, not at the top: it imports NumPy, which --help never needs

    try:
        spec = get_game(args.game)
    except UnknownGameError as exc:
        raise UnknownGameError(f"{exc}{did_you_mean(str(args.game), available_games())}") from None
    if args.pool:
        for file in args.pool:
            if not Path(file).is_file():
                raise BadArgumentError(f"--pool: {file}: no such card pool file")
    pool = spec.load_pool([Path(p) for p in args.pool] if args.pool else None)
    rows = search_rows(card_rows(pool, spec), args.search)
    if args.json:  # the same strings; only what a terminal would act on is \u-escaped
        print(json_text(rows, indent=1))
        return 0
    if not rows:
        hint = did_you_mean(args.search, [c["name"] for c in pool.cards])
        print(terminal(f"no {spec.name} card matches {args.search!r}{hint}"), file=sys.stderr)
        return 1
    # the terminal's width (the table was 160 columns whatever the terminal); the text column wraps inside it
    width = args.width or max(60, shutil.get_terminal_size((100, 40)).columns)
    found = f", {len(rows)} matching {args.search!r}" if args.search else ""
    title = f"{spec.name}: {len(pool)} cards{found}"
    sys.stdout.write(render_table(rows, title, width))
    return 0
