"""levelneo (seed 000): the Level Neo trading card game as a vectorised two-player RL environment.

The generic machinery (BatchGame, the envs, the checker) reads the ruleset through ``SPEC``, declared below from what
differs and from this folder's modules; ``RULES.md`` holds the rules as implemented and every gap decision.
"""
from __future__ import annotations

from cardenvs.core.spec import declare
from cardenvs.core.views import pettingzoo_views

from .cards import load_deck, load_pool
from .text import action_name, hide, render

SPEC = declare(
    __name__,
    description="Level Neo: main character levels up by winning battles; Level Burst; reach Level Neo and win a "
                "battle.",
    default_decks=("aggro", "control"),
    # what its seat's view keeps (cardenvs.core.seat_view): only level cards come off the deck unseen by their owner
    # (its face-down main it chose); the mulligan's cards sit at the bottom of a deck no one shuffles after setup
    view_own_unseen_zones=("level",),
    view_keeps_held_deck_cards=True,
)
default_decks = SPEC.default_decks

env, raw_env = pettingzoo_views(SPEC)  # the PettingZoo views, written once in the core


__all__ = ["SPEC", "env", "raw_env", "load_pool", "load_deck", "action_name", "render", "hide", "default_decks"]
