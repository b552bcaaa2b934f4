"""The observation's shortcuts agree with the rules they stand in for: the precomputed card-feature rows, the
one-pass unit gather and ``skill_damage_now`` (against ``board`` / ``effects``), over states from random play; and
the compact rows hold the largest values a pool the loader accepts can put in them (issue 41)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.games.divinecross import SPEC
from cardenvs.games.divinecross import obs_layout as L
from cardenvs.games.divinecross import state as S
from cardenvs.games.divinecross.board import assist_sum, count_attached, energy_of, unit_at
from cardenvs.games.divinecross.cards import load_pool
from cardenvs.games.divinecross.effects import hp_left, skill_damage
from cardenvs.games.divinecross.obs_layout import OBS
from cardenvs.scenario import Scenario
from cardenvs.testing import check_observation_range
from positions import go_live  # tests/positions.py
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
    C_TYPE,
    TYPE_ASSIST,
    TYPE_UNIT,
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
    """The card table carries each card's block as the observation stores it (int16, HP and damage in hundreds)."""
    pool = load_pool()
    ctab = pool.tables.cards
    feat = ctab.view(L.OBS_DTYPE)[:, L.FEATURE_AT:L.FEATURE_AT + L.CARD_SIZE]
    assert feat.dtype == OBS.dtype_scalar and feat.shape == (len(pool.cards), L.CARD_SIZE)
    assert (feat[:, L.CARD_PRESENT] == 1).all()
    np.testing.assert_array_equal(feat[:, L.CARD_CARD_ID], np.arange(len(pool.cards)) + 1)
    np.testing.assert_array_equal(feat[:, L.CARD_HP], ctab[:, C_HP] // 100)
    np.testing.assert_array_equal(feat, L.card_features(ctab[:, :C_FEATURES]))


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


# ---------------------------------------------------------------------------------------------------- issue 41
def _extreme_pool(tmp_path: Path) -> Path:
    """A pool at the loader's limits: a Unit with 3,000 HP, four dmg_up +1,000 and a 2,000-damage skill with three
    bonus_energy 2,000 (no Energy cost) that doubles against blue; a blue Unit with four dmg_down -1,000 (it takes
    +4,000); fifteen Assists with four hp_up 2,000 each; fifteen filler Actions."""
    unit = ('[[card]]\nname = "{name}"\ntype = "unit"\nseries = ["X"]\nhp = 3000\nattribute = "{attr}"\n'
            'advantage = ["blue"]\nretreat = 4\neffects = [{effects}]\n'
            '[[card.skill]]\nname = "Crush"\nenergy = 0\ndamage = 2000\n'
            'effects = [{bonus}]\n')
    bonus = ", ".join(['{ op = "bonus_energy", amount = 2000 }'] * 3)
    text = unit.format(name="Titan", attr="red", bonus=bonus,
                       effects=", ".join(['{ trigger = "passive", op = "dmg_up", amount = 1000 }'] * 4))
    text += unit.format(name="Wall", attr="blue", bonus=bonus,
                        effects=", ".join(['{ trigger = "passive", op = "dmg_down", amount = -1000 }'] * 4))
    plate = ", ".join(['{ trigger = "passive", op = "hp_up", amount = 2000 }'] * 4)
    for i in range(15):
        text += f'[[card]]\nname = "Plate {i}"\ntype = "assist"\nseries = ["X"]\neffects = [{plate}]\n'
        text += (f'[[card]]\nname = "Spare {i}"\ntype = "action"\nseries = ["X"]\n'
                 'effects = [{ trigger = "play", op = "draw", n = 1 }]\n')
    path = tmp_path / "extreme.toml"
    path.write_text(text)
    return path


def _deck(tmp_path: Path, name: str, unit: str, others: str) -> Path:
    body = f'"{unit}" = 1\n' + "".join(f'"{others} {i}" = 2\n' for i in range(14)) + f'"{others} 14" = 1\n'
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\ndescription = "extreme"\n\n[cards]\n{body}')
    return path


def test_issue41_compact_rows_hold_the_largest_values_a_pool_can_reach(tmp_path: Path) -> None:
    """No stored value wraps: player 0's Main Unit carries its 29 other cards as Energy, a +1,270 boost (thirty
    cards' four +1,000 boosts, a skill's three and an EX-Power's four in one turn) and a 5,080 guard; player 1's Main
    Unit carries 29 Assists of 8,000 HP each (30 + 29 x 80 = 2,350 hundreds) with 234,900 damage. Its skill damage
    now is 2 x (2,000 + 3 x 2,000 x 29 + 4,000 + 127,000 + 4,000) = 622,000: 6,220 stored, past int8 and well inside
    int16. Every stored value equals what the rules compute, and the range guard (the row observed into float64, where
    nothing wraps) finds the int16 row equal."""
    pool = load_pool([_extreme_pool(tmp_path)])
    g = BatchGame(SPEC, 1, pool=pool, decks=(_deck(tmp_path, "a", "Titan", "Spare"),
                                             _deck(tmp_path, "b", "Wall", "Plate")), seed=0)
    field = Scenario(SPEC).field
    row = g.states[0]
    row[S.DECK:] = 0  # every zone, count and flag is set below
    deck_list = field(g, "deck_list").copy()
    ctab = pool.tables.cards
    for z in ("deck", "hand", "main", "standby", "energy", "assist", "ko", "discard", "host"):
        field(g, z)[:] = -1
    field(g, "deck_list")[:] = deck_list
    field(g, "pending_card")[...] = -1
    for p, zone in ((0, "energy"), (1, "assist")):
        kinds = ctab[deck_list[p], C_TYPE]
        main = int(np.flatnonzero(kinds == TYPE_UNIT)[0])
        others = [i for i in range(S.DECK_SIZE) if i != main]
        assert p == 0 or (kinds[others] == TYPE_ASSIST).all()
        field(g, "main")[p, 0] = main
        field(g, zone)[p, :len(others)] = others
        field(g, zone + "_count")[p] = len(others)
        field(g, "host")[p, others] = main
        field(g, "face_up")[p, :] = 1
    m0, m1 = int(field(g, "main")[0, 0]), int(field(g, "main")[1, 0])
    field(g, "boost")[0, m0] = 127_000
    field(g, "guard")[0, m0] = 508_000
    field(g, "damage")[1, m1] = 234_900
    field(g, "step")[...] = S.ST_BATTLE
    field(g, "turn_player")[...] = 0
    go_live(row, 5, 0)
    obs = g.observe([0])[0].copy()
    raw = np.array(g.states[0])
    tables = pool.tables
    units = OBS.get(obs, "units")
    own, opp = units[0, S.POS_MAIN], units[1, S.POS_MAIN]
    unit = L.CARD_SIZE  # where a slot's unit block starts
    assert own[unit + L.UNIT_ENERGY] == 29 and opp[unit + L.UNIT_ASSISTS] == 29
    assert own[unit + L.UNIT_BOOST] == 1270 and own[unit + L.UNIT_GUARD] == 5080
    assert opp[L.CARD_HP] == 2350 and opp[unit + L.UNIT_DAMAGE] == 2349
    assert opp[unit + L.UNIT_HP_LEFT] == hp_left(raw, tables, 1, m1) // 100 == 1
    assert own[L.CARD_DEAL_PLUS] == 40 and opp[L.CARD_TAKE_PLUS] == 40
    assert own[unit + L.UNIT_SKILL_DAMAGE_NOW] == skill_damage(raw, tables, 0, 0) // 100 == 6220
    assert obs.dtype == np.int16 and np.abs(obs).max() == 6220
    check_observation_range(g, g.states.copy(), np.zeros(1, np.int32), obs[None])  # the same rows into float64
    np.testing.assert_array_equal(OBS.float_view(obs), (obs / OBS.divisors().astype(np.float64)).astype(np.float32))
