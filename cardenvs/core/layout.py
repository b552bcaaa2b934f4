"""Named slices of a flat row: the one place a state or observation layout is declared.

A game's state is one int32 row per game; its observation is one row per player view, float32 or compact (small
integers, ``int8``/``uint8``/``int16``, see :meth:`Layout.float_view`). Both are described by a :class:`Layout`: an ordered list of named fields with shapes. The layout gives the integer offsets the Numba
kernels use (module-level constants, frozen at compile time), a structured ``numpy`` dtype so Python code and tests
can read a row by field name, and a Markdown table for ``RULES.md`` so the docs cannot drift from the code.

Why a flat row and not a Numba record: kernels over a flat ``int32[:]`` compile fast, slice and copy trivially (a
snapshot is ``row.copy()``), and a loop over ``states[i]`` (or over a slice of rows on another thread) is plain
array code; the structured view gives the readability a record would.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import prod
from typing import Iterable, Sequence

import numpy as np


@dataclass(frozen=True)
class Field:
    """One named slice of a row.

    ``zone=True`` marks a per-player card zone of shape ``(2, k)`` whose entries are card instance ids (the index
    of the card in its owner's deck list) or -1 for an empty slot; the shipped checker uses these to verify that
    every card is in exactly one zone.

    Observation fields of a compact layout store integers: ``divide_by`` says what the float view divides the stored
    value by (AP 5500 stored as 55 with ``divide_by=10`` reads 5.5, the AP / 1000 a float32 row held). ``block``
    names the :class:`Layout` a field repeats (a hand of ``CARD`` blocks), so its divisors come from the block.
    """

    name: str
    shape: tuple[int, ...] = ()
    doc: str = ""
    zone: bool = False
    divide_by: int = 1
    block: "Layout | None" = None

    def __post_init__(self) -> None:
        if int(self.divide_by) != self.divide_by or self.divide_by < 1:
            raise ValueError(f"field {self.name!r}: divide_by must be a positive integer, not {self.divide_by!r}")
        if self.block is not None and (not self.shape or self.shape[-1] != self.block.size):
            raise ValueError(f"field {self.name!r}: a field of {self.block.name} blocks needs a last dimension of "
                             f"{self.block.size}, not shape {self.shape}")

    @property
    def size(self) -> int:
        return int(prod(self.shape)) if self.shape else 1


@dataclass
class Layout:
    """An ordered set of fields laid out back to back in one flat row."""

    name: str
    fields: Sequence[Field]
    dtype_scalar: type = np.int32
    _offsets: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._offsets = {}
        pos = 0
        for f in self.fields:
            if f.name in self._offsets:
                raise ValueError(f"layout {self.name}: field {f.name!r} declared twice")
            self._offsets[f.name] = pos
            pos += f.size
        self.size = pos

    def __getitem__(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"layout {self.name} has no field {name!r}")

    def offset(self, name: str) -> int:
        return self._offsets[name]

    def offsets(self, *names: str) -> tuple[int, ...]:
        return tuple(self._offsets[n] for n in names)

    def slice(self, name: str) -> slice:
        start = self._offsets[name]
        return slice(start, start + self[name].size)

    def get(self, row: np.ndarray, name: str) -> np.ndarray:
        """The field ``name`` of ``row`` (or of every row of a 2-D array), reshaped to the field's shape."""
        f = self[name]
        values = row[..., self.slice(name)]
        return values.reshape(row.shape[:-1] + f.shape) if f.shape else values[..., 0]

    def locate(self, index: int) -> tuple[str, int]:
        """(field name, position inside the field) of a flat index: the inverse of ``offset(name) + i``."""
        for f in self.fields:
            start = self._offsets[f.name]
            if start <= index < start + f.size:
                return f.name, index - start
        raise ValueError(f"{index} is outside layout {self.name} (0..{self.size - 1})")

    def constants(self, prefix: str = "") -> dict[str, int]:
        """The named constants of this layout: ``PREFIX + FIELD`` is a field's offset and ``PREFIX + FIELD + "_END"``
        one past its last entry, field names upper-cased (``hand_count`` -> ``HAND_COUNT``, ``HAND_COUNT_END``).

        Kernels index rows only through these names (never by counting offsets by hand), so reordering or resizing a
        field moves every use with it."""
        out = {}
        for f in self.fields:
            key = prefix + f.name.upper().replace("/", "_").replace("-", "_").replace(" ", "_")
            if not key.replace("_", "").isalnum():
                raise ValueError(f"layout {self.name}: field {f.name!r} does not make a constant name")
            start = self._offsets[f.name]
            out[key], out[key + "_END"] = start, start + f.size
        return out

    def export(self, namespace: dict, prefix: str = "") -> None:
        """Define :meth:`constants` in ``namespace`` (a module's ``globals()``). A name that is already defined is an
        error, so a field cannot silently shadow a size constant (``DECK_SIZE`` the field vs ``DECK_SIZE`` the cap)."""
        for key, value in self.constants(prefix).items():
            if key in namespace and namespace[key] != value:
                raise ValueError(f"layout {self.name}: constant {key} is already defined as {namespace[key]!r}")
            namespace[key] = value

    @property
    def dtype(self) -> np.dtype:
        """A structured dtype with the same bytes as one row: ``rows.view(layout.dtype)[..., 0]``."""
        return np.dtype([(f.name, self.dtype_scalar, f.shape) for f in self.fields])

    def records(self, rows: np.ndarray) -> np.ndarray:
        """Structured view of a 2-D array of rows (no copy)."""
        return np.ascontiguousarray(rows).view(self.dtype)[..., 0]

    @property
    def zones(self) -> list[Field]:
        return [f for f in self.fields if f.zone]

    @property
    def compact(self) -> bool:
        """True when rows store integers that :meth:`float_view` turns into the float observation."""
        return np.issubdtype(np.dtype(self.dtype_scalar), np.integer)

    def divisors(self) -> np.ndarray:
        """``float32[size]``: what each entry's stored value is divided by in the float view (1 where it is not)."""
        cached = getattr(self, "_divisors", None)
        if cached is not None:
            return cached
        out = np.ones(self.size, dtype=np.float32)
        for f in self.fields:
            part = np.full(f.size, float(f.divide_by), dtype=np.float32)
            if f.block is not None:
                part *= np.tile(f.block.divisors(), f.size // f.block.size)
            out[self.slice(f.name)] = part
        out.setflags(write=False)
        self._divisors = out
        return out

    def float_view(self, rows: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """The float32 observation of stored ``rows`` (``[..., size]``): each value divided by its field's
        ``divide_by``. A float32 layout's rows come back as they are (no copy) unless ``out`` is given."""
        rows = np.asarray(rows)
        if rows.shape[-1:] != (self.size,):
            raise ValueError(f"layout {self.name}: rows of {self.size} values expected, got shape {rows.shape}")
        divisors = self.divisors()
        if out is None:
            if rows.dtype == np.float32 and (divisors == 1).all():
                return rows
            out = np.empty(rows.shape, dtype=np.float32)
        np.divide(rows, divisors, out=out, dtype=np.float32, casting="unsafe")
        return out

    def markdown(self) -> str:
        """The layout as a Markdown table: name, offset, size, shape, meaning."""
        lines = ["| field | offset | size | shape | meaning |", "|---|---:|---:|---|---|"]
        for f in self.fields:
            shape = "x".join(map(str, f.shape)) if f.shape else "scalar"
            scale = f" (stored x{f.divide_by})" if f.divide_by != 1 else ""
            lines.append(f"| `{f.name}` | {self._offsets[f.name]} | {f.size} | {shape} | {f.doc}{scale} |")
        return "\n".join(lines)


def fields(*specs: Iterable) -> list[Field]:
    """Shorthand: ``fields(("hand", (2, 12), "cards in hand", True), ("turn", (), "turn number"))``.

    A trailing dict gives the other :class:`Field` options: ``("ap", (), "AP / 1000", {"divide_by": 100})``,
    ``("hand", (12, CARD.size), "hand cards", {"block": CARD})``."""
    out = []
    for spec in specs:
        name, shape, *rest = spec
        options = rest.pop() if rest and isinstance(rest[-1], dict) else {}
        doc = rest[0] if rest else ""
        zone = bool(rest[1]) if len(rest) > 1 else False
        out.append(Field(name, tuple(shape), doc, zone, **options))
    return out


#: the docs of the zones every game's row has, for :func:`card_zones` (zone doc, count doc)
STANDARD_ZONES = {
    "deck": ("deck stack, instance ids, top = last entry", "cards in each deck"),
    "hand": ("hand, instance ids", "cards in each hand"),
    "discard": ("discard pile, instance ids in order", "cards in each discard pile"),
}
#: the per-instance card statistics (``cardenvs eval``'s draw and play rates), for :func:`per_instance`
STANDARD_PER_INSTANCE = {
    "drawn": "reached the hand at least once (card statistics)",
    "played": "played at least once (card statistics)",
}


def card_zones(max_deck: int, *zones: tuple) -> list[Field]:
    """The card fields a state row declares after the header: ``deck_list`` (``(2, max_deck)``: the card id of each of
    a player's card instances, -1 padded; the core's row and conservation checks read it), then each per-player zone,
    then each zone's count, in the zones' order.

    A zone is ``(name, width, doc, count_doc)``: the ``(2, width)`` zone field ``name`` and the ``(2,)`` field
    ``name_count``; ``count_doc=None`` declares no count (a one-card zone such as a Main Area, empty at -1). A zone
    of :data:`STANDARD_ZONES` may be ``(name, width)``, with the docs every game gives it."""
    head = [Field("deck_list", (2, max_deck), "card id of each card instance of each player (-1 padded)")]
    specs = [(name, width, *STANDARD_ZONES[name]) if not docs else (name, width, *docs)
             for name, width, *docs in zones]
    return (head + [Field(name, (2, width), doc, True) for name, width, doc, _ in specs]
            + [Field(f"{name}_count", (2,), count_doc) for name, _, _, count_doc in specs if count_doc is not None])


def per_instance(max_deck: int, *specs: tuple[str, str] | str) -> list[Field]:
    """Fields of one entry per card instance, ``(2, max_deck)`` indexed like ``deck_list``, so the value moves with the
    card: ``(name, doc)`` (the doc is prefixed "per instance: "), or a bare name of :data:`STANDARD_PER_INSTANCE`."""
    return [Field(spec, (2, max_deck), "per instance: " + STANDARD_PER_INSTANCE[spec]) if isinstance(spec, str)
            else Field(spec[0], (2, max_deck), "per instance: " + spec[1]) for spec in specs]


__all__ = ["card_zones", "Field", "fields", "Layout", "per_instance", "STANDARD_PER_INSTANCE", "STANDARD_ZONES"]
