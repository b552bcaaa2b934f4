"""The compact observation (issue 41): heartbreak's observation is int16 (``obs_layout``'s docstring says why), and
its float view (``SPEC.float_observation``) is the float32 observation of before value for value (the golden stream
digests hash that view and stayed byte-identical through the conversion). Here: the extremes the pool loader and
the deck rules allow fit the dtype (``check_game``'s range guard observes the same row into float64 and finds no
entry that int16 stored differently), and the float view reads them as before."""
from __future__ import annotations

import numpy as np
from heartbreak_helpers import FILLER, build, field, inst_at

from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.obs_layout import (
    COUNT_DECK,
    FIGHTER_ARMOR_NOW,
    FIGHTER_ATTACK_BONUS,
    FIGHTER_DAMAGE,
    FIGHTER_HP_LEFT,
    FIGHTER_HP_NOW,
    OBS,
)
from cardenvs.games.heartbreak.state import MAX_DECK
from cardenvs.games.heartbreak.tables import C_HP
from cardenvs.testing import check_observation_range

#: the largest buff total of one turn: every card of a 240-card deck (no deck maximum, HB-D9) a 200-point buff (the
#: loader's largest amount) on the same fighter
EXTREME = MAX_DECK * 200


def test_HB_D9_the_compact_observation_holds_the_largest_values_the_rules_allow() -> None:
    """HB-D9, HB-E3 (no deck or hand limit), HB-I16 (buffs add up until end of turn): a 240-card deck's count and a
    Lead with 48,000 HP, Armor and attack bonus from buffs and nearly as much damage are stored without wrapping
    (int8 holds 127 and uint8 255; these are 231 and over 4,800 tens), and the float view reads deck / 10 and HP /
    100 as the float32 observation did."""
    g = build({"lead": "Kiln Warden", "backup": [FILLER] * 3, "deck_fill": MAX_DECK - 9}, {"lead": "Reefling Scout"})
    lead = inst_at(g, 0, 0)
    for name in ("mod_hp", "mod_armor", "mod_attack"):
        field(g, name)[0, lead] = EXTREME
    hp = int(g.pool.tables.cards[int(field(g, "deck_list")[0, lead]), C_HP]) + EXTREME
    field(g, "damage")[0, lead] = hp - 10
    assert int(field(g, "deck_count")[0]) == MAX_DECK - 9
    for viewer in (0, 1):
        players = np.array([viewer], np.int32)
        stored = g.observe(players).copy()
        assert stored.dtype == np.int16
        check_observation_range(g, g.states.view(np.ndarray), players, stored)  # raises on a wrapped entry
        view = SPEC.float_observation(stored)[0]
        lead_view = OBS.get(view, "field")[viewer, 0]  # player 0's Lead, own side for viewer 0
        assert lead_view[FIGHTER_HP_NOW] == np.float32(hp / 100)
        assert lead_view[FIGHTER_DAMAGE] == np.float32((hp - 10) / 100)
        assert lead_view[FIGHTER_HP_LEFT] == np.float32(10 / 100)
        assert lead_view[FIGHTER_ARMOR_NOW] >= EXTREME / 10 and lead_view[FIGHTER_ATTACK_BONUS] >= EXTREME / 10
        assert OBS.get(view, "counts")[viewer, COUNT_DECK] == np.float32((MAX_DECK - 9) / 10)
