"""The observation, value by value (SF-R2: what each player sees): a second writer, plain numpy from RULES.md's table
and the state's field names (the static card features from the card table), must give the float view of the kernel's
int16 row exactly, for both viewers of positions from random play and of the hand-built positions where cards are
known in hand or a sub-decision is pending. Every entry's scale and block is pinned, so a column written to the wrong
place, with the wrong value or divisor, or from the live side instead of the phase-start snapshot, fails here (issue
39: observe.py's surviving mutants)."""
from __future__ import annotations

import numpy as np

from cardenvs.agents.base import masked_uniform
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_TURN
from cardenvs.games.simulfight import SPEC
from cardenvs.games.simulfight import obs_layout as L
from cardenvs.games.simulfight import cards as C
from cardenvs.games.simulfight.state import STATE, LOC_DECK, LOC_DISCARD, LOC_HAND, LOC_PLAY, SUB_MAIN, SUB_TARGET

from simulfight_helpers import PH_ATTACK, PH_DEFEND, Game

_ZONE = {LOC_DECK: C.CARD_IN_DECK, LOC_HAND: C.CARD_IN_HAND, LOC_PLAY: C.CARD_IN_PLAY, LOC_DISCARD: C.CARD_IN_DISCARD}


def _player(out: np.ndarray, at: int, health, resources, hand, deck, discard, nxt, units) -> None:
    out[at + L.PLAYER_HEALTH] = health / 10.0
    out[at + L.PLAYER_RESOURCES:at + L.PLAYER_RESOURCES + 3] = np.asarray(resources) / 5.0
    out[at + L.PLAYER_HAND] = hand / 5.0
    out[at + L.PLAYER_DECK] = deck / 10.0
    out[at + L.PLAYER_DISCARD] = discard / 10.0
    out[at + L.PLAYER_NEXT_ROUND:at + L.PLAYER_NEXT_ROUND + 3] = np.asarray(nxt) / 5.0
    out[at + L.PLAYER_UNITS] = units / 5.0


def _static(out: np.ndarray, base: int, cards: np.ndarray, card: int) -> None:
    """The CARD block's static features of ``card`` from the card table (not from ``tables.features``)."""
    out[base + C.CARD_PRESENT] = 1.0
    out[base + C.CARD_ID] = card + 1.0
    out[base + C.CARD_GOLD] = cards[card, C.C_GOLD] / 5.0
    out[base + C.CARD_PRINTED_HEALTH] = cards[card, C.C_HEALTH] / 5.0
    for t in range(C.NUM_TRIGGERS):
        at = base + C.CARD_ABILITIES + t * C.ABILITY.size
        if cards[card, C.C_N + t] > 0:
            out[at + C.ABILITY_HAS] = 1.0
            kind = cards[card, C.C_COST + t]
            if kind != C.COST_NONE:
                out[at + C.ABILITY_COST_KIND + kind - C.COST_SHIELDS] = 1.0
        out[at + C.ABILITY_COST] = cards[card, C.C_COST_AMOUNT + t] / 5.0


def reference(row: np.ndarray, pool, p: int) -> np.ndarray:
    """Player ``p``'s observation written from the documented table (RULES.md "Observation")."""
    f = lambda name: STATE.get(row, name)  # noqa: E731
    out = np.zeros(L.OBS_SIZE, dtype=np.float32)
    q = 1 - p
    tables = C.Tables(*pool.tables)
    out[L.O_PHASE + int(f("phase"))] = 1.0
    out[L.O_ROUND] = row[H_TURN] / 10.0
    own_open = bool(f("plan_open")[p])
    out[L.O_PLAN_OPEN] = float(own_open)
    sub = int(f("sub")[p])
    if own_open:
        out[L.O_DECISION + sub] = 1.0
    snap = f("snap_player")
    counts = {name: f(f"{name}_count") for name in ("hand", "deck", "discard", "play")}
    _player(out, L.O_ME, f("health")[p], f("resources")[p], counts["hand"][p], counts["deck"][p],
            counts["discard"][p], f("next_round")[p], counts["play"][p])
    for side, at in ((p, L.O_ME_START), (q, L.O_OPP)):
        s = snap[side]
        _player(out, at, s[0], s[1:4], s[4], counts["deck"][side], counts["discard"][side], s[5:8],
                f("snap_play_count")[side])
    out[L.O_PLANNED + L.PLANNED_DAMAGE] = f("in_player_damage")[q] / 10.0
    out[L.O_PLANNED + L.PLANNED_RESOURCES:L.O_PLANNED + L.PLANNED_RESOURCES + 3] = f("in_resources")[q] / 5.0
    out[L.O_PLANNED + L.PLANNED_NEXT_ROUND:L.O_PLANNED + L.PLANNED_NEXT_ROUND + 3] = f("in_next_round")[q] / 5.0
    deck_list = f("deck_list")
    if own_open and sub != SUB_MAIN:
        inst, t, k = int(f("cur_inst")[p]), int(f("cur_trigger")[p]), int(f("cur_entry")[p])
        card = int(deck_list[p, inst])
        entry = tables.effects[card, t, k]
        out[L.O_PENDING + L.PENDING_TRIGGER + t] = 1.0
        out[L.O_PENDING + L.PENDING_OP + entry[C.E_OP]] = 1.0
        out[L.O_PENDING + L.PENDING_AMOUNT] = entry[C.E_AMOUNT] / 5.0
        out[L.O_PENDING + L.PENDING_TARGET + entry[C.E_TARGET]] = 1.0
        out[L.O_PENDING + L.PENDING_COST] = tables.cards[card, C.C_COST_AMOUNT + t] / 5.0
        out[L.O_PENDING + L.PENDING_ENTRY + k] = 1.0
    loc, shown = f("loc"), f("shown")
    snap_play = {side: set(int(i) for i in f("snap_play")[side][:f("snap_play_count")[side]]) for side in (0, 1)}
    for side, block in ((p, L.O_MY_CARDS), (q, L.O_OPP_CARDS)):
        for inst in range(int(f("deck_size")[side])):
            base = block + inst * C.CARD_SIZE
            _static(out, base, tables.cards, int(deck_list[side, inst]))
            z = int(loc[side, inst])
            if side == p:
                out[base + _ZONE[z]] = 1.0
                if z == LOC_HAND:
                    out[base + C.CARD_KNOWN] = shown[p, inst]
                if z == LOC_PLAY:
                    out[base + C.CARD_HEALTH] = f("unit_health")[p, inst] / 5.0
                    out[base + C.CARD_PROTECTED] = f("protected")[p, inst]
                    out[base + C.CARD_STUNNED] = f("stunned")[p, inst]
                    out[base + C.CARD_USED] = f("used")[p, inst]
                if inst in snap_play[p]:
                    out[base + C.CARD_START_HEALTH] = f("snap_health")[p, inst] / 5.0
                    out[base + C.CARD_START_PROTECTED] = f("snap_protected")[p, inst]
                    out[base + C.CARD_START_STUNNED] = f("snap_stunned")[p, inst]
                continue
            if inst in snap_play[q]:
                out[base + C.CARD_IN_PLAY] = 1.0
                out[base + C.CARD_HEALTH] = f("snap_health")[q, inst] / 5.0
                out[base + C.CARD_PROTECTED] = f("snap_protected")[q, inst]
                out[base + C.CARD_STUNNED] = f("snap_stunned")[q, inst]
            elif z == LOC_DISCARD:
                out[base + C.CARD_IN_DISCARD] = 1.0
            elif shown[q, inst]:
                out[base + C.CARD_IN_HAND] = out[base + C.CARD_KNOWN] = 1.0
            else:
                out[base + C.CARD_HIDDEN] = 1.0
            out[base + C.CARD_PLANNED_DAMAGE] = f("in_damage")[q, inst] / 5.0
            out[base + C.CARD_PLANNED_STUN] = f("in_stun")[q, inst]
    if own_open and sub != SUB_MAIN:
        out[L.O_MY_CARDS + int(f("cur_inst")[p]) * C.CARD_SIZE + C.CARD_RESOLVING] = 1.0
    return out


def _check(g: BatchGame, rows: np.ndarray) -> int:
    """The float view of what the kernel stored (int16, issue 41) against the documented float values."""
    for p in (0, 1):
        obs = L.OBS.float_view(g.observe(np.full(g.num_games, p, np.int32)))
        for i in rows:
            np.testing.assert_array_equal(obs[i], reference(g.states[i], g.pool, p),
                                          err_msg=f"row {i}, viewer {p}")
    return rows.size


def test_SF_R2_every_observation_value_matches_the_documented_table_in_random_play() -> None:
    """SF-R2: both viewers of positions from random play (plans open, sub-decisions pending, after resolutions)."""
    g = BatchGame(SPEC, 12, seed=8)
    rng = np.random.default_rng(8)
    seen = [0, 0]  # decisions, positions checked

    def decide(who: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        seen[0] += 1
        if seen[0] % 10 == 4 and seen[0] < 160:  # every tenth decision of the batch's first 160, every live row
            seen[1] += _check(g, np.flatnonzero(who >= 0))
        return masked_uniform(mask, rng)

    g.play_out(decide, observe=False)
    assert seen[1] > 60


def test_SF_C7_SF_C6_a_built_position_with_every_flag_observes_as_documented() -> None:
    """SF-C6, SF-C7, SF-E5: Stunned and Protected units on both sides, a target pending, damage and a Stun planned,
    cards in the opponent's discard and hidden hand: both viewers' observations match the table value by value."""
    g = Game().setup(PH_ATTACK, 3, dict(play=["Hedge Archer", ("Mirror Knight", 2), "Warden"], swords=3, shields=1,
                                        next=(1, 0, -2), stunned=["Warden"], protected=["Mirror Knight"], gold=4,
                                        hand=["Herald"], discard=["Tin Sentry"]),
                     dict(play=[("Siege Ram", 3), "Bulwark Golem", "Mud Golem"], stunned=["Mud Golem"],
                          protected=["Bulwark Golem"], health=9, swords=1, hand=["Plague Rat", "Coin Hoarder"],
                          discard=["Herald", "Field Medic"]))
    g.use(0, "Hedge Archer")
    assert int(g.get("sub")[0]) == SUB_TARGET
    rows = np.array([0])
    assert _check(g.g, rows) == 1
    g.foe(0, "Siege Ram")
    _check(g.g, rows)
    g2 = Game().setup(PH_DEFEND, 2, dict(hand=["Frost Hexer"], gold=4, shields=2),
                      dict(play=["Cinder Lancer", "Siege Ram"], hand=["Herald"], gold=1))
    g2.play(0, "Frost Hexer")
    _check(g2.g, rows)
