"""Whole-game checks: random play invariants, hidden information, text helpers, docs tables, the AEC env."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE
from cardenvs.games import divinecross
from cardenvs.games.divinecross import SPEC
from cardenvs.games.divinecross.docs import tables
from cardenvs.testing import check_game


def test_random_play_keeps_every_invariant() -> None:
    """Conservation, masks, termination, hidden information and single == batch over random games."""
    report = check_game("divinecross", num_games=60, batch_size=60, align_games=2)
    assert report.games == 60 and report.terminated + report.truncated == 60
    assert report.hidden_checks > 0 and report.hidden_changed > 0


def test_random_play_every_starter_pairing_ends() -> None:
    names = SPEC.starter_decks()
    pairs = [(a, b) for a in names for b in names] * 4
    g = BatchGame(SPEC, len(pairs), decks=pairs, seed=11)
    rng = np.random.default_rng(0)
    for _ in range(3000):
        live = g.status == LIVE
        if not live.any():
            break
        mask = g.legal_mask()
        assert (mask[live].sum(axis=1) > 0).all()
        g.step((rng.random(mask.shape) * mask).argmax(axis=1))
    assert (g.status != LIVE).all()
    assert (g.status == 1).mean() > 0.9  # almost every game is decided before the cap


def test_text_helpers_describe_actions_and_board() -> None:
    g = BatchGame(SPEC, 1, decks=("blaze", "grove"), seed=4)
    rng = np.random.default_rng(1)
    texts = set()
    while g.status[0] == LIVE and g.states[0, 4] < 80:
        mask = g.legal_mask()[0]
        for a in np.flatnonzero(mask):
            texts.add(g.action_name(int(a)).split(" ")[0])
        g.step([int(rng.choice(np.flatnonzero(mask)))])
    board = g.render(0, viewer=None)
    assert "P0" in board and "P1" in board and "main:" in board
    assert "hand:" in g.render(0, viewer=0)
    assert {"place", "charge", "end", "use"} <= texts


def test_rules_md_tables_are_generated_from_the_layouts() -> None:
    rules = (Path(divinecross.__file__).parent / "RULES.md").read_text()
    assert tables() in rules


def test_aec_env_plays_a_game() -> None:
    env = divinecross.env(decks=("tide", "grove"))
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in env.agent_iter(max_iter=5000):
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents
