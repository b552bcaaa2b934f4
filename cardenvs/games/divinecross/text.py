"""Python-side helpers over a state row: action names, a text board, and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.cards import CardPool
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TRUNCATED

from .actions import action_range
from .cards import C_TYPE, TYPE_UNIT
from .state import (
    DECK_SIZE,
    ST_BATTLE,
    ST_EXTRA_DRAW,
    ST_SETUP_PLACE,
    STATE,
    STEP_NAMES,
)

_S = STATE


def _f(row: np.ndarray, name: str) -> np.ndarray:
    return _S.get(row, name)


def _card_name(row: np.ndarray, pool: CardPool, p: int, inst: int) -> str:
    if inst < 0:
        return "-"
    return pool.name(int(_f(row, "deck_list")[p, inst]))


def _zone(row: np.ndarray, name: str, count: str, p: int) -> list[int]:
    n = int(_f(row, count)[p])
    return [int(x) for x in _f(row, name)[p, :n]]


def _unit_at(row: np.ndarray, p: int, j: int) -> int:
    if j == 0:
        return int(_f(row, "main")[p, 0])
    standby = _zone(row, "standby", "standby_count", p)
    return standby[j - 1] if j - 1 < len(standby) else -1


def _where(j: int) -> str:
    return "main" if j == 0 else f"standby {j}"


def action_name(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Human-readable text of ``action`` for ``player`` in the position ``row``."""
    field, i = action_range(int(action))
    p = int(player)
    step = int(_f(row, "step"))
    if field == "pass":
        if step == ST_EXTRA_DRAW:
            return "decline the extra draws"
        return "end the battle phase without a skill" if step == ST_BATTLE else "end the main phase"
    if field == "extra_draw":
        left = int(_f(row, "extra_left")[p])
        return f"draw an extra card (opponent redealt; {left} on offer)"
    if field == "hand":
        hand = _zone(row, "hand", "hand_count", p)
        name = _card_name(row, pool, p, hand[i]) if i < len(hand) else "?"
        if step == ST_SETUP_PLACE:
            return f"place '{name}' face down as Main Unit (hand {i})"
        kind = pool.cards[pool.by_name[name]]["type"] if name in pool.by_name else "card"
        verb = {"unit": "put unit", "event": "play event", "action": "play action", "assist": "play assist"}
        return f"{verb.get(kind, 'play')} '{name}' (hand {i})"
    if field in ("charge", "ex_power", "host"):
        name = _card_name(row, pool, p, _unit_at(row, p, i))
        verb = {"charge": "charge", "ex_power": "use EX-Power of", "host": "attach the assist to"}[field]
        return f"{verb} {_where(i)} '{name}'"
    if field == "retreat":
        return (f"retreat '{_card_name(row, pool, p, _unit_at(row, p, 0))}', swap with standby {i + 1} "
                f"'{_card_name(row, pool, p, _unit_at(row, p, i + 1))}'")
    if field == "skill":
        u = _unit_at(row, p, 0)
        card = pool.cards[int(_f(row, "deck_list")[p, u])] if u >= 0 else None
        skill = card["skills"][i]["name"] if card and i < len(card["skills"]) else f"skill {i}"
        return f"use skill '{skill}' of '{_card_name(row, pool, p, u)}'"
    if field == "promote":
        return f"move standby {i + 1} '{_card_name(row, pool, p, _unit_at(row, p, i + 1))}' up to the main area"
    return f"action {action}"


def _describe_unit(row: np.ndarray, pool: CardPool, p: int, inst: int, show: bool) -> str:
    if inst < 0:
        return "-"
    if not show:
        return "[face down]"
    card = int(_f(row, "deck_list")[p, inst])
    info = pool.cards[card]
    host = _f(row, "host")[p]
    energy = sum(1 for e in _zone(row, "energy", "energy_count", p) if host[e] == inst)
    assists = [_card_name(row, pool, p, a) for a in _zone(row, "assist", "assist_count", p) if host[a] == inst]
    text = f"{info['name']} ({info['attribute']}, dmg {int(_f(row, 'damage')[p, inst])}/{info['hp']}, E{energy}"
    if assists:
        text += ", +" + "+".join(assists)
    for key, label in (("boost", "boost"), ("guard", "guard")):
        v = int(_f(row, key)[p, inst])
        if v:
            text += f", {label} {v:+d}"
    return text + ")"


def render(row: np.ndarray, pool: CardPool, viewer: int | None = None) -> str:
    """A readable board; ``viewer`` None shows everything, else only what that player can see."""
    lines = []
    status = int(row[H_STATUS])
    tp = int(_f(row, "turn_player"))
    head = f"divinecross  turn {int(row[H_TURN])}  turn player P{tp}  step: {STEP_NAMES[int(_f(row, 'step'))]}"
    if status == LIVE:
        head += f"  to act: P{int(row[H_TO_ACT])}"
    elif status == TRUNCATED:
        head += "  [truncated]"
    else:
        w = int(row[H_WINNER])
        head += "  [draw]" if w == 2 else f"  [P{w} wins]"
    lines.append(head)
    for p in (0, 1):
        see_private = viewer is None or viewer == p
        flags = [n for n, key in (("stunned", "stunned"), ("poisoned", "poisoned"), ("EX used", "ex_used"))
                 if int(_f(row, key)[p])]
        lines.append(
            f"P{p}: deck {int(_f(row, 'deck_count')[p])}  hand {int(_f(row, 'hand_count')[p])}  "
            f"discard {int(_f(row, 'discard_count')[p])}  KO {int(_f(row, 'ko_count')[p])}/3"
            + (f"  [{', '.join(flags)}]" if flags else "")
        )
        main = int(_f(row, "main")[p, 0])
        up = main >= 0 and (bool(_f(row, "face_up")[p, main]) or see_private)
        hidden = main >= 0 and not _f(row, "face_up")[p, main]
        lines.append(f"  main:    {_describe_unit(row, pool, p, main, up)}" + (" [face down]" if hidden and up else ""))
        standby = _zone(row, "standby", "standby_count", p)
        lines.append("  standby: " + (" | ".join(_describe_unit(row, pool, p, s, True) for s in standby) or "-"))
        ko = [_card_name(row, pool, p, k) for k in _zone(row, "ko", "ko_count", p)]
        if ko:
            lines.append("  KO zone: " + ", ".join(ko))
        if see_private:
            hand = [_card_name(row, pool, p, h) for h in _zone(row, "hand", "hand_count", p)]
            lines.append("  hand:    " + (", ".join(hand) or "-"))
    return "\n".join(lines)


def hide(row: np.ndarray, viewer: int, rng: np.random.Generator, pool: CardPool) -> np.ndarray:
    """A copy of ``row`` where everything ``viewer`` cannot see is re-dealt.

    Card identity is permuted among the instances the viewer cannot see (``deck_list`` entries are swapped;
    positions and per-instance state stay): both decks (their order is unknown to everyone), the opponent's hand and
    the opponent's face-down Main Unit before the reveal (which keeps a Unit card there). The Assist being played is
    public and stays. Deck orders are reshuffled as well. What the viewer does know is kept: their own hand, every
    face-up card, and, during setup before the opponent has placed, that the opponent's hand holds a Unit (the
    hands were checked for Units in public, DC-S5). No effect puts a card at a known deck position, so no deck
    position is known to anyone.
    """
    out = row.copy()
    deck_list = _S.get(out, "deck_list")  # a view into out
    face_up = _S.get(out, "face_up")
    ctab = pool.tables[0]
    off = _S.offset("deck_list")
    pending = int(_f(out, "pending_card"))
    tp = int(_f(out, "turn_player"))
    for p in (0, 1):
        hidden = _zone(out, "deck", "deck_count", p)
        if p != viewer:
            hidden += [h for h in _zone(out, "hand", "hand_count", p) if not (p == tp and h == pending)]
            main = int(_f(out, "main")[p, 0])
            if main >= 0 and not face_up[p, main]:
                candidates = [i for i in hidden if ctab[deck_list[p, i], C_TYPE] == TYPE_UNIT] + [main]
                pick = candidates[int(rng.integers(len(candidates)))]
                a, b = off + p * DECK_SIZE + main, off + p * DECK_SIZE + pick
                out[a], out[b] = out[b], out[a]
        cards = np.array([deck_list[p, i] for i in hidden], dtype=np.int32)
        rng.shuffle(cards)
        for i, c in zip(hidden, cards):
            out[off + p * DECK_SIZE + i] = c
        hand = _zone(out, "hand", "hand_count", p)
        if p != viewer and int(_f(out, "main")[p, 0]) < 0 and int(_f(out, "step")) in (ST_SETUP_PLACE, ST_EXTRA_DRAW) \
                and hand and not any(ctab[deck_list[p, h], C_TYPE] == TYPE_UNIT for h in hand):
            units = [i for i in hidden if i not in hand and ctab[deck_list[p, i], C_TYPE] == TYPE_UNIT]
            if units:  # keep a Unit in the opponent's hand: it was checked for one in public
                h = hand[int(rng.integers(len(hand)))]
                u = units[int(rng.integers(len(units)))]
                a, b = off + p * DECK_SIZE + h, off + p * DECK_SIZE + u
                out[a], out[b] = out[b], out[a]
        n = int(_f(out, "deck_count")[p])
        start = _S.offset("deck") + p * DECK_SIZE
        out[start:start + n] = rng.permutation(out[start:start + n])
    return out
