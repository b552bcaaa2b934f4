"""The heartbreak heuristic reads only what its seat may know (issue 38, steps 2 and 3): its decision does not change
when only the cards its seat cannot see change (``hide`` re-deals them: the opponent's hand, charged and face-down
stock cards, both decks, the face-down heart cards).

The scenario test failed on the heuristic that resolved the opponent's evolve effect with the opponent's real hand
(it negated Bloomcaller Druid's skill only when a Thornwood Elder really was in that hand)."""
from __future__ import annotations

import numpy as np
from heartbreak_helpers import FILLER, build, do, field, skill

from cardenvs.agents.heuristic_heartbreak import HeuristicAgent, batch_decide
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE
from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.actions import A_HAND, A_PASS
from cardenvs.games.heartbreak.state import ST_WINDOW

POOL = SPEC.load_pool(None)


def _decide(rows: np.ndarray, players: np.ndarray, masks: np.ndarray) -> np.ndarray:
    out = np.zeros(rows.shape[0], dtype=np.int32)
    batch_decide(np.ascontiguousarray(rows), POOL.tables, players.astype(np.int32), masks, out, False)
    return out


def _mask(row: np.ndarray, p: int) -> np.ndarray:
    out = np.zeros((1, SPEC.num_actions), np.int8)
    SPEC.kernels.batch_mask(row[None, :].copy(), POOL.tables, np.array([p], np.int32), out)
    return out[0]


def test_HB_I5_R2_the_answer_to_an_evolve_effect_does_not_depend_on_the_opponents_hidden_hand() -> None:
    """HB-I5 (an effect evolves), HB-R2 (the window it opens): player 0 holds Riptide Denial (negate) while
    Bloomcaller Druid's Quickening is on the stack. Whether the opponent's hand holds the Thornwood Elder that would
    evolve its Sapling, or the Elder lies in its deck, is hidden from player 0: the answer must be the same."""
    def position(hand: str, deck: str) -> BatchGame:
        g = build({"lead": "Kiln Warden", "hand": ["Riptide Denial"], "charge": 2},
                  {"lead": "Bloomcaller Druid", "backup": ["Thornwood Sapling"], "hand": [hand], "deck": [deck],
                   "charge": 4}, turn_player=1)
        do(g, "skill", skill(0))
        assert int(field(g, "step")) == ST_WINDOW and int(g.to_act[0]) == 0
        return g

    held = position("Thornwood Elder", FILLER)
    in_deck = position(FILLER, "Thornwood Elder")
    rows = np.stack([held.states[0], in_deck.states[0]])
    masks = np.stack([_mask(rows[0], 0), _mask(rows[1], 0)])
    assert np.array_equal(masks[0], masks[1]) and masks[0][A_HAND] and masks[0][A_PASS]
    choice = _decide(rows, np.array([0, 0]), masks)
    assert choice[0] == choice[1], choice
    assert choice[0] == A_HAND  # it assumes the worst it cannot rule out: the Elder in hand, so it negates


def _positions(rows: int = 2, every: int = 3) -> list[tuple[np.ndarray, int]]:
    """Positions before decisions of heuristic games (every ``every``-th step of a batch of ``rows`` games per
    ordered pair of different starter decks)."""
    out = []
    agent = HeuristicAgent()
    for k, pair in enumerate([("blaze", "tide"), ("grove", "blaze"), ("tide", "grove")]):
        g = BatchGame(SPEC, rows, decks=pair, seed=100 + k)
        for n in range(2000):
            live = g.status == LIVE
            if not live.any():
                break
            who = np.where(live, g.to_act, -1).astype(np.int32)
            if n % every == 0:
                out += [(g.states[i].copy(), int(who[i])) for i in np.flatnonzero(live)]
            g.step(agent.act(None, g.legal_mask(np.maximum(who, 0)), g.states, who), who)
    return out


def test_HB_I15_C8_H9_no_heuristic_decision_depends_on_what_its_seat_cannot_see() -> None:
    """HB-I15, HB-C8, HB-H9 and the hidden hand and decks: over positions of heuristic play, every decision equals
    the decision on three re-deals of everything the deciding seat cannot see."""
    rng = np.random.default_rng(7)
    positions = _positions()
    assert len(positions) > 300
    # each position, then three re-deals of it for the deciding seat
    rows = np.stack([r for row, p in positions for r in (row, *(SPEC.hide(row, p, rng, POOL) for _ in range(3)))])
    players = np.repeat([p for _, p in positions], 4)
    masks = np.zeros((rows.shape[0], SPEC.num_actions), np.int8)
    SPEC.kernels.batch_mask(rows, POOL.tables, players.astype(np.int32), masks)
    decisions = _decide(rows, players, masks).reshape(-1, 4)
    differ = np.flatnonzero((decisions != decisions[:, :1]).any(axis=1))
    assert differ.size == 0, [(int(i), decisions[i].tolist()) for i in differ[:5]]
