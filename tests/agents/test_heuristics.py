"""The per-game heuristic agents: legal raw choices, no use of hidden information, and a clear win over random."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

import cardenvs
from cardenvs.agents import make_agent
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE
from cardenvs.train.evaluate import play_match

HEURISTIC_GAMES = [g for g in cardenvs.available_games() if importlib.util.find_spec(f"cardenvs.agents.heuristic_{g}")]


def _live_decisions(batch: BatchGame):
    """(rows, players) of every live game: the lowest pending seat decides, as in the evaluators."""
    needs = batch.needs
    who = np.where(needs & 1, 0, np.where(needs & 2, 1, -1)).astype(np.int32)
    who[batch.status != LIVE] = -1
    return np.flatnonzero(who >= 0), who


@pytest.mark.parametrize("game", HEURISTIC_GAMES)
def test_heuristic_raw_choices_are_legal(game: str) -> None:
    """Without the first-legal-action safety net, every choice in 60 games (both seats, vs random) is legal."""
    agent = make_agent(game, "heuristic", seed=0)
    rand = make_agent(game, "random", seed=1)
    batch = BatchGame(game, 60, seed=3)
    seat_h = np.arange(60) % 2
    checked = 0
    for _ in range(20_000):
        rows, who = _live_decisions(batch)
        if rows.size == 0:
            break
        mask = batch.legal_mask(who).copy()
        obs = batch.observe(who)
        actions = np.zeros(batch.num_games, dtype=np.int32)
        mine = rows[who[rows] == seat_h[rows]]
        theirs = rows[who[rows] != seat_h[rows]]
        if mine.size:
            raw = agent.act(obs[mine], mask[mine], batch.states[mine], who[mine], fallback=False)
            assert np.all(mask[mine, raw] == 1), f"{game}: illegal heuristic choice"
            actions[mine] = raw
            checked += mine.size
        if theirs.size:
            actions[theirs] = rand.act(obs[theirs], mask[theirs], batch.states[theirs], who[theirs])
        batch.step(actions, players=who)
    assert batch.done.all()
    assert checked > 500


def _perturb_hidden(game: str, row: np.ndarray, viewer: int, rng: np.random.Generator, pool) -> np.ndarray:
    """What ``viewer`` cannot see, changed: the game's own ``hide`` (hands, deck orders), and for simulfight also the
    opponent's plan so far (its effects queued against the viewer) and the opponent's live counters."""
    spec = cardenvs.get_game(game)
    out = spec.hide(row, viewer, rng, pool)
    if game == "simulfight":
        layout = spec.state_layout
        opp = 1 - viewer
        for name in ("in_damage", "in_stun", "in_player_damage", "in_resources", "in_next_round"):
            sl = layout.slice(name)
            view = out[sl].reshape(2, -1)
            view[viewer] = rng.integers(0, 3, size=view[viewer].shape)
            out[sl] = view.reshape(-1)
        for name in ("health", "resources"):
            sl = layout.slice(name)
            view = out[sl].reshape(2, -1)
            view[opp] = view[opp] + rng.integers(-2, 3, size=view[opp].shape)
            out[sl] = view.reshape(-1)
    return out


@pytest.mark.parametrize("game", HEURISTIC_GAMES)
def test_heuristic_ignores_hidden_information(game: str) -> None:
    """Re-dealing what the deciding seat cannot see never changes the heuristic's choice."""
    spec = cardenvs.get_game(game)
    agent = make_agent(game, "heuristic", seed=0)
    rand = make_agent(game, "random", seed=2)
    rng = np.random.default_rng(0)
    batch = BatchGame(game, 16, seed=11)
    compared = 0
    for step in range(400):
        rows, who = _live_decisions(batch)
        if rows.size == 0:
            break
        mask = batch.legal_mask(who).copy()
        obs = batch.observe(who).copy()
        if step % 3 == 0:
            actual = agent.act(obs[rows], mask[rows], batch.states[rows], who[rows])
            hidden = np.stack([_perturb_hidden(game, batch.states[i], int(who[i]), rng, batch.pool) for i in rows])
            again = agent.act(obs[rows], mask[rows], hidden, who[rows])
            assert np.array_equal(actual, again), f"{game}: the heuristic's choice depends on hidden information"
            compared += rows.size
        actions = np.zeros(batch.num_games, dtype=np.int32)
        actions[rows] = rand.act(obs[rows], mask[rows], batch.states[rows], who[rows])
        batch.step(actions, players=who)
    assert compared > 100
    del spec


@pytest.mark.parametrize("game", HEURISTIC_GAMES)
def test_heuristic_beats_random(game: str) -> None:
    """400 seat-swapped games: the lower end of the 95% Wilson interval of the win rate is above 0.6."""
    result = play_match(game, "heuristic", "random", games=400, seed=5)
    lo, _ = result.ci
    assert result.games == 400
    assert lo > 0.6, result.summary()


def test_heuristics_read_the_pool_they_are_given(game_name) -> None:
    """A heuristic made for a custom card pool reads that pool's card tables, not the game's own (deck search and
    balance on a designer's pool, issue 17)."""
    from cardenvs.core.agents import make_agent
    from cardenvs.core.registry import get_game

    spec = get_game(game_name)
    pool = spec.load_pool(None)
    custom = type(pool).__new__(type(pool))
    custom.__dict__.update(pool.__dict__)
    custom.tables = tuple(np.array(t, copy=True) + 0 for t in pool.tables)
    agent = make_agent(game_name, "heuristic", pool=custom)
    held = [v for v in vars(agent).values() if isinstance(v, (tuple, np.ndarray))]
    assert any(v is custom.tables or (isinstance(v, np.ndarray) and np.shares_memory(v, custom.tables[0]))
               for v in held) or getattr(agent, "tables", None) is custom.tables


@pytest.mark.parametrize("game", HEURISTIC_GAMES)
def test_a_heuristic_on_row_slices_decides_as_on_one_row_at_a_time(game: str, two_numba_threads) -> None:
    """``act`` on a batch large enough for the core's row-slice threads picks, row for row, what the same kernel
    picks for each row alone (each slice has its own scratch; a slice's rows must not see another's)."""
    from cardenvs.core.seat_view import seat_view
    from cardenvs.core.threads import PARALLEL_MIN_ROWS

    agent = make_agent(game, "heuristic", seed=0)
    rand = make_agent(game, "random", seed=1)
    batch = BatchGame(game, 300, seed=5)
    spec = batch.spec
    for _ in range(30):  # into the game, where the choices differ from row to row
        rows, who = _live_decisions(batch)
        mask = batch.legal_mask(who)
        actions = np.zeros(batch.num_games, dtype=np.int32)
        actions[rows] = rand.act(None, mask[rows], batch.states[rows], who[rows])
        batch.step(actions, players=who)
    rows, who = _live_decisions(batch)
    assert rows.size >= PARALLEL_MIN_ROWS, "too few live games to split"
    mask = batch.legal_mask(who)[rows].copy()
    views = seat_view(spec, batch.states, who[rows], rows=rows)
    together = agent.act(None, mask, views, who[rows])
    alone = np.array([agent.act(None, mask[i:i + 1], views[i:i + 1], who[rows][i:i + 1])[0] for i in range(len(rows))])
    np.testing.assert_array_equal(together, alone)
    assert len(np.unique(together)) > 1  # the positions ask for different choices


def test_py_file_agent_plays_a_heuristic_copied_from_history_as_it_is(tmp_path) -> None:
    """``py:FILE[:CLASS]`` (``cardenvs match GAME heuristic py:old.py``: a heuristic against an older copy of
    itself): a file written as a module of ``agents/`` (relative imports, as in a copy of
    ``agents/heuristic_levelneo.py`` from history) loads and decides as the class it builds on; a wrong file, class
    or game is one clear error. (The file subclasses the installed heuristic: a verbatim copy would compile its
    kernels afresh in every run's temporary folder.)"""
    from cardenvs.agents import describe_pilot
    from cardenvs.core.errors import BadArgumentError

    copy = tmp_path / "old_levelneo.py"
    copy.write_text("from .base import StateHeuristic\nfrom .heuristic_levelneo import HeuristicAgent as Installed\n\n\n"
                    "class HeuristicAgent(Installed):\n    assert issubclass(Installed, StateHeuristic)\n")
    copied, installed = make_agent("levelneo", f"py:{copy}", seed=0), make_agent("levelneo", "heuristic", seed=0)
    assert type(copied) is not type(installed) and copied.name == "py:old_levelneo.py"
    assert make_agent("levelneo", f"py:{copy}:HeuristicAgent").__class__ is type(copied)  # one module per file
    batch = BatchGame("levelneo", 32, seed=4)
    for _ in range(40):
        who = batch.to_act.copy()
        mask = batch.legal_mask(who)
        a = copied.act(None, mask, batch.states, who)
        assert np.array_equal(a, installed.act(None, mask, batch.states, who))
        batch.step(a, who)
    assert "HeuristicAgent from the file" in describe_pilot("levelneo", f"py:{copy}")
    (tmp_path / "broken.py").write_text("raise RuntimeError('half written')\n")
    (tmp_path / "notes.txt").write_text("")
    for kind, message in ((f"py:{tmp_path / 'absent.py'}", "not there"), (f"py:{tmp_path / 'notes.txt'}", "not a .py"),
                          (f"py:{copy}:Missing", "has no class Missing; its classes with act\\(\\): HeuristicAgent"),
                          (f"py:{tmp_path / 'broken.py'}", "RuntimeError: half written")):
        with pytest.raises(BadArgumentError, match=message):
            make_agent("levelneo", kind)
    with pytest.raises(BadArgumentError, match="plays levelneo, not relics"):
        make_agent("relics", f"py:{copy}")
