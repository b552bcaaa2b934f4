"""Python-side helpers over a state row: action names, a text board and its ``LEGEND``, ``explain_illegal`` (why an
action is not legal now) and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import textwrap

import numpy as np

from cardenvs.core.render import headline
from cardenvs.core.cards import CardPool
from cardenvs.core.header import H_STATUS, H_TO_ACT, TRUNCATED

from .actions import ACTIONS, NUM_ACTIONS
from .board import energy_of, retreat_cost, unit_hp
from .reasons import CODES, REASONS, reasons_in
from .rules import why_row
from .vocab import C_S0_ENERGY, C_TYPE, TYPE_UNIT, TYPES
from . import state as S


def _f(row: np.ndarray, name: str) -> np.ndarray:
    return S.STATE.get(row, name)


def _card_name(row: np.ndarray, pool: CardPool, p: int, inst: int) -> str:
    if inst < 0:
        return "-"
    return pool.name(int(_f(row, "deck_list")[p, inst]))


def _zone(row: np.ndarray, name: str, count: str, p: int) -> list[int]:
    n = int(_f(row, count)[p])
    return [int(x) for x in _f(row, name)[p, :n]]


def _unit_at(row: np.ndarray, p: int, j: int) -> int:
    if j == S.POS_MAIN:
        return int(_f(row, "main")[p, 0])
    standby = _zone(row, "standby", "standby_count", p)
    return standby[j - 1] if j - 1 < len(standby) else -1


def _where(j: int) -> str:
    return "main" if j == S.POS_MAIN else f"standby {j}"


def action_name(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Human-readable text of ``action`` for ``player`` in the position ``row``."""
    field, i = ACTIONS.locate(int(action))
    p = int(player)
    step = int(_f(row, "step"))
    if field == "pass":
        if step == S.ST_EXTRA_DRAW:
            return "decline the extra draws"
        if step == S.ST_BATTLE:
            return "end the battle phase without a skill"
        return "end the main phase" if step == S.ST_MAIN else "pass"
    if field == "extra_draw":
        left = int(_f(row, "extra_left")[p])
        return f"draw an extra card (opponent redealt; {left} on offer)"
    if field == "hand":
        hand = _zone(row, "hand", "hand_count", p)
        if i >= len(hand):
            return f"play hand card {i} (your hand holds {len(hand)})"
        name = _card_name(row, pool, p, hand[i])
        if step == S.ST_SETUP_PLACE:
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
        if card is None or i >= len(card["skills"]):
            return f"use skill {i} of the Main Unit" + (f" '{card['name']}'" if card else "")
        return f"use skill '{card['skills'][i]['name']}' of '{card['name']}'"
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
    hp = int(unit_hp(row, pool.tables.cards, p, inst))  # printed HP plus the HP of attached Assists
    text = f"{info['name']} ({info['attribute']}, dmg {int(_f(row, 'damage')[p, inst])}/{hp}, E{energy}"
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
    tp = int(_f(row, "turn_player"))
    lines.append(headline("divinecross", row, tp, S.STEP_NAMES[int(_f(row, 'step'))]))
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
        discard = [_card_name(row, pool, p, d) for d in _zone(row, "discard", "discard_count", p)]
        if discard:  # face up, so every viewer sees it card by card (DC-U7); oldest first
            lines.append(textwrap.fill(", ".join(discard), 111, initial_indent="  discard: ",
                                       subsequent_indent=" " * 11, break_on_hyphens=False))
        shown = _f(row, "shown")[p]
        if shown.any():  # DC-S5: both players saw the setup reveals; the cards are back in the deck
            lines.append("  shown:   " + ", ".join(pool.name(c) + (f" x{int(n)}" if n > 1 else "")
                                               for c, n in enumerate(shown) if n > 0))
        if see_private:
            hand = [_card_name(row, pool, p, h) for h in _zone(row, "hand", "hand_count", p)]
            lines.append("  hand:    " + (", ".join(hand) or "-"))
    return "\n".join(lines)


LEGEND = """\
divinecross board legend (every mark the text board prints)
Header: "divinecross  turn N  turn player Pn  step: S  to act: Pn". Turn 0 is setup; turn 1 is the first
  player's first turn (no skill on it, DC-K2). "turn player": whose turn it is; "to act": who decides now (the
  turn player, except in setup and when a player must move a Unit up after a KO).
  Steps: "setup: place main unit" (put a Unit from your hand face down as Main Unit), "setup: extra draw" (draw
  1 extra card per opponent redeal, or decline), "main phase" (play cards, charge, retreat, EX-Power; pass ends
  it), "choose assist host" (pick the Unit the Assist you are playing attaches to), "battle phase" (use 1 skill
  of your Main Unit, or pass). "start of game", "draw phase" and "end phase" run by themselves.
  At the end the header shows [P0 wins] / [P1 wins], [draw], or [truncated] (stopped at the turn or decision
  cap, DC-V3: no winner).
Player line: "P0: deck N  hand N  discard N  KO n/3": cards in the deck, in the hand, in the discard pile, and
  in the KO Zone (a player with 3 cards in their KO Zone loses). Flags in brackets after it:
  [stunned]  the player's Main Unit is Stunned: it cannot use a skill (cleared at the end of its owner's turn,
             or when it retreats);
  [poisoned] the player's Main Unit is Poisoned: 100 damage at the end of its owner's turn;
  [EX used]  the player has used their once-per-game EX-Power.
  main:    the Unit in the Main Area (the one that uses skills and that the opponent's skills hit); "-" = none.
  standby: the Standby Units in slot order, separated by " | ", slot 1 first (3 slots); "-" = none.
  KO zone: the KO'd cards in order (shown once there is one).  hand: your own hand (never the opponent's).
  discard: the discard pile card by card, oldest first (face up, so both players see both piles; shown once
           there is one): played Events and Actions, Energy paid for retreats, a KO'd Unit's attachments.
  shown:   the cards the player's setup reveals showed (a hand without a Unit is shown before it goes back into
           the deck, DC-S5), "xN" = N copies in one reveal: cards known to be in that player's deck list.
A Unit: "Name (attribute, dmg D/HP, En, +Assist, boost +X, guard +X)":
  attribute  none/red/green/blue: a skill deals double damage to a Unit whose attribute is in the user's
             advantage list (DC-A4);
  dmg D/HP   damage on the Unit / its HP (printed HP plus the HP its attached Assists add); damage reaching
             HP KOs it;
  En         n Energy cards attached (skills and retreats need Energy);
  +Assist    Assist cards attached to it (stay until it is KO'd);
  boost +X   its skills deal X more (or less, -X) damage until the end of the turn;
  guard +X   skill damage it takes is reduced by X until its owner's next turn.
  [face down] after your Main Unit: placed in setup and still hidden from the opponent; [face down] in place
  of a Unit: the opponent's Main Unit, still hidden from you.
Action names: positions are "main" and "standby 1..3"; "(hand i)" is card i of your hand, counting from 0.
{ids}"""



def _action_ids() -> str:
    parts = []
    for f in ACTIONS.fields:
        start = ACTIONS.offset(f.name)
        ids = str(start) if f.size == 1 else f"{start}-{start + f.size - 1}"
        parts.append(f"{ids} {_ID_NAMES[f.name]}")
    return textwrap.fill('Action ids (for "why N"): ' + "; ".join(parts) + ".", 111, subsequent_indent="  ")


_ID_NAMES = {
    "pass": "pass (end the phase / decline)", "extra_draw": "extra draw", "hand": "hand card 0-29",
    "charge": "charge main, standby 1-3", "retreat": "retreat to standby 1-3", "ex_power": "EX-Power of main, "
    "standby 1-3", "skill": "skill 0, 1 of the Main Unit", "host": "attach the Assist to main, standby 1-3",
    "promote": "move standby 1-3 up",
}
LEGEND = LEGEND.replace("{ids}", _action_ids())

_WHEN = {
    "pass": "in the Main Phase (end it), the Battle Phase (end it without a skill) and the setup extra-draw offer",
    "extra_draw": "only during setup, when your opponent had to redeal for lack of a Unit (DC-S6)",
    "hand": "in setup (place a Unit face down as your Main Unit, DC-S4) and in your Main Phase (play the card)",
    "charge": "only in your Main Phase (DC-C1)",
    "retreat": "only in your Main Phase (DC-R1)",
    "ex_power": "only in your Main Phase (DC-K4)",
    "skill": "only in your Battle Phase (DC-K1)",
    "host": "only while you choose the Unit an Assist you are playing attaches to (DC-E4)",
    "promote": "only when your Main Unit was KO'd and you must move a Standby Unit up (DC-O5)",
}
_WHAT = {"pass": "passing", "extra_draw": "the extra draw", "hand": "playing a hand card", "charge": "charging",
         "retreat": "retreating", "ex_power": "EX-Power", "skill": "a skill", "host": "attaching an Assist",
         "promote": "moving a Standby Unit up"}
_NO_REASON = REASONS[CODES["unknown"]].template  # the sweep tests check it never shows: every refusal has a reason


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _reason_fields(row: np.ndarray, pool: CardPool, p: int, field: str, i: int) -> dict[str, object]:
    """What the reason templates of ``reasons.REASONS`` name: cards, counts and places, read only from what ``p``
    sees (their own hand and Units, public information). Names that do not apply to ``field``/``i`` are "-"."""
    ctab = pool.tables.cards
    deck_list = _f(row, "deck_list")[p]
    st = int(_f(row, "step"))
    status = int(row[H_STATUS])
    hand = _zone(row, "hand", "hand_count", p)
    card = int(deck_list[hand[i]]) if field == "hand" and i < len(hand) else -1
    kind = TYPES[int(ctab[card, C_TYPE])] if card >= 0 else "card"
    main = _unit_at(row, p, S.POS_MAIN)
    main_card = int(deck_list[main]) if main >= 0 else -1
    pos = i if field in ("charge", "ex_power", "host") else i + 1  # the unit position an action names
    unit = _unit_at(row, p, pos) if field != "skill" else -1
    skills = pool.cards[main_card]["skills"] if main_card >= 0 else []
    step_note = ""
    if st == S.ST_SETUP_PLACE and field == "pass":
        step_note = "; every player must place a Unit as Main Unit (DC-S4)"
    elif st == S.ST_ASSIST_HOST:
        step_note = "; finish playing the Assist first: choose the Unit it attaches to"
    return {
        "truncated": " (truncated at the turn or decision cap)" if status == TRUNCATED else "",
        "to_act": int(row[H_TO_ACT]),
        "step": S.STEP_NAMES[st],
        "step_note": step_note,
        "field": field.replace("_", " "),
        "what": _WHAT[field],
        "when": _WHEN[field],
        "i": i,
        "hand": _plural(len(hand), "card"),
        "card": pool.name(card) if card >= 0 else "-",
        "a_type": f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}",
        "standby_cap": S.STANDBY_CAP,
        "slot": pos,
        "standby": _plural(len(_zone(row, "standby", "standby_count", p)), "Standby Unit"),
        "where": _where(pos),
        "unit": pool.name(int(deck_list[unit])) if unit >= 0 else "-",
        "main": pool.name(main_card) if main_card >= 0 else "-",
        "main_energy": int(energy_of(row, p, main)) if main >= 0 else 0,
        "retreat_cost": int(retreat_cost(row, ctab, p, main)) if main >= 0 else 0,
        "skills": _plural(len(skills), "skill"),
        "skill": skills[i]["name"] if field == "skill" and i < len(skills) else "-",
        "skill_energy": int(ctab[main_card, C_S0_ENERGY + i]) if field == "skill" and i < len(skills) else 0,
    }


def explain_illegal(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Why ``action`` is not legal for ``player`` now, in the game's terms; "" when it is legal.

    The reasons are the ones ``rules.mask_row``'s own branches record (``rules.why_row``: codes of ``reasons.py``);
    this only words them, naming what ``player`` can see: their own hand and Units and public information (the
    opponent's hand and deck are never read)."""
    p, a = int(player), int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"there is no action {a}: action ids run from 0 to {NUM_ACTIONS - 1}"
    why = np.zeros(NUM_ACTIONS, dtype=np.int32)
    why_row(row, pool.tables, p, why)
    if why[a] == 0:
        return ""
    field, i = ACTIONS.locate(a)
    values = _reason_fields(row, pool, p, field, i)
    return "; ".join(r.template.format(**values) for r in reasons_in(int(why[a])))


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
    deck_list = S.STATE.get(out, "deck_list")  # a view into out
    face_up = S.STATE.get(out, "face_up")
    ctab = pool.tables.cards
    off = S.DECK_LIST
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
                a, b = off + p * S.DECK_SIZE + main, off + p * S.DECK_SIZE + pick
                out[a], out[b] = out[b], out[a]
        cards = np.array([deck_list[p, i] for i in hidden], dtype=np.int32)
        rng.shuffle(cards)
        for i, c in zip(hidden, cards):
            out[off + p * S.DECK_SIZE + i] = c
        hand = _zone(out, "hand", "hand_count", p)
        setup = int(_f(out, "step")) in (S.ST_SETUP_PLACE, S.ST_EXTRA_DRAW)
        if p != viewer and int(_f(out, "main")[p, 0]) < 0 and setup \
                and hand and not any(ctab[deck_list[p, h], C_TYPE] == TYPE_UNIT for h in hand):
            units = [i for i in hidden if i not in hand and ctab[deck_list[p, i], C_TYPE] == TYPE_UNIT]
            if units:  # keep a Unit in the opponent's hand: it was checked for one in public
                h = hand[int(rng.integers(len(hand)))]
                u = units[int(rng.integers(len(units)))]
                a, b = off + p * S.DECK_SIZE + h, off + p * S.DECK_SIZE + u
                out[a], out[b] = out[b], out[a]
        n = int(_f(out, "deck_count")[p])
        start = S.DECK + p * S.DECK_SIZE
        out[start:start + n] = rng.permutation(out[start:start + n])
    return out
