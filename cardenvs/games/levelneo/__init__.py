"""levelneo (seed 000): the Level Neo trading card game as a vectorised two-player RL environment.

``SPEC`` declares the ruleset for the generic machinery (BatchGame, AEC env, vector env, checker); ``env()`` and
``raw_env()`` build the PettingZoo AEC env. Rules as implemented, with every gap decision: ``RULES.md``.
"""
from __future__ import annotations

from cardenvs.core.spec import Kernels, declare
from cardenvs.core.views import pettingzoo_views

from .cards import load_deck, load_pool
from ._kernels import batch_mask, batch_observe, batch_play, batch_reset, batch_step
from .obs_layout import OBS_CARD_IDS
from .state import DECK_SIZE, TURN_CAP
from .text import action_name, hide, render

SPEC = declare(
    __name__,
    description="Level Neo: main character levels up by winning battles; Level Burst; reach Level Neo and win a "
                "battle.",
    max_deck=DECK_SIZE,
    turn_cap=TURN_CAP,
    kernels=Kernels(batch_reset, batch_step, batch_observe, batch_mask, batch_play),
    default_decks=("aggro", "control"),
    obs_card_ids=OBS_CARD_IDS,
)
default_decks = SPEC.default_decks

env, raw_env = pettingzoo_views(SPEC)  # the PettingZoo views, written once in the core


__all__ = ["SPEC", "env", "raw_env", "load_pool", "load_deck", "action_name", "render", "hide", "default_decks"]
