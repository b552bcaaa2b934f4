"""divinecross's whole-game checks of its own: decision timing under re-dealt hidden cards, the kernel contract's
error clearing.

Random play (invariants, every starter pairing ends, at least 90% decided), the text helpers, the RULES.md tables
and the AEC env are checked for every game in tests/contract/test_game_contract.py."""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE
from cardenvs.games.divinecross import SPEC


def _timing_leaks(pilot: str, games: int, seed: int, every: int = 2) -> tuple[int, list[str]]:
    """Decision-timing probe (issue 12): from states of real games, re-deal what a viewer cannot know (``hide``),
    apply the same action of the player to act in the real and the re-dealt position, and compare who decides
    next (and whether the game goes on). Viewer = the actor: any action. Viewer = the other player: actions that
    do not play a hidden hand card (playing one reveals it, so a difference would be information the step gives).
    Returns (checks, descriptions of differences)."""
    from cardenvs.agents import make_agent
    from cardenvs.games.divinecross.actions import A_CHARGE, A_HAND

    names = SPEC.starter_decks()
    pairs = [(a, b) for a in names for b in names]
    g = BatchGame(SPEC, games, decks=[pairs[i % len(pairs)] for i in range(games)], seed=seed)
    probe = BatchGame(SPEC, 2, decks=("blaze", "tide"), seed=0)
    agent = make_agent("divinecross", pilot, seed=seed)
    rng = np.random.default_rng(seed)
    checks, diffs = 0, []
    for step in range(600):
        live = g.status == LIVE
        if not live.any():
            break
        players = np.where(live, g.to_act, -1).astype(np.int32)
        mask = g.legal_mask(players)
        actions = agent.act(g.observe(players), mask, g.states, players)
        for i in np.flatnonzero(live)[step % every::every]:
            actor, a = int(players[i]), int(actions[i])
            for viewer in (0, 1):
                if viewer != actor and A_HAND <= a < A_CHARGE:
                    continue
                probe.states[0] = g.states[i]
                probe.states[1] = SPEC.hide(g.states[i], viewer, rng, g.pool)
                probe.step([a, a], players=[actor, actor], errors="ignore")
                if probe.last_errors.any():
                    continue  # not legal in the re-dealt position (only possible for viewer != actor)
                checks += 1
                if (probe.status[0], probe.to_act[0]) != (probe.status[1], probe.to_act[1]):
                    diffs.append(f"game {i} step {step} actor {actor} viewer {viewer} action {g.action_name(a, i)}")
        g.step(actions, players=players, errors="raise")
    return checks, diffs


def test_decision_timing_does_not_depend_on_hidden_cards() -> None:
    """Issue 12, part C1: whether (and when) a player gets a decision never depends on cards the other player
    cannot see. Fails on the old engine: single-Unit setup placements and pass-only Main Phases were auto-played."""
    for pilot, seed in (("random", 1), ("heuristic", 2)):
        checks, diffs = _timing_leaks(pilot, 36, seed)
        assert checks > 2000
        assert not diffs, diffs[:5]


def test_batch_step_clears_the_error_of_a_skipped_row() -> None:
    """Issue 18 (kernel contract, core/spec.py): every row not in error gets errors[i] = 0, skipped rows too."""
    g = BatchGame(SPEC, 2, decks=("blaze", "tide"), seed=3)
    mask = g.legal_mask()
    bad = [int(np.flatnonzero(mask[i] == 0)[0]) for i in range(2)]
    g.step(bad, errors="ignore")
    assert g.last_errors.tolist() == [1, 1]
    good = int(np.flatnonzero(g.legal_mask()[1])[0])
    g.step([0, good], players=[-1, int(g.to_act[1])], errors="ignore")
    assert g.last_errors.tolist() == [0, 0]  # row 0 was skipped: its old error is gone
