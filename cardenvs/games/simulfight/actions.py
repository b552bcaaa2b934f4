"""The flat action space, action names and the text board.

Actions address card *instances* (the position of a card in its owner's deck list), so an action keeps its meaning
while cards move between zones; with the default deck, instance ``i`` is card ``i`` of the pool.

====================  ============  ==============================================================================
range                 name          meaning
====================  ============  ==============================================================================
0                     done          end this phase's plan (legal only when no mandatory ability can be paid)
1 .. 40               play i        (Defend, main step) play hand card instance i for its gold
41 .. 80              use i         (main step) use the phase's ability (DEFEND / ATTACK) of unit instance i
81 .. 120             ally i        (sub-decision) ally instance i pays the health cost / is the target
121 .. 160            foe i         (sub-decision) Foe instance i (as in play at the phase start) is the target
====================  ============  ==============================================================================

The parallel env gives a player whose plan is done a mask with only action 0, and ignores that action.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.header import H_STATUS, H_TURN, H_WINNER, LIVE, TERMINATED, TRUNCATED
from cardenvs.core.layout import Field, Layout

from .cards import RESOURCES, TRIGGERS
from . import state as S

ACTIONS = Layout(
    "simulfight_actions",
    [
        Field("done", (), "end this phase's plan; legal only when no mandatory DEFEND/ATTACK ability can be paid"),
        Field("play", (S.MAX_DECK,), "Defend phase: play the hand card with this instance id, paying its gold"),
        Field("use", (S.MAX_DECK,), "use the phase's ability of the unit in play with this instance id"),
        Field("ally", (S.MAX_DECK,), "sub-decision: this ally pays the pending health cost, or is the effect's target"),
        Field("foe", (S.MAX_DECK,), "sub-decision: this Foe (in play at the phase start) is the effect's target"),
    ],
)
ACTIONS.export(globals(), "A_")  # A_DONE, A_PLAY, A_USE, A_ALLY, A_FOE, each with its _END: decode by range
NUM_ACTIONS = ACTIONS.size


_ENDINGS = {TERMINATED: "finished", TRUNCATED: "truncated"}  # by H_STATUS


def phase_trigger(phase: int) -> int:
    """The trigger (TR_DEFEND / TR_ATTACK) whose abilities units use in ``phase`` (PH_DEFEND / PH_ATTACK)."""
    return S.TR_DEFEND + phase - S.PH_DEFEND


def _get(row: np.ndarray, name: str) -> np.ndarray:
    return S.STATE.get(np.asarray(row), name)


def ability_text(pool: Any, card_id: int, trigger: int) -> str:
    """``DEFEND: shields 1 -> protect self`` style text of one ability (empty if the card has none)."""
    card = pool.cards[card_id]
    entries = [e for e in card["effects"] if e["trigger"] == TRIGGERS[trigger]]
    if not entries:
        return ""
    parts = []
    for e in entries:
        what = e["op"]
        if e["op"] in ("damage", "heal"):
            what += f" {e['amount']}"
        elif e["op"] == "gain":
            what = f"{'+' if e['amount'] > 0 else ''}{e['amount']} {e['resource']}" + (
                " next round" if e["when"] == "next_round" else "")
        cond = "" if e["condition"] == "none" else f" [{e['condition']} {e['threshold']}]"
        parts.append(f"{what} {e['target']}{cond}")
    cost = entries[0]["cost"]
    head = "" if cost == "none" else f"{entries[0]['cost_amount']} {cost} -> "
    return f"{TRIGGERS[trigger].upper()}: {head}{'; '.join(parts)}"


def card_text(pool: Any, card_id: int) -> str:
    card = pool.cards[card_id]
    abilities = [ability_text(pool, card_id, t) for t in range(3)]
    body = " | ".join(a for a in abilities if a)
    return f"{card['name']} ({card['gold']}g, {card['health']}hp){': ' + body if body else ''}"


def action_name(row: np.ndarray, pool: Any, player: int, action: int) -> str:
    """What ``action`` means for ``player`` in ``row`` (meaningful whether or not it is legal)."""
    deck_list = _get(row, "deck_list")
    if not 0 <= action < NUM_ACTIONS:
        return f"action {action} (out of range)"
    kind, inst = ACTIONS.locate(action)
    if kind == "done":
        return "done (end plan)"
    if kind == "play":
        cid = int(deck_list[player, inst])
        return f"play #{inst} {pool.name(cid)}" + (f" ({pool.cards[cid]['gold']} gold)" if cid >= 0 else "")
    if kind == "use":
        cid = int(deck_list[player, inst])
        trig = phase_trigger(int(_get(row, "phase")))
        text = ability_text(pool, cid, trig) if cid >= 0 else ""
        return f"use #{inst} {pool.name(cid)}" + (f" ({text})" if text else "")
    if kind == "ally":
        role = "pays" if int(_get(row, "sub")[player]) == S.SUB_PAYER else "target"
        return f"ally #{inst} {pool.name(int(deck_list[player, inst]))} {role}"
    return f"foe #{inst} {pool.name(int(deck_list[1 - player, inst]))} target"


def _units(row: np.ndarray, pool: Any, side: int, snapshot: bool) -> list[str]:
    deck_list = _get(row, "deck_list")[side]
    zone = _get(row, "snap_play" if snapshot else "play")[side]
    health = _get(row, "snap_health" if snapshot else "unit_health")[side]
    prot = _get(row, "snap_protected" if snapshot else "protected")[side]
    stun = _get(row, "snap_stunned" if snapshot else "stunned")[side]
    used = _get(row, "used")[side]
    out = []
    for inst in zone[zone >= 0]:
        flags = "".join(f for f, on in (("P", prot[inst]), ("S", stun[inst]), ("u", used[inst] and not snapshot)) if on)
        out.append(f"#{inst} {pool.name(int(deck_list[inst]))} {health[inst]}hp{' ' + flags if flags else ''}")
    return out


def render(row: np.ndarray, pool: Any, viewer: int | None = None) -> str:
    """Both boards. ``viewer=None`` shows everything (live plans and hands included: for logs and golden files, never
    for a player); ``viewer=p`` shows what ``p`` sees: its own side live, the opponent as it stood at the start of the
    phase, and no opponent hand or plan; ``viewer=-1`` is the public view (what both players may see: both sides as
    at the phase start, no hand, no plan), for a screen both players look at. The header names the view: "full
    view", "player_0's view", "public view"."""
    row = np.asarray(row)
    public = viewer is not None and viewer < 0
    status, rnd = int(row[H_STATUS]), int(row[H_TURN])
    phase = S.PHASE_NAMES[int(_get(row, "phase"))]
    # the header says whose view this is (issue 39 #9), so a screen shown to people never leaves it in doubt
    view = "full view" if viewer is None else "public view" if public else f"player_{viewer}'s view"
    lines = [f"simulfight round {rnd}, {phase} phase | {view}" + ("" if status == LIVE else
             f" -- game over: {_ENDINGS[status]}, winner {int(row[H_WINNER])}")]
    deck_list = _get(row, "deck_list")
    snap = _get(row, "snap_player")
    order = (0, 1) if viewer is None or public else (viewer, 1 - viewer)
    for side in order:
        hidden = public or (viewer is not None and side != viewer)
        if hidden:
            health, hand_n = int(snap[side, S.SP_HEALTH]), int(snap[side, S.SP_HAND])
            gold, shields, swords = (int(v) for v in snap[side, S.SP_RESOURCES:S.SP_RESOURCES_END])
            nxt = snap[side, S.SP_NEXT_ROUND:S.SP_NEXT_ROUND_END]
        else:
            health = int(_get(row, "health")[side])
            gold, shields, swords = (int(v) for v in _get(row, "resources")[side])
            hand_n = int(_get(row, "hand_count")[side])
            nxt = _get(row, "next_round")[side]
        plan = ("plan open" if _get(row, "plan_open")[side] else "plan done") if not hidden else "plan hidden"
        who = f"player_{side}" + (" (you)" if viewer == side else "")
        lines.append(f"{who}: health {health}, gold {gold}, shields {shields}, swords {swords}; "
                     f"deck {int(_get(row, 'deck_count')[side])}, hand {hand_n}, "
                     f"discard {int(_get(row, 'discard_count')[side])}; {plan}")
        if any(nxt):
            lines.append("  next round: " + ", ".join(f"{int(v):+d} {RESOURCES[r]}" for r, v in enumerate(nxt) if v))
        units = _units(row, pool, side, snapshot=hidden)
        lines.append("  in play: " + (", ".join(units) if units else "-"))
        known = _known_in_hand(row, side)
        if hidden and known:  # cards both players know are in this hand (its deck ran out since they were drawn)
            lines.append("  known in hand: " + ", ".join(f"#{i} {pool.name(int(deck_list[side, i]))}" for i in known))
        if not hidden:
            hand = _get(row, "hand")[side]
            cards = [f"#{i} {pool.name(int(deck_list[side, i]))} ({pool.cards[int(deck_list[side, i])]['gold']}g)"
                     for i in hand[hand >= 0]]
            lines.append("  hand: " + (", ".join(cards) if cards else "-"))
            out = _outgoing(row, pool, side)
            if out:
                lines.append("  planned against the opponent: " + out)
            sub = int(_get(row, "sub")[side])
            if sub != S.SUB_MAIN:
                inst = int(_get(row, "cur_inst")[side])
                lines.append(f"  pending: {S.SUB_NAMES[sub]} for #{inst} {pool.name(int(deck_list[side, inst]))}")
    return "\n".join(lines)


def _known_in_hand(row: np.ndarray, side: int) -> list[int]:
    """``side``'s cards both players know were in its hand at the phase start (``shown``: the flag outlives a play
    during the phase, and a card in play at the phase start is never shown)."""
    shown = _get(row, "shown")[side]
    loc = _get(row, "loc")[side]
    return [int(i) for i in np.flatnonzero(shown) if loc[i] != S.LOC_DISCARD]


def _outgoing(row: np.ndarray, pool: Any, side: int) -> str:
    """What ``side``'s plan has queued against the other side (stored on the other side's in_* fields)."""
    foe = 1 - side
    deck_list = _get(row, "deck_list")
    damage = _get(row, "in_damage")[foe]
    stun = _get(row, "in_stun")[foe]
    parts = [f"#{i} {pool.name(int(deck_list[foe, i]))} -{damage[i]}" for i in np.flatnonzero(damage)]
    parts += [f"#{i} {pool.name(int(deck_list[foe, i]))} stunned" for i in np.flatnonzero(stun)]
    hurt = int(_get(row, "in_player_damage")[foe])
    if hurt:
        parts.append(f"opponent -{hurt} health")
    for r, v in enumerate(_get(row, "in_resources")[foe]):
        if v:
            parts.append(f"opponent {int(v):+d} {RESOURCES[r]}")
    for r, v in enumerate(_get(row, "in_next_round")[foe]):
        if v:
            parts.append(f"opponent {int(v):+d} {RESOURCES[r]} next round")
    return ", ".join(parts)
