"""levelneo card schema, pool compilation and deck rules.

A card is ``name, type (character|event), color, turn_cost, ap, traits`` plus ``effects``: a list of
``{trigger, condition, ..., op, <op args>}`` tables. The vocabulary and the table columns are declared in
``tables.py``; the pool compiles to :class:`~.tables.Tables`, the tables the kernels read by name:

* ``cards[n, NUM_CARD_COLUMNS]`` (int32): one row per card (columns ``C_*``);
* ``effects[n, MAX_EFFECTS, NUM_EFFECT_COLUMNS]`` (int32): each card's effects in file order (columns ``E_*``; unused
  rows have ``E_TRIGGER = -1``);
* ``features[n, CARD_SIZE]`` (the observation's dtype): each card's observation block as stored
  (``obs_layout.card_features``): the observation copies it instead of re-encoding the card for every slot.

Every AP and AP amount is a multiple of 100 (``obs_layout.AP_UNIT``): the observation stores AP in hundreds.

Adding a card that uses existing triggers, conditions, targets and ops needs no code change.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from cardenvs.core.cards import CardPool, FieldSpec, OpSpec, load_card_pool
from cardenvs.core.decks import Deck, copy_problems, raise_problems, read_deck
from cardenvs.core.errors import CardPoolError, DeckError

from . import state as S
from .obs_layout import AP_UNIT, card_features
from .tables import (
    AP_OPS, COLORS, CONDITIONS, C_AP, C_COLOR, C_EVENT_EFFECT, C_HAS_BURST, C_HAS_CONT, C_HAS_START, C_MAIN_OK,
    C_N_EFFECTS, C_TRAITS, C_TURN_COST, C_TYPE, C_USE_EFFECT, DURATIONS, E_N, E_OP, E_SKILL, E_TRIGGER, MAX_EFFECTS,
    MAX_POOL, MAX_TRAITS, NUM_CARD_COLUMNS, NUM_EFFECT_COLUMNS, OP_ACTIVATE, OP_AP_DOWN, OP_AP_UP, OP_DRAW, OP_LEVEL_UP,
    OP_NAMES, OP_OPP_DISCARD, OP_PREVENT_LEVEL_DOWN, OP_REST, PHASES, START_TRIGGERS, Tables, TARGETS, TG_OPP_ONE,
    TG_OWN_ONE, TRIGGERS, TR_BURST, TR_CONT, TR_END_TURN, TR_EVENT, TR_ON_ATTACK, TR_ON_PLAY, TR_ON_WIN, TR_USE, TURNS,
    TYPES, TYPE_CHARACTER,
)

PACKAGE_DIR = Path(__file__).resolve().parent
DEFAULT_POOL = PACKAGE_DIR / "cards.toml"
DECK_DIR = PACKAGE_DIR / "decks"

_AMOUNT = FieldSpec("int", required=True, min=100, max=10000, doc="AP amount")
_TARGET = FieldSpec("enum", required=True, choices=TARGETS, doc="which characters")
_DURATION = FieldSpec("enum", default="turn", choices=DURATIONS, doc="how long an AP change lasts")
_FILTER = FieldSpec("str", default="", doc="only characters with this trait")

OPS: dict[str, OpSpec] = {
    "ap_up": OpSpec(OP_AP_UP, {"amount": _AMOUNT, "target": _TARGET, "duration": _DURATION, "filter": _FILTER},
                    "AP +amount to the target characters for the duration"),
    "ap_down": OpSpec(OP_AP_DOWN, {"amount": _AMOUNT, "target": _TARGET, "duration": _DURATION, "filter": _FILTER},
                      "AP -amount to the target characters for the duration (AP never below 0)"),
    "draw": OpSpec(OP_DRAW, {"n": FieldSpec("int", default=1, min=1, max=3)}, "draw n cards"),
    "opp_discard": OpSpec(OP_OPP_DISCARD, {"n": FieldSpec("int", default=1, min=1, max=3)},
                          "the opponent discards n random cards from hand"),
    "prevent_level_down": OpSpec(OP_PREVENT_LEVEL_DOWN, {}, "your main character cannot level down this battle"),
    "rest": OpSpec(OP_REST, {"target": _TARGET, "filter": _FILTER}, "set the target characters to Rest"),
    "activate": OpSpec(OP_ACTIVATE, {"target": _TARGET, "filter": _FILTER}, "set the target characters Active"),
    "level_up": OpSpec(OP_LEVEL_UP, {}, "your main character levels up (top card of the deck, face down)"),
}
assert tuple(OPS) == OP_NAMES, "an op's code is its position in tables.OP_NAMES"

CARD_SCHEMA: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True),
    "type": FieldSpec("enum", required=True, choices=TYPES),
    "color": FieldSpec("enum", required=True, choices=COLORS),
    "turn_cost": FieldSpec("int", default=1, min=1, max=9),
    "ap": FieldSpec("int", default=0, min=0, max=20000),
    "traits": FieldSpec("list[str]", default=()),
    "flavor": FieldSpec("str", default=""),
}
EFFECT_SCHEMA: dict[str, FieldSpec] = {
    "trigger": FieldSpec("enum", required=True, choices=TRIGGERS),
    "condition": FieldSpec("enum", default="none", choices=CONDITIONS),
    "trait": FieldSpec("str", default="", doc="the trait of condition has_trait"),
    "level": FieldSpec("int", default=1, min=1, max=5, doc="(Lv #): the main character's level must be >= this"),
    "phase": FieldSpec("enum", default="any", choices=PHASES, doc="(Phase/...) tag of use and event effects"),
    "turn": FieldSpec("enum", default="any", choices=TURNS, doc="(.../Turn) tag of use and event effects"),
    "cost_rest": FieldSpec("bool", default=False, doc="use skills: rest this character as the cost"),
    "skill": FieldSpec("str", default="", doc="skill name for once-per-turn (default: the card name)"),
}



def _check_card_rules(path: str, card: dict) -> None:
    """Rules the generic schema cannot express: what each card type may carry."""
    name = card["name"]
    effects = card["effects"]
    if len(effects) > MAX_EFFECTS:
        raise CardPoolError(path, name, f"field 'effects': at most {MAX_EFFECTS} effects, got {len(effects)}")
    triggers = [e["trigger"] for e in effects]
    if card["ap"] % AP_UNIT:  # the observation stores AP in hundreds: another value would be rounded there
        raise CardPoolError(path, name, f"field 'ap': a multiple of {AP_UNIT}, got {card['ap']}")
    for i, e in enumerate(effects):
        amount = e.get("amount")
        if amount is not None and amount % AP_UNIT:
            raise CardPoolError(path, name, f"effect {i + 1} ({e['op']}) key 'amount': a multiple of {AP_UNIT}, "
                                            f"got {amount}")
    if card["type"] == "character":
        if card["ap"] <= 0:
            raise CardPoolError(path, name, "field 'ap': a character needs ap > 0")
        if "event" in triggers:
            raise CardPoolError(path, name, "field 'effects': trigger 'event' is only for event cards")
        if triggers.count("use") > 1:
            raise CardPoolError(path, name, "field 'effects': at most one 'use' skill per character")
    else:
        if card["ap"] != 0:
            raise CardPoolError(path, name, "field 'ap': an event has no AP")
        if "event" not in triggers:
            raise CardPoolError(path, name, "field 'effects': an event needs at least one trigger 'event' effect")
        bad = [t for t in triggers if t not in ("event", "burst")]
        if bad:
            raise CardPoolError(path, name, f"field 'effects': trigger {bad[0]!r} is not allowed on an event")
    for i, e in enumerate(effects):
        where = f"effect {i + 1} ({e['op']})"
        if e["condition"] == "has_trait" and not e["trait"]:
            raise CardPoolError(path, name, f"{where} key 'trait': condition has_trait needs a trait")
        target = e.get("target")
        if e["trigger"] == "cont":
            if OPS[e["op"]].code not in AP_OPS:
                raise CardPoolError(path, name, f"{where} key 'op': a cont skill can only change AP")
            if target in (TARGETS[TG_OWN_ONE], TARGETS[TG_OPP_ONE]):
                raise CardPoolError(path, name, f"{where} key 'target': {target!r} is not allowed in a cont skill")
        if e["trigger"] not in (TRIGGERS[TR_USE], TRIGGERS[TR_EVENT]) and (
            e["phase"] != "any" or e["turn"] != "any"
        ):
            raise CardPoolError(path, name, f"{where} key 'phase': (Phase/Turn) tags are for use and event effects")
        if e["cost_rest"] and e["trigger"] != "use":
            raise CardPoolError(path, name, f"{where} key 'cost_rest': only use skills have a rest cost")


def compile_pool(cards: list[dict], path: str) -> tuple[Tables, list[str], list[str]]:
    """Turn cleaned cards into the kernels' int tables; returns (tables, trait names, skill names)."""
    traits: list[str] = []
    for card in cards:
        for t in card["traits"]:
            if t not in traits:
                traits.append(t)
    if len(traits) > MAX_TRAITS:
        raise CardPoolError(path, None, f"at most {MAX_TRAITS} distinct traits, got {len(traits)}")
    if len(cards) > MAX_POOL:
        raise CardPoolError(path, None, f"at most {MAX_POOL} cards in a pool, got {len(cards)}")
    skills: list[str] = []

    def trait_mask(card: dict, value: str, key: str, index: int, op: str) -> int:
        if not value:
            return 0
        if value not in traits:
            known = ", ".join(traits)
            raise CardPoolError(card["_path"], card["name"],
                                f"effect {index + 1} ({op}) key {key!r}: unknown trait {value!r} (known: {known})")
        return 1 << traits.index(value)

    ctab = np.zeros((len(cards), NUM_CARD_COLUMNS), dtype=np.int32)
    etab = np.full((len(cards), MAX_EFFECTS, NUM_EFFECT_COLUMNS), -1, dtype=np.int32)
    for cid, card in enumerate(cards):
        row = ctab[cid]
        row[C_TYPE] = TYPES.index(card["type"])
        row[C_COLOR] = COLORS.index(card["color"])
        row[C_TURN_COST] = card["turn_cost"]
        row[C_AP] = card["ap"]
        row[C_TRAITS] = sum(1 << traits.index(t) for t in set(card["traits"]))
        row[C_N_EFFECTS] = len(card["effects"])
        row[C_USE_EFFECT] = -1
        row[C_EVENT_EFFECT] = -1
        row[C_MAIN_OK] = int(card["type"] == "character" and card["turn_cost"] == 1)
        for i, e in enumerate(card["effects"]):
            trig = TRIGGERS.index(e["trigger"])
            skill_name = e["skill"] or card["name"]
            if trig in (TR_USE, TR_EVENT):
                if skill_name not in skills:
                    skills.append(skill_name)
                skill = skills.index(skill_name)
            else:
                skill = -1
            if trig == TR_USE:
                row[C_USE_EFFECT] = i
            if trig == TR_EVENT and row[C_EVENT_EFFECT] < 0:
                row[C_EVENT_EFFECT] = i
            row[C_HAS_BURST] |= int(trig == TR_BURST)
            row[C_HAS_CONT] |= int(trig == TR_CONT)
            row[C_HAS_START] |= int(trig in START_TRIGGERS)
            etab[cid, i] = (
                trig,
                CONDITIONS.index(e["condition"]),
                trait_mask(card, e["trait"], "trait", i, e["op"]),
                e["level"],
                PHASES.index(e["phase"]),
                TURNS.index(e["turn"]),
                int(e["cost_rest"]),
                skill,
                e["opcode"],
                e.get("amount", 0) or 0,
                TARGETS.index(e["target"]) if e.get("target") else -1,
                DURATIONS.index(e.get("duration") or "turn"),
                trait_mask(card, e.get("filter", ""), "filter", i, e["op"]),
                e.get("n", 0) or 0,
            )
    if len(skills) > MAX_POOL:
        raise CardPoolError(path, None, f"at most {MAX_POOL} distinct skills (use and event), got {len(skills)}")
    return Tables(cards=ctab, effects=etab, features=np.ascontiguousarray(card_features(ctab))), traits, skills


class LevelNeoPool(CardPool):
    """A CardPool plus the names the text helpers need."""

    traits: list[str]
    skills: list[str]


def load_pool(paths: Sequence[Path | str] | None = None) -> CardPool:
    """Load, validate and compile a card pool (default: the package's cards.toml)."""
    paths = [Path(p) for p in (paths or [DEFAULT_POOL])]
    cards: list[dict] = []
    for path in paths:  # one file at a time so every card remembers its file for later errors
        for card in load_card_pool([path], CARD_SCHEMA, OPS, EFFECT_SCHEMA):
            card["_path"] = str(path)
            _check_card_rules(str(path), card)
            cards.append(card)
    names = [c["name"] for c in cards]
    for i, n in enumerate(names):
        if n in names[:i]:
            raise CardPoolError(cards[i]["_path"], n, "name already used in another pool file")
    tables, traits, skills = compile_pool(cards, str(paths[0]))
    pool = LevelNeoPool(paths=paths, cards=cards, tables=tables)
    pool.traits = traits
    pool.skills = skills
    return pool


#: the most characters that attack, or end a turn, on one side in one turn (main + full support zone, LN-A1/T10)
MAX_FIELD = 1 + S.SUPPORT_CAP


class _DrawsPerCard:
    """Each card's terms of :func:`hand_bound`, read from the pool's tables once: deck generation asks the bound of
    ~100,000 candidate decks, and reading the effect table per deck cost a training run 100 s at its start."""

    def __init__(self, pool: CardPool) -> None:
        ctab, etab = pool.tables.cards, pool.tables.effects
        drawn = np.where(etab[:, :, E_OP] == OP_DRAW, etab[:, :, E_N], 0).astype(np.int64)

        def draws(trigger: int) -> np.ndarray:
            return (drawn * (etab[:, :, E_TRIGGER] == trigger)).sum(axis=1)

        is_character = ctab[:, C_TYPE] == TYPE_CHARACTER
        effect = np.where(is_character, ctab[:, C_USE_EFFECT], ctab[:, C_EVENT_EFFECT]).astype(np.int64)
        rows = np.arange(len(ctab))
        self.tables = pool.tables
        self.is_character: list[bool] = is_character.tolist()
        #: the [Use] skill or event skill a card carries (-1: none) and the cards it draws once a turn (LN-K4); an
        #: event leaves the hand first
        self.skill: list[int] = np.where(effect >= 0, etab[rows, np.maximum(effect, 0), E_SKILL], -1).tolist()
        self.skill_draws: list[int] = np.where(is_character, draws(TR_USE),
                                               np.maximum(draws(TR_EVENT) - 1, 0)).tolist()
        self.on_play: list[int] = np.maximum(draws(TR_ON_PLAY) - 1, 0).tolist()  # a support leaves the hand first
        self.on_win: list[int] = draws(TR_ON_WIN).tolist()
        self.attack_and_win: list[int] = (draws(TR_ON_ATTACK) + draws(TR_ON_WIN)).tolist()
        self.end_turn: list[int] = draws(TR_END_TURN).tolist()
        self.burst: list[int] = draws(TR_BURST).tolist()


def _draws_per_card(pool: CardPool) -> _DrawsPerCard:
    """The pool's :class:`_DrawsPerCard`, made on first use (and again if the pool's tables were replaced)."""
    cached = getattr(pool, "_draws_per_card", None)
    if cached is None or cached.tables is not pool.tables:
        cached = _DrawsPerCard(pool)
        pool._draws_per_card = cached  # type: ignore[attr-defined]
    return cached


def hand_bound(card_ids: Sequence[int], pool: CardPool) -> tuple[int, str]:
    """LN-D5: an upper bound on the cards a player holding a deck of these cards can ever have in hand, and the
    largest terms of it (for the error message).

    Every turn starts with both hands at 6 or fewer (LN-S3/S4; LN-T7 discards both hands down to 6), and a hand grows
    only by ``draw`` effects and the turn player's draw (LN-T1). Within one turn a player draws at most:

    * 1 at the start of its turn;
    * per distinct [Use] skill or event skill, once (LN-K4): its draws (an event leaves the hand first: draws - 1);
    * on_play: 2 supports a turn (LN-T2/T6), each leaving the hand first (draws - 1);
    * on_attack and on_win of its attackers: each character attacks once (LN-A1), at most 5 on the field;
    * end_turn: its at most 5 characters;
    * as the defender, on_win: one winner a battle, at most 5 battles a turn;
    * bursts: a revealed card stays face up until it leaves for the discard pile (LN-B5), so each card bursts at
      most once a game; the turn player's main fights one battle a turn (its 4 level cards at most).

    (Lv #) requirements and conditions are ignored: the bound is a bound, not the likely hand.
    """
    per_card = _draws_per_card(pool)
    ids = [int(c) for c in card_ids]

    def top(values: list[int], k: int) -> int:
        return sum(sorted(values, reverse=True)[:k])

    chars = [c for c in ids if per_card.is_character[c]]
    skills: dict[int, int] = {}
    for c in set(ids):
        skill = per_card.skill[c]
        if skill >= 0:
            skills[skill] = max(skills.get(skill, 0), per_card.skill_draws[c])
    bursts = [per_card.burst[c] for c in ids]
    terms_turn = {
        "the turn's draw": 1,
        "[Use] skills and events": sum(skills.values()),
        "on_play": top([per_card.on_play[c] for c in chars], 2),
        "on_attack and on_win": top([per_card.attack_and_win[c] for c in chars], MAX_FIELD),
        "end_turn": top([per_card.end_turn[c] for c in chars], MAX_FIELD),
        "Level Bursts": top(bursts, S.LEVEL_CAP),
    }
    terms_defender = {
        "[Use] skills and events": sum(skills.values()),
        "on_win": MAX_FIELD * max([per_card.on_win[c] for c in chars], default=0),
        "Level Bursts": sum(bursts),
    }
    turn, defender = sum(terms_turn.values()), sum(terms_defender.values())
    terms, role = (terms_turn, "in its own turn") if turn >= defender else (terms_defender, "in the opponent's turn")
    parts = ", ".join(f"{name} {n}" for name, n in terms.items() if n)
    return S.MAX_KEPT_HAND + max(turn, defender), f"{S.MAX_KEPT_HAND} kept + draws {role}: {parts}"


def check_deck_rules(deck: Deck, pool: CardPool) -> None:
    """LN-D1..D3, LN-D5 (LN-D4, colour cost, is a play rule checked by the kernels); every broken rule is reported."""
    problems = []
    if len(deck) != S.DECK_SIZE:
        problems.append(DeckError(deck.path, f"{len(deck)} cards, a deck needs exactly {S.DECK_SIZE}", rule="LN-D1"))
    problems += copy_problems(deck, pool, S.MAX_COPIES, rule="LN-D2")
    ctab = pool.tables.cards
    if not any(ctab[int(c), C_MAIN_OK] for c in deck.card_ids):
        problems.append(DeckError(deck.path, "no turn-cost-1 character to be the main character", rule="LN-D3"))
    bound, why = hand_bound(deck.card_ids, pool)
    if bound > S.HAND_CAP:  # the action and observation spaces hold 16 hand cards
        problems.append(DeckError(deck.path, f"its draw effects could put {bound} cards in one hand ({why}); a hand "
                                             f"holds at most {S.HAND_CAP}: take out some draw cards", rule="LN-D5"))
    raise_problems(deck.path, problems)


def load_deck(path_or_name: str | Path, pool: CardPool) -> Deck:
    """A deck file (path or starter name) checked against LN-D1..D3."""
    return read_deck(path_or_name, pool, DECK_DIR, check_deck_rules)
