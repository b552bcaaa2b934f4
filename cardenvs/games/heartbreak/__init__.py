"""heartbreak (seed 001): a fighter card game of hearts, Leads and Turbo answers as a vectorised RL environment.

``SPEC`` declares the ruleset for the generic machinery (BatchGame, AEC env, vector env, checker); ``env()`` and
``raw_env()`` build the PettingZoo AEC env. Rules as implemented, with every gap decision: ``RULES.md``.
"""
from __future__ import annotations

from cardenvs.core.spec import Kernels, declare
from cardenvs.core.views import pettingzoo_views

from .cards import load_deck, load_pool
from ._kernels import batch_mask, batch_observe, batch_play, batch_reset, batch_step
from .obs_layout import OBS_CARD_IDS
from .state import MAX_DECK, TURN_CAP
from .text import LEGEND, action_name, explain_illegal, hide, render

SPEC = declare(
    __name__,
    description="Heartbreak: fighters in Lead and Back-Up, evolve lines, items in stock, Turbo answers; "
                "break every heart card and the empty heart once more.",
    max_deck=MAX_DECK,
    turn_cap=TURN_CAP,
    kernels=Kernels(batch_reset, batch_step, batch_observe, batch_mask, batch_play),
    default_decks=("blaze", "tide"),
    obs_card_ids=OBS_CARD_IDS,
    # the actions numbered by a card's slot or deck instance, with that card's observation block (``[ppo]
    # instance_head``); field[1] is the opponent's side
    action_obs_blocks=(("choose_lead", "lead_options"), ("hand", "hand"), ("target", "field[1]")),
    # state the observation completeness check (cardenvs.testing) leaves alone, and why it cannot matter
    extra={"complete_ignore": {
        "since_turn": "only since_turn < turn is ever read (HB-I4: may evolve), and the observation shows it as "
                      "may_evolve; a reachable since_turn never exceeds the turn, so the flag stays right later",
        "charge": "the charge zone's order: it decides only which charged card a Discharge makes public (HB-C8: no "
                  "rule reads a charged or discarded card's identity); the contents are in charged_cards",
        "deck": "the own deck is known only while its player chooses a Lead at setup, and start_game shuffles it "
                "before any card is drawn: its order then decides nothing a player could plan for (the check's "
                "fixed random key deals other hands from another order); its contents are in unseen_cards",
    }},
)
default_decks = SPEC.default_decks

env, raw_env = pettingzoo_views(SPEC)  # the PettingZoo views, written once in the core


__all__ = ["LEGEND", "SPEC", "action_name", "default_decks", "env", "explain_illegal", "hide", "load_deck", "load_pool",
           "raw_env", "render"]
