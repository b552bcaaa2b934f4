"""The simulfight observation layout: the OBS row and the blocks it repeats, each a compact :class:`Layout`.

Kernels read every offset by name (observe.py: ``from . import obs_layout as L``; ``out[L.O_ME + L.PLAYER_HEALTH]``):
``O_<FIELD>`` is an observation field's offset, ``<BLOCK>_<FIELD>`` an offset inside a block (``PLAYER``, ``PLANNED``,
``PENDING``; the per-instance ``CARD`` block lives in cards.py, whose ``card_features`` computes its static part).

Compact (issue 41): every entry is an integer stored as **int16** (``OBS_DTYPE``); a field's ``divide_by`` (a block's,
for the fields of repeated blocks, ``block=``) says what the float view (``OBS.float_view``,
``SPEC.float_observation``) divides it by, and that view equals the float32 observation of before value for value.
Every value the float32 row held was already a small integer over 5 or 10: health, planned player damage, the round,
deck and discard sizes were / 10 (stored as they are, ``divide_by`` 10); gold, shields, swords and their next-round
and planned changes, hand size, units in play, a unit's health, planned damage on a unit, an effect's amount and an
ability's cost were / 5 (stored as they are, ``divide_by`` 5); flags, one-hots and card ids are stored as they are.
The clip to the declared Box (``observe.bounded``, issue 43 #11) clips the stored integer to ``OBS_LIMIT`` times the
entry's divisor, so the float view's bound stays ``OBS_LIMIT`` exactly; nothing had to be rounded.

Why int16 (and not int8 or uint8): a card id reaches ``MAX_POOL_CARDS`` = 1000 and the clipped counters reach
``OBS_LIMIT`` x 10 = 10,000 (health, planned player damage, the round) and 5,000 (resources, unit health, planned
unit damage): a custom pool at the schema's extremes reaches the clip within a few rounds (heals of 20, gains of 10,
40 copies), and resources, next-round changes and health go negative (a byte holds 127 or 255). Every other entry is
small: counts of a 40-card deck, the round (<= ``ROUND_CAP``), an effect amount in -10..20, a cost, gold or
printed health in 0..30, 0/1 flags. int16 holds +-32,767, so no value the kernels write can wrap;
``tests/games/simulfight/test_simulfight_obs_bounds.py`` plays a pool at the schema's extremes to the clip and checks
every observation with check_game's range guard.
"""
from __future__ import annotations

from cardenvs.core.layout import Layout, fields

from . import state as S
from .cards import CARD, CARD_ID, FIFTHS, MAX_ENTRIES, NUM_OPS, NUM_TARGETS, NUM_TRIGGERS, OBS_DTYPE

TENTHS = {"divide_by": 10}  # health, player damage, the round, deck and discard sizes read / 10, stored as they are

# the blocks of the observation (each an OBS_DTYPE Layout; writers index them by name). The per-instance block CARD is
# declared in cards.py, whose card_features() computes its static part once per pool.
PLAYER = Layout("simulfight_player_obs", fields(
    ("health", (), "health/10", TENTHS),
    ("resources", (S.NUM_RESOURCES,), "gold, shields, swords /5", FIFTHS),
    ("hand", (), "cards in hand/5", FIFTHS),
    ("deck", (), "cards in deck/10", TENTHS),
    ("discard", (), "cards in discard pile/10", TENTHS),
    ("next_round", (S.NUM_RESOURCES,), "next-round gold, shields, swords /5", FIFTHS),
    ("units", (), "units in play/5", FIFTHS),
), OBS_DTYPE)
PLAYER.export(globals(), "PLAYER_")
PLANNED = Layout("simulfight_planned_obs", fields(
    ("damage", (), "player damage/10", TENTHS),
    ("resources", (S.NUM_RESOURCES,), "gold, shields, swords changes now /5", FIFTHS),
    ("next_round", (S.NUM_RESOURCES,), "gold, shields, swords changes next round /5", FIFTHS),
), OBS_DTYPE)
PLANNED.export(globals(), "PLANNED_")
PENDING = Layout("simulfight_pending_obs", fields(
    ("trigger", (NUM_TRIGGERS,), "trigger one-hot (TR_*)"),
    ("op", (NUM_OPS,), "op of the current effect one-hot (OP_*)"),
    ("amount", (), "its amount/5", FIFTHS),
    ("target", (NUM_TARGETS,), "its target kind one-hot (TG_*)"),
    ("cost", (), "the ability's cost amount/5", FIFTHS),
    ("entry", (MAX_ENTRIES,), "which of the ability's entries is resolving, one-hot"),
), OBS_DTYPE)
PENDING.export(globals(), "PENDING_")

OBS = Layout(
    "simulfight_obs",
    fields(
        ("phase", (len(S.PHASE_NAMES),), "one-hot: Defend, Attack (PH_*)"),
        ("round", (), "round number / 10", TENTHS),
        ("plan_open", (), "1 while my plan for this phase is open"),
        ("decision", (len(S.SUB_NAMES),), "one-hot of my pending decision (SUB_*): plan step, choose the paying ally, "
                                          "choose a target"),
        ("me", (PLAYER.size,), "me (live): health/10, gold/5, shields/5, swords/5, hand/5, deck/10, discard/10, "
                               "next-round gold, shields, swords /5, units in play/5 (the PLAYER block)",
         {"block": PLAYER}),
        ("me_start", (PLAYER.size,), "me at the phase start (what the opponent's plan sees of me), same columns",
         {"block": PLAYER}),
        ("opp", (PLAYER.size,), "the opponent at the phase start, same columns", {"block": PLAYER}),
        ("planned", (PLANNED.size,), "my plan against the opponent so far: player damage/10, gold, shields, swords "
                                     "now /5, gold, shields, swords next round /5 (the PLANNED block)",
         {"block": PLANNED}),
        ("pending", (PENDING.size,), "the ability I am resolving (zeros in the plan step): trigger one-hot (3), "
                                     "op of the current effect one-hot (5), its amount/5, its target kind one-hot "
                                     "(8), the ability's cost amount/5, which entry is resolving one-hot (3) "
                                     "(the PENDING block)", {"block": PENDING}),
        ("my_cards", (S.MAX_DECK, CARD.size), "per instance of my deck (the CARD block): static card features "
                                              "(present, card id = pool index + 1, gold/5, health/5, per trigger "
                                              "has-ability, cost kind one-hot, cost/5), zone one-hot (deck, hand, "
                                              "play, discard), hidden=0, known (the opponent knows it is in my "
                                              "hand), health/5, Protected, Stunned, used this phase, being "
                                              "resolved, 0, 0, health/5, Protected, Stunned at the phase start "
                                              "(what the opponent's plan sees)", {"block": CARD}),
        ("opp_cards", (S.MAX_DECK, CARD.size), "per instance of the opponent's deck, at the phase start (the CARD "
                                               "block): static features (the deck list is public), zone (play, "
                                               "discard; deck and hand both show as hidden=1, except a card known "
                                               "to be in hand: hand=1, known=1), health/5, Protected, Stunned, 0, "
                                               "0, my planned damage/5, my planned Stun, 0, 0, 0 (its health, "
                                               "Protected, Stunned are already the phase start's)",
         {"block": CARD}),
    ),
    dtype_scalar=OBS_DTYPE,
)
OBS_SIZE = OBS.size
#: every float-view value lies in [-OBS_LIMIT, OBS_LIMIT] (core.aec.OBS_BOUND, the Box of the float32 observation
#: before issue 41; a test checks they agree): the counters a custom pool can grow without bound (health, resources,
#: next-round changes, a plan's queued amounts) are clipped by observe.py to OBS_LIMIT times their divisor as stored,
#: which also keeps them inside int16, and card ids stay within it because a pool holds at most MAX_POOL_CARDS cards
#: (cards.load_pool). With the shipped pool no value comes near (issue 43 #11).
OBS_LIMIT = 1000
OBS.export(globals(), "O_")  # O_PHASE, O_ME, O_MY_CARDS, ... (+ _END)
#: every flat observation index that holds a card id (pool index + 1; 0: no card), for SPEC.obs_card_ids
OBS_CARD_IDS = tuple(OBS.offset(name) + inst * CARD.size + CARD_ID for name in ("my_cards", "opp_cards")
                     for inst in range(S.MAX_DECK))
