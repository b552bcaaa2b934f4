"""divinecross card schema, the effect ops' arguments, pool compilation and deck rules (codes: ``vocab.py``).

A card is ``name, type (unit|event|action|assist), series`` plus, for Units, ``attribute, hp, advantage, retreat``,
up to two ``[[card.skill]]`` tables (``name, energy, damage, effects``) and ``effects``: a list of
``{trigger, op, <op args>}`` tables (triggers ``passive``, ``ex_power``, ``play``). Skill effects have no trigger: the
``bonus_*`` ops are the skill ability of damage step 1, the others resolve after the skill's damage is dealt.

The pool compiles to a ``vocab.Tables`` NamedTuple of three int32 tables the kernels read by name (their columns
are declared in ``vocab.py``):

* ``cards[n, NUM_CARD_COLUMNS + CARD_FEATURE_COLUMNS]``: one row per card (columns ``C_*``; passive damage modifiers
  pre-summed), then from ``C_FEATURES`` the card's observation block (``obs_layout.card_features``) packed in the
  observation's dtype (``obs_layout.card_feature_columns``);
* ``effects[n, MAX_EFFECTS, NUM_EFFECT_COLUMNS]``: each card's effects in file order (``E_TRIGGER = -1`` unused);
* ``skill_effects[n, 2, MAX_SKILL_EFFECTS, NUM_EFFECT_COLUMNS]``: the effects of each skill.

Adding a card that uses existing ops needs no code change.
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
from cardenvs.core.decks import Deck, copy_problems, raise_problems, read_deck
from cardenvs.core.errors import CardPoolError, DeckError

from . import state as S
from .obs_layout import card_feature_columns
from . import vocab as V

PACKAGE_DIR = Path(__file__).resolve().parent
DEFAULT_POOL = PACKAGE_DIR / "cards.toml"
DECK_DIR = PACKAGE_DIR / "decks"

_AMOUNT = FieldSpec("int", required=True, min=100, max=2000, doc="damage/HP amount, a multiple of 100")
_SIGNED = FieldSpec("int", required=True, min=-1000, max=1000, doc="signed amount, a multiple of 100, not 0")
_TARGET = FieldSpec("enum", default="opp_main", choices=V.TARGETS, doc="which units")
_N = FieldSpec("int", default=1, min=1, max=3)

OPS: dict[str, OpSpec] = {
    "damage": OpSpec(V.OP_DAMAGE, {"amount": _AMOUNT, "target": _TARGET},
                     "deal amount damage to the target units (not skill damage: no modifiers, no doubling)"),
    "heal": OpSpec(V.OP_HEAL, {"amount": _AMOUNT, "target": _TARGET}, "remove up to amount damage from the targets"),
    "draw": OpSpec(V.OP_DRAW, {"n": _N}, "draw n cards (deck-out damage for each card that cannot be drawn)"),
    "stun": OpSpec(V.OP_STUN, {"target": _TARGET}, "put a stun marker on the target Main Unit"),
    "poison": OpSpec(V.OP_POISON, {"target": _TARGET}, "Poison the target Main Unit"),
    "cure": OpSpec(V.OP_CURE, {"target": _TARGET}, "remove stun and poison from the target Main Unit"),
    "charge": OpSpec(V.OP_CHARGE, {"n": _N, "target": _TARGET},
                     "attach the top n deck cards to the target as Energy (each counts as a draw)"),
    "strip_energy": OpSpec(V.OP_STRIP_ENERGY, {"n": _N, "target": _TARGET}, "discard n Energy from each target"),
    "boost": OpSpec(V.OP_BOOST, {"amount": _SIGNED, "target": _TARGET},
                    "this turn, the targets' skills deal +amount (damage step 2)"),
    "guard": OpSpec(V.OP_GUARD, {"amount": _AMOUNT, "target": _TARGET},
                    "until the start of the owner's next turn, the targets take -amount skill damage (step 3)"),
    "dmg_up": OpSpec(V.OP_DMG_UP, {"amount": _SIGNED},
                     "passive: skills of this unit (or the host) deal +amount (step 2)"),
    "dmg_down": OpSpec(V.OP_DMG_DOWN, {"amount": _SIGNED},
                       "passive: this unit (or the host) takes -amount skill damage (step 3)"),
    "halve": OpSpec(V.OP_HALVE, {},
                    "passive: skill damage taken by this unit (or the host) is halved, rounded up to 100"),
    "hp_up": OpSpec(V.OP_HP_UP, {"amount": _AMOUNT}, "passive (assist): the host has +amount HP"),
    "retreat_down": OpSpec(V.OP_RETREAT_DOWN, {"n": _N}, "passive (assist): the host's retreat cost is n lower"),
    "bonus_energy": OpSpec(V.OP_BONUS_ENERGY, {"amount": _AMOUNT},
                           "skill ability: +amount for each Energy attached beyond the skill's requirement"),
    "bonus_damaged": OpSpec(V.OP_BONUS_DAMAGED, {"amount": _AMOUNT},
                            "skill ability: +amount if the opponent's Main Unit already has damage"),
    "bonus_condition": OpSpec(V.OP_BONUS_CONDITION, {"amount": _AMOUNT},
                              "skill ability: +amount if the opponent's Main Unit is Stunned or Poisoned"),
}
if [(name, spec.code) for name, spec in OPS.items()] != [(name, code) for code, name in enumerate(V.OP_NAMES)]:
    raise ImportError("divinecross: cards.OPS must list vocab.OP_NAMES in code order")  # one vocabulary

CARD_SCHEMA: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True),
    "type": FieldSpec("enum", required=True, choices=V.TYPES),
    "series": FieldSpec("list[str]", required=True, doc="the series the card is printed in (one or more)"),
    "attribute": FieldSpec("enum", default="none", choices=V.ATTRIBUTES),
    "hp": FieldSpec("int", default=0, min=0, max=3000),
    "advantage": FieldSpec("list[str]", default=(), choices=V.ATTRIBUTES[1:]),
    "retreat": FieldSpec("int", default=0, min=0, max=4),
    "text": FieldSpec("str", default=""),
}
EFFECT_SCHEMA: dict[str, FieldSpec] = {"trigger": FieldSpec("enum", required=True, choices=V.TRIGGERS[:3])}
SKILL_SCHEMA: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True),
    "energy": FieldSpec("int", default=0, min=0, max=6, doc="Energy that must be attached to use it"),
    "damage": FieldSpec("int", default=0, min=0, max=2000, doc="printed damage, a multiple of 100"),
}


class DivineCrossPool(CardPool):
    """A CardPool plus the series names."""

    series: list[str]


def _multiple_of_100(path: str, name: str, where: str, value: int) -> None:
    if value % 100 != 0 or (where.endswith("'amount'") and value == 0):
        raise CardPoolError(path, name, f"{where}: damage and HP are counted in hundreds (DC-A5), got {value}")


def _check_effects(path: str, name: str, raw: Any, common: dict[str, FieldSpec], what: str) -> list[dict]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise CardPoolError(path, name, f"field {what!r}: expected a list of effect tables, got {raw!r}")
    out = [check_effect(path, name, i, e, OPS, common) for i, e in enumerate(raw)]
    for i, e in enumerate(out):
        if "amount" in e:
            _multiple_of_100(path, name, f"{what} effect {i + 1} ({e['op']}) key 'amount'", e["amount"])
    return out


def _check_card(path: str, card: dict) -> None:
    """Rules the generic schema cannot express: what each card type may carry."""
    name = card["name"]
    kind = card["type"]
    effects = card["effects"]
    if not card["series"]:
        raise CardPoolError(path, name, "field 'series': a card belongs to at least one series")
    if len(effects) > V.MAX_EFFECTS:
        raise CardPoolError(path, name, f"field 'effects': at most {V.MAX_EFFECTS} effects, got {len(effects)}")
    if kind == "unit":
        if card["hp"] <= 0:
            raise CardPoolError(path, name, "field 'hp': a unit needs hp > 0")
        _multiple_of_100(path, name, "field 'hp'", card["hp"])
        if not 1 <= len(card["skills"]) <= V.MAX_SKILLS:
            raise CardPoolError(path, name,
                                f"field 'skill': a unit has 1 to {V.MAX_SKILLS} skills, got {len(card['skills'])}")
    else:
        for key, empty in (("attribute", "none"), ("hp", 0), ("advantage", ()), ("retreat", 0)):
            if card[key] != empty:
                raise CardPoolError(path, name, f"field {key!r}: only units have {key}")
        if card["skills"]:
            raise CardPoolError(path, name, "field 'skill': only units have skills")
    for i, e in enumerate(effects):
        where = f"effect {i + 1} ({e['op']})"
        trig, op = e["trigger"], e["op"]
        if op in V.BONUS_OPS:
            raise CardPoolError(path, name, f"{where} key 'op': {op!r} is a skill ability, only inside [[card.skill]]")
        if (trig == "passive") != (op in V.PASSIVE_OPS):
            raise CardPoolError(path, name, f"{where} key 'trigger': ops {', '.join(V.PASSIVE_OPS)} are exactly the "
                                            "passive ones")
        if op in V.ASSIST_ONLY_OPS and kind != "assist":
            raise CardPoolError(path, name, f"{where} key 'op': {op!r} is for assist cards")
        if trig == "passive" and kind not in ("unit", "assist"):
            raise CardPoolError(path, name, f"{where} key 'trigger': only units and assists have passive effects")
        if trig == "ex_power" and kind != "unit":
            raise CardPoolError(path, name, f"{where} key 'trigger': only units have an EX-Power")
        if trig == "play" and kind not in ("event", "action"):
            raise CardPoolError(path, name, f"{where} key 'trigger': only events and actions have play effects")
        if op in V.MAIN_ONLY_OPS and e.get("target") not in ("own_main", "opp_main", "self"):
            raise CardPoolError(path, name, f"{where} key 'target': {op!r} acts on a Main Unit (own_main, opp_main)")
    if kind in ("event", "action") and not any(e["trigger"] == "play" for e in effects):
        raise CardPoolError(path, name, f"field 'effects': an {kind} needs at least one 'play' effect")
    if kind == "assist" and not effects:
        raise CardPoolError(path, name, "field 'effects': an assist needs at least one passive effect")
    for k, skill in enumerate(card["skills"]):
        where = f"skill {k + 1} ({skill['name']})"
        _multiple_of_100(path, name, f"{where} key 'damage'", skill["damage"])
        if len(skill["effects"]) > V.MAX_SKILL_EFFECTS:
            raise CardPoolError(path, name, f"{where}: at most {V.MAX_SKILL_EFFECTS} effects")
        for j, e in enumerate(skill["effects"]):
            if e["op"] in V.PASSIVE_OPS:
                raise CardPoolError(path, name, f"{where} effect {j + 1} key 'op': {e['op']!r} is a passive effect")
            if e["op"] in V.MAIN_ONLY_OPS and e.get("target") not in ("own_main", "opp_main", "self"):
                raise CardPoolError(path, name, f"{where} effect {j + 1} key 'target': {e['op']!r} acts on a Main Unit")


def read_pool_file(path: Path) -> list[dict]:
    """Read and validate the ``[[card]]`` entries of one pool file (skills included)."""
    where = str(path)
    data = read_toml(path)
    entries = data.get("card")
    if not isinstance(entries, list) or not entries:
        raise CardPoolError(where, None, "no [[card]] entries")
    cards = []
    for index, raw in enumerate(entries):
        if not isinstance(raw, dict):
            raise CardPoolError(where, f"#{index + 1}", "expected a table")
        raw = dict(raw)
        label = raw["name"] if isinstance(raw.get("name"), str) else f"#{index + 1}"
        raw_effects = raw.pop("effects", [])
        raw_skills = raw.pop("skill", [])
        card = check_fields(where, label, raw, CARD_SCHEMA)
        card["effects"] = _check_effects(where, label, raw_effects, EFFECT_SCHEMA, "effects")
        if not isinstance(raw_skills, list):
            raise CardPoolError(where, label, "field 'skill': expected [[card.skill]] tables")
        skills = []
        for k, rs in enumerate(raw_skills):
            if not isinstance(rs, dict):
                raise CardPoolError(where, label, f"skill {k + 1}: expected a table, got {rs!r}")
            rs = dict(rs)
            rs_effects = rs.pop("effects", [])
            skill = check_fields(where, label, rs, SKILL_SCHEMA, what=f"skill {k + 1} key")
            skill["effects"] = _check_effects(where, label, rs_effects, {}, f"skill {k + 1}")
            skills.append(skill)
        card["skills"] = skills
        card["_path"] = where
        _check_card(where, card)
        cards.append(card)
    return cards


def compile_pool(cards: list[dict]) -> V.Tables:
    """Turn cleaned cards into the kernels' tables."""
    n = len(cards)
    ctab = np.zeros((n, V.NUM_CARD_COLUMNS), dtype=np.int32)
    etab = np.full((n, V.MAX_EFFECTS, V.NUM_EFFECT_COLUMNS), -1, dtype=np.int32)
    stab = np.full((n, V.MAX_SKILLS, V.MAX_SKILL_EFFECTS, V.NUM_EFFECT_COLUMNS), -1, dtype=np.int32)

    def encode(e: dict, trigger: int) -> tuple[int, ...]:
        target = e.get("target")
        return (trigger, e["opcode"], int(e.get("amount", 0) or 0), int(e.get("n", 0) or 0),
                V.TARGETS.index(target) if target else -1)

    for cid, card in enumerate(cards):
        row = ctab[cid]
        row[V.C_TYPE] = V.TYPES.index(card["type"])
        row[V.C_ATTR] = V.ATTRIBUTES.index(card["attribute"])
        row[V.C_ADV] = sum(1 << V.ATTRIBUTES.index(a) for a in set(card["advantage"]))
        row[V.C_HP] = card["hp"]
        row[V.C_RETREAT] = card["retreat"]
        row[V.C_N_SKILLS] = len(card["skills"])
        ops = 0
        for i, e in enumerate(card["effects"]):
            trig = V.TRIGGERS.index(e["trigger"])
            etab[cid, i] = encode(e, trig)
            ops |= 1 << e["opcode"]
            amount = int(e.get("amount", 0) or 0)
            if trig == V.TR_EX:
                row[V.C_HAS_EX] = 1
            elif e["op"] == "dmg_up":
                row[V.C_DEAL_PLUS if amount > 0 else V.C_DEAL_MINUS] += abs(amount)
            elif e["op"] == "dmg_down":
                row[V.C_TAKE_MINUS if amount > 0 else V.C_TAKE_PLUS] += abs(amount)
            elif e["op"] == "halve":
                row[V.C_HALVE] += 1
            elif e["op"] == "hp_up":
                row[V.C_HP_UP] += amount
            elif e["op"] == "retreat_down":
                row[V.C_RETREAT_DOWN] += int(e["n"])
        for k, skill in enumerate(card["skills"]):
            row[V.C_S0_ENERGY + k] = skill["energy"]
            row[V.C_S0_DAMAGE + k] = skill["damage"]
            for j, e in enumerate(skill["effects"]):
                stab[cid, k, j] = encode(e, V.TR_SKILL)
                ops |= 1 << e["opcode"]
        row[V.C_OPS] = ops
    return V.Tables(cards=np.ascontiguousarray(np.concatenate([ctab, card_feature_columns(ctab)], axis=1)),
                  effects=etab, skill_effects=stab)


def load_pool(paths: Sequence[Path | str] | None = None) -> DivineCrossPool:
    """Load, validate and compile a card pool (default: the package's cards.toml)."""
    paths = [Path(p) for p in (paths or [DEFAULT_POOL])]
    cards: list[dict] = []
    seen: dict[str, str] = {}
    for path in paths:
        for card in read_pool_file(path):
            if card["name"] in seen:
                raise CardPoolError(card["_path"], card["name"], f"name already used in {seen[card['name']]}")
            seen[card["name"]] = card["_path"]
            cards.append(card)
            if len(cards) > S.POOL_CAP:  # the observation counts public cards by card id (observe.public_cards)
                raise CardPoolError(card["_path"], card["name"], f"a pool holds at most {S.POOL_CAP} cards")
    pool = DivineCrossPool(paths=paths, cards=cards, tables=compile_pool(cards))
    pool.series = sorted({s for c in cards for s in c["series"]})
    return pool


def check_deck_rules(deck: Deck, pool: CardPool) -> None:
    """DC-D1..D4 (DC-D5, the card types, is enforced by the pool schema); every broken rule is reported."""
    problems = []
    if len(deck) != S.DECK_SIZE:
        problems.append(DeckError(deck.path, f"{len(deck)} cards, a deck needs exactly {S.DECK_SIZE}", rule="DC-D1"))
    common: set[str] | None = None
    for cid in dict.fromkeys(deck.card_ids.tolist()):
        series = set(pool.cards[cid]["series"])
        if common is not None and not (common & series):  # each such card is named; the series stays the earlier
            problems.append(DeckError(deck.path, f"series {', '.join(sorted(series))} shares no series with the "
                                                 f"cards before it ({', '.join(sorted(common))}): a deck is built "
                                                 f"from one series", card=pool.name(cid), rule="DC-D2"))
            continue
        common = series if common is None else common & series
    problems += copy_problems(deck, pool, S.MAX_COPIES, rule="DC-D3")
    ctab = pool.tables.cards
    if not (ctab[deck.card_ids, V.C_TYPE] == V.TYPE_UNIT).any():
        problems.append(DeckError(deck.path, "no Unit card: setup could never place a Main Unit", rule="DC-D4"))
    raise_problems(deck.path, problems)


def load_deck(path_or_name: str | Path, pool: CardPool) -> Deck:
    """A deck file (path or starter name) checked against DC-D1..D4."""
    return read_deck(path_or_name, pool, DECK_DIR, check_deck_rules)
