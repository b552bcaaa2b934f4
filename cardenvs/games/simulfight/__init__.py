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

from cardenvs.core.spec import declare
from cardenvs.core.views import pettingzoo_views

from .actions import action_name, render
from .cards import FULL_DECK, load_deck, load_pool
from .hidden import hide
from .observe import redeal_cards
from .row_check import check_rows
from .state import ROUND_CAP

_PLAN = ("during a phase the other seat's {what} is what its secret plan has made of it (SF-R2: the observation "
         "shows it as at the phase start), and the player's own is shown live ({shown}), so a change of it shows at "
         "once. hide() re-deals the other plan, but a few random plans need not touch every such field, and the "
         "check would then change a secret it takes for known")
COMPLETE_IGNORE = {
    "health": _PLAN.format(what="health", shown="me"),
    "resources": _PLAN.format(what="gold, shields and swords", shown="me"),
    "next_round": _PLAN.format(what="next-round changes", shown="me"),
    "unit_health": _PLAN.format(what="unit health", shown="my_cards"),
    "protected": _PLAN.format(what="units' Protection", shown="my_cards"),
    "stunned": _PLAN.format(what="units' Stun", shown="my_cards"),
    "used": _PLAN.format(what="units' used flags", shown="my_cards"),
    **{name: ("the player's side of it holds what the other seat's secret plan queued against it, hidden until it "
              "lands (SF-R2); the other side holds the player's own plan, shown at once (planned, opp_cards)")
       for name in ("in_damage", "in_stun", "in_player_damage", "in_resources", "in_next_round")},
    **{name: ("the order of the cards in it: units in play go to the discard pile in play order (SF-E1) and the "
              "discard pile is shuffled before it is drawn from again (SF-E3), so the order decides only what that "
              "uniform shuffle makes of the pile under a fixed random key (the check keeps the key); the rules treat "
              "both zones as sets (RULES.md, 'Choices the engine makes'), and which cards they hold is shown")
       for name in ("play", "discard")},
    "plan_open": ("the other seat's flag: in the AEC env player_1's plan is open whenever player_0 decides and "
                  "player_0's closed whenever player_1 does (the order is public); in the ParallelEnv it is the "
                  "other plan's secret length. It decides only who is asked once the player's own plan is closed, "
                  "and the player's own flag is shown (plan_open)"),
}

SPEC = declare(
    __name__,
    description="simultaneous unit-fighting card game: Defend and Attack phases planned blind, resolved together",
    turn_cap=ROUND_CAP,  # a round is the turn the cap counts (SF-E4)
    default_decks=(FULL_DECK, FULL_DECK),
    hide=hide,  # hidden.py: it re-deals the other seat's plan with the kernels, so it sits above them
    # action i of these ranges concerns deck instance i, which block i of the observation field describes
    action_obs_blocks=(("play", "my_cards"), ("use", "my_cards"), ("ally", "my_cards"), ("foe", "opp_cards")),
    noop_action=0,
    # the seat view (cardenvs.core.seat_view) keeps the opponent's hand cards both players know where they are
    view_known_field="shown",
    extra={
        # a row written from outside must hold values the kernels can follow (row_check.check_rows; cardenvs/core/rows.py)
        "check_rows": check_rows,
        # check_game's decision-timing check pins the cards a step reveals; a simultaneous plan is revealed whole
        # when it lands, so that check re-deals the hidden cards alone (observe.redeal_cards); hide() re-deals the
        # other seat's plan too
        "timing_hide": redeal_cards,
        # fields the completeness check leaves alone (cardenvs.testing.completeness_ignored): during a phase one side
        # of each is the other seat's secret plan, the other side the player's own, shown live
        "complete_ignore": COMPLETE_IGNORE,
    },
)

env, raw_env, parallel_env = pettingzoo_views(SPEC)  # the PettingZoo views, written once in the core


__all__ = ["SPEC", "env", "raw_env", "parallel_env", "load_pool", "load_deck", "action_name", "render", "hide"]
