"""Text for people at the board: ``LEGEND`` (every mark ``actions.render`` prints) and ``explain_illegal`` (why an
action is not legal for a player now), both registered in ``SPEC.extra`` for ``cardenvs play`` (``legend``,
``why N``).

``explain_illegal`` asks the rules kernel itself (``rules.action_legal``) whether the action is legal, so it returns
"" exactly when the mask offers the action; the reasons are read from the same predicates the mask uses
(``can_play``, ``can_use``, ``can_pay``, ``can_pay_with``, ``is_candidate``, ``foe_view_health``). simulfight is
simultaneous, so an explanation reads only what the asking player may know (SF-R2): their own side live, and the
other side as their plan sees it (the phase-start snapshot less the damage their own plan queued, G3). It never reads
the other player's hand, deck order or live side, nor what the other plan queued against the asking player (the
``in_*`` fields of the asker's own side), so it cannot tell a player anything about the other plan
(``test_explanations_do_not_depend_on_the_other_plan`` checks this).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.header import H_STATUS, LIVE, TRUNCATED

from .actions import (
    A_ALLY, A_ALLY_END, A_DONE, A_FOE, A_FOE_END, A_PLAY, A_PLAY_END, A_USE, A_USE_END, ACTIONS, NUM_ACTIONS,
    ability_text, phase_trigger,
)
from .cards import (
    C_COST, C_COST_AMOUNT, C_GOLD, C_N, CO_HEALTH_LE, COST_GOLD, COST_NONE, COST_SHIELDS, COST_SWORDS,
    CONDITIONS, E_COND, E_TARGET, E_THRESHOLD, TG_ONE_ALLY, TRIGGERS,
)
from .effects import foe_view_health, is_candidate
from .rules import action_legal, can_pay, can_pay_with, can_play, can_use
from . import state as S

__all__ = ["LEGEND", "explain_illegal", "NO_REASON"]

_RANGES = {"done": f"{A_DONE}", "play": f"{A_PLAY}-{A_PLAY_END - 1}", "use": f"{A_USE}-{A_USE_END - 1}",
           "ally": f"{A_ALLY}-{A_ALLY_END - 1}", "foe": f"{A_FOE}-{A_FOE_END - 1}"}

LEGEND = f"""\
simulfight board legend (every mark the text board prints)
Header "simulfight round N, Defend phase | player_0's view": the round number (the game is truncated, no
  winner, when round 41 would start) and the phase. A round is Start (automatic: draw 2, +2 gold, shields =
  swords = round number, then next-round changes), Defend (play cards, use DEFEND abilities) and Attack (use
  ATTACK abilities). In Defend and Attack both players build a plan at once without seeing the other's; what a
  plan does to the other side lands when both plans are done.
  After "|", whose view the board is: "player_0's view" (what player_0 may see: its own side live, the other
  side as at the phase start), "public view" (what both players may see: both sides as at the phase start, no
  hand, no plan; render_mode="human" prints it while the game is live) or "full view" (every hand and plan:
  the ansi render() for logs, tests and golden files, never a player's screen).
  "-- game over: finished, winner W": W is 0 or 1 (player_0 / player_1 won) or 2 (a draw: equal health);
  "-- game over: truncated, winner -1": stopped at the round cap, nobody won.
Player line "player_0 (you): health H, gold G, shields S, swords W; deck D, hand N, discard X; plan ...":
  (you)        your side (shown first, live: what your plan has done so far is already in it);
  health       the player's health (the game ends when a player is at 0 or less; higher health wins);
  gold         pays for playing cards (carries over between rounds);
  shields, swords  pay ability costs (reset to the round number each Start phase; unused ones vanish);
  deck, hand, discard  how many cards are in each (a player's view never shows the opponent's hand);
  plan open    the player is still building this phase's plan;
  plan done    the player's plan for this phase is finished ("done", or closed by itself with nothing to decide);
  plan hidden  the opponent's side: shown as it stood at the START of the phase; their plan so far is hidden
               until both plans are done (in the public view both sides are shown this way; the full view
               of logs, golden files and replays shows both sides live, both hands and both plans).
"next round: +1 gold, -2 swords": gains (+) or losses (-) that land at the next Start phase.
"in play: #i Name Nhp FLAGS": the units in play in the order they were played; "-" = none.
  #i    the card's instance number in its owner's deck list (the number the actions use: play #i, use #i,
        ally #i, foe #i); Nhp its current health (kept between rounds; 0 or less: discarded at the phase end).
  Flags after the health (any of):
  P     Protected: cannot lose health and cannot pay a health cost, until the end of the round;
  S     Stunned: uses no abilities until the end of the round;
  u     used: this unit already used this phase's ability (once per phase; only on your own side).
"hand: #i Name (Ng)": your hand, each card with its gold cost to play (g = gold); "-" = empty.
"planned against the opponent: ...": what your plan has queued against the other side, landing when both plans
  are done: "#i Name -2" (2 damage to that Foe), "#i Name stunned", "opponent -3 health", "opponent +1 gold"
  (a resource change now), "opponent -1 gold next round".
"pending: choose the ally that pays for #i Name": pick which of your units pays the health cost of #i's ability
  (an "ally N" action); "pending: choose a target for #i Name": pick the unit #i's effect hits ("ally N" for one
  of your units, "foe N" for a Foe).
Foe: a unit the other player had in play at the start of this phase (units they play during the phase are not
  Foes until the next phase). Card text: "DEFEND: 1 shields -> protect self" = the ability, its cost, its effect;
  "[health_le 2]" = only units with 2 health or less, "[you_health_le 10]" = only while you have 10 or less, etc.
Action ids (for "why N"): {_RANGES['done']} done (end this phase's plan); {_RANGES['play']} play #0-#39 (Defend only);
  {_RANGES['use']} use #0-#39 (the phase's ability of a unit in play); {_RANGES['ally']} ally #0-#39 (the unit
  that pays a health cost, or the target); {_RANGES['foe']} foe #0-#39 (the target). DEFEND/ATTACK abilities
  are mandatory: "done" is legal only when none of your units can use and pay one."""

NO_REASON = "not legal in this decision"  # the sweep test checks every refusal gets a real reason instead

_ZONE = {S.LOC_DECK: "in your deck", S.LOC_HAND: "in your hand", S.LOC_PLAY: "in play",
         S.LOC_DISCARD: "in your discard pile"}
_COST_WORD = {COST_SHIELDS: "shields", COST_SWORDS: "swords", COST_GOLD: "gold"}
_RES_INDEX = {COST_GOLD: S.RES_GOLD, COST_SHIELDS: S.RES_SHIELDS, COST_SWORDS: S.RES_SWORDS}


def _f(row: np.ndarray, name: str) -> np.ndarray:
    return S.STATE.get(row, name)


def _kind(action: int) -> tuple[str, int]:
    return ACTIONS.locate(action)  # (range name, index inside the range)


def _unit(row: np.ndarray, pool: Any, side: int, inst: int) -> str:
    return f"#{inst} {pool.name(int(_f(row, 'deck_list')[side, inst]))}"


def _no_card(row: np.ndarray, side: int, inst: int, whose: str) -> str:
    """'' if ``side`` has a card instance ``inst``, else why not (deck lists are public)."""
    size = int(_f(row, "deck_size")[side])
    if 0 <= inst < size:
        return ""
    return f"{whose} deck list has {size} cards, #0 to #{size - 1}: there is no card #{inst}"


def _ability_name(row: np.ndarray, pool: Any, p: int, inst: int, trig: int) -> str:
    cid = int(_f(row, "deck_list")[p, inst])
    text = ability_text(pool, cid, trig)
    return f"{_unit(row, pool, p, inst)}'s {TRIGGERS[trig].upper()} ability" + (f" ({text})" if text else "")


def _payers(row: np.ndarray, pool: Any, p: int, amount: int) -> str:
    """Why none of ``p``'s units can pay a health cost of ``amount`` (own side only)."""
    parts = []
    for inst in _f(row, "play")[p]:
        if inst < 0:
            break
        inst = int(inst)
        if int(_f(row, "protected")[p, inst]):
            parts.append(f"{_unit(row, pool, p, inst)} is Protected (a Protected unit cannot lose health)")
        else:
            parts.append(f"{_unit(row, pool, p, inst)} has {int(_f(row, 'unit_health')[p, inst])} health")
    return "; ".join(parts) if parts else "you have no units in play"


def _cost_reason(row: np.ndarray, cards: np.ndarray, pool: Any, p: int, inst: int, trig: int) -> str:
    card = int(_f(row, "deck_list")[p, inst])
    kind = int(cards[card, C_COST + trig])
    amount = int(cards[card, C_COST_AMOUNT + trig])
    if kind == COST_NONE or can_pay(row, p, kind, amount):
        return ""
    if kind in _COST_WORD:
        have = int(_f(row, "resources")[p, _RES_INDEX[kind]])
        return f"it costs {amount} {_COST_WORD[kind]} and you have {have} (an unaffordable ability is skipped, SF-D5)"
    return (f"it costs {amount} health paid by one of your units in play with at least {amount} health that is not "
            f"Protected, and none can pay: {_payers(row, pool, p, amount)} (SF-C2, G5)")


def _main_step(row: np.ndarray, cards: np.ndarray, pool: Any, p: int, kind: str, i: int, phase: str) -> list[str]:
    if kind == "done":
        must = [_ability_name(row, pool, p, int(u), phase_trigger(int(_f(row, "phase"))))
                for u in _f(row, "play")[p] if u >= 0 and can_use(row, cards, p, int(u))]
        rule = "SF-D4" if int(_f(row, "phase")) == S.PH_DEFEND else "SF-A1"
        return [f"{phase.upper()} abilities are mandatory: you can still use and pay " + ", ".join(must)
                + f"; use {'it' if len(must) == 1 else 'them'} first (in any order), then 'done' ({rule})"]
    if kind in ("ally", "foe"):
        what = "an ally" if kind == "ally" else "a Foe"
        return [f"no choice of {what} is pending: '{kind} N' actions ({_RANGES[kind]}) answer the choice of the unit "
                f"that pays a health cost or of an effect's target, right after you play or use a card that needs "
                f"one; now you are building your {phase} plan (play, use or done)"]
    missing = _no_card(row, p, i, "your")
    if missing:
        return [missing]
    name = _unit(row, pool, p, i)
    loc = int(_f(row, "loc")[p, i])
    at = _ZONE.get(loc, "not in any zone")
    if kind == "play":
        if int(_f(row, "phase")) != S.PH_DEFEND:
            return [f"cards are played only in the Defend phase (SF-D1); this is the {phase} phase: here you use "
                    f"ATTACK abilities of your units in play"]
        if loc != S.LOC_HAND:
            return [f"{name} is not in your hand: it is {at}"]
        cost = int(cards[int(_f(row, 'deck_list')[p, i]), C_GOLD])
        have = int(_f(row, "resources")[p, S.RES_GOLD])
        if not can_play(row, cards, p, i):
            return [f"{name} costs {cost} gold and you have {have} (SF-D1)"]
        return []
    # use
    trig = phase_trigger(int(_f(row, "phase")))
    reasons = []
    if loc != S.LOC_PLAY:
        reasons.append(f"{name} is not in play: it is {at}; only units in play use abilities")
        return reasons
    card = int(_f(row, "deck_list")[p, i])
    if int(cards[card, C_N + trig]) == 0:
        other = [t for t in (S.TR_DEFEND, S.TR_ATTACK) if t != trig and int(cards[card, C_N + t])]
        when = S.PHASE_NAMES[other[0] - S.TR_DEFEND + S.PH_DEFEND] if other else ""
        note = f" (its {TRIGGERS[other[0]].upper()} ability is used in the {when} phase)" if other else ""
        reasons.append(f"{name} has no {TRIGGERS[trig].upper()} ability, the kind used in the {phase} phase{note}")
        return reasons
    if int(_f(row, "used")[p, i]):
        reasons.append(f"{name} already used its {TRIGGERS[trig].upper()} ability this phase (once per phase)")
    if int(_f(row, "unit_health")[p, i]) <= 0:
        reasons.append(f"{name} has {int(_f(row, 'unit_health')[p, i])} health: a unit that lost all its health uses "
                       f"no more abilities (SF-C8); it is discarded when the phase ends")
    if int(_f(row, "stunned")[p, i]):
        reasons.append(f"{name} is Stunned: it uses no abilities until the end of the round (SF-C7)")
    if not reasons:
        cost = _cost_reason(row, cards, pool, p, i, trig)
        if cost:
            reasons.append(f"{_ability_name(row, pool, p, i, trig)}: {cost}")
    return reasons


def _sub_step(row: np.ndarray, cards: np.ndarray, effects: np.ndarray, pool: Any, p: int, kind: str, i: int) -> list[str]:
    sub = int(_f(row, "sub")[p])
    src = int(_f(row, "cur_inst")[p])
    trig = int(_f(row, "cur_trigger")[p])
    card = int(_f(row, "deck_list")[p, src])
    ability = _ability_name(row, pool, p, src, trig)
    if sub == S.SUB_PAYER:
        amount = int(cards[card, C_COST_AMOUNT + trig])
        if kind != "ally":
            return [f"you are choosing which of your units pays the {amount} health that {ability} costs: only an "
                    f"'ally N' action ({_RANGES['ally']}) answers now; finish this choice first"]
        missing = _no_card(row, p, i, "your")
        if missing:
            return [missing]
        name = _unit(row, pool, p, i)
        loc = int(_f(row, "loc")[p, i])
        if loc != S.LOC_PLAY:
            return [f"{name} is not in play (it is {_ZONE.get(loc, 'not in any zone')}): only a unit in play can pay "
                    f"the {amount} health"]
        if int(_f(row, "protected")[p, i]):
            return [f"{name} is Protected and cannot lose health, so it cannot pay the {amount} health (G5)"]
        if not can_pay_with(row, p, i, amount):
            return [f"{name} has {int(_f(row, 'unit_health')[p, i])} health and the cost is {amount} (SF-C2)"]
        return []
    entry = effects[card, trig, int(_f(row, "cur_entry")[p])]
    target = int(entry[E_TARGET])
    want = "ally" if target == TG_ONE_ALLY else "foe"
    cond, threshold = int(entry[E_COND]), int(entry[E_THRESHOLD])
    if kind != want:
        whom = "one of your units in play" if want == "ally" else "a Foe (a unit the opponent had in play at the phase start)"
        return [f"you are choosing the target of {ability}: it must be {whom}, a '{want} N' action "
                f"({_RANGES[want]}); finish this choice first"]
    side = p if want == "ally" else 1 - p
    missing = _no_card(row, side, i, "your" if want == "ally" else "the opponent's")
    if missing:
        return [missing]
    name = _unit(row, pool, side, i)
    if want == "ally":
        loc = int(_f(row, "loc")[p, i])
        if loc != S.LOC_PLAY:
            return [f"{name} is not in play (it is {_ZONE.get(loc, 'not in any zone')}): the target must be one of "
                    f"your units in play"]
        health = int(_f(row, "unit_health")[p, i])
        seen = f"{name} has {health} health"
    else:
        snap = _f(row, "snap_play")[side]
        if i not in set(int(u) for u in snap if u >= 0):
            return [f"{name} is not a Foe: the targets are the units the opponent had in play at the start of this "
                    f"phase (a unit played during the phase is not a Foe until the next phase)"]
        health = int(foe_view_health(row, p, i))
        seen = f"as your plan sees it, {name} has {health} health (its health at the phase start less the damage " \
               f"your plan queued on it, G3)"
    if not is_candidate(row, p, target, cond, threshold, i):
        need = f"{threshold} or less" if cond == CO_HEALTH_LE else f"{threshold} or more"
        return [f"{seen}; this effect hits only a unit with {need} health ({CONDITIONS[cond]} {threshold})"]
    return []


def explain_illegal(row: np.ndarray, pool: Any, player: int, action: int) -> str:
    """Why ``action`` is not legal for ``player`` now, in simulfight's terms; "" if it is legal.

    Reads only what ``player`` may know (their own side, public zones and the other side as their plan sees it), so
    it says nothing about the other player's hand or plan."""
    row = np.ascontiguousarray(row, dtype=np.int32)
    if not row.flags.writeable:  # the kernels' signatures take a writable row (a replay may hand a read-only one)
        row = row.copy()
    cards, effects = pool.tables[0], pool.tables[1]
    p, a = int(player), int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"there is no action {a}: action ids run from 0 to {NUM_ACTIONS - 1}"
    if p not in (0, 1):
        return f"there is no player {p}: the players are 0 and 1"
    if action_legal(row, cards, effects, p, a):
        return ""
    status = int(row[H_STATUS])
    if status != LIVE:
        return "the game is over" + (" (truncated at the round cap)" if status == TRUNCATED else "")
    phase = S.PHASE_NAMES[int(_f(row, "phase"))]
    if not int(_f(row, "plan_open")[p]):
        after = "Attack phase" if int(_f(row, "phase")) == S.PH_DEFEND else "next round's Defend phase"
        return (f"your {phase} plan is done (you chose 'done', or it closed by itself with nothing left to decide); "
                f"you plan again in the {after}, once both plans of this phase are done")
    kind, i = _kind(a)
    if int(_f(row, "sub")[p]) == S.SUB_MAIN:
        reasons = _main_step(row, cards, pool, p, kind, i, phase)
    else:
        reasons = _sub_step(row, cards, effects, pool, p, kind, i)
    return "; ".join(reasons) if reasons else NO_REASON

