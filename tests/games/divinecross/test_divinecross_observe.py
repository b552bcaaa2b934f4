"""The observation's shortcuts agree with the rules they stand in for: the precomputed card-feature rows, the
one-pass unit gather and ``skill_damage_now`` (against ``board`` / ``effects``), over states from random play."""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.games.divinecross import obs_layout as L
from cardenvs.games.divinecross import state as S
from cardenvs.games.divinecross.board import assist_sum, count_attached, energy_of, unit_at
from cardenvs.games.divinecross.cards import load_pool
from cardenvs.games.divinecross.effects import skill_damage
from cardenvs.games.divinecross.observe import (
    G_ASSISTS,
    G_ENERGY,
    G_UNIT,
    NUM_G,
    gather_units,
    skill_damage_now,
)
from cardenvs.games.divinecross.vocab import (
    C_DEAL_MINUS,
    C_DEAL_PLUS,
    C_FEATURES,
    C_HALVE,
    C_HP,
    C_HP_UP,
    C_RETREAT_DOWN,
    C_TAKE_MINUS,
    C_TAKE_PLUS,
    Tables,
)

SUMMED = {3: C_HP_UP, 4: C_DEAL_PLUS, 5: C_DEAL_MINUS, 6: C_TAKE_PLUS, 7: C_TAKE_MINUS, 8: C_HALVE, 9: C_RETREAT_DOWN}


def random_states(n_games: int = 48, plies: int = 160) -> tuple[np.ndarray, Tables]:
    g = BatchGame("divinecross", n_games, seed=21)
    rng = np.random.default_rng(2)
    snaps = []
    for ply in range(plies):
        mask = g.legal_mask()
        g.step(np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1))
        if ply % 8 == 0:
            snaps.append(g.states.copy())
    return np.concatenate(snaps), g.pool.tables


def test_card_feature_rows_hold_each_cards_printed_values() -> None:
    pool = load_pool()
    ctab = pool.tables.cards
    feat = ctab.view(np.float32)[:, C_FEATURES:]
    assert feat.dtype == np.float32 and feat.shape == (len(pool.cards), L.CARD_SIZE)
    assert (feat[:, L.CARD_PRESENT] == 1).all()
    np.testing.assert_array_equal(feat[:, L.CARD_CARD_ID], np.arange(len(pool.cards)) + 1)
    np.testing.assert_array_equal(feat[:, L.CARD_HP], (ctab[:, C_HP] / 100.0).astype(np.float32))


def test_gathered_units_and_skill_damage_match_the_rules() -> None:
    states, tables = random_states()
    ctab = tables.cards
    checked = 0
    for row in states:
        g = np.empty((2, S.AREA_SIZE, NUM_G), np.int64)
        for q in range(2):
            gather_units(row, ctab, q, g, q)  # side = player here
            for j in range(S.AREA_SIZE):
                u = unit_at(row, q, j) if j <= row[S.STANDBY_COUNT + q] else -1
                assert g[q, j, G_UNIT] == u
                if u < 0:
                    continue
                assert g[q, j, G_ENERGY] == energy_of(row, q, u)
                assert g[q, j, G_ASSISTS] == count_attached(row, S.ASSIST, S.ASSIST_COUNT, q, u)
                for col, ccol in SUMMED.items():
                    assert g[q, j, col] == assist_sum(row, ctab, q, u, ccol)
        for q in range(2):
            for k in range(2):
                assert skill_damage_now(row, tables, q, k, g, q) == skill_damage(row, tables, q, k)
                checked += 1
    assert checked > 1000
