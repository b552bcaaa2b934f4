"""Deck files: ``name``, ``description`` and a ``[cards]`` table of card name -> copies.

Reading resolves card names against a pool and reports unknown names; the game's own deck-building rules (sizes,
copy limits, required cards) are checked by the game and raised as :class:`DeckError` naming file, card and rule.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from .cards import CardPool, read_toml
from .errors import DeckError


@dataclass(frozen=True)
class Deck:
    name: str
    path: str
    card_ids: np.ndarray  # int32, one entry per card in the deck, in file order
    description: str = ""

    def __len__(self) -> int:
        return int(self.card_ids.size)


def resolve_deck_path(path_or_name: str | Path, deck_dir: Path) -> Path:
    """A path as given, or a starter deck's name looked up in ``deck_dir``."""
    candidate = Path(path_or_name)
    if candidate.suffix == ".toml" or candidate.exists():
        return candidate
    named = deck_dir / f"{path_or_name}.toml"
    if named.is_file():
        return named
    starters = ", ".join(sorted(p.stem for p in deck_dir.glob("*.toml")))
    raise DeckError(str(path_or_name), f"no such deck file or starter deck (starter decks: {starters})")


def read_deck(
    path_or_name: str | Path,
    pool: CardPool,
    deck_dir: Path,
    rules: Callable[[Deck, CardPool], None] | None = None,
) -> Deck:
    """Load a deck file, resolve names against ``pool`` and check the game's deck-building ``rules``."""
    path = resolve_deck_path(path_or_name, deck_dir)
    data = read_toml(path, error=DeckError)
    where = str(path)
    cards = data.get("cards")
    if not isinstance(cards, dict) or not cards:
        raise DeckError(where, "missing [cards] table of card name = copies")
    ids: list[int] = []
    for card_name, copies in cards.items():
        if card_name not in pool.by_name:
            raise DeckError(where, "unknown card (not in the card pool)", card=card_name)
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise DeckError(where, f"copies must be a positive integer, got {copies!r}", card=card_name)
        ids.extend([pool.by_name[card_name]] * copies)
    name = data.get("name", path.stem)
    if not isinstance(name, str):
        raise DeckError(where, f"field 'name' must be a string, got {name!r}")
    deck = Deck(name=name, path=where, card_ids=np.asarray(ids, dtype=np.int32), description=str(data.get("description", "")))
    if rules is not None:
        rules(deck, pool)
    return deck


def copy_limit(deck: Deck, pool: CardPool, limit: int, rule: str) -> None:
    """Raise if any card appears more than ``limit`` times."""
    ids, counts = np.unique(deck.card_ids, return_counts=True)
    for card_id, count in zip(ids, counts):
        if count > limit:
            raise DeckError(deck.path, f"{count} copies, at most {limit} allowed", card=pool.name(int(card_id)), rule=rule)


def pack_decks(pairs: list[tuple[Deck, Deck]], max_deck: int) -> np.ndarray:
    """``int32[N, 2, max_deck]`` of card ids, -1 padded, for the batch kernels."""
    out = np.full((len(pairs), 2, max_deck), -1, dtype=np.int32)
    for i, pair in enumerate(pairs):
        for p, deck in enumerate(pair):
            out[i, p, : len(deck)] = deck.card_ids
    return out
