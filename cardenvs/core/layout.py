"""Named slices of a flat row: the one place a state or observation layout is declared.

A game's state is one int32 row per game; its observation is one float32 row per player view. Both are described by
a :class:`Layout`: an ordered list of named fields with shapes. The layout gives the integer offsets the Numba
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
    """

    name: str
    shape: tuple[int, ...] = ()
    doc: str = ""
    zone: bool = False

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

    def markdown(self) -> str:
        """The layout as a Markdown table: name, offset, size, shape, meaning."""
        lines = ["| field | offset | size | shape | meaning |", "|---|---:|---:|---|---|"]
        for f in self.fields:
            shape = "x".join(map(str, f.shape)) if f.shape else "scalar"
            lines.append(f"| `{f.name}` | {self._offsets[f.name]} | {f.size} | {shape} | {f.doc} |")
        return "\n".join(lines)


def fields(*specs: Iterable) -> list[Field]:
    """Shorthand: ``fields(("hand", (2, 12), "cards in hand", True), ("turn", (), "turn number"))``."""
    out = []
    for spec in specs:
        name, shape, *rest = spec
        doc = rest[0] if rest else ""
        zone = bool(rest[1]) if len(rest) > 1 else False
        out.append(Field(name, tuple(shape), doc, zone))
    return out
