"""The simulfight observation layout: the OBS row and the blocks it repeats, each a float32 :class:`Layout`.

Kernels read every offset by name (observe.py: ``from . import obs_layout as L``; ``out[L.O_ME + L.PLAYER_HEALTH]``):
``O_<FIELD>`` is an observation field's offset, ``<BLOCK>_<FIELD>`` an offset inside a block (``PLAYER``, ``PLANNED``,
``PENDING``; the per-instance ``CARD`` block lives in cards.py, whose ``card_features`` computes its static part).
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.layout import Layout, fields

from . import state as S
from .cards import CARD, CARD_ID, MAX_ENTRIES, NUM_OPS, NUM_TARGETS, NUM_TRIGGERS

# the blocks of the observation (each a float32 Layout; writers index them by name). The per-instance block CARD is
# declared in cards.py, whose card_features() computes its static part once per pool.
PLAYER = Layout("simulfight_player_obs", fields(
    ("health", (), "health/10"),
    ("resources", (S.NUM_RESOURCES,), "gold, shields, swords /5"),
    ("hand", (), "cards in hand/5"),
    ("deck", (), "cards in deck/10"),
    ("discard", (), "cards in discard pile/10"),
    ("next_round", (S.NUM_RESOURCES,), "next-round gold, shields, swords /5"),
    ("units", (), "units in play/5"),
), np.float32)
PLAYER.export(globals(), "PLAYER_")
PLANNED = Layout("simulfight_planned_obs", fields(
    ("damage", (), "player damage/10"),
    ("resources", (S.NUM_RESOURCES,), "gold, shields, swords changes now /5"),
    ("next_round", (S.NUM_RESOURCES,), "gold, shields, swords changes next round /5"),
), np.float32)
PLANNED.export(globals(), "PLANNED_")
PENDING = Layout("simulfight_pending_obs", fields(
    ("trigger", (NUM_TRIGGERS,), "trigger one-hot (TR_*)"),
    ("op", (NUM_OPS,), "op of the current effect one-hot (OP_*)"),
    ("amount", (), "its amount/5"),
    ("target", (NUM_TARGETS,), "its target kind one-hot (TG_*)"),
    ("cost", (), "the ability's cost amount/5"),
    ("entry", (MAX_ENTRIES,), "which of the ability's entries is resolving, one-hot"),
), np.float32)
PENDING.export(globals(), "PENDING_")

OBS = Layout(
    "simulfight_obs",
    fields(
        ("phase", (len(S.PHASE_NAMES),), "one-hot: Defend, Attack (PH_*)"),
        ("round", (), "round number / 10"),
        ("plan_open", (), "1 while my plan for this phase is open"),
        ("decision", (len(S.SUB_NAMES),), "one-hot of my pending decision (SUB_*): plan step, choose the paying ally, "
                                          "choose a target"),
        ("me", (PLAYER.size,), "me (live): health/10, gold/5, shields/5, swords/5, hand/5, deck/10, discard/10, "
                               "next-round gold, shields, swords /5, units in play/5 (the PLAYER block)"),
        ("me_start", (PLAYER.size,), "me at the phase start (what the opponent's plan sees of me), same columns"),
        ("opp", (PLAYER.size,), "the opponent at the phase start, same columns"),
        ("planned", (PLANNED.size,), "my plan against the opponent so far: player damage/10, gold, shields, swords "
                                     "now /5, gold, shields, swords next round /5 (the PLANNED block)"),
        ("pending", (PENDING.size,), "the ability I am resolving (zeros in the plan step): trigger one-hot (3), "
                                     "op of the current effect one-hot (5), its amount/5, its target kind one-hot "
                                     "(8), the ability's cost amount/5, which entry is resolving one-hot (3) "
                                     "(the PENDING block)"),
        ("my_cards", (S.MAX_DECK, CARD.size), "per instance of my deck (the CARD block): static card features "
                                              "(present, card id = pool index + 1, gold/5, health/5, per trigger "
                                              "has-ability, cost kind one-hot, cost/5), zone one-hot (deck, hand, "
                                              "play, discard), hidden=0, known (the opponent knows it is in my "
                                              "hand), health/5, Protected, Stunned, used this phase, being "
                                              "resolved, 0, 0, health/5, Protected, Stunned at the phase start "
                                              "(what the opponent's plan sees)"),
        ("opp_cards", (S.MAX_DECK, CARD.size), "per instance of the opponent's deck, at the phase start (the CARD "
                                               "block): static features (the deck list is public), zone (play, "
                                               "discard; deck and hand both show as hidden=1, except a card known "
                                               "to be in hand: hand=1, known=1), health/5, Protected, Stunned, 0, "
                                               "0, my planned damage/5, my planned Stun, 0, 0, 0 (its health, "
                                               "Protected, Stunned are already the phase start's)"),
    ),
    dtype_scalar=np.float32,
)
OBS_SIZE = OBS.size
#: every observation value lies in [-OBS_LIMIT, OBS_LIMIT], the Box the envs declare (core.aec.OBS_BOUND; a test checks
#: they agree): the counters a custom pool can grow without bound (health, resources, next-round changes, a plan's
#: queued amounts) are clipped to it by observe.py, and card ids stay within it because a pool holds at most
#: MAX_POOL_CARDS cards (cards.load_pool). With the shipped pool no value comes near (issue 43 #11).
OBS_LIMIT = 1000.0
OBS.export(globals(), "O_")  # O_PHASE, O_ME, O_MY_CARDS, ... (+ _END)
#: every flat observation index that holds a card id (pool index + 1; 0: no card), for SPEC.obs_card_ids
OBS_CARD_IDS = tuple(OBS.offset(name) + inst * CARD.size + CARD_ID for name in ("my_cards", "opp_cards")
                     for inst in range(S.MAX_DECK))
