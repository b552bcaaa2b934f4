"""Random legal decks and one-card deck moves, for every game (issue 17: deck search, balance, deck-general training).

Every game checks its deck-building rules (sizes, copy limits, alliances, series, required cards) when a deck is
loaded. This module never restates those rules: a move is kept only if the game's own validator accepts the deck
it makes. A random deck is a random starter deck after many random legal moves, so it is legal by construction,
varied, and reproducible from the seed.

* :func:`random_deck` ``(game, rng, pool=None) -> Deck``: a random legal deck.
* :func:`legal_moves` / :func:`neighbours` / :func:`random_move`: the one-card moves (swap one card for another;
  add or remove one card where the game's deck size allows it) that lead to legal decks, for search.
* :func:`deck_from_names`, :func:`deck_from_ids`, :func:`write_deck`, :func:`deck_key`: building, comparing and
  saving decks (deck files read back with the game's ``load_deck``).

Decks made here keep their card ids sorted (one canonical order per multiset of cards), are marked checked against
the pool (``Deck.checked``) and carry the pool's fingerprint, so a BatchGame plays them as they are.
"""
from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from .cards import CardPool
from .decks import Deck, check_deck, deck_digest, deck_toml, did_you_mean
from .errors import DeckError

__all__ = [
    "Move", "DeckRules", "deck_rules", "random_deck", "random_decks", "legal_moves", "swap_moves", "neighbours",
    "random_move", "apply_move", "deck_from_ids", "deck_from_names", "deck_counts", "deck_key", "write_deck",
    "load_game_pool", "starter_decks", "named_starter_decks",
]

#: random legal moves applied to a starter deck by :func:`random_deck` (per card of the deck, at least 20)
SWAPS_PER_CARD = 2


@dataclass(frozen=True)
class Move:
    """One deck move: take out one copy of card ``remove`` and put in one copy of card ``add``; either may be None
    (an add or a removal alone, for games whose deck size may change)."""

    remove: int | None
    add: int | None

    def describe(self, pool: CardPool) -> str:
        if self.remove is None:
            return f"+{pool.name(self.add)}"
        if self.add is None:
            return f"-{pool.name(self.remove)}"
        return f"-{pool.name(self.remove)} +{pool.name(self.add)}"


def _spec(game: Any):
    if isinstance(game, str):
        from .registry import get_game

        return get_game(game)
    return game


def load_game_pool(game: Any, pool: CardPool | Sequence[str | Path] | None = None) -> CardPool:
    """``pool`` as a CardPool: the given one, the game's pool loaded from ``pool`` (paths), or its default pool."""
    if isinstance(pool, CardPool):
        return pool
    spec = _spec(game)
    return spec.load_pool([Path(p) for p in pool] if pool else None)


class DeckRules:
    """A game's deck-building rules as a predicate on card ids, for one pool.

    It calls the rule function the game's ``load_deck`` applies to a deck file (``check_deck_rules`` or
    ``deck_rules`` in the module that defines ``load_deck``) directly on an in-memory deck; a game without such a
    function is checked through its ``load_deck`` on a temporary deck file (:func:`cardenvs.core.decks.check_deck`),
    which is slower but always the game's own path. Results are cached per multiset of cards.
    """

    def __init__(self, game: Any, pool: CardPool):
        self.spec = _spec(game)
        self.pool = pool
        self._cache: dict[tuple[int, ...], str | None] = {}
        self._direct = self._find_direct()

    def _find_direct(self) -> Callable[[Deck, CardPool], None] | None:
        module = sys.modules.get(getattr(self.spec.load_deck, "__module__", ""), None)
        for attr in ("check_deck_rules", "deck_rules"):
            fn = getattr(module, attr, None)
            if callable(fn):
                try:
                    params = [p for p in inspect.signature(fn).parameters.values()
                              if p.default is inspect.Parameter.empty]
                except (TypeError, ValueError):
                    continue
                if len(params) == 2:
                    return fn
        return None

    def problem(self, card_ids: Iterable[int]) -> str | None:
        """None when the deck of these card ids is legal, else the game's error message."""
        key = deck_key(card_ids)
        if key in self._cache:
            return self._cache[key]
        if key and (key[0] < 0 or key[-1] >= len(self.pool)):  # sorted: the ends say whether all are in range
            result: str | None = "card id outside the pool"
        else:
            deck = Deck(name="candidate", path="<candidate deck>", card_ids=np.asarray(key, dtype=np.int32))
            try:
                if self._direct is not None:
                    self._direct(deck, self.pool)
                else:
                    check_deck(self.spec.load_deck, deck, self.pool)
                result = None
            except DeckError as exc:
                result = str(exc)
        if len(self._cache) > 20_000:  # a relics key is ~700 bytes: at most ~15 MB
            self._cache.clear()
        self._cache[key] = result
        return result

    def legal(self, card_ids: Iterable[int]) -> bool:
        return self.problem(card_ids) is None


_RULES: dict[tuple[str, str], DeckRules] = {}


def deck_rules(game: Any, pool: CardPool) -> DeckRules:
    """The (shared, cached) :class:`DeckRules` of ``game`` for ``pool``."""
    spec = _spec(game)
    key = (spec.name, pool.fingerprint)
    rules = _RULES.get(key)
    if rules is None or rules.pool is not pool:
        rules = _RULES[key] = DeckRules(spec, pool)
    return rules


def deck_key(deck: Deck | Iterable[int]) -> tuple[int, ...]:
    """The deck's cards as a sorted tuple of card ids: equal for two decks with the same cards in any order."""
    ids = deck.card_ids if isinstance(deck, Deck) else deck
    if isinstance(ids, tuple) and set(map(type, ids)) <= {int}:  # the moves' own keys: already plain ints
        return tuple(sorted(ids))
    return tuple(np.sort(np.asarray(list(ids) if not isinstance(ids, np.ndarray) else ids, dtype=np.int64).ravel())
                 .tolist())


def deck_counts(deck: Deck, pool: CardPool) -> dict[str, int]:
    """Copies per card name, in pool order."""
    ids, counts = np.unique(np.asarray(deck.card_ids, dtype=np.int64), return_counts=True)
    return {pool.name(int(i)): int(n) for i, n in zip(ids, counts)}


def deck_from_ids(card_ids: Iterable[int], pool: CardPool, name: str = "generated", game: Any = None,
                  description: str = "", path: str = "") -> Deck:
    """A Deck of these card ids (sorted). With ``game``, the game's deck rules are checked (DeckError if they fail)
    and the deck is marked checked; without it the deck is unchecked (a BatchGame checks it when it is played)."""
    ids = np.asarray(sorted(int(c) for c in card_ids), dtype=np.int32)
    checked = ""
    if game is not None:
        problem = deck_rules(game, pool).problem(ids)
        if problem is not None:
            raise DeckError(path or name, f"not a legal deck: {problem}")
        checked = deck_digest(ids, pool.fingerprint)
    label = path or name.replace("/", "-").replace("\\", "-")  # tournaments label a deck by its path's stem
    return Deck(name=name, path=label, card_ids=ids, description=description, pool_key=pool.fingerprint,
                checked=checked)


def deck_from_names(cards: Mapping[str, int] | Iterable[str], pool: CardPool, name: str = "generated",
                    game: Any = None, description: str = "") -> Deck:
    """A Deck from ``{card name: copies}`` or a list of card names (one entry per copy), names spelled as in the
    pool (the deck files' spelling); unknown names raise DeckError with a "did you mean" suggestion."""
    items = list(cards.items()) if isinstance(cards, Mapping) else [(n, 1) for n in cards]
    ids: list[int] = []
    for card, copies in items:
        if card not in pool.by_name:
            raise DeckError(f"<{name}>", f"unknown card (not in the card pool){did_you_mean(card, pool.by_name)}",
                            card=str(card))
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise DeckError(f"<{name}>", f"copies must be a positive integer, got {copies!r}", card=card)
        ids += [pool.by_name[card]] * copies
    return deck_from_ids(ids, pool, name=name, game=game, description=description)


def write_deck(deck: Deck, pool: CardPool, path: str | Path, description: str | None = None) -> Path:
    """Write ``deck`` as a deck file the game's ``load_deck`` reads back (name, description, [cards])."""
    import json

    text = deck_toml(deck, pool)
    desc = deck.description if description is None else description
    if desc:
        first, rest = text.split("\n", 1)
        text = f"{first}\ndescription = {json.dumps(desc)}\n{rest}"
    path = Path(path)
    path.write_text(text, encoding="utf-8")
    return path


def starter_decks(game: Any, pool: CardPool) -> list[Deck]:
    """The game's starter decks (sorted by name) loaded against ``pool``; starters using cards ``pool`` lacks are
    skipped."""
    return [deck for _, deck in named_starter_decks(game, pool)]


def named_starter_decks(game: Any, pool: CardPool) -> list[tuple[str, Deck]]:
    """:func:`starter_decks` with each deck's file name (``"weak"``, as deck arguments and configs spell it)."""
    spec = _spec(game)
    out = []
    for name in spec.starter_decks():
        try:
            out.append((name, spec.load_deck(name, pool)))
        except DeckError:
            continue
    return out


def apply_move(deck: Deck | Sequence[int], move: Move) -> tuple[int, ...]:
    """The sorted card ids after ``move`` (no legality check)."""
    ids = list(deck_key(deck))
    if move.remove is not None:
        ids.remove(int(move.remove))
    if move.add is not None:
        ids.append(int(move.add))
    return tuple(sorted(ids))


def _candidate_moves(key: tuple[int, ...], n_pool: int, resize: bool) -> list[Move]:
    present = sorted(set(key))
    moves = [Move(r, a) for r in present for a in range(n_pool) if a != r]
    if resize:
        moves += [Move(None, a) for a in range(n_pool)] + [Move(r, None) for r in present]
    return moves


def legal_moves(deck: Deck | Sequence[int], pool: CardPool, game: Any, resize: bool = True) -> list[Move]:
    """Every one-card move from ``deck`` whose result the game's deck rules accept, in a fixed order (swaps by removed
    card, then added card, both by card id; then adds, then removals). ``resize=False`` keeps only swaps."""
    rules = deck_rules(game, pool)
    key = deck_key(deck)
    return [m for m in _candidate_moves(key, len(pool), resize) if rules.legal(apply_move(key, m))]


def swap_moves(deck: Deck | Sequence[int], pool: CardPool, game: Any, rng: Any = None,
               resize: bool = False) -> list[Move]:
    """The legal one-card swaps from ``deck`` (see :func:`legal_moves`), shuffled by ``rng`` when one is given."""
    moves = legal_moves(deck, pool, game, resize=resize)
    if rng is not None:
        gen = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
        order = gen.permutation(len(moves))
        moves = [moves[i] for i in order]
    return moves


def random_move(deck: Deck | Sequence[int], pool: CardPool, game: Any, rng: Any,
                resize: bool = True, tries: int = 200) -> Move | None:
    """One uniformly drawn legal move (rejection sampling over the candidate moves, then a full scan), or None when
    the deck has no legal move."""
    gen = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    rules = deck_rules(game, pool)
    key = deck_key(deck)
    present = sorted(set(key))
    n = len(pool)
    for _ in range(tries):
        kind = int(gen.integers(0, 4)) if resize else 0  # 0, 1: swap; 2: add; 3: remove
        if kind <= 1:
            move = Move(present[int(gen.integers(0, len(present)))], int(gen.integers(0, n)))
            if move.add == move.remove:
                continue
        elif kind == 2:
            move = Move(None, int(gen.integers(0, n)))
        else:
            move = Move(present[int(gen.integers(0, len(present)))], None)
        if rules.legal(apply_move(key, move)):
            return move
    moves = legal_moves(key, pool, game, resize=resize)
    return moves[int(gen.integers(0, len(moves)))] if moves else None


def neighbours(deck: Deck, pool: CardPool, game: Any, rng: Any = None, n: int | None = None,
               resize: bool = True) -> list[tuple[Move, Deck]]:
    """Legal decks one move away from ``deck``: ``(move, deck)`` pairs, all of them (fixed order) or ``n`` drawn
    without replacement by ``rng``. Each deck is named ``"<deck name> <move>"`` and marked checked."""
    moves = legal_moves(deck, pool, game, resize=resize)
    if n is not None and n < len(moves):
        gen = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
        moves = [moves[i] for i in sorted(gen.choice(len(moves), size=n, replace=False).tolist())]
    out = []
    for m in moves:
        ids = apply_move(deck, m)
        out.append((m, deck_from_ids(ids, pool, name=f"{deck.name} {m.describe(pool)}", game=game)))
    return out


def random_deck(game: Any, rng: Any, pool: CardPool | Sequence[str | Path] | None = None,
                start: Deck | str | None = None, swaps: int | None = None, resize: bool = True,
                name: str | None = None) -> Deck:
    """A random legal deck of ``game``.

    ``rng`` is a seed or a numpy Generator (the same seed gives the same deck). The deck starts as ``start`` (a Deck
    or a starter deck name; default: a starter deck drawn by ``rng``) and then takes ``swaps`` random legal moves
    (default: :data:`SWAPS_PER_CARD` per card, at least 20): one-card swaps, plus single adds and removals where the
    game's deck size may change (``resize``). Each move is kept only if the game's deck rules accept the result, so
    the deck is legal; it is returned checked (``Deck.checked``), with card ids sorted.
    """
    spec = _spec(game)
    pool = load_game_pool(spec, pool)
    gen = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    if start is None:
        start_deck = _draw_starter(spec, starter_decks(spec, pool), gen)
    elif isinstance(start, Deck):
        start_deck = start
    else:
        start_deck = spec.load_deck(start, pool)
    return _random_walk(spec, pool, gen, start_deck, swaps, resize, name)


def _draw_starter(spec: Any, starters: list[Deck], gen: np.random.Generator) -> Deck:
    if not starters:
        raise DeckError(str(spec.deck_dir), "no starter deck loads against this pool: pass start=")
    return starters[int(gen.integers(0, len(starters)))]


def _random_walk(spec: Any, pool: CardPool, gen: np.random.Generator, start_deck: Deck, swaps: int | None,
                 resize: bool, name: str | None) -> Deck:
    """:func:`random_deck` from its start deck on."""
    key = deck_key(start_deck)
    rules = deck_rules(spec, pool)
    if not rules.legal(key):
        raise DeckError(start_deck.path, f"the start deck is not legal: {rules.problem(key)}")
    steps = max(20, SWAPS_PER_CARD * len(key)) if swaps is None else int(swaps)
    if resize:  # a game whose deck size is fixed: no add or removal is ever legal, so draw swaps only
        present = sorted(set(key))
        resize = any(rules.legal(apply_move(key, Move(None, a))) for a in range(len(pool))) or any(
            rules.legal(apply_move(key, Move(r, None))) for r in present)
    for _ in range(steps):
        move = random_move(key, pool, spec, gen, resize=resize)
        if move is None:
            break
        key = apply_move(key, move)
    label = name or f"random {spec.name} deck (from {start_deck.name})"
    return deck_from_ids(key, pool, name=label, game=spec,
                         description=f"random legal deck: {steps} random moves from {start_deck.name}")


def random_decks(game: Any, n: int, seed: int, pool: CardPool | Sequence[str | Path] | None = None,
                 start: Deck | str | None = None, swaps: int | None = None, resize: bool = True) -> list[Deck]:
    """``n`` random legal decks from one seed (deck ``i`` is the same whatever ``n`` is); ``start``, ``swaps`` and
    ``resize`` as in :func:`random_deck`."""
    spec = _spec(game)
    pool = load_game_pool(spec, pool)
    from .batch import seed_sequence  # any integer seed, as everywhere (negative ones too; issue 43)

    seqs = seed_sequence(seed).spawn(n)
    if start is not None:
        return [random_deck(spec, np.random.default_rng(s), pool=pool, start=start, swaps=swaps, resize=resize,
                            name=f"random-{seed}-{i}") for i, s in enumerate(seqs)]
    starters = starter_decks(spec, pool)  # what random_deck does for each deck, with the files read once
    decks = []
    for i, s in enumerate(seqs):
        gen = np.random.default_rng(s)
        decks.append(_random_walk(spec, pool, gen, _draw_starter(spec, starters, gen), swaps, resize,
                                  f"random-{seed}-{i}"))
    return decks
