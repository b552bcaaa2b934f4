"""Python-side helpers over a state row: action names, a text board and its ``LEGEND``, ``explain_illegal`` (why an
action is not legal now) and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import textwrap

import numpy as np

from cardenvs.core.render import status_suffix
from cardenvs.core.cards import CardPool
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_TURN, LIVE, TRUNCATED

from . import cards as K
from .actions import ACTIONS, NUM_ACTIONS, action_range
from .board import att_of, def_of, distance, normalize_reserves, sideboard_entry
from .cards import C_COST_DOWN, C_RELIC_ATT, C_RELIC_DEF, C_SCHOOL, C_TYPE, SCHOOLS, SKILLS, T_LOCATION, T_SPELL, TYPES
from .reasons import MAX_REASONS
from .reasons import TEMPLATES as REASON_TEMPLATES
from .rules import mask_row, pending_card_id, pending_is_hidden, pending_school, why_row
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
    ctab = pool.tables.cards
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
    step = _public_step(row, viewer)
    lines.append(f"relics  battle {int(row[H_TURN])}  round {int(_f(row, 'round'))}  1P: P{int(_f(row, 'lead'))}  "
                 f"step: {step}" + status_suffix(row))
    loc = [(q, i) for q in (0, 1) for i in _zone(row, "battlefield", q)]
    if loc:
        q, i = loc[0]
        card = int(_f(row, "deck_list")[q, i])
        info = pool.cards[card]
        lines.append(f"location: {info['name']} (qualifies: {', '.join(info['qualifies'])}; relic "
                     f"{_relic_name(pool, card)} +{pool.tables.cards[card, C_RELIC_ATT]}/+{pool.tables.cards[card, C_RELIC_DEF]})")
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


# Words for the wrong-step reason (``reasons.R_WRONG_STEP``): what an action range is, when it is allowed, what the
# step asks for. They describe; which actions a step allows is decided by ``rules.legal_row`` alone.
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
# what each take-back picks, in words (``effects.pile_kind_fits`` decides)
_TAKES = {K.OP_RAISE: ("raise", "a character"),
          K.OP_RECLAIM: ("reclaim", "an item-deck card (equipment, item, spell)"),
          K.OP_EXHUME: ("exhume", "a character or an item-deck card")}
# why an op of a card that would change nothing changes nothing (``reasons.R_USELESS``), by op
_USELESS_OP = {
    K.OP_DRAW: "your item deck is empty: there is nothing to draw",
    K.OP_RECRUIT: "your character deck is empty: there is no character to recruit",
    K.OP_RAISE: "there is no character in your discard pile to take back",
    K.OP_RECLAIM: "there is no equipment, item or spell in your discard pile to take back",
    K.OP_EXHUME: "there is no character or item-deck card in your doom pile to take back",
    K.OP_OPP_DISCARD: "the opponent's hand is empty",
    K.OP_BOOST: "it changes no ATT or DEF",
}
_NO_REASON = "not legal in this decision"  # the sweep test checks it never shows: every refusal has its reason


def _c(row: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(row)


def _who(row: np.ndarray, pool: CardPool, p: int, slot: int) -> str:
    return f"'{_name(row, pool, p, _at_slot(row, p, slot))}' ({_slot_text(p, slot)})"


def _requires(pool: CardPool, card: int) -> str:
    need = pool.cards[card].get("requires") or []
    return "requires " + ", ".join(need) if need else "no requirement"


def _location_line(row: np.ndarray, pool: CardPool) -> str:
    for q in (0, 1):
        b = _zone(row, "battlefield", q)
        if b:
            info = pool.cards[int(_f(row, "deck_list")[q, b[0]])]
            return f" '{info['name']}' (qualifies: {', '.join(info['qualifies'])})"
    return ""


def _entries(first: int, n: int) -> str:
    return f"{first}-{first + n - 1}" if n else "none"


class _Details(dict):
    """The ``{fields}`` of the reason templates for one action of ``p``: names, slots and counts, each read from the
    row the first time a template asks for it (``_field`` methods). They describe the position; none decides
    legality (``rules.legal_row`` recorded the codes)."""

    def __init__(self, row: np.ndarray, pool: CardPool, p: int, field: str, i: int) -> None:
        super().__init__()
        self.row, self.pool, self.p, self.q, self.field, self.i = row, pool, p, 1 - p, field, i
        self.st = int(_f(row, "step"))

    def __missing__(self, key: str) -> str | int:
        value = getattr(self, f"_{key}")()
        self[key] = value
        return value

    # ---- which character / card the action is about
    def _own(self) -> int:  # the own grid slot: the attacker / mover, the ability's character, the slot chosen
        return divmod(self.i, S.PARTY_SIZE)[0] if self.field in ("fight", "throw", "move") else self.i

    def _opp(self) -> int:  # the opposing grid slot: the Fight / Throw target, the target chosen
        return divmod(self.i, S.PARTY_SIZE)[1] if self.field in ("fight", "throw") else self.i

    def _card_id(self) -> int:
        """The card the action plays or resolves: the hand card, the ability's character, the leader card, or the
        card of the pending Cast / ability being aimed."""
        row, p = self.row, self.p
        if self.st in (S.ST_SLOT, S.ST_TARGET):
            return int(pending_card_id(row))
        if self.field == "hand":
            return int(_f(row, "deck_list")[p, _zone(row, "hand", p)[self.i]])
        if self.field == "ability":
            return int(_f(row, "deck_list")[p, _at_slot(row, p, self.i)])
        if self.field == "leader_ability":
            return int(_f(row, "deck_list")[p, int(_f(row, "leader_card")[p, 0])])
        return -1

    def _i(self) -> int:
        return self.i

    def _over_note(self) -> str:
        return " (truncated at a cap)" if int(self.row[H_STATUS]) == TRUNCATED else ""

    def _decider(self) -> int:
        return int(self.row[H_TO_ACT])

    def _public_step(self) -> str:
        return _public_step(self.row, self.p)

    def _what(self) -> str:
        return _WHAT[self.field]

    def _when(self) -> str:
        return _WHEN[self.field]

    def _step(self) -> str:
        return S.STEP_NAMES[self.st]

    def _now(self) -> str:
        return _NOW[self.st]

    def _extra(self) -> str:
        return "; this choice cannot be declined" if self.field == "pass" else ""

    def _opp_i(self) -> int:
        return self.i - S.NUM_LOCATIONS

    def _my_locations(self) -> int:
        return len(_zone(self.row, "loc_pile", self.p))

    def _opp_locations(self) -> int:
        return len(_zone(self.row, "loc_pile", self.q))

    def _my_entries(self) -> str:
        return _entries(0, self["my_locations"])

    def _opp_entries(self) -> str:
        return _entries(S.NUM_LOCATIONS, self["opp_locations"])

    def _drawn(self) -> int:
        return len(_zone(self.row, "lineup", self.p))

    def _reserves(self) -> str:
        return _plural(len(_zone(self.row, "reserves", self.p)), "character")

    def _hand_n(self) -> int:
        return len(_zone(self.row, "hand", self.p))

    def _hand_cards(self) -> str:
        return _plural(self["hand_n"], "card")

    def _slot(self) -> str:
        return _slot_text(self.p, self._own())

    def _slot_who(self) -> str:
        return _who(self.row, self.pool, self.p, self._own())

    def _slot_name(self) -> str:
        return _name(self.row, self.pool, self.p, _at_slot(self.row, self.p, self._own()))

    def _opp_slot(self) -> str:
        return _slot_text(self.q, self._opp())

    def _opp_who(self) -> str:
        return _who(self.row, self.pool, self.q, self._opp())

    def _dest(self) -> str:
        return _slot_text(self.p, self.i % S.PARTY_SIZE)

    def _dest_who(self) -> str:
        return _who(self.row, self.pool, self.p, self.i % S.PARTY_SIZE)

    def _rows(self) -> str:
        att, tgt = _at_slot(self.row, self.p, self._own()), _at_slot(self.row, self.q, self._opp())
        return _plural(int(distance(_c(self.row), self.p, att, self.q, tgt)), "row")

    def _card(self) -> str:
        return self.pool.name(self._card_id())

    def _card_type(self) -> str:
        return TYPES[int(self.pool.tables.cards[self._card_id(), C_TYPE])]

    def _attachable(self) -> str:
        return f"the relic '{self['relic']}'" if self.field == "relic" else f"'{self['card']}'"

    def _requires(self) -> str:
        return _requires(self.pool, self._card_id())

    def _school(self) -> str:
        if self.st in (S.ST_SLOT, S.ST_TARGET):
            return SCHOOLS[int(pending_school(_c(self.row), self.pool.tables))]
        return SCHOOLS[int(self.pool.tables.cards[self._card_id(), C_SCHOOL])]

    def _School(self) -> str:  # noqa: N802 (the template's capitalised school name)
        return self["school"].capitalize()

    def _caster(self) -> str:
        return "caster" if int(self.pool.tables.cards[self._card_id(), C_TYPE]) == T_SPELL else "user"

    def _caster_needs(self) -> str:
        ctab, card = self.pool.tables.cards, self._card_id()
        need = []
        if int(ctab[card, C_TYPE]) == T_SPELL:
            need.append(f"with the {self['School']} skill (RL-M2)")
        if int(ctab[card, C_COST_DOWN]):
            need.append("that is Up to pay its down cost (RL-U1/U3)")
        return " and ".join(need)

    def _party_size(self) -> int:
        return S.PARTY_SIZE

    def _own_relic_entries(self) -> str:
        return _entries(0, S.NUM_LOCATIONS)

    def _opp_relic_entries(self) -> str:
        return _entries(S.NUM_LOCATIONS, S.NUM_LOCATIONS)

    def _relics(self) -> str:
        n = sum(int(sideboard_entry(_c(self.row), self.p, k)) >= 0 for k in range(2 * S.SIDE_CAP))
        return _plural(n, "relic")

    def _relic(self) -> str:
        code = int(sideboard_entry(_c(self.row), self.p, self.i))
        return _relic_name(self.pool, int(_f(self.row, "deck_list")[code // S.MAX_DECK, code % S.MAX_DECK]))

    def _leader(self) -> str:
        return _name(self.row, self.pool, self.p, int(_f(self.row, "leader")[self.p]))

    def _location(self) -> str:
        return _location_line(self.row, self.pool)

    def _recruit_cost(self) -> int:
        return S.RECRUIT_COST

    def _appoint_cost(self) -> int:
        return S.APPOINT_COST

    def _pile(self) -> str:
        return "doom pile" if int(_f(self.row, "pend_src")) == K.OP_EXHUME else "discard pile"

    def _pile_card(self) -> str:
        n = len(self.pool.cards)
        return f"'{self.pool.cards[self.i]['name']}'" if self.i < n else f"card id {self.i} (the pool has {n} cards)"

    def _pile_name(self) -> str:
        return self.pool.name(self.i)

    def _pile_type(self) -> str:
        return TYPES[int(self.pool.tables.cards[self.i, C_TYPE])]

    def _verb(self) -> str:
        return _TAKES.get(int(_f(self.row, "pend_src")), ("take-back", ""))[0]

    def _verb_takes(self) -> str:
        return _TAKES.get(int(_f(self.row, "pend_src")), ("", "a card"))[1]

    def _useless(self) -> str:
        """What each of the card's effects (of the trigger being used) would fail to change."""
        row, pool, p = self.row, self.pool, self.p
        card, ctab, etab = self._card_id(), pool.tables.cards, pool.tables.effects
        target, side = -1, p
        if self.st in (S.ST_SLOT, S.ST_TARGET):  # the pending Cast / ability aimed at the chosen character
            from_card = int(_f(row, "pend_src")) == S.SRC_CARD
            trigger = K.TR_CAST if from_card else K.TR_ACT
            pays = bool(ctab[card, C_COST_DOWN]) or not from_card
            if int(_f(row, "pend_kind")) != S.PK_CASTER:
                side = p if self.st == S.ST_SLOT else self.q
                target = _at_slot(row, side, self.i)
        else:
            trigger = K.TR_ACT if self.field in ("ability", "leader_ability") else K.TR_CAST
            pays = trigger == K.TR_ACT or bool(ctab[card, C_COST_DOWN])
        parts = []
        for e in range(etab.shape[1]):
            if int(etab[card, e, K.E_TRIGGER]) != trigger:
                continue
            op, tg = int(etab[card, e, K.E_OP]), int(etab[card, e, K.E_TARGET])
            who = f"'{_name(row, pool, side, target)}'" if target >= 0 and tg in (K.TG_OWN_ONE, K.TG_OPP_ONE) else None
            if op in _USELESS_OP:
                parts.append(_USELESS_OP[op])
            elif op == K.OP_UP:
                parts.append(f"{who} is not Down" if who else "none of your characters is Down" + (
                    " (the one that pays would only get its payment back)" if pays else ""))
            elif op == K.OP_DOWN:
                parts.append(f"{who} is Down already" if who else "every character it may Down is Down already")
            elif op == K.OP_STRIKE:
                power = int(etab[card, e, K.E_POWER])
                parts.append(f"{who} has DEF {int(def_of(_c(row), pool.tables, side, target))}, more than the "
                             f"strike's power {power}" if who else f"no character it may hit has DEF {power} or less")
        return "; ".join(parts)


def explain_illegal(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Why ``action`` is not legal for ``player`` now, in the game's terms; "" when it is legal.

    The reasons are the codes ``rules.why_row`` records from the branches of the mask kernel that refuse the action
    (``reasons``), put into words with names and counts from the row: nothing here decides legality. The words use
    only what ``player`` can see: their own hand, reserves, drawn characters, piles and leader card, and the public
    board; a sub-decision of the opponent that depends on their hidden hand card is named as the battle step."""
    p, a = int(player), int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"there is no action {a}: action ids run from 0 to {NUM_ACTIONS - 1}"
    row = _c(row)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if mask_row(row, pool.tables, p, mask) and mask[a]:
        return ""
    why = np.zeros((NUM_ACTIONS, MAX_REASONS), dtype=np.int32)
    why_row(row, pool.tables, p, why)
    field, i = action_range(a)
    details = _Details(row, pool, p, field, i)
    reasons = [REASON_TEMPLATES[int(code)].format_map(details) for code in why[a] if code]
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
    is_char = pool.tables.cards[:, C_TYPE] == TYPES.index("character")
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
    # RL-G14: which of the opponent's known cards it set aside is hidden too (the viewer knows them, not which went)
    aside_known = [i for i in _zone(out, "hand_aside", opp) if known[opp, i]]
    if aside_known:
        still_in = "reserves" if _S.get(out, "step") == S.ST_TRIM else "hand"
        groups.append((opp, aside_known + [i for i in _zone(out, still_in, opp) if known[opp, i]]))
    for p, hidden in groups:
        cards = np.array([deck_list[p, i] for i in hidden], dtype=np.int32)
        rng.shuffle(cards)
        for i, c in zip(hidden, cards):
            out[off + p * S.MAX_DECK + i] = c
    normalize_reserves(out, opp)  # RL-P6: the re-dealt reserves keep one copy of each character in view
    if not _S.get(out, "leader_shown")[opp]:
        leaders = np.flatnonzero(pool.tables.cards[:, C_TYPE] == TYPES.index("leader"))
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
