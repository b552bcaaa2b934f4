"""The contract every game keeps, written once and run for every registered game (``game_name``), a registered
skeleton included: data files fail with errors that name what is wrong, the text helpers describe every legal action
and the board, RULES.md carries the tables generated from the layouts, and the AEC env plays a game to the end.

A game's own tests (``tests/games/<game>/``) keep what only that game has: its deck rules, its card fields, its
vocabulary (the ``VOCABULARY`` table here lists the words its board and actions must use).
"""
from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.deckgen import write_deck
from cardenvs.core.errors import CardPoolError, DeckError
from cardenvs.core.header import H_DECISIONS, LIVE
from cardenvs.core.registry import game_info, get_game

#: per game: (deck pair, decisions to play, words the full board shows, first words of legal action names that must
#: all appear in those decisions); moved here from each game's test_<game>_game.py
VOCABULARY: dict[str, tuple[tuple[str, str], int, tuple[str, ...], set[str]]] = {
    "levelneo": (("aggro", "control"), 60, ("P0", "P1", "level"), {"go", "choose", "play", "pass", "keep"}),
    "divinecross": (("blaze", "grove"), 80, ("P0", "P1", "main:"), {"place", "charge", "end", "use"}),
    "heartbreak": (("grove", "tide"), 80, ("P0", "Lead", "heart"), {"choose", "call", "charge", "end"}),
    "relics": (("vanguard", "shadow"), 150, ("P0", "P1", "front"), {"battle", "leader:", "Fight:", "Pass", "Retreat"}),
    "simulfight": (("full", "full"), 60, ("player_0", "player_1", "health"), {"done", "play"}),
}
#: the AEC game's decks (a pairing other than the defaults where the game's own test chose one)
AEC_DECKS = {"levelneo": ("aggro", "burst"), "divinecross": ("tide", "grove"), "heartbreak": ("blaze", "grove"),
             "relics": ("vanguard", "shadow")}


def test_malformed_toml_names_the_file(game_name: str, tmp_path: Path) -> None:
    path = tmp_path / "pool.toml"
    path.write_text("[[card]]\nname = \n")
    with pytest.raises(CardPoolError) as err:
        get_game(game_name).load_pool([path])
    assert str(path) in str(err.value)


def test_unknown_starter_deck_lists_the_starters(game_name: str) -> None:
    spec = get_game(game_name)
    with pytest.raises(DeckError) as err:
        spec.load_deck("no_such_deck", spec.load_pool(None))
    assert spec.starter_decks()[0] in str(err.value)


def test_unknown_card_name_is_named(game_name: str, tmp_path: Path) -> None:
    spec = get_game(game_name)
    pool = spec.load_pool(None)
    path = write_deck(spec.load_deck(spec.default_decks[0], pool), pool, tmp_path / "deck.toml")
    text = path.read_text(encoding="utf-8")
    assert text.rstrip().split("\n")[-1].count("=") == 1, "the deck file ends with its [cards] table"
    path.write_text(text.rstrip() + '\n"Nonexistent Wyvern" = 1\n', encoding="utf-8")
    with pytest.raises(DeckError) as err:
        spec.load_deck(path, pool)
    assert err.value.card == "Nonexistent Wyvern" and str(path) in str(err.value)


def test_text_helpers_describe_actions_and_board(game_name: str) -> None:
    spec = get_game(game_name)
    decks, decisions, board_words, action_words = VOCABULARY.get(game_name, (spec.default_decks, 60, (), set()))
    g = BatchGame(spec, 1, decks=decks, seed=4)
    rng = np.random.default_rng(1)
    texts = set()
    while g.status[0] == LIVE and g.states[0, H_DECISIONS] < decisions:
        mask = g.legal_mask()[0]
        for a in np.flatnonzero(mask):
            name = g.action_name(int(a))
            assert isinstance(name, str) and name.strip(), f"action {a} has no name"
            texts.add(name.split(" ")[0])
        g.step([int(rng.choice(np.flatnonzero(mask)))])
    board = g.render(0, viewer=None)
    assert all(word in board for word in board_words), board
    assert "hand:" in g.render(0, viewer=0)
    assert action_words <= texts, sorted(texts)


def test_rules_md_tables_are_generated_from_the_layouts(game_name: str) -> None:
    spec = get_game(game_name)
    tables = importlib.import_module(f"{game_info(game_name).module}.docs").tables
    assert tables() in (spec.package_dir / "RULES.md").read_text(encoding="utf-8")


def test_aec_env_plays_a_game(game_name: str) -> None:
    spec = get_game(game_name)
    env = importlib.import_module(game_info(game_name).module).env(decks=AEC_DECKS.get(game_name, spec.default_decks))
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter(max_iter=6000):
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents

