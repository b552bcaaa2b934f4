"""Card pool and deck files: the starter decks are legal; every error names the file, the card and the rule/field.

Deck-building IDs: HB-D1..HB-D9. Card types and fighter attributes: HB-F1, HB-F3.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import tomllib

from cardenvs.core.errors import CardPoolError, DeckError
from cardenvs.games.heartbreak import SPEC, load_deck, load_pool
from cardenvs.games.heartbreak.cards import DEFAULT_POOL
from cardenvs.games.heartbreak.tables import C_LEAD_OK
from cardenvs.games.heartbreak.state import MAX_COPIES, MAX_DECK, MAX_TITLES
from pool_files import pool_error, pool_with  # tests/pool_files.py

POOL = load_pool()


def legal_ids(g, name: str) -> list[int]:
    """Indices inside the action range ``name`` that are legal for the player to act in row 0."""
    from cardenvs.games.heartbreak.actions import ACTIONS

    m = g.legal_mask()[0]
    start = ACTIONS.offset(name)
    return [int(a) - start for a in np.flatnonzero(m) if start <= a < start + ACTIONS[name].size]


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


def test_HB_D1_D9_no_maximum_deck_size_61_cards_and_four_of_every_title_load(tmp_path: Path) -> None:
    """HB-D1, HB-D9 (rules version 2): "50 or more" has no maximum. A 61-card deck is legal (version 1 refused it), and
    so is the largest deck HB-D2 allows: 4 copies of every title of the pool (wild format), which the state holds."""
    cards = starter("tide")  # 51 cards
    extra = [k for k in POOL.by_name if POOL.cards[POOL.by_name[k]]["alliance"] == "free"]
    for name in extra:
        while sum(cards.values()) < 61 and cards.get(name, 0) < 4:
            cards[name] = cards.get(name, 0) + 1
    assert sum(cards.values()) == 61
    assert len(load_deck(write_deck(tmp_path, cards), POOL)) == 61
    everything = {name: 4 for name in POOL.by_name}
    deck = load_deck(write_deck(tmp_path, everything, "all.toml", extra='format = "wild"'), POOL)
    assert len(deck) == 4 * len(POOL.by_name) == 208
    assert MAX_DECK == MAX_COPIES * MAX_TITLES >= len(deck)  # no legal deck is wider than the state


def test_HB_D9_a_pool_holds_at_most_60_titles_so_every_legal_deck_fits(tmp_path: Path) -> None:
    """HB-D9: the state holds 4 copies of 60 titles; a pool of 61 titles is refused when it is loaded (naming the file
    and the reason), never a deck built from it."""
    body = 'alliances = ["moon"]\n' + "".join(
        f'[[card]]\nname = "Card {i}"\ntype = "support"\nalliance = "moon"\n'
        'effects = [{ trigger = "play", op = "draw" }]\n' for i in range(MAX_TITLES + 1))
    path = tmp_path / "pool.toml"
    path.write_text(body)
    with pytest.raises(CardPoolError) as err:
        load_pool([path])
    assert str(path) in str(err.value) and "61" in str(err.value) and "60" in str(err.value)
    path.write_text(body[:body.rindex("[[card]]")])
    assert len(load_pool([path]).by_name) == MAX_TITLES


def test_HB_D9_a_game_with_208_card_decks_plays_to_its_end(tmp_path: Path) -> None:
    """HB-D9, HB-S1, HB-E3: decks of 4 copies of every title play to the end with every card conserved, and the setup
    choice offers one action per distinct Lead-capable card of a 208-card deck (the first copies are instances below
    the 60 setup actions)."""
    from cardenvs.core.batch import BatchGame
    from cardenvs.testing import check_conservation

    everything = {name: 4 for name in POOL.by_name}
    big = load_deck(write_deck(tmp_path, everything, "all.toml", extra='format = "wild"'), POOL)
    g = BatchGame(SPEC, 4, decks=(big, big), seed=5)
    deck_list = SPEC.state_layout.get(g.states, "deck_list")
    leads = {int(deck_list[0, 0, a]) for a in legal_ids(g, "choose_lead")}
    assert leads == {cid for cid in range(len(POOL.by_name)) if POOL.tables.cards[cid, C_LEAD_OK]}
    rng = np.random.default_rng(0)
    for _ in range(4000):
        if g.done.all():
            break
        masks = g.legal_mask()
        g.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], dtype=np.int64))
        assert not check_conservation(SPEC, g.states).any()
    assert g.done.all()


def test_deck_search_may_add_cards_past_60() -> None:
    """HB-D9: `cardenvs decks optimize --resize` explores deck sizes: from a 60-card deck, adding a card is legal."""
    from cardenvs.core.deckgen import legal_moves

    deck = load_deck("tide", POOL)
    ids = deck.card_ids.tolist()
    free = [POOL.by_name[k] for k in POOL.by_name if POOL.cards[POOL.by_name[k]]["alliance"] == "free"]
    for cid in free:
        while len(ids) < 60 and ids.count(cid) < 4:
            ids.append(cid)
    assert len(ids) == 60
    adds = [m for m in legal_moves(ids, POOL, SPEC, resize=True) if m.remove is None]
    assert adds, "no card can be added to a 60-card deck"


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
    text = pool_error(load_pool, tmp_path / "pool.toml", HEAD + card)
    assert "'Bad'" in text and needle in text, text


def test_new_card_with_existing_ops_needs_no_code(tmp_path: Path) -> None:
    pool = pool_with(load_pool, DEFAULT_POOL, tmp_path / "extra.toml",
                     'alliances = ["moon"]\n[[card]]\nname = "Moon Moth"\ntype = "fighter"\nalliance = "moon"\n'
                     'level = 1\nhp = 30\nward = 10\nactions = [{ name = "Dust", damage = 10 }]\n'
                     'effects = [{ trigger = "call", op = "overdrive", side = "opp" }]\n')
    assert pool.by_name["Moon Moth"] == len(pool) - 1 and "moon" in pool.alliances


def test_op_texts_describe_the_players_choices_not_engine_picks() -> None:
    """Issue 39 finding 5: the op texts (shown by the card tools) say what the rules do now: `swap_lead` and `evolve`
    are their player's choice (HB-M6, HB-I5), not the version-0 engine picks."""
    from cardenvs.games.heartbreak.cards import OPS

    assert "choice" in OPS["swap_lead"].doc and "most HP" not in OPS["swap_lead"].doc
    assert "you choose" in OPS["evolve"].doc and "first eligible" not in OPS["evolve"].doc
    assert "(first)" not in OPS["stock_top"].doc
    assert "no heart limit" in OPS["add_heart"].doc
