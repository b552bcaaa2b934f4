"""Python-side helpers over a state row: action names, a text board, and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.render import headline
from cardenvs.core.cards import CardPool
from cardenvs.core.header import H_STATUS, H_TO_ACT, TRUNCATED

from .actions import A_ONTO, A_PASS, A_SKILL, ACTIONS, NUM_ACTIONS
from .reasons import REASONS
from .rules import why_row
from .tables import (
    C_ACT_COST,
    C_COST,
    C_LEAD_OK,
    C_SK_COST,
    LOW_HEART,
    NUM_ACT_COLS,
    NUM_SK_COLS,
    TR_COUNTER,
    TR_STRIKE,
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
    tp = int(_f(row, "turn_player"))
    step = int(_f(row, "step"))
    lines.append(headline("heartbreak", row, tp, S.STEP_NAMES[step]))
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
    ctab = pool.tables.cards
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

NO_REASON = REASONS["unknown"]
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


def why_codes(row: np.ndarray, pool: CardPool, player: int) -> np.ndarray:
    """For every action, the set of reason bits (``1 << code``, ``reasons.py``) the mask kernel recorded when it
    refused the action for ``player`` in ``row``; 0 for a legal action (``rules.why_row``)."""
    why = np.zeros(NUM_ACTIONS, dtype=np.int64)
    why_row(np.ascontiguousarray(row, dtype=np.int32), pool.tables, int(player), why)
    return why


def reason_names(bits: int) -> list[str]:
    """The names of the reasons in a ``why_codes`` entry, in ``REASONS`` order."""
    return [name for code, name in enumerate(REASONS) if int(bits) >> code & 1]


class _Words(dict):
    """The values a message template names; one it lacks reads '?' (a template never fails to print)."""

    def __missing__(self, key: str) -> str:
        return "?"


def _plural(n: int) -> str:
    return "s" * (n != 1)


def _words(row: np.ndarray, pool: CardPool, p: int, a: int) -> _Words:
    """What the templates of ``reasons.REASONS`` name for action ``a`` of ``p``: the step, the cards and fighters
    the action names, their costs and the counts beside them. Only what ``p`` sees is read (their own hand, field,
    charge count and heart flags, their deck list while choosing a Lead, public zones); nothing here decides whether
    the action is legal (the mask kernel did, and said why)."""
    ctab = pool.tables.cards
    st = int(_f(row, "step"))
    field, i = ACTIONS.locate(a)
    status = int(row[H_STATUS])
    w = _Words(step=S.STEP_NAMES[st], i=i, to_act=int(row[H_TO_ACT]), kind_words=_KIND_WORDS[field],
               allowed=_ALLOWED.get(field, ""),
               truncated=" (truncated at the decision cap)" if status == TRUNCATED else "")
    if st == S.ST_WINDOW:
        w["step_extra"] = " (in a response window you may only play a Turbo support card or pass)"
    elif st == S.ST_CHOOSE:
        w["step_extra"] = (" (an effect asks you which standing Back-Up to swap into the Lead)"
                           if int(_f(row, "choice_kind")) == S.CH_SWAP else
                           " (an effect asks you what to evolve: a hand card onto a fighter, or pass if nothing is "
                           "eligible)")
    else:
        w["step_extra"] = ""
    charge = int(_f(row, "charge_count")[p])
    w.update(charge=charge, charge_s=_plural(charge), low_heart=LOW_HEART, heart=int(_f(row, "heart_count")[p]))
    hand = _zone(row, "hand", "hand_count", p)
    n_backup = int(_f(row, "backup_count")[p])
    w.update(backups=n_backup, backups_s=_plural(n_backup))

    def hand_card(h: int) -> int:
        """The card in hand slot ``h`` (-1 none), with its name, type and the hand's size in the words."""
        n = len(hand)
        w["hand_slot"] = h
        w["hand_holds"] = f"your hand holds {n} card{_plural(n)} (slots 0..{n - 1})" if n else "your hand is empty"
        if h >= n:
            return -1
        card = int(_f(row, "deck_list")[p, hand[h]])
        w.update(name=pool.cards[card]["name"], kind=pool.cards[card]["type"], level=pool.cards[card]["level"])
        return card

    def cost(what: str, col: int, card: int) -> None:
        w.update(what=what, cost=int(ctab[card, col]))

    def fighter_at(pos: int) -> int:
        """The own fighter at field place ``pos`` (-1 none), with its place and name in the words."""
        w["where"] = "your Lead" if pos == 0 else f"your Back-Up {pos}"
        inst = _field_at(row, p, pos)
        if inst >= 0:
            w["fighter"] = w["base"] = _card(row, pool, p, inst)
            w["base_level"] = pool.cards[int(_f(row, "deck_list")[p, inst])]["level"]
        return inst

    if field == "choose_lead":
        deck_list = _f(row, "deck_list")[p]
        w["last_deck_card"] = int((deck_list >= 0).sum()) - 1
        card = int(deck_list[i])
        if card >= 0:
            w["name"] = pool.cards[card]["name"]
            copies = [j for j in _zone(row, "deck", "deck_count", p) if int(deck_list[j]) == card]
            w["first_copy"] = copies[0] if copies else "?"
    elif field == "order":
        n = int(_f(row, "trig_count"))
        w.update(trig_count=n, last_trig=n - 1)
        if i < n:
            q, inst = (int(x) for x in _f(row, "trig")[i])
            w.update(trig_owner=q, trig_name=_card(row, pool, q, inst))
    elif field == "hand":
        card = hand_card(i)
        if card >= 0:
            kind = pool.cards[card]["type"]
            cost(f"calling '{w['name']}'" if kind == "fighter" else f"'{w['name']}'", C_COST, card)
            n = int(_f(row, "stack_count"))
            if n:
                _kind, q, inst, _index, _target, _cancelled = (int(x) for x in _f(row, "stack")[n - 1])
                w["top_name"] = _card(row, pool, q, inst)
    elif field == "onto":
        h, pos = divmod(i, S.FIELD_CAP)
        card = hand_card(h)
        fighter_at(pos)
        if card >= 0:
            verb = "equipping" if pool.cards[card]["type"] == "item" else "evolving into"
            cost(f"{verb} '{w['name']}'", C_COST, card)
    elif field == "skill":
        pos, k = divmod(i, S.MAX_SKILLS)
        inst = fighter_at(pos)
        if inst >= 0:
            card = int(_f(row, "deck_list")[p, inst])
            skills = pool.cards[card]["skills"]
            w["skills_words"] = f"only {len(skills)} skill" if skills else "no skills"
            if k < len(skills):
                w["skill"] = skills[k]["name"]
                cost(f"the skill '{skills[k]['name']}'", C_SK_COST + NUM_SK_COLS * k, card)
    elif field in ("swap", "refill"):
        w["backup_slot"] = i + 1
        fighter_at(i + 1)
    elif field == "act":
        lead = fighter_at(0)
        if lead >= 0:
            card = int(_f(row, "deck_list")[p, lead])
            acts = pool.cards[card]["actions"]
            w.update(actions=len(acts), actions_s=_plural(len(acts)))
            if i < len(acts):
                w["act"] = acts[i]["name"]
                cost(f"'{acts[i]['name']}'", C_ACT_COST + NUM_ACT_COLS * i, card)
    elif field == "target":
        w["place"] = _pos_name(i)
    return w


def explain_illegal(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Why ``action`` is not legal for ``player`` in ``row``, in heartbreak's terms; "" if it is legal.

    The reasons are the ones the mask kernel itself recorded while refusing the action (``rules.why_row``: the
    branch that clears an action records its reason code); this function only puts them into words
    (``reasons.REASONS`` with the names and counts of ``_words``)."""
    p, a = int(player), int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"there is no action {a}: action ids run from 0 to {NUM_ACTIONS - 1}"
    if p not in (0, 1):
        return f"there is no player {p}: the players are 0 and 1"
    row = np.ascontiguousarray(row, dtype=np.int32)
    bits = int(why_codes(row, pool, p)[a])
    if bits == 0:
        return ""
    words = _words(row, pool, p, a)
    return "; ".join(REASONS[name].format_map(words) for name in reason_names(bits))
