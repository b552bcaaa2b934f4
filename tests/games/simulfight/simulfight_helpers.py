"""Helpers for simulfight scenario tests (imported by the test modules beside it): build a position by editing a reset
row, then act by card name.

The generic part comes from :class:`cardenvs.scenario.Scenario` (``field``, ``A``, ``legal``, ``is_legal``: named
state fields and named action ranges); the :class:`Game` wrapper below adds what is simulfight's own: positions built
from card names (full decks, so instance i is card i) and actions named by card."""
from __future__ import annotations

from typing import Any

import numpy as np
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_TURN
from cardenvs.games.simulfight import SPEC
from cardenvs.games.simulfight.rules import begin_phase, settle
from cardenvs.games.simulfight.state import LOC_DECK, LOC_DISCARD, LOC_HAND, LOC_PLAY, MAX_DECK, PH_ATTACK, PH_DEFEND
from cardenvs.scenario import Scenario

__all__ = ["Game", "PH_ATTACK", "PH_DEFEND", "DONE", "kit", "field", "A", "legal", "is_legal"]
kit = Scenario(SPEC)
field, A, legal, is_legal = kit.field, kit.A, kit.legal, kit.is_legal
DONE = A("done")


class Game:
    """One simulfight game (full decks: instance i is card i) with name-based helpers for scenario tests."""

    def __init__(self, seed: int = 0, decks: Any = ("full", "full")) -> None:
        self.g = BatchGame(SPEC, 1, decks=decks, seed=seed)
        self.pool = self.g.pool

    # ---- reading -------------------------------------------------------------------------------------------
    @property
    def row(self) -> np.ndarray:
        return self.g.states[0]

    def get(self, name: str) -> np.ndarray:
        """A writable view of the state field ``name``."""
        return field(self.g, name)

    def set(self, name: str, value: Any) -> None:
        field(self.g, name)[...] = np.asarray(value, dtype=np.int32)

    def inst(self, card: str) -> int:
        return self.pool.by_name[card]

    def health(self, p: int) -> int:
        return int(self.get("health")[p])

    def gold(self, p: int) -> int:
        return int(self.get("resources")[p, 0])

    def shields(self, p: int) -> int:
        return int(self.get("resources")[p, 1])

    def swords(self, p: int) -> int:
        return int(self.get("resources")[p, 2])

    def unit_health(self, p: int, card: str) -> int:
        return int(self.get("unit_health")[p, self.inst(card)])

    def where(self, p: int, card: str) -> int:
        return int(self.get("loc")[p, self.inst(card)])

    def in_play(self, p: int) -> list[str]:
        zone = self.get("play")[p]
        return [self.pool.name(int(i)) for i in zone[zone >= 0]]

    def mask(self, p: int) -> np.ndarray:
        return self.g.legal_mask(np.array([p], np.int32))[0].copy()

    def legal(self, p: int) -> list[int]:
        return np.flatnonzero(self.mask(p)).tolist()

    def observe(self, p: int) -> np.ndarray:
        return self.g.observe(np.array([p], np.int32))[0].copy()

    @property
    def needs(self) -> int:
        return int(self.g.needs[0])

    @property
    def phase(self) -> int:
        return int(self.get("phase"))

    @property
    def round(self) -> int:
        return int(self.row[H_TURN])

    # ---- building positions -----------------------------------------------------------------------------------
    def setup(self, phase: int = PH_DEFEND, round: int = 1, p0: dict | None = None, p1: dict | None = None) -> "Game":
        """Rebuild both sides from dicts (keys: hand, play (names or (name, health)), discard, health, gold, shields,
        swords, next (gold, shields, swords), protected, stunned); every other card goes to the deck in instance
        order. Then the phase begins (snapshot, plans open) and forced steps run, as in a real game."""
        row = self.row
        self.row[H_TURN] = round
        for p, side in enumerate((p0 or {}, p1 or {})):
            self._side(p, side)
        begin_phase(row, phase)
        settle(row, self.pool.tables, np.zeros(SPEC.num_actions, np.int8))
        return self

    def _side(self, p: int, side: dict) -> None:
        size = int(self.get("deck_size")[p])
        loc = np.full(MAX_DECK, 0, np.int32)
        loc[:size] = LOC_DECK
        zones = {"hand": [], "play": [], "discard": []}
        health = np.zeros(MAX_DECK, np.int32)
        for zone, code in (("hand", LOC_HAND), ("play", LOC_PLAY), ("discard", LOC_DISCARD)):
            for entry in side.get(zone, ()):
                name, hp = (entry, None) if isinstance(entry, str) else entry
                i = self.inst(name)
                loc[i] = code
                zones[zone].append(i)
                if zone == "play":
                    health[i] = self.pool.cards[i]["health"] if hp is None else hp
        deck = [i for i in range(size) if loc[i] == LOC_DECK]
        for zone, ids in (("deck", deck), *zones.items()):
            full = self.get(zone).copy()
            full[p] = -1
            full[p, : len(ids)] = ids
            self.set(zone, full)
            counts = self.get(f"{zone}_count").copy()
            counts[p] = len(ids)
            self.set(f"{zone}_count", counts)
        for field, values in (("loc", loc), ("unit_health", health)):
            full = self.get(field).copy()
            full[p] = values
            self.set(field, full)
        for field in ("protected", "stunned"):
            full = self.get(field).copy()
            full[p] = 0
            for name in side.get(field, ()):
                full[p, self.inst(name)] = 1
            self.set(field, full)
        res = self.get("resources").copy()
        res[p] = (side.get("gold", 0), side.get("shields", 0), side.get("swords", 0))
        self.set("resources", res)
        nxt = self.get("next_round").copy()
        nxt[p] = side.get("next", (0, 0, 0))
        self.set("next_round", nxt)
        hp = self.get("health").copy()
        hp[p] = side.get("health", 20)
        self.set("health", hp)

    # ---- acting ---------------------------------------------------------------------------------------------
    def step(self, p: int, action: int) -> None:
        self.g.step(np.array([action], np.int32), players=np.array([p], np.int32))

    def play(self, p: int, card: str) -> None:
        self.step(p, self.A("play", card))

    def use(self, p: int, card: str) -> None:
        self.step(p, self.A("use", card))

    def ally(self, p: int, card: str) -> None:
        self.step(p, self.A("ally", card))

    def foe(self, p: int, card: str) -> None:
        self.step(p, self.A("foe", card))

    def done(self, p: int) -> None:
        self.step(p, DONE)

    def finish(self, p: int) -> None:
        """Close ``p``'s plan: 'done' if open and legal (fails the test if a mandatory ability is pending)."""
        if self.needs & (1 << p):
            self.done(p)

    def A(self, kind: str, card: str) -> int:  # noqa: N802 (the action range names, as in RULES.md)
        """Flat id of the action range ``kind`` (play, use, ally, foe) for ``card``'s instance."""
        return A(kind, self.inst(card))
