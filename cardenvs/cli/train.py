"""``cardenvs train GAME [options]``: MaskablePPO by self-play, the command ``python -m cardenvs.train.ppo`` is.

Its options are the trainer's own, passed through as given (its parser reads them, ``--help`` included); a
``--max-minutes`` budget counts from this process's start.
"""
from __future__ import annotations

from typing import Any, Callable

from .args import Passthrough

__all__ = ["add_parser", "run"]


def _program() -> Callable[[list[str]], Any]:
    from ..train.ppo import command

    return command


_COMMAND = Passthrough("train", _program,
                       help="train a MaskablePPO policy by self-play: cardenvs train GAME [options] (the options of "
                            "python -m cardenvs.train.ppo; 'cardenvs train --help' lists them)")
add_parser, run = _COMMAND.add_parser, _COMMAND.run
