"""heartbreak's kernel tables: the card vocabulary's codes, the card- and effect-table columns, and ``Tables``.

Every code and column number here is derived from its declaration (a name's place in its vocabulary tuple, a
column's offset in its Layout), never counted by hand. ``cards.load_pool`` compiles a pool into a :class:`Tables`
and the kernels read its arrays by name (``tables.cards[card, C_HP]``). This module sits below the loader and the
observation layout, so neither imports the other to reach a column.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cardenvs.core.layout import Layout, fields

from . import state as S


class Tables(NamedTuple):
    """A compiled pool as the kernels take it (Numba types a NamedTuple of arrays and caches kernels over it)."""

    cards: np.ndarray  # int32 [n, NUM_CARD_COLUMNS]: one row per card, columns C_*
    effects: np.ndarray  # int32 [n, MAX_EFFECTS, NUM_EFFECT_COLUMNS]: effects in file order, columns E_*
    features: np.ndarray  # int16 [n, obs_layout.CARD_SIZE]: each card's observation block, stored as the obs is


def codes(vocabulary: tuple[str, ...], *names: str) -> tuple[int, ...]:
    """The codes of ``names`` in ``vocabulary`` (a name's code is its place there), for ``A, B = codes(V, "a", "b")``:
    each constant is paired with its name, not with a count."""
    return tuple(vocabulary.index(n) for n in names)


# ---- vocabularies ------------------------------------------------------------------------------------------------
TYPES = ("fighter", "support", "item", "climax")
TYPE_FIGHTER, TYPE_SUPPORT, TYPE_ITEM, TYPE_CLIMAX = codes(TYPES, "fighter", "support", "item", "climax")

CALL_CONDITIONS = ("none", "ally", "low_heart")
CC_NONE, CC_ALLY, CC_LOW_HEART = codes(CALL_CONDITIONS, "none", "ally", "low_heart")
LOW_HEART = 2  # "low_heart": the owner's heart holds this many cards or fewer

TRIGGERS = ("call", "start_turn", "end_turn", "skill", "action", "play")
TR_CALL, TR_START, TR_END, TR_SKILL, TR_ACTION, TR_PLAY = codes(
    TRIGGERS, "call", "start_turn", "end_turn", "skill", "action", "play")
# keyword abilities that trigger (HB-R2, L4): the index of their stack entries only, never a card's effect trigger
KEYWORD_TRIGGERS = ("strike", "counter")
TR_STRIKE, TR_COUNTER = (len(TRIGGERS) + c for c in codes(KEYWORD_TRIGGERS, "strike", "counter"))

CONDITIONS = ("none", "own_turn", "opp_turn", "is_lead", "low_heart")
CO_NONE, CO_OWN_TURN, CO_OPP_TURN, CO_IS_LEAD, CO_LOW_HEART = codes(
    CONDITIONS, "none", "own_turn", "opp_turn", "is_lead", "low_heart")

TARGETS = ("self", "own_lead", "own_backup", "own_all", "opp_lead", "opp_backup", "opp_all", "action_target")
TG_SELF, TG_OWN_LEAD, TG_OWN_BACKUP, TG_OWN_ALL, TG_OPP_LEAD, TG_OPP_BACKUP, TG_OPP_ALL, TG_ACTION_TARGET = codes(
    TARGETS, "self", "own_lead", "own_backup", "own_all", "opp_lead", "opp_backup", "opp_all", "action_target")

SIDES = ("own", "opp")

STATS = ("armor", "ward", "counter", "hp", "attack", "strike", "bypass")
ST_ARMOR, ST_WARD, ST_COUNTER, ST_HP, ST_ATTACK, ST_STRIKE, ST_BYPASS = codes(
    STATS, "armor", "ward", "counter", "hp", "attack", "strike", "bypass")

#: the op vocabulary (each op's arguments and text: ``cards.OPS``)
OP_NAMES = ("damage", "heal", "draw", "charge_top", "overdrive", "heartbreak", "buff", "rise", "rest", "swap_lead",
            "evolve", "stock_top", "negate", "silence", "add_heart")
(OP_DAMAGE, OP_HEAL, OP_DRAW, OP_CHARGE_TOP, OP_OVERDRIVE, OP_HEARTBREAK, OP_BUFF, OP_RISE, OP_REST, OP_SWAP_LEAD,
 OP_EVOLVE, OP_STOCK_TOP, OP_NEGATE, OP_SILENCE, OP_ADD_HEART) = codes(
    OP_NAMES, "damage", "heal", "draw", "charge_top", "overdrive", "heartbreak", "buff", "rise", "rest", "swap_lead",
    "evolve", "stock_top", "negate", "silence", "add_heart")

MAX_EFFECTS = 6
MAX_ALLIANCES = 6

# ---- the card table: one int32 row per card ---------------------------------------------------------------------
#: the columns of one action / one skill inside a card row
ACTION_COLUMNS = Layout("heartbreak_action_columns", fields(
    ("cost", (), "[Act Cost]: Discharge N"), ("damage", (), "attack damage; 0: not an attack"),
    ("overdrive", (), "1: Overdrive once as part of the cost")))
SKILL_COLUMNS = Layout("heartbreak_skill_columns", fields(
    ("cost", (), "Discharge N"), ("overdrive", (), "1: Overdrive once as part of the cost")))
CARD_COLUMNS = Layout("heartbreak_card_columns", fields(
    ("type", (), "TYPE_* code"), ("alliance", (), "index in the pool's alliances, free last"), ("level", ()),
    ("hp", (), "in tens"), ("cost", (), "Discharge N"), ("od", (), "1: Overdrive once as part of the cost"),
    ("cond", (), "CC_* call condition"), ("armor", ()), ("ward", ()), ("counter", ()), ("baneful", ()),
    ("strike", (), "X of [X Strike], 1 none"), ("bypass", ()), ("attack", (), "item: attack damage bonus"),
    ("turbo", ()), ("name_id", (), "fighter name (evolution line) index, -1 not a fighter"), ("n_actions", ()),
    ("act", (S.MAX_ACTIONS, ACTION_COLUMNS.size), "per action: cost, damage, overdrive"), ("n_skills", ()),
    ("sk", (S.MAX_SKILLS, SKILL_COLUMNS.size), "per skill: cost, overdrive"),
    ("has_call", (), "1: a call-triggered effect"), ("has_start", (), "1: a start_turn effect"),
    ("has_end", (), "1: an end_turn effect"), ("lead_ok", (), "1: a fighter with no cost and no call condition"),
    ("negate", (), "1: a negate effect"),
))
NUM_CARD_COLUMNS = CARD_COLUMNS.size
(C_TYPE, C_ALLIANCE, C_LEVEL, C_HP, C_COST, C_OD, C_COND, C_ARMOR, C_WARD, C_COUNTER, C_BANEFUL, C_STRIKE, C_BYPASS,
 C_ATTACK, C_TURBO, C_NAME_ID, C_N_ACTIONS, C_N_SKILLS, C_HAS_CALL, C_HAS_START, C_HAS_END, C_LEAD_OK,
 C_NEGATE) = CARD_COLUMNS.offsets(
    "type", "alliance", "level", "hp", "cost", "od", "cond", "armor", "ward", "counter", "baneful", "strike", "bypass",
    "attack", "turbo", "name_id", "n_actions", "n_skills", "has_call", "has_start", "has_end", "lead_ok", "negate")
# action k's column X is C_ACT_X + NUM_ACT_COLS * k; skill k's C_SK_X + NUM_SK_COLS * k
NUM_ACT_COLS = ACTION_COLUMNS.size
C_ACT_COST, C_ACT_DMG, C_ACT_OD = (CARD_COLUMNS.offset("act") + c
                                   for c in ACTION_COLUMNS.offsets("cost", "damage", "overdrive"))
NUM_SK_COLS = SKILL_COLUMNS.size
C_SK_COST, C_SK_OD = (CARD_COLUMNS.offset("sk") + c for c in SKILL_COLUMNS.offsets("cost", "overdrive"))

# ---- the effect table: MAX_EFFECTS int32 rows per card (unused rows have E_TRIGGER = -1) -------------------------
EFFECT_COLUMNS = Layout("heartbreak_effect_columns", fields(
    ("trigger", (), "TR_* code, -1 no effect"), ("index", (), "skill / action number - 1"),
    ("cond", (), "CO_* condition"), ("op", (), "OP_* code"), ("amount", ()), ("target", (), "TG_* selector, -1 none"),
    ("stat", (), "ST_* stat of a buff, -1 none"), ("n", ()), ("side", (), "0 own, 1 opp"),
))
NUM_EFFECT_COLUMNS = EFFECT_COLUMNS.size
E_TRIGGER, E_INDEX, E_COND, E_OP, E_AMOUNT, E_TARGET, E_STAT, E_N, E_SIDE = EFFECT_COLUMNS.offsets(
    "trigger", "index", "cond", "op", "amount", "target", "stat", "n", "side")
