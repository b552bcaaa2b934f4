"""The step's legality check (``rules.action_legal``, ``KERNEL_OPTIONS["legal_check"]``) asks about one action: the
mask's own branches, with the costly checks of the other actions skipped. It must say what the whole mask says, for
every action, in every kind of position: random play reaches the odd corners, heuristic play the long hands, full
fields and stacked windows."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.agents import make_agent
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, H_TO_ACT, LIVE
from cardenvs.core.seat_view import agent_states
from cardenvs.games.heartbreak import state as S
from cardenvs.games.heartbreak.actions import NUM_ACTIONS
from cardenvs.games.heartbreak.rules import action_legal, mask_row

GAMES = 12
STEPS = 400
EVERY = 25


def _positions(pilot: str) -> np.ndarray:
    """Live rows sampled every ``EVERY`` decisions of ``GAMES`` games played by ``pilot`` in both seats."""
    g = BatchGame("heartbreak", GAMES, seed=11)
    agent = make_agent("heartbreak", pilot, seed=3)
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
def test_the_one_action_check_agrees_with_the_whole_mask(pilot: str) -> None:
    positions = _positions(pilot)
    tables = BatchGame("heartbreak", 1, seed=0).pool.tables
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(NUM_ACTIONS, dtype=np.int8)
    steps_seen = set()
    for row in positions:
        steps_seen.add(int(row[S.STEP]))
        for p in (0, 1):  # the player to act, and the other, who has no legal action
            n = mask_row(row, tables, p, mask)
            legal = mask.astype(bool)
            assert (n > 0) == (p == row[H_TO_ACT])
            for a in range(NUM_ACTIONS):
                assert action_legal(row, tables, p, a, scratch) == legal[a], (
                    f"step {int(row[S.STEP])}, player {p}, action {a}: the one-action check says "
                    f"{not legal[a]}, the mask {legal[a]}")
    # the positions reach the steps whose loops the check cuts short
    assert {S.ST_MAIN, S.ST_WINDOW, S.ST_ACTION, S.ST_CLIMAX} <= steps_seen


def test_a_step_with_an_illegal_action_in_a_skipped_range_changes_nothing() -> None:
    """The check skips other actions' branches; an action it refuses still leaves the row exactly as it was."""
    positions = _positions("random")
    tables = BatchGame("heartbreak", 1, seed=0).pool.tables
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    g = BatchGame("heartbreak", 1, seed=0)
    tried = 0
    for row in positions:
        if row[S.STEP] != S.ST_MAIN:
            continue
        p = int(row[H_TO_ACT])
        mask_row(row, tables, p, mask)
        illegal = np.flatnonzero(mask == 0)
        if illegal.size == 0:
            continue
        g.states[0] = row
        before = g.states[0].copy()
        g.step(np.array([illegal[tried % illegal.size]]), players=np.array([p]), errors="ignore")
        assert g.last_errors[0] == 1
        assert np.array_equal(g.states[0], before)
        tried += 1
    assert tried > 10
