"""Card pool and deck files: the starter decks are legal; every error names the file, the card and the rule/field."""
from __future__ import annotations

from pathlib import Path

import pytest

from cardenvs.core.errors import DeckError
from cardenvs.games.levelneo import SPEC, load_deck, load_pool
from cardenvs.games.levelneo.cards import DEFAULT_POOL
from pool_files import pool_error, pool_with  # tests/pool_files.py

POOL = load_pool()


def write_deck(tmp_path: Path, cards: dict[str, int], name: str = "deck.toml") -> Path:
    body = "\n".join(f'"{k}" = {v}' for k, v in cards.items())
    path = tmp_path / name
    path.write_text(f'name = "test"\ndescription = "test deck"\n\n[cards]\n{body}\n')
    return path


def legal_cards() -> dict[str, int]:
    """A legal 40-card deck (the aggro starter)."""
    import tomllib

    return dict(tomllib.loads((SPEC.deck_dir / "aggro.toml").read_text())["cards"])


def test_pool_size_colours_and_mechanics() -> None:
    cards = POOL.cards
    assert len(cards) >= 60
    assert {c["color"] for c in cards} == {"red", "blue", "green", "yellow"}
    triggers = {e["trigger"] for c in cards for e in c["effects"]}
    assert triggers == {"cont", "on_play", "on_attack", "on_win", "end_turn", "use", "event", "burst"}
    ops = {e["op"] for c in cards for e in c["effects"]}
    assert ops == {"ap_up", "ap_down", "draw", "opp_discard", "prevent_level_down", "rest", "activate", "level_up"}
    assert any(c["type"] == "character" and c["turn_cost"] == 1 for c in cards)
    assert len(POOL.traits) >= 4


def test_starter_decks_are_legal_and_distinct() -> None:
    names = SPEC.starter_decks()
    assert {"aggro", "burst", "control", "weak"} <= set(names)
    decks = [load_deck(n, POOL) for n in names]
    assert all(len(d) == 40 for d in decks)
    assert len({tuple(sorted(d.card_ids.tolist())) for d in decks}) == len(decks)
    assert set(SPEC.default_decks) <= set(names)


def test_LN_D1_deck_needs_exactly_40_cards(tmp_path: Path) -> None:
    cards = legal_cards()
    first = next(iter(cards))
    cards[first] -= 1
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "LN-D1" and str(path) in str(err.value) and "39" in str(err.value)


def test_LN_D2_at_most_three_copies(tmp_path: Path) -> None:
    cards = legal_cards()
    names = list(cards)
    cards[names[0]] += 1  # a fourth copy
    cards[names[-1]] -= 1
    if cards[names[-1]] == 0:
        del cards[names[-1]]
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "LN-D2" and err.value.card == names[0] and str(path) in str(err.value)


def test_LN_D3_needs_a_turn_cost_1_character(tmp_path: Path) -> None:
    cards = {"Scorch Hound": 3, "Furnace Knight": 3, "Ignis Captain": 3, "Red Lotus Striker": 3, "Magma Titan": 3,
             "Phoenix Ember": 3, "Battle Cry": 3, "Flashfire": 3, "Inferno Burst": 3, "War Drums": 3,
             "Banner Knight": 3, "Second Wind": 3, "Storm Archon": 3, "Dynamo Mech": 1}
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    assert err.value.rule == "LN-D3" and str(path) in str(err.value)


# 16 cards of hand at most (LN-D5): 6 kept + the draws of one turn; this deck's bound is exactly 16, in the
# opponent's turn: Insight (draw 2, itself leaving the hand) + every Level Burst draw (3 Mossback Elder x 2, 3 Abyssal
# Surge x 1), each card bursting at most once a game
AT_THE_HAND_LIMIT = {"Mossback Elder": 3, "Abyssal Surge": 3, "Insight": 1, "Ashen Recruit": 3, "Harbor Watch": 3,
                     "Meadow Scout": 3, "Brass Footman": 3, "Clumsy Page": 3, "Rusty Bot": 3, "Lost Lamb": 3,
                     "Drowsy Ghost": 3, "Dynamo Mech": 3, "Frost Sage": 3, "Glacier Warden": 3}


def test_LN_D5_a_deck_at_the_hand_limit_loads(tmp_path: Path) -> None:
    from cardenvs.games.levelneo.cards import hand_bound

    deck = load_deck(write_deck(tmp_path, AT_THE_HAND_LIMIT), POOL)
    assert hand_bound(deck.card_ids, POOL)[0] == 16


def test_LN_D5_a_deck_that_could_draw_a_17th_card_into_hand_is_refused(tmp_path: Path) -> None:
    """Issue 39 item 8: a hand holds 16 cards (the action and observation spaces); a deck whose draw effects could
    bring a 17th card into one hand in one turn is refused when it is loaded, with the bound and its terms."""
    cards = dict(AT_THE_HAND_LIMIT, **{"Tide Apprentice": 1, "Glacier Warden": 2})  # a [Use] draw 1 more: 17
    path = write_deck(tmp_path, cards)
    with pytest.raises(DeckError) as err:
        load_deck(path, POOL)
    text = str(err.value)
    assert err.value.rule == "LN-D5" and str(path) in text and "17 cards" in text and "at most 16" in text, text
    assert "Level Bursts 9" in text


def test_LN_D5_a_custom_pool_card_that_could_overfill_the_hand_is_refused(tmp_path: Path) -> None:
    """A custom pool can reach the limit with one card: an event drawing 4 x 3 (net 11 after it leaves the hand)
    makes any deck holding it refused (6 + 1 + 11 = 18); one drawing 2 x 3 (net 5) fits (6 + 1 + 5 = 12)."""
    extra = tmp_path / "extra.toml"
    draw3 = '{ trigger = "event", op = "draw", n = 3 }'
    extra.write_text(f'[[card]]\nname = "Deep Insight"\ntype = "event"\ncolor = "blue"\n'
                     f'effects = [{draw3}, {draw3}]\n\n'
                     f'[[card]]\nname = "Bottomless Well"\ntype = "event"\ncolor = "blue"\n'
                     f'effects = [{draw3}, {draw3}, {draw3}, {draw3}]\n')
    pool = load_pool([DEFAULT_POOL, extra])
    vanilla = {name: 3 for name in ("Ashen Recruit", "Harbor Watch", "Meadow Scout", "Brass Footman", "Clumsy Page",
                                     "Rusty Bot", "Lost Lamb", "Drowsy Ghost", "Dynamo Mech", "Frost Sage",
                                     "Glacier Warden", "Wildheart Ranger", "Verdant Guardian")}  # 39 cards
    load_deck(write_deck(tmp_path, dict(vanilla, **{"Deep Insight": 1})), pool)
    path = write_deck(tmp_path, dict(vanilla, **{"Bottomless Well": 1}))
    with pytest.raises(DeckError) as err:
        load_deck(path, pool)
    assert err.value.rule == "LN-D5" and "18 cards" in str(err.value) and str(path) in str(err.value)


POOL_HEAD = '[[card]]\nname = "Ok"\ntype = "character"\ncolor = "red"\nap = 1000\n\n'


@pytest.mark.parametrize(
    ("card", "needle"),
    [
        ('name = "Bad"\ntype = "character"\ncolor = "red"\nap = "big"\n', "'ap'"),
        ('name = "Bad"\ntype = "character"\ncolor = "purple"\nap = 1000\n', "'color'"),
        ('name = "Bad"\ntype = "character"\ncolor = "red"\nap = 1000\n'
         'effects = [{ trigger = "cont", op = "explode" }]\n', "unknown op"),
        ('name = "Bad"\ntype = "character"\ncolor = "red"\nap = 1000\n'
         'effects = [{ trigger = "cont", op = "ap_up", amount = 500, target = "self", filter = "Wizard" }]\n',
         "'filter'"),
        ('name = "Bad"\ntype = "character"\ncolor = "red"\n', "'ap'"),
        ('name = "Bad"\ntype = "event"\ncolor = "red"\neffects = [{ trigger = "use", op = "draw" }]\n', "'effects'"),
        ('name = "Bad"\ntype = "character"\ncolor = "red"\nap = 1000\n'
         'effects = [{ trigger = "on_play", phase = "main", op = "draw" }]\n', "'phase'"),
        # the observation stores AP in hundreds (issue 41): 1050 would be rounded there
        ('name = "Bad"\ntype = "character"\ncolor = "red"\nap = 1050\n', "'ap': a multiple of 100"),
        ('name = "Bad"\ntype = "character"\ncolor = "red"\nap = 1000\n'
         'effects = [{ trigger = "on_attack", op = "ap_up", amount = 250, target = "self" }]\n',
         "'amount': a multiple of 100"),
    ],
)
def test_malformed_card_pool_errors_name_file_card_and_field(tmp_path: Path, card: str, needle: str) -> None:
    text = pool_error(load_pool, tmp_path / "pool.toml", POOL_HEAD + "[[card]]\n" + card)
    assert "'Bad'" in text and needle in text, text


def test_new_card_with_existing_ops_needs_no_code(tmp_path: Path) -> None:
    pool = pool_with(load_pool, DEFAULT_POOL, tmp_path / "extra.toml",
                     '[[card]]\nname = "Test Golem"\ntype = "character"\ncolor = "green"\nap = 3100\n'
                     'traits = ["Construct"]\n'
                     'effects = [{ trigger = "on_win", op = "opp_discard", n = 2 }]\n')
    assert pool.by_name["Test Golem"] == len(pool) - 1 and "Construct" in pool.traits
