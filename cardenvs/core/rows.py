"""State rows written from outside the kernels: noticed when written, checked before the next kernel reads them.

``BatchGame.states`` is public and writable (``saved = game.states[i].copy()`` ... ``game.states[i] = saved`` restores
a game, scenario tests build positions field by field). A kernel indexes arrays by the numbers in a row (zone counts,
card instances, card ids) without bounds checks, so a damaged row, or one saved on another card pool, could read
outside its arrays and end the process (issue 43). Checking every row before every kernel call would cost a pass over
the whole batch per decision; instead:

- ``game.states`` is a :class:`StateRows` view of the batch's own array. Writes through it (indexing, slices,
  ``records()`` fields, in-place operators, ``np.copyto``/``put``/``place``/``putmask``, ``fill``) mark the rows
  they touched as *dirty*; the kernels themselves write the plain array and mark nothing.
- Before a kernel reads the rows, the dirty ones (only) pass :class:`RowChecker`, a vectorised numpy check; a bad row
  is a :class:`BadArgumentError` naming the game, the field and the value, raised before anything changes.

What the check proves (generic over every game's layout): the header's status, player to act, pending-decision
bits, winner, decision and turn counters are in range; ``deck_list`` holds card ids of the pool in use followed by -1
padding; every zone entry is -1 or an instance of its owner's deck list; every zone's count (``<zone>_count``) lies
within its zone and the entries below it are instances. Game-specific fields (pending choices, queues, per-instance
pointers) are not checked unless the game provides ``spec.extra["check_rows"]`` (``(rows, pool size) -> (row, message)
or None``; with ``every=True``, ``bool[k]``: every row it refuses). A row carries no pool identity: a row saved on
another pool whose card ids all exist in this pool cannot be told apart and plays with this pool's cards. Writes
that bypass numpy indexing (a plain ``np.asarray`` view, ``ctypes``) are not seen; :meth:`BatchGame.check_states`
checks every row on demand.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .errors import BadArgumentError
from .header import H_DECISIONS, H_NEEDS, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, TERMINATED

try:  # numpy >= 2
    from numpy.lib.array_utils import byte_bounds
except ImportError:  # pragma: no cover
    from numpy import byte_bounds  # type: ignore[attr-defined,no-redef]

#: the numpy functions that write into their first argument (the rest of numpy returns new arrays)
_WRITERS = frozenset(f for f in (np.copyto, np.put, np.place, np.putmask, np.put_along_axis) if f is not None)


class Dirty:
    """Which rows of one batch's array were written from outside since the kernels last saw them."""

    __slots__ = ("rows", "any", "lo", "hi", "row_bytes", "admit")

    def __init__(self, states: np.ndarray, admit: Any = None) -> None:
        self.rows = np.zeros(states.shape[0], dtype=np.bool_)
        self.any = False
        #: checks the dirty rows (``BatchGame._admit_rows``): for other kernels handed ``game.states`` (heuristics)
        self.admit = admit
        self.bind(states)

    def bind(self, states: np.ndarray) -> None:
        """The memory of the rows tracked (again after an unpickle, whose array lives elsewhere)."""
        self.lo, self.hi = byte_bounds(states)
        self.row_bytes = states.strides[0] if states.ndim == 2 and states.shape[0] else 1

    def mark(self, written: np.ndarray) -> None:
        """Mark the rows whose memory ``written`` (a view or the array itself) overlaps; memory of another array (a
        copy made from the rows) marks nothing."""
        lo, hi = byte_bounds(written)
        if hi <= self.lo or lo >= self.hi:
            return
        first = max(0, (lo - self.lo) // self.row_bytes)
        last = min(self.rows.shape[0], (hi - 1 - self.lo) // self.row_bytes + 1)
        self.rows[first:last] = True
        self.any = True

    def mark_all(self) -> None:
        self.rows[:] = True
        self.any = True


def forfeit_game(row: np.ndarray, player: int) -> None:
    """End the game in ``row`` as a loss for ``player``: a resignation, or an illegal action under
    ``illegal_action="lose"`` (the envs, the replays and ``cardenvs play`` all end a game this one way). A row written
    here is a legal end state, so it needs no check before the next kernel reads it."""
    row[H_STATUS] = TERMINATED
    row[H_WINNER] = 1 - player
    row[H_TO_ACT] = -1
    row[H_NEEDS] = 0


def admit_rows(states: Any) -> None:
    """Before a kernel outside the batch (a heuristic pilot's) reads ``states``: when they are a batch's tracked rows
    (or a copy taken from them) with rows written from outside, check those rows first."""
    dirty = getattr(states, "_dirty", None)
    if dirty is not None and dirty.any and dirty.admit is not None:
        dirty.admit()


def _plain(x: Any) -> Any:
    return x.view(np.ndarray) if isinstance(x, StateRows) else x


class StateRows(np.ndarray):
    """A view of a batch's state rows that marks the rows it writes (see the module docstring). Reads, copies and
    ufunc results are ordinary arrays or views; a copy keeps no tie to the batch's memory, so writing it marks
    nothing."""

    _dirty: Dirty | None = None

    def __array_finalize__(self, obj: Any) -> None:
        self._dirty = getattr(obj, "_dirty", None)

    def _mark(self, key: Any = None) -> None:
        dirty = self._dirty
        if dirty is None:
            return
        target = self
        if key is not None:
            try:
                sub = np.ndarray.__getitem__(self, key)
                while not isinstance(sub, np.ndarray) and isinstance(key, tuple) and len(key) > 1:
                    key = key[:-1]  # a single element: the row slice around it
                    sub = np.ndarray.__getitem__(self, key)
                if isinstance(sub, np.ndarray) and sub.base is not None:
                    target = sub  # a view (basic indexing): exactly the rows it touches
            except (IndexError, TypeError, ValueError):
                pass  # fancy indexing copies: mark every row this view covers
        dirty.mark(target)

    def __setitem__(self, key: Any, value: Any) -> None:
        np.ndarray.__setitem__(self, key, _plain(value))
        self._mark(key)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(_plain(o) for o in out)
        result = getattr(ufunc, method)(*(_plain(x) for x in inputs), **kwargs)
        if method == "at" and isinstance(inputs[0], StateRows):  # np.add.at(rows, ...) writes in place
            inputs[0]._mark()
        for o in out or ():
            if isinstance(o, StateRows):
                o._mark()
        if out is not None and len(out) == 1:
            return out[0]
        return result

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        result = super().__array_function__(func, types, args, kwargs)
        if func in _WRITERS and args and isinstance(args[0], StateRows):
            args[0]._mark()
        return result

    def fill(self, value: Any) -> None:
        np.ndarray.fill(self, value)
        self._mark()

    def put(self, *args: Any, **kwargs: Any) -> None:
        np.ndarray.put(self, *args, **kwargs)
        self._mark()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        np.ndarray.sort(self, *args, **kwargs)
        self._mark()

    def partition(self, *args: Any, **kwargs: Any) -> None:
        np.ndarray.partition(self, *args, **kwargs)
        self._mark()

    def __reduce__(self) -> Any:  # a pickled view is a plain array: it has no batch on the other side
        return np.asarray(self).copy().__reduce__()


class RowChecker:
    """The vectorised range checks of one game's rows against one card pool (see the module docstring): a dozen
    numpy operations over gathered columns, whatever the number of zones; the field at fault is looked up only when
    a row fails."""

    def __init__(self, spec: Any, pool_size: int) -> None:
        layout = spec.state_layout
        self.spec, self.layout = spec, layout
        self.pool_size = int(pool_size)
        self.deck_at, self.deck_width = layout.offset("deck_list"), int(layout["deck_list"].shape[1])
        top = np.iinfo(np.int32).max
        header = [(H_STATUS, 0, 2), (H_TO_ACT, -1, 1), (H_NEEDS, 0, 3), (H_WINNER, -1, 2), (H_DECISIONS, 0, top),
                  (H_TURN, 0, top)]
        self.head_at = np.array([h[0] for h in header])
        self.head_lo, self.head_hi = np.array([h[1] for h in header]), np.array([h[2] for h in header])
        names = {f.name: f for f in layout.fields}
        pos, player, slot, count_pos, counts, caps = [], [], [], [], [], []
        for f in layout.zones:
            count = names.get(f"{f.name}_count")
            at, cap = layout.offset(f.name), int(f.shape[1])
            for p in range(2):
                count_at = layout.offset(count.name) + p if count is not None and count.shape == (2,) else -1
                if count_at >= 0:
                    counts.append(count_at)
                    caps.append(cap)
                pos.extend(range(at + p * cap, at + (p + 1) * cap))
                player.extend([p] * cap)
                slot.extend(range(cap))
                count_pos.extend([count_at] * cap)
        self.zone_pos, self.zone_player = np.array(pos, dtype=np.intp), np.array(player, dtype=np.intp)
        self.zone_slot = np.array(slot, dtype=np.int32)
        self.zone_counted = np.array(count_pos) >= 0  # entries below their zone's count must be instances
        self.zone_count_pos = np.where(self.zone_counted, np.array(count_pos), 0).astype(np.intp)
        self.count_pos, self.count_cap = np.array(counts, dtype=np.intp), np.array(caps, dtype=np.int32)
        self.hook = (spec.extra or {}).get("check_rows")

    def _where(self, index: np.ndarray, rows: np.ndarray, ok: np.ndarray, columns: np.ndarray, allowed: str) -> str:
        j, c = (int(v) for v in np.argwhere(~ok)[0])
        name, k = self.layout.locate(int(columns[c]))
        return f"game {int(index[j])}: state field {name}[{k}] holds {int(rows[j, columns[c]])} ({allowed})"

    def _generic(self, rows: np.ndarray) -> Any:
        """The generic checks in order, each as ``(ok [k, c], columns, allowed)``: ``ok[j, c]`` is whether row j's
        ``columns[c]`` passes, ``allowed(c)`` says what that column may hold. Each check only compares values, so a
        row that failed an earlier one does no harm in a later one."""
        head = rows[:, self.head_at]
        yield ((head >= self.head_lo) & (head <= self.head_hi), self.head_at,
               lambda c: f"allowed: {self.head_lo[c]} to {self.head_hi[c]}")
        decks = rows[:, self.deck_at:self.deck_at + 2 * self.deck_width]
        deck_cols = np.arange(self.deck_at, self.deck_at + 2 * self.deck_width)
        yield ((decks >= -1) & (decks < self.pool_size), deck_cols,
               lambda c: f"card ids of the pool in use: 0 to {self.pool_size - 1}, or -1")
        real = (decks >= 0).reshape(-1, 2, self.deck_width)
        # -1 only as padding after the last card: a card after it breaks the instance numbering
        yield ((real[:, :, 1:] <= real[:, :, :-1]).reshape(len(rows), -1),
               deck_cols.reshape(2, -1)[:, 1:].reshape(-1), lambda c: "a card after the -1 padding")
        counts = rows[:, self.count_pos]
        yield (counts >= 0) & (counts <= self.count_cap), self.count_pos, lambda c: f"allowed: 0 to {self.count_cap[c]}"
        sizes = real.sum(axis=2)  # [k, 2]: each player's instances are 0 .. size - 1
        zone = rows[:, self.zone_pos]
        below = self.zone_counted & (self.zone_slot < rows[:, self.zone_count_pos])
        yield ((zone >= np.where(below, 0, -1)) & (zone < sizes[:, self.zone_player]), self.zone_pos,
               lambda c: "zone entries are instances of the owner's deck list; -1 only past the zone's count")

    def first_error(self, rows: np.ndarray, index: np.ndarray) -> str | None:
        """The first problem found in ``rows`` (int32 [k, L]; ``index[j]`` is row j's game number), or None."""
        for ok, columns, allowed in self._generic(rows):
            if not ok.all():
                return self._where(index, rows, ok, columns, allowed(int(np.argwhere(~ok)[0][1])))
        if self.hook is not None:
            found = self.hook(rows, self.pool_size)
            if found is not None:
                j, text = found
                return f"game {int(index[j])}: {text}"
        return None

    def bad_rows(self, rows: np.ndarray) -> np.ndarray:
        """``bool[k]``: which of ``rows`` :meth:`first_error` would refuse, all rows in one pass (the completeness
        check screens thousands of changed rows; one call per row cost it most of its time). The game's hook sees
        only the rows the generic checks passed, as :meth:`first_error` has it."""
        bad = np.zeros(len(rows), dtype=bool)
        for ok, _, _ in self._generic(rows):
            bad |= ~ok.all(axis=1)
        good = np.flatnonzero(~bad)
        if self.hook is not None and good.size:
            bad[good] = self.hook(rows[good], self.pool_size, every=True)
        return bad

    def check(self, rows: np.ndarray, index: np.ndarray) -> None:
        message = self.first_error(rows, index)
        if message is not None:
            raise BadArgumentError(f"{message} (a damaged row, or one saved on another card pool: restore rows this "
                                   f"game's kernels wrote, on the same pool)")


__all__ = ["admit_rows", "Dirty", "forfeit_game", "RowChecker", "StateRows"]
