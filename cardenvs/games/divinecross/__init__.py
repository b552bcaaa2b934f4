"""divinecross (seed 002): the DIVINE CROSS card game as a vectorised two-player RL environment.

``SPEC`` declares the ruleset for the generic machinery (BatchGame, AEC env, vector env, checker); ``env()`` and
``raw_env()`` build the PettingZoo AEC env. Rules as implemented, with every gap decision: ``RULES.md``.
"""
from __future__ import annotations

from cardenvs.core.spec import Kernels, declare
from cardenvs.core.views import pettingzoo_views

from .cards import load_deck, load_pool
from ._kernels import batch_mask, batch_observe, batch_play, batch_reset, batch_step
from .obs_layout import CARD_ID_INDICES
from .state import DECK_SIZE, TURN_CAP
from .text import action_name, hide, render

SPEC = declare(
    __name__,
    description="DIVINE CROSS: a Main Unit and three Standby Units; charge Energy, use skills with attribute "
                "advantage; the third card in your KO Zone loses.",
    max_deck=DECK_SIZE,
    turn_cap=TURN_CAP,
    kernels=Kernels(batch_reset, batch_step, batch_observe, batch_mask, batch_play),
    default_decks=("blaze", "tide"),
    obs_card_ids=CARD_ID_INDICES,
)
default_decks = SPEC.default_decks

env, raw_env = pettingzoo_views(SPEC)  # the PettingZoo views, written once in the core


__all__ = ["SPEC", "action_name", "default_decks", "env", "hide", "load_deck", "load_pool", "raw_env", "render"]
