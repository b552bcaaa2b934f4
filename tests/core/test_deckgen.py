"""Random legal decks and one-card deck moves (cardenvs.core.deckgen, issue 17)."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core import deckgen as G
from cardenvs.core.errors import DeckError
from cardenvs.core.registry import GAMES, get_game

ALL_GAMES = sorted(GAMES)


@pytest.fixture(scope="module", params=ALL_GAMES)
def game(request):
    spec = get_game(request.param)
    return spec, spec.load_pool(None)


def test_random_decks_pass_the_games_own_deck_loader_vary_and_repeat(game, tmp_path):
    """200 random decks per game: each written as a deck file loads through the game's load_deck (its deck rules),
    they are varied (not a starter deck, mostly distinct), and the same seed gives the same decks."""
    spec, pool = game
    decks = G.random_decks(spec, 200, seed=17, pool=pool)
    starters = {G.deck_key(d) for d in G.starter_decks(spec, pool)}
    for i, deck in enumerate(decks):
        assert deck.checked_for(pool)
        path = G.write_deck(deck, pool, tmp_path / f"d{i}.toml")
        loaded = spec.load_deck(path, pool)  # raises DeckError if the game's rules refuse it
        assert G.deck_key(loaded) == G.deck_key(deck)
    keys = [G.deck_key(d) for d in decks]
    assert sum(k in starters for k in keys) < 10
    assert len(set(keys)) >= 150
    assert keys[:20] == [G.deck_key(d) for d in G.random_decks(spec, 20, seed=17, pool=pool)]
    assert G.deck_key(G.random_deck(spec.name, 5, pool)) == G.deck_key(G.random_deck(spec.name, 5, pool))
    assert G.deck_key(G.random_deck(spec.name, 5, pool)) != G.deck_key(G.random_deck(spec.name, 6, pool))


#: the first four decks of seed 17 per game (sha256 of their sorted card ids): the protocol's sealed test decks, the
#: training banks and the holdout pairs are all drawn this way, so a change of the generator or of a game's deck check
#: that moves the stream changes every figure measured on them (pinned when deck generation was made faster, issue 41)
DECK_STREAM_17 = {"divinecross": "51e0eb6d58742e1f", "heartbreak": "1741013f753b93ca", "levelneo": "ceb9230ba57d9407",
                  "relics": "c6158609ed40b5dd", "simulfight": "e2acd1b293ffe6fd"}


def test_random_decks_is_random_deck_per_seed_and_the_stream_is_pinned(game):
    """``random_decks`` (starter files read once) gives deck i exactly as ``random_deck`` with the i-th spawned seed,
    and seed 17's stream is the one the measured deck sets were drawn from."""
    import hashlib

    from cardenvs.core.batch import seed_sequence

    spec, pool = game
    decks = G.random_decks(spec, 4, seed=17, pool=pool)
    one_by_one = [G.random_deck(spec, np.random.default_rng(s), pool) for s in seed_sequence(17).spawn(4)]
    keys = [G.deck_key(d) for d in decks]
    assert keys == [G.deck_key(d) for d in one_by_one]
    assert hashlib.sha256(repr(keys).encode()).hexdigest()[:16] == DECK_STREAM_17[spec.name]


def test_every_legal_move_leads_to_a_legal_deck_and_illegal_ones_are_left_out(game):
    spec, pool = game
    deck = G.random_deck(spec, 3, pool)
    rules = G.deck_rules(spec, pool)
    moves = G.legal_moves(deck, pool, spec)
    assert moves, "a random deck has at least one legal move"
    candidates = G._candidate_moves(G.deck_key(deck), len(pool), resize=True)
    refused = [m for m in candidates if m not in set(moves)]
    for m in moves[:: max(1, len(moves) // 50)]:
        assert rules.legal(G.apply_move(deck, m))
    for m in refused[:: max(1, len(refused) // 50)]:
        assert not rules.legal(G.apply_move(deck, m))
    pairs = G.neighbours(deck, pool, spec, rng=1, n=5)
    assert len(pairs) == min(5, len(moves))
    for move, nb in pairs:
        assert G.deck_key(nb) == G.apply_move(deck, move) and nb.checked_for(pool)
    swaps = G.swap_moves(deck, pool, spec, rng=0)
    assert all(m.add is not None and m.remove is not None for m in swaps)
    assert sorted(swaps, key=repr) == sorted(G.legal_moves(deck, pool, spec, resize=False), key=repr)


def test_deck_rules_agree_with_the_games_loader_on_broken_decks(game, tmp_path):
    """The in-memory rule check refuses what the game's load_deck refuses (one card too many of a copy-limited or
    fixed-size deck)."""
    spec, pool = game
    rules = G.deck_rules(spec, pool)
    deck = G.random_deck(spec, 11, pool)
    top = max(set(G.deck_key(deck)), key=G.deck_key(deck).count)
    broken = G.deck_key(deck) + (top,) * 60  # past every game's size cap or copy limit
    assert not rules.legal(broken)
    bad = G.deck_from_ids(broken, pool, name="bad")
    with pytest.raises(DeckError):
        spec.load_deck(G.write_deck(bad, pool, tmp_path / "bad.toml"), pool)
    with pytest.raises(DeckError, match="not a legal deck"):
        G.deck_from_ids(broken, pool, game=spec)


def test_deck_from_names_and_write_deck_round_trip(tmp_path):
    spec = get_game("levelneo")
    pool = spec.load_pool(None)
    start = spec.load_deck(spec.starter_decks()[0], pool)
    counts = G.deck_counts(start, pool)
    deck = G.deck_from_names(counts, pool, name="mine", game=spec, description="a test deck")
    assert G.deck_key(deck) == G.deck_key(start) and deck.checked_for(pool)
    path = G.write_deck(deck, pool, tmp_path / "mine.toml")
    assert 'description = "a test deck"' in path.read_text()
    again = spec.load_deck(path, pool)
    assert again.name == "mine" and G.deck_key(again) == G.deck_key(start)
    name = next(iter(counts))
    with pytest.raises(DeckError, match="did you mean"):
        G.deck_from_names({name.lower() + "x": 1}, pool)
    listed = G.deck_from_names([name, name], pool)
    assert list(listed.card_ids) == [pool.by_name[name]] * 2


def test_random_deck_from_a_named_start_and_zero_swaps_is_that_deck():
    spec = get_game("divinecross")
    pool = spec.load_pool(None)
    name = spec.starter_decks()[0]
    deck = G.random_deck(spec, np.random.default_rng(0), pool, start=name, swaps=0)
    assert G.deck_key(deck) == G.deck_key(spec.load_deck(name, pool))


def test_random_decks_play_to_the_end(game):
    """Random decks are playable by the batch core: a few games between two of them end (win, draw or the cap)."""
    from cardenvs.eval import run_tournament

    spec, pool = game
    a, b = G.random_decks(spec, 2, seed=4, pool=pool)
    result = run_tournament(spec, [a, b], games=4, seed=1)
    assert result.games == 4 and result.tally.results.sum() == 4
