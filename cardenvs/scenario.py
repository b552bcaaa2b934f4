"""Helpers for scenario tests: build a position, play named actions, read named fields (used by every game's tests).

A game's test helpers bind one :class:`Scenario` to its spec and add their own position builder::

    kit = Scenario(SPEC)
    field, A, do, legal, is_legal = kit.field, kit.A, kit.do, kit.legal, kit.is_legal

``A("hand", 2)`` is the flat id of the third entry of the action range ``hand``; ``legal(g)`` lists the legal actions
of the player to act as ``(range name, index)`` pairs, the same names ``RULES.md`` tables use.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.spec import GameSpec


class Scenario:
    """Named access to row 0 of a one-game :class:`~cardenvs.core.batch.BatchGame` of ``spec``."""

    def __init__(self, spec: GameSpec) -> None:
        if spec.action_layout is None:
            raise ValueError(f"{spec.name} has no action layout; its tests decode actions themselves")
        self.spec = spec
        self.actions = spec.action_layout

    def field(self, g: Any, name: str) -> np.ndarray:
        """A writable view of the state field ``name`` of row 0."""
        return self.spec.state_layout.get(g.states[0], name)

    def A(self, name: str, index: int = 0) -> int:  # noqa: N802 (reads like the action tables)
        """Flat action id of entry ``index`` of the action range ``name``."""
        field = self.actions[name]
        if not 0 <= index < field.size:
            raise IndexError(f"action range {name!r} has {field.size} entries, not index {index}")
        return self.actions.offset(name) + index

    def do(self, g: Any, name: str, index: int = 0, player: int | None = None) -> Any:
        """Play one named action in row 0 (raises IllegalActionError when it is not legal)."""
        return g.step([self.A(name, index)], players=None if player is None else [player])

    def legal(self, g: Any, player: int | None = None) -> list[tuple[str, int]]:
        """The legal actions of ``player`` (default: the player to act) as (range name, index) pairs."""
        p = int(g.to_act[0]) if player is None else player
        mask = g.legal_mask([p])[0]
        return [self.actions.locate(int(a)) for a in np.flatnonzero(mask)]

    def is_legal(self, g: Any, name: str, index: int = 0, player: int | None = None) -> bool:
        return (name, index) in self.legal(g, player)


__all__ = ["Scenario"]
