"""``train.lookahead``: the flat Monte Carlo pilot that measures how far a bar against random is luck."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cardenvs.core.errors import BadArgumentError
from cardenvs.train.evaluate import play_match
from cardenvs.train.lookahead import LookaheadAgent, main


def test_lookahead_over_random_rollouts_beats_random() -> None:
    """One step of search over random rollouts against random already wins most games, from both seats (checked
    failing with the search taking the action that won least often)."""
    agent = LookaheadAgent("simulfight", pilot="random", rollouts=4, seed=0)
    r = play_match("simulfight", agent, "random", games=20, seed=3)
    assert r.wins >= 15, (r.wins, r.draws, r.losses)
    assert min(w for w, _, _ in r.by_seat.values()) >= 7
    assert agent.searched > 0 and agent.changed > 0


def test_redealt_copies_leave_the_real_games_untouched() -> None:
    """The copies are the search's own rows: ``act`` returns a legal action per row and never writes the states it
    is given (fair and oracle mode)."""
    from cardenvs.core.batch import BatchGame

    batch = BatchGame("simulfight", 6, seed=5)
    states = batch.states.copy()
    mask = batch.legal_mask()
    for hidden in ("redeal", "known"):
        agent = LookaheadAgent("simulfight", pilot="heuristic", rollouts=2, hidden=hidden, seed=1)
        acts = agent.act(batch.observe(), mask, batch.states, batch.to_act.copy())
        assert np.all(mask[np.arange(6), acts] == 1)
        assert np.array_equal(batch.states, states)


@pytest.mark.parametrize("kwargs, message", [
    ({"rollouts": 0}, "rollouts must be"),
    ({"hidden": "peek"}, "hidden must be one of"),
])
def test_bad_settings_are_one_clear_error(kwargs: dict, message: str) -> None:
    with pytest.raises(BadArgumentError, match=message):
        LookaheadAgent("simulfight", **kwargs)


def test_cli_names_a_wrong_game_in_one_line(capsys) -> None:
    assert main(["nogame", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "nogame" in err


def test_states_of_the_wrong_shape_or_dtype_are_one_clear_error() -> None:
    """The states are copied into the search's own batches, whose kernels read them: they are checked first
    (checked failing without the check: numpy's broadcast error, or worse, a kernel reading a bad row)."""
    from cardenvs.core.batch import BatchGame

    batch = BatchGame("simulfight", 2, seed=1)
    agent = LookaheadAgent("simulfight", pilot="random", rollouts=1)
    mask, players = batch.legal_mask(), batch.to_act.copy()
    for states in (batch.states[:, :-1], batch.states.astype(np.int64)):
        with pytest.raises(BadArgumentError, match="states must be int32"):
            agent.act(batch.observe(), mask, states, players)


def test_every_candidate_action_is_tried_on_the_same_redealt_copies(monkeypatch) -> None:
    """Common random numbers: a decision re-deals ``rollouts`` copies once and tries each of its actions on them
    (checked failing with a re-deal per action and copy, as before)."""
    from cardenvs.core.batch import BatchGame

    batch = BatchGame("simulfight", 4, seed=2)
    mask = batch.legal_mask()
    agent = LookaheadAgent("simulfight", pilot="random", rollouts=3, seed=4)
    calls = []
    real_hide = agent.spec.hide

    def counting_hide(state, viewer, rng, pool):
        calls.append(viewer)
        return real_hide(state, viewer, rng, pool)

    # a copy of the (frozen, shared) spec with a counting hide, for this agent only
    monkeypatch.setattr(agent, "spec", dataclasses.replace(agent.spec, hide=counting_hide))
    agent.act(batch.observe(), mask, batch.states, batch.to_act.copy())
    choosing = int(np.count_nonzero(np.count_nonzero(mask, axis=1) > 1))
    assert choosing > 0 and np.count_nonzero(mask) > choosing * 2  # several actions per decision
    assert len(calls) == 3 * choosing  # not 3 x the candidate actions

