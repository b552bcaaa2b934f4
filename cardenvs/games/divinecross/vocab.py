"""The divinecross card vocabulary and the compiled tables' shape, declared once for every module that reads cards.

Codes (card types, attributes, triggers, targets, effect ops) are positions in their name tuples; the columns of the
card and effect tables are :class:`Layout` offsets, so a column added or moved renumbers every use, as the state
row's offsets do. The card pool (``cards.py``) compiles to a :class:`Tables`, the NamedTuple every kernel receives
as ``tables`` and reads by name (``tables.cards[card, C_HP]``).

This module imports nothing of the game, so the loader, the observation layout and the kernels all build on it
without an import circle.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cardenvs.core.layout import Layout, fields


def codes(names: tuple[str, ...], *wanted: str) -> tuple[int, ...]:
    """The codes of ``wanted`` in ``names`` (a name's code is its position): unpack them into named constants."""
    return tuple(names.index(n) for n in wanted)


TYPES = ("unit", "event", "action", "assist")  # DC-D5
TYPE_UNIT, TYPE_EVENT, TYPE_ACTION, TYPE_ASSIST = codes(TYPES, "unit", "event", "action", "assist")
ATTRIBUTES = ("none", "red", "green", "blue")  # DC-U8
ATTR_NONE, ATTR_RED, ATTR_GREEN, ATTR_BLUE = codes(ATTRIBUTES, "none", "red", "green", "blue")

TRIGGERS = ("passive", "ex_power", "play", "skill")
TR_PASSIVE, TR_EX, TR_PLAY, TR_SKILL = codes(TRIGGERS, "passive", "ex_power", "play", "skill")

TARGETS = ("self", "own_main", "own_standby", "own_all", "opp_main", "opp_standby", "opp_all")
TG_SELF, TG_OWN_MAIN, TG_OWN_STANDBY, TG_OWN_ALL, TG_OPP_MAIN, TG_OPP_STANDBY, TG_OPP_ALL = codes(
    TARGETS, "self", "own_main", "own_standby", "own_all", "opp_main", "opp_standby", "opp_all")

#: the effect ops in code order (their arguments and meanings: ``cards.OPS``)
OP_NAMES = (
    "damage", "heal", "draw", "stun", "poison", "cure", "charge", "strip_energy", "boost", "guard", "dmg_up",
    "dmg_down", "halve", "hp_up", "retreat_down", "bonus_energy", "bonus_damaged", "bonus_condition",
)
NUM_OPS = len(OP_NAMES)
(
    OP_DAMAGE, OP_HEAL, OP_DRAW, OP_STUN, OP_POISON, OP_CURE, OP_CHARGE, OP_STRIP_ENERGY, OP_BOOST, OP_GUARD,
    OP_DMG_UP, OP_DMG_DOWN, OP_HALVE, OP_HP_UP, OP_RETREAT_DOWN, OP_BONUS_ENERGY, OP_BONUS_DAMAGED, OP_BONUS_CONDITION,
) = codes(OP_NAMES, "damage", "heal", "draw", "stun", "poison", "cure", "charge", "strip_energy", "boost", "guard",
            "dmg_up", "dmg_down", "halve", "hp_up", "retreat_down", "bonus_energy", "bonus_damaged", "bonus_condition")
PASSIVE_OPS = ("dmg_up", "dmg_down", "halve", "hp_up", "retreat_down")
ASSIST_ONLY_OPS = ("hp_up", "retreat_down")
BONUS_OPS = ("bonus_energy", "bonus_damaged", "bonus_condition")  # a skill's damage ability (damage step 1)
MAIN_ONLY_OPS = ("stun", "poison", "cure")  # these act on a player's Main Unit
#: bit ``op`` set for each op of ``BONUS_OPS``: the kernels test ``(BONUS_OP_BITS >> op) & 1`` instead of a copy
BONUS_OP_BITS = sum(1 << OP_NAMES.index(n) for n in BONUS_OPS)

MAX_EFFECTS = 4
MAX_SKILLS = 2
MAX_SKILL_EFFECTS = 3

#: the card table's columns, one row per card (passive damage modifiers pre-summed over the card's effects)
CARD_COLUMNS = Layout(
    "divinecross_card_columns",
    fields(
        ("type", (), "TYPE_* code"),
        ("attr", (), "ATTR_* code"),
        ("adv", (), "bit a set: double skill damage against attribute a (DC-A4)"),
        ("hp", (), "printed HP"),
        ("retreat", (), "printed retreat cost"),
        ("n_skills", (), "number of skills"),
        ("has_ex", (), "1 when the card has an EX-Power"),
        ("deal_plus", (), "passive: skill damage dealt +"),
        ("deal_minus", (), "passive: skill damage dealt -"),
        ("take_plus", (), "passive: skill damage taken +"),
        ("take_minus", (), "passive: skill damage taken -"),
        ("halve", (), "passive: halvings of skill damage taken"),
        ("hp_up", (), "assist: host HP +"),
        ("retreat_down", (), "assist: host retreat cost -"),
        ("ops", (), "bit o set: the card's text uses op o"),
        ("skill_energy", (MAX_SKILLS,), "per skill: Energy it needs"),
        ("skill_damage", (MAX_SKILLS,), "per skill: printed damage"),
    ),
)
(
    C_TYPE, C_ATTR, C_ADV, C_HP, C_RETREAT, C_N_SKILLS, C_HAS_EX, C_DEAL_PLUS, C_DEAL_MINUS, C_TAKE_PLUS,
    C_TAKE_MINUS, C_HALVE, C_HP_UP, C_RETREAT_DOWN, C_OPS, C_S0_ENERGY, C_S0_DAMAGE,
) = CARD_COLUMNS.offsets(
    "type", "attr", "adv", "hp", "retreat", "n_skills", "has_ex", "deal_plus", "deal_minus", "take_plus", "take_minus",
    "halve", "hp_up", "retreat_down", "ops", "skill_energy", "skill_damage",
)
NUM_CARD_COLUMNS = CARD_COLUMNS.size
#: from this column on, a card's row holds its observation block (``obs_layout.card_feature_columns``: the values
#: the observation stores, packed in its dtype): the observation copies it instead of re-encoding the card (a fourth
#: table would widen the ``tables`` every kernel call passes, which slowed step by about 10%)
C_FEATURES = NUM_CARD_COLUMNS

#: the effect tables' columns (``E_TRIGGER = -1``: an unused entry)
EFFECT_COLUMNS = Layout(
    "divinecross_effect_columns",
    fields(("trigger", (), "TR_* code, -1 unused"), ("op", (), "OP_* code"), ("amount", (), "amount argument"),
           ("n", (), "n argument"), ("target", (), "TG_* code, -1 none")),
)
E_TRIGGER, E_OP, E_AMOUNT, E_N, E_TARGET = EFFECT_COLUMNS.offsets("trigger", "op", "amount", "n", "target")
NUM_EFFECT_COLUMNS = EFFECT_COLUMNS.size


class Tables(NamedTuple):
    """A compiled pool, as the kernels receive it (Numba types a NamedTuple of arrays and caches what takes it)."""

    #: int32 ``[n, NUM_CARD_COLUMNS + obs_layout.CARD_FEATURE_COLUMNS]``: columns ``C_*``, then the card's
    #: observation block
    cards: np.ndarray
    #: int32 ``[n, MAX_EFFECTS, NUM_EFFECT_COLUMNS]``: each card's effects in file order
    effects: np.ndarray
    #: int32 ``[n, MAX_SKILLS, MAX_SKILL_EFFECTS, NUM_EFFECT_COLUMNS]``: the effects of each skill
    skill_effects: np.ndarray
