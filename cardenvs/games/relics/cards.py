"""relics card schema, effect vocabulary, pool compilation and deck rules.

A card is ``name, type, rarity`` plus the fields of its type:

* character: ``att``, ``def``, ``class``, ``descriptors``, ``skills`` and ``effects`` (triggers cont, enter, act,
  defeat; an effect with ``leader = true`` works only while the character is the party leader: the Leader skill);
* equipment: ``att`` / ``def`` bonuses, ``skills`` it grants, ``requires`` (classes, descriptors or skills, any of
  them; empty = anyone);
* item / spell: ``cost`` ("none" or "down": down the user / caster), ``school`` (spells: black, white, summon) and
  ``effects`` with trigger cast;
* location: ``qualifies`` (the classes / descriptors a leader needs for the leader card's abilities),
  ``effects`` with trigger location, and its relic side ``relic_name``, ``relic_att``, ``relic_def``,
  ``relic_skills``;
* leader: ``effects`` with triggers cont and act (usable while the leader qualifies for the location).

The pool compiles to two int32 tables the kernels read, held by name in a :class:`RelicsTables`:
``cards[n, NUM_CARD_COLUMNS]`` and ``effects[n, MAX_EFFECTS, NUM_EFFECT_COLUMNS]`` (unused effect rows have
``E_TRIGGER = -1``). Adding a card that uses existing ops needs no code change.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import count
from pathlib import Path
from typing import NamedTuple

import numpy as np

from cardenvs.core.cards import CardPool, FieldSpec, OpSpec, load_card_pool
from cardenvs.core.decks import Deck, copy_problems, raise_problems, read_deck
from cardenvs.core.errors import CardPoolError, DeckError

from . import state as S

PACKAGE_DIR = Path(__file__).resolve().parent
DEFAULT_POOL = PACKAGE_DIR / "cards.toml"
DECK_DIR = PACKAGE_DIR / "decks"

# Codes are numbered by the vocabulary tuples below (a code is its word's index, a skill bit its word's bit), never
# counted by hand, so adding a word moves nothing else.
TYPES = ("character", "equipment", "item", "spell", "location", "leader")
T_CHARACTER = TYPES.index("character")
T_EQUIPMENT = TYPES.index("equipment")
T_ITEM = TYPES.index("item")
T_SPELL = TYPES.index("spell")
T_LOCATION = TYPES.index("location")
T_LEADER = TYPES.index("leader")
ITEM_DECK_TYPES = (T_EQUIPMENT, T_ITEM, T_SPELL)

RARITIES = ("common", "rare")
SCHOOLS = ("none", "black", "white", "summon")
SC_NONE = SCHOOLS.index("none")
SC_BLACK = SCHOOLS.index("black")
SC_WHITE = SCHOOLS.index("white")
SC_SUMMON = SCHOOLS.index("summon")
COSTS = ("default", "none", "down")  # default: spells down their caster, items cost nothing

SKILLS = ("black", "white", "summon", "ranged", "steal", "counter", "jump", "throw", "villain")
SK_BLACK = 1 << SKILLS.index("black")
SK_WHITE = 1 << SKILLS.index("white")
SK_SUMMON = 1 << SKILLS.index("summon")
SK_RANGED = 1 << SKILLS.index("ranged")
SK_STEAL = 1 << SKILLS.index("steal")
SK_COUNTER = 1 << SKILLS.index("counter")
SK_JUMP = 1 << SKILLS.index("jump")
SK_THROW = 1 << SKILLS.index("throw")
SK_VILLAIN = 1 << SKILLS.index("villain")
NUM_SKILLS = len(SKILLS)

TRIGGERS = ("cont", "enter", "act", "defeat", "cast", "location")
TR_CONT = TRIGGERS.index("cont")
TR_ENTER = TRIGGERS.index("enter")
TR_ACT = TRIGGERS.index("act")
TR_DEFEAT = TRIGGERS.index("defeat")
TR_CAST = TRIGGERS.index("cast")
TR_LOCATION = TRIGGERS.index("location")
ALLOWED_TRIGGERS = {
    "character": ("cont", "enter", "act", "defeat"),
    "equipment": (),
    "item": ("cast",),
    "spell": ("cast",),
    "location": ("location",),
    "leader": ("cont", "act"),
}

CONDITIONS = ("none", "leader_match")
CO_NONE = CONDITIONS.index("none")
CO_LEADER_MATCH = CONDITIONS.index("leader_match")

TARGETS = ("none", "self", "own_one", "own_all", "opp_one", "opp_all")
TG_NONE = TARGETS.index("none")
TG_SELF = TARGETS.index("self")
TG_OWN_ONE = TARGETS.index("own_one")
TG_OWN_ALL = TARGETS.index("own_all")
TG_OPP_ONE = TARGETS.index("opp_one")
TG_OPP_ALL = TARGETS.index("opp_all")

# the effect vocabulary, in opcode order (``OPS`` below gives each its arguments and meaning)
OP_WORDS = ("draw", "recruit", "up", "down", "boost", "strike", "raise", "reclaim", "exhume", "opp_discard")
OP_DRAW = OP_WORDS.index("draw")
OP_RECRUIT = OP_WORDS.index("recruit")
OP_UP = OP_WORDS.index("up")
OP_DOWN = OP_WORDS.index("down")
OP_BOOST = OP_WORDS.index("boost")
OP_STRIKE = OP_WORDS.index("strike")
OP_RAISE = OP_WORDS.index("raise")
OP_RECLAIM = OP_WORDS.index("reclaim")
OP_EXHUME = OP_WORDS.index("exhume")
OP_OPP_DISCARD = OP_WORDS.index("opp_discard")
NUM_OPS = len(OP_WORDS)

_N = FieldSpec("int", default=1, min=1, max=3, doc="how many")
_TARGET = FieldSpec("enum", required=True, choices=TARGETS, doc="which characters")

OPS: dict[str, OpSpec] = {
    "draw": OpSpec(OP_DRAW, {"n": _N}, "draw n cards from the item deck"),
    "recruit": OpSpec(OP_RECRUIT, {"n": _N}, "draw n characters from the character deck into the reserves"),
    "up": OpSpec(OP_UP, {"target": _TARGET}, "Up the target characters (RL-U5)"),
    "down": OpSpec(OP_DOWN, {"target": _TARGET}, "Down the target characters"),
    "boost": OpSpec(OP_BOOST, {"target": _TARGET, "att": FieldSpec("int", default=0, min=-9, max=9),
                               "def": FieldSpec("int", default=0, min=-9, max=9)},
                    "ATT/DEF change: until the next Up (cast, act, enter, location) or while the source holds (cont)"),
    "strike": OpSpec(OP_STRIKE, {"target": _TARGET, "power": FieldSpec("int", required=True, min=1, max=20)},
                     "each target whose DEF is at most power is defeated (discard pile)"),
    "raise": OpSpec(OP_RAISE, {"n": _N}, "n characters of your discard pile, of your choice, go to your reserves"),
    "reclaim": OpSpec(OP_RECLAIM, {"n": _N}, "n item-deck cards of your discard pile, of your choice, go to your hand"),
    "exhume": OpSpec(OP_EXHUME, {"n": _N},
                     "n cards of your doom pile, of your choice, come back (characters to reserves, others to hand)"),
    "opp_discard": OpSpec(OP_OPP_DISCARD, {"n": _N}, "the opponent discards n random cards from hand"),
}
if tuple(OPS) != OP_WORDS:  # the opcodes are numbered by OP_WORDS: OPS must declare the same words in that order
    raise AssertionError(f"relics OPS {tuple(OPS)} and OP_WORDS {OP_WORDS} disagree")
OP_NAMES = {spec.code: name for name, spec in OPS.items()}
PILE_OPS = ("raise", "reclaim", "exhume")  # take-backs: the player chooses the card (ST_PILE), by card id
PLAYER_OPS = ("draw", "recruit", "raise", "reclaim", "exhume", "opp_discard")  # a player's cards; no target
CHARACTER_OPS = ("up", "down", "boost", "strike")  # the characters the effect's target names


def op_bits(words: Sequence[str]) -> int:
    """The ``C_OPS`` bits of these op words (``C_OPS`` has bit ``1 << opcode`` for each op a card's effects use)."""
    return sum(1 << OP_WORDS.index(w) for w in set(words))


PLAYER_OP_BITS = op_bits(PLAYER_OPS)
if sorted(PLAYER_OPS + CHARACTER_OPS) != sorted(OP_WORDS):
    raise AssertionError("relics: every op is a player op or a character op")

CARD_SCHEMA: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True),
    "type": FieldSpec("enum", required=True, choices=TYPES),
    "rarity": FieldSpec("enum", default="common", choices=RARITIES),
    "att": FieldSpec("int", default=0, min=0, max=20),
    "def": FieldSpec("int", default=0, min=0, max=20),
    "class": FieldSpec("str", default=""),
    "descriptors": FieldSpec("list[str]", default=()),
    "skills": FieldSpec("list[str]", default=(), choices=SKILLS),
    "requires": FieldSpec("list[str]", default=()),
    "school": FieldSpec("enum", default="none", choices=SCHOOLS),
    "cost": FieldSpec("enum", default="default", choices=COSTS),
    "qualifies": FieldSpec("list[str]", default=()),
    "relic_name": FieldSpec("str", default=""),
    "relic_att": FieldSpec("int", default=0, min=0, max=9),
    "relic_def": FieldSpec("int", default=0, min=0, max=9),
    "relic_skills": FieldSpec("list[str]", default=(), choices=SKILLS),
    "text": FieldSpec("str", default=""),
    "flavor": FieldSpec("str", default=""),
}
EFFECT_SCHEMA: dict[str, FieldSpec] = {
    "trigger": FieldSpec("enum", required=True, choices=TRIGGERS),
    "condition": FieldSpec("enum", default="none", choices=CONDITIONS),
    "leader": FieldSpec("bool", default=False, doc="Leader skill: only while this character is the party leader"),
}

MAX_EFFECTS = 3
MAX_CLASSES = 8
MAX_DESCRIPTORS = 8

# card table columns (``RelicsTables.cards[card, C_*]``), numbered in the order declared here
_card_column = count()
C_TYPE = next(_card_column)  # TYPES index
C_RARITY = next(_card_column)  # RARITIES index
C_ATT = next(_card_column)  # printed ATT (equipment: its bonus)
C_DEF = next(_card_column)  # printed DEF (equipment: its bonus)
C_CLASS = next(_card_column)  # class index in the pool's class list, -1 none
C_DESC = next(_card_column)  # descriptor bits (pool order)
C_SKILLS = next(_card_column)  # printed skill bits (equipment: the skills it grants)
C_REQ_CLASS = next(_card_column)  # equipment requirement: class bits
C_REQ_DESC = next(_card_column)  # equipment requirement: descriptor bits
C_REQ_SKILL = next(_card_column)  # equipment requirement: skill bits
C_SCHOOL = next(_card_column)  # SCHOOLS index
C_COST_DOWN = next(_card_column)  # 1 when casting / using it downs the caster / user
C_QUAL_CLASS = next(_card_column)  # location: class bits that qualify a leader
C_QUAL_DESC = next(_card_column)  # location: descriptor bits that qualify a leader
C_RELIC_ATT = next(_card_column)  # location: its relic's ATT bonus
C_RELIC_DEF = next(_card_column)  # location: its relic's DEF bonus
C_RELIC_SKILLS = next(_card_column)  # location: the skill bits its relic grants
C_ACT = next(_card_column)  # effect row of the act ability, -1 none
C_HAS_CONT = next(_card_column)  # 1 with a cont effect
C_HAS_ENTER = next(_card_column)  # 1 with an enter effect
C_HAS_DEFEAT = next(_card_column)  # 1 with a defeat effect
C_ONE_TARGET = next(_card_column)  # ONE_*: the kind of character a cast or act effect is aimed at
C_ACT_LEADER = next(_card_column)  # 1 when the act ability is a Leader skill
C_OPS = next(_card_column)  # bit 1 << opcode for each op its effects use (``op_bits``)
C_NEEDS_CASTER = next(_card_column)  # 1 when a Cast/Use picks a caster / user (spells, down costs)
NUM_CARD_COLUMNS = next(_card_column)
# C_ONE_TARGET: no chosen target, one of your characters, one opposing character (cast and act effects)
ONE_NONE, ONE_OWN, ONE_OPP = 0, 1, 2
# effect table columns (``RelicsTables.effects[card, e, E_*]``; unused effect rows have E_TRIGGER = -1)
_effect_column = count()
E_TRIGGER = next(_effect_column)  # TRIGGERS index
E_COND = next(_effect_column)  # CONDITIONS index
E_LEADER = next(_effect_column)  # 1: a Leader skill (only while the character leads)
E_OP = next(_effect_column)  # opcode (OP_WORDS index)
E_TARGET = next(_effect_column)  # TARGETS index
E_N = next(_effect_column)  # how many (draw, recruit, take-backs, opp_discard)
E_ATT = next(_effect_column)  # boost: ATT change
E_DEF = next(_effect_column)  # boost: DEF change
E_POWER = next(_effect_column)  # strike: power
NUM_EFFECT_COLUMNS = next(_effect_column)


class RelicsTables(NamedTuple):
    """The compiled pool as the kernels read it (``tables.cards[card, C_*]``, ``tables.effects[card, e, E_*]``).

    A NamedTuple of arrays: Numba types it once and caches the kernels over it, and it is still a tuple, so the
    generic core (pool shape checks, fingerprints, pickling) reads it as before."""

    cards: np.ndarray  # int32 [cards, NUM_CARD_COLUMNS]
    effects: np.ndarray  # int32 [cards, MAX_EFFECTS, NUM_EFFECT_COLUMNS]


def _fail(card: dict, problem: str) -> CardPoolError:
    return CardPoolError(card["_path"], card["name"], problem)


def _check_card_rules(card: dict) -> None:
    """Rules the generic schema cannot express: what each card type may carry."""
    kind = card["type"]
    effects = card["effects"]
    if len(effects) > MAX_EFFECTS:
        raise _fail(card, f"field 'effects': at most {MAX_EFFECTS} effects, got {len(effects)}")
    for i, e in enumerate(effects):
        where = f"effect {i + 1} ({e['op']})"
        if e["trigger"] not in ALLOWED_TRIGGERS[kind]:
            allowed = ", ".join(ALLOWED_TRIGGERS[kind]) or "none"
            raise _fail(card, f"{where} key 'trigger': {e['trigger']!r} is not allowed on a {kind} (allowed: {allowed})")
        target = e.get("target") or "none"
        if target in ("own_one", "opp_one") and e["trigger"] not in ("cast", "act"):
            raise _fail(card, f"{where} key 'target': a chosen target ({target}) needs trigger cast or act")
        if e["trigger"] == "cont" and (e["op"] != "boost" or target not in ("self", "own_all", "opp_all")):
            raise _fail(card, f"{where} key 'op': a cont effect is a boost of self, own_all or opp_all")
        if e["trigger"] == "location" and target == "self":
            raise _fail(card, f"{where} key 'target': a location has no self")
        if e["leader"] and kind != "character":
            raise _fail(card, f"{where} key 'leader': the Leader skill is for character abilities")
        if e["condition"] != "none" and e["trigger"] != "location":
            raise _fail(card, f"{where} key 'condition': conditions are for location effects")
    chosen = [e for e in effects if (e.get("target") or "none") in ("own_one", "opp_one")]
    if len({e["target"] for e in chosen}) > 1:
        raise _fail(card, "field 'effects': at most one kind of chosen target (own_one or opp_one) per card")
    for i, e in enumerate(effects):  # a take-back is a decision that closes its trigger's resolution
        if e["op"] in PILE_OPS:
            if e["trigger"] not in ("cast", "act", "defeat", "location"):
                raise _fail(card, f"effect {i + 1} ({e['op']}) key 'trigger': a take-back needs trigger cast, act, "
                                  "defeat or location")
            if any(f["trigger"] == e["trigger"] for f in effects[i + 1:]):
                raise _fail(card, f"effect {i + 1} ({e['op']}): a take-back is the last effect of its trigger")
    if [e["trigger"] for e in effects].count("act") > 1:
        raise _fail(card, "field 'effects': at most one act ability per card")
    if kind == "character":
        if not card["class"]:
            raise _fail(card, "missing required field 'class' (a character has a class)")
        if card["def"] < 1:
            raise _fail(card, "field 'def': a character needs def >= 1")
        for key in ("requires", "qualifies", "relic_skills"):
            if card[key]:
                raise _fail(card, f"field {key!r}: not allowed on a character")
    elif card["class"] or card["descriptors"]:
        raise _fail(card, "field 'class': only characters have a class and descriptors")
    if kind == "spell" and card["school"] == "none":
        raise _fail(card, "field 'school': a spell is black, white or summon")
    if kind != "spell" and card["school"] != "none":
        raise _fail(card, "field 'school': only spells have a school")
    if kind in ("item", "spell") and not any(e["trigger"] == "cast" for e in effects):
        raise _fail(card, "field 'effects': an item or spell needs at least one trigger 'cast' effect")
    if kind not in ("item", "spell") and card["cost"] != "default":
        raise _fail(card, "field 'cost': only items and spells have a cost")
    if kind == "location":
        if not card["qualifies"]:
            raise _fail(card, "field 'qualifies': a location names the classes/descriptors that qualify a leader")
        if not card["relic_name"]:
            raise _fail(card, "field 'relic_name': a location has a relic on its back")
    elif card["relic_name"] or card["relic_att"] or card["relic_def"] or card["relic_skills"] or card["qualifies"]:
        raise _fail(card, "field 'relic_name': relic and qualifies fields are for locations")
    if kind != "equipment" and card["requires"]:
        raise _fail(card, "field 'requires': only equipment has requirements")
    if kind in ("location", "leader", "item", "spell") and (card["att"] or card["def"] or card["skills"]):
        raise _fail(card, f"field 'att': a {kind} has no att, def or skills")


def compile_pool(cards: list[dict]) -> tuple[RelicsTables, list[str], list[str]]:
    """Turn cleaned cards into the kernels' int tables; returns (tables, class names, descriptor names)."""
    classes: list[str] = []
    descriptors: list[str] = []
    for card in cards:
        if card["class"] and card["class"] not in classes:
            classes.append(card["class"])
        for d in card["descriptors"]:
            if d not in descriptors:
                descriptors.append(d)
    if len(classes) > MAX_CLASSES:
        raise CardPoolError(cards[-1]["_path"], None, f"at most {MAX_CLASSES} distinct classes, got {len(classes)}")
    if len(descriptors) > MAX_DESCRIPTORS:
        raise CardPoolError(cards[-1]["_path"], None,
                            f"at most {MAX_DESCRIPTORS} distinct descriptors, got {len(descriptors)}")

    def masks(card: dict, key: str, allow_skills: bool) -> tuple[int, int, int]:
        c = d = s = 0
        for name in card[key]:
            if name in classes:
                c |= 1 << classes.index(name)
            elif name in descriptors:
                d |= 1 << descriptors.index(name)
            elif allow_skills and name in SKILLS:
                s |= 1 << SKILLS.index(name)
            else:
                known = classes + descriptors + (list(SKILLS) if allow_skills else [])
                raise _fail(card, f"field {key!r}: unknown class or descriptor {name!r} (known: {', '.join(known)})")
        return c, d, s

    def skill_mask(names: Sequence[str]) -> int:
        return sum(1 << SKILLS.index(s) for s in set(names))

    ctab = np.zeros((len(cards), NUM_CARD_COLUMNS), dtype=np.int32)
    etab = np.full((len(cards), MAX_EFFECTS, NUM_EFFECT_COLUMNS), -1, dtype=np.int32)
    for cid, card in enumerate(cards):
        row = ctab[cid]
        kind = TYPES.index(card["type"])
        row[C_TYPE] = kind
        row[C_RARITY] = RARITIES.index(card["rarity"])
        row[C_ATT] = card["att"]
        row[C_DEF] = card["def"]
        row[C_CLASS] = classes.index(card["class"]) if card["class"] else -1
        row[C_DESC] = sum(1 << descriptors.index(d) for d in set(card["descriptors"]))
        row[C_SKILLS] = skill_mask(card["skills"])
        row[C_REQ_CLASS], row[C_REQ_DESC], row[C_REQ_SKILL] = masks(card, "requires", True)
        row[C_SCHOOL] = SCHOOLS.index(card["school"])
        cost = card["cost"]
        row[C_COST_DOWN] = int(cost == "down" or (cost == "default" and kind == T_SPELL))
        row[C_NEEDS_CASTER] = int(kind == T_SPELL or row[C_COST_DOWN] == 1)
        row[C_QUAL_CLASS], row[C_QUAL_DESC], _ = masks(card, "qualifies", False)
        row[C_RELIC_ATT] = card["relic_att"]
        row[C_RELIC_DEF] = card["relic_def"]
        row[C_RELIC_SKILLS] = skill_mask(card["relic_skills"])
        row[C_ACT] = -1
        for i, e in enumerate(card["effects"]):
            trig = TRIGGERS.index(e["trigger"])
            target = TARGETS.index(e.get("target") or "none")
            if trig == TR_ACT:
                row[C_ACT] = i
                row[C_ACT_LEADER] = int(e["leader"])
            row[C_HAS_CONT] |= int(trig == TR_CONT)
            row[C_HAS_ENTER] |= int(trig == TR_ENTER)
            row[C_HAS_DEFEAT] |= int(trig == TR_DEFEAT)
            if target == TG_OWN_ONE:
                row[C_ONE_TARGET] = ONE_OWN
            elif target == TG_OPP_ONE:
                row[C_ONE_TARGET] = ONE_OPP
            row[C_OPS] |= 1 << e["opcode"]
            etab[cid, i] = (
                trig,
                CONDITIONS.index(e["condition"]),
                int(e["leader"]),
                e["opcode"],
                target,
                e.get("n", 0) or 0,
                e.get("att", 0) or 0,
                e.get("def", 0) or 0,
                e.get("power", 0) or 0,
            )
    return RelicsTables(ctab, etab), classes, descriptors


class RelicsPool(CardPool):
    """A CardPool plus the class and descriptor names the text helpers need."""

    classes: list[str]
    descriptors: list[str]


def load_pool(paths: Sequence[Path | str] | None = None) -> CardPool:
    """Load, validate and compile a card pool (default: the package's cards.toml)."""
    paths = [Path(p) for p in (paths or [DEFAULT_POOL])]
    cards: list[dict] = []
    for path in paths:  # one file at a time so every card remembers its file for later errors
        for card in load_card_pool([path], CARD_SCHEMA, OPS, EFFECT_SCHEMA):
            card["_path"] = str(path)
            _check_card_rules(card)
            cards.append(card)
    names = [c["name"] for c in cards]
    for i, n in enumerate(names):
        if n in names[:i]:
            raise CardPoolError(cards[i]["_path"], n, "name already used in another pool file")
    if len(cards) > S.POOL_CAP:  # the observation counts public cards by card id (observe.public_cards)
        raise CardPoolError(cards[-1]["_path"], cards[-1]["name"], f"a pool holds at most {S.POOL_CAP} cards")
    tables, classes, descriptors = compile_pool(cards)
    pool = RelicsPool(paths=paths, cards=cards, tables=tables)
    pool.classes = classes
    pool.descriptors = descriptors
    return pool


def check_deck_rules(deck: Deck, pool: CardPool) -> None:
    """RL-D1/D2/D6 (sizes of the character deck, item deck, locations, leader), RL-D4/D5 (Common / Rare) and RL-D14
    (at most ``RES_VIEW`` different characters)."""
    ctab = pool.tables.cards
    kinds = ctab[deck.card_ids, C_TYPE] if len(deck) else np.zeros(0, np.int32)
    wanted = (
        ("characters", (T_CHARACTER,), S.CHAR_DECK_SIZE, "RL-D6"),
        ("item-deck cards (equipment, items, spells)", ITEM_DECK_TYPES, S.ITEM_DECK_SIZE, "RL-D6"),
        ("location/relic cards", (T_LOCATION,), S.NUM_LOCATIONS, "RL-D2"),
        ("leader cards", (T_LEADER,), S.NUM_LEADER_CARDS, "RL-D2"),
    )
    problems = []  # every broken rule is reported
    per_kind = np.bincount(kinds, minlength=len(TYPES)).tolist()
    for label, types, size, rule in wanted:
        n = sum(per_kind[t] for t in types)
        if n != size:
            problems.append(DeckError(deck.path, f"{n} {label}, a deck needs exactly {size}", rule=rule))
    distinct = np.unique(deck.card_ids[kinds == T_CHARACTER]).size
    if distinct > S.RES_VIEW:  # RL-D14 (engine limit): the reserves are observed and chosen in RES_VIEW slots
        problems.append(DeckError(deck.path, f"{distinct} different characters, a deck may hold at most {S.RES_VIEW} "
                                             f"(the observation and the reserve actions name {S.RES_VIEW} reserve "
                                             f"entries, which then always show one copy of each)", rule="RL-D14"))
    rare = ctab[deck.card_ids, C_RARITY] == 1
    problems += copy_problems(Deck(deck.name, deck.path, deck.card_ids[rare]), pool, S.MAX_RARE_COPIES, rule="RL-D5")
    problems += copy_problems(Deck(deck.name, deck.path, deck.card_ids[~rare]), pool, S.MAX_COMMON_COPIES,
                              rule="RL-D4")
    raise_problems(deck.path, problems)


def load_deck(path_or_name: str | Path, pool: CardPool) -> Deck:
    """A deck file (path or starter name) checked against the deck rules."""
    return read_deck(path_or_name, pool, DECK_DIR, check_deck_rules)
