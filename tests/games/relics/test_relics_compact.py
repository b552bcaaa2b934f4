"""The compact relics observation (issue 41): int16 entries, a float view that is the float32 observation of before.

The golden stream digests (computed on the float view) are the value-for-value test of the conversion; these tests
pin the scale of the scaled fields and the bound: at the extremes a row can reach (the battle-phase turn cap, the
last battle, a stat raised by every modifier a battle can give) no entry wraps. Rule IDs: RL-G13 (the battle turn
and round caps), RL-V5 (the battle cap), RL-A1 (stats now).
"""
from __future__ import annotations

import numpy as np
from relics_helpers import build, field, inst_at

from cardenvs.games.relics import SPEC
from cardenvs.games.relics.obs_layout import (
    CELL_SLOT, CONTEXT, CTX_BATTLE, CTX_BATTLE_TURNS, CTX_DISCARD, CTX_ROUND, OBS, OBS_DTYPE, SLOT_ATT_NOW,
)
from cardenvs.games.relics.state import BATTLE_CAP, BATTLE_TURN_CAP, ROUND_CAP
from cardenvs.testing import check_observation_range

P1 = {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}


def test_the_layouts_store_int16_and_scaled_fields_say_so() -> None:
    """Every relics observation entry is int16 (battle_turns needs more than int8), the float view divides the
    fields that held value / 10 by 10 and nothing else."""
    assert SPEC.obs_dtype == np.int16 and OBS.dtype_scalar is OBS_DTYPE
    divisors = OBS.divisors()
    assert set(np.unique(divisors).tolist()) == {1.0, 10.0}
    ctx = OBS.slice("context")
    assert divisors[ctx][[CTX_ROUND, CTX_BATTLE, CTX_BATTLE_TURNS, CTX_DISCARD]].tolist() == [10.0] * 4
    assert CONTEXT.divisors()[CTX_BATTLE_TURNS] == 10.0


def test_RL_G13_V5_A1_the_extremes_fit_and_read_as_before() -> None:
    """Checks RL-G13, RL-V5, RL-A1: a row at the battle-phase turn cap (2,000 turns), round 12 of battle 16, with a
    character whose ATT modifier is twice the turn cap (more than every +2 ATT a battle's turns could give) is
    stored without wrapping (HC's range guard: observed again into float64, equal entry for entry), and its float
    view reads what the float32 observation read: 200.0, 1.2, 1.6, ATT / 10."""
    g = build({"party": ["Gale Duelist@0:L", "Ironbrand Squire@1"], "hand": ["Oak Buckler"]}, P1,
              round_=ROUND_CAP, battle=BATTLE_CAP)
    field(g, "battle_turns")[...] = BATTLE_TURN_CAP
    squire = inst_at(g, 0, 1)
    field(g, "att_mod")[0, squire] = 2 * BATTLE_TURN_CAP
    stored = g.observe([0]).copy()
    check_observation_range(g, g.states.view(np.ndarray), np.array([0], np.int32), stored)
    view = OBS.float_view(stored[0])
    ctx = OBS.get(view, "context")
    assert ctx[CTX_BATTLE_TURNS] == np.float32(BATTLE_TURN_CAP / 10.0)
    assert ctx[CTX_ROUND] == np.float32(ROUND_CAP / 10.0) and ctx[CTX_BATTLE] == np.float32(BATTLE_CAP / 10.0)
    att = int(OBS.get(stored[0], "grid")[0, 1, CELL_SLOT + SLOT_ATT_NOW])
    assert att > 2 * BATTLE_TURN_CAP  # stored as it is, printed ATT + the modifier
    assert OBS.get(view, "grid")[0, 1, CELL_SLOT + SLOT_ATT_NOW] == np.float32(att / 10.0)
    assert int(stored.max()) < np.iinfo(np.int16).max and int(stored.min()) >= 0
