"""heartbreak (seed 001): a fighter card game of hearts, Leads and Turbo answers as a vectorised RL environment.

``SPEC`` (the generic machinery's view of the ruleset) lists what is heartbreak's own; ``declare`` finds the rest in
this folder by the core's conventions. The rules as implemented: ``RULES.md``.
"""
from __future__ import annotations

from cardenvs.core.spec import declare
from cardenvs.core.views import pettingzoo_views

from .cards import load_deck, load_pool
from .text import LEGEND, action_name, explain_illegal, hide, render

SPEC = declare(
    __name__,
    description="Heartbreak: fighters in Lead and Back-Up, evolve lines, items in stock, Turbo answers; "
                "break every heart card and the empty heart once more.",
    default_decks=("blaze", "tide"),
    # what its seat's view keeps (cardenvs.core.seat_view): only face-down heart cards are unseen by their owner too
    # (HB-H9); its charged cards, face-down stock and face-down Lead it put there itself
    view_own_unseen_zones=("heart",),
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
