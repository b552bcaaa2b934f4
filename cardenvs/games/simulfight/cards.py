"""simulfight card schema, effect vocabulary, pool compilation and deck rules.

Every card is a unit: ``name, gold (cost to play), health (printed starting health)`` plus ``effects``: a list of
``{trigger, condition, threshold, cost, cost_amount, op, target, <op args>}`` tables. The entries of one trigger
form that card's one ability of that kind (PLAY / DEFEND / ATTACK), resolved in file order; the ability's cost is
written on its first entry. The pool compiles to two int32 tables the kernels read:

* ``cards[n, C_COLS]``: gold, printed health, and per trigger the number of entries and the cost (columns ``C_*``);
* ``effects[n, 3, MAX_ENTRIES, E_COLS]``: each ability's entries in order (columns ``E_*``);
* ``features[n, F_STATIC]`` (float32): the static card features of the observation (:func:`card_features`, copied by observe.py).

Adding a card built from the existing conditions, targets and ops needs no code change.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from cardenvs.core.cards import CardPool, FieldSpec, OpSpec, load_card_pool, read_toml
from cardenvs.core.decks import Deck, read_deck
from cardenvs.core.errors import CardPoolError, DeckError

from .state import MAX_DECK

PACKAGE_DIR = Path(__file__).resolve().parent
DEFAULT_POOL = PACKAGE_DIR / "cards.toml"
DECK_DIR = PACKAGE_DIR / "decks"
FULL_DECK = "full"  # the starter name (and load_deck(None)) for one copy of every card of the pool (SF-S1)

TRIGGERS = ("play", "defend", "attack")

COSTS = ("none", "shields", "swords", "gold", "unit_health")
COST_NONE, COST_SHIELDS, COST_SWORDS, COST_GOLD, COST_UNIT_HEALTH = range(5)

TARGETS = ("self", "one_ally", "all_allies", "other_allies", "one_foe", "all_foes", "you", "opponent")
TG_SELF, TG_ONE_ALLY, TG_ALL_ALLIES, TG_OTHER_ALLIES, TG_ONE_FOE, TG_ALL_FOES, TG_YOU, TG_OPPONENT = range(8)
UNIT_TARGETS = ("self", "one_ally", "all_allies", "other_allies", "one_foe", "all_foes")
FOE_TARGETS = ("one_foe", "all_foes", "opponent")

CONDITIONS = ("none", "health_le", "health_ge", "you_health_le", "opponent_health_le", "allies_ge", "foes_ge")
CO_NONE, CO_HEALTH_LE, CO_HEALTH_GE, CO_YOU_HEALTH_LE, CO_OPP_HEALTH_LE, CO_ALLIES_GE, CO_FOES_GE = range(7)
FILTER_CONDITIONS = ("health_le", "health_ge")  # filter which units an effect may hit

WHENS = ("now", "next_round")
WHEN_NOW, WHEN_NEXT = range(2)
RESOURCES = ("gold", "shields", "swords")

OP_DAMAGE, OP_HEAL, OP_PROTECT, OP_STUN, OP_GAIN = range(5)
_TARGET = FieldSpec("enum", required=True, choices=TARGETS, doc="who is affected")
_AMOUNT = FieldSpec("int", required=True, min=1, max=20, doc="how much")
OPS: dict[str, OpSpec] = {
    "damage": OpSpec(OP_DAMAGE, {"target": _TARGET, "amount": _AMOUNT}, "the target loses `amount` health"),
    "heal": OpSpec(OP_HEAL, {"target": _TARGET, "amount": _AMOUNT}, "the target gains `amount` health (own side only)"),
    "protect": OpSpec(OP_PROTECT, {"target": _TARGET}, "the target unit is Protected to the end of the round (own side)"),
    "stun": OpSpec(OP_STUN, {"target": _TARGET}, "the target unit is Stunned to the end of the round"),
    "gain": OpSpec(
        OP_GAIN,
        {
            "target": _TARGET,
            "resource": FieldSpec("enum", required=True, choices=RESOURCES),
            "amount": FieldSpec("int", required=True, min=-10, max=10, doc="negative: a loss"),
            "when": FieldSpec("enum", default="now", choices=WHENS),
        },
        "the target player gains `amount` (or loses, if negative) of a resource, now or at the next round start",
    ),
}
OP_NAMES = {spec.code: name for name, spec in OPS.items()}

CARD_SCHEMA: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True),
    "gold": FieldSpec("int", required=True, min=0, max=20, doc="gold to play it"),
    "health": FieldSpec("int", required=True, min=1, max=30, doc="health it enters play with"),
    "flavor": FieldSpec("str", default=""),
}
EFFECT_SCHEMA: dict[str, FieldSpec] = {
    "trigger": FieldSpec("enum", required=True, choices=TRIGGERS),
    "condition": FieldSpec("enum", default="none", choices=CONDITIONS),
    "threshold": FieldSpec("int", default=0, min=0, max=40, doc="the number the condition compares with"),
    "cost": FieldSpec("enum", default="none", choices=COSTS, doc="what the ability costs (first entry only)"),
    "cost_amount": FieldSpec("int", default=0, min=0, max=20),
}

MAX_ENTRIES = 3  # entries (effects) per ability
# card table columns: gold, health, then for trigger t: entries, cost kind, cost amount at C_N + 3 * t ...
C_GOLD, C_HEALTH, C_N, C_COST, C_COST_AMOUNT = 0, 1, 2, 3, 4
C_COLS = 2 + 3 * 3
# effect table columns
E_COND, E_THRESHOLD, E_OP, E_TARGET, E_AMOUNT, E_RESOURCE, E_WHEN = range(7)
E_COLS = 7


def _check_card_rules(path: str, card: dict) -> None:
    """Rules the generic schema cannot express: one ability per trigger, costs, and which ops fit which targets."""
    name = card["name"]
    seen: dict[str, int] = {}
    for index, effect in enumerate(card["effects"]):
        where = f"effect {index + 1} ({effect['op']})"
        trig, target, op = effect["trigger"], effect["target"], effect["op"]
        first = trig not in seen
        seen[trig] = seen.get(trig, 0) + 1
        if seen[trig] > MAX_ENTRIES:
            raise CardPoolError(path, name, f"{where}: a {trig} ability has at most {MAX_ENTRIES} effects")
        cost, amount = effect["cost"], effect["cost_amount"]
        if not first and cost != "none":
            raise CardPoolError(path, name, f"{where}: key 'cost': the {trig} ability's cost belongs on its first effect")
        if trig == "play" and cost != "none":
            raise CardPoolError(path, name, f"{where}: key 'cost': PLAY abilities have no cost (the card's gold pays)")
        if cost == "none" and amount != 0:
            raise CardPoolError(path, name, f"{where}: key 'cost_amount': set without a cost")
        if cost != "none" and amount < 1:
            raise CardPoolError(path, name, f"{where}: key 'cost_amount': a {cost} cost needs cost_amount >= 1")
        cond = effect["condition"]
        if cond in FILTER_CONDITIONS and target not in UNIT_TARGETS:
            raise CardPoolError(path, name, f"{where}: key 'condition': {cond} filters units, target {target!r} is a player")
        if cond != "none" and effect["threshold"] < 1:
            raise CardPoolError(path, name, f"{where}: key 'threshold': condition {cond} needs threshold >= 1")
        if op == "gain" and target not in ("you", "opponent"):
            raise CardPoolError(path, name, f"{where}: key 'target': gain affects a player (you or opponent)")
        if op == "gain" and effect["amount"] == 0:
            raise CardPoolError(path, name, f"{where}: key 'amount': a gain of 0 does nothing")
        if op in ("protect", "stun") and target not in UNIT_TARGETS:
            raise CardPoolError(path, name, f"{where}: key 'target': {op} affects units, not {target!r}")
        if op in ("heal", "protect") and target in FOE_TARGETS:
            raise CardPoolError(path, name, f"{where}: key 'target': {op} only helps your own side")


def compile_tables(cards: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """The int32 tables the kernels read (see the module docstring)."""
    n = len(cards)
    table = np.zeros((n, C_COLS), dtype=np.int32)
    effects = np.zeros((n, 3, MAX_ENTRIES, E_COLS), dtype=np.int32)
    for cid, card in enumerate(cards):
        table[cid, C_GOLD] = card["gold"]
        table[cid, C_HEALTH] = card["health"]
        for effect in card["effects"]:
            t = TRIGGERS.index(effect["trigger"])
            k = table[cid, C_N + 3 * t]
            if k == 0:
                table[cid, C_COST + 3 * t] = COSTS.index(effect["cost"])
                table[cid, C_COST_AMOUNT + 3 * t] = effect["cost_amount"]
            effects[cid, t, k] = (
                CONDITIONS.index(effect["condition"]),
                effect["threshold"],
                effect["opcode"],
                TARGETS.index(effect["target"]),
                effect.get("amount", 0) or 0,
                RESOURCES.index(effect["resource"]) if "resource" in effect else 0,
                WHENS.index(effect["when"]) if "when" in effect else WHEN_NOW,
            )
            table[cid, C_N + 3 * t] = k + 1
    return table, effects


#: the static part of a card instance's observation features, computed once per pool (observe.py copies it)
F_STATIC = 22  # present, card id/10, gold/5, health/5, then per trigger: has it, cost kind one-hot (4), cost/5


def card_features(cards: np.ndarray) -> np.ndarray:
    """float32 [n, F_STATIC]: the static per-card part of the instance features (a table the kernel copies)."""
    out = np.zeros((cards.shape[0], F_STATIC), dtype=np.float32)
    out[:, 0] = 1.0
    out[:, 1] = np.arange(cards.shape[0]) / 10.0
    out[:, 2] = cards[:, C_GOLD] / 5.0
    out[:, 3] = cards[:, C_HEALTH] / 5.0
    for t in range(3):
        base = 4 + 6 * t
        has = cards[:, C_N + 3 * t] > 0
        out[:, base] = has
        kind = cards[:, C_COST + 3 * t]
        for k in range(1, 5):
            out[:, base + k] = has & (kind == k)
        out[:, base + 5] = cards[:, C_COST_AMOUNT + 3 * t] / 5.0
    return out


def load_pool(paths: Sequence[Path | str] | None = None) -> CardPool:
    """Load and validate a card pool (default: the game's ``cards.toml``); several files are merged in order."""
    paths = [DEFAULT_POOL] if paths is None else [Path(p) for p in paths]
    cards = load_card_pool(paths, CARD_SCHEMA, OPS, EFFECT_SCHEMA)
    by_file: dict[str, str] = {}
    for path in paths:
        for raw in read_toml(path).get("card", []):
            if isinstance(raw, dict) and isinstance(raw.get("name"), str):
                by_file[raw["name"]] = str(path)
    for card in cards:
        _check_card_rules(by_file.get(card["name"], str(paths[0])), card)
    table, effects = compile_tables(cards)
    return CardPool(paths=list(paths), cards=cards, tables=(table, effects, card_features(table)))


def deck_rules(deck: Deck, pool: CardPool) -> None:
    """A deck has 1 to MAX_DECK cards; copies are free (the rules use one of each; custom decks are for evaluation)."""
    if len(deck) < 1:
        raise DeckError(deck.path, "a deck needs at least 1 card", rule="SF-S1")
    if len(deck) > MAX_DECK:
        raise DeckError(deck.path, f"{len(deck)} cards, at most {MAX_DECK} allowed", rule="SF-S1 (deck size cap)")


def full_deck(pool: CardPool) -> Deck:
    """One copy of every card of the pool, in pool order (SF-S1)."""
    deck = Deck(name=FULL_DECK, path=f"<one of each card of {', '.join(str(p) for p in pool.paths)}>",
                card_ids=np.arange(len(pool), dtype=np.int32), description="one copy of each card of the pool")
    deck_rules(deck, pool)
    return deck


def load_deck(path_or_name: str | Path | None, pool: CardPool) -> Deck:
    """A deck: ``None`` or ``"full"`` = one copy of each card of ``pool``; else a starter name or a TOML path."""
    if path_or_name is None or str(path_or_name) == FULL_DECK:
        return full_deck(pool)
    return read_deck(path_or_name, pool, DECK_DIR, deck_rules)
