"""``cardenvs train GAME [options]``: MaskablePPO by self-play, the command ``python -m cardenvs.train.ppo`` is.

Its options are the trainer's own, passed through as given (its parser reads them, ``--help`` included); a
``--max-minutes`` budget counts from this process's start.
"""
from __future__ import annotations

from typing import Any, Sequence

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """``cardenvs train``: listed among the subcommands; :func:`cardenvs.cli.main` hands it every word after it."""
    sub.add_parser("train", add_help=False,
                   help="train a MaskablePPO policy by self-play: cardenvs train GAME [options] "
                        "(the options of python -m cardenvs.train.ppo; 'cardenvs train --help' lists them)")


def run(argv: Sequence[str]) -> int:
    from ..train.ppo import command as train

    train(list(argv))
    return 0
