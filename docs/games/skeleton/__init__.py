"""skeleton: the smallest real ruleset, a template for a new game (docs/ADDING-A-GAME.md walks through it).

Two players play tricks from a hand of 3: the higher power wins and scores 1 point plus its card's ``bonus``; the
first to 5 points wins. ``SPEC`` declares the ruleset for the generic machinery; ``env()`` and ``raw_env()`` build
the PettingZoo AEC env. Rules as implemented: ``RULES.md``.
"""
from __future__ import annotations

from cardenvs.core.spec import declare
from cardenvs.core.views import pettingzoo_views

SPEC = declare(
    __name__,
    description="skeleton: tricks from a hand of 3, the higher power scores; 5 points win.",
    default_decks=("tall", "sly"),
)
env, raw_env = pettingzoo_views(SPEC)  # the PettingZoo views, written once in the core

__all__ = ["SPEC", "env", "raw_env"]
