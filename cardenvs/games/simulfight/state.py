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

import numpy as np

from cardenvs.core.header import H_STATUS, HEADER, LIVE
from cardenvs.core.layout import Layout, fields

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

_STATE_FIELDS = fields(
    ("deck_list", (2, MAX_DECK), "card id of each card instance of each player (-1 padded)"),
    ("deck", (2, MAX_DECK), "deck stack, instance ids, top = last entry", True),
    ("hand", (2, MAX_DECK), "hand, instance ids", True),
    ("play", (2, MAX_DECK), "units in play, instance ids in the order they were played", True),
    ("discard", (2, MAX_DECK), "discard pile, instance ids", True),
    ("deck_count", (2,), "cards in each deck"),
    ("hand_count", (2,), "cards in each hand"),
    ("play_count", (2,), "units in play"),
    ("discard_count", (2,), "cards in each discard pile"),
    ("deck_size", (2,), "instances in each deck list"),
    ("loc", (2, MAX_DECK), "per instance: LOC_* zone it is in"),
    ("unit_health", (2, MAX_DECK), "per instance: current health while in play (kept across rounds)"),
    ("protected", (2, MAX_DECK), "per instance: 1 while Protected (to the end of the round)"),
    ("stunned", (2, MAX_DECK), "per instance: 1 while Stunned (to the end of the round)"),
    ("used", (2, MAX_DECK), "per instance: its DEFEND/ATTACK ability was used this phase"),
    ("drawn", (2, MAX_DECK), "per instance: reached the hand at least once (card statistics)"),
    ("played", (2, MAX_DECK), "per instance: played at least once (card statistics)"),
    ("shown", (2, MAX_DECK), "per instance: 1 while both players know it is in its owner's hand (the owner's deck "
                             "ran out since it was drawn; cleared at the next phase start once it left the hand)"),
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

# ---- the row check of fields the kernels follow (``SPEC.extra["check_rows"]``, cardenvs/core/rows.py) -------------
def check_rows(rows: np.ndarray, pool_size: int) -> tuple[int, str] | None:
    """The first row of ``rows`` (int32 ``[k, STATE_SIZE]``, already through the generic check: header, deck lists and
    zones are sound) that no kernel could have written, as ``(row, message)``, or None. The kernels follow ``loc``,
    ``snap_play``, ``deck_size`` and, in a live sub-decision, ``cur_inst``, ``cur_trigger`` and ``cur_entry`` as
    indices, and ``phase`` and ``sub`` pick branches: a row written from outside (a restored save, a scenario test)
    must hold values the rules can reach. What needs the card pool (the resolving entry exists on that card) is the
    kernels' own guard (``rules.decision_ok``)."""
    del pool_size  # these fields hold instances and codes, not card ids
    from .cards import MAX_ENTRIES, NUM_TRIGGERS  # cards.py imports this module

    rows = np.asarray(rows)
    k = rows.shape[0]
    live = rows[:, H_STATUS] == LIVE
    problems: list[tuple[np.ndarray, str]] = []

    def bad(mask: np.ndarray, text: str) -> None:
        problems.append((mask, text))

    def get(name: str) -> np.ndarray:
        return rows[:, STATE.slice(name)].reshape((k,) + STATE[name].shape)

    size = (get("deck_list") >= 0).sum(axis=2)  # [k, 2]: instances 0 .. size - 1
    bad((get("deck_size") != size).any(axis=1), "deck_size is not the number of cards in deck_list")
    inst = np.arange(MAX_DECK)[None, None, :]
    real = inst < size[:, :, None]
    # every instance in exactly one zone, and loc names that zone (LOC_NONE past the deck list)
    seen = np.zeros((k, 2, MAX_DECK + 1), dtype=np.int64)
    where = np.full((k, 2, MAX_DECK + 1), LOC_NONE, dtype=np.int64)
    kk, pp = np.meshgrid(np.arange(k), np.arange(2), indexing="ij")
    for zone, code in (("deck", LOC_DECK), ("hand", LOC_HAND), ("play", LOC_PLAY), ("discard", LOC_DISCARD)):
        entries = get(zone)
        for j in range(MAX_DECK):
            at = np.where(entries[:, :, j] >= 0, entries[:, :, j], MAX_DECK)
            np.add.at(seen, (kk, pp, at), 1)
            where[kk, pp, at] = np.where(at < MAX_DECK, code, where[kk, pp, at])
    seen, where = seen[:, :, :MAX_DECK], where[:, :, :MAX_DECK]
    bad((seen != real).any(axis=(1, 2)), "a card instance is in no zone or in two")
    bad((get("loc") != np.where(real, where, LOC_NONE)).any(axis=(1, 2)), "loc does not name the zone the instance is in")
    for name in ("protected", "stunned", "used", "drawn", "played", "shown", "snap_protected", "snap_stunned",
                 "in_stun", "plan_open"):
        bad(((get(name) != 0) & (get(name) != 1)).any(axis=tuple(range(1, 1 + len(STATE[name].shape)))),
            f"{name} holds a value other than 0 or 1")
    snap_n = get("snap_play_count")
    bad(((snap_n < 0) | (snap_n > MAX_DECK)).any(axis=1), f"snap_play_count is outside 0..{MAX_DECK}")
    snap = get("snap_play")
    below = np.arange(MAX_DECK)[None, None, :] < snap_n[:, :, None]
    bad((below & ((snap < 0) | (snap >= size[:, :, None]))).any(axis=(1, 2)) | (~below & (snap != -1)).any(axis=(1, 2)),
        "snap_play holds no instance of its owner below snap_play_count, or one past it")
    phase = get("phase")
    bad(live & (phase != PH_DEFEND) & (phase != PH_ATTACK), "phase is no PH_* value")
    sub, cur, trig, entry = get("sub"), get("cur_inst"), get("cur_trigger"), get("cur_entry")
    open_ = get("plan_open") != 0
    bad(live & ((sub < SUB_MAIN) | (sub > SUB_TARGET)).any(axis=1), "sub is no SUB_* value")
    pending = live[:, None] & (sub != SUB_MAIN)
    bad((pending & ~open_).any(axis=1), "a sub-decision is pending in a closed plan")
    loc = get("loc")
    cur_loc = np.take_along_axis(loc, np.clip(cur, 0, MAX_DECK - 1)[:, :, None], axis=2)[:, :, 0]
    bad((pending & ((cur < 0) | (cur >= size) | (cur_loc != LOC_PLAY))).any(axis=1),
        "cur_inst is not a unit in play of the player resolving its ability")
    bad((pending & ((trig < 0) | (trig >= NUM_TRIGGERS))).any(axis=1), "cur_trigger is no TR_* value")
    bad((pending & (sub == SUB_TARGET) & ((entry < 0) | (entry >= MAX_ENTRIES))).any(axis=1),
        f"cur_entry is outside 0..{MAX_ENTRIES - 1} while a target is chosen")
    bad((live[:, None] & ~pending & ((cur < -1) | (cur >= MAX_DECK))).any(axis=1), "cur_inst is outside -1..MAX_DECK - 1")
    first = None
    for mask, text in problems:
        hit = np.flatnonzero(mask)
        if hit.size and (first is None or hit[0] < first[0]):
            first = (int(hit[0]), text)
    return first


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
