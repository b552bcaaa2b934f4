"""The shipped checker over every registered game: conservation, masks, termination, replay, single == batch,
hidden information, decision timing, truncations under competent play. CI plays 2,000 random games and 100 games
each of random vs heuristic (seats swapped) and heuristic vs heuristic per game; ``pytest -m slow`` plays 100,000
random games and 10,000 heuristic-vs-heuristic games per game (the issue-12 sweep; truncation rates printed)."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.testing import COMPLETENESS_NOT_YET, InvariantError, check_conservation, check_game

CI_GAMES = {"random-random": 2_000, "random-heuristic": 100, "heuristic-heuristic": 100}

#: games whose observation still lacks what the player to act knows (issue 38 step 1; their engineers are fixing
#: them), with the fields the completeness check names: test_observation_completeness is an expected failure there
#: (strict: it must start passing when the observation is fixed, and then the entry goes), and the full invariant
#: sweep runs every other check
OBSERVATION_GAPS: dict[str, str] = {}


def test_invariants_under_every_pilot_pairing(game_name: str) -> None:
    report = check_game(game_name, num_games=CI_GAMES, seed=11, batch_size=2_000,
                        completeness=False if game_name in OBSERVATION_GAPS else None)
    print(report.summary())
    assert report.games == sum(CI_GAMES.values())
    assert set(report.pairings) == set(CI_GAMES)
    assert report.terminated + report.truncated == report.games
    assert report.aligned_games >= 4
    assert report.hidden_checks > 0 and report.hidden_changed > 0
    for name in ("random-heuristic", "heuristic-heuristic"):
        assert report.pairings[name].truncated == 0, report.summary()
    assert report.timing.leaks == 0 and report.timing.compared >= 50


def test_observation_completeness(game_name: str, request: pytest.FixtureRequest) -> None:
    """The observation holds what the player to act knows (docs/CHECKS.md, "Observation completeness"), over random
    and heuristic play, and the heuristic decides the same after a re-deal of what it cannot see."""
    if game_name in COMPLETENESS_NOT_YET:  # the honest-pilot check still runs in the sweep above
        pytest.skip(f"not checked yet for {game_name}: {COMPLETENESS_NOT_YET[game_name]}")
    if game_name in OBSERVATION_GAPS:
        request.applymarker(pytest.mark.xfail(strict=True, raises=InvariantError, reason=OBSERVATION_GAPS[game_name]))
    report = check_game(game_name, num_games={"random-random": 200, "random-heuristic": 40, "heuristic-heuristic": 40},
                        seed=17, batch_size=200, timing=False, align_games=1, replay_games=8, complete_every=7)
    print(report.summary())
    assert report.completeness.mutants > 1_000 and report.completeness.missing == 0
    assert report.honest.redeals > 50 and report.honest.changed == 0


@pytest.mark.slow
def test_random_play_invariants_100k_games(game_name: str) -> None:
    report = check_game(game_name, num_games=100_000, seed=12345, batch_size=5000, pilots=("random",))
    print(report.summary())
    assert report.games == 100_000


@pytest.mark.slow
def test_heuristic_sweep_10k_games(game_name: str) -> None:
    """Issue 12: 10,000 heuristic-vs-heuristic games per game, no truncation (check_game allows none by default).
    Also ``cardenvs check GAME --pilots heuristic --games 10000``."""
    report = check_game(game_name, num_games=10_000, seed=2024, batch_size=2500, pilots=("heuristic",))
    print(report.summary())
    assert report.pairings["heuristic-heuristic"].games == 10_000
    assert report.pairings["heuristic-heuristic"].truncated == 0


def test_checker_catches_a_lost_card(game_name: str) -> None:
    """The conservation check is not vacuous: remove a card from its zone and it must fire."""
    game = BatchGame(game_name, 1, seed=0)
    spec = game.spec
    assert check_conservation(spec, game.states)[0] == 0
    broken = game.states.copy()
    for zone in spec.state_layout.zones:
        values = spec.state_layout.get(broken[0], zone.name)
        if (values[0] >= 0).any():
            sl = spec.state_layout.slice(zone.name)
            flat = broken[0, sl].reshape(zone.shape)
            last = int(np.flatnonzero(flat[0] >= 0)[-1])
            flat[0, last] = -1
            broken[0, sl] = flat.reshape(-1)
            break
    assert check_conservation(spec, broken)[0] != 0


def test_same_seed_same_game(game_name: str) -> None:
    from cardenvs.testing import play_random

    a, _ = play_random(BatchGame(game_name, 64), 99, agent_seed=1, max_steps=100_000, check=False)
    b, _ = play_random(BatchGame(game_name, 64), 99, agent_seed=1, max_steps=100_000, check=False)
    np.testing.assert_array_equal(a, b)
    c, _ = play_random(BatchGame(game_name, 64), 100, agent_seed=1, max_steps=100_000, check=False)
    assert not np.array_equal(a, c)


def test_invariant_error_is_an_assertion() -> None:
    assert issubclass(InvariantError, AssertionError)


def test_invariants_under_the_shipped_trained_policy(game_name: str) -> None:
    """Competent play includes the trained pilot: where a policy ships (agents/policies/<game>.npz), the invariants
    (cards conserved, masks, endings, hidden information, decision timing) hold with it in either seat."""
    from cardenvs.agents.policy import shipped_path

    path = shipped_path(game_name)
    if path is None:
        pytest.skip(f"no trained policy ships for {game_name}")
    from cardenvs.agents.policy import load_npz
    from cardenvs.core.errors import BadArgumentError

    try:  # a policy trained on another observation layout no longer loads: the message says how to retrain it
        load_npz(path, game=game_name)
    except BadArgumentError as exc:
        pytest.skip(f"the shipped {game_name} policy is stale: {exc}")
    pilot = f"ppo:{path}"
    report = check_game(game_name, num_games=300, seed=13, batch_size=2_000, pilots=(pilot, "heuristic"))
    print(report.summary())
    assert len(report.pairings) == 3 and not report.notes, report.summary()  # the policy loaded: no pilot dropped
    assert report.games == 300 and report.terminated == report.games, report.summary()  # none truncated
    assert report.hidden_checks > 0 and report.timing.leaks == 0 and report.timing.compared > 0
