"""LN-T3 / LN-K3 (issue 39 item 6): an event or [Use] skill is offered only when one of its effects can change
something now, decided on public information (deck and hand sizes, levels, the battle, rest states and attacks).

One scenario per card the audit measured offering no-ops, then a sweep over heuristic and random games that applies
every offered event and skill to a copy of the position and checks that its effects changed something that can
still matter.
"""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_TO_ACT, H_TURN, HEADER_SIZE, LIVE
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo import state as S
from cardenvs.games.levelneo.actions import A_EFFECT_TARGET, A_HAND, A_HAND_END, A_SKILL, A_SKILL_END, NUM_ACTIONS
from cardenvs.games.levelneo.tables import C_TYPE, TYPE_EVENT
from cardenvs.games.levelneo.effects import effect_can_act
from cardenvs.games.levelneo.rules import apply_action, apply_choice, drain_effects, mask_row
from cardenvs.games.levelneo.state import ST_BATTLE_WINDOW, ST_COVER_WINDOW, ST_DECL_WINDOW, ST_MAIN

from levelneo_helpers import FILLER, POOL, build, do, field, inst_of, is_legal, legal

STOP = "Clumsy Page"
LV = FILLER + ":up"


def red(**kw) -> dict:
    side = {"main": "Ashen Recruit", "hand": [STOP]}
    side.update(kw)
    return side


def blue(**kw) -> dict:
    side = {"main": "Harbor Watch"}
    side.update(kw)
    return side


def set_battle(g: BatchGame, atk_a: int, target: int) -> None:
    field(g, "battle")[...] = 1
    field(g, "atk_a")[...] = atk_a
    field(g, "target")[...] = target
    field(g, "orig_target")[...] = target
    field(g, "rested")[int(field(g, "turn_player")), atk_a] = 1
    field(g, "attacked")[int(field(g, "turn_player")), atk_a] = 1


# ---------------------------------------------------------------------------------------------------- per card
def test_LN_T3_mind_drain_needs_a_card_in_the_opponents_hand() -> None:
    """Mind Drain (the opponent discards 1 at random) is not offered while the opponent's hand is empty (public)."""
    g = build(blue(hand=["Mind Drain", "Drowsy Ghost"]), red(hand=[]))
    assert not is_legal(g, "hand", 0)
    g = build(blue(hand=["Mind Drain", "Drowsy Ghost"]), red(hand=["Lost Lamb"]))
    do(g, "hand", 0)
    assert int(field(g, "hand_count")[1]) == 0


def test_LN_K3_deepwater_oracle_needs_a_card_in_the_opponents_hand() -> None:
    g = build(blue(supports=["Deepwater Oracle"], level=[LV], hand=["Drowsy Ghost"]), red(hand=[]))
    assert not is_legal(g, "skill", 1)
    g = build(blue(supports=["Deepwater Oracle"], level=[LV], hand=["Drowsy Ghost"]), red(hand=["Lost Lamb"]))
    do(g, "skill", 1)
    assert int(field(g, "hand_count")[1]) == 0


def test_LN_T3_recall_signal_needs_a_resting_main() -> None:
    """Recall Signal activates the own main: not offered while the main is already Active."""
    g = build({"main": "Brass Footman", "hand": ["Recall Signal", "Rusty Bot"]}, blue())
    assert not is_legal(g, "hand", 0)
    g = build({"main": "Brass Footman:R", "hand": ["Recall Signal", "Rusty Bot"]}, blue())
    do(g, "hand", 0)
    assert field(g, "rested")[0, inst_of(g, 0, "main")] == 0


def test_LN_T3_overgrowth_is_not_offered_at_level_5() -> None:
    g = build({"main": "Meadow Scout", "hand": ["Overgrowth", "Lost Lamb"], "level": [LV] * 4}, blue())
    assert not is_legal(g, "hand", 0)
    g = build({"main": "Meadow Scout", "hand": ["Overgrowth", "Lost Lamb"], "level": [LV] * 3}, blue())
    do(g, "hand", 0)
    assert int(field(g, "level_count")[0]) == 4


def test_LN_K3_sprout_druid_is_not_offered_at_level_5() -> None:
    g = build({"main": "Meadow Scout", "supports": ["Sprout Druid"], "level": [LV] * 4, "hand": ["Lost Lamb"]},
              blue())
    assert not is_legal(g, "skill", 1)
    g = build({"main": "Meadow Scout", "supports": ["Sprout Druid"], "level": [LV] * 3, "hand": ["Lost Lamb"]},
              blue())
    do(g, "skill", 1)
    assert int(field(g, "level_count")[0]) == 4


def test_LN_K3_furnace_knight_boost_only_while_it_can_still_battle() -> None:
    """Furnace Knight: AP +1000 until the end of its next battle. Offered before it attacks and during its battle;
    not once its battle is over (it cannot attack again this turn, and the boost ends with the turn, LN-T8)."""
    g = build(red(supports=["Furnace Knight"], level=[LV]), blue(), step=ST_BATTLE_WINDOW)
    assert is_legal(g, "skill", 1)
    knight = inst_of(g, 0, "support")
    set_battle(g, knight, inst_of(g, 1, "main"))
    field(g, "step")[...] = ST_DECL_WINDOW
    assert is_legal(g, "skill", 1)  # its own battle
    g = build(red(supports=["Furnace Knight:R"], level=[LV]), blue(), step=ST_BATTLE_WINDOW)
    field(g, "attacked")[0, inst_of(g, 0, "support")] = 1
    assert not is_legal(g, "skill", 1)


def test_LN_T3_ap_changes_wait_for_a_battle_that_can_still_come() -> None:
    """A main-phase AP boost (Banner Knight's Rally, Rally Banner) acts in main phase 1 (the battle phase follows),
    not in main phase 2 nor on the first turn (LN-T5): AP counts only in a judgement and ends with the turn."""
    side = {"main": "Brass Footman", "supports": ["Banner Knight"], "hand": ["Rally Banner", "Rusty Bot"]}
    g = build(side, blue())
    assert is_legal(g, "skill", 1) and is_legal(g, "hand", 0)
    g = build(side, blue(), main_phase=2)
    assert not is_legal(g, "skill", 1) and not is_legal(g, "hand", 0)
    g = build(side, blue(), turn=1)
    assert not is_legal(g, "skill", 1) and not is_legal(g, "hand", 0)


def test_LN_T3_tidal_shield_waits_for_an_attack() -> None:
    """Tidal Shield (the defender's main cannot level down this battle; AP +500 to its battlers): not offered
    before an attack (it used to set the protection for the next battle), offered once its main is attacked."""
    g = build(red(), blue(hand=["Tidal Shield"], level=[LV]), step=ST_BATTLE_WINDOW, sub=1)
    assert legal(g) == [("pass", 0)]
    g = build(red(), blue(hand=["Tidal Shield"], level=[LV]), step=ST_DECL_WINDOW, sub=1)
    set_battle(g, inst_of(g, 0, "main"), inst_of(g, 1, "main"))
    do(g, "hand", 0, skip=False)
    assert int(field(g, "no_level_down")[1]) == 1


def test_LN_J5_prevent_level_down_acts_only_for_a_targeted_main_with_a_level_to_lose() -> None:
    """The prevent_level_down effect alone (Tidal Shield's first effect): only the defending main that is the
    target levels down (LN-J5), not at level 1 (LN-L6), and not twice."""
    shield = POOL.by_name["Tidal Shield"]

    def can(g: BatchGame) -> bool:
        return bool(effect_can_act(g.states[0], POOL.tables, 1, shield, 0, -1))

    g = build(red(), blue(level=[LV], supports=["Harbor Watch"]), step=ST_DECL_WINDOW, sub=1)
    assert not can(g)  # no battle
    set_battle(g, inst_of(g, 0, "main"), inst_of(g, 1, "main"))
    assert can(g)
    field(g, "no_level_down")[1] = 1
    assert not can(g)  # already protected
    field(g, "no_level_down")[1] = 0
    field(g, "target")[...] = inst_of(g, 1, "support")  # covered: the main is out of the judgement
    field(g, "step")[...] = ST_COVER_WINDOW
    assert not can(g)
    g = build(red(), blue(), step=ST_DECL_WINDOW, sub=1)
    set_battle(g, inst_of(g, 0, "main"), inst_of(g, 1, "main"))
    assert not can(g)  # level 1 cannot go down


def test_LN_T3_resting_the_defender_matters_only_while_a_battle_can_come() -> None:
    """Undertow rests one of the opponent's supports. In the turn player's main phase 1 that opens it to support
    attacks; in main phase 2 it would be undone at the opponent's start of turn (LN-T1) before any battle, so it is
    not offered; played in the opponent's turn on the turn player's support, the rest lasts through the next turn."""
    me = blue(hand=["Undertow", "Drowsy Ghost"])
    g = build(me, red(supports=["Ashen Recruit"]))
    assert is_legal(g, "hand", 0)
    g = build(me, red(supports=["Ashen Recruit"]), main_phase=2)
    assert not is_legal(g, "hand", 0)
    g = build(red(supports=["Ashen Recruit"]), me, main_phase=2, sub=1)
    assert is_legal(g, "hand", 0)


# ---------------------------------------------------------------------------------------------------- the sweep
def _judgeable(row: np.ndarray, q: int, inst: int) -> bool:
    """RULES.md's definition (LN-T3): a character can still be in a judgement this turn."""
    f = lambda name: SPEC.state_layout.get(row, name)  # noqa: E731
    tp = int(f("turn_player"))
    if int(f("battle")):
        if (q == tp and inst in (int(f("atk_a")), int(f("atk_b")))) or (q != tp and inst == int(f("target"))):
            return True
        if q != tp and int(f("step")) == ST_DECL_WINDOW and inst != int(f("main")[q, 0]):
            return True  # may cover
    if int(f("step")) == ST_MAIN and (int(f("main_phase")) == 2 or int(row[H_TURN]) <= 1):
        return False
    attacked = f("attacked")
    if q == tp:
        return not attacked[q, inst]
    field_tp = [int(f("main")[tp, 0])] + [int(i) for i in f("support")[tp, : int(f("support_count")[tp])]]
    return any(not attacked[tp, i] for i in field_tp)


_SKIP = [(S.QUEUE, S.QUEUE_END), (S.QUEUE_COUNT, S.QUEUE_COUNT_END), (S.CHOICE_PLAYER, S.CHOICE_EFFECT_END),
         (S.AP_TURN, S.AP_BATTLE_END), (S.NO_LEVEL_DOWN, S.NO_LEVEL_DOWN_END)]


def _matters(before: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a`` (the effects resolved) differs from ``b`` (only the cost paid) in something that can matter."""
    keep = np.ones(a.size, dtype=bool)
    keep[:HEADER_SIZE] = False  # the RNG counter (a random discard) is in the header
    for lo, hi in _SKIP:
        keep[lo:hi] = False
    if (a[keep] != b[keep]).any():  # zones, counts, rest states, levels...
        return True
    for start in (S.AP_TURN, S.AP_NEXT, S.AP_BATTLE):
        for k in np.flatnonzero(a[start:start + 2 * S.DECK_SIZE] != b[start:start + 2 * S.DECK_SIZE]):
            if _judgeable(before, int(k) // S.DECK_SIZE, int(k) % S.DECK_SIZE):
                return True
    f = lambda row, name: SPEC.state_layout.get(row, name)  # noqa: E731
    for p in range(2):
        if f(a, "no_level_down")[p] != f(b, "no_level_down")[p]:
            if (f(before, "battle") and f(before, "target") == f(before, "main")[p, 0]
                    and p != f(before, "turn_player") and f(before, "level_count")[p] > 0):
                return True
    return False


def _resolved(row: np.ndarray, tables) -> list[np.ndarray]:
    """Every way the queued effects can resolve (each choice of a one-support target tried)."""
    drain_effects(row, tables)
    cp = int(SPEC.state_layout.get(row, "choice_player"))
    if cp < 0:
        return [row]
    row[H_TO_ACT] = cp
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask_row(row, tables, cp, mask)
    out = []
    for a in np.flatnonzero(mask):
        nxt = row.copy()
        apply_choice(nxt, tables, int(a) - A_EFFECT_TARGET)
        out.extend(_resolved(nxt, tables))
    return out


def _check_offers(g: BatchGame, i: int, mask: np.ndarray, p: int, found: list, checked: list) -> None:
    row = g.states[i]
    tables = g.pool.tables
    for a in np.flatnonzero(mask):
        if A_HAND <= a < A_HAND_END:
            inst = int(SPEC.state_layout.get(row, "hand")[p, a - A_HAND])
            card = int(SPEC.state_layout.get(row, "deck_list")[p, inst])
            if tables.cards[card, C_TYPE] != TYPE_EVENT:
                continue  # a support play, not an effect
        elif A_SKILL <= a < A_SKILL_END:
            s = a - A_SKILL
            inst = int(SPEC.state_layout.get(row, "main")[p, 0]) if s == 0 else \
                int(SPEC.state_layout.get(row, "support")[p, s - 1])
            card = int(SPEC.state_layout.get(row, "deck_list")[p, inst])
        else:
            continue
        with_effects = row.copy()
        apply_action(with_effects, tables, p, int(a))
        cost_only = with_effects.copy()
        cost_only[S.QUEUE_COUNT] = 0
        checked.append(card)
        if not any(_matters(row, r, cost_only) for r in _resolved(with_effects, tables)):
            found.append((POOL.name(card), int(row[S.STEP]), int(row[H_TURN])))


@pytest.mark.parametrize("pilots", [("heuristic", "heuristic"), ("random", "random")])
def test_LN_T3_LN_K3_no_offered_event_or_skill_changes_nothing(pilots: tuple[str, str]) -> None:
    """Sweep (issue 39 item 6): in heuristic and random games over every starter pairing, each event and [Use]
    skill offered is played on a copy; its effects must change a zone, a count, a rest state or a level, or an AP or
    level-down protection of a character that can still be judged this turn. RULES.md documents no exception."""
    from cardenvs.agents import make_agent

    names = SPEC.starter_decks()
    pairs = [(a, b) for a in names for b in names][:12]
    g = BatchGame(SPEC, len(pairs), decks=pairs, seed=39)
    agents = [make_agent("levelneo", kind, seed=7 + j) for j, kind in enumerate(pilots)]
    found: list = []
    checked: list = []
    for _ in range(3000):
        live = np.flatnonzero(g.status == LIVE)
        if live.size == 0:
            break
        who = g.to_act.copy()
        masks = g.legal_mask()
        obs = g.observe(np.maximum(who, 0))
        for i in live:
            if int(g.states[i, S.STEP]) in (ST_MAIN, ST_BATTLE_WINDOW, ST_DECL_WINDOW, ST_COVER_WINDOW):
                _check_offers(g, int(i), masks[i], int(who[i]), found, checked)
        actions = np.zeros(len(pairs), dtype=np.int64)
        for seat in (0, 1):
            idx = live[who[live] == seat]
            if idx.size:
                agent = agents[seat]
                if hasattr(agent, "kernel"):
                    actions[idx] = agent.act(obs[idx], masks[idx], g.states[idx], who[idx], fallback=False)
                else:
                    actions[idx] = agent.act(obs[idx], masks[idx])
        g.step(actions)
    assert (g.status != LIVE).all()
    assert len(checked) > 300 and len(set(checked)) > 15, (len(checked), len(set(checked)))  # the sweep saw play
    assert found == [], found[:20]
