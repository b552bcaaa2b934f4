"""Card pool and deck files: the starter decks are legal; every error names the file, the card and the rule/field.

Deck-building IDs: HB-D1..HB-D8. Card types and fighter attributes: HB-F1, HB-F3.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import tomllib

from cardenvs.core.errors import CardPoolError, DeckError
from cardenvs.games.heartbreak import SPEC, load_deck, load_pool
from cardenvs.games.heartbreak.cards import DEFAULT_POOL

POOL = load_pool()


def write_deck(tmp_path: Path, cards: dict[str, int], name: str = "deck.toml", extra: str = "") -> Path:
    body = "\n".join(f'"{k}" = {v}' for k, v in cards.items())
    path = tmp_path / name
    path.write_text(f'name = "test"\ndescription = "test deck"\n{extra}\n[cards]\n{body}\n')
    return path


def starter(name: str) -> dict[str, int]:
    return dict(tomllib.loads((SPEC.deck_dir / f"{name}.toml").read_text())["cards"])


def test_HB_F1_F3_pool_types_attributes_and_every_mechanic() -> None:
    """HB-F1 card types; HB-F3 fighter attributes; the pool exercises every keyword, op and trigger."""
    cards = POOL.cards
    assert {c["type"] for c in cards} == {"fighter", "support", "item", "climax"}
    fighters = [c for c in cards if c["type"] == "fighter"]
    assert {c["level"] for c in fighters} == {1, 2, 3}
    assert all(c["hp"] >= 10 and c["hp"] % 10 == 0 and c["actions"] for c in fighters)
    assert {c["condition"] for c in fighters} == {"none", "ally", "low_heart"}
    for key in ("armor", "ward", "counter", "baneful", "bypass", "turbo"):
        assert any(c[key] for c in cards), key
    assert {c["strike"] for c in cards} == {1, 2, 3}
    ops = {e["op"] for c in cards for e in c["effects"]}
    assert ops == {"damage", "heal", "draw", "charge_top", "overdrive", "heartbreak", "buff", "rise", "rest",
                   "swap_lead", "evolve", "stock_top", "negate", "silence", "add_heart"}
    assert {e["trigger"] for c in cards for e in c["effects"]} == {"call", "start_turn", "end_turn", "skill",
                                                                 "action", "play"}
    stats = {e["stat"] for c in cards for e in c["effects"] if e["op"] == "buff"}
    assert stats == {"armor", "ward", "counter", "hp", "attack", "strike", "bypass"}
    assert any(a["overdrive"] for c in cards for a in c["actions"]) and any(c["overdrive"] for c in cards)
    assert any(a["damage"] == 0 for c in cards for a in c["actions"])  # non-attack actions exist (HB-B2)
    assert any(c["cost"] for c in cards if c["type"] == "item")
    # evolution lines: same fighter name at levels 1, 2, 3
    lines: dict[str, set[int]] = {}
    for c in fighters:
        lines.setdefault(c["fighter_name"] or c["name"], set()).add(c["level"])
    assert sum(1 for levels in lines.values() if levels == {1, 2, 3}) >= 3


def test_starter_decks_are_legal_and_distinct() -> None:
    names = SPEC.starter_decks()
    assert {"blaze", "tide", "grove"} <= set(names)
    decks = [load_deck(n, POOL) for n in names]
    assert all(len(d) >= 50 for d in decks)
    assert len({tuple(sorted(d.card_ids.tolist())) for d in decks}) == len(decks)
    assert set(SPEC.default_decks) <= set(names)


def test_HB_D1_deck_needs_50_or_more_cards(tmp_path: Path) -> None:
    cards = starter("blaze")
    cards["Hunter's Mark"] -= 1
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "HB-D1" and str(path) in str(err.value) and "49" in str(err.value)
    cards = starter("tide")  # 51 cards: more than 50 is fine (no maximum printed)
    assert len(load_deck(write_deck(tmp_path, cards, "ok.toml"), POOL)) == 51


def test_HB_D9_a_deck_holds_at_most_60_cards(tmp_path: Path) -> None:
    cards = starter("tide")  # 51 cards
    extra = [k for k in POOL.by_name if POOL.cards[POOL.by_name[k]]["alliance"] == "free"]
    for name in extra:
        while sum(cards.values()) < 61 and cards.get(name, 0) < 4:
            cards[name] = cards.get(name, 0) + 1
    assert sum(cards.values()) == 61
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "HB-D9" and "61" in str(err.value)
    for name in extra:  # 60 is fine
        if cards.get(name, 0) > 0:
            cards[name] -= 1
            break
    assert len(load_deck(write_deck(tmp_path, cards, "ok.toml"), POOL)) == 60


def test_HB_D2_D6_at_most_four_of_a_title_and_each_level_is_a_title(tmp_path: Path) -> None:
    """HB-D2, HB-D6."""
    cards = starter("blaze")
    cards["Cinderwing Sovereign"] = 4  # 4 of each Cinderwing level: same name, three titles (HB-D6)
    cards["Hunter's Mark"] -= 1
    assert len(load_deck(write_deck(tmp_path, cards, "ok.toml"), POOL)) == 50
    cards["Cinderwing Hatchling"] = 5
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "HB-D2" and err.value.card == "Cinderwing Hatchling" and str(path) in str(err.value)


def test_HB_D3_D4_one_alliance_plus_free_cards(tmp_path: Path) -> None:
    """HB-D3, HB-D4."""
    cards = starter("blaze")
    assert POOL.cards[POOL.by_name["Wandering Sellsword"]]["alliance"] == "free"  # HB-D4: already in the deck
    cards["Hunter's Mark"] -= 1
    cards["Kelp Mail"] = 1  # a tide card
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "HB-D3" and err.value.card == "Kelp Mail" and str(path) in str(err.value)


def test_HB_D5_wild_format_ignores_alliance_only(tmp_path: Path) -> None:
    cards = starter("blaze")
    cards["Hunter's Mark"] -= 1
    cards["Kelp Mail"] = 1
    deck = load_deck(write_deck(tmp_path, cards, extra='format = "wild"'), POOL)
    assert len(deck) == 50
    cards["Kelp Mail"] = 5
    with pytest.raises(DeckError) as err:  # the copy limit still holds
        load_deck(write_deck(tmp_path, cards, "w2.toml", extra='format = "wild"'), POOL)
    assert err.value.rule == "HB-D2"
    with pytest.raises(DeckError, match="format"):
        load_deck(write_deck(tmp_path, starter("blaze"), "w3.toml", extra='format = "sealed"'), POOL)


def test_HB_D7_deck_needs_a_possible_starting_lead(tmp_path: Path) -> None:
    cards = {"Cinderwing Drake": 4, "Cinderwing Sovereign": 4, "Scorchmaw Brute": 4, "Pyre Duelist": 4,
             "Magma Tyrant": 4, "Firestarter Rations": 4, "Flash Burn": 4, "Emberforged Blade": 4,
             "Blaze of Glory": 4, "Final Flare": 4, "Reckless Gambit": 4, "Hunter's Mark": 4, "Second Wind": 2}
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "HB-D7" and str(path) in str(err.value)


def test_HB_D8_pool_declares_its_alliances_and_free_is_implied(tmp_path: Path) -> None:
    assert POOL.alliances == ["blaze", "tide", "grove", "free"]
    path = tmp_path / "pool.toml"
    path.write_text('[[card]]\nname = "X"\ntype = "support"\nalliance = "free"\n'
                    'effects = [{ trigger = "play", op = "draw" }]\n')
    with pytest.raises(CardPoolError, match="alliances"):
        load_pool([path])
    path.write_text('alliances = ["moon"]\n[[card]]\nname = "Bad"\ntype = "support"\nalliance = "sun"\n'
                    'effects = [{ trigger = "play", op = "draw" }]\n')
    with pytest.raises(CardPoolError) as err:
        load_pool([path])
    assert str(path) in str(err.value) and "'Bad'" in str(err.value) and "'alliance'" in str(err.value)


def test_unknown_card_and_unknown_starter_are_named(tmp_path: Path) -> None:
    cards = starter("blaze")
    cards["Nonexistent Dragon"] = 1
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.card == "Nonexistent Dragon" and str(path) in str(err.value)
    with pytest.raises(DeckError) as err:
        load_deck("no_such_deck", POOL)
    assert "blaze" in str(err.value)


HEAD = 'alliances = ["moon"]\n'
FIGHTER = '[[card]]\nname = "Bad"\ntype = "fighter"\nalliance = "moon"\nlevel = 1\nhp = 40\n'


@pytest.mark.parametrize(
    ("card", "needle"),
    [
        (FIGHTER.replace("hp = 40", 'hp = "big"'), "'hp'"),
        (FIGHTER.replace("hp = 40", "hp = 45"), "multiple of 10"),
        (FIGHTER.replace("level = 1", "level = 4"), "'level'"),
        (FIGHTER + 'actions = [{ name = "Hit", damage = 20, speed = 3 }]\n', "speed"),
        (FIGHTER + 'effects = [{ trigger = "skill", op = "draw" }]\n', "'index'"),
        (FIGHTER + 'effects = [{ trigger = "play", op = "draw" }]\n', "'effects'"),
        (FIGHTER + 'effects = [{ trigger = "call", op = "explode" }]\n', "unknown op"),
        (('[[card]]\nname = "Bad"\ntype = "support"\nalliance = "moon"\n'
          'effects = [{ trigger = "play", op = "negate" }]\n'), "negate"),
        (('[[card]]\nname = "Bad"\ntype = "climax"\nalliance = "moon"\nturbo = true\n'
          'effects = [{ trigger = "play", op = "draw" }]\n'), "'turbo'"),
        ('[[card]]\nname = "Bad"\ntype = "support"\nalliance = "moon"\n', "'effects'"),
        (FIGHTER + 'effects = [{ trigger = "call", op = "stock_top", n = 1, target = "own_all" }]\n', "stock_top"),
    ],
)
def test_malformed_card_pool_errors_name_file_card_and_field(tmp_path: Path, card: str, needle: str) -> None:
    path = tmp_path / "pool.toml"
    path.write_text(HEAD + card)
    with pytest.raises(CardPoolError) as err:
        load_pool([path])
    text = str(err.value)
    assert str(path) in text and "'Bad'" in text and needle in text, text


def test_malformed_toml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "pool.toml"
    path.write_text("[[card]]\nname = \n")
    with pytest.raises(CardPoolError) as err:
        load_pool([path])
    assert str(path) in str(err.value)


def test_new_card_with_existing_ops_needs_no_code(tmp_path: Path) -> None:
    extra = tmp_path / "extra.toml"
    extra.write_text('alliances = ["moon"]\n[[card]]\nname = "Moon Moth"\ntype = "fighter"\nalliance = "moon"\n'
                     'level = 1\nhp = 30\nward = 10\nactions = [{ name = "Dust", damage = 10 }]\n'
                     'effects = [{ trigger = "call", op = "overdrive", side = "opp" }]\n')
    pool = load_pool([DEFAULT_POOL, extra])
    assert pool.by_name["Moon Moth"] == len(pool) - 1 and "moon" in pool.alliances
