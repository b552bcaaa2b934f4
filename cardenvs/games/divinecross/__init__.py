"""divinecross (seed 002): the DIVINE CROSS card game as a vectorised two-player RL environment.

``declare`` reads the rest of ``SPEC`` from this folder's modules (cardenvs.core.spec.CONVENTIONS); every rule as
implemented, with every gap decision: ``RULES.md``.
"""
from __future__ import annotations

from cardenvs.core.spec import declare
from cardenvs.core.views import pettingzoo_views

from .cards import load_deck, load_pool
from .text import action_name, hide, render

SPEC = declare(
    __name__,
    description="DIVINE CROSS: a Main Unit and three Standby Units; charge Energy, use skills with attribute "
                "advantage; the third card in your KO Zone loses.",
    default_decks=("blaze", "tide"),
)
default_decks = SPEC.default_decks

env, raw_env = pettingzoo_views(SPEC)  # the PettingZoo views, written once in the core


__all__ = ["SPEC", "action_name", "default_decks", "env", "hide", "load_deck", "load_pool", "raw_env", "render"]
