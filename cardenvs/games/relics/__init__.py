"""relics (seed 004): a fan-made party battle card game for relics, as a vectorised two-player RL environment.

Each battle: pick a location, draw and place a party face down in two rows of 3, reveal, then alternate Fight /
Cast / Move / Reinforce / Recruit / Appoint / Retreat / Pass until a party is wiped; the winner takes the location's
relic. Four relics win. ``SPEC`` declares the ruleset for the generic machinery; ``env()`` and ``raw_env()`` build
the PettingZoo AEC env. Rules as implemented, with every gap decision: ``RULES.md``.
"""
from __future__ import annotations

from cardenvs.core.spec import declare
from cardenvs.core.views import pettingzoo_views

from .cards import load_deck, load_pool
from .state import BATTLE_CAP, ROUND_CAP, check_rows
from .text import action_name, hide, render

SPEC = declare(
    __name__,
    description="Relics: battles over locations with parties in two rows of 3; the winner takes the relic; 4 relics win.",
    default_decks=("vanguard", "arcana"),
    # the actions numbered by a card's slot, with the observation block of that slot (``[ppo] instance_head``):
    # grid[0] / grid[1] are the own / opposing halves of the grid
    action_obs_blocks=(("hand", "hand"), ("reserve", "reserves"), ("relic", "sideboard"), ("location", "location_pile"),
                       ("pick", "lineup"), ("slot", "grid[0]"), ("ability", "grid[0]"), ("target", "grid[1]")),
    # check_rows: the pending choice of a row written from outside must be one the kernels can reach (state.py)
    extra={"battle_cap": BATTLE_CAP, "round_cap": ROUND_CAP, "check_rows": check_rows},
)
default_decks = SPEC.default_decks

env, raw_env = pettingzoo_views(SPEC)  # the PettingZoo views, written once in the core


__all__ = ["SPEC", "action_name", "default_decks", "env", "hide", "load_deck", "load_pool", "raw_env", "render"]
