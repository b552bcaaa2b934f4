"""Text for people at the board: ``LEGEND`` (every mark ``actions.render`` prints) and ``explain_illegal`` (why an
action is not legal for a player now), both registered in ``SPEC.extra`` for ``cardenvs play`` (``legend``,
``why N``).

``explain_illegal`` decides nothing itself: the legal-action kernel records, for every action it refuses, the reason
code of the very branch that refuses it (``rules.why_row``; the codes and their message templates are declared once
in reasons.py), and this module only fills the template's fields (card names, zones, costs, amounts) from the row.
So it returns "" exactly when the mask offers the action, and its reason is the mask's. simulfight is simultaneous,
so the fields read only what the asking player may know (SF-R2): their own side live, and the other side as their
plan sees it (the phase-start snapshot less the damage their own plan queued, G3). They never read the other player's
hand, deck order or live side, nor what the other plan queued against the asking player (the ``in_*`` fields of the
asker's own side), so an explanation cannot tell a player anything about the other plan
(``test_explanations_do_not_depend_on_the_other_plan`` checks this).
"""
from __future__ import annotations

from string import Formatter
from typing import Any, Callable

import numpy as np

from cardenvs.core.header import H_STATUS, TRUNCATED

from .actions import (
    A_ALLY, A_ALLY_END, A_DONE, A_FOE, A_FOE_END, A_PLAY, A_PLAY_END, A_USE, A_USE_END, ACTIONS, NUM_ACTIONS,
    ability_text, phase_trigger,
)
from .cards import (
    C_COST, C_COST_AMOUNT, C_GOLD, C_N, CO_HEALTH_LE, COST_GOLD, COST_SHIELDS, COST_SWORDS, CONDITIONS, E_COND,
    E_TARGET, E_THRESHOLD, TG_ONE_ALLY, TRIGGERS, Tables,
)
from .effects import foe_view_health
from .reasons import REASONS
from .rules import mask_row, why_row
from . import reasons as R
from . import state as S

__all__ = ["LEGEND", "explain_illegal", "reasons", "NO_REASON"]

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
"known in hand: #i Name": the opponent's cards that both players know are in its hand (its deck ran out since
  they were drawn, so every card not in play or discarded was in the hand; a reshuffle brings back only
  discarded cards); the rest of that hand is hidden.
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


def _unit(row: np.ndarray, pool: Any, side: int, inst: int) -> str:
    return f"#{inst} {pool.name(int(_f(row, 'deck_list')[side, inst]))}"


def _ability_name(row: np.ndarray, pool: Any, p: int, inst: int, trig: int) -> str:
    cid = int(_f(row, "deck_list")[p, inst])
    text = ability_text(pool, cid, trig)
    return f"{_unit(row, pool, p, inst)}'s {TRIGGERS[trig].upper()} ability" + (f" ({text})" if text else "")


def _payers(row: np.ndarray, pool: Any, p: int) -> str:
    """What stops each of ``p``'s units in play from paying a health cost: its health, or that it is Protected."""
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


class _Words:
    """The fields of a reason's template for one (row, player, action): each computed when a template names it."""

    def __init__(self, row: np.ndarray, pool: Any, p: int, a: int, mask: np.ndarray) -> None:
        self.row, self.pool, self.p, self.mask = row, pool, p, mask
        self.kind, self.i = ACTIONS.locate(a)  # (range name, card instance)
        self.tables = Tables(*pool.tables)
        self.cards = self.tables.cards
        self.phase_code = int(_f(row, "phase"))
        self.trig = phase_trigger(self.phase_code)
        self.sub = int(_f(row, "sub")[p])
        self.side = 1 - p if self.kind == "foe" else p  # whose card instance the action names

    def fill(self, template: str) -> str:
        names = {name for _, name, _, _ in Formatter().parse(template) if name}
        return template.format(**{name: _FIELDS[name](self) for name in names})

    # the card the action names, and the ability being resolved in a sub-decision
    def card(self) -> int:
        return int(_f(self.row, "deck_list")[self.side, self.i])

    def source(self) -> tuple[int, int]:
        return int(_f(self.row, "cur_inst")[self.p]), int(_f(self.row, "cur_trigger")[self.p])

    def entry(self) -> np.ndarray:
        src, trig = self.source()
        card = int(_f(self.row, "deck_list")[self.p, src])
        return self.tables.effects[card, trig, int(_f(self.row, "cur_entry")[self.p])]

    def want(self) -> str:
        """The action range the pending decision takes."""
        if self.sub == S.SUB_MAIN:
            return self.kind
        if self.sub == S.SUB_PAYER:
            return "ally"
        return "ally" if int(self.entry()[E_TARGET]) == TG_ONE_ALLY else "foe"

    def ability(self) -> str:
        if self.sub == S.SUB_MAIN:
            return _ability_name(self.row, self.pool, self.p, self.i, self.trig)
        return _ability_name(self.row, self.pool, self.p, *self.source())

    def cost(self) -> int:
        if self.kind == "play":
            return int(self.cards[self.card(), C_GOLD])
        return int(self.cards[self.card(), C_COST_AMOUNT + self.trig])

    def have(self) -> int:
        kind = S.RES_GOLD if self.kind == "play" else _RES_INDEX[int(self.cards[self.card(), C_COST + self.trig])]
        return int(_f(self.row, "resources")[self.p, kind])

    def must(self) -> list[str]:
        """The units whose ability must still be used: the mask offers their ``use``."""
        return [_ability_name(self.row, self.pool, self.p, int(u), self.trig)
                for u in np.flatnonzero(self.mask[A_USE:A_USE_END])]

    def note(self) -> str:
        other = [t for t in (S.TR_DEFEND, S.TR_ATTACK) if t != self.trig and int(self.cards[self.card(), C_N + t])]
        if not other:
            return ""
        return f" (its {TRIGGERS[other[0]].upper()} ability is used in the " \
               f"{S.PHASE_NAMES[other[0] - S.TR_DEFEND + S.PH_DEFEND]} phase)"

    def seen(self) -> str:
        name = _unit(self.row, self.pool, self.side, self.i)
        if self.side == self.p:
            return f"{name} has {int(_f(self.row, 'unit_health')[self.p, self.i])} health"
        health = int(foe_view_health(self.row, self.p, self.i))
        return f"as your plan sees it, {name} has {health} health (its health at the phase start less the damage " \
               f"your plan queued on it, G3)"


_FIELDS: dict[str, Callable[[_Words], Any]] = {
    "unit": lambda w: _unit(w.row, w.pool, w.side, w.i),
    "zone": lambda w: _ZONE.get(int(_f(w.row, "loc")[w.side, w.i]), "not in any zone"),
    "phase": lambda w: S.PHASE_NAMES[w.phase_code],
    "other_phase": lambda w: "Attack phase" if w.phase_code == S.PH_DEFEND else "next round's Defend phase",
    "trigger": lambda w: TRIGGERS[w.trig].upper(),
    "rule": lambda w: "SF-D4" if w.phase_code == S.PH_DEFEND else "SF-A1",
    "must": lambda w: ", ".join(w.must()),
    "them": lambda w: "it" if len(w.must()) == 1 else "them",
    "what": lambda w: "an ally" if w.kind == "ally" else "a Foe",
    "kind": lambda w: w.kind,
    "range": lambda w: _RANGES[w.want()],
    "want": lambda w: w.want(),
    "whom": lambda w: "one of your units in play" if w.want() == "ally"
    else "a Foe (a unit the opponent had in play at the phase start)",
    "whose": lambda w: "your" if w.side == w.p else "the opponent's",
    "size": lambda w: int(_f(w.row, "deck_size")[w.side]),
    "last": lambda w: int(_f(w.row, "deck_size")[w.side]) - 1,
    "i": lambda w: w.i,
    "cost": _Words.cost,
    "have": _Words.have,
    "resource": lambda w: _COST_WORD[int(w.cards[w.card(), C_COST + w.trig])],
    "health": lambda w: int(_f(w.row, "unit_health")[w.p, w.i]),
    "ability": _Words.ability,
    "payers": lambda w: _payers(w.row, w.pool, w.p),
    "amount": lambda w: int(w.cards[int(_f(w.row, "deck_list")[w.p, w.source()[0]]), C_COST_AMOUNT + w.source()[1]]),
    "note": _Words.note,
    "seen": _Words.seen,
    "need": lambda w: f"{int(w.entry()[E_THRESHOLD])} or " + ("less" if int(w.entry()[E_COND]) == CO_HEALTH_LE
                                                               else "more"),
    "filter": lambda w: f"{CONDITIONS[int(w.entry()[E_COND])]} {int(w.entry()[E_THRESHOLD])}",
    "truncated": lambda w: " (truncated at the round cap)" if int(w.row[H_STATUS]) == TRUNCATED else "",
}


def _kernel_row(row: np.ndarray) -> np.ndarray:
    row = np.ascontiguousarray(row, dtype=np.int32)
    if not row.flags.writeable:  # the kernels' signatures take a writable row (a replay may hand a read-only one)
        row = row.copy()
    return row


def reasons(row: np.ndarray, pool: Any, player: int) -> tuple[np.ndarray, np.ndarray]:
    """``(mask, why)`` for ``player`` (0 or 1) in ``row``: the legal mask and the reason code (reasons.py) the mask
    recorded for every action, ``reasons.NONE`` for the legal ones."""
    row, tables = _kernel_row(row), Tables(*pool.tables)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    why = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask_row(row, tables, int(player), mask)
    why_row(row, tables, int(player), why)
    return mask, why


def explain_illegal(row: np.ndarray, pool: Any, player: int, action: int) -> str:
    """Why ``action`` is not legal for ``player`` now, in simulfight's terms; "" if it is legal.

    The reason is the one the mask recorded (``rules.why_row``); the words read only what ``player`` may know (their
    own side, public zones and the other side as their plan sees it), so they say nothing about the other player's
    hand or plan."""
    row = _kernel_row(row)
    p, a = int(player), int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"there is no action {a}: action ids run from 0 to {NUM_ACTIONS - 1}"
    if p not in (0, 1):
        return f"there is no player {p}: the players are 0 and 1"
    mask, why = reasons(row, pool, p)
    if mask[a]:
        return ""
    code = int(why[a])
    if code == R.NONE:
        return NO_REASON  # the mask refused without naming why: a defect the sweep tests catch
    return _Words(row, pool, p, a, mask).fill(REASONS[code].template)
