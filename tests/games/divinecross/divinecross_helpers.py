"""Position builders and readers for the divinecross scenario tests.

``build(p0, p1, ...)`` returns a one-row :class:`BatchGame` whose row holds exactly the described position, stopped
at a decision of the given step. A side is a dict:

* ``main``: card name of the Main Unit; ``standby``: list of names;
* ``damage``: {position: amount} (position 0 = Main, 1..3 = Standby slots);
* ``energy``: {position: count} (``ENERGY_CARD`` cards attached); ``assists``: {position: [names]};
* ``hand``, ``discard``, ``ko``: lists of names;
* ``deck``: list of names, the *last* one is the top card; ``FILLER`` cards are added below them up to 30 cards
  unless ``fill=False``;
* ``stunned`` / ``poisoned`` / ``charged`` / ``retreated`` / ``event_played`` / ``ex_used``: 0 or 1.
"""
from __future__ import annotations

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import HEADER_SIZE
from cardenvs.games.divinecross import SPEC
from cardenvs.games.divinecross.state import DECK_SIZE, ST_MAIN
from cardenvs.scenario import Scenario
from positions import go_live, instance_maker  # tests/positions.py

POOL = SPEC.load_pool(None)
FILLER = "Field Ration"  # an action card: harmless in a deck
ENERGY_CARD = "Treasure Map"

_ZONES = ("deck", "hand", "main", "standby", "energy", "assist", "ko", "discard")
_FLAGS = ("stunned", "poisoned", "charged", "retreated", "event_played", "ex_used")

kit = Scenario(SPEC)  # field (writable state field of row 0), A (flat action id), do, legal, is_legal
field, A, do, legal, is_legal = kit.field, kit.A, kit.do, kit.legal, kit.is_legal


def build(p0: dict, p1: dict, *, turn_player: int = 0, step: int = ST_MAIN, turn: int = 5, first_player: int = 0,
          to_act: int | None = None, seed: int = 0) -> BatchGame:
    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=seed)
    row = g.states[0]
    row[HEADER_SIZE:] = 0
    for z in _ZONES:
        field(g, z)[:] = -1
    field(g, "deck_list")[:] = -1
    field(g, "host")[:] = -1
    field(g, "pending_card")[...] = -1
    for p, side in enumerate((p0, p1)):
        _place(g, p, side)
    field(g, "step")[...] = step
    field(g, "turn_player")[...] = turn_player
    field(g, "first_player")[...] = first_player
    who = turn_player if to_act is None else to_act
    go_live(row, turn, who)
    return g


def _place(g: BatchGame, p: int, side: dict) -> None:
    cards: list[str] = []

    new = instance_maker(POOL, cards)

    face_up = field(g, "face_up")
    units = []

    def put(zone: str, count: str | None, entries: list[str], up: bool) -> list[int]:
        out = []
        for k, name in enumerate(entries):
            inst = new(name)
            field(g, zone)[p, k] = inst
            face_up[p, inst] = up
            out.append(inst)
        if count:
            field(g, count)[p] = len(entries)
        return out

    if side.get("main"):
        units += put("main", None, [side["main"]], True)
    units += put("standby", "standby_count", side.get("standby", []), True)
    put("hand", "hand_count", side.get("hand", []), False)
    put("discard", "discard_count", side.get("discard", []), True)
    put("ko", "ko_count", side.get("ko", []), True)
    energy = []
    for pos, n in side.get("energy", {}).items():
        energy += [(pos, ENERGY_CARD)] * n
    insts = put("energy", "energy_count", [name for _, name in energy], True)
    for (pos, _), inst in zip(energy, insts):
        field(g, "host")[p, inst] = units[pos]
    assists = [(pos, name) for pos, names in side.get("assists", {}).items() for name in names]
    insts = put("assist", "assist_count", [name for _, name in assists], True)
    for (pos, _), inst in zip(assists, insts):
        field(g, "host")[p, inst] = units[pos]
    for pos, amount in side.get("damage", {}).items():
        field(g, "damage")[p, units[pos]] = amount
    for flag in _FLAGS:
        field(g, flag)[p] = side.get(flag, 0)
    deck = list(side.get("deck", []))
    if side.get("fill", True):
        deck = [FILLER] * (DECK_SIZE - len(cards) - len(deck)) + deck
    put("deck", "deck_count", deck, False)
    assert len(cards) <= DECK_SIZE
    field(g, "deck_list")[p, : len(cards)] = [POOL.by_name[c] for c in cards]


def names(g: BatchGame, p: int, zone: str) -> list[str]:
    counts = {"deck": "deck_count", "hand": "hand_count", "standby": "standby_count", "energy": "energy_count",
              "assist": "assist_count", "ko": "ko_count", "discard": "discard_count"}
    insts = field(g, zone)[p]
    n = int(field(g, counts[zone])[p]) if zone in counts else 1
    return [POOL.name(int(field(g, "deck_list")[p, i])) if i >= 0 else "-" for i in insts[:n]]


def unit(g: BatchGame, p: int, pos: int = 0) -> int:
    """Instance at position ``pos`` (0 Main, 1..3 Standby)."""
    if pos == 0:
        return int(field(g, "main")[p, 0])
    return int(field(g, "standby")[p, pos - 1])


def unit_name(g: BatchGame, p: int, pos: int = 0) -> str:
    inst = unit(g, p, pos)
    return POOL.name(int(field(g, "deck_list")[p, inst])) if inst >= 0 else "-"


def damage(g: BatchGame, p: int, pos: int = 0) -> int:
    return int(field(g, "damage")[p, unit(g, p, pos)])


def energy(g: BatchGame, p: int, pos: int = 0) -> int:
    u = unit(g, p, pos)
    host = field(g, "host")[p]
    return sum(1 for e in field(g, "energy")[p, : int(field(g, "energy_count")[p])] if host[e] == u)


def step_of(g: BatchGame) -> int:
    return int(field(g, "step"))
