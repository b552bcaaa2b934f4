"""Deck variants for the evaluation tests, built from a game's pool (imported by the test modules)."""
from __future__ import annotations

from pathlib import Path


def weakened_deck_file(spec, pool, base: str, n_replaced: int, folder: Path) -> Path:
    """A legal deck file: ``base`` with its ``n_replaced`` strongest characters (highest AP) swapped for the
    weakest legal characters of the pool (lowest AP, at most 3 copies each, not already in the deck)."""
    deck = spec.load_deck(base, pool)
    ids = list(deck.card_ids)
    chars = [i for i in range(len(pool)) if pool.cards[i]["type"] == "character"]
    strongest = sorted(set(ids) & set(chars), key=lambda i: (-pool.cards[i]["ap"], i))
    weakest = sorted(set(chars) - set(ids), key=lambda i: (pool.cards[i]["ap"], i))
    removed = 0
    for cid in strongest:
        while cid in ids and removed < n_replaced:
            ids.remove(cid)
            removed += 1
    fillers = [cid for cid in weakest for _ in range(3)][:n_replaced]
    ids.extend(fillers)
    counts: dict[str, int] = {}
    for cid in ids:
        counts[pool.name(int(cid))] = counts.get(pool.name(int(cid)), 0) + 1
    path = folder / f"{base}-weakened.toml"
    lines = [f'name = "{base} weakened"', 'description = "test deck: best characters replaced by the weakest"', "", "[cards]"]
    lines += [f'"{name}" = {n}' for name, n in counts.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def swapped_in_place(spec, pool, base: str, out_card: str, in_card: str):
    """``base`` with every copy of ``out_card`` replaced by ``in_card`` at the same positions (same shuffles)."""
    from cardenvs.core.decks import Deck

    deck = spec.load_deck(base, pool)
    ids = deck.card_ids.copy()
    assert (ids == pool.by_name[out_card]).any()
    ids[ids == pool.by_name[out_card]] = pool.by_name[in_card]
    return Deck(f"{base} variant", f"{base}-variant.toml", ids)
