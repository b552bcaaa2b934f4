"""``cardenvs replay FILE``: watch a saved game (the viewers are :mod:`cardenvs.viewer`'s)."""
from __future__ import annotations

import argparse
from typing import Any

from ..core.errors import BadArgumentError
from ..core.escaping import terminal

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """``cardenvs replay``: added to the command line's subcommands."""
    p = sub.add_parser(
        "replay", help="watch a saved game: step through it in the terminal, or write an HTML page",
        description="Re-simulate a replay file under the installed rules (refused with one line if the rules "
                    "version or the result no longer match) and step through it: Enter/n next, b back, g N go to "
                    "decision N, t N go to turn N, v all|0|1 choose the view, l log, q quit. With --html, write one "
                    "self-contained page with a step slider instead.")
    p.add_argument("file", help="a replay file (.json) written by cardenvs play, eval --save-replays or an env")
    p.add_argument("--view", default="all", help="whose view: all (full view), 0 or 1 (default: %(default)s)")
    p.add_argument("--step", type=int, default=None, metavar="N",
                   help="print the board before decision N and exit (no interaction)")
    p.add_argument("--html", metavar="OUT", help="write a self-contained HTML viewer to OUT and exit")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``cardenvs replay FILE``: step through a replay, print one board, or write the HTML page."""
    # imported here: they load the engine, which `cardenvs --help` does not need
    from ..core.replay import Replay, simulate
    from ..viewer import TerminalViewer, parse_view, write_html

    try:
        viewer = parse_view(args.view)
    except ValueError as err:
        raise BadArgumentError(str(err)) from None
    if args.html:  # before the replay is played back, not after
        from ..core.outputs import check_file

        check_file(args.html, "--html")
    run = simulate(Replay.load(args.file))
    if args.html:
        path = write_html(run, args.html)
        print(terminal(f"wrote {path} ({len(run.states) - 1} decisions; open it in a browser)"))
        return 0
    tv = TerminalViewer(run, viewer)
    if args.step is not None:
        tv.step = min(max(args.step, 0), tv.last)
        tv.write(tv.frame() + "\n")
        return 0
    tv.loop()
    return 0
