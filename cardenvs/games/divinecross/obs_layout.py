"""The divinecross observation layout: the observation row and the blocks repeated inside it (declared once).

Every block is a :class:`Layout` whose field offsets are named here with its prefix (``CARD_HP``, ``UNIT_DAMAGE``,
``CTX_MY_TURN``, ``COUNT_DECK``, ``O_HAND``), looked up by field name: the kernels in ``observe.py`` read them as
``L.CARD_HP`` (``from . import obs_layout as L``), so a reordered or resized field moves every use with it.

Compact rows (issue 41): the observation stores ``int16`` (``OBS_DTYPE``), and ``OBS.float_view(rows)`` gives the float32
observation, each entry divided by its field's ``divide_by``. HP, damage and damage modifiers are stored in hundreds
(the rules count them in hundreds, DC-A5; the loader rejects any other amount), so they need no divisor: they read
as the "/ 100" values the float32 row held. The counts shown "/ 10" (deck, hand, discard pile, Energy) are stored as
counts with ``divide_by=10``, the turn with ``divide_by=100``. Everything else is a count, a flag or a code.

Why int16 and not int8: over the pools the loader accepts, several entries pass 127. A Unit's HP with its Assists,
in hundreds, reaches 30 + 29 x 80 = 2,350 (printed HP up to 3,000; 29 other cards of the deck attached as Assists,
each up to four ``hp_up`` of 2,000); the summed modifiers reach 40 + 29 x 40 = 1,200; ``boost`` reaches +-1,270
(thirty cards played in one turn, four boosts of 1,000 each, plus a skill's three and an EX-Power's four);
``guard`` about 5,000 (it lasts through two turns, amounts up to 2,000); ``skill_damage_now`` at most
2 x (20 + 3 x 20 x 29 + 1,200 + 1,270 + 1,200) = 10,860 (printed damage, three ``bonus_energy`` of 2,000 per Energy
beyond the cost, the user's and the target's modifiers, doubled by the advantage). Even the shipped pool's
``bonus_energy`` skills pass 127 with a long charge. int16 holds every one of them with room (32,767);
``tests/games/divinecross/test_divinecross_observe.py`` builds the extreme position and checks it.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.layout import Layout, fields

from . import state as S
from .vocab import (
    ATTR_RED,
    ATTRIBUTES,
    C_ADV,
    C_ATTR,
    C_DEAL_MINUS,
    C_DEAL_PLUS,
    C_FEATURES,
    C_HALVE,
    C_HAS_EX,
    C_HP,
    C_HP_UP,
    C_N_SKILLS,
    C_OPS,
    C_RETREAT,
    C_RETREAT_DOWN,
    C_S0_DAMAGE,
    C_S0_ENERGY,
    C_TAKE_MINUS,
    C_TAKE_PLUS,
    C_TYPE,
    MAX_SKILLS,
    NUM_OPS,
    TYPES,
)

#: what an observation row stores (see the module docstring for why int16)
OBS_DTYPE = np.int16

# A card described by features (hand, units, the pending Assist): one block, indexed by name.
CARD = Layout(
    "divinecross_card",
    fields(
        ("present", (), "1 when the slot holds a card (a face-down card: present and nothing else)"),
        ("card_id", (), "the card's pool index + 1 (0: no card, or a card the viewer cannot see)"),
        ("type", (len(TYPES),), "one-hot card type: " + ", ".join(TYPES)),
        ("attr", (len(ATTRIBUTES),), "one-hot attribute: " + ", ".join(ATTRIBUTES)),
        ("adv", (len(ATTRIBUTES) - 1,), "advantage against: " + ", ".join(ATTRIBUTES[ATTR_RED:])),
        ("hp", (), "HP / 100 (a unit's slot adds its attached Assists' HP)"),
        ("retreat", (), "printed retreat cost"),
        ("skills", (), "number of skills"),
        ("skill_energy", (MAX_SKILLS,), "per skill: energy cost"),
        ("skill_damage", (MAX_SKILLS,), "per skill: printed damage / 100"),
        ("has_ex_power", (), "1 when the card has an EX-Power"),
        ("deal_plus", (), "passive skill damage dealt + / 100 (a unit's slot adds its Assists')"),
        ("deal_minus", (), "passive skill damage dealt - / 100 (a unit's slot adds its Assists')"),
        ("take_plus", (), "passive skill damage taken + / 100 (a unit's slot adds its Assists')"),
        ("take_minus", (), "passive skill damage taken - / 100 (a unit's slot adds its Assists')"),
        ("halve", (), "passive halvings of skill damage taken (a unit's slot adds its Assists')"),
        ("hp_up", (), "assist: host HP + / 100"),
        ("retreat_down", (), "assist: host retreat cost -"),
        ("ops", (NUM_OPS,), "1 per effect op the card's text uses (OP_* in vocab.py)"),
    ),
    OBS_DTYPE,
)
(
    CARD_PRESENT, CARD_CARD_ID, CARD_TYPE, CARD_ATTR, CARD_ADV, CARD_HP, CARD_RETREAT, CARD_SKILLS, CARD_SKILL_ENERGY,
    CARD_SKILL_DAMAGE, CARD_HAS_EX_POWER, CARD_DEAL_PLUS, CARD_DEAL_MINUS, CARD_TAKE_PLUS, CARD_TAKE_MINUS, CARD_HALVE,
    CARD_HP_UP, CARD_RETREAT_DOWN, CARD_OPS,
) = CARD.offsets(
    "present", "card_id", "type", "attr", "adv", "hp", "retreat", "skills", "skill_energy", "skill_damage",
    "has_ex_power", "deal_plus", "deal_minus", "take_plus", "take_minus", "halve", "hp_up", "retreat_down", "ops",
)
CARD_SIZE = CARD.size
# What a unit in play adds after its card features.
UNIT = Layout(
    "divinecross_unit",
    fields(
        ("damage", (), "damage / 100"),
        ("hp_left", (), "HP left / 100"),
        ("energy", (), "attached Energy"),
        ("assists", (), "attached Assists"),
        ("boost", (), "skill damage +/- this turn / 100"),
        ("guard", (), "skill damage taken - until its owner's next turn / 100"),
        ("retreat_cost_now", (), "retreat cost now"),
        ("skill_damage_now", (MAX_SKILLS,), "Main Unit only: per skill, the damage it would deal now / 100"),
        ("face_up", (), "1 when face up"),
    ),
    OBS_DTYPE,
)
(
    UNIT_DAMAGE, UNIT_HP_LEFT, UNIT_ENERGY, UNIT_ASSISTS, UNIT_BOOST, UNIT_GUARD, UNIT_RETREAT_COST_NOW,
    UNIT_SKILL_DAMAGE_NOW, UNIT_FACE_UP,
) = UNIT.offsets(
    "damage", "hp_left", "energy", "assists", "boost", "guard", "retreat_cost_now", "skill_damage_now", "face_up",
)
UNIT_SIZE = UNIT.size
# one unit position: card features, then unit features
SLOT = Layout(
    "divinecross_slot",
    fields(("card", (CARD_SIZE,), "card features", {"block": CARD}), ("unit", (UNIT_SIZE,), "unit features",
                                                                      {"block": UNIT})),
    OBS_DTYPE,
)
SLOT_SIZE = SLOT.size
CONTEXT = Layout(
    "divinecross_context",
    fields(
        ("my_decision", ()), ("my_turn", ()), ("i_went_first", ()), ("no_skill_this_turn", ()), ("charged_own", ()),
        ("retreated_own", ()), ("event_played_own", ()), ("ex_used_own", ()), ("ex_used_opp", ()),
        ("stunned_own", ()), ("stunned_opp", ()), ("poisoned_own", ()), ("poisoned_opp", ()), ("promote_own", ()),
        ("promote_opp", ()), ("turn", (), "turn / 100", {"divide_by": 100}), ("redeals_own", ()),
        ("redeals_opp", ()), ("extra_draws_left_own", ()), ("extra_draws_left_opp", ()),
    ),
    OBS_DTYPE,
)
(
    CTX_MY_DECISION, CTX_MY_TURN, CTX_I_WENT_FIRST, CTX_NO_SKILL_THIS_TURN, CTX_CHARGED_OWN, CTX_RETREATED_OWN,
    CTX_EVENT_PLAYED_OWN, CTX_EX_USED_OWN, CTX_EX_USED_OPP, CTX_STUNNED_OWN, CTX_STUNNED_OPP, CTX_POISONED_OWN,
    CTX_POISONED_OPP, CTX_PROMOTE_OWN, CTX_PROMOTE_OPP, CTX_TURN, CTX_REDEALS_OWN, CTX_REDEALS_OPP,
    CTX_EXTRA_DRAWS_LEFT_OWN, CTX_EXTRA_DRAWS_LEFT_OPP,
) = CONTEXT.offsets(
    "my_decision", "my_turn", "i_went_first", "no_skill_this_turn", "charged_own", "retreated_own", "event_played_own",
    "ex_used_own", "ex_used_opp", "stunned_own", "stunned_opp", "poisoned_own", "poisoned_opp", "promote_own",
    "promote_opp", "turn", "redeals_own", "redeals_opp", "extra_draws_left_own", "extra_draws_left_opp",
)
CONTEXT_SIZE = CONTEXT.size
COUNTS = Layout(
    "divinecross_counts",
    fields(("deck", (), "/ 10", {"divide_by": 10}), ("hand", (), "/ 10", {"divide_by": 10}), ("standby", ()),
           ("ko", ()), ("discard", (), "/ 10", {"divide_by": 10}), ("energy", (), "/ 10", {"divide_by": 10})),
    OBS_DTYPE,
)
(
    COUNT_DECK, COUNT_HAND, COUNT_STANDBY, COUNT_KO, COUNT_DISCARD, COUNT_ENERGY,
) = COUNTS.offsets(
    "deck", "hand", "standby", "ko", "discard", "energy",
)
COUNT_SIZE = COUNTS.size
PILES = ("discard", "ko_zone", "attached")  # the face-up piles (DC-U7, DC-O3): Energy and Assists count as attached
PILE_DISCARD, PILE_KO, PILE_ATTACHED = (PILES.index(n) for n in ("discard", "ko_zone", "attached"))
NUM_PILES = len(PILES)
MAX_SMALL_COUNT = 20  # redeal and extra-draw counts are clipped here


def _names(layout: Layout) -> str:
    return ", ".join(f"{f.name}[{f.size}]" if f.size > 1 else f.name for f in layout.fields)


OBS = Layout(
    "divinecross_obs",
    fields(
        ("step", (S.NUM_STEPS,), "one-hot pending step (ST_* in state.py)"),
        ("context", (CONTEXT_SIZE,), "flags and numbers: " + _names(CONTEXT), {"block": CONTEXT}),
        ("counts", (2, COUNT_SIZE), "per player (own, opp): " + _names(COUNTS), {"block": COUNTS}),
        ("hand", (S.HAND_CAP, CARD_SIZE), "own hand, card features: " + _names(CARD), {"block": CARD}),
        ("units", (2, S.AREA_SIZE, SLOT_SIZE), "units (own, opp) at Main (0) and Standby 1..3: card features + "
                                               + _names(UNIT), {"block": SLOT}),
        ("pending", (CARD_SIZE,), "the Assist being played (waiting for its host): card features", {"block": CARD}),
        ("public_cards", (2, NUM_PILES, S.POOL_CAP), "per player (own, opp), per face-up pile (discard pile, KO Zone, "
                                                     "attached Energy and Assists): how many cards of each card id"),
        ("own_deck", (S.POOL_CAP,), "own deck's contents (not its order) by card id: the own deck list less every "
                                    "card seen leaving it"),
        ("shown", (2, S.POOL_CAP), "per player (own, opp), per card id: the most copies one of that player's setup "
                                   "reveals (DC-S5) showed, a lower bound on its deck list's copies"),
        ("attached", (2, S.AREA_SIZE, 2, S.POOL_CAP), "per player (own, opp), unit position (Main, Standby 1..3) "
                                                      "and kind (Energy, Assist): the cards attached to it, by card "
                                                      "id"),
    ),
    dtype_scalar=OBS_DTYPE,
)
OBS_SIZE = OBS.size
(
    O_STEP, O_CONTEXT, O_COUNTS, O_HAND, O_UNITS, O_PENDING, O_PUBLIC_CARDS, O_OWN_DECK, O_SHOWN, O_ATTACHED,
) = OBS.offsets(
    "step", "context", "counts", "hand", "units", "pending", "public_cards", "own_deck", "shown", "attached",
)

#: every flat observation index that holds a card id (``SPEC.obs_card_ids``): the hand slots, the unit positions of
#: both players and the pending Assist
_ID = CARD.offset("card_id")
CARD_ID_INDICES = tuple(
    [OBS.offset("hand") + i * CARD_SIZE + _ID for i in range(S.HAND_CAP)]
    + [OBS.offset("units") + k * SLOT_SIZE + _ID for k in range(2 * S.AREA_SIZE)]
    + [OBS.offset("pending") + _ID]
)


#: the card table's int32 columns, from ``C_FEATURES`` on, that hold a card's feature block (``card_feature_columns``)
CARD_FEATURE_COLUMNS = -(-CARD_SIZE * np.dtype(OBS_DTYPE).itemsize // 4)
#: where a card's feature block starts in the card table seen as ``OBS_DTYPE`` (``tables.cards.view(OBS_DTYPE)``)
FEATURE_AT = C_FEATURES * 4 // np.dtype(OBS_DTYPE).itemsize


def card_features(ctab: np.ndarray) -> np.ndarray:
    """The card-feature block of every card in the pool as the observation stores it, ``OBS_DTYPE [n, CARD_SIZE]``.
    Reads only the ``C_*`` columns before ``C_FEATURES``; HP and damage amounts are in hundreds (the loader accepts
    only multiples of 100, DC-A5)."""
    feat = np.zeros((ctab.shape[0], CARD_SIZE), dtype=OBS_DTYPE)
    for card in range(ctab.shape[0]):
        f = feat[card]
        f[CARD_PRESENT] = 1
        f[CARD_CARD_ID] = card + 1  # issue 14: identity, 0 = none/hidden
        f[CARD_TYPE + ctab[card, C_TYPE]] = 1
        f[CARD_ATTR + ctab[card, C_ATTR]] = 1
        for a in range(ATTR_RED, len(ATTRIBUTES)):
            if ctab[card, C_ADV] & (1 << a):
                f[CARD_ADV + a - ATTR_RED] = 1
        f[CARD_HP] = ctab[card, C_HP] // 100
        f[CARD_RETREAT] = ctab[card, C_RETREAT]
        f[CARD_SKILLS] = ctab[card, C_N_SKILLS]
        for k in range(MAX_SKILLS):
            f[CARD_SKILL_ENERGY + k] = ctab[card, C_S0_ENERGY + k]
            f[CARD_SKILL_DAMAGE + k] = ctab[card, C_S0_DAMAGE + k] // 100
        f[CARD_HAS_EX_POWER] = ctab[card, C_HAS_EX]
        f[CARD_DEAL_PLUS] = ctab[card, C_DEAL_PLUS] // 100
        f[CARD_DEAL_MINUS] = ctab[card, C_DEAL_MINUS] // 100
        f[CARD_TAKE_PLUS] = ctab[card, C_TAKE_PLUS] // 100
        f[CARD_TAKE_MINUS] = ctab[card, C_TAKE_MINUS] // 100
        f[CARD_HALVE] = ctab[card, C_HALVE]
        f[CARD_HP_UP] = ctab[card, C_HP_UP] // 100
        f[CARD_RETREAT_DOWN] = ctab[card, C_RETREAT_DOWN]
        for b in range(NUM_OPS):
            if ctab[card, C_OPS] & (1 << b):
                f[CARD_OPS + b] = 1
    return feat


def card_feature_columns(ctab: np.ndarray) -> np.ndarray:
    """``card_features`` packed into ``int32 [n, CARD_FEATURE_COLUMNS]``, the columns ``cards.compile_pool`` appends
    to the card table from ``C_FEATURES``: the observation copies a card's block, already in the row's dtype, from
    ``tables.cards.view(OBS_DTYPE)[card, FEATURE_AT:]`` instead of re-encoding it for every slot of every view (a
    fourth table would widen the ``tables`` every kernel call passes, which slowed step by about 10%)."""
    feat = card_features(ctab)
    packed = np.zeros((feat.shape[0], CARD_FEATURE_COLUMNS * 4 // feat.itemsize), dtype=OBS_DTYPE)
    packed[:, :CARD_SIZE] = feat
    return packed.view(np.int32)
