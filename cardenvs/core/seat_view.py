"""The seat view: the only state rows an agent is handed (issue 38 step 3, "honest pilots by construction").

An agent (heuristic, search, policy) decides from what its seat may know. Callers hand it ``seat_view(spec,
states, players)`` instead of the true rows, and ``agents.base.state_inputs`` views any row that is not a view yet,
so a rule-based kernel never reads the true hidden cards. The view is a copy of the row in which

* the **opponent's hidden cards** are canonicalised: the card identities (``deck_list`` entries) of every opponent
  instance in a zone named ``*deck*`` or ``*hand*`` (the convention the leak check uses, ``_hideable_zones`` in
  ``cardenvs.testing``), or face down in any other zone (the per-instance ``face_up`` flag is 0, or ``face_down`` is
  1), are pooled, sorted, and dealt back in slot order (zones in layout order, the opponent's decks first put in
  instance order). An instance whose identity the seat saw (``known`` set, relics; simulfight's ``shown``, named
  by ``GameSpec.view_known_field``) keeps it; per-instance state
  stays with its instance, as ``hide`` re-deals;
* the **seat's own unseen cards** are put in a canonical order (instances sorted by card id, then instance, over
  their slots): its decks, whose contents it knows but not their order, and its face-down cards that never reached
  its hand (``drawn`` is 0: taken from a deck unseen, such as levelneo's level cards and heartbreak's heart). A game
  names the zones where that happens (``GameSpec.view_own_unseen_zones``): a face-down main its owner chose or a
  card it charged face down is known to it. Deck cards it once held and put back keep their places where nobody
  shuffled the deck since (``GameSpec.view_keeps_held_deck_cards``, levelneo's mulligan);
* the **random key** is replaced by a fixed one (no player knows the chance stream), which also marks the row as a
  view for that seat (``is_view``).

The result depends only on what the seat knows (the multiset of the opponent's unseen cards, the contents of its own
decks, everything visible), never on the hidden arrangement, so a decision made from the view cannot depend on the
hidden cards, not even through a re-deal: ``seat_view(hide(row, seat)) == seat_view(row)`` wherever ``hide`` re-deals
within those groups. The view can forget a little that the seat does know (a card it saw go back into a deck keeps no
known position; a face-down card of a kind the rules pin, such as a face-down main, is pooled with the rest); that
makes a pilot weaker, never dishonest. ``check_game``'s honest-pilot check re-deals with the game's own ``hide`` and
requires the pilot's decision to stay, so a hidden zone this convention missed shows up there.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from .header import H_RNG_COUNTER, H_RNG_KEY_HI, H_RNG_KEY_LO

#: the random key every view carries (and by which ``is_view`` knows one); no real key is drawn as these constants
VIEW_KEY_LO, VIEW_KEY_HI, VIEW_COUNTER = 0x5EA7_0F01, 0x0B11_7D00, -7

ZONE_PLAIN, ZONE_DECK, ZONE_HAND = 0, 1, 2

__all__ = ["VIEW_COUNTER", "VIEW_KEY_HI", "VIEW_KEY_LO", "agent_states", "is_view", "seat_view", "view_geometry"]


@njit(cache=True, nogil=True)
def _insertion_sort(a: np.ndarray, n: int) -> None:
    """Sort ``a[:n]`` in place: the groups are a deck long at most, where this beats allocating for ``np.sort``."""
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@njit(parallel=True, cache=True, nogil=True)
def seat_view_rows(states: np.ndarray, rows: np.ndarray, players: np.ndarray, out: np.ndarray, zone_starts: np.ndarray,
                   zone_widths: np.ndarray, zone_kinds: np.ndarray, own_unseen: np.ndarray, deck_list_at: int,
                   max_deck: int, face_at: int, face_hidden: int, known_at: int, drawn_at: int,
                   keep_held: int) -> None:
    """``out[i]``: row ``rows[i]`` of ``states`` as seat ``players[i]`` may know it (see the module docstring); a
    row with seat -1 is copied as it is (no one decides there). The rows are read in place by index, so a caller
    with some live games among many makes no copy of them first (heartbreak's 46 KB rows: that copy cost a
    heuristic pilot as much as the view). Zones are compact (``-1`` only after the last card). ``own_unseen[z]``:
    the seat's own face-down cards in plain zone ``z`` that never reached its hand are unknown to it; ``keep_held``:
    its deck cards it once held stay in place (a deck its owner put them into and nobody shuffled since)."""
    zones = zone_starts.shape[0]
    decks = 0
    for z in range(zones):
        if zone_kinds[z] == ZONE_DECK:
            decks += 1
    for i in prange(rows.shape[0]):
        row = states[rows[i]]
        view = out[i]
        view[:] = row
        seat = players[i]
        if seat < 0 or seat > 1:
            continue
        view[H_RNG_KEY_LO] = VIEW_KEY_LO
        view[H_RNG_KEY_HI] = VIEW_KEY_HI
        view[H_RNG_COUNTER] = VIEW_COUNTER - seat  # the seat too, so a view is not taken for another seat's
        scratch = np.empty(3 * max_deck, dtype=np.int64)  # one allocation per row: slots, keys, pooled instances
        slots = scratch[:max_deck]
        keys = scratch[max_deck:2 * max_deck]
        opp = 1 - seat
        dl = deck_list_at + opp * max_deck
        for z in range(zones):  # the opponent's deck order: instances by number
            if zone_kinds[z] == ZONE_DECK:
                base = zone_starts[z] + opp * zone_widths[z]
                m = 0
                while m < zone_widths[z] and row[base + m] >= 0:
                    m += 1
                _insertion_sort(view[base:base + m], m)
        n = 0
        for z in range(zones):
            base = zone_starts[z] + opp * zone_widths[z]
            for j in range(zone_widths[z]):
                inst = view[base + j]
                if inst < 0:
                    break  # compact zones
                if inst >= max_deck:
                    continue
                hidden = zone_kinds[z] != ZONE_PLAIN
                if not hidden and face_at >= 0:
                    hidden = row[face_at + opp * max_deck + inst] == face_hidden
                if hidden and known_at >= 0 and zone_kinds[z] != ZONE_DECK:
                    hidden = row[known_at + opp * max_deck + inst] == 0
                if hidden and n < max_deck:
                    slots[n] = inst
                    keys[n] = row[dl + inst]
                    n += 1
        _insertion_sort(keys, n)
        for k in range(n):
            view[dl + slots[k]] = keys[k]
        # the seat's own unseen cards: its decks, and face-down cards that never reached its hand (taken unseen from
        # a deck); their instances are put in canonical order over those slots (instance numbers stay with cards).
        # A seat with one deck: its face-down cards join it; with several (relics) each deck is ordered on its own
        own = deck_list_at + seat * max_deck
        for g in range(zones):
            if zone_kinds[g] != ZONE_DECK:
                continue
            m = 0
            for z in range(zones):
                if z != g and (zone_kinds[z] != ZONE_PLAIN or own_unseen[z] == 0 or decks != 1 or face_at < 0
                               or drawn_at < 0):
                    continue
                base = zone_starts[z] + seat * zone_widths[z]
                for j in range(zone_widths[z]):
                    inst = row[base + j]
                    if inst < 0:
                        break
                    if inst >= max_deck:
                        continue
                    held = drawn_at >= 0 and row[drawn_at + seat * max_deck + inst] != 0
                    if z == g:
                        unseen = not (keep_held != 0 and held)
                    else:
                        unseen = row[face_at + seat * max_deck + inst] == face_hidden and not held
                    if unseen and m < max_deck:
                        slots[m] = base + j
                        keys[m] = row[own + inst] * (max_deck + 1) + inst
                        m += 1
            _insertion_sort(keys, m)
            for k in range(m):
                view[slots[k]] = keys[k] % (max_deck + 1)


def zone_kind(name: str) -> int:
    """How the view treats a zone, from the layout's naming convention: ``ZONE_DECK`` (``*deck*``: re-dealt),
    ``ZONE_HAND`` (``*hand*``: its owner's), else ``ZONE_PLAIN``. ``GameSpec`` checks its view fields with it too."""
    return ZONE_DECK if "deck" in name else ZONE_HAND if "hand" in name else ZONE_PLAIN


_GEOMETRY: dict[int, tuple[Any, tuple]] = {}


def view_geometry(spec: Any) -> tuple:
    """The kernel's description of ``spec``'s layout: zone starts, widths and kinds (deck, hand, plain), which
    plain zones hold own cards their owner has not seen (``GameSpec.view_own_unseen_zones``; every plain zone by
    the convention), the ``deck_list`` offset, the deck size, the face flag (offset and the value that means face
    down), the ``known`` and ``drawn`` flag offsets (-1 where the layout has none), and whether held deck cards
    stay (``GameSpec.view_keeps_held_deck_cards``)."""
    layout = spec.state_layout
    hit = _GEOMETRY.get(id(layout))
    if hit is not None and hit[0] is layout:
        return hit[1]
    zones = layout.zones
    starts = np.array([layout.offset(z.name) for z in zones], dtype=np.int64)
    widths = np.array([z.shape[1] for z in zones], dtype=np.int64)
    kinds = np.array([zone_kind(z.name) for z in zones], dtype=np.int64)
    declared = getattr(spec, "view_own_unseen_zones", None)  # its names were checked when the spec was declared
    own_unseen = np.array([declared is None or z.name in declared for z in zones], dtype=np.int64)
    names = {f.name for f in layout.fields}
    if "face_up" in names:
        face_at, face_hidden = layout.offset("face_up"), 0
    elif "face_down" in names:
        face_at, face_hidden = layout.offset("face_down"), 1
    else:
        face_at, face_hidden = -1, 0
    known_field = getattr(spec, "view_known_field", "known")
    known_at = layout.offset(known_field) if known_field in names else -1
    drawn_at = layout.offset("drawn") if "drawn" in names else -1
    geometry = (starts, widths, kinds, own_unseen, layout.offset("deck_list"), int(spec.max_deck), face_at, face_hidden,
                known_at, drawn_at, int(bool(getattr(spec, "view_keeps_held_deck_cards", False))))
    _GEOMETRY[id(layout)] = (layout, geometry)
    return geometry


def seat_view(spec: Any, states: np.ndarray, players: np.ndarray, out: np.ndarray | None = None,
              rows: np.ndarray | None = None) -> np.ndarray:
    """``int32[M, W]``: each row of ``states`` (or of ``states[rows]``, read in place) as seat ``players[i]`` may
    know it (rows with seat -1 copied as they are). ``states`` is never written; ``out`` (``int32[M, W]``,
    contiguous) is reused when given."""
    states = np.ascontiguousarray(states, dtype=np.int32)
    if states.ndim != 2 or states.shape[1] != spec.state_layout.size:
        raise ValueError(f"states must be int32[M, {spec.state_layout.size}] rows of {spec.name}, got "
                         f"{list(states.shape)}")
    if rows is None:
        rows = np.arange(states.shape[0], dtype=np.int64)
    else:
        if np.asarray(rows).dtype.kind not in "iu":  # a boolean mask would pass as indices 0 and 1
            raise ValueError(f"rows must be integer row indices, got {np.asarray(rows).dtype}")
        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1)
        if rows.size and (rows.min() < 0 or rows.max() >= states.shape[0]):
            raise ValueError(f"rows must index the {states.shape[0]} rows of states, got {rows.min()}..{rows.max()}")
    seats = np.ascontiguousarray(players, dtype=np.int32).reshape(-1)
    if seats.shape[0] != rows.shape[0]:
        raise ValueError(f"players must hold one seat per row ({rows.shape[0]}), got {seats.shape[0]}")
    shape = (rows.shape[0], states.shape[1])
    if out is None or out.shape != shape or out.dtype != np.int32 or not out.flags.c_contiguous:
        out = np.empty(shape, dtype=np.int32)
    seat_view_rows(states, rows, seats, out, *view_geometry(spec))
    return out


def is_view(states: np.ndarray, players: np.ndarray) -> bool:
    """True when every row with a seat carries the view's fixed key for that seat, i.e. was made by
    :func:`seat_view` for the seat that decides there."""
    seats = np.asarray(players).reshape(-1)
    live = seats >= 0
    if not live.any():
        return True
    rows = np.asarray(states)
    # the three header columns first, then the live rows: indexing the rows first copied every live row whole
    # (10-11 KB each in heartbreak and relics), which cost a heuristic pilot as much as building the view itself
    return bool((rows[:, H_RNG_KEY_LO][live] == VIEW_KEY_LO).all() and (rows[:, H_RNG_KEY_HI][live] == VIEW_KEY_HI).all()
                and (rows[:, H_RNG_COUNTER][live] == VIEW_COUNTER - seats[live]).all())


def agent_states(agent: Any, spec: Any, states: np.ndarray, players: np.ndarray,
                 rows: np.ndarray | None = None) -> np.ndarray | None:
    """What a caller hands ``agent.act`` as its ``states``: the seat view of ``states`` (or of ``states[rows]``,
    read in place) for ``players``, or None for an agent that declares it reads no state (``reads_state = False``:
    it decides from the observation and mask)."""
    if not getattr(agent, "reads_state", True):
        return None
    return seat_view(spec, states, players, rows=rows)
