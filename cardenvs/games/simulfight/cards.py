"""simulfight card schema, effect vocabulary, pool compilation and deck rules.

Every card is a unit: ``name, gold (cost to play), health (printed starting health)`` plus ``effects``: a list of
``{trigger, condition, threshold, cost, cost_amount, op, target, <op args>}`` tables. The entries of one trigger
form that card's one ability of that kind (PLAY / DEFEND / ATTACK), resolved in file order; the ability's cost is
written on its first entry. The pool compiles to the tables the kernels read, a :class:`Tables` named tuple (read by
name: ``tables.cards``):

* ``cards[n, CARD_TABLE_SIZE]``: gold, printed health, and per trigger the number of entries and the cost (the
  ``CARD_TABLE`` layout, columns ``C_*``);
* ``effects[n, NUM_TRIGGERS, MAX_ENTRIES, ENTRY_SIZE]``: each ability's entries in order (the ``ENTRY`` layout,
  columns ``E_*``);
* ``features[n, CARD_STATIC_END]`` (``OBS_DTYPE``, int16): the static card features of the observation's CARD
  block as the observation stores them (:func:`card_features`, copied by observe.py).

Adding a card built from the existing conditions, targets and ops needs no code change.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple, Sequence

import numpy as np

from cardenvs.core.cards import CardPool, FieldSpec, OpSpec, load_card_pool, read_toml
from cardenvs.core.decks import Deck, read_deck
from cardenvs.core.errors import CardPoolError, DeckError
from cardenvs.core.layout import Layout, fields

from . import state as S

PACKAGE_DIR = Path(__file__).resolve().parent
DEFAULT_POOL = PACKAGE_DIR / "cards.toml"
DECK_DIR = PACKAGE_DIR / "decks"
FULL_DECK = "full"  # the starter name (and load_deck(None)) for one copy of every card of the pool (SF-S1)

# The card vocabulary: each word's code is its position in its tuple, and each name below reads it from there (so a
# new word renumbers nothing by hand, and a misspelt name fails at import). Triggers and resources are the state's.
TRIGGERS = S.TRIGGER_NAMES
RESOURCES = S.RESOURCE_NAMES

COSTS = ("none", "shields", "swords", "gold", "unit_health")
COST_NONE = COSTS.index("none")
COST_SHIELDS = COSTS.index("shields")
COST_SWORDS = COSTS.index("swords")
COST_GOLD = COSTS.index("gold")
COST_UNIT_HEALTH = COSTS.index("unit_health")

TARGETS = ("self", "one_ally", "all_allies", "other_allies", "one_foe", "all_foes", "you", "opponent")
TG_SELF = TARGETS.index("self")
TG_ONE_ALLY = TARGETS.index("one_ally")
TG_ALL_ALLIES = TARGETS.index("all_allies")
TG_OTHER_ALLIES = TARGETS.index("other_allies")
TG_ONE_FOE = TARGETS.index("one_foe")
TG_ALL_FOES = TARGETS.index("all_foes")
TG_YOU = TARGETS.index("you")
TG_OPPONENT = TARGETS.index("opponent")
UNIT_TARGETS = ("self", "one_ally", "all_allies", "other_allies", "one_foe", "all_foes")
FOE_TARGETS = ("one_foe", "all_foes", "opponent")

CONDITIONS = ("none", "health_le", "health_ge", "you_health_le", "opponent_health_le", "allies_ge", "foes_ge")
CO_NONE = CONDITIONS.index("none")
CO_HEALTH_LE = CONDITIONS.index("health_le")
CO_HEALTH_GE = CONDITIONS.index("health_ge")
CO_YOU_HEALTH_LE = CONDITIONS.index("you_health_le")
CO_OPP_HEALTH_LE = CONDITIONS.index("opponent_health_le")
CO_ALLIES_GE = CONDITIONS.index("allies_ge")
CO_FOES_GE = CONDITIONS.index("foes_ge")
FILTER_CONDITIONS = ("health_le", "health_ge")  # filter which units an effect may hit

WHENS = ("now", "next_round")
WHEN_NOW = WHENS.index("now")
WHEN_NEXT = WHENS.index("next_round")

OP_WORDS = ("damage", "heal", "protect", "stun", "gain")  # the ops' TOML names; OPS below gives each its schema
OP_DAMAGE = OP_WORDS.index("damage")
OP_HEAL = OP_WORDS.index("heal")
OP_PROTECT = OP_WORDS.index("protect")
OP_STUN = OP_WORDS.index("stun")
OP_GAIN = OP_WORDS.index("gain")
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
assert tuple(OPS) == OP_WORDS and all(spec.code == OP_WORDS.index(name) for name, spec in OPS.items())
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
MAX_POOL_CARDS = 1000  # the observation's card id (pool index + 1) must stay inside its Box (obs_layout.OBS_LIMIT)
NUM_TRIGGERS = len(TRIGGERS)
NUM_TARGETS = len(TARGETS)
NUM_OPS = len(OPS)

# card table columns (C_*): gold, printed health, then per trigger t (TR_*): entries, cost kind, cost amount at
# C_N + t, C_COST + t, C_COST_AMOUNT + t
CARD_TABLE = Layout("simulfight_card_table", fields(
    ("gold", (), "gold to play it"),
    ("health", (), "printed health"),
    ("n", (NUM_TRIGGERS,), "per trigger: entries of its ability (0: no ability)"),
    ("cost", (NUM_TRIGGERS,), "per trigger: COST_* of its ability"),
    ("cost_amount", (NUM_TRIGGERS,), "per trigger: the cost amount"),
))
CARD_TABLE.export(globals(), "C_")  # C_GOLD, C_HEALTH, C_N, C_COST, C_COST_AMOUNT (+ _END)
CARD_TABLE_SIZE = CARD_TABLE.size
# effect table columns (E_*): one effect entry
ENTRY = Layout("simulfight_entry", fields(
    ("cond", (), "CO_* condition or filter"),
    ("threshold", (), "the number the condition compares with"),
    ("op", (), "OP_*"),
    ("target", (), "TG_*"),
    ("amount", (), "how much"),
    ("resource", (), "RES_* of a gain"),
    ("when", (), "WHEN_* of a gain"),
))
ENTRY.export(globals(), "E_")  # E_COND, E_THRESHOLD, E_OP, E_TARGET, E_AMOUNT, E_RESOURCE, E_WHEN (+ _END)
ENTRY_SIZE = ENTRY.size


class Tables(NamedTuple):
    """A pool's compiled tables (``CardPool.tables``), the ``tables`` argument of every kernel. Numba types a named
    tuple of arrays field by field and caches the kernels that take it, so kernels read ``tables.cards`` by name
    instead of a position whose meaning differs per game."""

    cards: np.ndarray  # int32 [n, CARD_TABLE_SIZE]: the CARD_TABLE columns C_*
    effects: np.ndarray  # int32 [n, NUM_TRIGGERS, MAX_ENTRIES, ENTRY_SIZE]: the ENTRY columns E_*
    features: np.ndarray  # OBS_DTYPE [n, CARD_STATIC_END]: the static part of the observation's CARD block, stored


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
    """The int32 tables the kernels read (see the module docstring), written through the layouts' field names."""
    n = len(cards)
    table = np.zeros((n, CARD_TABLE_SIZE), dtype=np.int32)
    effects = np.zeros((n, NUM_TRIGGERS, MAX_ENTRIES, ENTRY_SIZE), dtype=np.int32)
    rec = CARD_TABLE.records(table)  # views: writing them writes the tables
    ent = ENTRY.records(effects)
    for cid, card in enumerate(cards):
        rec["gold"][cid] = card["gold"]
        rec["health"][cid] = card["health"]
        for effect in card["effects"]:
            t = TRIGGERS.index(effect["trigger"])
            k = rec["n"][cid, t]
            if k == 0:
                rec["cost"][cid, t] = COSTS.index(effect["cost"])
                rec["cost_amount"][cid, t] = effect["cost_amount"]
            e = ent[cid, t, k]
            e["cond"] = CONDITIONS.index(effect["condition"])
            e["threshold"] = effect["threshold"]
            e["op"] = effect["opcode"]
            e["target"] = TARGETS.index(effect["target"])
            e["amount"] = effect.get("amount", 0) or 0
            e["resource"] = RESOURCES.index(effect["resource"]) if "resource" in effect else 0
            e["when"] = WHENS.index(effect["when"]) if "when" in effect else WHEN_NOW
            rec["n"][cid, t] = k + 1
    return table, effects


# ---- the observation's per-instance block (observe.py): static card features first, then the instance's state ----
#: what an observation row stores (compact, issue 41; obs_layout's docstring says why int16). Declared here, beside
#: the CARD block and its feature table, because obs_layout imports this module.
OBS_DTYPE = np.int16
FIFTHS = {"divide_by": 5}  # gold, health and cost amounts read / 5, stored as they are
#: one ability's static features inside the CARD block, per trigger
ABILITY = Layout("simulfight_ability_features", fields(
    ("has", (), "1 if the card has an ability of this trigger"),
    ("cost_kind", (len(COSTS) - 1,), "cost kind one-hot: shields, swords, gold, unit health (COST_* - 1)"),
    ("cost", (), "cost amount/5", FIFTHS),
), OBS_DTYPE)
ABILITY.export(globals(), "ABILITY_")  # ABILITY_HAS, ABILITY_COST_KIND, ABILITY_COST (+ _END)
#: one card instance in the observation (``my_cards`` / ``opp_cards`` rows); the fields up to ``CARD_STATIC_END`` are
#: the card's static features, the same for every instance of a card: :func:`card_features` computes them once per
#: pool (``Tables.features``) and observe.py copies them
CARD = Layout("simulfight_card", fields(
    ("present", (), "1: the deck list has a card at this instance"),
    ("id", (), "card identity: pool index + 1 (0: no card); SPEC.obs_card_ids lists these entries"),
    ("gold", (), "gold/5", FIFTHS),
    ("printed_health", (), "printed health/5", FIFTHS),
    ("abilities", (NUM_TRIGGERS, ABILITY.size), "per trigger (play, defend, attack): the ABILITY block",
     {"block": ABILITY}),
    ("in_deck", (), "zone one-hot: deck"),
    ("in_hand", (), "zone one-hot: hand"),
    ("in_play", (), "zone one-hot: in play"),
    ("in_discard", (), "zone one-hot: discard pile"),
    ("hidden", (), "1: an opponent's card in hand or deck (which of the two is hidden)"),
    ("known", (), "1: a card in hand that both players know is there (its owner's deck ran out since it was drawn)"),
    ("health", (), "current health/5 while in play", FIFTHS),
    ("protected", (), "Protected"),
    ("stunned", (), "Stunned"),
    ("used", (), "used its ability this phase (own side)"),
    ("resolving", (), "its ability is being resolved (own side)"),
    ("planned_damage", (), "damage my plan queued on it/5 (opponent side)", FIFTHS),
    ("planned_stun", (), "my plan Stuns it (opponent side)"),
    ("start_health", (), "health/5 at the phase start, 0 if not in play then (own side: what the opponent's plan "
                         "sees; a unit in play at the phase start has health > 0 and is a Foe to the opponent)",
     FIFTHS),
    ("start_protected", (), "Protected at the phase start (own side)"),
    ("start_stunned", (), "Stunned at the phase start (own side)"),
), OBS_DTYPE)
CARD.export(globals(), "CARD_")  # CARD_PRESENT, CARD_ID, ..., CARD_PLANNED_STUN (+ _END)
CARD_SIZE = CARD.size
CARD_STATIC_END = CARD.slice("abilities").stop  # the static features: present .. abilities


def card_features(cards: np.ndarray) -> np.ndarray:
    """``OBS_DTYPE [n, CARD_STATIC_END]``: the static per-card part of the CARD block as the observation stores it
    (a table the kernel copies): flags, one-hots, the id, and gold, printed health and cost amounts as they are (the
    layout's divisors make them / 5 in the float view). The schema keeps every one within 0..1000 (``MAX_POOL_CARDS``
    ids, gold and cost amounts <= 20, health <= 30)."""
    n = cards.shape[0]
    block = np.zeros((n, CARD.size), dtype=OBS_DTYPE)
    out = CARD.records(block)
    table = CARD_TABLE.records(cards)
    out["present"] = 1
    out["id"] = np.arange(n) + 1
    out["gold"] = table["gold"]
    out["printed_health"] = table["health"]
    has, kind, cost = (ABILITY.slice(f) for f in ("has", "cost_kind", "cost"))
    for t in range(NUM_TRIGGERS):
        ability = out["abilities"][:, t]  # [n, ABILITY.size]
        present = table["n"][:, t] > 0
        ability[:, has] = present[:, None]
        for k in range(COST_SHIELDS, COST_UNIT_HEALTH + 1):  # one-hot over the costs other than none
            ability[:, kind.start + k - COST_SHIELDS] = present & (table["cost"][:, t] == k)
        ability[:, cost] = table["cost_amount"][:, t][:, None]
    return np.ascontiguousarray(block[:, :CARD_STATIC_END])


def load_pool(paths: Sequence[Path | str] | None = None) -> CardPool:
    """Load and validate a card pool (default: the game's ``cards.toml``); several files are merged in order."""
    paths = [DEFAULT_POOL] if paths is None else [Path(p) for p in paths]
    cards = load_card_pool(paths, CARD_SCHEMA, OPS, EFFECT_SCHEMA)
    if len(cards) > MAX_POOL_CARDS:  # issue 43 #11: a larger id would leave the observation's declared Box
        raise CardPoolError(", ".join(str(p) for p in paths), None,
                            f"{len(cards)} cards; a simulfight pool holds at most {MAX_POOL_CARDS} (the observation "
                            f"carries each card's id, pool index + 1, within +-{MAX_POOL_CARDS})")
    by_file: dict[str, str] = {}
    for path in paths:
        for raw in read_toml(path).get("card", []):
            if isinstance(raw, dict) and isinstance(raw.get("name"), str):
                by_file[raw["name"]] = str(path)
    for card in cards:
        _check_card_rules(by_file.get(card["name"], str(paths[0])), card)
    table, effects = compile_tables(cards)
    return CardPool(paths=list(paths), cards=cards, tables=Tables(table, effects, card_features(table)))


def deck_rules(deck: Deck, pool: CardPool) -> None:
    """A deck has 1 to MAX_DECK cards; copies are free (the rules use one of each; custom decks are for evaluation)."""
    if len(deck) < 1:
        raise DeckError(deck.path, "a deck needs at least 1 card", rule="SF-S1")
    if len(deck) > S.MAX_DECK:
        raise DeckError(deck.path, f"{len(deck)} cards, at most {S.MAX_DECK} allowed", rule="SF-S1 (deck size cap)")


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
