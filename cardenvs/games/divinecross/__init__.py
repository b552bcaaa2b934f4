"""divinecross (seed 002): the DIVINE CROSS card game as a vectorised two-player RL environment.

``SPEC`` declares the ruleset for the generic machinery (BatchGame, AEC env, vector env, checker); ``env()`` and
``raw_env()`` build the PettingZoo AEC env. Rules as implemented, with every gap decision: ``RULES.md``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from cardenvs.core.spec import GameSpec, Kernels

from .actions import ACTIONS, NUM_ACTIONS
from .cards import load_deck, load_pool
from .fused import batch_play
from .obs_layout import CARD_ID_INDICES
from .observe import OBS, batch_observe
from .rules import (
    batch_mask,
    batch_reset,
    batch_step,
)
from .state import DECISION_CAP, DECK_SIZE, STATE, TURN_CAP
from .text import LEGEND, action_name, explain_illegal, hide, render

SPEC = GameSpec(
    name="divinecross",
    version=2,
    description="DIVINE CROSS: a Main Unit and three Standby Units; charge Energy, use skills with attribute "
                "advantage; the third card in your KO Zone loses.",
    num_actions=NUM_ACTIONS,
    state_layout=STATE,
    obs_layout=OBS,
    max_deck=DECK_SIZE,
    turn_cap=TURN_CAP,
    simultaneous=False,
    kernels=Kernels(batch_reset, batch_step, batch_observe, batch_mask, batch_play),
    package_dir=Path(__file__).resolve().parent,
    load_pool=load_pool,
    load_deck=load_deck,
    action_name=action_name,
    render=render,
    hide=hide,
    default_decks=("blaze", "tide"),
    decision_cap=DECISION_CAP,
    action_layout=ACTIONS,
    legend=LEGEND,
    explain_illegal=explain_illegal,
    obs_card_ids=CARD_ID_INDICES,
)
default_decks = SPEC.default_decks


def env(**kw: Any):
    """The PettingZoo AEC env (wrapped), e.g. ``env(render_mode="ansi", decks=("blaze", "grove"))``."""
    from cardenvs.core.aec import make_env

    return make_env(SPEC, **kw)


def raw_env(**kw: Any):
    """The unwrapped AEC env."""
    from cardenvs.core.aec import make_env

    return make_env(SPEC, raw=True, **kw)


__all__ = ["SPEC", "action_name", "default_decks", "env", "hide", "load_deck", "load_pool", "raw_env", "render"]
