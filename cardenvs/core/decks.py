"""Deck files: ``name``, ``description`` and a ``[cards]`` table of card name -> copies.

Reading resolves card names against a pool and reports unknown names; the game's own deck-building rules (sizes,
copy limits, required cards) are checked by the game and raised as :class:`DeckError` naming file, card and rule.
"""
from __future__ import annotations

import difflib
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from .cards import CardPool, read_toml
from .errors import DeckError

#: deck files larger than this are refused before they are parsed (the largest real deck file is about 2 KB)
MAX_DECK_FILE_BYTES = 256 * 1024
#: more cards than any game's deck holds: counts are summed and checked against this before anything is allocated
MAX_DECK_CARDS = 1000


@dataclass(frozen=True)
class Deck:
    """A deck: card ids of a pool (sorted when read from a file or built by ``deckgen``, so two listings of the same
    cards are the same deck and play the same games).

    ``pool_key`` is the :attr:`CardPool.fingerprint` of the pool the ids were resolved against (None for a deck built
    by hand), and ``checked`` is set when the game's deck-building rules passed: a digest of those ids and that pool
    (:func:`deck_digest`), so a copy with other ids (``dataclasses.replace``, an edited array) is no longer checked.
    A BatchGame refuses a deck whose ``pool_key`` is another pool's, and checks the rules of any deck not checked.
    """

    name: str
    path: str
    card_ids: np.ndarray  # int32, one entry per card in the deck (sorted for decks read from files)
    description: str = ""
    pool_key: str | None = field(default=None, compare=False)
    checked: str = field(default="", compare=False)

    def __len__(self) -> int:
        return int(np.size(self.card_ids))

    def checked_for(self, pool: CardPool) -> bool:
        """True when the deck-building rules passed for exactly these ids against ``pool``."""
        return bool(self.checked) and self.checked == deck_digest(self.card_ids, pool.fingerprint)


def deck_digest(card_ids: np.ndarray, pool_key: str) -> str:
    import hashlib

    return hashlib.sha256(pool_key.encode() + np.asarray(card_ids, dtype=np.int64).tobytes()).hexdigest()[:24]


def resolve_deck_path(path_or_name: str | Path, deck_dir: Path) -> Path:
    """A starter deck's name (a string with no folder part and no ``.toml`` suffix, looked up in ``deck_dir``
    first, so a folder or file of that name in the working directory cannot shadow it), else a path."""
    if not isinstance(path_or_name, (str, os.PathLike)):
        raise DeckError(repr(path_or_name), "a deck is a starter deck name or a path to a deck file")
    text = os.fspath(path_or_name)
    if not isinstance(text, str) or not text or "\x00" in text:
        raise DeckError(repr(path_or_name), "a deck is a starter deck name or a path to a deck file")
    is_name = isinstance(path_or_name, str) and not any(sep in text for sep in ("/", "\\")) \
        and not text.endswith(".toml") and text not in (".", "..")
    if is_name:
        named = deck_dir / f"{text}.toml"
        if named.is_file():
            return named
    candidate = Path(text)
    if candidate.is_file() or not is_name:
        return candidate
    names = sorted(p.stem for p in deck_dir.glob("*.toml"))
    raise DeckError(text, f"no such deck file or starter deck{did_you_mean(text, names)} "
                          f"(starter decks: {', '.join(names)})")


def did_you_mean(text: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'X'?"`` for the closest of ``choices`` (case-insensitive), or "" when none is close."""
    by_lower = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(str(text).lower(), list(by_lower), n=2, cutoff=0.6)
    return "; did you mean " + " or ".join(repr(by_lower[c]) for c in close) + "?" if close else ""


class DeckProblems(DeckError):
    """Every problem found in one deck file (``errors``, each a :class:`DeckError` with a ``line`` where the file
    names its card), raised together so that a file with three mistakes takes one run to see them, not three."""

    def __init__(self, path: str, errors: list[DeckError]) -> None:
        def part(e: DeckError) -> str:
            return (f"card {e.card!r}: " if e.card else "") + e.problem + (f" [{e.rule}]" if e.rule else "")

        super().__init__(path, f"{len(errors)} problems: " + "; ".join(part(e) for e in errors))
        self.errors = list(errors)


def deck_problems(exc: DeckError) -> list[DeckError]:
    """The problems one :class:`DeckError` reports: its ``errors`` for :class:`DeckProblems`, else itself."""
    return list(getattr(exc, "errors", None) or [exc])


def raise_problems(path: str, errors: list[DeckError]) -> None:
    """Raise nothing for no error, the error itself for one, :class:`DeckProblems` for more."""
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise DeckProblems(path, errors)


_CARD_KEY = re.compile(r"""^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*=""")


def card_lines(path: str | Path) -> dict[str, int]:
    """Card name -> the line (from 1) of the deck file's ``[cards]`` table that names it, for error messages;
    empty where the file cannot be read (a hand-built deck's temporary file is gone)."""
    import json

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    lines: dict[str, int] = {}
    in_cards = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            in_cards = stripped.replace(" ", "") == "[cards]"
            continue
        match = _CARD_KEY.match(line) if in_cards else None
        if match:
            key = match.group(1)
            try:
                key = json.loads(key) if key.startswith('"') else key.strip("'")
            except ValueError:
                continue
            lines.setdefault(key, number)
    return lines


def _at(error: DeckError, lines: dict[str, int]) -> DeckError:
    error.line = lines.get(error.card) if error.card else None  # type: ignore[attr-defined]
    return error


def read_deck(
    path_or_name: str | Path,
    pool: CardPool,
    deck_dir: Path,
    rules: Callable[[Deck, CardPool], None] | None = None,
) -> Deck:
    """Load a deck file, resolve names against ``pool`` and check the game's deck-building ``rules``. Every problem
    of the file is reported in one :class:`DeckProblems` (one problem: that :class:`DeckError` alone)."""
    path = resolve_deck_path(path_or_name, deck_dir)
    data = read_toml(path, error=DeckError, max_bytes=MAX_DECK_FILE_BYTES)
    where = str(path)
    cards = data.get("cards")
    if not isinstance(cards, dict) or not cards:
        raise DeckError(where, "missing [cards] table of card name = copies")
    problems: list[DeckError] = []
    kept: dict[str, int] = {}
    total = 0
    for card_name, copies in cards.items():  # every count checked before anything is allocated
        if card_name not in pool.by_name:
            problems.append(DeckError(where, f"unknown card (not in the card pool)"
                                             f"{did_you_mean(card_name, pool.by_name)}", card=card_name))
        elif isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            problems.append(DeckError(where, f"copies must be a positive integer, got {copies!r}", card=card_name))
        elif total + copies > MAX_DECK_CARDS:
            problems.append(DeckError(where, f"more than {MAX_DECK_CARDS} cards (no game's deck holds that many)",
                                      card=card_name))
            break  # nothing past this many cards is allocated
        else:
            total += copies
            kept[card_name] = copies
    name = data.get("name", path.stem)
    if not isinstance(name, str):
        problems.append(DeckError(where, f"field 'name' must be a string, got {name!r}"))
        name = path.stem
    description = data.get("description", "")
    if not isinstance(description, str):
        problems.append(DeckError(where, f"field 'description' must be a string, got {type(description).__name__}"))
        description = ""
    if not kept:
        raise_problems(where, [_at(e, card_lines(path)) for e in problems])
    # a deck is a multiset: its ids are kept sorted, so the order a file lists its cards in changes nothing (issue
    # 38: eval kept the file's order and the deck search sorted it, and the pilots broke ties by deck-list slot)
    ids = np.sort(np.concatenate([np.full(copies, pool.by_name[n], dtype=np.int32) for n, copies in kept.items()]))
    deck = Deck(name=name, path=where, card_ids=ids, description=description, pool_key=pool.fingerprint,
                checked=deck_digest(ids, pool.fingerprint) if rules is not None else "")
    if rules is not None:
        # checked even when entries above were refused, so one run shows what fixing them would still leave
        dropped = sum(1 for e in problems if e.card)
        try:
            rules(deck, pool)
        except DeckError as exc:
            for e in deck_problems(exc):
                if dropped and not e.card:  # a count or a whole-deck rule: said of the cards that were read
                    e = DeckError(e.path, e.problem + f" (counting only the cards read: {dropped} entr"
                                  f"{'y' if dropped == 1 else 'ies'} above refused)", rule=e.rule)
                problems.append(e)
    raise_problems(where, [_at(e, card_lines(path)) for e in problems])
    return deck


def deck_toml(deck: Deck, pool: CardPool) -> str:
    """A deck file's text for ``deck`` (counts per card name, first-appearance order)."""
    import json

    names, counts = [], {}
    for card_id in deck.card_ids.tolist():
        card = pool.name(int(card_id))
        if card not in counts:
            names.append(card)
            counts[card] = 0
        counts[card] += 1

    def toml_string(text: str) -> str:
        # a JSON string is a TOML basic string, except that TOML has no \uD83D-style surrogate pairs (so characters
        # outside the BMP are written as themselves) and wants DEL escaped
        return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")

    lines = [f"name = {toml_string(deck.name)}", "", "[cards]"]
    lines += [f"{toml_string(card)} = {counts[card]}" for card in names]
    return "\n".join(lines) + "\n"


def check_deck(load_deck: Callable[[Any, CardPool], Deck], deck: Deck, pool: CardPool) -> None:
    """Check a hand-built :class:`Deck` against a game's deck-building rules, through the game's own ``load_deck``
    (the rules are written for deck files, so the deck goes through one); errors name the deck, not the file."""
    with tempfile.TemporaryDirectory(prefix="cardenvs-deck-") as folder:
        file = Path(folder) / "deck.toml"
        file.write_text(deck_toml(deck, pool), encoding="utf-8")
        try:
            load_deck(file, pool)
        except DeckError as exc:
            where = deck.path or deck.name
            errors = [DeckError(where, e.problem, card=e.card, rule=e.rule) for e in deck_problems(exc)]
            last = errors[-1]
            errors[-1] = DeckError(where, last.problem + " (a hand-built Deck is checked against the game's "
                                   "deck-building rules; BatchGame(..., check_decks=False) plays it unchecked)",
                                   card=last.card, rule=last.rule)
            try:
                raise_problems(where, errors)
            except DeckError as named:
                raise named from None


def copy_problems(deck: Deck, pool: CardPool, limit: int, rule: str) -> list[DeckError]:
    """One error for each card that appears more than ``limit`` times (a game's deck rules collect every problem
    and raise them together with :func:`raise_problems`)."""
    ids = np.asarray(deck.card_ids, dtype=np.int64)
    if ids.size and ids.min() >= 0:  # a count per card id: ~10x faster than np.unique (deck generation checks often)
        counts = np.bincount(ids)
        over = np.flatnonzero(counts > limit)
        found = zip(over.tolist(), counts[over].tolist())
    else:
        unique, counts = np.unique(ids, return_counts=True)
        found = ((int(c), int(n)) for c, n in zip(unique, counts) if n > limit)
    return [DeckError(deck.path, f"{count} copies, at most {limit} allowed", card=pool.name(card_id), rule=rule)
            for card_id, count in found]


def copy_limit(deck: Deck, pool: CardPool, limit: int, rule: str) -> None:
    """Raise if any card appears more than ``limit`` times (every such card in one error)."""
    raise_problems(deck.path, copy_problems(deck, pool, limit, rule))


def pack_decks(pairs: list[tuple[Deck, Deck]], max_deck: int) -> np.ndarray:
    """``int32[N, 2, max_deck]`` of card ids, -1 padded, for the batch kernels."""
    out = np.full((len(pairs), 2, max_deck), -1, dtype=np.int32)
    for i, pair in enumerate(pairs):
        for p, deck in enumerate(pair):
            out[i, p, : len(deck)] = deck.card_ids
    return out


__all__ = [
    "card_lines", "check_deck", "copy_limit", "copy_problems", "Deck", "deck_digest", "deck_problems", "deck_toml",
    "DeckProblems", "did_you_mean", "MAX_DECK_CARDS", "raise_problems",
    "MAX_DECK_FILE_BYTES", "pack_decks", "read_deck", "resolve_deck_path"
]
