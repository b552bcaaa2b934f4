"""levelneo's card vocabulary and the compiled card tables the kernels read, declared once.

Codes (triggers, conditions, targets, ops...) are numbered by their position in the name tuples the card schema
validates against, and the table columns by their declaration order (:class:`Numbered`), the way a state
:class:`~cardenvs.core.layout.Layout` numbers offsets: nothing is counted by hand, and a reordered or inserted name
moves every use with it. The constants are plain module attributes (``C_TYPE``, ``TR_USE``) that Numba freezes into
the kernels at compile time.

The kernels get the pool as :class:`Tables`, a NamedTuple of two arrays read by name (``tables.cards``,
``tables.effects``); Numba types it as a named tuple of arrays, so the kernels stay ``cache=True``.
This module imports no other module of the game but ``state``, so every kernel module (and the observation layout)
can import it without a circle.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cardenvs.core.layout import Layout, fields

from . import state as S


class Numbered:
    """Names numbered in declaration order: ``X = table.add("x", "what it is")`` is the next free number (an offset,
    for a column ``size`` wide). ``layout()`` gives the same numbering as a Layout for the generated docs."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.entries: list[tuple[str, int, str]] = []  # (name, size, doc)
        self.size = 0

    def add(self, name: str, doc: str = "", size: int = 1) -> int:
        if any(n == name for n, _, _ in self.entries):
            raise ValueError(f"{self.name}: {name!r} declared twice")
        at = self.size
        self.entries.append((name, size, doc))
        self.size += size
        return at

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n, _, _ in self.entries)

    def layout(self) -> Layout:
        return Layout(self.name, fields(*((n, () if k == 1 else (k,), d) for n, k, d in self.entries)))


def codes(names: tuple[str, ...], *wanted: str) -> tuple[int, ...]:
    """The codes of ``wanted`` in the vocabulary ``names`` (a code is a name's position)."""
    return tuple(names.index(w) for w in wanted)


# ---- the vocabulary (the card schema in cards.py validates against these tuples) ----------------------------------
COLORS = ("red", "blue", "green", "yellow")
TYPES = ("character", "event")
TYPE_CHARACTER, TYPE_EVENT = codes(TYPES, "character", "event")

TRIGGERS = ("cont", "on_play", "on_attack", "on_win", "end_turn", "use", "event", "burst")
TR_CONT, TR_ON_PLAY, TR_ON_ATTACK, TR_ON_WIN, TR_END_TURN, TR_USE, TR_EVENT, TR_BURST = codes(TRIGGERS, *TRIGGERS)
START_TRIGGERS = (TR_ON_PLAY, TR_ON_ATTACK, TR_ON_WIN, TR_END_TURN)

CONDITIONS = ("none", "own_turn", "opp_turn", "has_trait", "in_battle", "attacking", "defending")
CO_NONE, CO_OWN_TURN, CO_OPP_TURN, CO_HAS_TRAIT, CO_IN_BATTLE, CO_ATTACKING, CO_DEFENDING = codes(
    CONDITIONS, *CONDITIONS)

PHASES = ("any", "main", "battle")
PH_ANY, PH_MAIN, PH_BATTLE = codes(PHASES, *PHASES)
TURNS = ("any", "own", "opp")
TU_ANY, TU_OWN, TU_OPP = codes(TURNS, *TURNS)

TARGETS = (
    "self", "own_main", "own_supports", "own_all", "own_battlers", "own_one_support",
    "opp_main", "opp_supports", "opp_all", "opp_battlers", "opp_one_support",
)
(
    TG_SELF, TG_OWN_MAIN, TG_OWN_SUPPORTS, TG_OWN_ALL, TG_OWN_BATTLERS, TG_OWN_ONE,
    TG_OPP_MAIN, TG_OPP_SUPPORTS, TG_OPP_ALL, TG_OPP_BATTLERS, TG_OPP_ONE,
) = codes(TARGETS, *TARGETS)

DURATIONS = ("turn", "next_battle", "battle")
DU_TURN, DU_NEXT_BATTLE, DU_BATTLE = codes(DURATIONS, *DURATIONS)

#: the op vocabulary: an op's code is its position here (cards.OPS gives each its argument schema)
OP_NAMES = ("ap_up", "ap_down", "draw", "opp_discard", "prevent_level_down", "rest", "activate", "level_up")
(OP_AP_UP, OP_AP_DOWN, OP_DRAW, OP_OPP_DISCARD, OP_PREVENT_LEVEL_DOWN, OP_REST, OP_ACTIVATE,
 OP_LEVEL_UP) = codes(OP_NAMES, *OP_NAMES)
#: the ops that change a character's AP (the only ones a [Cont] skill may have: cards.py checks this, not a copy)
AP_OPS = (OP_AP_UP, OP_AP_DOWN)

MAX_EFFECTS = 4
MAX_TRAITS = 30
MAX_POOL = S.MAX_POOL  # cards (and skills) in a pool: the observation counts discard piles per card id, used
#                       skills per skill id

# ---- card table columns: tables.cards[card, C_*] ---------------------------------------------------------------------
CARD_COLUMNS = Numbered("levelneo_card_columns")
C_TYPE = CARD_COLUMNS.add("type", "TYPE_* code")
C_COLOR = CARD_COLUMNS.add("color", "index in COLORS")
C_TURN_COST = CARD_COLUMNS.add("turn_cost", "turn cost (LN-T9)")
C_AP = CARD_COLUMNS.add("ap", "printed AP (0 for an event)")
C_TRAITS = CARD_COLUMNS.add("traits", "bit set over the pool's trait names")
C_N_EFFECTS = CARD_COLUMNS.add("n_effects", "effects on the card")
C_USE_EFFECT = CARD_COLUMNS.add("use_effect", "index of its [Use] skill's effect, -1: none")
C_EVENT_EFFECT = CARD_COLUMNS.add("event_effect", "index of its first event effect, -1: none")
C_HAS_BURST = CARD_COLUMNS.add("has_burst", "1: has Level Burst text")
C_MAIN_OK = CARD_COLUMNS.add("main_ok", "1: may be the main character (a turn-cost-1 character, LN-S2)")
C_HAS_CONT = CARD_COLUMNS.add("has_cont", "1: has a [Cont] skill")
C_HAS_START = CARD_COLUMNS.add("has_start", "1: has a [Start] skill")
NUM_CARD_COLUMNS = CARD_COLUMNS.size

# ---- effect table columns: tables.effects[card, e, E_*] ----------------------------------------------------------
EFFECT_COLUMNS = Numbered("levelneo_effect_columns")
E_TRIGGER = EFFECT_COLUMNS.add("trigger", "TR_* code; -1: no effect in this row")
E_COND = EFFECT_COLUMNS.add("cond", "CO_* code")
E_COND_TRAIT = EFFECT_COLUMNS.add("cond_trait", "trait bit of condition has_trait")
E_LEVEL = EFFECT_COLUMNS.add("level", "(Lv #): the main character's level must be at least this (LN-K5)")
E_PHASE = EFFECT_COLUMNS.add("phase", "PH_* (Phase/...) tag")
E_TURN = EFFECT_COLUMNS.add("turn", "TU_* (.../Turn) tag")
E_COST_REST = EFFECT_COLUMNS.add("cost_rest", "1: a [Use] skill that rests its character as the cost")
E_SKILL = EFFECT_COLUMNS.add("skill", "skill id (once per turn, LN-K4); -1 for triggered effects")
E_OP = EFFECT_COLUMNS.add("op", "OP_* code")
E_AMOUNT = EFFECT_COLUMNS.add("amount", "AP amount")
E_TARGET = EFFECT_COLUMNS.add("target", "TG_* code, -1: none")
E_DURATION = EFFECT_COLUMNS.add("duration", "DU_* code")
E_FILTER = EFFECT_COLUMNS.add("filter", "trait bit the targets must carry (0: any)")
E_N = EFFECT_COLUMNS.add("n", "cards (draw, opp_discard)")
NUM_EFFECT_COLUMNS = EFFECT_COLUMNS.size


class Tables(NamedTuple):
    """The compiled card pool every kernel gets (``CardPool.tables``)."""

    #: int32 [n, NUM_CARD_COLUMNS]: columns C_*
    cards: np.ndarray
    #: int32 [n, MAX_EFFECTS, NUM_EFFECT_COLUMNS]: each card's effects in file order (columns E_*)
    effects: np.ndarray
    #: obs_layout.OBS_DTYPE [n, obs_layout.CARD_SIZE]: each card's observation block as stored (the observation
    #: copies it instead of re-encoding the card for every slot; ``cards.compile_pool`` builds it)
    features: np.ndarray
