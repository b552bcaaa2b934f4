"""simulfight (seed 003): a simultaneous two-player unit-fighting card game.

Each round has a Start phase (automatic), a Defend phase and an Attack phase; in Defend and Attack both players
build their plans at once without seeing each other's, and what they do to each other lands when both are done.
See ``RULES.md`` beside this file for the rules as implemented, and ``python -m cardenvs.games.simulfight.docs``
for the action and observation tables.

>>> from cardenvs.games import simulfight
>>> env = simulfight.env(render_mode="ansi")            # PettingZoo AEC: player_0's plan, then player_1's
>>> par = simulfight.parallel_env()                     # PettingZoo ParallelEnv: both plans at once
"""
from __future__ import annotations

from cardenvs.core.spec import Kernels, declare
from cardenvs.core.views import pettingzoo_views

from .actions import action_name, render
from .cards import FULL_DECK, load_deck, load_pool
from ._kernels import batch_mask, batch_observe, batch_play, batch_reset, batch_step
from .obs_layout import OBS_CARD_IDS
from .observe import hide
from .state import MAX_DECK, ROUND_CAP

SPEC = declare(
    __name__,
    description="simultaneous unit-fighting card game: Defend and Attack phases planned blind, resolved together",
    max_deck=MAX_DECK,
    turn_cap=ROUND_CAP,
    kernels=Kernels(batch_reset, batch_step, batch_observe, batch_mask, batch_play),
    default_decks=(FULL_DECK, FULL_DECK),
    obs_card_ids=OBS_CARD_IDS,
    # action i of these ranges concerns deck instance i, which block i of the observation field describes
    action_obs_blocks=(("play", "my_cards"), ("use", "my_cards"), ("ally", "my_cards"), ("foe", "opp_cards")),
    noop_action=0,
)

env, raw_env, parallel_env = pettingzoo_views(SPEC)  # the PettingZoo views, written once in the core


__all__ = ["SPEC", "env", "raw_env", "parallel_env", "load_pool", "load_deck", "action_name", "render", "hide"]
