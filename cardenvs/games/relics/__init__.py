"""relics (seed 004): a fan-made party battle card game for relics, as a vectorised two-player RL environment.

Each battle: pick a location, draw and place a party face down in two rows of 3, reveal, then alternate Fight /
Cast / Move / Reinforce / Recruit / Appoint / Retreat / Pass until a party is wiped; the winner takes the location's
relic. Four relics win. ``SPEC`` declares the ruleset for the generic machinery; ``env()`` and ``raw_env()`` build
the PettingZoo AEC env. Rules as implemented, with every gap decision: ``RULES.md``.
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
from .state import BATTLE_CAP, DECISION_CAP, MAX_DECK, ROUND_CAP, STATE, TURN_CAP
from .text import LEGEND, action_name, explain_illegal, hide, render

SPEC = GameSpec(
    name="relics",
    version=2,
    description="Relics: battles over locations with parties in two rows of 3; the winner takes the relic; 4 relics win.",
    num_actions=NUM_ACTIONS,
    state_layout=STATE,
    obs_layout=OBS,
    max_deck=MAX_DECK,
    turn_cap=TURN_CAP,
    simultaneous=False,
    kernels=Kernels(batch_reset, batch_step, batch_observe, batch_mask, batch_play),
    package_dir=Path(__file__).resolve().parent,
    load_pool=load_pool,
    load_deck=load_deck,
    action_name=action_name,
    render=render,
    hide=hide,
    default_decks=("vanguard", "arcana"),
    decision_cap=DECISION_CAP,
    action_layout=ACTIONS,
    legend=LEGEND,
    explain_illegal=explain_illegal,
    obs_card_ids=CARD_ID_INDICES,
    # the actions numbered by a card's slot, with the observation block of that slot (``[ppo] instance_head``):
    # grid[0] / grid[1] are the own / opposing halves of the grid
    action_obs_blocks=(("hand", "hand"), ("reserve", "reserves"), ("relic", "sideboard"), ("location", "location_pile"),
                       ("pick", "lineup"), ("slot", "grid[0]"), ("ability", "grid[0]"), ("target", "grid[1]")),
    extra={"battle_cap": BATTLE_CAP, "round_cap": ROUND_CAP},
)
default_decks = SPEC.default_decks


def env(**kw: Any):
    """The PettingZoo AEC env (wrapped), e.g. ``env(render_mode="ansi", decks=("vanguard", "shadow"))``."""
    from cardenvs.core.aec import make_env

    return make_env(SPEC, **kw)


def raw_env(**kw: Any):
    """The unwrapped AEC env."""
    from cardenvs.core.aec import make_env

    return make_env(SPEC, raw=True, **kw)


__all__ = ["SPEC", "action_name", "default_decks", "env", "hide", "load_deck", "load_pool", "raw_env", "render"]
