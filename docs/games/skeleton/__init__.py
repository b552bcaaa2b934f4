"""skeleton: the smallest real ruleset, a template for a new game (docs/ADDING-A-GAME.md walks through it).

Two players play tricks from a hand of 3: the higher power wins and scores 1 point plus its card's ``bonus``; the
first to 5 points wins. ``SPEC`` declares the ruleset for the generic machinery; ``env()`` and ``raw_env()`` build
the PettingZoo AEC env. Rules as implemented: ``RULES.md``.
"""
from __future__ import annotations

from cardenvs.core.spec import Kernels, declare
from cardenvs.core.views import pettingzoo_views

from ._kernels import batch_mask, batch_observe, batch_play, batch_reset, batch_step
from .state import MAX_DECK, TURN_CAP

SPEC = declare(
    __name__,
    description="skeleton: tricks from a hand of 3, the higher power scores; 5 points win.",
    max_deck=MAX_DECK,
    turn_cap=TURN_CAP,
    kernels=Kernels(batch_reset, batch_step, batch_observe, batch_mask, batch_play),
    default_decks=("tall", "sly"),
)
env, raw_env = pettingzoo_views(SPEC)  # the PettingZoo views, written once in the core

__all__ = ["SPEC", "env", "raw_env"]
