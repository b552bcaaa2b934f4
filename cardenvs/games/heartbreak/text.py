"""Python-side helpers over a state row: action names, a text board, and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.cards import CardPool
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TRUNCATED

from .actions import action_range
from .cards import C_LEAD_OK
from .state import (
    FIELD_CAP,
    KIND_NAMES,
    MAX_DECK,
    ST_CHARGE,
    ST_CHOOSE,
    ST_END_OPEN,
    ST_SETUP_LEAD,
    ST_START_OPEN,
    ST_WINDOW,
    STATE,
    STEP_NAMES,
)

_S = STATE
D = MAX_DECK


def _f(row: np.ndarray, name: str) -> np.ndarray:
    return _S.get(row, name)


def _card(row: np.ndarray, pool: CardPool, p: int, inst: int) -> str:
    if inst < 0:
        return "-"
    return pool.name(int(_f(row, "deck_list")[p, inst]))


def _zone(row: np.ndarray, name: str, count: str | None, p: int) -> list[int]:
    n = int(_f(row, count)[p]) if count else 1
    return [int(x) for x in _f(row, name)[p, :n]]


def _field_at(row: np.ndarray, p: int, pos: int) -> int:
    if pos == 0:
        return int(_f(row, "lead")[p, 0])
    backup = _zone(row, "backup", "backup_count", p)
    return backup[pos - 1] if pos - 1 < len(backup) else -1


def _pos_name(pos: int) -> str:
    return "Lead" if pos == 0 else f"Back-Up {pos}"


def action_name(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Human-readable text of ``action`` for ``player`` in the position ``row``."""
    field, i = action_range(int(action))
    p, o = int(player), 1 - int(player)
    step = int(_f(row, "step"))
    hand = _zone(row, "hand", "hand_count", p)
    if field == "pass":
        return {ST_CHARGE: "do not charge", ST_WINDOW: "pass (no Turbo)", 7: "end the main phase",
                9: "end the action phase", 11: "end the climax phase", ST_START_OPEN: "no Turbo: go to the main phase",
                ST_END_OPEN: "no Turbo: end the turn", ST_CHOOSE: "evolve nothing (no eligible pair)"}.get(step, "pass")
    if field == "choose_lead":
        return f"choose '{_card(row, pool, p, i)}' as the Lead (deck card {i})"
    if field == "hand":
        name = _card(row, pool, p, hand[i]) if i < len(hand) else "?"
        if step == ST_CHARGE:
            return f"charge '{name}' (hand {i}) and draw"
        kind = pool.cards[pool.by_name[name]]["type"] if name in pool.by_name else "card"
        verb = {"fighter": "call", "support": "play", "climax": "play climax"}.get(kind, "play")
        return f"{verb} '{name}' (hand {i})"
    if field == "onto":
        h, pos = divmod(i, FIELD_CAP)
        name = _card(row, pool, p, hand[h]) if h < len(hand) else "?"
        kind = pool.cards[pool.by_name[name]]["type"] if name in pool.by_name else "card"
        verb = "evolve" if kind == "fighter" else "equip"
        if step == ST_CHOOSE:
            verb = "effect: evolve"
        return f"{verb}: '{name}' (hand {h}) onto {_pos_name(pos)} '{_card(row, pool, p, _field_at(row, p, pos))}'"
    if field == "skill":
        pos, k = divmod(i, 2)
        name = _card(row, pool, p, _field_at(row, p, pos))
        skills = pool.cards[pool.by_name[name]]["skills"] if name in pool.by_name else []
        sk = skills[k]["name"] if k < len(skills) else f"skill {k + 1}"
        return f"skill '{sk}' of {_pos_name(pos)} '{name}'"
    if field == "swap" and step == ST_CHOOSE:
        return f"effect: swap the Lead with Back-Up {i + 1} '{_card(row, pool, p, _field_at(row, p, i + 1))}'"
    if field == "swap":
        return f"swap the Lead with Back-Up {i + 1} '{_card(row, pool, p, _field_at(row, p, i + 1))}'"
    if field == "act":
        name = _card(row, pool, p, _field_at(row, p, 0))
        acts = pool.cards[pool.by_name[name]]["actions"] if name in pool.by_name else []
        if i < len(acts):
            a = acts[i]
            dmg = f" {a['damage']}" if a["damage"] else ""
            return f"Lead '{name}' acts: {a['name']}{dmg}"
        return f"Lead acts: action {i + 1}"
    if field == "target":
        return f"target the opponent's {_pos_name(i)} '{_card(row, pool, o, _field_at(row, o, i))}'"
    if field == "order":
        q, inst = (int(x) for x in _f(row, "trig")[i])
        return f"resolve the triggered ability of '{_card(row, pool, q, inst)}' next"
    if field == "refill":
        return f"move Back-Up {i + 1} '{_card(row, pool, p, _field_at(row, p, i + 1))}' into the Lead"
    return f"action {action}"


def _describe_fighter(row: np.ndarray, pool: CardPool, p: int, inst: int, show: bool) -> str:
    if inst < 0:
        return "-"
    if not show:
        return "[face down]"
    card = int(_f(row, "deck_list")[p, inst])
    info = pool.cards[card]
    dmg = int(_f(row, "damage")[p, inst])
    state = "rested" if _f(row, "rested")[p, inst] else "standing"
    stock = [s for s in _zone(row, "stock", "stock_count", p) if int(_f(row, "stock_host")[p, s]) == inst]
    items = [_card(row, pool, p, s) for s in stock if _f(row, "face_up")[p, s]]
    extra = f" stock {len(stock)}" + (f" [{', '.join(items)}]" if items else "") if stock else ""
    return f"{info['name']} (Lv{info['level']} HP {info['hp']} dmg {dmg}, {state}{extra})"


def render(row: np.ndarray, pool: CardPool, viewer: int | None = None) -> str:
    """A readable board; ``viewer`` None shows everything, else only what that player can see."""
    lines = []
    status = int(row[H_STATUS])
    tp = int(_f(row, "turn_player"))
    step = int(_f(row, "step"))
    head = f"heartbreak  turn {int(row[H_TURN])}  turn player P{tp}  step: {STEP_NAMES[step]}"
    if status == LIVE:
        head += f"  to act: P{int(row[H_TO_ACT])}"
    elif status == TRUNCATED:
        head += "  [truncated]"
    else:
        w = int(row[H_WINNER])
        head += "  [draw]" if w == 2 else f"  [P{w} wins]"
    lines.append(head)
    face_up = _f(row, "face_up")
    for p in (0, 1):
        private = viewer is None or viewer == p
        heart = []
        for inst in _zone(row, "heart", "heart_count", p):
            if face_up[p, inst]:
                heart.append(_card(row, pool, p, inst) + " (up)")
            else:
                heart.append(_card(row, pool, p, inst) + " (down)" if viewer is None else "face-down")
        lines.append(
            f"P{p}: deck {int(_f(row, 'deck_count')[p])}  hand {int(_f(row, 'hand_count')[p])}  "
            f"charge {int(_f(row, 'charge_count')[p])}  discard {int(_f(row, 'discard_count')[p])}  "
            f"heart {len(heart)}: " + (", ".join(heart) or "empty")
        )
        lead = int(_f(row, "lead")[p, 0])
        lines.append(f"  Lead:    {_describe_fighter(row, pool, p, lead, bool(private or lead < 0 or face_up[p, lead]))}")
        backup = _zone(row, "backup", "backup_count", p)
        lines.append("  Back-Up: " + (" | ".join(_describe_fighter(row, pool, p, b, True) for b in backup) or "-"))
        if private:
            lines.append("  hand:    " + (", ".join(_card(row, pool, p, h) for h in _zone(row, "hand", "hand_count", p))
                                          or "-"))
    stack = _f(row, "stack")
    for j in range(int(_f(row, "stack_count"))):
        kind, q, inst, _index, target, cancelled = (int(x) for x in stack[j])
        what = KIND_NAMES[kind] + ("" if inst < 0 else f" '{_card(row, pool, q, inst)}'")
        if target >= 0:
            what += f" -> '{_card(row, pool, 1 - q, target)}'"
        lines.append(f"  stack {j}: P{q} {what}{' (negated)' if cancelled else ''}")
    return "\n".join(lines)


def hide(row: np.ndarray, viewer: int, rng: np.random.Generator, pool: CardPool) -> np.ndarray:
    """A copy of ``row`` where everything ``viewer`` cannot see is re-dealt.

    Card identity is permuted among the instances the viewer cannot see (``deck_list`` entries are swapped;
    positions and per-instance state stay): for both players the deck and the face-down heart cards (hidden from
    their owner too, HB-H9); for the opponent also the hand, the charge zone and face-down stock cards, and during
    setup its face-down Lead (which keeps a Lead-capable card). Deck orders are reshuffled as well.
    """
    out = row.copy()
    deck_list = _S.get(out, "deck_list")  # a view into out
    face_up = _S.get(out, "face_up")
    ctab = pool.tables[0]
    off = _S.offset("deck_list")
    setup = int(_f(out, "step")) == ST_SETUP_LEAD
    for p in (0, 1):
        # while choosing its Lead a player looks through its own deck: its contents are known then
        hidden = [] if (setup and p == viewer) else _zone(out, "deck", "deck_count", p)
        hidden += [i for i in _zone(out, "heart", "heart_count", p) if not face_up[p, i]]
        if p != viewer:
            hidden += _zone(out, "hand", "hand_count", p)
            hidden += _zone(out, "charge", "charge_count", p)
            hidden += [i for i in _zone(out, "stock", "stock_count", p) if not face_up[p, i]]
            lead = int(_f(out, "lead")[p, 0])
            if lead >= 0 and not face_up[p, lead]:
                candidates = [i for i in hidden if ctab[deck_list[p, i], C_LEAD_OK]] + [lead]
                pick = candidates[int(rng.integers(len(candidates)))]
                a, b = off + p * D + lead, off + p * D + pick
                out[a], out[b] = out[b], out[a]
        cards = np.array([deck_list[p, i] for i in hidden], dtype=np.int32)
        rng.shuffle(cards)
        for i, c in zip(hidden, cards):
            out[off + p * D + i] = c
        if setup and p == viewer:
            continue  # the unshuffled deck it looks through: order and contents known
        n = int(_f(out, "deck_count")[p])
        start = _S.offset("deck") + p * D
        out[start:start + n] = rng.permutation(out[start:start + n])
    return out


def card_summary(pool: CardPool, card_id: int) -> str:
    """Short text of a card, for card lists."""
    c = pool.cards[card_id]
    bits = [f"{c['name']} ({c['type']}, {c['alliance']}"]
    if c["type"] == "fighter":
        bits.append(f", Lv{c['level']} HP {c['hp']}")
    if c["cost"]:
        bits.append(f", cost {c['cost']}")
    bits.append(")")
    for key in ("armor", "ward", "counter", "baneful", "attack"):
        if c[key]:
            bits.append(f" [{key.title()} {c[key]}]")
    if c["strike"] > 1:
        bits.append(" [Dual Strike]" if c["strike"] == 2 else " [Tri Strike]")
    if c["bypass"]:
        bits.append(" [Bypass]")
    if c["turbo"]:
        bits.append(" [Turbo]")
    return "".join(bits)
