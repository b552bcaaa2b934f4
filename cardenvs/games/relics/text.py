"""Python-side helpers over a state row: action names, a text board, and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.cards import CardPool
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TRUNCATED

from .actions import action_range
from .board import att_of, def_of
from .cards import (
    C_RELIC_ATT,
    C_RELIC_DEF,
    C_TYPE,
    SKILLS,
    T_LOCATION,
    TYPES,
)
from .state import LOCATIONS, MAX_DECK, PARTY, STATE, STEP_NAMES

_S = STATE
EVENTS = ("", "the attack fell short", "defeated the target", "was countered", "both were defeated",
          "retreated", "everything went Up")


def _f(row: np.ndarray, name: str) -> np.ndarray:
    return _S.get(row, name)


def _zone(row: np.ndarray, name: str, p: int) -> list[int]:
    count = f"{name}_count"
    n = int(_f(row, count)[p]) if count in {f.name for f in _S.fields} else 1
    return [int(x) for x in _f(row, name)[p, :n] if x >= 0]


def _name(row: np.ndarray, pool: CardPool, p: int, inst: int) -> str:
    if inst < 0:
        return "-"
    return pool.name(int(_f(row, "deck_list")[p, inst]))


def _at_slot(row: np.ndarray, p: int, slot: int) -> int:
    pos = _f(row, "pos")
    for inst in _zone(row, "party", p):
        if pos[p, inst] == slot:
            return inst
    return -1


def _slot_text(p: int, slot: int) -> str:
    return f"{'front' if slot < 3 else 'back'} {slot % 3 + 1}"


def _sideboard(row: np.ndarray, p: int, k: int) -> tuple[int, int]:
    q = p if k < LOCATIONS else 1 - p
    j = k if k < LOCATIONS else k - LOCATIONS
    won = _zone(row, "won", q)
    if j >= len(won) or _f(row, "controller")[q, won[j]] != p:
        return -1, -1
    return q, won[j]


def _relic_name(pool: CardPool, card: int) -> str:
    info = pool.cards[card]
    return info.get("relic_name") or info["name"]


def action_name(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Human-readable text of ``action`` for ``player`` in the position ``row``."""
    field, i = action_range(int(action))
    p, o = int(player), 1 - int(player)
    step = STEP_NAMES[int(_f(row, "step"))]
    if field == "pass":
        return {"place characters": "send the drawn character to the reserves", "jump": "do not Jump",
                "keep characters": "keep no more characters", "resolution discard": "done discarding, draw to 3",
                }.get(step, "Pass (draw 1)")
    if field in ("fight", "throw"):
        a, t = divmod(i, PARTY)
        verb = "Fight" if field == "fight" else "Throw"
        return (f"{verb}: {_name(row, pool, p, _at_slot(row, p, a))} ({_slot_text(p, a)}) -> "
                f"{_name(row, pool, o, _at_slot(row, o, t))} ({_slot_text(o, t)})")
    if field == "move":
        a, b = divmod(i, PARTY)
        return f"Move {_name(row, pool, p, _at_slot(row, p, a))} from {_slot_text(p, a)} to {_slot_text(p, b)}"
    if field == "hand":
        hand = _zone(row, "hand", p)
        name = _name(row, pool, p, hand[i]) if i < len(hand) else "?"
        if step in ("discard", "resolution discard"):
            return f"discard '{name}' (hand {i})"
        kind = pool.cards[pool.by_name[name]]["type"] if name in pool.by_name else "card"
        return f"{'Reinforce with' if kind == 'equipment' else 'Cast/Use'} '{name}' (hand {i})"
    if field == "reserve":
        res = _zone(row, "reserves", p)
        name = _name(row, pool, p, res[i]) if i < len(res) else "?"
        return f"discard reserve '{name}'" if step == "trim reserves" else f"Reinforce with '{name}' from the reserves"
    if field == "relic":
        q, inst = _sideboard(row, p, i)
        return f"Reinforce with the relic '{_relic_name(pool, int(_f(row, 'deck_list')[q, inst]))}'" if q >= 0 else "relic ?"
    if field == "ability":
        return f"ability of {_name(row, pool, p, _at_slot(row, p, i))} ({_slot_text(p, i)})"
    if field == "leader_ability":
        return f"leader card ability ({_name(row, pool, p, int(_f(row, 'leader_card')[p, 0]))})"
    if field in ("recruit", "appoint", "retreat"):
        return {"recruit": "Recruit (discard 3, draw a character into the reserves)",
                "appoint": "Appoint (discard 3, move the leader card)",
                "retreat": "Retreat (all characters to the reserves, lose the battle)"}[field]
    if field == "slot":
        inst = _at_slot(row, p, i)
        return f"choose own {_slot_text(p, i)}" + (f" ({_name(row, pool, p, inst)})" if inst >= 0 else " (empty)")
    if field == "target":
        return f"choose opposing {_slot_text(o, i)} ({_name(row, pool, o, _at_slot(row, o, i))})"
    if field == "location":
        q = p if i < LOCATIONS else o
        pile = _zone(row, "loc_pile", q)
        j = i if i < LOCATIONS else i - LOCATIONS
        return f"battle at '{_name(row, pool, q, pile[j]) if j < len(pile) else '?'}'"
    if field == "pile":
        name = pool.cards[i]["name"] if i < len(pool.cards) else "?"
        return f"take back '{name}'"
    if field == "pick":
        line = _zone(row, "lineup", p)
        return f"leader: '{_name(row, pool, p, line[i]) if i < len(line) else '?'}'"
    return f"action {action}"


def _char_text(row: np.ndarray, pool: CardPool, p: int, inst: int, show: bool) -> str:
    if inst < 0:
        return "."
    if not show and _f(row, "face_down")[p, inst]:
        return "[face down]"
    card = int(_f(row, "deck_list")[p, inst])
    ctab = pool.tables[0]
    info = pool.cards[card]
    # current values, as the rules read them (printed + attachment + modifiers + cont effects)
    att = int(att_of(np.ascontiguousarray(row), pool.tables, p, inst))
    dfn = int(def_of(np.ascontiguousarray(row), pool.tables, p, inst))
    text = f"{info['name']} {att}/{dfn}"
    code = int(_f(row, "attached")[p, inst])
    if code >= 0:
        a = int(_f(row, "deck_list")[code // MAX_DECK, code % MAX_DECK])
        text += f" +{_relic_name(pool, a) if ctab[a, C_TYPE] == T_LOCATION else pool.name(a)}"
    flags = "v" if _f(row, "down")[p, inst] else "^"
    if int(_f(row, "leader")[p]) == inst:
        flags += "L"
    if _f(row, "face_down")[p, inst]:
        flags += "?"
    return f"{text} [{flags}]"


def render(row: np.ndarray, pool: CardPool, viewer: int | None = None) -> str:
    """A readable board; ``viewer`` None shows everything, else only what that player can see."""
    lines = []
    status = int(row[H_STATUS])
    step = STEP_NAMES[int(_f(row, "step"))]
    head = (f"relics  battle {int(row[H_TURN])}  round {int(_f(row, 'round'))}  1P: P{int(_f(row, 'lead'))}  "
            f"step: {step}")
    if status == LIVE:
        head += f"  to act: P{int(row[H_TO_ACT])}"
    elif status == TRUNCATED:
        head += "  [truncated]"
    else:
        w = int(row[H_WINNER])
        head += "  [draw]" if w == 2 else f"  [P{w} wins]"
    lines.append(head)
    loc = [(q, i) for q in (0, 1) for i in _zone(row, "battlefield", q)]
    if loc:
        q, i = loc[0]
        card = int(_f(row, "deck_list")[q, i])
        info = pool.cards[card]
        lines.append(f"location: {info['name']} (qualifies: {', '.join(info['qualifies'])}; relic "
                     f"{_relic_name(pool, card)} +{pool.tables[0][card, C_RELIC_ATT]}/+{pool.tables[0][card, C_RELIC_DEF]})")
    pile = [_name(row, pool, q, i) for q in (0, 1) for i in _zone(row, "loc_pile", q)]
    lines.append("location pile: " + (", ".join(pile) or "-"))
    event = int(_f(row, "last_event"))
    if 0 < event < len(EVENTS):
        lines.append(f"last: {EVENTS[event]}")
    for p in (0, 1):
        private = viewer is None or viewer == p
        leader = _name(row, pool, p, int(_f(row, "leader_card")[p, 0]))
        if not private and not _f(row, "leader_shown")[p]:
            leader = "(not shown yet)"
        relics = [_relic_name(pool, int(_f(row, "deck_list")[q, i])) for q in (0, 1) for i in _zone(row, "won", q)
                  if _f(row, "controller")[q, i] == p]
        lines.append(
            f"P{p}: relics {len(relics)} ({', '.join(relics) or '-'})  character deck {int(_f(row, 'char_deck_count')[p])}"
            f"  item deck {int(_f(row, 'item_deck_count')[p])}  hand {int(_f(row, 'hand_count')[p])}"
            f"  reserves {int(_f(row, 'reserves_count')[p])}  discard {int(_f(row, 'discard_count')[p])}"
            f"  doom {int(_f(row, 'doom_count')[p])}  leader card {leader}"
        )
        for back, label in ((0, "front"), (1, "back ")):
            cells = [_char_text(row, pool, p, _at_slot(row, p, back * 3 + s), private) for s in range(3)]
            lines.append(f"  {label}: " + " | ".join(cells))
        if private:
            lines.append("  hand:     " + (", ".join(_name(row, pool, p, h) for h in _zone(row, "hand", p)) or "-"))
            lines.append("  reserves: " + (", ".join(_name(row, pool, p, h) for h in _zone(row, "reserves", p)) or "-"))
            line = _zone(row, "lineup", p)
            if line:
                lines.append("  drawn:    " + ", ".join(_name(row, pool, p, h) for h in line))
    return "\n".join(lines)


def hide(row: np.ndarray, viewer: int, rng: np.random.Generator, pool: CardPool) -> np.ndarray:
    """A copy of ``row`` where everything ``viewer`` cannot see is re-dealt, and nothing else.

    Card identity is permuted among instances the viewer cannot see (``deck_list`` entries are swapped, positions
    and per-instance state stay), kept within one kind so the state stays valid: the opponent's hand and item deck
    together; the opponent's character deck, reserves, drawn line-up and face-down characters together; and the
    viewer's own two decks (their order is unknown to their owner too). Cards in the opponent's hand or reserves
    that the viewer saw go there (``known``: back from play, the discard or the doom pile) keep their identity, and
    so does everything in play face up and in the public piles. The opponent's leader card, until it is first
    attached (``leader_shown``), is re-dealt among the pool's leader cards.
    """
    out = row.copy()
    deck_list = _S.get(out, "deck_list")  # a view into out
    face_down = _S.get(out, "face_down")
    known = _S.get(out, "known")
    off = _S.offset("deck_list")
    opp = 1 - viewer

    def unknown(zone: str) -> list[int]:
        return [i for i in _zone(out, zone, opp) if not known[opp, i]]

    groups = [
        (viewer, _zone(out, "item_deck", viewer)),
        (viewer, _zone(out, "char_deck", viewer)),
        (opp, unknown("hand") + _zone(out, "item_deck", opp)),
        (opp, _zone(out, "char_deck", opp) + unknown("reserves") + _zone(out, "lineup", opp)
         + [i for i in _zone(out, "party", opp) if face_down[opp, i]]),
    ]
    for p, hidden in groups:
        cards = np.array([deck_list[p, i] for i in hidden], dtype=np.int32)
        rng.shuffle(cards)
        for i, c in zip(hidden, cards):
            out[off + p * MAX_DECK + i] = c
    if not _S.get(out, "leader_shown")[opp]:
        leaders = np.flatnonzero(pool.tables[0][:, C_TYPE] == TYPES.index("leader"))
        inst = int(_S.get(out, "leader_card")[opp, 0])
        out[off + opp * MAX_DECK + inst] = int(rng.choice(leaders))
    return out


def card_summary(pool: CardPool, card_id: int) -> str:
    """One line per card for listings."""
    info = pool.cards[card_id]
    kind = info["type"]
    parts = [f"{info['name']} ({kind}, {info['rarity']})"]
    if kind == "character":
        parts.append(f"{info['att']}/{info['def']} {info['class']} [{', '.join(info['descriptors'])}] "
                     f"skills: {', '.join(info['skills']) or '-'}")
    if kind == "equipment":
        parts.append(f"+{info['att']}/+{info['def']} grants {', '.join(info['skills']) or '-'} "
                     f"requires {', '.join(info['requires']) or '-'}")
    if kind == "location":
        parts.append(f"qualifies {', '.join(info['qualifies'])}; relic {info['relic_name']}")
    for e in info["effects"]:
        args = {k: v for k, v in e.items() if k in ("target", "n", "att", "def", "power") and v}
        parts.append(f"[{e['trigger']}{' leader' if e['leader'] else ''}] {e['op']} {args}")
    return " ".join(parts)


__all__ = ["SKILLS", "TYPES", "action_name", "card_summary", "hide", "render"]
