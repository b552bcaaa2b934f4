"""What the completeness check (issue 38, docs/CHECKS.md "Observation completeness") needs from simulfight.

* Rows no rule writes: ``row_check.check_rows`` (``SPEC.extra["check_rows"]``) refuses a row written from outside whose
  phase, pending sub-decision or snapshot points at nothing, before a kernel reads it; the raw kernels, which a
  caller can hand any row, read nothing through such a row (``rules.decision_ok``). Before, a changed ``sub`` or
  ``cur_inst`` made the observation kernel read outside its tables (found with NUMBA_BOUNDSCHECK=1).
* The other seat's plan is a secret (SF-R2) that ``hide`` now re-deals: rolled back to the phase start and built
  again with random legal decisions on the re-dealt cards. Before, ``hide`` re-dealt cards only, so the check took
  the plan (the other side's live health, gold, units, what it queued against the player) for known.
* The fields the check leaves alone (``SPEC.extra["complete_ignore"]``) hold, per side, the other seat's secret plan
  and the player's own state, which the observation shows live: a change of the player's own side shows at once.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from cardenvs.core.errors import BadArgumentError
from cardenvs.core.header import H_DECISIONS, H_NEEDS, H_TO_ACT
from cardenvs.games.simulfight import SPEC, hide
from cardenvs.games.simulfight import obs_layout as L
from cardenvs.games.simulfight.observe import observe_row, redeal_cards
from cardenvs.games.simulfight.rules import mask_row, step_row
from cardenvs.games.simulfight.row_check import check_rows
from cardenvs.games.simulfight.cards import MAX_ENTRIES
from cardenvs.games.simulfight.state import MAX_DECK, STATE, SUB_MAIN, SUB_PAYER, SUB_TARGET, TR_ATTACK, TR_PLAY
from cardenvs.testing import check_conservation, completeness_ignored

from simulfight_helpers import PH_ATTACK, PH_DEFEND, Game

TABLES = SPEC.load_pool(None).tables


def _obs(row: np.ndarray, p: int) -> np.ndarray:
    out = np.zeros(SPEC.obs_dim, SPEC.obs_dtype)  # the rows as the envs store them (int16)
    observe_row(row, TABLES, p, out)
    return out


def _mask(row: np.ndarray, p: int) -> np.ndarray:
    out = np.zeros(SPEC.num_actions, np.int8)
    mask_row(row, TABLES, p, out)
    return out


def _resolving() -> Game:
    """Attack, round 3: player 0's Hedge Archer (ATTACK: 2 damage to one Foe) is used and waits for its target
    among player 1's two units: a live sub-decision (``sub`` = SUB_TARGET, ``cur_inst`` = the Archer)."""
    g = Game().setup(PH_ATTACK, 3, dict(play=["Hedge Archer"], swords=3),
                     dict(play=["Tin Sentry", "Bone Serf"], swords=0))
    g.use(0, "Hedge Archer")
    assert int(g.get("sub")[0]) == SUB_TARGET and int(g.get("cur_inst")[0]) == g.inst("Hedge Archer")
    return g


@pytest.mark.parametrize("name,value,says", [
    ("sub", 7, "sub is no SUB_* value"),
    ("cur_inst", 39, "cur_inst is not a unit in play"),
    ("cur_inst", -1, "cur_inst is not a unit in play"),
    ("cur_trigger", 9, "cur_trigger is no TR_* value"),
    ("cur_trigger", -1, "cur_trigger is no TR_* value"),
    ("cur_entry", 5, f"cur_entry is outside 0..{MAX_ENTRIES - 1} while a target is chosen"),
    ("cur_entry", -1, f"cur_entry is outside 0..{MAX_ENTRIES - 1} while a target is chosen"),
    ("phase", 4, "phase is no PH_* value"),
    ("snap_play", 33, "snap_play holds no instance"),
])
def test_a_row_written_from_outside_with_a_pending_decision_no_rule_writes_is_refused(name: str, value: int,
                                                                                      says: str) -> None:
    """SF-R2 / issue 38 (a): the row check refuses, with the field named, before any kernel reads the row."""
    g = _resolving()
    g.g.check_states()  # the real row passes
    field = g.get(name)
    if field.ndim:
        field[0] = value  # player 0's entry (snap_play: player 0's first slot)
    else:
        g.set(name, value)
    with pytest.raises(BadArgumentError, match=re.escape(says)):
        g.observe(0)
    assert check_rows(g.row[None].copy(), len(g.pool)) is not None


def test_a_row_with_no_pending_decision_may_hold_any_instance_in_cur_inst_and_nothing_past_them() -> None:
    """With no sub-decision pending, ``cur_inst`` is not followed, but the kernels still clip nothing: -1 to
    MAX_DECK - 1 pass the row check, -2 and MAX_DECK are refused, with the field and its range named."""
    g = _resolving()
    assert int(g.get("sub")[1]) == SUB_MAIN  # player 1 resolves nothing
    for value, refused in ((-1, False), (MAX_DECK - 1, False), (-2, True), (MAX_DECK, True)):
        row = g.row.copy()
        STATE.get(row, "cur_inst")[1] = value
        found = check_rows(row[None], len(g.pool))
        if refused:
            assert found == (0, "cur_inst is outside -1..MAX_DECK - 1"), value
        else:
            assert found is None, value


def test_the_raw_kernels_read_nothing_through_a_bad_pending_decision() -> None:
    """A caller can hand the raw kernels any row (check_game's completeness check changes one field of a real row):
    with the resolving ability's trigger, entry or unit pointing at nothing, the mask offers nothing, a step is
    refused and the observation shows no pending ability, where the old kernels read outside their tables."""
    g = _resolving()
    row = g.row.copy()
    good_obs = _obs(row, 0)
    assert good_obs[L.O_PENDING:L.O_PENDING_END].any() and _mask(row, 0).any()
    for name, value in (("cur_trigger", 7), ("cur_entry", 2), ("cur_inst", 39), ("cur_trigger", TR_PLAY),
                        ("sub", 5)):
        bad = row.copy()
        STATE.get(bad, name)[0] = value
        obs = _obs(bad, 0)
        assert not obs[L.O_PENDING:L.O_PENDING_END].any(), name
        assert not obs[L.O_DECISION:L.O_DECISION_END].any(), name
        assert not _mask(bad, 0).any(), name
        for a in range(SPEC.num_actions):
            assert not step_row(bad, TABLES, 0, a, np.zeros(SPEC.num_actions, np.int8)), (name, a)
    payer = row.copy()  # a health-cost payer pending on an ability whose cost is not unit health
    STATE.get(payer, "sub")[0] = SUB_PAYER
    STATE.get(payer, "cur_trigger")[0] = TR_ATTACK
    assert not _mask(payer, 0).any()


def _plan_closed() -> Game:
    """Defend, round 2: player 0 plays Plague Rat (PLAY: 1 damage to one Foe, here player 1's only unit) and closes
    its plan; player 1, with a card in hand and gold, is to act. Player 0's hand, gold and what its plan queued
    against player 1 are player 0's secret until the phase resolves (SF-R2)."""
    g = Game().setup(PH_DEFEND, 2, dict(hand=["Plague Rat", "Herald", "Coin Hoarder"], gold=4),
                     dict(play=["Tin Sentry"], hand=["Bone Serf"], gold=3))
    g.play(0, "Plague Rat")
    g.done(0)
    assert int(g.row[H_TO_ACT]) == 1 and int(g.get("in_damage")[1, g.inst("Tin Sentry")]) == 1
    return g


_PLAN_FIELDS_OF = {  # player q's plan changes these entries of q's side, and the in_* entries of the other side
    "own": ("hand", "deck", "loc", "drawn", "played", "play", "hand_count", "play_count", "unit_health", "protected",
            "stunned", "used", "health", "resources", "next_round", "sub", "cur_inst", "cur_trigger", "cur_entry",
            "plan_open"),
    "other": ("deck", "in_damage", "in_stun", "in_player_damage", "in_resources", "in_next_round"),
}


@pytest.mark.parametrize("closed", [True, False], ids=["closed-plan", "open-plan"])
def test_SF_R2_hide_redeals_the_other_seats_plan(closed: bool) -> None:
    """``hide(row, viewer)`` rolls the other seat's plan back to the phase start and builds it again at random on
    the re-dealt cards: to its end when it was closed (player 0's, viewer 1), part-way when it is open (player 1's,
    viewer 0, as in the ParallelEnv). The viewer's observation and mask stay the same, its own side and every
    snapshot too, each re-deal is a valid row, and the other seat's plan differs between re-deals (its gold, what it
    queued). Fails on the old ``hide``, which re-dealt cards only."""
    g = _plan_closed()
    if not closed:  # player 1 builds part of its plan; player 0 is to act again in a fresh game
        g = Game().setup(PH_DEFEND, 2, dict(hand=["Plague Rat", "Herald"], gold=4),
                         dict(play=["Tin Sentry"], hand=["Bone Serf", "Herald", "Coin Hoarder"], gold=3))
    viewer = 1 if closed else 0
    q = 1 - viewer
    row = g.row.copy()
    rng = np.random.default_rng(7)
    gold, queued, plays = set(), set(), set()
    for _ in range(40):
        variant = hide(row, viewer, rng, g.pool)
        np.testing.assert_array_equal(_obs(variant, viewer), _obs(row, viewer))
        np.testing.assert_array_equal(_mask(variant, viewer), _mask(row, viewer))
        assert check_rows(variant[None], len(g.pool)) is None and not check_conservation(SPEC, variant[None]).any()
        assert (variant[H_TO_ACT], variant[H_NEEDS], variant[H_DECISIONS]) == (row[H_TO_ACT], row[H_NEEDS],
                                                                               row[H_DECISIONS])
        assert STATE.get(variant, "plan_open")[q] == STATE.get(row, "plan_open")[q]
        for f in STATE.fields:
            a, b = STATE.get(row, f.name), STATE.get(variant, f.name)
            if f.name.startswith("snap_") or f.shape[:1] != (2,):
                if f.name not in ("rng_key_lo", "rng_key_hi", "rng_counter"):
                    np.testing.assert_array_equal(a, b, err_msg=f.name)
                continue
            if f.name not in _PLAN_FIELDS_OF["other"]:
                np.testing.assert_array_equal(a[viewer], b[viewer], err_msg=f"the viewer's {f.name}")
            if f.name not in _PLAN_FIELDS_OF["own"]:
                np.testing.assert_array_equal(a[q], b[q], err_msg=f"the other seat's {f.name}")
        gold.add(int(STATE.get(variant, "resources")[q, 0]))
        queued.add(int(STATE.get(variant, "in_damage")[viewer].sum()))
        plays.add(int(STATE.get(variant, "play_count")[q]))
    assert len(gold) >= 2 and len(plays) >= 2, (gold, plays)
    if closed:
        assert len(queued) >= 2, queued


def test_the_timing_redeal_keeps_the_plan() -> None:
    """check_game's decision-timing check re-deals with ``SPEC.extra["timing_hide"]``: the cards only, since it pins
    what a step reveals card by card, and a plan is revealed whole when it lands."""
    assert SPEC.extra["timing_hide"] is redeal_cards
    g = _plan_closed()
    rng = np.random.default_rng(2)
    for _ in range(10):
        variant = redeal_cards(g.row, 1, rng, g.pool)
        for name in ("resources", "in_damage", "play", "health"):
            np.testing.assert_array_equal(STATE.get(variant, name), STATE.get(g.row, name))


# the ignored fields whose player's own entries the observation shows live: (field, [player] index, value to set)
_OWN_SHOWN = [("health", (0,), 13), ("resources", (0, 1), 4), ("next_round", (0, 2), -1),
              ("unit_health", (0, "Hedge Archer"), 1), ("protected", (0, "Hedge Archer"), 1),
              ("stunned", (0, "Hedge Archer"), 1), ("used", (0, "Hedge Archer"), 0),
              ("in_damage", (1, "Tin Sentry"), 2), ("in_stun", (1, "Tin Sentry"), 1), ("in_player_damage", (1,), 3),
              ("in_resources", (1, 0), -1), ("in_next_round", (1, 1), 2), ("plan_open", (0,), 0)]


@pytest.mark.parametrize("name,where,value", _OWN_SHOWN, ids=[f[0] for f in _OWN_SHOWN])
def test_an_ignored_plan_field_is_shown_at_once_on_the_players_own_side(name: str, where: tuple, value: int) -> None:
    """The reason each plan field gives in ``complete_ignore`` holds: the player's own entry (its own side, or the
    in_* entries its own plan wrote on the other side) shows at once in its observation, and the other seat's does
    not (its secret plan, SF-R2). So the check leaves nothing of the player's own unchecked that it would catch."""
    assert name in completeness_ignored(SPEC)
    g = _resolving()
    row = g.row.copy()
    index = tuple(g.inst(i) if isinstance(i, str) else i for i in where)
    changed = row.copy()
    STATE.get(changed, name)[index] = value
    assert not np.array_equal(changed, row)
    assert not np.array_equal(_obs(changed, 0), _obs(row, 0)), f"player 0's own {name}{list(index)} is not shown"
    other = row.copy()  # the same entry on the other side: player 1's plan, hidden from player 0
    mirrored = (1 - index[0],) + index[1:]
    if name in ("unit_health", "protected", "stunned", "used"):
        mirrored = (1, g.inst("Tin Sentry"))
    STATE.get(other, name)[mirrored] = value + 1
    np.testing.assert_array_equal(_obs(other, 0), _obs(row, 0))

