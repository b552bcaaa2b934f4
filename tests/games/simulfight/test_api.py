"""The spec, the env constructors, text output, the docs printer, and random play under the shipped checker."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from cardenvs.agents.base import masked_uniform
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE
from cardenvs.games import simulfight
from cardenvs.games.simulfight import SPEC
from cardenvs.games.simulfight.state import ROUND_CAP
from cardenvs.testing import check_game


def test_spec() -> None:
    assert SPEC.name == "simulfight" and SPEC.version == 1 and SPEC.env_name == "simulfight_v1"
    assert SPEC.simultaneous and SPEC.noop_action == 0
    assert SPEC.num_actions == 161 and SPEC.turn_cap == ROUND_CAP
    assert SPEC.state_layout.fields[0].name == "status"
    assert {f.name for f in SPEC.state_layout.zones} == {"deck", "hand", "play", "discard"}
    assert {"drawn", "played"} <= {f.name for f in SPEC.state_layout.fields}


def test_env_constructors() -> None:
    env = simulfight.env(render_mode="ansi")
    env.reset(seed=1)
    assert env.agent_selection == "player_0"
    raw = simulfight.raw_env()
    raw.reset(seed=1)
    obs = raw.observe("player_1")
    assert obs["observation"].shape == (SPEC.obs_dim,) and obs["action_mask"].dtype == np.int8
    par = simulfight.parallel_env()
    observations, _ = par.reset(seed=1)
    assert set(observations) == {"player_0", "player_1"}


def test_render_hides_the_opponent_hand_and_plan() -> None:
    """SF-R2: ``render(viewer=0)`` shows player 1 as at the phase start: not its hand, not the unit it played this
    phase, not its live health or gold, not what its plan queued against player 0; the omniscient render (and
    player 1's own view) shows all of these, so each check below can fail."""
    from simulfight_helpers import PH_DEFEND, Game

    g = Game().setup(PH_DEFEND, 2, dict(play=["Tin Sentry"], hand=["Herald"], gold=1, shields=1),
                     dict(play=["Spearwall"], hand=["Siege Ram", "Plague Rat", "Headsman"], gold=9, swords=1))
    g.play(1, "Plague Rat")  # 1 damage on Tin Sentry, queued
    g.use(1, "Spearwall")  # 1 more on Tin Sentry, paid with a sword
    secret = ["Siege Ram", "Headsman", "Plague Rat", "gold 8", "Tin Sentry -2"]
    full, mine, theirs = g.g.render(0), g.g.render(0, viewer=0), g.g.render(0, viewer=1)
    player1 = lambda text: text[text.index("player_1"):]
    for word in secret:
        assert word in full and word in player1(theirs), word
        assert word not in mine, f"player_0's view shows {word!r}"
    assert "player_1: health 20, gold 9, shields 0, swords 1;" in mine and "plan hidden" in mine, "phase start"
    assert "Herald" in mine and "#0 Tin Sentry 3hp" in mine, "the viewer's own hand and units are shown"
    assert [ln for ln in mine.splitlines() if ln.startswith("  hand:")] == ["  hand: #25 Herald (1g)"]
    public = g.g.spec.render(g.g.states[0], g.g.pool, -1)  # a screen both players see (what render_mode="human" should print)
    for word in [*secret, "Herald", "hand:", "planned"]:
        assert word in full and word not in public, word
    assert public.count("plan hidden") == 2 and "#29 Spearwall 4hp" in public and "#0 Tin Sentry 3hp" in public


def test_action_names() -> None:
    g = BatchGame(SPEC, 1, seed=3)
    names = [g.action_name(int(a)) for a in np.flatnonzero(g.legal_mask()[0])]
    assert names[0] == "done (end plan)" or names[0].startswith(("play", "use"))
    assert all(n and not n.isdigit() for n in names)
    assert g.action_name(SPEC.num_actions - 1).startswith("foe #39")


def test_random_play_passes_the_shipped_checker() -> None:
    """Conservation, masks never empty while live, termination by the round cap, finite bounded observations,
    replay, single env == batch, and hide() leaves every observation unchanged."""
    report = check_game("simulfight", num_games=64, batch_size=64, hidden_every=5)
    assert report.games == 64 and report.terminated + report.truncated == 64
    assert report.hidden_checks > 0 and report.aligned_games == 4


def test_observations_stay_in_range() -> None:
    """Scaled values stay small in the float view (what a policy reads); card ids (SPEC.obs_card_ids) are whole
    numbers 0..pool size."""
    g = BatchGame(SPEC, 64, seed=4)
    rng = np.random.default_rng(4)
    worst = 0.0
    while (g.status == LIVE).any():
        live = g.status == LIVE
        players = np.where(live, g.to_act, -1).astype(np.int32)
        for p in (0, 1):
            obs = SPEC.float_observation(g.observe(np.where(live, p, -1).astype(np.int32)))
            ids = obs[:, list(SPEC.obs_card_ids)]  # categorical (pool index + 1, for embeddings): not scaled
            assert ((ids >= 0) & (ids <= len(g.pool)) & (ids == np.round(ids))).all()
            obs[:, list(SPEC.obs_card_ids)] = 0.0
            worst = max(worst, float(np.abs(obs).max()))
        g.step(masked_uniform(g.legal_mask(players), rng), players=players)
    assert worst <= 12.0, worst


def test_docs_printer_lists_the_tables() -> None:
    out = subprocess.run([sys.executable, "-m", "cardenvs.games.simulfight.docs"], capture_output=True, text=True,
                         check=True).stdout
    assert "| `my_cards` |" in out and "| `play` |" in out and "| `deck_list` |" in out


def test_rules_md_cites_every_checklist_id_and_existing_tests() -> None:
    import re
    from pathlib import Path

    text = (SPEC.package_dir / "RULES.md").read_text()
    ids = ([f"SF-S{i}" for i in (1, 2)] + [f"SF-R{i}" for i in range(1, 7)] + [f"SF-D{i}" for i in range(1, 6)]
           + ["SF-A1"] + [f"SF-C{i}" for i in range(1, 10)] + [f"SF-E{i}" for i in range(1, 6)])
    for rule in ids:
        assert f"| {rule} |" in text, rule
    here = Path(__file__).parent
    defined = set()
    for path in here.glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(), flags=re.M))
    cited = set(re.findall(r"`(test_\w+)`", text))
    assert cited and cited <= defined, sorted(cited - defined)


def test_batch_step_clears_stale_errors_on_every_row() -> None:
    """Issue 18 (kernel contract, cardenvs/core/spec.py): ``errors[i] = 0`` for every row not in error, rows skipped
    with ``players[i] < 0`` included; an illegal action sets 1 and leaves the row untouched."""
    batch_step = SPEC.kernels.batch_step  # the game's batch loop, wherever the kernel template puts it

    g = BatchGame(SPEC, 3, seed=6)
    before = g.states.copy()
    errors = np.ones(3, np.int32)
    players = np.array([-1, int(g.to_act[1]), int(g.to_act[2])], np.int32)
    legal = int(np.flatnonzero(g.legal_mask()[1])[0])
    actions = np.array([0, legal, SPEC.num_actions - 1], np.int32)  # row 2: foe #39, never legal in the full deck
    batch_step(g.states, g.pool.tables, players, actions, errors)
    assert errors.tolist() == [0, 0, 1]
    np.testing.assert_array_equal(g.states[0], before[0])
    np.testing.assert_array_equal(g.states[2], before[2])
    assert not np.array_equal(g.states[1], before[1])


def _plan_steps(env, count: int) -> None:
    """Play ``count`` plan decisions of the player to act, preferring anything over "done" (a plan with content)."""
    for _ in range(count):
        legal = env.unwrapped.legal_actions()
        env.step(next((a for a in legal if a != 0), legal[0]))


def test_issue39_9_human_mode_on_the_aec_env_prints_the_public_view(capsys) -> None:
    """Issue 39 #9: render_mode="human" printed the private view of the player to act after every step, so a person
    at the other seat saw that player's hand and plan while it was being built. Both players plan at once, as in the
    ParallelEnv, so the screen shows what both may see (the public view) and says so; a player's own view is
    ``render("player_k")``."""
    env = simulfight.env(render_mode="human")
    env.reset(seed=3)
    capsys.readouterr()
    game = env.unwrapped.game
    for _ in range(6):  # both players' plans, one decision at a time
        _plan_steps(env, 1)
        shown = capsys.readouterr().out.strip()
        assert shown == SPEC.render(game.states[0], game.pool, -1).strip()
        assert "| public view" in shown.splitlines()[0]
        assert "hand:" not in shown and "planned against" not in shown and "plan open" not in shown
    env.render("player_0")  # a seat's own screen, asked for by name
    mine = capsys.readouterr().out
    assert "| player_0's view" in mine and "hand:" in mine


def test_issue39_9_ansi_render_takes_a_viewer_through_the_wrapper_and_names_the_view() -> None:
    """Issue 39 #9: ``env().render("player_1")`` raised TypeError (PettingZoo's OrderEnforcingWrapper.render takes no
    argument) and no board said whose view it was. The ansi ``render()`` without a viewer stays the full board, as
    for every game (README "Views": logs, tests, golden files), and now says it is the full view."""
    env = simulfight.env(render_mode="ansi")
    env.reset(seed=3)
    _plan_steps(env, 3)  # player_0's plan under way: its hand and plan are private
    row, pool = env.unwrapped.row, env.unwrapped.game.pool
    for seat, agent in enumerate(("player_0", "player_1")):
        text = env.render(agent)
        assert text == SPEC.render(row, pool, seat) and text.splitlines()[0].endswith(f"| {agent}'s view")
    theirs = env.render("player_1")
    assert "planned against" not in theirs and "plan hidden" in theirs
    full = env.render()
    assert full.splitlines()[0].endswith("| full view") and "plan open" in full
    with pytest.raises(ValueError, match="viewer must be None or one of"):
        env.render("player_2")


@pytest.mark.parametrize("game", ["simulfight", "divinecross"])  # one simultaneous and one sequential game
def test_issue39_9_render_takes_a_viewer_through_the_wrapper_in_any_game(game: str) -> None:
    """The same API in every game (README "Views"): ``render(agent)`` on the wrapped env is that seat's view (the
    fix is in the core's wrapper, core/aec.py ``OrderEnforcing.render``)."""
    import cardenvs

    env = cardenvs.make_env(game, render_mode="ansi")
    env.reset(seed=1)
    spec, row, pool = env.unwrapped.spec, env.unwrapped.row, env.unwrapped.game.pool
    assert env.render("player_1") == spec.render(row, pool, 1)
    assert env.render("player_0") == spec.render(row, pool, 0)
