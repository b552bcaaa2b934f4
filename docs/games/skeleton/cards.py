"""skeleton card schema, effect vocabulary, pool compilation and deck rules.

A card is ``name, power (1-9)`` plus ``effects``: a list of ``{trigger, op, <op args>}`` tables. The vocabulary has
one trigger (``win``: the card won its trick) and one op (``bonus``). The pool compiles to a :class:`Tables` named
tuple that every kernel takes as ``tables``. Adding a card built from the existing ops needs no code change; a new op
is a code in ``OPS``, its arguments in the effects table, and its branch in ``rules.resolve_effects``.
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple, Sequence

import numpy as np

from cardenvs.core.cards import CardPool, FieldSpec, OpSpec, load_card_pool
from cardenvs.core.decks import Deck, copy_limit, read_deck
from cardenvs.core.errors import CardPoolError, DeckError

from . import state as S

PACKAGE_DIR = Path(__file__).resolve().parent
DEFAULT_POOL = PACKAGE_DIR / "cards.toml"
DECK_DIR = PACKAGE_DIR / "decks"

TRIGGERS = ("win",)
TR_WIN = 0
OP_BONUS = 1  # 0 is "no effect" in the effects table
OPS: dict[str, OpSpec] = {
    "bonus": OpSpec(OP_BONUS, {"amount": FieldSpec("int", required=True, min=1, max=3)},
                    "the trick's winner scores `amount` more points"),
}
OP_NAMES = {spec.code: name for name, spec in OPS.items()}
CARD_SCHEMA: dict[str, FieldSpec] = {
    "name": FieldSpec("str", required=True),
    "power": FieldSpec("int", required=True, min=1, max=9, doc="the higher power wins a trick"),
}
EFFECT_SCHEMA: dict[str, FieldSpec] = {"trigger": FieldSpec("enum", required=True, choices=TRIGGERS)}

MAX_EFFECTS = 2  # effects per card
C_POWER, C_EFFECTS = 0, 1  # card table columns: power, number of effects
E_OP, E_AMOUNT = 0, 1  # effect table columns
MAX_COPIES = 3  # SK-D2


class Tables(NamedTuple):
    """A pool's compiled tables, read by name in the kernels (``tables.cards``)."""

    cards: np.ndarray  # int32 [n, 2]: C_POWER, C_EFFECTS
    effects: np.ndarray  # int32 [n, MAX_EFFECTS, 2]: E_OP, E_AMOUNT


def compile_tables(cards: list[dict]) -> Tables:
    table = np.zeros((len(cards), 2), dtype=np.int32)
    effects = np.zeros((len(cards), MAX_EFFECTS, 2), dtype=np.int32)
    for i, card in enumerate(cards):
        table[i, C_POWER] = card["power"]
        table[i, C_EFFECTS] = len(card["effects"])
        for k, effect in enumerate(card["effects"]):
            effects[i, k] = (OPS[effect["op"]].code, effect["amount"])
    return Tables(table, effects)


def load_pool(paths: Sequence[Path | str] | None = None) -> CardPool:
    """The card pool of ``paths`` (default: the game's own cards.toml), validated and compiled."""
    files = [Path(p) for p in paths] if paths else [DEFAULT_POOL]
    cards = load_card_pool(files, CARD_SCHEMA, OPS, EFFECT_SCHEMA)
    for card in cards:
        if len(card["effects"]) > MAX_EFFECTS:
            raise CardPoolError(str(files[0]), card["name"], f"field 'effects': at most {MAX_EFFECTS} effects")
    return CardPool(paths=files, cards=cards, tables=compile_tables(cards))


def deck_rules(deck: Deck, pool: CardPool) -> None:
    """SK-D1 exactly 12 cards; SK-D2 at most 3 copies of a card."""
    if len(deck) != S.DECK_SIZE:
        raise DeckError(deck.path, f"a deck holds exactly {S.DECK_SIZE} cards, not {len(deck)}", rule="SK-D1")
    copy_limit(deck, pool, MAX_COPIES, "SK-D2")


def load_deck(path_or_name: str | Path, pool: CardPool) -> Deck:
    """A deck file (or a starter deck's name) checked against the deck rules."""
    return read_deck(path_or_name, pool, DECK_DIR, deck_rules)
