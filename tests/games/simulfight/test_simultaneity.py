"""Simultaneous play: a plan leaks nothing to the other player (SF-R2), and the two plans commute (SF-R1, SF-E5)."""
from __future__ import annotations

import numpy as np

from cardenvs.agents.base import masked_uniform
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_NEEDS, H_STATUS, H_TO_ACT, H_TURN, LIVE
from cardenvs.games.simulfight import SPEC, hide, render
from cardenvs.games.simulfight.observe import observe_row, redeal_cards
from cardenvs.games.simulfight.rules import mask_row, step_row
from cardenvs.games.simulfight.state import STATE

POOL = SPEC.load_pool(None)
TABLES = POOL.tables


# the per-row kernels the batch wrappers loop over (no thread start-up per call)
def _mask(row: np.ndarray, p: int) -> np.ndarray:
    out = np.zeros(SPEC.num_actions, np.int8)
    assert mask_row(row, TABLES, p, out) == int(out.sum())
    return out


def _obs(row: np.ndarray, p: int) -> np.ndarray:
    out = np.zeros(SPEC.obs_dim, SPEC.obs_dtype)  # the rows as the envs store them (int16)
    observe_row(row, TABLES, p, out)
    return out


def _act(row: np.ndarray, p: int, a: int) -> None:
    assert step_row(row, TABLES, p, a, np.zeros(SPEC.num_actions, np.int8)), f"illegal action {a} for player {p}"


def _random_action(row: np.ndarray, p: int, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(_mask(row, p))))


def open_positions(count: int, seed: int) -> list[np.ndarray]:
    """Rows from random games where both players' plans are open (Defend and Attack phases, various rounds)."""
    rng = np.random.default_rng(seed)
    g = BatchGame(SPEC, 32, seed=seed)
    found: list[np.ndarray] = []
    while len(found) < count and (g.status == LIVE).any():
        live = g.status == LIVE
        both = np.flatnonzero(live & (g.needs == 3))
        for r in both:
            if rng.random() < 0.15:
                found.append(g.states[r].copy())
        players = np.where(live, g.to_act, -1).astype(np.int32)
        g.step(masked_uniform(g.legal_mask(players), rng), players=players)
    assert len(found) >= count // 2
    return found[:count]


POSITIONS = open_positions(60, seed=11)


def test_SF_R2_observation_is_identical_whatever_the_other_player_planned() -> None:
    """The plan-leak test: while ``viewer``'s plan is open, any partial or finished plan of the other player leaves
    the viewer's observation, legal mask and rendered view unchanged (before and after some of the viewer's own
    decisions)."""
    rng = np.random.default_rng(5)
    checked = 0
    for row in POSITIONS:
        for viewer in (0, 1):
            other = 1 - viewer
            base = row.copy()
            for _ in range(int(rng.integers(0, 3))):  # the viewer may be part-way through its own plan
                if base[H_NEEDS] & (1 << viewer) and base[H_NEEDS] & (1 << other):
                    _act(base, viewer, _random_action(base, viewer, rng))
            if not (base[H_NEEDS] & (1 << viewer) and base[H_NEEDS] & (1 << other)):
                continue
            want_obs, want_mask = _obs(base, viewer), _mask(base, viewer)
            want_text = render(base, POOL, viewer)
            for _ in range(4):
                variant = base.copy()
                for _ in range(int(rng.integers(1, 12))):
                    if not variant[H_NEEDS] & (1 << other):
                        break
                    _act(variant, other, _random_action(variant, other, rng))
                assert variant[H_NEEDS] & (1 << viewer), "the viewer's plan is still open"
                np.testing.assert_array_equal(_obs(variant, viewer), want_obs)
                np.testing.assert_array_equal(_mask(variant, viewer), want_mask)
                assert render(variant, POOL, viewer) == want_text
                checked += 1
    assert checked > 100


def sampled_positions(count: int, seed: int) -> list[np.ndarray]:
    """Live rows from random games, any decision point (one or both plans open, Defend or Attack)."""
    rng = np.random.default_rng(seed)
    g = BatchGame(SPEC, 32, seed=seed)
    found: list[np.ndarray] = []
    while len(found) < count and (g.status == LIVE).any():
        live = g.status == LIVE
        for r in np.flatnonzero(live):
            if rng.random() < 0.05:
                found.append(g.states[r].copy())
        players = np.where(live, g.to_act, -1).astype(np.int32)
        g.step(masked_uniform(g.legal_mask(players), rng), players=players)
    return found[:count]


def test_SF_R2_decision_timing_does_not_depend_on_hidden_cards() -> None:
    """Issue 12 C1: from sampled states, re-deal the cards ``viewer`` cannot know (``redeal_cards``: the other
    player's hand and deck, both deck orders; the re-deal check_game's timing check uses, since the other plan,
    which ``hide`` also re-deals, is revealed whole when it lands), let a player with an open plan take the same
    action in both copies: who decides next (``to_act``, ``needs``, status) is the same, and so is the viewer's
    observation unless a Start phase dealt the viewer new cards (the draw itself is what reveals them). Fails if a
    plan closes by itself depending on whether a card in hand is affordable (the old rule), which told the other
    player about that hand."""
    rng = np.random.default_rng(21)
    checked = 0
    for row in sampled_positions(150, seed=17):
        for viewer in (0, 1):
            variant = redeal_cards(row, viewer, rng, POOL)
            assert (variant[H_NEEDS], variant[H_TO_ACT]) == (row[H_NEEDS], row[H_TO_ACT])
            np.testing.assert_array_equal(_obs(variant, viewer), _obs(row, viewer))
            for actor in (0, 1):
                if not row[H_NEEDS] & (1 << actor):
                    continue
                both = np.flatnonzero(_mask(row, actor) & _mask(variant, actor))
                assert both.size, "an action legal whatever the hidden cards (done, a use or a target)"
                for a in {int(both[0]), int(rng.choice(both))}:
                    x, y = row.copy(), variant.copy()
                    _act(x, actor, a)
                    _act(y, actor, a)
                    assert (x[H_STATUS], x[H_NEEDS], x[H_TO_ACT]) == (y[H_STATUS], y[H_NEEDS], y[H_TO_ACT]), (
                        f"who decides next depends on hidden cards (viewer {viewer}, actor {actor}, action {a})")
                    if x[H_TURN] == row[H_TURN]:
                        np.testing.assert_array_equal(_obs(x, viewer), _obs(y, viewer))
                    checked += 1
    assert checked > 300


def test_hide_redeals_exactly_what_the_viewer_cannot_know() -> None:
    """``redeal_cards`` keeps everything the viewer knows (its own hand, every unit, both discard piles, the other
    side's hand size, the plans) and re-deals the other player's hand with its deck, and both deck orders; nothing
    else. ``hide`` also re-deals the other seat's plan (``test_SF_R2_hide_redeals_the_other_seats_plan``)."""
    rng = np.random.default_rng(3)
    moved_hand = moved_order = 0
    for row in sampled_positions(60, seed=5):
        for viewer in (0, 1):
            other = 1 - viewer
            variant = redeal_cards(row, viewer, rng, POOL)
            changed = {f.name for f in STATE.fields
                       if not np.array_equal(STATE.get(row, f.name), STATE.get(variant, f.name))}
            assert changed <= {"hand", "deck", "loc", "drawn"}, changed
            for name in ("hand", "deck", "loc"):
                np.testing.assert_array_equal(STATE.get(variant, name)[viewer] if name != "deck" else
                                              np.sort(STATE.get(variant, name)[viewer]),
                                              STATE.get(row, name)[viewer] if name != "deck" else
                                              np.sort(STATE.get(row, name)[viewer]))
            hidden = lambda r: np.sort(np.concatenate([STATE.get(r, "hand")[other], STATE.get(r, "deck")[other]]))
            np.testing.assert_array_equal(hidden(variant), hidden(row))
            moved_hand += int(not np.array_equal(np.sort(STATE.get(variant, "hand")[other]),
                                                  np.sort(STATE.get(row, "hand")[other])))
            moved_order += int(not np.array_equal(STATE.get(variant, "deck")[viewer], STATE.get(row, "deck")[viewer]))
    assert moved_hand > 20 and moved_order > 20


def _plan(row: np.ndarray, p: int, rng: np.random.Generator) -> list[int]:
    """A complete random plan of player ``p`` built alone (the other plan stays open, so nothing resolves)."""
    work = row.copy()
    actions = []
    while work[H_NEEDS] & (1 << p):
        a = _random_action(work, p, rng)
        actions.append(a)
        _act(work, p, a)
    return actions


def test_SF_E5_plans_commute_any_interleaving_gives_the_same_game() -> None:
    """Player 0's plan then player 1's (the AEC order), player 1's then player 0's, and random interleavings (the
    parallel env) all end in the identical row: each plan reads the other side only as at the phase start."""
    rng = np.random.default_rng(9)
    for row in POSITIONS:
        plans = [_plan(row, 0, rng), _plan(row, 1, rng)]
        finals = []
        for order in ("01", "10", "mix", "mix"):
            work = row.copy()
            queues = [list(plans[0]), list(plans[1])]
            while queues[0] or queues[1]:
                if order == "01":
                    p = 0 if queues[0] else 1
                elif order == "10":
                    p = 1 if queues[1] else 0
                else:
                    p = int(rng.integers(0, 2)) if queues[0] and queues[1] else (0 if queues[0] else 1)
                _act(work, p, queues[p].pop(0))
            # both plans were played to their end: the phase resolved (the next phase or round began, or the game
            # ended) and nothing either plan queued is left waiting
            resolved = work[H_STATUS] != LIVE or (STATE.get(work, "phase"), work[H_TURN]) != (
                STATE.get(row, "phase"), row[H_TURN])
            assert resolved, "the phase did not resolve after both plans were done"
            for name in ("in_damage", "in_stun", "in_player_damage", "in_resources", "in_next_round"):
                assert not STATE.get(work, name).any(), name
            finals.append(work)
        for other in finals[1:]:
            np.testing.assert_array_equal(other, finals[0])


def test_SF_R1_to_act_is_the_lowest_open_plan() -> None:
    for row in POSITIONS[:10]:
        assert row[H_TO_ACT] == 0 and row[H_NEEDS] == 3
        work = row.copy()
        rng = np.random.default_rng(0)
        for a in _plan(work, 0, rng):
            _act(work, 0, a)
        assert work[H_NEEDS] == 2 and work[H_TO_ACT] == 1


def test_engine_orders_are_equivalent() -> None:
    """RULES.md "Choices the engine makes": the engine applies all_* effects and lands the queued effects in the
    order the units were played, and discards in that order; permuting the units in play (and the phase-start copy)
    of both sides, then playing the same two plans, gives the same game: every per-instance field, every counter,
    and the same sets of units in play and in the discard pile."""
    rng = np.random.default_rng(13)
    zones = ("play", "snap_play", "discard")
    compared = 0
    for row in POSITIONS:
        if STATE.get(row, "phase") != 0:  # Defend: resolving it leads to the Attack phase, with no shuffle between
            continue
        plans = [_plan(row, 0, rng), _plan(row, 1, rng)]
        twin = row.copy()
        for name, count in (("play", "play_count"), ("snap_play", "snap_play_count")):
            zone = STATE.get(twin, name).copy()
            for side in (0, 1):
                n = int(STATE.get(twin, count)[side])
                zone[side, :n] = rng.permutation(zone[side, :n])
            twin[STATE.slice(name)] = zone.reshape(-1)
        if np.array_equal(twin, row):
            continue
        finals = []
        for work in (row.copy(), twin):
            for p in (0, 1):
                for a in plans[p]:
                    _act(work, p, a)
            finals.append(work)
        a, b = finals
        if a[H_TURN] != row[H_TURN]:
            continue  # a Start phase ran: its reshuffle of the discard pile is chance, not an engine choice
        for f in STATE.fields:
            x, y = STATE.get(a, f.name), STATE.get(b, f.name)
            if f.name in zones:
                x, y = np.sort(x, axis=-1), np.sort(y, axis=-1)
            np.testing.assert_array_equal(x, y, err_msg=f.name)
        compared += 1
    assert compared >= 10, compared


def test_mask_and_step_agree_on_every_action() -> None:
    """For both players in sampled states, an action is accepted by the step (``step_row``) exactly when the mask
    offers it (SF-D4, SF-A1: ``done`` is refused, not only masked, while a mandatory ability can be paid)."""
    checked = 0
    for row in sampled_positions(80, seed=29):
        for p in (0, 1):
            mask = _mask(row, p)
            for a in range(SPEC.num_actions):
                work = row.copy()
                ok = step_row(work, TABLES, p, a, np.zeros(SPEC.num_actions, np.int8))
                assert ok == bool(mask[a]), f"player {p} action {a}: mask {mask[a]}, step {ok}"
                if not ok:
                    np.testing.assert_array_equal(work, row)
                checked += int(ok)
    assert checked > 150
