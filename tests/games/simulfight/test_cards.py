"""Card pool and deck files: the pool exercises every mechanic; bad files fail naming file, card and field/rule."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import CardPoolError, DeckError
from cardenvs.games.simulfight import SPEC, load_deck, load_pool
from cardenvs.games.simulfight.cards import DEFAULT_POOL
from cardenvs.games.simulfight.state import MAX_DECK

POOL = load_pool()


def _effects():
    return [e for c in POOL.cards for e in c["effects"]]


def test_pool_has_at_least_24_units_within_the_deck_cap() -> None:
    assert 24 <= len(POOL) <= MAX_DECK
    assert all(c["gold"] >= 0 and c["health"] >= 1 for c in POOL.cards)


def test_pool_exercises_every_mechanic() -> None:
    effects = _effects()
    assert {e["trigger"] for e in effects} == {"play", "defend", "attack"}
    assert {e["cost"] for e in effects} >= {"none", "shields", "swords", "gold", "unit_health"}
    assert {e["target"] for e in effects} >= {"self", "one_ally", "all_allies", "other_allies", "one_foe", "all_foes",
                                              "you", "opponent"}
    assert {e["op"] for e in effects} >= {"damage", "heal", "protect", "stun", "gain"}
    assert {e["condition"] for e in effects} >= {"health_le", "health_ge", "you_health_le", "opponent_health_le",
                                                 "allies_ge", "foes_ge"}
    gains = [e for e in effects if e["op"] == "gain"]
    assert any(e["when"] == "next_round" and e["amount"] > 0 for e in gains), "next-round gain"
    assert any(e["when"] == "next_round" and e["amount"] < 0 for e in gains), "next-round loss"
    assert any(e["op"] == "damage" and e["target"] == "opponent" for e in effects), "damage to the player"


def test_starter_decks_load_and_differ() -> None:
    names = SPEC.starter_decks()
    assert {"full", "aggro", "guard"} <= set(names)
    decks = {n: load_deck(n, POOL) for n in names}
    assert sorted(decks["full"].card_ids.tolist()) == list(range(len(POOL)))
    assert decks["aggro"].description and decks["guard"].description
    assert set(decks["aggro"].card_ids.tolist()) != set(decks["guard"].card_ids.tolist())


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


CARD = '''
[[card]]
name = "Test Unit"
gold = 1
health = 2
effects = [ {effect} ]
'''


@pytest.mark.parametrize(
    "effect, problem",
    [
        ('{ trigger = "attack", op = "explode", target = "one_foe" }', "unknown op 'explode'"),
        ('{ trigger = "attack", op = "damage", target = "one_foe" }', "missing required effect 1 (damage) key 'amount'"),
        ('{ trigger = "play", cost = "swords", cost_amount = 1, op = "damage", target = "one_foe", amount = 1 }',
         "PLAY abilities have no cost"),
        ('{ trigger = "attack", op = "damage", target = "opponent", amount = 1 }, '
         '{ trigger = "attack", cost = "swords", cost_amount = 1, op = "damage", target = "opponent", amount = 1 }',
         "cost belongs on its first effect"),
        ('{ trigger = "defend", op = "gain", target = "one_ally", resource = "gold", amount = 1 }',
         "gain affects a player"),
        ('{ trigger = "defend", op = "heal", target = "one_foe", amount = 1 }', "heal only helps your own side"),
        ('{ trigger = "defend", op = "protect", target = "you" }', "protect affects units"),
        ('{ trigger = "attack", condition = "health_le", threshold = 2, op = "damage", target = "opponent", amount = 1 }',
         "filters units"),
        ('{ trigger = "attack", cost = "swords", op = "damage", target = "opponent", amount = 1 }',
         "needs cost_amount >= 1"),
        ('{ trigger = "attack", condition = "foes_ge", op = "damage", target = "opponent", amount = 1 }',
         "needs threshold >= 1"),
        ('{ trigger = "attack", op = "damage", target = "opponent", amount = 99 }', "above the maximum"),
    ],
)
def test_pool_errors_name_file_card_and_field(tmp_path: Path, effect: str, problem: str) -> None:
    path = _write(tmp_path, "bad.toml", CARD.replace("{effect}", effect))
    with pytest.raises(CardPoolError) as info:
        load_pool([path])
    message = str(info.value)
    assert str(path) in message and "'Test Unit'" in message and problem in message


def test_pool_error_missing_card_field(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.toml", '[[card]]\nname = "No Health"\ngold = 1\n')
    with pytest.raises(CardPoolError, match=r"bad.toml: card 'No Health': missing required field 'health'"):
        load_pool([path])


def test_pool_error_duplicate_name_across_files(tmp_path: Path) -> None:
    path = _write(tmp_path, "dup.toml", '[[card]]\nname = "Herald"\ngold = 1\nhealth = 1\n')
    with pytest.raises(CardPoolError, match="card 'Herald': name already used in"):
        load_pool([DEFAULT_POOL, path])


def test_deck_errors_name_file_card_and_rule(tmp_path: Path) -> None:
    unknown = _write(tmp_path, "unknown.toml", 'name = "x"\n[cards]\n"Herald" = 1\n"Nobody" = 2\n')
    with pytest.raises(DeckError, match=r"unknown.toml: card 'Nobody': unknown card"):
        load_deck(unknown, POOL)
    big = _write(tmp_path, "big.toml", 'name = "big"\n[cards]\n"Herald" = 41\n')
    with pytest.raises(DeckError, match=r"big.toml: 41 cards, at most 40 allowed \[SF-S1"):
        load_deck(big, POOL)
    bad = _write(tmp_path, "bad.toml", 'name = "bad"\n[cards]\n"Herald" = 0\n')
    with pytest.raises(DeckError, match="copies must be a positive integer"):
        load_deck(bad, POOL)
    with pytest.raises(DeckError, match="no such deck file or starter deck"):
        load_deck("no-such-deck", POOL)


def test_custom_pool_and_different_decks_play(tmp_path: Path) -> None:
    extra = _write(tmp_path, "extra.toml", '''
[[card]]
name = "Glass Cannon"
gold = 1
health = 1
effects = [ { trigger = "attack", op = "damage", target = "opponent", amount = 3 } ]
''')
    pool = load_pool([DEFAULT_POOL, extra])
    deck = _write(tmp_path, "cannons.toml", 'name = "cannons"\n[cards]\n"Glass Cannon" = 10\n"Herald" = 2\n')
    g = BatchGame(SPEC, 8, decks=(str(deck), "full"), seed=1, pool=pool)
    assert g.states.shape[0] == 8
    # deck files load with their ids sorted (a deck is a multiset)
    np.testing.assert_array_equal(g.records()["deck_list"][0, 0, :12],
                                  sorted([len(pool) - 1] * 10 + [pool.by_name["Herald"]] * 2))
    assert load_deck("full", pool).card_ids.size == len(pool)
    rng = np.random.default_rng(0)
    for _ in range(3000):
        if not (g.status == 0).any():
            break
        players = np.where(g.status == 0, g.to_act, -1).astype(np.int32)
        mask = g.legal_mask(players)
        g.step(np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], np.int32), players=players)
    assert (g.status != 0).all()
