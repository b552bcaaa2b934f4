"""Card pool and deck files: the starter decks are legal; every error names the file, the card and the rule/field."""
from __future__ import annotations

from pathlib import Path

import pytest
import tomllib

from cardenvs.core.errors import CardPoolError, DeckError
from cardenvs.games.divinecross import SPEC, load_deck, load_pool
from cardenvs.games.divinecross import obs_layout as L
from cardenvs.games.divinecross import vocab as V
from cardenvs.games.divinecross.cards import OPS
from cardenvs.games.divinecross.vocab import TYPES

POOL = load_pool()


def write_deck(tmp_path: Path, cards: dict[str, int], name: str = "deck.toml") -> Path:
    body = "\n".join(f'"{k}" = {v}' for k, v in cards.items())
    path = tmp_path / name
    path.write_text(f'name = "test"\ndescription = "test deck"\n\n[cards]\n{body}\n')
    return path


def starter(name: str = "blaze") -> dict[str, int]:
    return dict(tomllib.loads((SPEC.deck_dir / f"{name}.toml").read_text())["cards"])


def write_pool(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pool.toml"
    path.write_text(text)
    return path


UNIT = '[[card]]\nname = "Test Unit"\ntype = "unit"\nseries = ["X"]\nhp = 500\n'


def test_pool_exercises_every_mechanic() -> None:
    cards = POOL.cards
    assert {c["type"] for c in cards} == set(TYPES)
    ops = {e["op"] for c in cards for e in c["effects"]} | {e["op"] for c in cards for s in c["skills"]
                                                                for e in s["effects"]}
    assert ops == set(OPS)
    triggers = {e["trigger"] for c in cards for e in c["effects"]}
    assert triggers == {"passive", "ex_power", "play"}
    assert {a for c in cards for a in c["advantage"]} == {"red", "green", "blue"}
    assert len(POOL.series) == 3


def test_compiled_tables_are_named_and_shaped_by_the_declared_columns() -> None:
    """The kernels read ``tables`` by name (a NamedTuple); every column is a declared one, numbered by name."""
    t = POOL.tables
    assert isinstance(t, V.Tables) and t._fields == ("cards", "effects", "skill_effects")
    n = len(POOL.cards)
    assert t.cards.shape == (n, V.CARD_COLUMNS.size + L.CARD_FEATURE_COLUMNS) and V.C_FEATURES == V.CARD_COLUMNS.size
    assert t.effects.shape == (n, V.MAX_EFFECTS, V.EFFECT_COLUMNS.size)
    assert t.skill_effects.shape == (n, V.MAX_SKILLS, V.MAX_SKILL_EFFECTS, V.EFFECT_COLUMNS.size)
    assert V.C_S0_DAMAGE == V.CARD_COLUMNS.offset("skill_damage") and V.E_TARGET == V.EFFECT_COLUMNS.offset("target")
    warden = POOL.cards[POOL.by_name["Kiln Warden"]]
    row = t.cards[POOL.by_name["Kiln Warden"]]
    assert row[V.C_HP] == warden["hp"] and row[V.C_RETREAT] == warden["retreat"] == 2
    assert [row[V.C_S0_ENERGY + k] for k in range(2)] == [s["energy"] for s in warden["skills"]]
    assert [OPS[name].code for name in V.OP_NAMES] == list(range(V.NUM_OPS))


def test_starter_decks_are_legal_and_distinct() -> None:
    names = SPEC.starter_decks()
    assert {"blaze", "tide", "grove"} <= set(names)
    decks = [load_deck(n, POOL) for n in names]
    assert all(len(d) == 30 for d in decks)
    assert len({tuple(sorted(d.card_ids.tolist())) for d in decks}) == len(decks)
    assert set(SPEC.default_decks) <= set(names)


def test_DC_D1_deck_needs_exactly_30_cards(tmp_path: Path) -> None:
    cards = starter()
    cards["Field Ration"] += 1
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "DC-D1" and str(path) in str(err.value) and "31" in str(err.value)


def test_DC_D2_one_series(tmp_path: Path) -> None:
    cards = starter()
    del cards["Field Ration"]
    cards["Sap Mend"] = 1  # Verdant Crown only
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "DC-D2" and err.value.card == "Sap Mend" and str(path) in str(err.value)


def test_DC_D3_at_most_two_with_the_same_name(tmp_path: Path) -> None:
    cards = starter()
    cards["Field Ration"] += 2  # a third copy
    cards["Smoke Bomb"] -= 2
    del cards["Smoke Bomb"]
    cards["Firestorm"] = 2
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "DC-D3" and err.value.card == "Field Ration" and str(path) in str(err.value)


def test_DC_D4_at_least_one_unit(tmp_path: Path) -> None:
    cards = {n: 2 for n in ("Firestorm", "Battle Fury", "Flame Brand", "Smoldering Ember", "Treasure Map",
                            "Field Ration", "Iron Buckler", "Cursed Blade", "Smoke Bomb", "Mirror Ward")}
    extra = {f"Spare {i}": 1 for i in range(10)}
    pool_text = (SPEC.card_pool_path.read_text() + "".join(
        f'\n[[card]]\nname = "{n}"\ntype = "action"\nseries = ["Ember Vale"]\n'
        f'effects = [{{ trigger = "play", op = "draw", n = 1 }}]\n' for n in extra))
    pool_path = write_pool(tmp_path, pool_text)
    pool = load_pool([pool_path])
    cards.update(extra)
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, pool)
    assert err.value.rule == "DC-D4" and str(path) in str(err.value)


def test_DC_D5_card_types_are_unit_event_action_assist(tmp_path: Path) -> None:
    path = write_pool(tmp_path, '[[card]]\nname = "Odd Thing"\ntype = "spell"\nseries = ["X"]\n')
    with pytest.raises(CardPoolError) as err:
        load_pool([path])
    msg = str(err.value)
    assert str(path) in msg and "Odd Thing" in msg and "'type'" in msg and "unit, event, action, assist" in msg


@pytest.mark.parametrize("text, needle", [
    (UNIT, "skills"),  # a unit without a skill
    (UNIT + '[[card.skill]]\nname = "Hit"\ndamage = 150\n', "hundreds"),
    (UNIT + '[[card.skill]]\nname = "Hit"\ndamage = 100\nbogus = 1\n', "bogus"),
    (UNIT + 'effects = [{ trigger = "play", op = "draw" }]\n[[card.skill]]\nname = "Hit"\n', "play"),
    (UNIT + 'effects = [{ trigger = "passive", op = "teleport" }]\n[[card.skill]]\nname = "Hit"\n', "teleport"),
    (UNIT + 'effects = [{ trigger = "passive", op = "hp_up", amount = 100 }]\n[[card.skill]]\nname = "Hit"\n',
     "assist"),
    (('[[card]]\nname = "Loose Event"\ntype = "event"\nseries = ["X"]\nhp = 100\n'
      'effects = [{ trigger = "play", op = "draw" }]\n'), "'hp'"),
    ('[[card]]\nname = "Empty Event"\ntype = "event"\nseries = ["X"]\n', "play"),
    (('[[card]]\nname = "Stun All"\ntype = "event"\nseries = ["X"]\n'
      'effects = [{ trigger = "play", op = "stun", target = "opp_all" }]\n'), "Main Unit"),
    ('[[card]]\nname = "No Series"\ntype = "event"\n', "series"),
    ("not toml [[[", "malformed TOML"),
])
def test_malformed_pool_names_file_card_and_field(tmp_path: Path, text: str, needle: str) -> None:
    path = write_pool(tmp_path, text)
    with pytest.raises(CardPoolError) as err:
        load_pool([path])
    msg = str(err.value)
    assert str(path) in msg and needle in msg
    if "[[card]]" in text:
        assert "card '" in msg


def test_unknown_card_and_missing_deck_are_clear_deck_errors(tmp_path: Path) -> None:
    cards = starter()
    cards["No Such Card"] = 1
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError, match="No Such Card"):
        load_deck(path, POOL)
    with pytest.raises(DeckError, match="starter decks"):
        load_deck("nosuchdeck", POOL)
