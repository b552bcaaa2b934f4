"""The simulfight state row: one int32 row per game, declared once as a :class:`Layout`.

Card instances: instance ``i`` of player ``p`` is the card ``deck_list[p, i]`` (the deck file's order, so in the
default deck instance ``i`` is card ``i`` of the pool). Zones hold instance ids, compact (-1 after the last one), and
``loc[p, i]`` says which zone instance ``i`` is in, so legality checks are O(1). The deck is a stack whose top is the
*last* entry (a draw is a pop).

Simultaneity: during a phase each player edits only their own side; everything they do to the other side goes into
the ``in_*`` accumulators *of that other side* and lands when both plans are done. Conditions on the other side read
the ``snap_*`` fields, copied at the start of the phase; observations show the opponent only through them.

Kernel modules read this module through its namespace (``from . import state as S``; ``row[S.HAND + p * S.MAX_DECK
+ i]``). The offsets are frozen into the compiled kernels; the on-disk cache is keyed on this file too
(cardenvs/core/numba_cache.py), so editing it recompiles them.
"""
from __future__ import annotations

from cardenvs.core.header import HEADER
from cardenvs.core.layout import Layout, card_zones, fields, per_instance

# ---- sizes and caps (documented in RULES.md) ---------------------------------------------------------------------
MAX_DECK = 40  # deck_list width; every zone is this wide, so no zone can overflow
START_HEALTH = 20  # SF-S2
START_GOLD = 2  # SF-S2
DRAW_PER_ROUND = 2  # SF-R3
GOLD_PER_ROUND = 2  # SF-R3
ROUND_CAP = 40  # SF-E4 (gap): the game is truncated (status 2) when round 41 would start

# ---- phases and per-player sub-decisions -------------------------------------------------------------------------
PH_DEFEND, PH_ATTACK = 0, 1  # the Start phase is automatic and never waits for a decision
PHASE_NAMES = ("Defend", "Attack")
SUB_MAIN, SUB_PAYER, SUB_TARGET = 0, 1, 2  # main plan step / which ally pays a health cost / which target
SUB_NAMES = ("plan", "choose the ally that pays", "choose a target")

# ---- where an instance is (loc) -----------------------------------------------------------------------------------
LOC_NONE, LOC_DECK, LOC_HAND, LOC_PLAY, LOC_DISCARD = 0, 1, 2, 3, 4
LOC_NAMES = ("-", "deck", "hand", "in play", "discard")

# ---- triggers (the three kinds of abilities; the card files' words, a code is the word's position) ----------------
TRIGGER_NAMES = ("play", "defend", "attack")
TR_PLAY = TRIGGER_NAMES.index("play")
TR_DEFEND = TRIGGER_NAMES.index("defend")
TR_ATTACK = TRIGGER_NAMES.index("attack")

# ---- resources (index into the resource fields; the card files' words) -------------------------------------------
RESOURCE_NAMES = ("gold", "shields", "swords")
RES_GOLD = RESOURCE_NAMES.index("gold")
RES_SHIELDS = RESOURCE_NAMES.index("shields")
RES_SWORDS = RESOURCE_NAMES.index("swords")

NUM_RESOURCES = len(RESOURCE_NAMES)  # columns of the (2, NUM_RESOURCES) resource fields

# snapshot of a player's public counters at phase start: one PLAYER_SNAPSHOT block per player in ``snap_player``
PLAYER_SNAPSHOT = Layout("simulfight_snap_player", fields(
    ("health", (), "health"),
    ("resources", (NUM_RESOURCES,), "gold, shields, swords (RES_*)"),
    ("hand", (), "cards in hand"),
    ("next_round", (NUM_RESOURCES,), "gold, shields, swords gained (or lost) at the next round start"),
))
PLAYER_SNAPSHOT.export(globals(), "SP_")  # SP_HEALTH, SP_RESOURCES, SP_HAND, SP_NEXT_ROUND (+ _END)
PLAYER_SNAPSHOT_SIZE = PLAYER_SNAPSHOT.size

_STATE_FIELDS = card_zones(
    MAX_DECK,
    ("deck", MAX_DECK),
    ("hand", MAX_DECK),
    ("play", MAX_DECK, "units in play, instance ids in the order they were played", "units in play"),
    ("discard", MAX_DECK, "discard pile, instance ids", "cards in each discard pile"),
) + fields(
    ("deck_size", (2,), "instances in each deck list"),
) + per_instance(
    MAX_DECK,
    ("loc", "LOC_* zone it is in"),
    ("unit_health", "current health while in play (kept across rounds)"),
    ("protected", "1 while Protected (to the end of the round)"),
    ("stunned", "1 while Stunned (to the end of the round)"),
    ("used", "its DEFEND/ATTACK ability was used this phase"),
    "drawn",
    "played",
    ("shown", "1 while both players know it is in its owner's hand (the owner's deck ran out since it was drawn; "
              "cleared at the next phase start once it left the hand)"),
) + fields(
    ("health", (2,), "each player's health"),
    ("resources", (2, NUM_RESOURCES), "each player's gold, shields, swords"),
    ("next_round", (2, NUM_RESOURCES),
     "gold, shields, swords each player gains (or loses, < 0) at the next round start"),
    ("phase", (), "PH_DEFEND or PH_ATTACK"),
    ("plan_open", (2,), "1 while the player's plan for this phase is still being built"),
    ("sub", (2,), "each player's pending sub-decision: SUB_MAIN, SUB_PAYER, SUB_TARGET"),
    ("cur_inst", (2,), "the unit whose ability is being resolved (-1 none)"),
    ("cur_trigger", (2,), "TR_* of the ability being resolved"),
    ("cur_entry", (2,), "next effect entry of that ability"),
    ("snap_play", (2, MAX_DECK), "phase-start copy of each side's units in play (not a zone)"),
    ("snap_play_count", (2,), "phase-start units in play"),
    ("snap_health", (2, MAX_DECK), "per instance: phase-start health"),
    ("snap_protected", (2, MAX_DECK), "per instance: phase-start Protected"),
    ("snap_stunned", (2, MAX_DECK), "per instance: phase-start Stunned"),
    ("snap_player", (2, PLAYER_SNAPSHOT_SIZE),
     "phase-start health, gold, shields, swords, hand size, next-round gains"),
    ("in_damage", (2, MAX_DECK), "per instance: damage the other player's plan will deal to it at phase end"),
    ("in_stun", (2, MAX_DECK), "per instance: 1 if the other player's plan Stuns it at phase end"),
    ("in_player_damage", (2,), "damage the other player's plan deals to this player at phase end"),
    ("in_resources", (2, NUM_RESOURCES),
     "gold, shields, swords change the other player's plan makes now (lands at phase end)"),
    ("in_next_round", (2, NUM_RESOURCES),
     "gold, shields, swords change the other player's plan makes for the next round"),
)

STATE = Layout("simulfight_state", HEADER + _STATE_FIELDS)
STATE_SIZE = STATE.size

# every field's offset is its name upper-cased (``S.HAND``, ``S.UNIT_HEALTH``), ``S.HAND_END`` one past its end
STATE.export(globals())

# ---- Numba signatures of the kernels' helpers -------------------------------------------------------------------
# Declaring them once keeps Numba from compiling a copy of a helper per mix of int32 (read from the row) and int64
# (computed) arguments, which multiplied the cold compile time; every scalar argument is converted to int64.
from numba import types as _nt  # noqa: E402

NB_INT = _nt.int64
NB_BOOL = _nt.boolean
NB_ROW = _nt.int32[::1]
NB_CARDS = _nt.int32[:, ::1]
NB_EFFECTS = _nt.int32[:, :, :, ::1]
NB_ENTRY = _nt.int32[::1]
NB_PAIR = _nt.UniTuple(_nt.int64, 2)
