"""Card pool and deck files: the starter decks are legal; every error names the file, the card and the rule/field."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardenvs.core.errors import DeckError
from cardenvs.games.relics import SPEC, load_deck, load_pool
from cardenvs.games.relics.cards import (
    C_ATT,
    C_CLASS,
    C_DEF,
    C_DESC,
    C_QUAL_CLASS,
    C_RELIC_ATT,
    C_RELIC_SKILLS,
    C_SKILLS,
    DEFAULT_POOL,
    OPS,
    SKILLS,
    TRIGGERS,
)
from pool_files import pool_error, pool_with  # tests/pool_files.py

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

POOL = load_pool()


def write_deck(tmp_path: Path, cards: dict[str, int], name: str = "deck.toml") -> Path:
    body = "\n".join(f'"{k}" = {v}' for k, v in cards.items())
    path = tmp_path / name
    path.write_text(f'name = "test"\ndescription = "test deck"\n\n[cards]\n{body}\n')
    return path


def starter(name: str = "vanguard") -> dict[str, int]:
    return dict(tomllib.loads((SPEC.deck_dir / f"{name}.toml").read_text())["cards"])


def test_pool_exercises_every_mechanic() -> None:
    cards = POOL.cards
    types = {c["type"] for c in cards}
    assert types == {"character", "equipment", "item", "spell", "location", "leader"}
    skills = {s for c in cards for s in c["skills"]} | {s for c in cards for s in c["relic_skills"]}
    assert skills == set(SKILLS)
    assert {e["trigger"] for c in cards for e in c["effects"]} == set(TRIGGERS)
    assert {e["op"] for c in cards for e in c["effects"]} == set(OPS)
    assert {c["school"] for c in cards if c["type"] == "spell"} == {"black", "white", "summon"}
    assert any(e["leader"] for c in cards for e in c["effects"])  # the Leader skill
    assert any(c["rarity"] == "rare" for c in cards) and any(c["rarity"] == "common" for c in cards)
    assert any(c["requires"] for c in cards) and any(c["type"] == "equipment" and not c["requires"] for c in cards)


def test_starter_decks_are_legal_and_distinct() -> None:
    names = SPEC.starter_decks()
    assert len(names) >= 3 and set(SPEC.default_decks) <= set(names)
    decks = [load_deck(n, POOL) for n in names]
    assert all(len(d) == 76 for d in decks)
    assert len({tuple(sorted(d.card_ids.tolist())) for d in decks}) == len(decks)


def test_RL_D3_D11_location_card_carries_its_relic_on_the_back() -> None:
    """Checks RL-D3, RL-D11.
    RL-D3: one card, a location on the front and its relic (ATT/DEF/skills, no requirement) on the back."""
    ctab = POOL.tables.cards
    card = POOL.by_name["Whispering Wood"]
    info = POOL.cards[card]
    assert info["relic_name"] == "Sylvan Bow" and ctab[card, C_RELIC_ATT] == 1
    assert ctab[card, C_RELIC_SKILLS] == 1 << SKILLS.index("ranged") and ctab[card, C_QUAL_CLASS] != 0
    assert not info["requires"]


def test_RL_D7_character_has_att_def_class_descriptors_skills() -> None:
    """Checks RL-D7."""
    ctab = POOL.tables.cards
    card = POOL.by_name["Longshot Ranger"]
    assert (ctab[card, C_ATT], ctab[card, C_DEF]) == (4, 3)
    assert POOL.classes[ctab[card, C_CLASS]] == "Hunter" and ctab[card, C_DESC] == 1 << POOL.descriptors.index("Human")
    assert ctab[card, C_SKILLS] == (1 << SKILLS.index("ranged")) | (1 << SKILLS.index("counter"))


def test_RL_D6_D1_character_deck_needs_exactly_40(tmp_path: Path) -> None:
    """Checks RL-D6, RL-D1."""
    cards = starter()
    cards["Ironbrand Squire"] -= 1
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "RL-D6" and str(path) in str(err.value) and "39 characters" in str(err.value)


def test_RL_D6_item_deck_needs_exactly_30(tmp_path: Path) -> None:
    """Checks RL-D6."""
    cards = starter()
    cards["Supply Cart"] += 1
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "RL-D6" and "31 item-deck cards" in str(err.value)


def test_RL_D2_five_locations_and_one_leader_card(tmp_path: Path) -> None:
    """Checks RL-D2."""
    cards = starter()
    del cards["Royal Arena"]
    with pytest.raises(DeckError) as err:
        load_deck(write_deck(tmp_path, cards), POOL)
    assert err.value.rule == "RL-D2" and "4 location/relic cards" in str(err.value)
    cards = starter()
    cards["Shadow Crest"] = 1
    with pytest.raises(DeckError) as err:
        load_deck(write_deck(tmp_path, cards, "b.toml"), POOL)
    assert err.value.rule == "RL-D2" and "2 leader cards" in str(err.value)


def test_RL_D4_common_at_most_six_copies(tmp_path: Path) -> None:
    """Checks RL-D4."""
    cards = starter()
    cards["Ironbrand Squire"] += 1  # a seventh copy
    cards["Gale Duelist"] -= 1
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "RL-D4" and err.value.card == "Ironbrand Squire" and str(path) in str(err.value)


def test_RL_D5_rare_at_most_one_copy(tmp_path: Path) -> None:
    """Checks RL-D5."""
    cards = starter()
    cards["Skyhook Dragoon"] = 2
    cards["Ironbrand Squire"] -= 1
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "RL-D5" and err.value.card == "Skyhook Dragoon"


POOL_HEAD = '[[card]]\nname = "Ok"\ntype = "character"\nclass = "Blade"\natt = 3\ndef = 3\n\n'


@pytest.mark.parametrize(
    ("card", "needle"),
    [
        ('name = "Bad"\ntype = "character"\nclass = "Blade"\natt = "big"\ndef = 3\n', "'att'"),
        ('name = "Bad"\ntype = "character"\natt = 3\ndef = 3\n', "'class'"),
        ('name = "Bad"\ntype = "character"\nclass = "Blade"\natt = 3\ndef = 3\nskills = ["flying"]\n', "'skills'"),
        ('name = "Bad"\ntype = "dragon"\n', "'type'"),
        ('name = "Bad"\ntype = "spell"\neffects = [{ trigger = "cast", op = "draw" }]\n', "'school'"),
        ('name = "Bad"\ntype = "item"\neffects = [{ trigger = "cast", op = "explode" }]\n', "unknown op"),
        ('name = "Bad"\ntype = "item"\neffects = [{ trigger = "act", op = "draw" }]\n', "'trigger'"),
        ('name = "Bad"\ntype = "item"\neffects = [{ trigger = "cast", op = "strike", target = "opp_one" }]\n',
         "'power'"),
        ('name = "Bad"\ntype = "equipment"\natt = 1\nrequires = ["Wizard"]\n', "'requires'"),
        ('name = "Bad"\ntype = "location"\nrelic_name = "X"\n', "'qualifies'"),
        (('name = "Bad"\ntype = "character"\nclass = "Blade"\natt = 3\ndef = 3\n'
         'effects = [{ trigger = "enter", op = "up", target = "opp_one" }]\n'), "'target'"),
        ('name = "Bad"\ntype = "item"\neffects = [{ trigger = "cast", leader = true, op = "draw" }]\n', "'leader'"),
    ],
)
def test_malformed_card_pool_errors_name_file_card_and_field(tmp_path: Path, card: str, needle: str) -> None:
    text = pool_error(load_pool, tmp_path / "pool.toml", POOL_HEAD + "[[card]]\n" + card)
    assert "'Bad'" in text and needle in text, text


def test_new_card_with_existing_ops_needs_no_code(tmp_path: Path) -> None:
    pool = pool_with(load_pool, DEFAULT_POOL, tmp_path / "extra.toml",
                     '[[card]]\nname = "Test Wyrm"\ntype = "character"\nclass = "Lancer"\ndescriptors = ["Beast"]\n'
                     'att = 5\ndef = 5\nskills = ["jump"]\n'
                     'effects = [{ trigger = "defeat", op = "draw", n = 2 }]\n')
    assert pool.by_name["Test Wyrm"] == len(pool) - 1
