"""Python-side helpers over a state row: action names, a text board, and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.cards import CardPool
from cardenvs.core.header import DRAW, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TRUNCATED

from .actions import A_ONTO, A_PASS, A_SKILL, ACTIONS
from .cards import (
    NUM_ACT_COLS,
    NUM_SK_COLS,
    C_ACT_COST,
    C_ACT_DMG,
    C_ACT_OD,
    C_BYPASS,
    C_COND,
    C_COST,
    C_HAS_CALL,
    C_LEAD_OK,
    C_LEVEL,
    C_N_ACTIONS,
    C_N_SKILLS,
    C_NAME_ID,
    C_NEGATE,
    C_OD,
    C_SK_COST,
    C_SK_OD,
    C_TURBO,
    C_TYPE,
    CC_ALLY,
    CC_LOW_HEART,
    LOW_HEART,
    TR_COUNTER,
    TR_STRIKE,
    TYPE_ITEM,
)
from . import state as S

_S = S.STATE


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
    field, i = ACTIONS.locate(int(action))
    p, o = int(player), 1 - int(player)
    step = int(_f(row, "step"))
    hand = _zone(row, "hand", "hand_count", p)
    if field == "pass":
        return {S.ST_CHARGE: "do not charge", S.ST_WINDOW: "pass (no Turbo)", S.ST_MAIN: "end the main phase",
                S.ST_ACTION: "end the action phase", S.ST_CLIMAX: "end the climax phase",
                S.ST_START_OPEN: "no Turbo: go to the main phase", S.ST_END_OPEN: "no Turbo: end the turn",
                S.ST_CHOOSE: "evolve nothing (no eligible pair)"}.get(step, "pass")
    if field == "choose_lead":
        if step != S.ST_SETUP_LEAD:  # after setup, which card a deck instance is may be hidden (deck, heart)
            return f"choose deck card {i} as the Lead (setup only)"
        return f"choose '{_card(row, pool, p, i)}' as the Lead (deck card {i})"
    if field == "hand":
        name = _card(row, pool, p, hand[i]) if i < len(hand) else "?"
        if step == S.ST_CHARGE:
            return f"charge '{name}' (hand {i}) and draw"
        kind = pool.cards[pool.by_name[name]]["type"] if name in pool.by_name else "card"
        verb = {"fighter": "call", "support": "play", "climax": "play climax"}.get(kind, "play")
        return f"{verb} '{name}' (hand {i})"
    if field == "onto":
        h, pos = divmod(i, S.FIELD_CAP)
        name = _card(row, pool, p, hand[h]) if h < len(hand) else "?"
        kind = pool.cards[pool.by_name[name]]["type"] if name in pool.by_name else "card"
        verb = {"fighter": "evolve", "item": "equip"}.get(kind, "put")
        if step == S.ST_CHOOSE:
            verb = "effect: evolve"
        return f"{verb}: '{name}' (hand {h}) onto {_pos_name(pos)} '{_card(row, pool, p, _field_at(row, p, pos))}'"
    if field == "skill":
        pos, k = divmod(i, 2)
        name = _card(row, pool, p, _field_at(row, p, pos))
        skills = pool.cards[pool.by_name[name]]["skills"] if name in pool.by_name else []
        sk = skills[k]["name"] if k < len(skills) else f"skill {k + 1}"
        return f"skill '{sk}' of {_pos_name(pos)} '{name}'"
    if field == "swap" and step == S.ST_CHOOSE:
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
        t = _field_at(row, o, i)
        if t >= 0 and not _f(row, "face_up")[o, t]:  # the opponent's Lead, face down at setup: not named
            return f"target the opponent's {_pos_name(i)} (face down)"
        return f"target the opponent's {_pos_name(i)} '{_card(row, pool, o, t)}'"
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
    head = f"heartbreak  turn {int(row[H_TURN])}  turn player P{tp}  step: {S.STEP_NAMES[step]}"
    if status == LIVE:
        head += f"  to act: P{int(row[H_TO_ACT])}"
    elif status == TRUNCATED:
        head += "  [truncated]"
    else:
        w = int(row[H_WINNER])
        head += "  [draw]" if w == DRAW else f"  [P{w} wins]"
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
        shown = bool(private or lead < 0 or face_up[p, lead])
        lines.append(f"  Lead:    {_describe_fighter(row, pool, p, lead, shown)}")
        backup = _zone(row, "backup", "backup_count", p)
        lines.append("  Back-Up: " + (" | ".join(_describe_fighter(row, pool, p, b, True) for b in backup) or "-"))
        if private:
            lines.append("  hand:    " + (", ".join(_card(row, pool, p, h) for h in _zone(row, "hand", "hand_count", p))
                                          or "-"))
    stack = _f(row, "stack")
    for j in range(int(_f(row, "stack_count"))):
        kind, q, inst, index, target, cancelled = (int(x) for x in stack[j])
        what = S.KIND_NAMES[kind] + ("" if inst < 0 else f" '{_card(row, pool, q, inst)}'")
        if kind == S.K_TRIGGER and index in _KEYWORD_TRIGGERS:
            what += f" {_KEYWORD_TRIGGERS[index]}"
        if target >= 0:
            what += f" -> '{_card(row, pool, 1 - q, target)}'"
        lines.append(f"  stack {j}: P{q} {what}{' (negated)' if cancelled else ''}")
    return "\n".join(lines)


_KEYWORD_TRIGGERS = {TR_STRIKE: "[X Strike] rise", TR_COUNTER: "[Counter]"}  # keyword abilities on the stack


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
    setup = int(_f(out, "step")) == S.ST_SETUP_LEAD
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
                a, b = off + p * S.MAX_DECK + lead, off + p * S.MAX_DECK + pick
                out[a], out[b] = out[b], out[a]
        cards = np.array([deck_list[p, i] for i in hidden], dtype=np.int32)
        rng.shuffle(cards)
        for i, c in zip(hidden, cards):
            out[off + p * S.MAX_DECK + i] = c
        if setup and p == viewer:
            continue  # the unshuffled deck it looks through: order and contents known
        n = int(_f(out, "deck_count")[p])
        start = _S.offset("deck") + p * S.MAX_DECK
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


# ----------------------------------------------------------------------------------------------------------------
# the board legend and why an action is illegal (issue 16: ``cardenvs play``'s ``legend`` and ``why N``)


def _ids(name: str) -> str:
    """'first-last' flat ids of the action range ``name``."""
    return f"{ACTIONS.offset(name)}-{ACTIONS.offset(name) + ACTIONS[name].size - 1}"


LEGEND = """\
heartbreak board, line by line:
  head: 'turn N' (the turn counter), 'turn player P0/P1' (whose turn it is), 'step: NAME' (the pending step, below),
        'to act: P0/P1' (who decides now); at the end '[P0 wins]' / '[P1 wins]', '[draw]' (both lost at once, or
        the turn cap), '[truncated]' (stopped at the decision cap, no winner).
  'P0: deck N  hand N  charge N  discard N  heart N: ...': cards in each zone. deck: draw pile (hidden);
        hand: the count (you see your own hand on the 'hand:' line); charge: charged cards that pay costs
        (Discharge N sends the N oldest to the discard pile); discard: the public discard pile;
        heart: the heart stack, bottom first, top (the next card a break takes) last.
  heart cards: 'NAME (up)' a face-up heart card (public; flipped by Overdrive; a break discards it);
        'face-down' a face-down heart card (hidden from both players, its owner too; a break puts it into the
        owner's hand); 'NAME (down)' the same card in the full (spectator/replay) view only; 'empty': no heart card
        left (the next break loses the game).
  'Lead:' the fighter that attacks and is attacked; 'Back-Up:' up to 3 more fighters, slots 1..3 separated by '|';
        '-' an empty place or zone.
  a fighter: 'NAME (LvN HP N dmg N, standing|rested stock N [ITEM, ...])': level, printed HP, damage on it
        (KO when damage >= HP with buffs, items and the opponent's [Baneful]); 'standing' may act / 'rested' has
        acted or was rested (rises in its owner's start phase); 'stock N' cards under it (evolve bases, items,
        stocked cards), '[ITEM, ...]' the names of its face-up stock cards (face-down stock cards are only counted).
  '[face down]': the opponent's Lead while it is still face down at setup (revealed when the game starts).
  'hand:' your hand cards by slot 0, 1, ... (the 'hand N' action ids count from slot 0).
  'stack N: P0 KIND 'NAME' -> 'TARGET' (negated)': the response stack, bottom (0) first; it resolves top first.
        KIND: 'phase change' (answerable end of a phase), 'card' (a support/climax card played), 'call' (a fighter
        called), 'card play' (an evolve or equip), 'skill', 'action' (a Lead's action; '-> TARGET' the attacked
        fighter), 'trigger' (a triggered ability; '[X Strike] rise' / '[Counter]' for those keyword abilities,
        '-> TARGET' the attacker a Counter hits); '(negated)': a negate Turbo answered it, it does nothing.
  steps: 'choose Lead' (setup: pick a Lead-capable deck card), 'order triggers' (pick which of your waiting
        triggered abilities resolves next), 'charge step' (charge one hand card and draw, or not), 'refill Lead'
        (move a Back-Up into your empty Lead), 'start phase (Turbo)' (Turbos before the main phase), 'main phase'
        (call, play, evolve, equip, skills, one swap), 'action phase' (your standing Lead acts, Turbos),
        'attack target' (a [Bypass] attacker picks its target), 'climax phase' (one Climax card, Turbos),
        'end phase (Turbo)' (Turbos before the turn ends), 'response window' (answer the top of the stack with a
        Turbo, or pass), 'effect choice' (an effect asks which Back-Up to swap in, or what to evolve);
        'start phase', 'draw step', 'rise', 'action phase start', 'end phase', 'end of turn' pass by themselves.
  card keywords (card text, '? NAME'): [Armor X] lowers attack damage taken, [Ward X] lowers effect damage taken,
        [Counter X] damages the attacker, [Baneful X] lowers the opposing Lead's HP, [Attack X] (item) more attack
        damage, [Dual Strike]/[Tri Strike] attacks 2/3 times, [Bypass] may attack a Back-Up, [Turbo] may be played
        at open moments of your turn and in response windows; Discharge N: pay N charged cards; Overdrive: flip
        your top-most face-down heart card face up (needs one).
""" + f"""\
  action ids: pass {A_PASS}; choose_lead {_ids('choose_lead')} (deck card i); hand {_ids('hand')} (hand slot i); \
onto {_ids('onto')} (hand slot i onto
        field place f: {A_ONTO} + {S.FIELD_CAP}*i + f, f 0 = Lead, 1..3 = Back-Up); skill {_ids('skill')} \
({A_SKILL} + {S.MAX_SKILLS}*f + k); swap {_ids('swap')}
        (Back-Up 1..3); act {_ids('act')} (the Lead's action 1/2); target {_ids('target')} (the opponent's Lead, \
Back-Up 1..3);
        order {_ids('order')} (waiting ability k); refill {_ids('refill')} (Back-Up 1..3). 'why N' says why N is \
not legal now."""

NO_REASON = "not legal in this step (no finer reason known)"
_PLACES = "Lead, Back-Up 1, Back-Up 2, Back-Up 3"
#: where each kind of action is allowed (said when the pending step does not take it)
_ALLOWED = {
    "pass": "in the charge step, main, action and climax phases, the Turbo moments closing your start and end "
            "phases, response windows, and an evolve choice with nothing eligible",
    "choose_lead": "only at setup, in the choose Lead step",
    "hand": "in your charge step (charge any card), main phase (call a fighter, play a support card), at the open "
            "moments of your turn (Turbo supports; a Climax card in your climax phase) and in response windows "
            "(Turbo supports)",
    "onto": "in your main phase (evolve a fighter, equip an item), or when an evolve effect asks what to evolve",
    "skill": "in your main phase",
    "swap": "in your main phase (once per turn), or when a swap effect asks which Back-Up to swap in",
    "act": "in your action phase, by your standing Lead",
    "target": "in the attack target step, after your [Bypass] Lead declared an attack",
    "order": "in the order triggers step, while several of your triggered abilities wait",
    "refill": "in your start phase while your Lead is empty (the refill Lead step)",
}
_KIND_WORDS = {"pass": "passing", "choose_lead": "choosing a Lead", "hand": "a hand card action",
               "onto": "evolving or equipping", "skill": "a skill", "swap": "a swap", "act": "a Lead action",
               "target": "choosing an attack target", "order": "ordering triggered abilities",
               "refill": "refilling the Lead"}


def legal_mask(row: np.ndarray, pool: CardPool, player: int) -> np.ndarray:
    """``player``'s legal actions in ``row`` (the game's own mask kernel, so ``why`` and the mask agree)."""
    from .actions import NUM_ACTIONS
    from .rules import batch_mask

    out = np.zeros((1, NUM_ACTIONS), dtype=np.int8)
    batch_mask(np.ascontiguousarray(row, dtype=np.int32)[None, :], pool.tables, np.array([player], np.int32), out)
    return out[0]


def _cost_reasons(row: np.ndarray, p: int, cost: int, od: int, what: str) -> list[str]:
    """``board.can_pay``: Discharge ``cost`` from the charge zone, and Overdrive needs a face-down heart card."""
    out = []
    have = int(_f(row, "charge_count")[p])
    if have < cost:
        out.append(f"{what} costs Discharge {cost} and you have {have} charged card{'s' * (have != 1)}")
    if od:
        face_up = _f(row, "face_up")
        if not any(face_up[p, h] == 0 for h in _zone(row, "heart", "heart_count", p)):
            out.append(f"{what}'s cost includes Overdrive (flip a face-down heart card face up) and your heart has "
                       f"no face-down card left")
    return out


def _hand_card(row: np.ndarray, pool: CardPool, p: int, i: int) -> tuple[int, dict] | None:
    hand = _zone(row, "hand", "hand_count", p)
    if i >= len(hand):
        return None
    card = int(_f(row, "deck_list")[p, hand[i]])
    return card, pool.cards[card]


def _no_hand_card(row: np.ndarray, p: int, i: int) -> str:
    n = int(_f(row, "hand_count")[p])
    return f"hand slot {i} is empty: your hand holds {n} card{'s' * (n != 1)} (slots 0..{n - 1})" if n else \
        f"hand slot {i} is empty: your hand is empty"


def _field_count(row: np.ndarray, p: int) -> int:
    return (1 if int(_f(row, "lead")[p, 0]) >= 0 else 0) + int(_f(row, "backup_count")[p])


def _item_of(row: np.ndarray, ctab: np.ndarray, p: int, inst: int) -> int:
    """``board.item_of``: the face-up item in ``inst``'s stock, or -1."""
    host, face_up, deck_list = _f(row, "stock_host"), _f(row, "face_up"), _f(row, "deck_list")
    for s in _zone(row, "stock", "stock_count", p):
        if host[p, s] == inst and face_up[p, s] and ctab[deck_list[p, s], C_TYPE] == TYPE_ITEM:
            return s
    return -1


def _keyword(row: np.ndarray, ctab: np.ndarray, p: int, inst: int, col: int, mod: str | None) -> int:
    """``board.keyword``: printed (unless silenced) + the face-up item's + until-end-of-turn buffs."""
    v = int(_f(row, mod)[p, inst]) if mod else 0
    if not _f(row, "silenced")[p, inst]:
        v += int(ctab[int(_f(row, "deck_list")[p, inst]), col])
    it = _item_of(row, ctab, p, inst)
    if it >= 0:
        v += int(ctab[int(_f(row, "deck_list")[p, it]), col])
    return v


def _evolve_reasons(row: np.ndarray, pool: CardPool, p: int, card: int, base: int, where: str) -> list[str]:
    """``effects.can_evolve_with``: same fighter name, exactly one level higher, room in the stock."""
    ctab = pool.tables[0]
    info = pool.cards[card]
    base_card = int(_f(row, "deck_list")[p, base])
    binfo = pool.cards[base_card]
    out = []
    if ctab[card, C_NAME_ID] != ctab[base_card, C_NAME_ID]:
        out.append(f"'{info['name']}' does not evolve from {where} '{binfo['name']}': an evolution needs the same "
                   f"fighter name (HB-I1)")
    elif ctab[card, C_LEVEL] != ctab[base_card, C_LEVEL] + 1:
        out.append(f"'{info['name']}' is Lv{info['level']} and {where} '{binfo['name']}' is Lv{binfo['level']}: an "
                   f"evolution is exactly one level higher (HB-I2)")
    if int(_f(row, "stock_count")[p]) >= S.STOCK_CAP:
        out.append("your stock cards are at the engine's limit")
    return out


def _hand_reasons(row: np.ndarray, pool: CardPool, p: int, i: int, st: int) -> list[str]:
    """A hand card in the main phase, the open moments of the own turn or a response window (``rules.call_ok``,
    ``rules.support_ok`` and the climax test of ``rules.mask_row``)."""
    got = _hand_card(row, pool, p, i)
    if got is None:
        return [_no_hand_card(row, p, i)]
    card, info = got
    ctab = pool.tables[0]
    name, kind = info["name"], info["type"]
    step = S.STEP_NAMES[st]
    main, window = st == S.ST_MAIN, st == S.ST_WINDOW
    if kind == "fighter":
        if not main:
            return [f"'{name}' is a fighter: fighters are called only in your main phase (it is the {step} now)"]
        out = []
        if _field_count(row, p) >= S.FIELD_CAP:
            out.append("your field is full: a Lead and 3 Back-Up fighters (HB-F4)")
        out += _cost_reasons(row, p, int(ctab[card, C_COST]), 0, f"calling '{name}'")
        cond = int(ctab[card, C_COND])
        if cond == CC_ALLY and _field_count(row, p) == 0:
            out.append(f"'{name}' may be called only while you have another fighter on the field (its condition)")
        if cond == CC_LOW_HEART and int(_f(row, "heart_count")[p]) > LOW_HEART:
            out.append(f"'{name}' may be called only while your heart holds {LOW_HEART} cards or fewer (yours holds "
                       f"{int(_f(row, 'heart_count')[p])})")
        return out
    if kind == "item":
        return [f"'{name}' is an item: it is equipped onto a fighter with an 'onto' action (equip), in your main "
                f"phase"]
    if kind == "climax":
        if st != S.ST_CLIMAX:
            return [f"'{name}' is a Climax card: it is played only in your climax phase (it is the {step} now)"]
        out = []
        if int(_f(row, "climax_used")):
            out.append("you already played a Climax card this turn (once per turn, HB-X3)")
        return out + _cost_reasons(row, p, int(ctab[card, C_COST]), int(ctab[card, C_OD]), f"'{name}'")
    # a support card
    if not ctab[card, C_TURBO]:
        if not main:
            return [f"'{name}' is a support card without [Turbo]: it is played only in your main phase (it is the "
                    f"{step} now)"]
        return _cost_reasons(row, p, int(ctab[card, C_COST]), int(ctab[card, C_OD]), f"'{name}'")
    out = []
    if ctab[card, C_NEGATE]:
        if not window:
            out.append(f"'{name}' negates: it is played only in a response window, as an answer to something it can "
                       f"negate (it is the {step} now)")
        elif int(_f(row, "stack_count")) >= S.STACK_CAP:
            out.append("the response stack is full")
        else:
            why = _not_negatable(row, pool)
            if why:
                out.append(f"'{name}' negates, and {why}")
    return out + _cost_reasons(row, p, int(ctab[card, C_COST]), int(ctab[card, C_OD]), f"'{name}'")


def _not_negatable(row: np.ndarray, pool: CardPool) -> str:
    """``rules.negatable_top``: why the top of the stack is nothing a negation changes ("" when it is)."""
    n = int(_f(row, "stack_count"))
    if n == 0:
        return "the stack is empty"
    kind, q, inst, _index, _target, cancelled = (int(x) for x in _f(row, "stack")[n - 1])
    if cancelled:
        return "the top of the stack is already negated"
    if kind == S.K_PHASE:
        return "the top of the stack is a phase change, which a negation does not change"
    if kind == S.K_PLAYED:
        return "the top of the stack is an evolve or equip: the card is already on the field"
    if kind == S.K_CALL and not pool.tables[0][int(_f(row, "deck_list")[q, inst]), C_HAS_CALL]:
        return f"the top of the stack is the call of '{_card(row, pool, q, inst)}', which has no call ability"
    return ""


def _onto_reasons(row: np.ndarray, pool: CardPool, p: int, i: int, pos: int, by_effect: bool) -> list[str]:
    """``rules.onto_ok`` (main phase) or the evolve choice of an effect (``effects.can_evolve_with``, no cost)."""
    got = _hand_card(row, pool, p, i)
    if got is None:
        return [_no_hand_card(row, p, i)]
    card, info = got
    ctab = pool.tables[0]
    base = _field_at(row, p, pos)
    where = "your Lead" if pos == 0 else f"your Back-Up {pos}"
    if base < 0:
        return [f"{where} is empty: nothing to put '{info['name']}' onto"]
    name, kind = info["name"], info["type"]
    if by_effect:
        if kind != "fighter":
            return [f"'{name}' is not a fighter: the effect evolves a fighter with a fighter card from your hand"]
        return _evolve_reasons(row, pool, p, card, base, where)
    if kind == "fighter":
        out = []
        if int(_f(row, "since_turn")[p, base]) >= int(row[H_TURN]):
            out.append(f"{where} '{_card(row, pool, p, base)}' entered the field this turn: a fighter evolves only "
                       f"from the turn after it entered (HB-I4)")
        out += _evolve_reasons(row, pool, p, card, base, where)
        return out + _cost_reasons(row, p, int(ctab[card, C_COST]), 0, f"evolving into '{name}'")
    if kind == "item":
        out = []
        if _item_of(row, ctab, p, base) >= 0:
            out.append(f"{where} '{_card(row, pool, p, base)}' already has an item (one item per fighter, HB-I13)")
        if int(_f(row, "stock_count")[p]) >= S.STOCK_CAP:
            out.append("your stock cards are at the engine's limit")
        return out + _cost_reasons(row, p, int(ctab[card, C_COST]), int(ctab[card, C_OD]), f"equipping '{name}'")
    return [f"'{name}' is a {kind} card: only a fighter (evolve) or an item (equip) goes onto a fighter"]


def _skill_reasons(row: np.ndarray, pool: CardPool, p: int, pos: int, k: int) -> list[str]:
    """``rules.skill_ok``: a fighter there, a skill k, not silenced, not used this turn, its cost payable."""
    inst = _field_at(row, p, pos)
    where = "your Lead" if pos == 0 else f"your Back-Up {pos}"
    if inst < 0:
        return [f"{where} is empty: no skill to use"]
    ctab = pool.tables[0]
    card = int(_f(row, "deck_list")[p, inst])
    info = pool.cards[card]
    n = int(ctab[card, C_N_SKILLS])
    if k >= n:
        return [f"{where} '{info['name']}' has " + (f"only {n} skill" if n else "no skills") + ("" if n != 1 else "")]
    sk = info["skills"][k]["name"]
    out = []
    if _f(row, "silenced")[p, inst]:
        out.append(f"{where} '{info['name']}' is silenced until the end of the turn: its skills are inactive (HB-L4)")
    if int(_f(row, "skills_used")[p, inst]) & (1 << k):
        out.append(f"'{sk}' was already used this turn (once per turn per skill, HB-L2)")
    col = NUM_SK_COLS * k
    return out + _cost_reasons(row, p, int(ctab[card, C_SK_COST + col]), int(ctab[card, C_SK_OD + col]),
                               f"the skill '{sk}'")


def _act_reasons(row: np.ndarray, pool: CardPool, p: int, k: int) -> list[str]:
    """``rules.act_ok``: the standing Lead, an action k, its [Act Cost] payable, and a target for an attack."""
    lead = int(_f(row, "lead")[p, 0])
    if lead < 0:
        return ["your Lead is empty: only the Lead acts"]
    ctab = pool.tables[0]
    card = int(_f(row, "deck_list")[p, lead])
    info = pool.cards[card]
    n = int(ctab[card, C_N_ACTIONS])
    if k >= n:
        return [f"your Lead '{info['name']}' has only {n} action{'s' * (n != 1)}"]
    act = info["actions"][k]["name"]
    out = []
    if _f(row, "rested")[p, lead]:
        out.append(f"your Lead '{info['name']}' is rested (it has acted, or was rested): a rested Lead cannot act "
                   f"until it rises in your next start phase (HB-A5)")
    col = NUM_ACT_COLS * k
    out += _cost_reasons(row, p, int(ctab[card, C_ACT_COST + col]), int(ctab[card, C_ACT_OD + col]), f"'{act}'")
    if ctab[card, C_ACT_DMG + col]:
        o = 1 - p
        bypass = _keyword(row, ctab, p, lead, C_BYPASS, "mod_bypass") > 0
        if (_field_count(row, o) if bypass else int(_f(row, "lead")[o, 0]) >= 0) == 0:
            out.append(f"'{act}' is an attack and the opponent has no fighter it may target" if bypass else
                       f"'{act}' is an attack and the opponent has no Lead to attack (without [Bypass] only the "
                       f"Lead is a target, HB-B4)")
    return out


def _wrong_step(field: str, st: int, row: np.ndarray) -> str:
    step = S.STEP_NAMES[st]
    extra = ""
    if st == S.ST_WINDOW:
        extra = " (in a response window you may only play a Turbo support card or pass)"
    elif st == S.ST_CHOOSE:
        extra = (" (an effect asks you which standing Back-Up to swap into the Lead)" if int(_f(row, "choice_kind"))
                 == S.CH_SWAP else " (an effect asks you what to evolve: a hand card onto a fighter, or pass if "
                                 "nothing is eligible)")
    return f"{_KIND_WORDS[field]} is not possible in the {step} step{extra}; it is allowed {_ALLOWED[field]}"


def explain_illegal(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Why ``action`` is not legal for ``player`` in ``row``, in heartbreak's terms; "" if it is legal.

    The verdict comes from the game's mask kernel (``rules.mask_row``), the reasons from the same predicates
    (``call_ok``, ``support_ok``, ``onto_ok``, ``skill_ok``, ``act_ok``, ``can_pay``, ``can_evolve_with``,
    ``negatable_top``) read in Python. Only what ``player`` can see is read: their own hand, deck list at setup,
    charge count, field and heart flags, and public zones (the stack, the opponent's face-up field)."""
    row = np.ascontiguousarray(row, dtype=np.int32)
    from .actions import NUM_ACTIONS

    p, a = int(player), int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"there is no action {a}: action ids run from 0 to {NUM_ACTIONS - 1}"
    if p not in (0, 1):
        return f"there is no player {p}: the players are 0 and 1"
    if legal_mask(row, pool, p)[a]:
        return ""
    status = int(row[H_STATUS])
    if status != LIVE:
        return "the game is over" + (" (truncated at the decision cap)" if status == TRUNCATED else "")
    if int(row[H_TO_ACT]) != p:
        return (f"it is not your decision: P{int(row[H_TO_ACT])} decides now (step: "
                f"{S.STEP_NAMES[int(_f(row, 'step'))]})")
    field, i = ACTIONS.locate(a)
    st = int(_f(row, "step"))
    reasons: list[str] = []
    allowed_here = {
        S.ST_SETUP_LEAD: {"choose_lead"}, S.ST_TRIGGERS: {"order"}, S.ST_CHARGE: {"pass", "hand"},
        S.ST_REFILL: {"refill"},
        S.ST_MAIN: {"pass", "hand", "onto", "skill", "swap"}, S.ST_ACTION: {"pass", "act", "hand"},
        S.ST_CLIMAX: {"pass", "hand"}, S.ST_START_OPEN: {"pass", "hand"}, S.ST_END_OPEN: {"pass", "hand"},
        S.ST_TARGET: {"target"}, S.ST_WINDOW: {"pass", "hand"},
        S.ST_CHOOSE: {"swap"} if int(_f(row, "choice_kind")) == S.CH_SWAP else {"onto", "pass"},
    }.get(st, set())
    if field not in allowed_here:
        return _wrong_step(field, st, row)
    if st == S.ST_SETUP_LEAD:
        reasons = _lead_reasons(row, pool, p, i)
    elif st == S.ST_TRIGGERS:
        n = int(_f(row, "trig_count"))
        if i >= n:
            reasons = [f"no triggered ability waits in place {i}: {n} wait (places 0..{n - 1})"]
        else:
            q, inst = (int(x) for x in _f(row, "trig")[i])
            if q != p:
                reasons = [f"ability {i} is P{q}'s ('{_card(row, pool, q, inst)}'): you order only your own, and the "
                           f"turn player's abilities go first (HB-L5/L6)"]
    elif st == S.ST_CHARGE:
        reasons = [_no_hand_card(row, p, i)]
    elif st == S.ST_REFILL:
        n = int(_f(row, "backup_count")[p])
        reasons = [f"you have no Back-Up {i + 1}: {n} Back-Up fighter{'s' * (n != 1)}"]
    elif st == S.ST_TARGET:
        reasons = [f"the opponent has no fighter in the {_pos_name(i)} place"]
    elif st == S.ST_CHOOSE and field == "swap":
        n = int(_f(row, "backup_count")[p])
        if i >= n:
            reasons = [f"you have no Back-Up {i + 1}: {n} Back-Up fighter{'s' * (n != 1)}"]
        elif _f(row, "rested")[p, _field_at(row, p, i + 1)]:
            reasons = [f"Back-Up {i + 1} '{_card(row, pool, p, _field_at(row, p, i + 1))}' is rested: the effect "
                       f"swaps in a standing Back-Up"]
    elif st == S.ST_CHOOSE and field == "pass":
        reasons = ["an eligible evolve exists and the effect must use it: pass only says that nothing is eligible"]
    elif st == S.ST_CHOOSE:
        h, pos = divmod(i, S.FIELD_CAP)
        reasons = _onto_reasons(row, pool, p, h, pos, by_effect=True)
    elif field == "hand":
        reasons = _hand_reasons(row, pool, p, i, st)
    elif field == "onto":
        h, pos = divmod(i, S.FIELD_CAP)
        reasons = _onto_reasons(row, pool, p, h, pos, by_effect=False)
    elif field == "skill":
        reasons = _skill_reasons(row, pool, p, *divmod(i, 2))
    elif field == "swap":
        if int(_f(row, "swap_used")):
            reasons.append("you already swapped this turn (once per turn, HB-M4)")
        if int(_f(row, "lead")[p, 0]) < 0:
            reasons.append("your Lead is empty: there is nothing to swap")
        n = int(_f(row, "backup_count")[p])
        if i >= n:
            reasons.append(f"you have no Back-Up {i + 1}: {n} Back-Up fighter{'s' * (n != 1)}")
    elif field == "act":
        reasons = _act_reasons(row, pool, p, i)
    return "; ".join(reasons) if reasons else NO_REASON


def _lead_reasons(row: np.ndarray, pool: CardPool, p: int, i: int) -> list[str]:
    """The setup mask: a Lead-capable card of the deck, one action per distinct card (the first copy in the list)."""
    card = int(_f(row, "deck_list")[p, i])
    deck = _zone(row, "deck", "deck_count", p)
    if card < 0 or i not in deck:
        last = int((_f(row, "deck_list")[p] >= 0).sum()) - 1
        return [f"your deck has no card {i}: deck cards are numbered 0..{last}"]
    info = pool.cards[card]
    if not pool.tables[0][card, C_LEAD_OK]:
        return [f"'{info['name']}' cannot be the Lead: a Lead is a fighter with no call cost and no call condition "
                f"(HB-S1)"]
    for j in deck:
        if int(_f(row, "deck_list")[p, j]) == card:
            return [f"deck card {i} is another copy of '{info['name']}': choose it as deck card {j} (copies are "
                    f"interchangeable, so there is one action per distinct card)"]
    return []
