"""The heuristic reads only what its seat may know (issue 38 step 3): over positions of heuristic games, re-dealing
what the deciding player cannot see (``hide``: the opponent's hand, both deck orders and the opponent's deck
contents among its hidden cards, a face-down Main Unit) never changes its decision; and it plays its game."""
from __future__ import annotations

import numpy as np

from cardenvs.agents import make_agent
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE
from cardenvs.games.divinecross import SPEC
from cardenvs.games.divinecross.state import ST_BATTLE, ST_MAIN, ST_SETUP_PLACE


def test_heuristic_decisions_do_not_depend_on_hidden_cards() -> None:
    names = SPEC.starter_decks()
    pairs = [(a, b) for a in names for b in names]
    games = 18
    g = BatchGame(SPEC, games, decks=[pairs[i % len(pairs)] for i in range(games)], seed=5)
    agent = make_agent("divinecross", "heuristic", seed=0)
    rng = np.random.default_rng(5)
    checks, steps_seen, diffs = 0, set(), []
    for _ in range(400):
        live = g.status == LIVE
        if not live.any():
            break
        players = np.where(live, g.to_act, -1).astype(np.int32)
        mask = g.legal_mask(players)
        actions = agent.act(None, mask, states=g.states, players=players)
        rows = np.flatnonzero(live)
        for _ in range(3):  # three re-deals of every live row
            redealt = g.states.copy()
            for i in rows:
                redealt[i] = SPEC.hide(g.states[i], int(players[i]), rng, g.pool)
            again = agent.act(None, mask, states=redealt, players=players)
            for i in rows:
                checks += 1
                steps_seen.add(int(SPEC.state_layout.get(g.states[i], "step")))
                if again[i] != actions[i]:
                    diffs.append(f"row {i}: {g.action_name(int(actions[i]), int(i))} became "
                                 f"{g.action_name(int(again[i]), int(i))}")
        g.step(actions, players=players, errors="raise")
    assert not diffs, diffs[:5]
    assert checks > 3000 and {ST_SETUP_PLACE, ST_MAIN, ST_BATTLE} <= steps_seen
