"""Deck-general training (issue 14 §3/§5): per-episode decks from the starter decks and random legal decks, held-out
pairs training never used, and a short `cardenvs train` run that exports a shipped-policy file with its metadata."""
from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.deckgen import deck_key
from cardenvs.train.decks import DeckSampler, holdout_pairs

GAME = "relics"  # any game with starter decks; this one's kernels compile fast


def _row_keys(game: BatchGame, i: int) -> tuple:
    return tuple(tuple(sorted(int(c) for c in game.decks[i, p] if c >= 0)) for p in (0, 1))


def test_sampler_deals_starter_and_random_decks_per_episode() -> None:
    sampler = DeckSampler(GAME, seed=0, random_share=0.5, bank_size=6)
    starters = {deck_key(d) for d in sampler.starters}
    bank = {deck_key(d) for d in sampler.bank}
    assert len(bank) > 1 and not bank & starters
    game = BatchGame(GAME, 64, seed=0)
    sampler.attach(game)
    game.reset(0)
    seen = set()
    for i in range(64):
        for key in _row_keys(game, i):
            assert key in starters | bank
            seen.add(key)
    assert seen & starters and seen & bank  # both kinds dealt
    for seat in (0, 1):  # in both seats
        assert any(_row_keys(game, i)[seat] in bank for i in range(64))
        assert any(_row_keys(game, i)[seat] in starters for i in range(64))
    assert sampler.drawn["starter"] + sampler.drawn["random"] == 128
    kept = [_row_keys(game, i) for i in range(64)]
    rows = np.zeros(64, dtype=bool)
    rows[3:40] = True
    game.reset(100, rows=rows)
    assert sampler.drawn["starter"] + sampler.drawn["random"] == 128 + 2 * 37  # two decks per reset row
    assert all(_row_keys(game, i) == kept[i] for i in np.flatnonzero(~rows))  # other rows keep their decks
    assert any(_row_keys(game, i) != kept[i] for i in np.flatnonzero(rows))
    game.step(np.argmax(game.legal_mask(game.to_act), axis=1), game.to_act)  # the dealt decks are playable


def test_random_share_zero_deals_starters_only() -> None:
    sampler = DeckSampler(GAME, seed=1, random_share=0.0, bank_size=4)
    game = BatchGame(GAME, 16, seed=0)
    sampler.attach(game)
    game.reset(0)
    starters = {deck_key(d) for d in sampler.starters}
    assert all(k in starters for i in range(16) for k in _row_keys(game, i))


def test_holdout_pairs_never_reuse_a_training_deck() -> None:
    sampler = DeckSampler(GAME, seed=0, random_share=0.5, bank_size=8)
    pairs = holdout_pairs(GAME, 3, seed=0, exclude=sampler.bank)
    assert len(pairs) == 3
    used = {deck_key(d) for d in sampler.bank} | {deck_key(d) for d in sampler.starters}
    assert all(deck_key(d) not in used for pair in pairs for d in pair)



def test_starter_weights_steer_the_starter_draws() -> None:
    """``[train] starter_weights``: a curriculum that gives one starter deck more episodes (levelneo's weak deck)."""
    names = DeckSampler(GAME, seed=0, random_share=0.0).starter_names
    heavy, other = names[0], names[1]
    sampler = DeckSampler(GAME, seed=0, random_share=0.0, starter_weights={heavy: 8.0, other: 0.0})
    drawn = [sampler.starters.index(sampler.draw()) for _ in range(2000)]
    counts = np.bincount(drawn, minlength=len(names))
    assert counts[1] == 0  # weight 0: never dealt
    assert counts[0] / 2000 == pytest.approx(8 / (8 + len(names) - 2), abs=0.04)
    # all weights equal: the same draws as no weights at all (runs without weights keep their deck streams)
    plain = DeckSampler(GAME, seed=3, random_share=0.5, bank_size=4)
    equal = DeckSampler(GAME, seed=3, random_share=0.5, bank_size=4, starter_weights={n: 2 for n in names})
    assert [deck_key(plain.draw()) for _ in range(50)] == [deck_key(equal.draw()) for _ in range(50)]


@pytest.mark.parametrize("weights, message", [
    ({"no_such_deck": 2}, "'no_such_deck' is not a starter deck of relics"),
    ({"arcana": -1}, "'arcana' must be a number >= 0"),
    ({"arcana": "x"}, "'arcana' must be a number >= 0"),
    ({"arcana": 0, "shadow": 0, "vanguard": 0}, "at least one starter deck"),
    (3, "must be a table"),
])
def test_bad_starter_weights_are_one_clear_error(weights: object, message: str) -> None:
    from cardenvs.core.errors import BadArgumentError

    with pytest.raises(BadArgumentError, match=message):
        DeckSampler(GAME, seed=0, random_share=0.0, starter_weights=weights)  # type: ignore[arg-type]

SMALL = """
[ppo]
n_steps = 32
batch_size = 256
n_epochs = 1
net_arch = [32]
[train]
num_envs = 16
checkpoint_every = 1024
decks = "mixed"
deck_bank = 8
[opponents]
mix = { random = 0.5, heuristic = 0.5 }
[eval]
every = 2048
games = 20
holdout_pairs = 2
opponents = ["random"]
"""


def test_mixed_deck_run_exports_a_shipped_policy(tmp_path: Path) -> None:
    from cardenvs.agents import make_agent
    from cardenvs.agents.policy import NumpyPolicy, read_npz
    from cardenvs.core.registry import RULES_VERSIONS
    from cardenvs.train.ppo import main

    cfg = tmp_path / "small.toml"
    cfg.write_text(SMALL)
    out = tmp_path / "run"
    summary = main([GAME, "--config", str(cfg), "--total-steps", "1500", "--seed", "4", "--out", str(out),
                    "--no-progress", "-q", "--export", str(tmp_path / "ship" / f"{GAME}.npz")])
    assert summary["decks_drawn"]["random"] > 0 and summary["decks_drawn"]["starter"] > 0
    meta = read_npz(out / "policy.npz")[0]
    assert meta["game"] == GAME and meta["rules_version"] == RULES_VERSIONS[GAME]
    assert meta["seed"] == 4 and meta["steps"] == summary["steps"] and meta["config"]["train"]["decks"] == "mixed"
    assert meta["weights_dtype"] == "float16" and meta["last_eval"]["step"] == summary["steps"]
    assert meta["card_embedding"] == 8  # the shipped config's card-identity embedding made it into the file
    assert isinstance(make_agent(GAME, f"ppo:{tmp_path / 'ship' / f'{GAME}.npz'}"), NumpyPolicy)
    rows = list(csv.DictReader(open(out / "eval.csv")))
    assert {"unseen_win_random", "win_random_seat0", "win_random_seat1"} <= set(rows[-1])


@pytest.mark.parametrize("game", ["levelneo", "simulfight", "heartbreak", "divinecross", "relics"])
def test_every_game_ships_a_deck_general_config(game: str) -> None:
    from cardenvs.train.config import default_config_path, load_config

    assert default_config_path(game) is not None
    cfg = load_config(game)
    assert cfg["train"]["decks"] == "mixed" and cfg["eval"]["holdout_pairs"] >= 20


def test_play_unseen_spreads_games_over_held_out_pairs() -> None:
    from cardenvs.train.evaluate import play_unseen

    per_pair: dict = {}
    res = play_unseen(GAME, "heuristic", "random", games=24, pairs=3, seed=0, deck_bank=8, per_pairing=per_pair)
    assert res.games == 24
    assert sum(res.by_seat[0]) == sum(res.by_seat[1]) == 12
    assert res.wins > res.losses
    # each held-out pair's own counts, adding up to the total
    assert list(per_pair) == ["unseen pair 0", "unseen pair 1", "unseen pair 2"]
    assert [r.games for r in per_pair.values()] == [8, 8, 8]
    assert sum(r.wins for r in per_pair.values()) == res.wins
