"""A game's one-action legality check (``KERNEL_OPTIONS["legal_check"]``, e.g. ``rules.action_legal``): the step
asks it whether the chosen action is legal instead of computing the whole mask to read one entry. It runs the mask's
own branches with the costly checks of the other actions skipped, so it must say what the whole mask says, for every
action, in every kind of position: random play reaches the odd corners, heuristic play the long hands, full boards
and stacked windows. A game without one (the step computes the whole mask) is skipped."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from cardenvs.agents import make_agent
from cardenvs.core import kernel_template as T
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, H_TO_ACT, LIVE
from cardenvs.core.seat_view import agent_states

GAMES = 12
STEPS = 400
EVERY = 25


def _check_of(game_name: str):
    options = T.kernel_options(T.GAMES_DIR / game_name)
    if options is None or not options.legal_check:
        pytest.skip(f"{game_name}'s step computes the whole mask (no legal_check)")
    rules = importlib.import_module(f"cardenvs.games.{game_name}.rules")
    return getattr(rules, options.legal_check), rules.mask_row


def _positions(game_name: str, pilot: str) -> np.ndarray:
    """Live rows sampled every ``EVERY`` decisions of ``GAMES`` games played by ``pilot`` in both seats."""
    g = BatchGame(game_name, GAMES, seed=11)
    agent = make_agent(game_name, pilot, seed=3)
    rows = []
    for k in range(STEPS):
        who = g.to_act.copy()
        if not (who >= 0).any():
            break
        if k % EVERY == 0:
            rows.append(g.states[g.states[:, H_STATUS] == LIVE].copy())
        obs = g.observe(who).copy()
        mask = g.legal_mask(who).copy()
        actions = np.asarray(agent.act(obs, mask, agent_states(agent, g.spec, g.states, who), who), dtype=np.int64)
        g.play(np.where(who >= 0, actions, 0), players=who)
    return np.concatenate(rows)


@pytest.mark.parametrize("pilot", ["random", "heuristic"])
def test_the_one_action_check_agrees_with_the_whole_mask(game_name: str, pilot: str) -> None:
    action_legal, mask_row = _check_of(game_name)
    positions = _positions(game_name, pilot)
    spec = BatchGame(game_name, 1, seed=0)
    tables, num_actions = spec.pool.tables, spec.spec.num_actions
    mask = np.zeros(num_actions, dtype=np.int8)
    scratch = np.zeros(num_actions, dtype=np.int8)
    offered = np.zeros(num_actions, dtype=bool)
    for row in positions:
        for p in (0, 1):  # the player to act, and the other, who has no legal action
            n = mask_row(row, tables, p, mask)
            legal = mask.astype(bool)
            offered |= legal
            assert (n > 0) == (p == row[H_TO_ACT])
            for a in range(num_actions):
                assert action_legal(row, tables, p, a, scratch) == legal[a], (
                    f"player {p}, action {a} ({spec.spec.actions.describe(a) if hasattr(spec.spec, 'actions') else a}): "
                    f"the one-action check says {not legal[a]}, the mask {legal[a]}")
    # the positions offered a good share of the actions, so the skipped loops were exercised
    assert offered.sum() >= 0.2 * num_actions or offered.sum() >= 30


def test_a_step_with_an_action_the_check_refuses_changes_nothing(game_name: str) -> None:
    """The check skips other actions' branches; an action it refuses still leaves the row exactly as it was."""
    action_legal, mask_row = _check_of(game_name)
    positions = _positions(game_name, "random")
    g = BatchGame(game_name, 1, seed=0)
    tables = g.pool.tables
    mask = np.zeros(g.spec.num_actions, dtype=np.int8)
    tried = 0
    for k, row in enumerate(positions):
        p = int(row[H_TO_ACT])
        mask_row(row, tables, p, mask)
        illegal = np.flatnonzero(mask == 0)
        if illegal.size == 0:
            continue
        g.states[0] = row
        before = g.states[0].copy()
        g.step(np.array([illegal[k % illegal.size]]), players=np.array([p]), errors="ignore")
        assert g.last_errors[0] == 1
        assert np.array_equal(g.states[0], before)
        tried += 1
    assert tried > 10
