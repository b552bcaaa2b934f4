"""Position builders and readers for the heartbreak scenario tests.

``build(p0, p1, ...)`` returns a one-row :class:`BatchGame` whose row holds exactly the described position, stopped
at a decision of the given step. A side is a dict:

* ``lead``: card name or None; ``backup``: list of names. Suffixes: ``":R"`` rested, ``":N"`` entered the field this
  turn (cannot evolve yet), ``":d30"`` 30 damage (combine: ``"Name:R:d20"``);
* ``hand``, ``discard``: lists of names; ``charge``: number of charged filler cards (or a list of names);
* ``heart``: list of names bottom first (``":up"`` = face up); default 5 face-down fillers;
* ``stock``: list of ``(name, field position, face_up)``;
* ``deck``: list of names, the *last* one is the top card; ``deck_fill`` filler cards are added below (default 20).
"""
from __future__ import annotations

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_TURN, HEADER_SIZE, LIVE
from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.state import (
    FIELD_CAP,
    MAX_DECK,
    MAX_SKILLS,
    ST_END_OPEN,
    ST_MAIN,
    ST_START_OPEN,
    ST_WINDOW,
    ZONE_NAMES,
)
from cardenvs.scenario import Scenario
from positions import go_live, instance_maker  # tests/positions.py

POOL = SPEC.load_pool(None)
FILLER = "Wandering Sellsword"  # vanilla Lv1 fighter, 40 HP, a 20-damage attack

_MINUS_ONE = ("pending_action", "stack", "trig", "stock_host", "kw_counter", "kw_attacker")


kit = Scenario(SPEC)
field, A, do, legal, is_legal = kit.field, kit.A, kit.do, kit.legal, kit.is_legal


def onto(hand_index: int, pos: int) -> int:
    """Index inside the ``onto`` range: hand card ``hand_index`` onto own field position ``pos``."""
    return hand_index * FIELD_CAP + pos


def skill(pos: int, k: int = 0) -> int:
    """Index inside the ``skill`` range: skill ``k`` of the own fighter at field position ``pos``."""
    return pos * MAX_SKILLS + k


def build(p0: dict, p1: dict, *, turn_player: int = 0, step: int = ST_MAIN, turn: int = 5, to_act: int | None = None,
          seed: int = 0, first_player: int | None = None) -> BatchGame:
    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=seed)
    row = g.states[0]
    row[HEADER_SIZE:] = 0
    for z in ZONE_NAMES:
        field(g, z)[...] = -1
    field(g, "deck_list")[...] = -1
    for name in _MINUS_ONE:
        field(g, name)[...] = -1
    row[H_TURN] = turn
    for p, side in enumerate((p0, p1)):
        _place(g, p, side, turn)
    field(g, "step")[...] = step
    field(g, "turn_player")[...] = turn_player
    field(g, "first_player")[...] = turn_player if first_player is None else first_player
    who = turn_player if to_act is None else to_act
    go_live(row, turn, who)
    return g


def _place(g: BatchGame, p: int, side: dict, turn: int) -> None:
    cards: list[str] = []

    new = instance_maker(POOL, cards)

    def parse(entry: str) -> tuple[str, set[str], int]:
        name, *flags = entry.split(":")
        dmg = 0
        for f in flags:
            if f.startswith("d"):
                dmg = int(f[1:])
        return name, set(flags), dmg

    def fighter(entry: str) -> int:
        name, flags, dmg = parse(entry)
        inst = new(name)
        k = inst
        field(g, "face_up")[p, k] = 1
        field(g, "rested")[p, k] = "R" in flags
        field(g, "damage")[p, k] = dmg
        field(g, "since_turn")[p, k] = turn if "N" in flags else 0
        return inst

    lead = side.get("lead")
    if lead:
        field(g, "lead")[p, 0] = fighter(lead)
    backups = side.get("backup", [])
    for s, entry in enumerate(backups):
        field(g, "backup")[p, s] = fighter(entry)
    field(g, "backup_count")[p] = len(backups)

    def put(zone: str, count: str, entries: list[str], up: bool) -> None:
        for k, entry in enumerate(entries):
            name, flags, _ = parse(entry)
            inst = new(name)
            field(g, zone)[p, k] = inst
            field(g, "face_up")[p, inst] = up or "up" in flags
        field(g, count)[p] = len(entries)

    put("hand", "hand_count", side.get("hand", []), False)
    put("heart", "heart_count", side.get("heart", [FILLER] * 5), False)
    charge = side.get("charge", 0)
    put("charge", "charge_count", [FILLER] * charge if isinstance(charge, int) else charge, False)
    put("discard", "discard_count", side.get("discard", []), True)
    stock = side.get("stock", [])
    for k, (name, pos, up) in enumerate(stock):
        inst = new(name)
        host = int(field(g, "lead")[p, 0]) if pos == 0 else int(field(g, "backup")[p, pos - 1])
        field(g, "stock")[p, k] = inst
        field(g, "stock_host")[p, inst] = host
        field(g, "face_up")[p, inst] = bool(up)
    field(g, "stock_count")[p] = len(stock)
    deck = [FILLER] * side.get("deck_fill", 20) + list(side.get("deck", []))
    put("deck", "deck_count", deck, False)
    assert len(cards) <= MAX_DECK, len(cards)
    field(g, "deck_list")[p, : len(cards)] = [POOL.by_name[c] for c in cards]


def zone_names(g: BatchGame, p: int, zone: str) -> list[str]:
    counts = {"deck": "deck_count", "hand": "hand_count", "backup": "backup_count", "heart": "heart_count",
              "charge": "charge_count", "discard": "discard_count", "stock": "stock_count",
              "resolving": "resolving_count"}
    insts = field(g, zone)[p]
    n = int(field(g, counts[zone])[p]) if zone in counts else 1
    return [POOL.name(int(field(g, "deck_list")[p, i])) for i in insts[:n] if i >= 0]


def inst_at(g: BatchGame, p: int, pos: int) -> int:
    if pos == 0:
        return int(field(g, "lead")[p, 0])
    return int(field(g, "backup")[p, pos - 1])


def name_at(g: BatchGame, p: int, pos: int) -> str:
    inst = inst_at(g, p, pos)
    return "-" if inst < 0 else POOL.name(int(field(g, "deck_list")[p, inst]))


def damage_at(g: BatchGame, p: int, pos: int) -> int:
    return int(field(g, "damage")[p, inst_at(g, p, pos)])


def rested_at(g: BatchGame, p: int, pos: int) -> bool:
    return bool(field(g, "rested")[p, inst_at(g, p, pos)])


def step_of(g: BatchGame) -> int:
    return int(field(g, "step"))


def pass_window(g: BatchGame, limit: int = 6, end_open: bool = True) -> None:
    """Pass in response windows (and, with ``end_open``, at the end phase's open Turbo moment) until none is
    pending."""
    stops = (ST_WINDOW, ST_END_OPEN) if end_open else (ST_WINDOW,)
    for _ in range(limit):
        if g.status[0] != LIVE or step_of(g) not in stops:
            return
        do(g, "pass")


def pass_start(g: BatchGame, limit: int = 6) -> None:
    """Pass in windows and at the start phase's open Turbo moment until the main phase (or another decision)."""
    for _ in range(limit):
        if g.status[0] != LIVE or step_of(g) not in (ST_WINDOW, ST_START_OPEN):
            return
        do(g, "pass")
