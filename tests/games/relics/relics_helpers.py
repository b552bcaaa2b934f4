"""Position builders and readers for the relics scenario tests.

``build(p0, p1, ...)`` returns a one-row :class:`BatchGame` whose row holds exactly the described position, stopped
at a decision of the given step (default: the battle phase, player 0 to act). A side is a dict:

* ``party``: list of ``"Name@slot"`` (slot 0-2 front, 3-5 back) with optional flags after ``:`` — ``v`` Down,
  ``L`` leader, ``?`` face down; e.g. ``"Gale Duelist@1:vL"``;
* ``equip``: dict slot -> equipment name attached to that character;
* ``hand``, ``reserves``, ``lineup``, ``discard``, ``doom``: lists of names;
* ``char_deck``, ``item_deck``: lists of names, the *last* one is the top card (defaults: a few fillers);
* ``pile``: own location cards in the location pile; ``relics``: own location cards won by this player
  (``"Name@slot"`` attaches the relic to the character on that slot);
* ``leader_card``: the leader card (default ``"Sigil of the Archmage"``).

``location=(name, owner)`` puts a location on the battlefield (default: Royal Arena of player 0); ``pool`` plays a
pool of its own (default: the game's).
"""
from __future__ import annotations

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import HEADER_SIZE
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.obs_layout import CELL_SLOT, OBS, SLOT_ATT_NOW, SLOT_DEF_NOW
from cardenvs.games.relics.state import MAX_DECK, PARTY_SIZE, ST_BATTLE
from cardenvs.scenario import Scenario
from positions import go_live, instance_maker  # tests/positions.py

POOL = SPEC.load_pool(None)
CHAR_FILLER = "Ironbrand Squire"
ITEM_FILLER = "Oak Buckler"

_ZONES = ("char_deck", "item_deck", "hand", "lineup", "reserves", "hand_aside", "party", "gear", "discard", "doom",
          "loc_pile", "battlefield", "won", "leader_card")
_MINUS_ONE = ("pos", "attached", "host", "controller", "leader", "pend_player", "pend_card", "pend_caster",
              "pend_target", "pend_next", "jumper", "battle_winner")


kit = Scenario(SPEC)
field, A, do, legal, is_legal = kit.field, kit.A, kit.do, kit.legal, kit.is_legal


def fight(a: int, t: int) -> int:
    """Flat id of the Fight of own slot ``a`` at opposing slot ``t``."""
    return A("fight", a * PARTY_SIZE + t)


def build(p0: dict, p1: dict, *, step: int = ST_BATTLE, actor: int = 0, lead: int = 0, to_act: int | None = None,
          location: tuple[str, int] | None = ("Royal Arena", 0), battle: int = 1, round_: int = 1,
          passes: int = 0, seed: int = 0, pool=None) -> BatchGame:
    pool = POOL if pool is None else pool
    g = BatchGame(SPEC, 1, seed=seed, pool=pool)
    row = g.states[0]
    row[HEADER_SIZE:] = 0
    for z in _ZONES:
        field(g, z)[...] = -1
    field(g, "deck_list")[...] = -1
    for name in _MINUS_ONE:
        field(g, name)[...] = -1
    insts: list[list[str]] = [[], []]
    for p, side in enumerate((p0, p1)):
        _place(g, p, side, insts[p], location if location and location[1] == p else None, pool)
    for p in range(2):
        field(g, "deck_list")[p, : len(insts[p])] = [pool.by_name[c] for c in insts[p]]
    field(g, "step")[...] = step
    field(g, "lead")[...] = lead
    field(g, "first_player")[...] = lead
    field(g, "setup_player")[...] = lead
    field(g, "actor")[...] = actor
    field(g, "round")[...] = round_
    field(g, "passes")[...] = passes
    who = actor if to_act is None else to_act
    go_live(row, battle, who)
    return g


def _place(g: BatchGame, p: int, side: dict, cards: list[str], location: tuple[str, int] | None, pool) -> None:
    new = instance_maker(pool, cards)

    def put(zone: str, names: list[str]) -> list[int]:
        out = []
        for k, name in enumerate(names):
            inst = new(name)
            field(g, zone)[p, k] = inst
            out.append(inst)
        if zone != "leader_card":
            field(g, f"{zone}_count")[p] = len(names)
        return out

    slot_inst: dict[int, int] = {}
    party = side.get("party", [])
    for k, entry in enumerate(party):
        spec, _, flags = entry.partition(":")
        name, _, slot = spec.partition("@")
        inst = new(name)
        field(g, "party")[p, k] = inst
        field(g, "pos")[p, inst] = int(slot)
        field(g, "down")[p, inst] = "v" in flags
        field(g, "face_down")[p, inst] = "?" in flags
        if "L" in flags:
            field(g, "leader")[p] = inst
            field(g, "leader_shown")[p] = 1  # a leader in play carries its leader card face up (RL-G4)
        slot_inst[int(slot)] = inst
    field(g, "party_count")[p] = len(party)
    gear = 0
    for slot, name in side.get("equip", {}).items():
        inst = new(name)
        field(g, "gear")[p, gear] = inst
        gear += 1
        field(g, "host")[p, inst] = slot_inst[slot]
        field(g, "attached")[p, slot_inst[slot]] = p * MAX_DECK + inst
    field(g, "gear_count")[p] = gear
    for zone in ("hand", "reserves", "lineup", "discard", "doom"):
        put(zone, side.get(zone, []))
    put("char_deck", side.get("char_deck", [CHAR_FILLER] * 6))
    put("item_deck", side.get("item_deck", [ITEM_FILLER] * 6))
    put("loc_pile", side.get("pile", []))
    won = 0
    for entry in side.get("relics", []):
        name, _, slot = entry.partition("@")
        inst = new(name)
        field(g, "won")[p, won] = inst
        won += 1
        field(g, "controller")[p, inst] = p
        if slot:
            field(g, "host")[p, inst] = slot_inst[int(slot)]
            field(g, "attached")[p, slot_inst[int(slot)]] = p * MAX_DECK + inst
    field(g, "won_count")[p] = won
    if location is not None:
        put("battlefield", [location[0]])
    put("leader_card", [side.get("leader_card", "Sigil of the Archmage")])


def act(g: BatchGame, action: int, player: int | None = None):
    return g.step([action], players=None if player is None else [player])


def names(g: BatchGame, p: int, zone: str) -> list[str]:
    insts = field(g, zone)[p]
    n = int(field(g, f"{zone}_count")[p]) if zone != "leader_card" else 1
    return [POOL.name(int(field(g, "deck_list")[p, i])) for i in insts[:n]]


def party_at(g: BatchGame, p: int) -> dict[int, str]:
    """slot -> card name of p's party."""
    out = {}
    for inst in field(g, "party")[p, : int(field(g, "party_count")[p])]:
        out[int(field(g, "pos")[p, inst])] = POOL.name(int(field(g, "deck_list")[p, inst]))
    return out


def inst_at(g: BatchGame, p: int, slot: int) -> int:
    for inst in field(g, "party")[p, : int(field(g, "party_count")[p])]:
        if field(g, "pos")[p, inst] == slot:
            return int(inst)
    return -1


def is_down(g: BatchGame, p: int, slot: int) -> bool:
    return bool(field(g, "down")[p, inst_at(g, p, slot)])


def stats(g: BatchGame, p: int, slot: int) -> tuple[float, float]:
    """(ATT, DEF) now of p's character on ``slot``, read from p's observation."""
    obs = g.observe([p])[0]
    cell = OBS.get(obs, "grid")[0, slot]
    return int(cell[CELL_SLOT + SLOT_ATT_NOW]), int(cell[CELL_SLOT + SLOT_DEF_NOW])  # stored as they are (divide_by 10)


def step_of(g: BatchGame) -> int:
    return int(field(g, "step"))
