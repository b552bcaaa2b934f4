"""The contract every game keeps, written once and run for every registered game (``game_name``), a registered
skeleton included: data files fail with errors that name what is wrong, the text helpers describe every legal action
and the board, RULES.md carries the tables generated from the layouts, the AEC env plays a game to the end, random
play keeps every invariant and ends from every starter pairing, and hide() re-deals what a viewer cannot see without
changing what it observes (a seed replaying its game is tests/core/test_invariants.py's test_same_seed_same_game).

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
from cardenvs.core.header import H_DECISIONS, LIVE, TERMINATED
from cardenvs.core.registry import game_info, get_game
from cardenvs.testing import check_game
from random_play import play_out  # tests/random_play.py

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
#: per game, check_game's random play: (games, also the batch size; align_games; whether hide() must have changed a
#: position it re-dealt). simulfight (tests/games/simulfight/test_api.py) and the skeleton (test_skeleton.py) run
#: check_game with options of their own.
CHECK_GAME = {"levelneo": (40, 1, False), "divinecross": (60, 2, True), "heartbreak": (60, 2, True),
              "relics": (60, 2, True)}
#: per game, random play from every starter pairing: (plays of each pairing, decisions it may take, the share of
#: games that must end terminated, the ``step`` codes of state.py live rows must reach); others (1, 3000, 0, ())
PAIRINGS = {"divinecross": (4, 3000, 0.9, ()),
            # Turbo answers really are decisions in random play
            "heartbreak": (4, 5000, 0.0, ("ST_WINDOW",))}
#: random decisions played before hide() is checked, into the game (relics: the placement, with face-down
#: characters); 20 elsewhere
HIDE_AFTER = {"levelneo": 30, "relics": 6}


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



def test_random_play_keeps_every_invariant(game_name: str) -> None:
    """Conservation, masks, termination, hidden information and single == batch over random games."""
    if game_name not in CHECK_GAME:
        pytest.skip(f"{game_name}'s own tests run check_game with options of their own")
    games, align, redealt = CHECK_GAME[game_name]
    report = check_game(game_name, num_games=games, batch_size=games, align_games=align)
    assert report.games == games and report.terminated + report.truncated == games
    assert report.hidden_checks > 0 and (report.hidden_changed > 0 or not redealt)


def test_random_play_every_starter_pairing_ends(game_name: str) -> None:
    spec = get_game(game_name)
    plays, limit, decided, steps = PAIRINGS.get(game_name, (1, 3000, 0.0, ()))
    names = spec.starter_decks()
    pairs = [(a, b) for a in names for b in names] * plays
    g = BatchGame(spec, len(pairs), decks=pairs, seed=11)
    state = importlib.import_module(f"{game_info(game_name).module}.state")
    codes = {getattr(state, name) for name in steps}

    def reached(g: BatchGame, live: np.ndarray) -> None:
        codes.difference_update(spec.state_layout.get(g.states, "step")[live].tolist())

    play_out(g, np.random.default_rng(0), limit, reached if codes else None)
    assert (g.status != LIVE).all()
    assert (g.status == TERMINATED).mean() >= decided  # divinecross: almost every game is decided before the cap
    assert not codes, f"random play never reached {sorted(codes)}"


def test_hidden_information_is_re_dealt_and_not_observed(game_name: str) -> None:
    spec = get_game(game_name)
    g = BatchGame(spec, 1, decks=spec.default_decks, seed=2)
    rng = np.random.default_rng(0)
    for _ in range(HIDE_AFTER.get(game_name, 20)):
        if g.status[0] != LIVE:
            break
        mask = g.legal_mask()
        g.step((rng.random(mask.shape) * mask).argmax(axis=1))
    assert g.status[0] == LIVE
    row = g.states[0]
    for viewer in (0, 1):
        hidden = spec.hide(row, viewer, np.random.default_rng(viewer), g.pool)
        assert not np.array_equal(hidden, row)
        seen = np.zeros((2, spec.obs_dim), spec.obs_dtype)
        spec.kernels.batch_observe(np.stack([row, hidden]), g.pool.tables, np.array([viewer, viewer], np.int32), seen)
        assert np.array_equal(seen[0], seen[1])
