"""The divinecross observation layout: the observation row and the blocks repeated inside it (declared once).

Every block is a float32 :class:`Layout` exported with its prefix (``CARD_HP``, ``UNIT_DAMAGE``, ``CTX_MY_TURN``,
``COUNT_DECK``, ``O_HAND``): the kernels in ``observe.py`` read them as ``L.CARD_HP`` (``from . import obs_layout as
L``), so a reordered or resized field moves every use with it.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.layout import Layout, fields

from . import state as S
from .cards import ATTR_RED, ATTRIBUTES, MAX_SKILLS, NUM_OPS, TYPES

# A card described by features (hand, units, the pending Assist): one float32 block, indexed by name.
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
        ("ops", (NUM_OPS,), "1 per effect op the card's text uses (OP_* in cards.py)"),
    ),
    np.float32,
)
CARD.export(globals(), "CARD_")
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
    np.float32,
)
UNIT.export(globals(), "UNIT_")
UNIT_SIZE = UNIT.size
SLOT_SIZE = CARD_SIZE + UNIT_SIZE  # one unit position: card features, then unit features
CONTEXT = Layout(
    "divinecross_context",
    fields(
        ("my_decision", ()), ("my_turn", ()), ("i_went_first", ()), ("no_skill_this_turn", ()), ("charged_own", ()),
        ("retreated_own", ()), ("event_played_own", ()), ("ex_used_own", ()), ("ex_used_opp", ()),
        ("stunned_own", ()), ("stunned_opp", ()), ("poisoned_own", ()), ("poisoned_opp", ()), ("promote_own", ()),
        ("promote_opp", ()), ("turn", (), "turn / 100"), ("redeals_own", ()), ("redeals_opp", ()),
        ("extra_draws_left_own", ()), ("extra_draws_left_opp", ()),
    ),
    np.float32,
)
CONTEXT.export(globals(), "CTX_")
CONTEXT_SIZE = CONTEXT.size
COUNTS = Layout(
    "divinecross_counts",
    fields(("deck", (), "/ 10"), ("hand", (), "/ 10"), ("standby", ()), ("ko", ()), ("discard", (), "/ 10"),
           ("energy", (), "/ 10")),
    np.float32,
)
COUNTS.export(globals(), "COUNT_")
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
        ("context", (CONTEXT_SIZE,), "flags and numbers: " + _names(CONTEXT)),
        ("counts", (2, COUNT_SIZE), "per player (own, opp): " + _names(COUNTS)),
        ("hand", (S.HAND_CAP, CARD_SIZE), "own hand, card features: " + _names(CARD)),
        ("units", (2, S.AREA_SIZE, SLOT_SIZE), "units (own, opp) at Main (0) and Standby 1..3: card features + "
                                               + _names(UNIT)),
        ("pending", (CARD_SIZE,), "the Assist being played (waiting for its host): card features"),
        ("public_cards", (2, NUM_PILES, S.POOL_CAP), "per player (own, opp), per face-up pile (discard pile, KO Zone, "
                                                     "attached Energy and Assists): how many cards of each card id"),
    ),
    dtype_scalar=np.float32,
)
OBS_SIZE = OBS.size
OBS.export(globals(), "O_")

#: every flat observation index that holds a card id (``SPEC.obs_card_ids``): the hand slots, the unit positions of
#: both players and the pending Assist
_ID = CARD.offset("card_id")
CARD_ID_INDICES = tuple(
    [OBS.offset("hand") + i * CARD_SIZE + _ID for i in range(S.HAND_CAP)]
    + [OBS.offset("units") + k * SLOT_SIZE + _ID for k in range(2 * S.AREA_SIZE)]
    + [OBS.offset("pending") + _ID]
)
