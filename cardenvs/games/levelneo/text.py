"""Python-side helpers over a state row: action names, a text board, and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.cards import CardPool
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TRUNCATED

from .actions import action_range
from .cards import C_AP, C_MAIN_OK, E_COND, E_TARGET, E_TRIGGER, TG_OWN_ONE, TRIGGERS
from .state import STATE, STEP_NAMES

_S = STATE


def _f(row: np.ndarray, name: str) -> np.ndarray:
    return _S.get(row, name)


def _card_name(row: np.ndarray, pool: CardPool, p: int, inst: int) -> str:
    if inst < 0:
        return "-"
    return pool.name(int(_f(row, "deck_list")[p, inst]))


def _zone(row: np.ndarray, name: str, count: str, p: int) -> list[int]:
    n = int(_f(row, count)[p]) if count else 1
    return [int(x) for x in _f(row, name)[p, :n]]


def action_name(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Human-readable text of ``action`` for ``player`` in the position ``row``."""
    field, i = action_range(int(action))
    p, o = int(player), 1 - int(player)
    step = int(_f(row, "step"))
    if field == "pass":
        return {
            2: "keep this hand (mulligan done)", 6: "end the battle phase", 7: "no combi partner", 10: "no cover",
            12: "decline the Level Burst", 18: "do not level up",
        }.get(step, "pass (nothing more in this window)")
    if field in ("go_first", "go_second"):
        return field.replace("_", " ")
    if field == "burst":
        return "Level Burst (reveal a face-down level card)"
    if field == "burst_known":
        inst = (_zone(row, "level", "level_count", p) + [-1] * 5)[i]
        return f"Level Burst revealing level card {i} ('{_card_name(row, pool, p, inst)}', once in hand)"
    if field == "hand":
        hand = _zone(row, "hand", "hand_count", p)
        name = _card_name(row, pool, p, hand[i]) if i < len(hand) else "?"
        if step == 2:
            return f"mulligan '{name}' to the bottom (hand {i})"
        if step == 17:
            return f"discard '{name}' (hand {i})"
        kind = pool.cards[pool.by_name[name]]["type"] if name in pool.by_name else "card"
        return f"play {'support' if kind == 'character' else 'event'} '{name}' (hand {i})"
    if field == "skill":
        inst = int(_f(row, "main")[p, 0]) if i == 0 else (_zone(row, "support", "support_count", p) + [-1] * 5)[i - 1]
        return f"use skill of '{_card_name(row, pool, p, inst)}' ({'main' if i == 0 else f'support {i}'})"
    if field == "attack":
        inst = int(_f(row, "main")[p, 0]) if i == 0 else (_zone(row, "support", "support_count", p) + [-1] * 5)[i - 1]
        return f"attack with {'main' if i == 0 else f'support {i}'} '{_card_name(row, pool, p, inst)}'"
    if field == "partner":
        inst = (_zone(row, "support", "support_count", p) + [-1] * 5)[i]
        return f"combi with support {i + 1} '{_card_name(row, pool, p, inst)}'"
    if field == "target":
        inst = int(_f(row, "main")[o, 0]) if i == 0 else (_zone(row, "support", "support_count", o) + [-1] * 5)[i - 1]
        return f"-> opponent {'main' if i == 0 else f'support {i}'} '{_card_name(row, pool, o, inst)}'"
    if field == "cover":
        inst = (_zone(row, "support", "support_count", p) + [-1] * 5)[i]
        return f"cover with support {i + 1} '{_card_name(row, pool, p, inst)}'"
    if field == "level_down":
        inst = (_zone(row, "level", "level_count", p) + [-1] * 5)[i]
        shown = _card_name(row, pool, p, inst) if inst >= 0 and _f(row, "face_up")[p, inst] else "face-down card"
        return f"level down: discard level card {i} ({shown})"
    if field == "combi_loss":
        tp = int(_f(row, "turn_player"))
        inst = int(_f(row, "atk_a")) if i == 0 else int(_f(row, "atk_b"))
        return f"discard the opponent's {'attacker' if i == 0 else 'combi partner'} '{_card_name(row, pool, tp, inst)}'"
    if field == "choose_main":
        return f"choose '{_card_name(row, pool, p, i)}' as main character (deck card {i})"
    if field == "level_up":
        return "level up (top card of the deck to the level zone, face down)"
    if field == "effect_target":
        owner = int(_f(row, "choice_player"))
        src = int(_f(row, "choice_inst"))
        q = p
        if owner >= 0:
            eff = pool.tables[1][int(_f(row, "deck_list")[owner, src]), int(_f(row, "choice_effect"))]
            q = owner if int(eff[E_TARGET]) == TG_OWN_ONE else 1 - owner
        inst = (_zone(row, "support", "support_count", q) + [-1] * 5)[i]
        whose = "own" if q == p else "opponent's"
        return f"effect target: {whose} support {i + 1} '{_card_name(row, pool, q, inst)}'"
    return f"action {action}"


def _describe_char(row: np.ndarray, pool: CardPool, p: int, inst: int, show: bool) -> str:
    if inst < 0:
        return "-"
    if not show:
        return "[face down]"
    card = int(_f(row, "deck_list")[p, inst])
    info = pool.cards[card]
    mods = sum(int(_f(row, n)[p, inst]) for n in ("ap_turn", "ap_next", "ap_battle"))
    flags = "R" if _f(row, "rested")[p, inst] else "A"
    text = f"{info['name']} ({info['color']}, AP {pool.tables[0][card, C_AP]}"
    if mods:
        text += f"{mods:+d}"
    return text + f") [{flags}{'*' if _f(row, 'attacked')[p, inst] else ''}]"


def render(row: np.ndarray, pool: CardPool, viewer: int | None = None) -> str:
    """A readable board; ``viewer`` None shows everything, else only what that player can see."""
    lines = []
    status = int(row[H_STATUS])
    tp = int(_f(row, "turn_player"))
    head = f"levelneo  turn {int(row[H_TURN])}  turn player P{tp}  step: {STEP_NAMES[int(_f(row, 'step'))]}"
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
        lv = int(_f(row, "level_count")[p]) + 1
        lines.append(
            f"P{p}: marker {int(_f(row, 'marker')[p])}  level {lv}{' (Level Neo)' if lv >= 5 else ''}  "
            f"deck {int(_f(row, 'deck_count')[p])}  discard {int(_f(row, 'discard_count')[p])}  "
            f"hand {int(_f(row, 'hand_count')[p])}"
        )
        main = int(_f(row, "main")[p, 0])
        main_up = main >= 0 and (_f(row, "face_up")[p, main] or see_private)
        lines.append(f"  main:     {_describe_char(row, pool, p, main, bool(main_up))}")
        sup = _zone(row, "support", "support_count", p)
        lines.append("  supports: " + (" | ".join(_describe_char(row, pool, p, s, True) for s in sup) or "-"))
        lvl = []
        for inst in _zone(row, "level", "level_count", p):
            if _f(row, "face_up")[p, inst]:
                lvl.append(_card_name(row, pool, p, inst) + " (up)")
            else:
                lvl.append(_card_name(row, pool, p, inst) + " (down)" if viewer is None else "face-down")
        lines.append("  level:    " + (", ".join(lvl) or "-"))
        if see_private:
            hand = [_card_name(row, pool, p, h) for h in _zone(row, "hand", "hand_count", p)]
            lines.append("  hand:     " + (", ".join(hand) or "-"))
    if int(_f(row, "battle")):
        a, b, t = int(_f(row, "atk_a")), int(_f(row, "atk_b")), int(_f(row, "target"))
        atk = _card_name(row, pool, tp, a) + (f" + {_card_name(row, pool, tp, b)}" if b >= 0 else "")
        cover = " (cover)" if int(_f(row, "covered")) else ""
        lines.append(f"battle: {atk} -> {_card_name(row, pool, 1 - tp, t)}{cover}")
    return "\n".join(lines)


def hide(row: np.ndarray, viewer: int, rng: np.random.Generator, pool: CardPool) -> np.ndarray:
    """A copy of ``row`` where exactly what ``viewer`` cannot know is re-dealt.

    * The opponent's cards the viewer has not seen: card identity is permuted among the instances of its hand, deck
      and face-down level cards (``deck_list`` entries are swapped; zones, positions and per-instance state stay),
      and its face-down main during setup keeps a turn-cost-1 character.
    * The viewer's own cards: it knows its deck list (which card each instance is) but not the order of its deck,
      so the *positions* of the instances it cannot locate are permuted among themselves: deck cards and face-down
      level cards (which came from the top of the deck unseen) that never were in its hand. Cards it once held and
      put back (the mulligan puts them at the bottom in its chosen order, and no deck is shuffled after setup) stay
      where they are: it knows them (issue 12 item 18). ``drawn`` marks a card that reached its owner's hand.
    """
    out = row.copy()
    deck_list = _S.get(out, "deck_list")  # a view into out
    face_up = _S.get(out, "face_up")
    drawn = _S.get(out, "drawn")
    ctab = pool.tables[0]
    off = _S.offset("deck_list")
    size = deck_list.shape[1]
    for p in (0, 1):
        deck_at = _S.offset("deck") + p * size
        level_at = _S.offset("level") + p * (_S.get(out, "level").shape[1])
        if p == viewer:
            slots = [deck_at + j for j in range(int(_f(out, "deck_count")[p])) if not drawn[p, out[deck_at + j]]]
            slots += [level_at + j for j in range(int(_f(out, "level_count")[p]))
                      if not face_up[p, out[level_at + j]] and not drawn[p, out[level_at + j]]]
            if slots:
                out[slots] = rng.permutation(out[slots])
            continue
        hidden = _zone(out, "deck", "deck_count", p)
        hidden += [i for i in _zone(out, "level", "level_count", p) if not face_up[p, i]]
        hidden += _zone(out, "hand", "hand_count", p)
        main = int(_f(out, "main")[p, 0])
        if main >= 0 and not face_up[p, main]:
            # keep a main-capable card under the face-down main
            candidates = [i for i in hidden if ctab[deck_list[p, i], C_MAIN_OK]] + [main]
            pick = candidates[int(rng.integers(len(candidates)))]
            a, b = off + p * size + main, off + p * size + pick
            out[a], out[b] = out[b], out[a]
        cards = np.array([deck_list[p, i] for i in hidden], dtype=np.int32)
        rng.shuffle(cards)
        for i, c in zip(hidden, cards):
            out[off + p * size + i] = c
    return out


def effect_summary(pool: CardPool, card_id: int) -> str:
    """Short text of a card's effects, for card lists."""
    etab = pool.tables[1]
    info = pool.cards[card_id]
    parts = []
    for e, eff in enumerate(info["effects"]):
        trig = TRIGGERS[etab[card_id, e, E_TRIGGER]]
        cond = "" if etab[card_id, e, E_COND] == 0 else f" if {eff['condition']}"
        args = {k: v for k, v in eff.items() if k in ("amount", "target", "duration", "n", "filter") and v}
        parts.append(f"[{trig}{cond}] {eff['op']} {args}")
    return f"{info['name']} ({info['type']}, {info['color']}): " + "; ".join(parts)

