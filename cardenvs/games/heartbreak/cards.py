"""heartbreak card schema, effect vocabulary, pool compilation and deck rules.

A pool file declares its alliances (``alliances = [...]``, HB-D8; ``free`` is always there) and ``[[card]]``
entries. A card is ``name`` (its title, unique), ``type`` (fighter | support | item | climax), ``alliance``, ``cost``
(Discharge N), keyword numbers, and for fighters ``fighter_name`` (shared by an evolution line), ``level``, ``hp``,
``actions`` (``{name, cost, damage, overdrive}``; damage > 0 makes it an attack), ``skills`` (``{name, cost,
overdrive}``) and ``effects``: ``{trigger, index, condition, op, <op args>}`` tables. The pool compiles to the
``tables.Tables`` the kernels read by name (the vocabularies' codes and the columns are declared in ``tables.py``):

* ``cards[n, NUM_CARD_COLUMNS]``: one row per card (columns ``C_*``);
* ``effects[n, MAX_EFFECTS, NUM_EFFECT_COLUMNS]``: each card's effects in file order (columns ``E_*``; unused rows have
  ``E_TRIGGER = -1``);
* ``features[n, CARD_SIZE]`` (int16, the observation's dtype): each card's observation block
  (``obs_layout.card_features``).

Adding a card that uses the existing triggers, conditions, targets and ops needs no code change.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cardenvs.core.cards import (
    CardPool,
    FieldSpec,
    OpSpec,
    check_effect,
    check_fields,
    read_toml,
)
from cardenvs.core.decks import Deck, copy_problems, raise_problems, read_deck, resolve_deck_path
from cardenvs.core.errors import CardPoolError, DeckError

from . import state as S
from .obs_layout import card_features
from .tables import (
    C_ACT_COST,
    C_ACT_DMG,
    C_ACT_OD,
    C_ALLIANCE,
    C_ARMOR,
    C_ATTACK,
    C_BANEFUL,
    C_BYPASS,
    C_COND,
    C_COST,
    C_COUNTER,
    C_HAS_CALL,
    C_HAS_END,
    C_HAS_START,
    C_HP,
    C_LEAD_OK,
    C_LEVEL,
    C_N_ACTIONS,
    C_N_SKILLS,
    C_NAME_ID,
    C_NEGATE,
    C_OD,
    C_SK_COST,
    C_SK_OD,
    C_STRIKE,
    C_TURBO,
    C_TYPE,
    C_WARD,
    CALL_CONDITIONS,
    CONDITIONS,
    E_AMOUNT,
    E_COND,
    E_INDEX,
    E_N,
    E_OP,
    E_SIDE,
    E_STAT,
    E_TARGET,
    E_TRIGGER,
    MAX_ALLIANCES,
    MAX_EFFECTS,
    NUM_ACT_COLS,
    NUM_CARD_COLUMNS,
    NUM_EFFECT_COLUMNS,
    NUM_SK_COLS,
    OP_ADD_HEART,
    OP_BUFF,
    OP_CHARGE_TOP,
    OP_DAMAGE,
    OP_DRAW,
    OP_EVOLVE,
    OP_HEAL,
    OP_HEARTBREAK,
    OP_NAMES,
    OP_NEGATE,
    OP_OVERDRIVE,
    OP_REST,
    OP_RISE,
    OP_SILENCE,
    OP_STOCK_TOP,
    OP_SWAP_LEAD,
    SIDES,
    STATS,
    TARGETS,
    TR_CALL,
    TR_END,
    TR_START,
    TRIGGERS,
    TYPES,
    Tables,
)

PACKAGE_DIR = Path(__file__).resolve().parent
DEFAULT_POOL = PACKAGE_DIR / "cards.toml"
DECK_DIR = PACKAGE_DIR / "decks"

FREE = "free"

_AMOUNT = FieldSpec("int", required=True, min=10, max=200, doc="damage / HP in tens")
_TARGET = FieldSpec("enum", required=True, choices=TARGETS, doc="which fighters")
_N = FieldSpec("int", default=1, min=1, max=3, doc="how many times")
_SIDE = FieldSpec("enum", default="own", choices=SIDES, doc="whose cards")

OPS: dict[str, OpSpec] = {
    "damage": OpSpec(OP_DAMAGE, {"amount": _AMOUNT, "target": _TARGET},
                     "effect damage (Ward lowers it) to the targets"),
    "heal": OpSpec(OP_HEAL, {"amount": _AMOUNT, "target": _TARGET}, "remove up to amount damage from the targets"),
    "draw": OpSpec(OP_DRAW, {"n": _N}, "draw n cards"),
    "charge_top": OpSpec(OP_CHARGE_TOP, {"n": _N}, "charge the top n cards of your deck"),
    "overdrive": OpSpec(OP_OVERDRIVE, {"n": _N, "side": _SIDE},
                        "Overdrive n times: flip the top-most face-down heart card of that side face up (HB-H7)"),
    "heartbreak": OpSpec(OP_HEARTBREAK, {"n": _N, "side": FieldSpec("enum", default="opp", choices=SIDES)},
                         "break that side's heart n times, one break at a time (HB-H3)"),
    "buff": OpSpec(OP_BUFF, {"stat": FieldSpec("enum", required=True, choices=STATS),
                             "amount": FieldSpec("int", default=10, min=1, max=200), "target": _TARGET},
                   "until end of turn: +amount Armor/Ward/Counter/HP/attack damage, X Strike = amount, or Bypass"),
    "rise": OpSpec(OP_RISE, {"target": _TARGET}, "the targets rise (stand)"),
    "rest": OpSpec(OP_REST, {"target": _TARGET}, "the targets rest"),
    "swap_lead": OpSpec(OP_SWAP_LEAD, {}, "swap your Lead with a standing Back-Up fighter of your choice (HB-M6; "
                                          "nothing without a standing Back-Up fighter)"),
    "evolve": OpSpec(OP_EVOLVE, {}, "evolve a fighter of yours with a hand card, at no cost and regardless of how "
                                    "long it has been on the field (HB-I5): you choose the card and the fighter; an "
                                    "eligible evolve must be made"),
    "stock_top": OpSpec(OP_STOCK_TOP, {"n": _N, "target": _TARGET},
                        "put the top n cards of your deck face down into the stock of the target fighter (a selector "
                        "naming one fighter: self, a Lead or action_target)"),
    "negate": OpSpec(OP_NEGATE, {}, "Turbo only: what this card answers does nothing when it resolves (a "
                                      "negated action stays declared: cost paid, Lead rested, [X Strike] triggers)"),
    "silence": OpSpec(OP_SILENCE, {"target": _TARGET}, "until end of turn the targets' abilities and skills are "
                                                       "inactive (keywords, triggers and skills: HB-L4)"),
    "add_heart": OpSpec(OP_ADD_HEART, {"n": _N}, "put the top n cards of your deck face down on top of your heart "
                                                 "(no heart limit, HB-H10)"),
}
assert tuple(OPS) == OP_NAMES, "cards.OPS describes the ops of tables.OP_NAMES, in that order"

CARD_SCHEMA: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True, doc="the card's title (unique; each level of a line is its own title)"),
    "fighter_name": FieldSpec("str", default="", doc="fighter name shared by an evolution line (default: the title)"),
    "type": FieldSpec("enum", required=True, choices=TYPES),
    "alliance": FieldSpec("str", required=True, doc="one of the pool's alliances, or free"),
    "level": FieldSpec("int", default=0, min=0, max=3, doc="fighter level 1..3"),
    "hp": FieldSpec("int", default=0, min=0, max=300, doc="fighter HP / item HP bonus, in tens"),
    "cost": FieldSpec("int", default=0, min=0, max=9, doc="Discharge N to call, play or equip"),
    "overdrive": FieldSpec("bool", default=False, doc="support/climax/item: Overdrive once as part of the cost"),
    "condition": FieldSpec("enum", default="none", choices=CALL_CONDITIONS, doc="call condition of a fighter"),
    "armor": FieldSpec("int", default=0, min=0, max=100, doc="[Armor X]"),
    "ward": FieldSpec("int", default=0, min=0, max=100, doc="[Ward X]"),
    "counter": FieldSpec("int", default=0, min=0, max=100, doc="[Counter X]"),
    "baneful": FieldSpec("int", default=0, min=0, max=100, doc="[Baneful X]"),
    "strike": FieldSpec("int", default=1, min=1, max=3, doc="[X Strike]: 2 Dual, 3 Tri, 1 none"),
    "bypass": FieldSpec("bool", default=False, doc="[Bypass]"),
    "attack": FieldSpec("int", default=0, min=0, max=100, doc="item: attack damage bonus of the fighter above"),
    "turbo": FieldSpec("bool", default=False, doc="support: Turbo timing (HB-R1)"),
    "flavor": FieldSpec("str", default=""),
}
EFFECT_SCHEMA: dict[str, FieldSpec] = {
    "trigger": FieldSpec("enum", required=True, choices=TRIGGERS),
    "index": FieldSpec("int", default=1, min=1, max=2, doc="skill or action number for trigger skill/action"),
    "condition": FieldSpec("enum", default="none", choices=CONDITIONS),
}
ACTION_SCHEMA: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True),
    "cost": FieldSpec("int", default=0, min=0, max=9, doc="[Act Cost]: Discharge N"),
    "damage": FieldSpec("int", default=0, min=0, max=200, doc="attack damage; 0: not an attack (HB-B1/B2)"),
    "overdrive": FieldSpec("bool", default=False, doc="Overdrive once as part of the cost"),
}
SKILL_SCHEMA: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True),
    "cost": FieldSpec("int", default=0, min=0, max=9, doc="Discharge N"),
    "overdrive": FieldSpec("bool", default=False, doc="Overdrive once as part of the cost"),
}

def _fail(path: str, name: str, msg: str) -> CardPoolError:
    return CardPoolError(path, name, msg)


def _tens(path: str, name: str, where: str, value: int) -> None:
    if value % 10:
        raise _fail(path, name, f"{where}: {value} is not a multiple of 10 (HP and damage are counted in tens)")


def _check_card_rules(path: str, card: dict, alliances: Sequence[str]) -> None:
    """The rules the generic schema cannot express: what each card type may carry."""
    name = card["name"]
    kind = card["type"]
    if card["alliance"] not in alliances:
        raise _fail(path, name, f"field 'alliance': {card['alliance']!r} is not one of {', '.join(alliances)} "
                                "(declare it in the pool's alliances list)")
    for key in ("hp", "armor", "ward", "counter", "baneful", "attack"):
        _tens(path, name, f"field {key!r}", card[key])
    effects = card["effects"]
    if len(effects) > MAX_EFFECTS:
        raise _fail(path, name, f"field 'effects': at most {MAX_EFFECTS} effects, got {len(effects)}")
    keywords = any(card[k] for k in ("armor", "ward", "counter", "baneful", "attack", "bypass")) or card["strike"] > 1
    if kind == "fighter":
        if card["level"] < 1:
            raise _fail(path, name, "field 'level': a fighter needs a level from 1 to 3")
        if card["hp"] < 10:
            raise _fail(path, name, "field 'hp': a fighter needs hp of 10 or more")
        if card["turbo"] or card["overdrive"] or card["attack"]:
            raise _fail(path, name, "field 'turbo': turbo, overdrive and attack are not fighter fields")
    else:
        if card["level"] or card["condition"] != "none" or card["fighter_name"]:
            raise _fail(path, name, "field 'level': level, condition and fighter_name are fighter fields")
        if card["actions"] or card["skills"]:
            raise _fail(path, name, "field 'actions': only fighters have actions and skills")
        if kind != "item" and (card["hp"] or keywords):
            raise _fail(path, name, f"field 'hp': a {kind} has no HP or keyword numbers")
        if kind != "support" and card["turbo"]:
            raise _fail(path, name, "field 'turbo': only support cards have Turbo timing")
    triggers = [e["trigger"] for e in effects]
    allowed = {"fighter": ("call", "start_turn", "end_turn", "skill", "action"), "support": ("play",),
               "climax": ("play",), "item": ()}[kind]
    bad = [t for t in triggers if t not in allowed]
    if bad:
        raise _fail(path, name, f"field 'effects': trigger {bad[0]!r} is not allowed on a {kind}")
    if kind in ("support", "climax") and "play" not in triggers:
        raise _fail(path, name, f"field 'effects': a {kind} needs at least one trigger 'play' effect")
    for i, e in enumerate(effects):
        where = f"effect {i + 1} ({e['op']})"
        if e["trigger"] == "action" and e["index"] > len(card["actions"]):
            raise _fail(path, name, f"{where} key 'index': the card has {len(card['actions'])} action(s)")
        if e["trigger"] == "skill" and e["index"] > len(card["skills"]):
            raise _fail(path, name, f"{where} key 'index': the card has {len(card['skills'])} skill(s)")
        if e["op"] == "negate" and not card["turbo"]:
            raise _fail(path, name, f"{where} key 'op': negate is only for Turbo cards")
        target = e.get("target")
        if target == "self" and kind != "fighter":
            raise _fail(path, name, f"{where} key 'target': 'self' is only for fighters")
        if e["op"] == "stock_top" and target not in ("self", "own_lead", "opp_lead", "action_target"):
            # one fighter only: the cards go under it, so a selector covering several would leave a choice
            raise _fail(path, name, f"{where} key 'target': stock_top names one fighter (self, a Lead, the target)")
        if target == "action_target" and e["trigger"] != "action":
            raise _fail(path, name, f"{where} key 'target': 'action_target' is only for action effects")
        if e["op"] in ("damage", "heal"):
            _tens(path, name, f"{where} key 'amount'", e["amount"])
        if e["op"] == "buff" and e["stat"] in ("armor", "ward", "counter", "hp", "attack"):
            _tens(path, name, f"{where} key 'amount'", e["amount"])
        if e["op"] == "buff" and e["stat"] == "strike" and not 2 <= e["amount"] <= 3:
            raise _fail(path, name, f"{where} key 'amount': a Strike buff is 2 (Dual) or 3 (Tri)")


def _read_list(path: str, name: str, raw: Any, schema: dict[str, FieldSpec], what: str, cap: int) -> list[dict]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise _fail(path, name, f"field {what!r}: expected a list of tables, got {raw!r}")
    if len(raw) > cap:
        raise _fail(path, name, f"field {what!r}: at most {cap}, got {len(raw)}")
    out = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict):
            raise _fail(path, name, f"field {what!r} entry {i + 1}: expected a table, got {entry!r}")
        clean = check_fields(path, name, entry, schema, what=f"{what} {i + 1} key")
        if what == "actions":
            _tens(path, name, f"actions {i + 1} key 'damage'", clean["damage"])
        out.append(clean)
    return out


def read_pool_file(path: Path | str) -> tuple[list[str], list[dict]]:
    """Validate one pool file; returns (alliances, cleaned cards)."""
    path = str(path)
    data = read_toml(path)
    alliances = data.get("alliances")
    if (not isinstance(alliances, list) or not alliances or not all(isinstance(a, str) and a for a in alliances)
            or FREE in alliances):
        raise CardPoolError(path, None, "needs a top-level 'alliances' list of names (HB-D8; 'free' is implied)")
    if len(alliances) > MAX_ALLIANCES - 1:
        raise CardPoolError(path, None, f"at most {MAX_ALLIANCES - 1} alliances, got {len(alliances)}")
    entries = data.get("card")
    if not isinstance(entries, list) or not entries:
        raise CardPoolError(path, None, "no [[card]] entries")
    cards = []
    for index, raw in enumerate(entries):
        if not isinstance(raw, dict):
            raise CardPoolError(path, f"#{index + 1}", "expected a table")
        raw = dict(raw)
        label = raw.get("name") if isinstance(raw.get("name"), str) else f"#{index + 1}"
        actions = _read_list(path, label, raw.pop("actions", None), ACTION_SCHEMA, "actions", S.MAX_ACTIONS)
        skills = _read_list(path, label, raw.pop("skills", None), SKILL_SCHEMA, "skills", S.MAX_SKILLS)
        raw_effects = raw.pop("effects", [])
        if not isinstance(raw_effects, list):
            raise _fail(path, label, f"field 'effects': expected a list of tables, got {raw_effects!r}")
        card = check_fields(path, label, raw, CARD_SCHEMA)
        card["actions"] = actions
        card["skills"] = skills
        card["effects"] = [check_effect(path, label, i, e, OPS, EFFECT_SCHEMA) for i, e in enumerate(raw_effects)]
        card["_path"] = path
        _check_card_rules(path, card, list(alliances) + [FREE])
        cards.append(card)
    return list(alliances), cards


def compile_pool(cards: list[dict], alliances: list[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Cleaned cards -> the kernels' int tables; returns (cards, effects, fighter names)."""
    names: list[str] = []
    ctab = np.zeros((len(cards), NUM_CARD_COLUMNS), dtype=np.int32)
    etab = np.full((len(cards), MAX_EFFECTS, NUM_EFFECT_COLUMNS), -1, dtype=np.int32)
    every = list(alliances) + [FREE]
    for cid, card in enumerate(cards):
        row = ctab[cid]
        row[C_TYPE] = TYPES.index(card["type"])
        row[C_ALLIANCE] = every.index(card["alliance"])
        row[C_LEVEL] = card["level"]
        row[C_HP] = card["hp"]
        row[C_COST] = card["cost"]
        row[C_OD] = int(card["overdrive"])
        row[C_COND] = CALL_CONDITIONS.index(card["condition"])
        for col, key in ((C_ARMOR, "armor"), (C_WARD, "ward"), (C_COUNTER, "counter"), (C_BANEFUL, "baneful"),
                         (C_ATTACK, "attack")):
            row[col] = card[key]
        row[C_STRIKE] = card["strike"]
        row[C_BYPASS] = int(card["bypass"])
        row[C_TURBO] = int(card["turbo"])
        row[C_NAME_ID] = -1
        if card["type"] == "fighter":
            fname = card["fighter_name"] or card["name"]
            if fname not in names:
                names.append(fname)
            row[C_NAME_ID] = names.index(fname)
        row[C_N_ACTIONS] = len(card["actions"])
        for k, act in enumerate(card["actions"]):
            row[C_ACT_COST + NUM_ACT_COLS * k] = act["cost"]
            row[C_ACT_DMG + NUM_ACT_COLS * k] = act["damage"]
            row[C_ACT_OD + NUM_ACT_COLS * k] = int(act["overdrive"])
        row[C_N_SKILLS] = len(card["skills"])
        for k, sk in enumerate(card["skills"]):
            row[C_SK_COST + NUM_SK_COLS * k] = sk["cost"]
            row[C_SK_OD + NUM_SK_COLS * k] = int(sk["overdrive"])
        row[C_LEAD_OK] = int(card["type"] == "fighter" and card["cost"] == 0 and card["condition"] == "none")
        for i, e in enumerate(card["effects"]):
            trig = TRIGGERS.index(e["trigger"])
            row[C_HAS_CALL] |= int(trig == TR_CALL)
            row[C_HAS_START] |= int(trig == TR_START)
            row[C_HAS_END] |= int(trig == TR_END)
            row[C_NEGATE] |= int(e["op"] == "negate")
            eff = etab[cid, i]
            eff[E_TRIGGER] = trig
            eff[E_INDEX] = e["index"] - 1
            eff[E_COND] = CONDITIONS.index(e["condition"])
            eff[E_OP] = e["opcode"]
            eff[E_AMOUNT] = e.get("amount", 0) or 0
            eff[E_TARGET] = TARGETS.index(e["target"]) if e.get("target") else -1
            eff[E_STAT] = STATS.index(e["stat"]) if e.get("stat") else -1
            eff[E_N] = e.get("n", 0) or 0
            eff[E_SIDE] = SIDES.index(e["side"]) if e.get("side") else 0
    return ctab, etab, names


class HeartbreakPool(CardPool):
    """A CardPool plus the names the text helpers need."""

    alliances: list[str]
    fighter_names: list[str]


def load_pool(paths: Sequence[Path | str] | None = None) -> CardPool:
    """Load, validate and compile a card pool (default: the package's cards.toml)."""
    paths = [Path(p) for p in (paths or [DEFAULT_POOL])]
    alliances: list[str] = []
    cards: list[dict] = []
    seen: dict[str, str] = {}
    for path in paths:
        file_alliances, file_cards = read_pool_file(path)
        for a in file_alliances:
            if a not in alliances:
                alliances.append(a)
        for card in file_cards:
            if card["name"] in seen:
                raise CardPoolError(str(path), card["name"], f"name (title) already used in {seen[card['name']]}")
            seen[card["name"]] = str(path)
            cards.append(card)
    if len(alliances) > MAX_ALLIANCES - 1:
        raise CardPoolError(str(paths[0]), None, f"at most {MAX_ALLIANCES - 1} alliances over all pool files")
    if len(cards) > S.MAX_TITLES:  # every distinct hand card needs one of the 60 addressable hand slots (state.py)
        raise CardPoolError(str(paths[0]), None, f"at most {S.MAX_TITLES} cards (titles) over all pool files, got "
                                                 f"{len(cards)}: the observation shows {S.HAND_SLOTS} hand cards")
    ctab, etab, names = compile_pool(cards, alliances)
    pool = HeartbreakPool(paths=paths, cards=cards, tables=Tables(ctab, etab, card_features(ctab)))
    pool.alliances = alliances + [FREE]
    pool.fighter_names = names
    return pool


def check_deck_rules(deck: Deck, pool: CardPool, wild: bool = False) -> None:
    """HB-D1..D7 (HB-D5: ``format = "wild"`` in the deck file skips the alliance rule). HB-D9: no maximum size; the
    largest deck HB-D2 allows, 4 copies of each of at most ``MAX_TITLES`` titles, is ``MAX_DECK``, the state's width."""
    problems = []  # every broken rule is reported
    if len(deck) < S.MIN_DECK:
        problems.append(DeckError(deck.path, f"{len(deck)} cards, a deck needs {S.MIN_DECK} or more", rule="HB-D1"))
    problems += copy_problems(deck, pool, S.MAX_COPIES, rule="HB-D2")  # HB-D6: per title (each level its own)
    ctab = pool.tables.cards
    if not wild:
        free = len(pool.alliances) - 1
        alliance = -1
        for c in dict.fromkeys(deck.card_ids.tolist()):  # each card that differs is named once
            a = int(ctab[c, C_ALLIANCE])
            if a == free:
                continue  # HB-D4
            if alliance < 0:
                alliance = a
            elif a != alliance:
                problems.append(DeckError(deck.path, f"alliance {pool.alliances[a]!r} differs from the deck's "
                                                     f"{pool.alliances[alliance]!r} (only free cards may be mixed in)",
                                          card=pool.name(c), rule="HB-D3"))
    if not ctab[deck.card_ids, C_LEAD_OK].any():
        problems.append(DeckError(deck.path, "no fighter with no call cost and no call condition to start as the "
                                             "Lead", rule="HB-D7"))
    raise_problems(deck.path, problems)


def load_deck(path_or_name: str | Path, pool: CardPool) -> Deck:
    """A deck file (path or starter name) checked against HB-D1..D7; ``format = "wild"`` allows any alliances."""
    path = resolve_deck_path(path_or_name, DECK_DIR)
    data = read_toml(path, error=DeckError)
    fmt = data.get("format", "standard")
    if fmt not in ("standard", "wild"):
        raise DeckError(str(path), f"field 'format' must be 'standard' or 'wild', got {fmt!r}", rule="HB-D5")
    return read_deck(path, pool, DECK_DIR, lambda d, p: check_deck_rules(d, p, wild=fmt == "wild"))
