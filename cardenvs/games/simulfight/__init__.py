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

from typing import Any

from cardenvs.core.spec import GameSpec, Kernels

from .actions import ACTIONS, NUM_ACTIONS, action_name, render
from .cards import FULL_DECK, PACKAGE_DIR, load_deck, load_pool
from .fused import batch_play
from .obs_layout import OBS_CARD_IDS
from .observe import OBS, batch_observe, hide
from .rules import batch_mask, batch_reset, batch_step
from .state import MAX_DECK, ROUND_CAP, STATE
from .text import LEGEND, explain_illegal

SPEC = GameSpec(
    name="simulfight",
    version=1,
    description="simultaneous unit-fighting card game: Defend and Attack phases planned blind, resolved together",
    num_actions=NUM_ACTIONS,
    state_layout=STATE,
    obs_layout=OBS,
    max_deck=MAX_DECK,
    turn_cap=ROUND_CAP,
    simultaneous=True,
    kernels=Kernels(batch_reset, batch_step, batch_observe, batch_mask, batch_play),
    package_dir=PACKAGE_DIR,
    load_pool=load_pool,
    load_deck=load_deck,
    action_name=action_name,
    render=render,
    hide=hide,
    default_decks=(FULL_DECK, FULL_DECK),
    action_layout=ACTIONS,
    obs_card_ids=OBS_CARD_IDS,
    # action i of these ranges concerns deck instance i, which block i of the observation field describes
    action_obs_blocks=(("play", "my_cards"), ("use", "my_cards"), ("ally", "my_cards"), ("foe", "opp_cards")),
    noop_action=0,
    legend=LEGEND,
    explain_illegal=explain_illegal,
)


def env(**kwargs: Any):
    """The PettingZoo AEC env (wrapped in OrderEnforcingWrapper); ``decks=(a, b)``, ``render_mode=...``."""
    from cardenvs.core.aec import make_env

    return make_env(SPEC, **kwargs)


def raw_env(**kwargs: Any):
    """The unwrapped AEC env."""
    from cardenvs.core.aec import make_env

    return make_env(SPEC, raw=True, **kwargs)


def parallel_env(**kwargs: Any):
    """The PettingZoo ParallelEnv: one decision from each player per step (a finished plan takes the no-op 0)."""
    from cardenvs.core.parallel import make_parallel_env

    return make_parallel_env(SPEC, **kwargs)


__all__ = ["SPEC", "env", "raw_env", "parallel_env", "load_pool", "load_deck", "action_name", "render", "hide"]
