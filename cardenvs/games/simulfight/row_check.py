"""simulfight's row check: the fields the kernels follow as indices (``SPEC.extra["check_rows"]``,
cardenvs/core/rows.py). Its own module because it reads both the state layout and the card tables' sizes (cards.py
imports state.py)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.header import H_STATUS, LIVE

from .cards import MAX_ENTRIES, NUM_TRIGGERS
from .state import (
    LOC_DECK, LOC_DISCARD, LOC_HAND, LOC_NONE, LOC_PLAY, MAX_DECK, PH_ATTACK, PH_DEFEND, STATE, SUB_MAIN, SUB_TARGET,
)


def check_rows(rows: np.ndarray, pool_size: int, every: bool = False) -> tuple[int, str] | np.ndarray | None:
    """The first row of ``rows`` (int32 ``[k, STATE_SIZE]``, already through the generic check: header, deck lists and
    zones are sound) that no kernel could have written, as ``(row, message)``, or None. The kernels follow ``loc``,
    ``snap_play``, ``deck_size`` and, in a live sub-decision, ``cur_inst``, ``cur_trigger`` and ``cur_entry`` as
    indices, and ``phase`` and ``sub`` pick branches: a row written from outside (a restored save, a scenario test)
    must hold values the rules can reach. What needs the card pool (the resolving entry exists on that card) is the
    kernels' own guard (``rules.decision_ok``). With ``every``: ``bool[k]``, every row it refuses."""
    del pool_size  # these fields hold instances and codes, not card ids

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
    if every:
        return np.logical_or.reduce([mask for mask, _ in problems])
    first = None
    for mask, text in problems:
        hit = np.flatnonzero(mask)
        if hit.size and (first is None or hit[0] < first[0]):
            first = (int(hit[0]), text)
    return first


__all__ = ["check_rows"]
