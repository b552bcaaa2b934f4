"""Python-side helpers over a state row: action names, a text board and its ``LEGEND``, ``explain_illegal`` (why an
action is not legal now) and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import textwrap

import numpy as np

from cardenvs.core.cards import CardPool
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TRUNCATED

from .actions import ACTIONS, NUM_ACTIONS, action_range
from .board import normalize_reserves
from .board import att_of, def_of, distance, immune, is_down, meets_requirements, qualifies, sideboard_entry, skills_of
from .cards import (
    C_ACT,
    C_ACT_LEADER,
    C_COST_DOWN,
    C_NEEDS_CASTER,
    C_ONE_TARGET,
    C_RELIC_ATT,
    C_RELIC_DEF,
    C_SCHOOL,
    C_TYPE,
    E_OP,
    E_POWER,
    E_TARGET,
    E_TRIGGER,
    ONE_OPP,
    ONE_OWN,
    OP_BOOST,
    OP_DOWN,
    OP_DRAW,
    OP_EXHUME,
    OP_OPP_DISCARD,
    OP_RAISE,
    OP_RECLAIM,
    OP_RECRUIT,
    OP_STRIKE,
    OP_UP,
    TG_OPP_ONE,
    TG_OWN_ALL,
    TG_OWN_ONE,
    TG_SELF,
    TR_ACT,
    TR_CAST,
    SCHOOLS,
    SK_RANGED,
    SK_THROW,
    SKILLS,
    T_EQUIPMENT,
    T_ITEM,
    T_LOCATION,
    T_SPELL,
    TYPES,
)
from .effects import effect_useful, pile_candidate
from .rules import (
    caster_useful,
    mask_row,
    free_host,
    has_target,
    pending_card_id,
    pending_is_hidden,
    pending_school,
    pending_target_useful,
    school_skill,
    valid_caster,
)
from . import state as S

_S = S.STATE
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
    return f"{'front' if slot < S.ROW_SIZE else 'back'} {slot % S.ROW_SIZE + 1}"


def _occupant(row: np.ndarray, pool: CardPool, p: int, slot: int) -> str:
    inst = _at_slot(row, p, slot)
    return f"{_name(row, pool, p, inst)} ({_slot_text(p, slot)})" if inst >= 0 else f"(empty {_slot_text(p, slot)})"


def _sideboard(row: np.ndarray, p: int, k: int) -> tuple[int, int]:
    q = p if k < S.NUM_LOCATIONS else 1 - p
    j = k if k < S.NUM_LOCATIONS else k - S.NUM_LOCATIONS
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
    step = S.STEP_NAMES[int(_f(row, "step"))]
    if field == "pass":
        return {"place characters": "send the drawn character to the reserves", "jump": "do not Jump",
                "keep characters": "keep no more characters", "resolution discard": "done discarding, draw to 3",
                }.get(step, "Pass (draw 1)")
    if field in ("fight", "throw"):
        a, t = divmod(i, S.PARTY_SIZE)
        verb = "Fight" if field == "fight" else "Throw"
        return f"{verb}: {_occupant(row, pool, p, a)} -> {_occupant(row, pool, o, t)}"
    if field == "move":
        a, b = divmod(i, S.PARTY_SIZE)
        inst = _at_slot(row, p, a)
        who = _name(row, pool, p, inst) if inst >= 0 else "(nobody)"
        return f"Move {who} from {_slot_text(p, a)} to {_slot_text(p, b)}"
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
        return f"Reinforce with the relic '{_relic_name(pool, int(_f(row, 'deck_list')[q, inst]))}'" if q >= 0 else f"relic entry {i} (no relic you control)"
    if field == "ability":
        return f"ability of {_occupant(row, pool, p, i)}"
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
        q = p if i < S.NUM_LOCATIONS else o
        pile = _zone(row, "loc_pile", q)
        j = i if i < S.NUM_LOCATIONS else i - S.NUM_LOCATIONS
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
        a = int(_f(row, "deck_list")[code // S.MAX_DECK, code % S.MAX_DECK])
        text += f" +{_relic_name(pool, a) if ctab[a, C_TYPE] == T_LOCATION else pool.name(a)}"
    flags = "v" if _f(row, "down")[p, inst] else "^"
    if int(_f(row, "leader")[p]) == inst:
        flags += "L"
    if _f(row, "face_down")[p, inst]:
        flags += "?"
    return f"{text} [{flags}]"


def _public_step(row: np.ndarray, viewer: int | None) -> str:
    """The step's name as ``viewer`` may know it: a sub-decision of the other player that depends on their hidden
    hand card (``rules.pending_is_hidden``) reads as the battle step, as in the observation."""
    st = int(_f(row, "step"))
    if (viewer is not None and int(row[H_STATUS]) == LIVE and int(row[H_TO_ACT]) != viewer
            and pending_is_hidden(np.ascontiguousarray(row))):
        st = S.ST_BATTLE
    return S.STEP_NAMES[st]


def render(row: np.ndarray, pool: CardPool, viewer: int | None = None) -> str:
    """A readable board; ``viewer`` None shows everything, else only what that player can see."""
    lines = []
    status = int(row[H_STATUS])
    step = _public_step(row, viewer)
    head = (f"relics  battle {int(row[H_TURN])}  round {int(_f(row, 'round'))}  1P: P{int(_f(row, 'lead'))}  "
            f"step: {step}")
    if status == LIVE:
        head += f"  to act: P{int(row[H_TO_ACT])}"
    elif status == TRUNCATED:
        head += "  [truncated]"
    else:
        w = int(row[H_WINNER])
        head += "  [draw]" if w == S.BATTLE_DRAW else f"  [P{w} wins]"
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
        hand, res = int(_f(row, "hand_count")[p]), int(_f(row, "reserves_count")[p])
        aside = _zone(row, "hand_aside", p)
        if not private:  # RL-G14: what the opponent set aside is still in its hand / reserves for this viewer
            step_now = int(_f(row, "step"))
            hand += len(aside) if step_now == S.ST_HAND else 0
            res += len(aside) if step_now == S.ST_TRIM else 0
        lines.append(
            f"P{p}: relics {len(relics)} ({', '.join(relics) or '-'})  character deck {int(_f(row, 'char_deck_count')[p])}"
            f"  item deck {int(_f(row, 'item_deck_count')[p])}  hand {hand}"
            f"  reserves {res}  discard {int(_f(row, 'discard_count')[p])}"
            f"  doom {int(_f(row, 'doom_count')[p])}  leader card {leader}"
        )
        for back, label in ((0, "front"), (1, "back ")):
            cells = [_char_text(row, pool, p, _at_slot(row, p, back * S.ROW_SIZE + s), private)
                     for s in range(S.ROW_SIZE)]
            lines.append(f"  {label}: " + " | ".join(cells))
        if private:
            lines.append("  hand:     " + (", ".join(_name(row, pool, p, h) for h in _zone(row, "hand", p)) or "-"))
            lines.append("  reserves: " + (", ".join(_name(row, pool, p, h) for h in _zone(row, "reserves", p)) or "-"))
            line = _zone(row, "lineup", p)
            if line:
                lines.append("  drawn:    " + ", ".join(_name(row, pool, p, h) for h in line))
            if aside:
                lines.append("  set aside: " + ", ".join(_name(row, pool, p, h) for h in aside))
    return "\n".join(lines)


def _action_ids() -> str:
    parts = []
    for f in ACTIONS.fields:
        lo = ACTIONS.offset(f.name)
        parts.append(f"{lo}" if f.size == 1 else f"{lo}-{lo + f.size - 1}")
        parts[-1] += f" {f.name.replace('_', ' ')}"
    return "; ".join(parts)


LEGEND = """\
relics board legend (every mark the text board prints)
Header: "relics  battle N  round N  1P: Pn  step: S  to act: Pn". battle N counts the battles (one per location;
  4 relics win, RL-V1); round N counts the rounds of the battle phase (a round ends when both players pass one
  after the other and everything goes Up, RL-G10); "1P": the player who chose the location and acts first this
  battle (the roles swap every battle, RL-G12); "to act": who decides now.
  Steps: "choose location" (1P picks the battlefield from the location pile), "choose leader" (pick the leader
  among your drawn characters), "place leader" (put it face up on a grid slot), "place characters" (put the next
  drawn character face down on an empty slot, or pass to send it to the reserves), "trim reserves" (discard
  reserve characters beyond 3), "battle" (Fight, Throw, Move, Cast/Use, Reinforce, abilities, Recruit, Appoint,
  Retreat or Pass), "choose own character" (the slot for the action you started: host, caster, target, new
  leader, empty slot), "choose opposing character" (the target of the action you started), "discard" (a card
  from hand: a Recruit/Appoint cost, the equipment a Throw discards, or the card a Steal takes), "jump" (the
  character you just reinforced may Jump-attack any opposing character, or pass), "keep characters" (the
  battle winner keeps up to 3 characters in the reserves), "resolution discard" (discard any cards from hand,
  then pass to draw back to 3), "take back" (pick the card a raise / reclaim / exhume takes back from your
  discard or doom pile), "game over". A step that waits on the opponent's hidden hand card shows as "battle".
  At the end the header shows [P0 wins] / [P1 wins], [draw], or [truncated] (stopped at a cap: no winner).
location: the battlefield card, the classes/descriptors a leader must have to qualify (leader card ability,
  RL-L2), and its relic with the ATT/DEF bonus it gives when attached. location pile: the locations left.
last: what the last attack or round end did ("the attack fell short", "defeated the target", "was countered",
  "both were defeated", "retreated", "everything went Up").
Player line: "P0: relics N (names)  character deck N  item deck N  hand N  reserves N  discard N  doom N
  leader card X": relics controlled, cards in each deck, hand, reserves, discard and doom piles; the leader card
  (the opponent's reads "(not shown yet)" until their first leader is placed).
  front: / back : the grid, slots 1-3 left to right, separated by " | " (front row nearer the opponent;
  distance front-front 1, front-back 2, back-back 3 rows, an empty front row collapses, RL-P3).
  "." an empty slot; [face down] an opposing character not revealed yet (placed in setup).
  hand: / reserves: / drawn: / set aside: your own cards (never the opponent's): hand, reserves, characters drawn
  this Relic phase waiting to be placed, and the cards you chose to discard in a step both players take at once
  (trim reserves, resolution discard): they wait face down until both chose; the opponent's counts include them.
A character: "Name ATT/DEF +Attachment [flags]": current ATT/DEF (printed + attachment + boosts + continuous
  effects), the equipment or relic attached to it (one at most, RL-E2), then its flags:
  ^  Up (can Fight, Throw, Move, use a down cost);   v  Down (used; goes Up when both players pass in a row);
  L  the party leader (carries the leader card);    ?  face down: your own character the opponent has not seen.
  So [^] [v] [^L] [vL] [^?] [v?] [^L?] [vL?].
Action names: own/opposing slots are "front 1..3" and "back 1..3"; "(hand i)" is card i of your hand, from 0;
  relic entries k < 5 are your own won locations, k >= 5 the opponent's locations whose relic you control.
Action ids (for "why N"), by range; inside fight/throw/move, id = start + 6 * a + b with slots a, b counted
  0-5 (0-2 front 1..3, 3-5 back 1..3); slot/target/ability ids count slots the same way:
""" + textwrap.fill(_action_ids() + ".", 116, initial_indent="  ", subsequent_indent="  ")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_WHEN = {
    "pass": "in the battle (Pass: draw 1), when placing drawn characters (to the reserves), in a Jump (decline), "
            "when keeping characters (keep no more) and in the resolution discard (done)",
    "fight": "only in the battle step, on your turn (RL-A1)",
    "throw": "only in the battle step, on your turn (RL-K11)",
    "move": "only in the battle step, on your turn (RL-A4)",
    "hand": "in the battle step (Cast/Use or Reinforce with it, RL-A3/A5), when a discard is asked (a cost, a "
            "Throw or a Steal) and in the resolution discard (RL-B7)",
    "reserve": "in the battle step (Reinforce with it, RL-A5) and in the trim reserves step (discard it, RL-G8)",
    "relic": "only in the battle step, on your turn (Reinforce with a relic, RL-A5)",
    "ability": "only in the battle step, on your turn (RL-U1)",
    "leader_ability": "only in the battle step, on your turn (RL-L2)",
    "recruit": "only in the battle step, on your turn (RL-A6)",
    "appoint": "only in the battle step, on your turn (RL-A7)",
    "retreat": "only in the battle step, on your turn (RL-A8)",
    "slot": "when placing your leader or drawn characters, when an action asks for one of your characters or "
            "slots, and when keeping characters",
    "target": "when an action asks for an opposing character, and in a Jump",
    "location": "only in the choose location step, by the 1P (RL-G2)",
    "pick": "only in the choose leader step (RL-G4)",
    "pile": "only in the take back step (raise, reclaim, exhume)",
}
_WHAT = {"pass": "passing", "fight": "a Fight", "throw": "a Throw", "move": "a Move", "hand": "a hand card",
         "reserve": "a reserve character", "relic": "a relic", "ability": "a character's ability",
         "leader_ability": "the leader card's ability", "recruit": "Recruit", "appoint": "Appoint",
         "retreat": "Retreat", "slot": "choosing one of your slots", "target": "choosing an opposing character",
         "location": "choosing the location", "pick": "choosing a leader", "pile": "taking back a card"}
_ALLOWED = {
    S.ST_LOCATION: ("location",), S.ST_LEADER: ("pick",), S.ST_LEADER_SLOT: ("slot",), S.ST_PLACE: ("pass", "slot"),
    S.ST_TRIM: ("reserve",),
    S.ST_BATTLE: ("pass", "fight", "throw", "move", "hand", "reserve", "relic", "ability", "leader_ability",
                "recruit", "appoint", "retreat"),
    S.ST_SLOT: ("slot",), S.ST_TARGET: ("target",), S.ST_DISCARD: ("hand",), S.ST_JUMP: ("pass", "target"),
    S.ST_KEEP: ("pass", "slot"), S.ST_HAND: ("pass", "hand"), S.ST_PILE: ("pile",),
}
_NOW = {
    S.ST_LOCATION: "choose the battle's location", S.ST_LEADER: "choose your leader among the drawn characters",
    S.ST_LEADER_SLOT: "put your leader on an empty slot",
    S.ST_PLACE: "put the next drawn character on an empty slot, or pass to send it to the reserves",
    S.ST_TRIM: "discard reserve characters until 3 are left", S.ST_BATTLE: "take a battle action or pass",
    S.ST_SLOT: "choose one of your slots for the action you started",
    S.ST_TARGET: "choose an opposing character for the action you started", S.ST_DISCARD: "discard a card from hand",
    S.ST_JUMP: "Jump-attack an opposing character with the character you just reinforced, or pass",
    S.ST_KEEP: "choose characters to keep in the reserves, or pass", S.ST_HAND: "discard cards from hand, or pass",
    S.ST_PILE: "choose the card to take back",
}
_NO_REASON = "not legal in this decision"  # the sweep test checks it never shows: every refusal has its reason


def _c(row: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(row)


def _who(row: np.ndarray, pool: CardPool, p: int, slot: int) -> str:
    return f"'{_name(row, pool, p, _at_slot(row, p, slot))}' ({_slot_text(p, slot)})"


def _hand_missing(n: int, i: int) -> str:
    return f"there is no hand card {i}: your hand holds {_plural(n, 'card')} (numbered from 0)"


def _skill_names(mask: int) -> str:
    return "/".join(SKILLS[b].capitalize() for b in range(len(SKILLS)) if mask >> b & 1)


def _caster_reasons(row: np.ndarray, pool: CardPool, p: int, card: int, c: int) -> list[str]:
    """Why character ``c`` of ``p`` cannot cast / use ``card`` (mirrors ``rules.valid_caster``)."""
    ctab = pool.tables[0]
    if valid_caster(_c(row), ctab, p, card, c):
        return []
    out = []
    who = f"'{_name(row, pool, p, c)}'"
    if int(ctab[card, C_COST_DOWN]) and is_down(row, p, c):
        out.append(f"{who} is Down and '{pool.name(card)}' costs downing its user (RL-U3)")
    if int(ctab[card, C_TYPE]) == T_SPELL:
        school = int(ctab[card, C_SCHOOL])
        if not int(skills_of(row, ctab, p, c)) & int(school_skill(school)):
            out.append(f"{who} lacks the {SCHOOLS[school].capitalize()} skill the {SCHOOLS[school]} spell "
                       f"'{pool.name(card)}' needs in its caster (RL-M2)")
    return out


def _target_reason(row: np.ndarray, pool: CardPool, p: int, card: int, school: int) -> str:
    """Why ``card`` has no possible target (mirrors ``rules.has_target``), or ""."""
    ctab = pool.tables[0]
    one = int(ctab[card, C_ONE_TARGET])
    if one == ONE_OWN and int(_f(row, "party_count")[p]) == 0:
        return f"'{pool.name(card)}' targets one of your characters and you have none in play"
    if one == ONE_OPP and not has_target(_c(row), ctab, p, card, school):
        if int(_f(row, "party_count")[1 - p]) == 0:
            return f"'{pool.name(card)}' targets an opposing character and the opponent has none in play"
        return (f"'{pool.name(card)}' targets an opposing character and every one of them is an Up "
                f"{SCHOOLS[school].capitalize()} character, immune to your {SCHOOLS[school]} magic (RL-K1/K2)")
    return ""


def _useless_reason(row: np.ndarray, pool: CardPool, p: int, card: int, trigger: int, src: int, payer: int,
                    target: int, school: int) -> str:
    """Why firing ``card``'s ``trigger`` effects now would change nothing (mirrors ``effects.effect_useful``), or ""."""
    if effect_useful(_c(row), pool.tables, p, card, trigger, src, payer, target, school):
        return ""
    etab = pool.tables[1]
    q = 1 - p
    parts = []
    for e in range(etab.shape[1]):
        if int(etab[card, e, E_TRIGGER]) != trigger:
            continue
        op, tg = int(etab[card, e, E_OP]), int(etab[card, e, E_TARGET])
        own = tg in (TG_SELF, TG_OWN_ONE, TG_OWN_ALL)
        side = p if own else q
        chosen = target if tg in (TG_OWN_ONE, TG_OPP_ONE) else -1
        who = f"'{_name(row, pool, side, chosen)}'" if chosen >= 0 else None
        if op == OP_DRAW:
            parts.append("your item deck is empty: there is nothing to draw")
        elif op == OP_RECRUIT:
            parts.append("your character deck is empty: there is no character to recruit")
        elif op in (OP_RAISE, OP_RECLAIM, OP_EXHUME):
            what = {OP_RAISE: "no character in your discard pile",
                    OP_RECLAIM: "no equipment, item or spell in your discard pile",
                    OP_EXHUME: "no character or item-deck card in your doom pile"}[op]
            parts.append(f"there is {what} to take back")
        elif op == OP_OPP_DISCARD:
            parts.append("the opponent's hand is empty")
        elif op == OP_UP:
            parts.append(f"{who} is not Down" if who else "none of your characters is Down" + (
                " (the one that pays would only get its payment back)" if payer >= 0 else ""))
        elif op == OP_DOWN:
            parts.append(f"{who} is Down already" if who else "every character it may Down is Down already")
        elif op == OP_STRIKE:
            power = int(etab[card, e, E_POWER])
            parts.append(f"{who} has DEF {int(def_of(_c(row), pool.tables, side, chosen))}, more than the strike's "
                         f"power {power}" if who else f"no character it may hit has DEF {power} or less")
        elif op == OP_BOOST:
            parts.append("it changes no ATT or DEF")
    return f"'{pool.name(card)}' would change nothing now (RL-M4): " + "; ".join(parts)


def _hand_reasons(row: np.ndarray, pool: CardPool, p: int, i: int) -> list[str]:
    """Why hand card ``i`` cannot be played in the battle step (mirrors ``rules.hand_playable``)."""
    ctab = pool.tables[0]
    hand = _zone(row, "hand", p)
    if i >= len(hand):
        return [_hand_missing(len(hand), i)]
    card = int(_f(row, "deck_list")[p, hand[i]])
    name = pool.name(card)
    kind = int(ctab[card, C_TYPE])
    if kind == T_EQUIPMENT:
        if not free_host(_c(row), ctab, p, -1):
            return [f"'{name}' is equipment and every character of yours in play already carries an attachment "
                    f"(one each, RL-E2)" if _zone(row, "party", p) else
                    f"'{name}' is equipment and you have no character in play to attach it to (RL-E1)"]
        return [f"'{name}' is equipment and none of your characters without an attachment meets its requirements "
                f"({_requires(pool, card)}, RL-E1)"]
    if kind not in (T_ITEM, T_SPELL):
        return [f"'{name}' is a {TYPES[kind]} card and cannot be played from the hand"]
    reason = _target_reason(row, pool, p, card, int(ctab[card, C_SCHOOL]))
    if reason:
        return [reason]
    if int(ctab[card, C_NEEDS_CASTER]):
        party = _zone(row, "party", p)
        if not party:
            return [f"'{name}' needs a {'caster' if kind == T_SPELL else 'user'} of yours in play and you have none"]
        need = []
        if kind == T_SPELL:
            need.append(f"with the {SCHOOLS[int(ctab[card, C_SCHOOL])].capitalize()} skill (RL-M2)")
        if int(ctab[card, C_COST_DOWN]):
            need.append("that is Up to pay its down cost (RL-U1/U3)")
        casters = [c for c in party if valid_caster(_c(row), ctab, p, card, c)]
        if not casters:
            return [f"'{name}' needs a {'caster' if kind == T_SPELL else 'user'} of yours " + " and ".join(need)
                    + ": none of your characters in play qualifies"]
        c = casters[0]
        payer = c if int(ctab[card, C_COST_DOWN]) else -1
        reason = _useless_reason(row, pool, p, card, TR_CAST, c, payer, -1, int(ctab[card, C_SCHOOL]))
        return [reason] if reason else []
    reason = _useless_reason(row, pool, p, card, TR_CAST, -1, -1, -1, int(ctab[card, C_SCHOOL]))
    return [reason] if reason else []


def _requires(pool: CardPool, card: int) -> str:
    need = pool.cards[card].get("requires") or []
    return "requires " + ", ".join(need) if need else "no requirement"


def _battle_reasons(row: np.ndarray, pool: CardPool, p: int, field: str, i: int) -> list[str]:
    ctab = pool.tables[0]
    q = 1 - p
    out: list[str] = []
    if field in ("fight", "throw"):
        a, t = divmod(i, S.PARTY_SIZE)
        att, tgt = _at_slot(row, p, a), _at_slot(row, q, t)
        if att < 0:
            out.append(f"you have no character on {_slot_text(p, a)}")
        if tgt < 0:
            out.append(f"the opponent has no character on {_slot_text(q, t)}")
        if att < 0:
            return out
        sk = int(skills_of(_c(row), ctab, p, att))
        if field == "throw":
            if not sk & SK_THROW:
                out.append(f"{_who(row, pool, p, a)} lacks the Throw skill (RL-K11)")
            hand = _zone(row, "hand", p)
            if not any(int(ctab[int(_f(row, "deck_list")[p, h]), C_TYPE]) == T_EQUIPMENT for h in hand):
                out.append("a Throw discards an equipment card from your hand and you hold none (RL-K11)")
        if is_down(_c(row), p, att):
            out.append(f"{_who(row, pool, p, a)} is Down: only an Up character can attack (RL-A1, RL-U3)")
        if tgt >= 0:
            d = int(distance(_c(row), p, att, q, tgt))
            ranged = field == "throw" or bool(sk & SK_RANGED)
            reach = 2 if ranged else 1
            if d > reach:
                how = ("a Throw reaches 2 rows (RL-K11)" if field == "throw" else
                       "Ranged reaches 2 rows (RL-K4)" if ranged else "a Fight reaches 1 row, 2 with Ranged (RL-A1)")
                out.append(f"{_who(row, pool, q, t)} is {_plural(d, 'row')} away from {_who(row, pool, p, a)}: {how}")
        return out
    if field == "move":
        a, b = divmod(i, S.PARTY_SIZE)
        c = _at_slot(row, p, a)
        if c < 0:
            out.append(f"you have no character on {_slot_text(p, a)}")
        elif is_down(_c(row), p, c):
            out.append(f"{_who(row, pool, p, a)} is Down: a Move downs the character, so it must be Up (RL-A4)")
        if _at_slot(row, p, b) >= 0:
            out.append(f"{_slot_text(p, b)} is taken by {_who(row, pool, p, b)}: a character moves to an empty slot "
                       f"(RL-A4)" if b != a else "a character moves to another, empty slot (RL-A4)")
        if a // S.ROW_SIZE == b // S.ROW_SIZE:
            out.append("a Move goes to the other row: within its row a character's place changes nothing (RL-A4, "
                       "RL-M4)")
        return out
    if field == "hand":
        return _hand_reasons(row, pool, p, i)
    if field == "reserve":
        res = _zone(row, "reserves", p)
        if i >= len(res):
            return [f"there is no reserve character {i}: your reserves hold {_plural(len(res), 'character')} "
                    f"(numbered from 0)"]
        return [f"your party is full ({S.PARTY_SIZE} characters): Reinforce with a character only while it has fewer "
                f"(RL-A5)"]
    if field == "relic":
        code = int(sideboard_entry(_c(row), p, i))
        if code < 0:
            return [f"there is no relic {i} you control: entries 0-{S.NUM_LOCATIONS - 1} are your own won locations, "
                    f"{S.NUM_LOCATIONS}-{2 * S.NUM_LOCATIONS - 1} the opponent's whose relic you control; you control "
                    f"{_plural(len(_relics_of(row, p)), 'relic')}"]
        relic = _relic_name(pool, int(_f(row, "deck_list")[code // S.MAX_DECK, code % S.MAX_DECK]))
        if int(_f(row, "host")[code // S.MAX_DECK, code % S.MAX_DECK]) >= 0:
            out.append(f"the relic '{relic}' is already in play, attached to a character")
        if not free_host(_c(row), ctab, p, -1):
            out.append(f"the relic '{relic}' needs a character of yours without an attachment (one each, RL-E2)"
                       if _zone(row, "party", p) else "you have no character in play to attach a relic to")
        return out
    if field == "ability":
        c = _at_slot(row, p, i)
        if c < 0:
            return [f"you have no character on {_slot_text(p, i)}"]
        card = int(_f(row, "deck_list")[p, c])
        who = _who(row, pool, p, i)
        if int(ctab[card, C_ACT]) < 0:
            return [f"{who} has no act ability"]
        if is_down(_c(row), p, c):
            out.append(f"{who} is Down: using its ability downs it, so it must be Up (RL-U1/U3)")
        if int(ctab[card, C_ACT_LEADER]) and int(_f(row, "leader")[p]) != c:
            out.append(f"the ability of {who} is marked Leader and works only while it is your party leader (RL-K13)")
        reason = _target_reason(row, pool, p, card, 0) or _useless_reason(row, pool, p, card, TR_ACT, c, c, -1, 0)
        if reason:
            out.append(reason)
        return out
    if field == "leader_ability":
        lc = int(_f(row, "deck_list")[p, int(_f(row, "leader_card")[p, 0])])
        if int(ctab[lc, C_ACT]) < 0:
            return [f"your leader card '{pool.name(lc)}' has no act ability"]
        leader = int(_f(row, "leader")[p])
        if leader < 0:
            return ["you have no leader in play (the leader card's ability downs the leader)"]
        lname = f"your leader '{_name(row, pool, p, leader)}'"
        if is_down(_c(row), p, leader):
            out.append(f"{lname} is Down: the leader card's ability downs the leader, so it must be Up (RL-U3)")
        if not qualifies(_c(row), ctab, p):
            loc = _location_line(row, pool)
            out.append(f"{lname} does not qualify for the location{loc}: the leader card's ability works only while "
                       f"the leader's class or a descriptor matches (RL-L2)")
        reason = _target_reason(row, pool, p, lc, 0) or _useless_reason(row, pool, p, lc, TR_ACT, leader, leader, -1, 0)
        if reason:
            out.append(reason)
        return out
    if field == "recruit":
        n = int(_f(row, "hand_count")[p])
        if n < S.RECRUIT_COST:
            out.append(f"Recruit costs {S.RECRUIT_COST} cards from hand and you hold {n} (RL-A6)")
        if int(_f(row, "char_deck_count")[p]) == 0:
            out.append("your character deck is empty: there is no character to draw (RL-A6)")
        return out
    if field == "appoint":
        n = int(_f(row, "hand_count")[p])
        if n < S.APPOINT_COST:
            out.append(f"Appoint costs {S.APPOINT_COST} cards from hand and you hold {n} (RL-A7)")
        leader = int(_f(row, "leader")[p])
        if not [c for c in _zone(row, "party", p) if c != leader]:
            out.append("you have no character in play other than your leader to move the leader card to (RL-A7)")
        return out
    return out


def _relics_of(row: np.ndarray, p: int) -> list[int]:
    return [k for k in range(2 * S.SIDE_CAP) if int(sideboard_entry(_c(row), p, k)) >= 0]


def _location_line(row: np.ndarray, pool: CardPool) -> str:
    for q in (0, 1):
        b = _zone(row, "battlefield", q)
        if b:
            info = pool.cards[int(_f(row, "deck_list")[q, b[0]])]
            return f" '{info['name']}' (qualifies: {', '.join(info['qualifies'])})"
    return ""


def _slot_reasons(row: np.ndarray, pool: CardPool, p: int, s: int) -> list[str]:
    """ST_SLOT: why own slot ``s`` does not suit the pending action (mirrors ``rules.mask_row``)."""
    ctab = pool.tables[0]
    kind = int(_f(row, "pend_kind"))
    c = _at_slot(row, p, s)
    if kind == S.PK_REINFORCE:
        return [f"{_slot_text(p, s)} is taken by {_who(row, pool, p, s)}: the reinforcing character needs an empty "
                f"slot"]
    if c < 0:
        return [f"you have no character on {_slot_text(p, s)}: choose one of your characters"]
    who = _who(row, pool, p, s)
    if kind in (S.PK_EQUIP, S.PK_RELIC):
        out = []
        if int(_f(row, "attached")[p, c]) >= 0:
            out.append(f"{who} already carries an attachment (one each, RL-E2)")
        if kind == S.PK_EQUIP:
            card = int(_f(row, "deck_list")[p, int(_f(row, "pend_card"))])
            if not meets_requirements(_c(row), ctab, p, c, card):
                out.append(f"{who} does not meet the requirements of '{pool.name(card)}' ({_requires(pool, card)}, "
                           f"RL-E1)")
        return out
    if kind == S.PK_CASTER:
        card = int(pending_card_id(_c(row)))
        out = _caster_reasons(row, pool, p, card, c)
        if not out and not caster_useful(_c(row), pool.tables, p, card, c):
            payer = c if int(ctab[card, C_COST_DOWN]) else -1
            out = [_useless_reason(row, pool, p, card, TR_CAST, c, payer, -1, int(ctab[card, C_SCHOOL]))]
        return out
    if kind == S.PK_OWN_TARGET and not pending_target_useful(_c(row), pool.tables, p, c):
        return [_pending_useless(row, pool, p, c)]
    if kind == S.PK_APPOINT:
        return [f"{who} is already your leader: Appoint moves the leader card to another character (RL-A7)"]
    return []


def _pending_useless(row: np.ndarray, pool: CardPool, p: int, target: int) -> str:
    """Why the pending Cast / ability aimed at ``target`` would change nothing (mirrors ``pending_target_useful``)."""
    card = int(pending_card_id(_c(row)))
    caster = int(_f(row, "pend_caster"))
    if int(_f(row, "pend_src")) == S.SRC_CARD:
        payer = caster if int(pool.tables[0][card, C_COST_DOWN]) else -1
        return _useless_reason(row, pool, p, card, TR_CAST, caster, payer, target,
                               int(pending_school(_c(row), pool.tables)))
    return _useless_reason(row, pool, p, card, TR_ACT, caster, caster, target, 0)


def _pile_reasons(row: np.ndarray, pool: CardPool, p: int, cid: int) -> list[str]:
    ctab = pool.tables[0]
    op = int(_f(row, "pend_src"))
    pile = "doom pile" if op == OP_EXHUME else "discard pile"
    verb = {OP_RAISE: "raise", OP_RECLAIM: "reclaim", OP_EXHUME: "exhume"}.get(op, "take-back")
    if cid >= len(pool.cards):
        return [f"there is no card id {cid}: the pool has {len(pool.cards)} cards"]
    name = pool.cards[cid]["name"]
    insts = [i for i in _zone(row, "doom" if op == OP_EXHUME else "discard", p)
             if int(_f(row, "deck_list")[p, i]) == cid]
    if not insts:
        return [f"there is no '{name}' in your {pile}"]
    kind = int(ctab[cid, C_TYPE])
    if op == OP_RAISE and kind != TYPES.index("character"):
        return [f"'{name}' is a {TYPES[kind]} card: raise takes back a character"]
    if op == OP_RECLAIM and kind not in (T_EQUIPMENT, T_ITEM, T_SPELL):
        return [f"'{name}' is a {TYPES[kind]} card: reclaim takes back an item-deck card (equipment, item, spell)"]
    if op == OP_EXHUME and kind not in (T_EQUIPMENT, T_ITEM, T_SPELL, TYPES.index("character")):
        return [f"'{name}' is a {TYPES[kind]} card: exhume takes back a character or an item-deck card"]
    if pile_candidate(_c(row), ctab, p, op, int(_f(row, "pend_target")), cid) < 0:
        return [f"'{name}' is the card being resolved: the {verb} cannot take it back"]
    return []


def _reasons(row: np.ndarray, pool: CardPool, p: int, field: str, i: int) -> list[str]:
    """Every reason ``field``/``i`` is refused now (read from the same predicates as ``rules.mask_row``)."""
    ctab = pool.tables[0]
    st = int(_f(row, "step"))
    q = 1 - p
    if field not in _ALLOWED.get(st, ()):
        extra = ""
        if field == "pass" and st in (S.ST_LEADER, S.ST_LEADER_SLOT, S.ST_LOCATION, S.ST_TRIM, S.ST_SLOT, S.ST_TARGET,
                                      S.ST_DISCARD, S.ST_PILE):
            extra = "; this choice cannot be declined"
        return [f"{_WHAT[field]} is allowed {_WHEN[field]}; the step now is '{S.STEP_NAMES[st]}': {_NOW[st]}{extra}"]
    if st == S.ST_BATTLE:
        return _battle_reasons(row, pool, p, field, i)
    if st == S.ST_LOCATION:
        mine, theirs = len(_zone(row, "loc_pile", p)), len(_zone(row, "loc_pile", q))
        if i < S.NUM_LOCATIONS:
            return [f"there is no location {i} of yours in the pile: you have {mine} left (entries 0-{mine - 1}), "
                    f"the opponent {theirs} (entries {S.NUM_LOCATIONS}-{S.NUM_LOCATIONS + theirs - 1})"]
        return [f"there is no opposing location {i - S.NUM_LOCATIONS} in the pile: the opponent has {theirs} left "
                f"(entries {S.NUM_LOCATIONS}-{S.NUM_LOCATIONS + theirs - 1}), you {mine} (entries 0-{mine - 1})"]
    if st == S.ST_LEADER:
        n = len(_zone(row, "lineup", p))
        return [f"there is no drawn character {i}: you drew {n} (numbered from 0)"]
    if st in (S.ST_LEADER_SLOT, S.ST_PLACE):
        return [f"{_slot_text(p, i)} is taken by {_who(row, pool, p, i)}: choose an empty slot"]
    if st == S.ST_TRIM:
        n = len(_zone(row, "reserves", p))
        return [f"there is no reserve character {i}: your reserves hold {n} (numbered from 0)"]
    if st == S.ST_SLOT:
        return _slot_reasons(row, pool, p, i)
    if st in (S.ST_TARGET, S.ST_JUMP):
        c = _at_slot(row, q, i)
        if c < 0:
            return [f"the opponent has no character on {_slot_text(q, i)}"]
        school = int(pending_school(_c(row), pool.tables))
        if immune(_c(row), ctab, p, q, c, school):
            return [f"{_who(row, pool, q, i)} is an Up {SCHOOLS[school].capitalize()} character: it ignores your "
                    f"{SCHOOLS[school]} magic (RL-K1/K2)"]
        if st == S.ST_TARGET and not pending_target_useful(_c(row), pool.tables, p, c):
            return [_pending_useless(row, pool, p, c)]
        return []
    if st == S.ST_DISCARD:
        hand = _zone(row, "hand", p)
        if i >= len(hand):
            return [_hand_missing(len(hand), i)]
        if int(_f(row, "pend_kind")) == S.PK_THROW:
            card = int(_f(row, "deck_list")[p, hand[i]])
            return [f"'{pool.name(card)}' is not equipment: a Throw discards an equipment card (RL-K11)"]
        return []
    if st == S.ST_KEEP:
        return [f"you have no character on {_slot_text(p, i)} to keep"]
    if st == S.ST_HAND:
        return [_hand_missing(len(_zone(row, "hand", p)), i)]
    if st == S.ST_PILE:
        return _pile_reasons(row, pool, p, i)
    return []


def explain_illegal(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Why ``action`` is not legal for ``player`` now, in the game's terms; "" when it is legal.

    ``rules.mask_row`` decides legality; the reasons read the same predicates (``hand_playable``'s parts
    ``free_host``/``has_target``/``valid_caster``, ``meets_requirements``, ``immune``, ``distance``, ``qualifies``,
    ``sideboard_entry``, ``pile_candidate``) and only what ``player`` can see: their own hand, reserves, drawn
    characters, piles and leader card, and the public board. The opponent's hand, reserves and decks are never
    read, and a sub-decision of the opponent that depends on their hidden hand card is named as the battle step."""
    p, a = int(player), int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"there is no action {a}: action ids run from 0 to {NUM_ACTIONS - 1}"
    status = int(row[H_STATUS])
    if status != LIVE:
        return "the game is over" + (" (truncated at a cap)" if status == TRUNCATED else "")
    if int(row[H_TO_ACT]) != p:
        return (f"it is not your decision: P{int(row[H_TO_ACT])} decides now (step '{_public_step(row, p)}')")
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    mask_row(_c(row), pool.tables, p, mask)
    if mask[a]:
        return ""
    field, i = action_range(a)
    reasons = _reasons(row, pool, p, field, i)
    return "; ".join(reasons) if reasons else _NO_REASON



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

    # RL-G14: cards the opponent set aside in a simultaneous step are hidden like its hand / reserves
    is_char = pool.tables[0][:, C_TYPE] == TYPES.index("character")
    aside = unknown("hand_aside")
    aside_chars = [i for i in aside if is_char[deck_list[opp, i]]]
    aside_items = [i for i in aside if not is_char[deck_list[opp, i]]]
    groups = [
        (viewer, _zone(out, "item_deck", viewer)),
        (viewer, _zone(out, "char_deck", viewer)),
        (opp, unknown("hand") + aside_items + _zone(out, "item_deck", opp)),
        (opp, _zone(out, "char_deck", opp) + unknown("reserves") + aside_chars + _zone(out, "lineup", opp)
         + [i for i in _zone(out, "party", opp) if face_down[opp, i]]),
    ]
    for p, hidden in groups:
        cards = np.array([deck_list[p, i] for i in hidden], dtype=np.int32)
        rng.shuffle(cards)
        for i, c in zip(hidden, cards):
            out[off + p * S.MAX_DECK + i] = c
    normalize_reserves(out, opp)  # RL-P6: the re-dealt reserves keep one copy of each character in view
    if not _S.get(out, "leader_shown")[opp]:
        leaders = np.flatnonzero(pool.tables[0][:, C_TYPE] == TYPES.index("leader"))
        inst = int(_S.get(out, "leader_card")[opp, 0])
        out[off + opp * S.MAX_DECK + inst] = int(rng.choice(leaders))
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


__all__ = ["LEGEND", "SKILLS", "TYPES", "action_name", "card_summary", "explain_illegal", "hide", "render"]
