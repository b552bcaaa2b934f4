"""A greedy rule-based simulfight player, batched: one Numba kernel decides for every row at once.

Every decision is a one-step look-ahead with the game's own interpreter: each legal action is applied to a *copy*
of the row (``rules.apply_action``; a target or payer sub-decision it opens is settled greedily the same way) and
the resulting position is scored from the deciding player's side. Order of play in a plan:

* **uses first** (DEFEND/ATTACK abilities are mandatory while payable, so only their order matters): the one whose
  simulated result scores best goes first, which spends shared shields/swords/gold on the strongest ability;
* **then plays** (Defend): the affordable unit with the best score gain *per gold*, while one gains anything; but
  not a play that would leave too little gold to play, next round, a better card (higher gain per gold) that this
  round's gold cannot pay but next round's can (saving up for Cinder Lancer instead of a Herald every round: without
  it the heuristic hoarded 30 unaffordable cards and some games against random reached the round cap);
* **targets and payers**: the candidate with the best score (kill a Foe when the damage is enough, stun the most
  valuable Foe, heal the most hurt ally, pay health with the ally that can best afford it).

The score: own health minus the opponent's health after the damage this plan deals, units in play (value ~ their
static worth, ``unit_values``: each ability entry's yield times the odds that its condition holds; half of it
shrinking with the square root of the share of printed health left, so damage goes on a hurt Foe first; plus their
remaining health; Foes this plan kills or stuns count against them), and resources (gold
carries over; swords are worth keeping in Defend for the Attack phase; next-round changes); and the win condition
(SF-E2: the game ends after a phase with a player at 0 or less, higher health wins): a plan that brings the opponent
to 0 or less, below its own health, scores a bonus, so a lethal target or order is taken over a unit kill; and in
Defend, the loss it can see coming: when the Foes' ATTACK abilities that will still act this round (not Stunned or
killed by this plan, payable from the opponent's swords) deal the player's whole health, the plan scores a penalty, so
it stuns, kills or heals itself out of reach when it can (the Foes' cards and the opponent's swords are public).

Hidden information: simultaneous phases are played in the AEC order, so when player 1 plans, the row already holds
player 0's plan in player 1's ``in_*`` fields. The score never reads those, nor the opponent's live fields: the
opponent is read only through the phase-start snapshot (``snap_*``) plus *this* player's own plan against it (the
``in_*`` fields of the opponent's side, which only this player writes). That is exactly what the observation shows.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from numba import njit

from cardenvs.core.errors import BadArgumentError
from cardenvs.core.jit import helper
from cardenvs.core.kernels import decide_rows

from .base import StateHeuristic

from cardenvs.games.simulfight import state as S  # noqa: E402
from cardenvs.games.simulfight.actions import (  # noqa: E402
    A_ALLY, A_DONE, A_FOE_END, A_PLAY, A_PLAY_END, A_USE, A_USE_END, NUM_ACTIONS,
)
from cardenvs.games.simulfight.cards import C_COST, C_COST_AMOUNT, C_GOLD, C_HEALTH, COST_SWORDS, Tables  # noqa: E402
from cardenvs.games.simulfight.rules import apply_action, write_mask  # noqa: E402

__all__ = ["HeuristicAgent", "batch_decide", "decide", "unit_values", "face_damage", "condition_odds",
           "DEFAULT_WEIGHTS", "WEIGHT_NAMES"]

# score weights (units of player health), index -> meaning; kept in one array so they can be tuned without editing
# the kernels (``HeuristicAgent(weights=...)``)
WEIGHT_NAMES = (
    "unit_gold",  # a unit in play is worth this much per gold it cost ...
    "unit_health",  # ... plus this much per health it has left
    "gold",
    "swords_defend",  # swords left in Defend pay for ATTACK abilities; in Attack they vanish at round end
    "shields",
    "next_gold", "next_shields", "next_swords",
    "protect_defend",  # per gold of a unit Protected in Defend: the other plan's damage may be coming
    "stun_defend",  # per gold of a Foe stunned in Defend: its ATTACK ability is lost this round
    "min_play_gain",  # a play must gain at least this much per gold
    "opp_health",  # weight of the opponent's health (own health weighs 1)
    "per_gold",  # 1: plays are ranked by gain per gold; 0: by total gain
    "save",  # > 0: skip a play that would keep a better card next round out of reach, unless its gain per gold
    #          is at least this fraction of that card's; 0: never save gold
    "win",  # the game is won when the phase ends with the opponent at 0 or less below my health (SF-E2): a plan
    #         that gets there is worth this much more than its damage, so lethal damage beats killing a unit
    "lethal_threat",  # in Defend: the Foes' ATTACK abilities that will still act (not Stunned, not killed by my
    #                   plan) can bring me to 0 or less this round (public: their cards and the opponent's swords);
    #                   a plan that leaves me there loses this much (so it stuns, kills or heals out of reach)
    "wounded",  # this share of a unit's gold worth shrinks with the square root of the share of its printed health
    #             it has left: damage persists (SF-E1), so a hurt unit is nearer the discard pile, and the next point
    #             of damage on it is worth more than a point on a fresh one (the heuristic finishes what it started)
)
DEFAULT_WEIGHTS = np.array([0.3, 0.25, 0.5, 0.6, 0.05, 0.5, 0.15, 0.35, 0.3, 0.4, 0.05, 1.0, 1.0, 1.0, 30.0, 10.0, 0.5],
                           dtype=np.float64)


@helper
def _unit_worth(gold, h, printed, w):
    """A unit's worth with ``h`` health left: its static worth (``gold``, its card's ``unit_values`` entry) times
    ``w[0]``, ``w[16]`` of that shrinking as the square root of the share of its printed health left (a hurt unit is
    nearer the discard pile), plus ``w[1]`` a point of health."""
    left = min(1.0, h / max(1, printed))
    return w[0] * gold * (1.0 - w[16] + w[16] * np.sqrt(left)) + w[1] * h


@helper
def _score(row, cards, p, w, uval):
    """The position from ``p``'s side, reading only what ``p`` may see (see the module docstring)."""
    q = 1 - p
    defend = row[S.PHASE] == S.PH_DEFEND
    v = float(row[S.HEALTH + p])
    opp_health = row[S.SNAP_PLAYER + q * S.PLAYER_SNAPSHOT_SIZE + S.SP_HEALTH] - row[S.IN_PLAYER_DAMAGE + q]
    v -= w[11] * float(opp_health)
    if opp_health <= 0 and row[S.HEALTH + p] > opp_health:  # SF-E2: this plan alone ends the game in my favour,
        v += w[14]  # unless the other plan (unseen) brings me lower still
    for j in range(row[S.PLAY_COUNT + p]):
        inst = row[S.PLAY + p * S.MAX_DECK + j]
        at = p * S.MAX_DECK + inst
        h = row[S.UNIT_HEALTH + at]
        if h <= 0:
            continue
        card = row[S.DECK_LIST + at]
        gold = uval[card, 0]
        v += _unit_worth(gold, h, cards[card, C_HEALTH], w)
        if defend and row[S.PROTECTED + at] != 0:
            v += w[8] * gold
        if row[S.STUNNED + at] != 0:
            v -= 0.2 * gold
    threat = 0
    swords = row[S.SNAP_PLAYER + q * S.PLAYER_SNAPSHOT_SIZE + S.SP_RESOURCES + S.RES_SWORDS]
    for j in range(row[S.SNAP_PLAY_COUNT + q]):
        inst = row[S.SNAP_PLAY + q * S.MAX_DECK + j]
        at = q * S.MAX_DECK + inst
        h = row[S.SNAP_HEALTH + at]
        if row[S.SNAP_PROTECTED + at] == 0:
            h -= row[S.IN_DAMAGE + at]  # this player's planned damage on it
        card = row[S.DECK_LIST + at]
        gold = uval[card, 0]
        if h <= 0:
            continue  # it dies at the end of the phase
        v -= _unit_worth(gold, h, cards[card, C_HEALTH], w)
        if defend and row[S.IN_STUN + at] != 0 and row[S.SNAP_STUNNED + at] == 0:
            v += w[9] * gold
        if defend and row[S.IN_STUN + at] == 0 and row[S.SNAP_STUNNED + at] == 0 and uval[card, 1] > 0:
            # its ATTACK ability hits me this round if the opponent can pay it (swords are shared, first come)
            need = cards[card, C_COST_AMOUNT + S.TR_ATTACK] if cards[card, C_COST + S.TR_ATTACK] == COST_SWORDS else 0
            if need <= swords:
                swords -= need
                threat += uval[card, 1]
    if defend and w[15] != 0 and row[S.HEALTH + p] - threat <= 0:  # SF-E2: the Attack phase may end the game
        v -= w[15]
    res = S.RESOURCES + p * S.NUM_RESOURCES
    v += w[2] * row[res + S.RES_GOLD] + w[4] * row[res + S.RES_SHIELDS]
    if defend:
        v += w[3] * row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_SWORDS]
    for r in range(S.NUM_RESOURCES):
        v += w[5 + r] * row[S.NEXT_ROUND + p * S.NUM_RESOURCES + r]
        v -= w[5 + r] * row[S.IN_NEXT_ROUND + q * S.NUM_RESOURCES + r]  # my plan's next-round changes to the opponent
    if defend:
        v -= w[3] * row[S.IN_RESOURCES + q * S.NUM_RESOURCES + S.RES_SWORDS]
    v -= w[2] * row[S.IN_RESOURCES + q * S.NUM_RESOURCES + S.RES_GOLD]
    return v


@helper
def _settle(row, cards, effects, p, scratch, mask, w, uval):
    """Answer the pending target/payer sub-decisions of ``row`` greedily (in place)."""
    for _ in range(8):
        if row[S.SUB + p] == S.SUB_MAIN:
            return
        write_mask(row, cards, effects, p, mask)
        best = -1
        best_v = -1e18
        for a in range(A_ALLY, A_FOE_END):  # the ally and foe ranges (sub-decisions)
            if mask[a] == 0:
                continue
            scratch[:] = row
            apply_action(scratch, cards, effects, p, a)
            v = _score(scratch, cards, p, w, uval)
            if v > best_v:
                best, best_v = a, v
        if best < 0:
            return
        apply_action(row, cards, effects, p, best)


@helper
def decide(row, tables, p, mask, s1, s2, m2):
    """The heuristic's action for ``p`` (``mask`` is p's legal mask; s1, s2, m2 are scratch buffers). ``tables``:
    the pool's card and effect tables, the score weights and the per-card score columns (:class:`HeuristicAgent`)."""
    cards, effects, w, uval = tables[0], tables[1], tables[2], tables[3]
    if row[S.SUB + p] != S.SUB_MAIN:
        best = -1
        best_v = -1e18
        for a in range(A_ALLY, A_FOE_END):  # the ally and foe ranges (sub-decisions)
            if mask[a] == 0:
                continue
            s1[:] = row
            apply_action(s1, cards, effects, p, a)
            _settle(s1, cards, effects, p, s2, m2, w, uval)
            v = _score(s1, cards, p, w, uval)
            if v > best_v:
                best, best_v = a, v
        return best
    # uses (mandatory while payable: choose the order)
    best = -1
    best_v = -1e18
    for a in range(A_USE, A_USE_END):
        if mask[a] == 0:
            continue
        s1[:] = row
        apply_action(s1, cards, effects, p, a)
        _settle(s1, cards, effects, p, s2, m2, w, uval)
        v = _score(s1, cards, p, w, uval)
        if v > best_v:
            best, best_v = a, v
    if best >= 0:
        return best
    # plays: best score gain per gold
    base = _score(row, cards, p, w, uval)
    gold_now = row[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_GOLD]
    income = S.GOLD_PER_ROUND + row[S.NEXT_ROUND + p * S.NUM_RESOURCES + S.RES_GOLD]
    # the card worth saving for: in hand, too dear now, affordable next round if nothing is spent; its gain per gold
    # is what playing it would gain had we the gold, less the value of the gold it costs
    save_cost = 0
    save_rate = -1e18
    if w[13] > 0:
        for j in range(row[S.HAND_COUNT + p]):
            inst = row[S.HAND + p * S.MAX_DECK + j]
            cost = cards[row[S.DECK_LIST + p * S.MAX_DECK + inst], C_GOLD]
            if cost <= gold_now or cost > gold_now + income:
                continue
            s1[:] = row
            s1[S.RESOURCES + p * S.NUM_RESOURCES + S.RES_GOLD] = cost
            apply_action(s1, cards, effects, p, A_PLAY + inst)
            _settle(s1, cards, effects, p, s2, m2, w, uval)
            rate = (_score(s1, cards, p, w, uval) - base - w[2] * (cost - gold_now)) / cost
            if rate > save_rate:
                save_cost, save_rate = cost, rate
        if save_rate <= w[10]:
            save_cost = 0  # nothing worth saving for
    best_rate = -1e18
    for a in range(A_PLAY, A_PLAY_END):
        if mask[a] == 0:
            continue
        s1[:] = row
        apply_action(s1, cards, effects, p, a)
        _settle(s1, cards, effects, p, s2, m2, w, uval)
        gain = _score(s1, cards, p, w, uval) - base
        price = cards[row[S.DECK_LIST + p * S.MAX_DECK + (a - A_PLAY)], C_GOLD]
        gold = max(1, price)
        if save_cost > 0 and gold_now - price + income < save_cost and gain / gold < w[13] * save_rate:
            continue  # it would keep the better card out of reach next round
        rate = gain / gold if w[12] > 0 else gain
        if gain / gold > w[10] and rate > best_rate:
            best, best_rate = a, rate
    if best >= 0:
        return best
    return A_DONE


@njit(cache=True, nogil=True)
def batch_decide(states, tables, players, masks, out, fallback=True):
    """``decide`` for every row with ``players[i] >= 0``, by the core's loop (``decide_rows``: an illegal choice falls
    back to the first legal action; the tests pass ``fallback=False`` to check the raw choices). Its scratch: two
    row copies for the look-ahead and a mask."""
    width = states.shape[1]
    work = (np.empty(width, dtype=np.int32), np.empty(width, dtype=np.int32), np.empty(NUM_ACTIONS, dtype=np.int8))
    decide_rows(decide, states, tables, players, masks, out, fallback, work)


def face_damage(cards: np.ndarray, effects: np.ndarray) -> np.ndarray:
    """Per card: the damage its ATTACK ability deals to the opponent (every entry counted, conditions included: an
    upper bound of the threat a unit in play poses each Attack phase)."""
    from cardenvs.games.simulfight.cards import C_N, E_AMOUNT, E_OP, E_TARGET, OP_DAMAGE, TG_OPPONENT

    out = np.zeros(cards.shape[0], dtype=np.float64)
    for c in range(cards.shape[0]):
        for k in range(int(cards[c, C_N + S.TR_ATTACK])):
            if effects[c, S.TR_ATTACK, k, E_OP] == OP_DAMAGE and effects[c, S.TR_ATTACK, k, E_TARGET] == TG_OPPONENT:
                out[c] += effects[c, S.TR_ATTACK, k, E_AMOUNT]
    return out


#: a point of damage an ability deals to Foes, per round, in units of player health (a point to the opponent is 1.0).
#: It was 0.6 until 2026-11-30: a learner trained against the heuristic won with the unit killers the heuristic never
#: bought (Hedge Archer, Pack Hunter, Spearwall). At 1.0 the heuristic buys them too and beats the one before (0.550
#: on the default pair, 0.527 [0.514, 0.542] over the starter pairings) and random (0.801, was 0.783)
FOE_DAMAGE_WORTH = 1.0


#: how often a condition on a player's health (``you_health_le``, ``opponent_health_le``) is taken to hold when a
#: card's worth is reckoned: about half a game is played with a player low enough
PLAYER_CONDITION_ODDS = 0.5


def condition_odds(cards: np.ndarray, condition: int, threshold: int) -> float:
    """How often an effect entry with ``condition`` is taken to do something, for a card's static worth: a filter on
    the units hit (``health_le``/``health_ge`` T) holds for a unit of the pool with its health anywhere from 1 to its
    printed health, equally likely (units in play are often hurt: SF-E1 keeps damage); a count (``allies_ge``,
    ``foes_ge``) nearly always does once units are out; a player's health (``PLAYER_CONDITION_ODDS``). Counting every
    entry as always on made Giant Slayer (4 damage to a Foe with 5 health or more) worth as much as Cinder Lancer,
    and the heuristic bought it over the cards a learner trained against it played (2026-11-30). Printed health
    alone (no hurt units) left Gloam Stalker and Carrion Crow, finishers of hurt units, unplayed."""
    from cardenvs.games.simulfight.cards import CONDITIONS

    name = CONDITIONS[condition]
    if name in ("you_health_le", "opponent_health_le"):
        return PLAYER_CONDITION_ODDS
    if name not in ("health_le", "health_ge"):
        return 1.0  # none, or a count
    health = np.maximum(cards[:, C_HEALTH], 1).astype(np.float64)
    if name == "health_le":
        return float(np.mean(np.minimum(threshold, health) / health))
    return float(np.mean(np.maximum(0.0, health - threshold + 1) / health))


def unit_values(cards: np.ndarray, effects: np.ndarray, rounds: float = 2.0) -> np.ndarray:
    """A static worth per card (units of player health): what its abilities yield per round, net of their costs,
    each entry times the odds that its condition holds (:func:`condition_odds`), times ``rounds``, plus half its gold
    price (what the market says it is worth)."""
    from cardenvs.games.simulfight.cards import (
        C_COST, C_COST_AMOUNT, C_N, COST_GOLD, COST_UNIT_HEALTH, E_AMOUNT, E_COND, E_OP, E_RESOURCE, E_TARGET,
        E_THRESHOLD, E_WHEN, OP_DAMAGE, OP_GAIN, OP_HEAL, OP_PROTECT, OP_STUN, TG_ALL_ALLIES, TG_ALL_FOES,
        TG_ONE_FOE, TG_OPPONENT, TG_OTHER_ALLIES, TG_YOU, WHEN_NEXT,
    )

    out = np.zeros(cards.shape[0], dtype=np.float64)
    for c in range(cards.shape[0]):
        total = 0.0
        # DEFEND and ATTACK abilities repeat every round; PLAY ones are valued by the look-ahead
        for t in (S.TR_DEFEND, S.TR_ATTACK):
            n = int(cards[c, C_N + t])
            if n == 0:
                continue
            y = 0.0
            for k in range(n):
                op, tg, amt = (int(effects[c, t, k, E_OP]), int(effects[c, t, k, E_TARGET]),
                               int(effects[c, t, k, E_AMOUNT]))
                before = y
                if op == OP_DAMAGE:
                    y += amt * (1.0 if tg == TG_OPPONENT else FOE_DAMAGE_WORTH if tg in (TG_ONE_FOE, TG_ALL_FOES)
                                else -0.6)
                elif op == OP_HEAL:
                    y += amt * (0.8 if tg == TG_YOU else 0.4)
                elif op == OP_PROTECT:
                    y += 1.0 if tg in (TG_ALL_ALLIES, TG_OTHER_ALLIES) else 0.5
                elif op == OP_STUN:
                    y += 1.0
                elif op == OP_GAIN:
                    sign = 1.0 if tg == TG_YOU else -1.0
                    res, when = int(effects[c, t, k, E_RESOURCE]), int(effects[c, t, k, E_WHEN])
                    y += sign * amt * (0.5 if res != S.RES_SHIELDS else 0.15) * (0.8 if when == WHEN_NEXT else 1.0)
                y = before + (y - before) * condition_odds(cards, int(effects[c, t, k, E_COND]),
                                                           int(effects[c, t, k, E_THRESHOLD]))
            kind, amount = int(cards[c, C_COST + t]), int(cards[c, C_COST_AMOUNT + t])
            y -= amount * (0.5 if kind in (COST_GOLD, COST_UNIT_HEALTH) else 0.2)
            total += max(y, 0.0)
        out[c] = rounds * total + 0.5 * cards[c, C_GOLD]
    return out


class HeuristicAgent(StateHeuristic):
    """Greedy simulfight player (see the module docstring); deterministic (``seed`` is accepted and unused).
    ``weights``: the score weights (``WEIGHT_NAMES``; default ``DEFAULT_WEIGHTS``)."""

    game = "simulfight"
    kernel = staticmethod(batch_decide)

    def __init__(self, seed: int | None = None, weights: np.ndarray | None = None, pool: Any = None) -> None:
        from cardenvs.core.registry import get_game

        pool = pool if pool is not None else get_game("simulfight").load_pool(None)
        self.weights = np.array(DEFAULT_WEIGHTS if weights is None else weights, dtype=np.float64)
        if self.weights.shape != DEFAULT_WEIGHTS.shape or not np.isfinite(self.weights).all():
            # the kernels index the weights by position: a shorter array would be read past its end
            raise BadArgumentError(f"simulfight heuristic: weights must be {len(WEIGHT_NAMES)} finite numbers, one per "
                                   f"name in WEIGHT_NAMES ({', '.join(WEIGHT_NAMES)}); got shape "
                                   f"{self.weights.shape}")
        super().__init__(seed, pool)

    def use_pool(self, pool: Any) -> None:
        """Score with ``pool``'s cards: its card and effect tables and the per-card columns derived from them."""
        tables = Tables(*pool.tables)
        self.cards = np.ascontiguousarray(tables.cards, dtype=np.int32)
        self.effects = np.ascontiguousarray(tables.effects, dtype=np.int32)
        self.unit_values = unit_values(self.cards, self.effects)
        # per card: its static worth, and the damage its ATTACK ability deals the opponent (the score's two columns)
        self.card_info = np.ascontiguousarray(np.stack([self.unit_values, face_damage(self.cards, self.effects)], 1))
        # what ``decide`` reads besides the row: the kernel's ``tables`` argument (StateHeuristic passes it whole)
        self.tables = (self.cards, self.effects, self.weights, self.card_info)
