"""Python-side helpers over a state row: action names, a text board, and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.render import headline
from cardenvs.core.cards import CardPool
from cardenvs.core.header import H_TO_ACT

from . import reasons as W
from . import state as S
from .actions import ACTIONS, NUM_ACTIONS
from .effects import effect_status
from .rules import why_row
from .tables import (
    C_AP, C_EVENT_EFFECT, C_MAIN_OK, C_TURN_COST, C_TYPE, C_USE_EFFECT, CONDITIONS, E_COND, E_LEVEL, E_OP, E_PHASE,
    E_SKILL, E_TARGET, E_TRIGGER, E_TURN, MAX_EFFECTS, OP_NAMES, PH_ANY, PHASES, TARGETS, TG_OWN_ONE, TR_EVENT, TR_USE,
    TRIGGERS, TU_ANY, TU_OWN, TYPE_EVENT,
)


def _f(row: np.ndarray, name: str) -> np.ndarray:
    return S.STATE.get(row, name)


def _card_name(row: np.ndarray, pool: CardPool, p: int, inst: int) -> str:
    if inst < 0:
        return "-"
    return pool.name(int(_f(row, "deck_list")[p, inst]))


def _entry(row: np.ndarray, name: str, count: str, p: int, i: int) -> int:
    """Instance in slot ``i`` of player ``p``'s zone ``name``, -1 when the slot is empty."""
    zone = _zone(row, name, count, p)
    return zone[i] if 0 <= i < len(zone) else -1


def _zone(row: np.ndarray, name: str, count: str, p: int) -> list[int]:
    n = int(_f(row, count)[p]) if count else 1
    return [int(x) for x in _f(row, name)[p, :n]]


def action_name(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Human-readable text of ``action`` for ``player`` in the position ``row``."""
    field, i = ACTIONS.locate(int(action))
    p, o = int(player), 1 - int(player)
    step = int(_f(row, "step"))
    if field == "pass":
        return {
            S.ST_MULLIGAN: "keep this hand (mulligan done)", S.ST_ATTACK: "end the battle phase",
            S.ST_PARTNER: "no combi partner", S.ST_COVER: "no cover", S.ST_BURST: "decline the Level Burst",
            S.ST_LEVEL_UP: "do not level up",
        }.get(step, "pass (nothing more in this window)")
    if field in ("go_first", "go_second"):
        return field.replace("_", " ")
    if field == "burst":
        return "Level Burst (reveal a face-down level card)"
    if field == "burst_known":
        inst = _entry(row, "level", "level_count", p, i)
        return f"Level Burst revealing level card {i} ('{_card_name(row, pool, p, inst)}', once in hand)"
    if field == "hand":
        hand = _zone(row, "hand", "hand_count", p)
        name = _card_name(row, pool, p, hand[i]) if i < len(hand) else "?"
        if step == S.ST_MULLIGAN:
            return f"mulligan '{name}' to the bottom (hand {i})"
        if step == S.ST_END:
            return f"discard '{name}' (hand {i})"
        kind = pool.cards[pool.by_name[name]]["type"] if name in pool.by_name else "card"
        return f"play {'support' if kind == 'character' else 'event'} '{name}' (hand {i})"
    if field == "skill":
        inst = int(_f(row, "main")[p, 0]) if i == 0 else _entry(row, "support", "support_count", p, i - 1)
        return f"use skill of '{_card_name(row, pool, p, inst)}' ({'main' if i == 0 else f'support {i}'})"
    if field == "attack":
        inst = int(_f(row, "main")[p, 0]) if i == 0 else _entry(row, "support", "support_count", p, i - 1)
        return f"attack with {'main' if i == 0 else f'support {i}'} '{_card_name(row, pool, p, inst)}'"
    if field == "partner":
        inst = _entry(row, "support", "support_count", p, i)
        return f"combi with support {i + 1} '{_card_name(row, pool, p, inst)}'"
    if field == "target":
        inst = int(_f(row, "main")[o, 0]) if i == 0 else _entry(row, "support", "support_count", o, i - 1)
        return f"-> opponent {'main' if i == 0 else f'support {i}'} '{_card_name(row, pool, o, inst)}'"
    if field == "cover":
        inst = _entry(row, "support", "support_count", p, i)
        return f"cover with support {i + 1} '{_card_name(row, pool, p, inst)}'"
    if field == "level_down":
        inst = _entry(row, "level", "level_count", p, i)
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
            eff = pool.tables.effects[int(_f(row, "deck_list")[owner, src]), int(_f(row, "choice_effect"))]
            q = owner if int(eff[E_TARGET]) == TG_OWN_ONE else 1 - owner
        inst = _entry(row, "support", "support_count", q, i)
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
    text = f"{info['name']} ({info['color']}, AP {pool.tables.cards[card, C_AP]}"
    if mods:
        text += f"{mods:+d}"
    return text + f") [{flags}{'*' if _f(row, 'attacked')[p, inst] else ''}]"


def render(row: np.ndarray, pool: CardPool, viewer: int | None = None) -> str:
    """A readable board; ``viewer`` None shows everything, else only what that player can see."""
    lines = []
    tp = int(_f(row, "turn_player"))
    lines.append(headline("levelneo", row, tp, S.STEP_NAMES[int(_f(row, 'step'))]))
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
    deck_list = S.STATE.get(out, "deck_list")  # a view into out
    face_up = S.STATE.get(out, "face_up")
    drawn = S.STATE.get(out, "drawn")
    ctab = pool.tables.cards
    off = S.DECK_LIST
    size = S.DECK_SIZE
    for p in (0, 1):
        deck_at = S.DECK + p * S.DECK_SIZE
        level_at = S.LEVEL + p * S.LEVEL_CAP
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
    etab = pool.tables.effects
    info = pool.cards[card_id]
    parts = []
    for e, eff in enumerate(info["effects"]):
        trig = TRIGGERS[etab[card_id, e, E_TRIGGER]]
        cond = "" if etab[card_id, e, E_COND] == 0 else f" if {eff['condition']}"
        args = {k: v for k, v in eff.items() if k in ("amount", "target", "duration", "n", "filter") and v}
        parts.append(f"[{trig}{cond}] {eff['op']} {args}")
    return f"{info['name']} ({info['type']}, {info['color']}): " + "; ".join(parts)



# ----------------------------------------------------------------------------------------------------------------
# the board legend and why an action is illegal (issue 16)
LEGEND = """\
levelneo board legend (each line of the board, top to bottom):
  header:  'turn N' (turns so far), 'turn player PN' (whose turn it is), 'step: NAME' (the pending step, below),
           'to act: PN' (who decides now); at the end '[P0 wins]' / '[P1 wins]', '[draw]' or '[truncated]' (the
           game hit its turn or decision cap and has no winner).
  PN: line: 'marker N' = turn markers (a card's turn cost must not exceed them; +1 each of your turns),
           'level N' = main character's level (level-zone cards + 1), '(Level Neo)' = level 5: win a battle to win
           the game, 'deck N' / 'discard N' / 'hand N' = cards in that zone.
  main:    the main character: 'Name (colour, AP printed+change)', the change being what played effects added this
           turn/battle (continuous effects and the level bonus not included), then its flags in brackets:
           [A] = Active (may attack, be a combi partner or cover), [R] = resting (rested by attacking, covering,
           a skill's rest cost or an effect; only resting characters can be targeted by a support's attack),
           a '*' after the flag ([A*], [R*]) = it has already attacked this turn;
           [face down] = the opponent's main, not yet revealed (setup); '-' = empty.
  supports: support characters in slot order 'support 1 | support 2 | ...' (same flags as main).
  level:   level-zone cards, oldest first (level card 0, 1, ...): 'Name (up)' = revealed by a Level Burst;
           'face-down' = not revealed ('Name (down)' in the full view of a replay, which shows everything).
  hand:    your own hand in slot order (hand 0, 1, ...); the opponent's hand is only counted ('hand N').
  battle:  'battle: Attacker + Combi partner -> Target', '(cover)' = a support covered the attacked main.
Steps ('step:'), in game order:
  setup: choose turn order, choose main character, mulligan;
  turn:  start of turn, main phase, battle phase, attack declaration, combi partner, attack target,
         after declaration, cover, after cover, level burst, battle judgement, level down, combi loss,
         battle end, level up (after a won battle), end of turn (discard down to 6).
  'main phase', 'battle phase', 'after declaration' and 'after cover' are windows: play an event or use a [Use]
  skill, or pass (in your main phase you may also play a support).
Action names: 'hand i' = hand slot i (from 0); 'main' / 'support i' (from 1) for skills, attacks and targets;
  'support i' in combi / cover / effect-target choices also counts from 1; 'level card k' = level-zone slot k
  (from 0); 'deck card i' = card i of your deck list (setup). 'why N' explains why action N is not legal now.
"""


def _id_ranges() -> str:
    """The action id ranges (generated from the action layout), for ``why N``."""
    sz = {f.name: f.size for f in ACTIONS.fields}
    sup = f"supports 1-{sz['partner']}"
    label = {
        "pass": "pass / keep hand / end phase / decline", "go_first": "go first", "go_second": "go second",
        "burst": "Level Burst", "hand": f"hand slots 0-{sz['hand'] - 1}", "skill": f"skill: main, {sup}",
        "attack": f"attack: main, {sup}", "partner": f"combi partner: {sup}", "target": f"target: opponent main, {sup}",
        "cover": f"cover: {sup}", "level_down": f"level down: level cards 0-{sz['level_down'] - 1}",
        "combi_loss": "combi loss: attacker, partner",
        "choose_main": f"choose main: deck cards 0-{sz['choose_main'] - 1}",
        "level_up": "level up", "effect_target": f"effect target: {sup}",
        "burst_known": f"Level Burst with level cards 0-{sz['burst_known'] - 1}",
    }
    lines, line = [], "Action ids (for 'why N'):"
    for f in ACTIONS.fields:
        lo = ACTIONS.offset(f.name)
        part = f"{lo if f.size == 1 else f'{lo}-{lo + f.size - 1}'} {label[f.name]}"
        if len(line) + len(part) + 2 > 116:
            lines.append(line + ";")
            line = "  " + part
        else:
            line += (" " if line.endswith(":") else "; ") + part
    return "\n".join(lines + [line + "."]) + "\n"


LEGEND += _id_ranges()


def _slot_inst(row: np.ndarray, p: int, i: int) -> int:
    """Instance in slot ``i`` of ``p``'s field as the skill/attack/target actions count it (0 main, 1.. supports)."""
    if i == 0:
        return int(_f(row, "main")[p, 0])
    sup = _zone(row, "support", "support_count", p)
    return sup[i - 1] if i - 1 < len(sup) else -1


def _where(field: str) -> str:
    return {
        "pass": "in the mulligan, the windows (main phase, battle phase, after declaration, after cover), attack "
                "declaration, combi partner, cover, level burst and level up steps",
        "go_first": "in the 'choose turn order' step, by the rock-paper-scissors winner",
        "go_second": "in the 'choose turn order' step, by the rock-paper-scissors winner",
        "burst": "in the 'level burst' step of a battle your main character takes part in",
        "burst_known": "in the 'level burst' step of a battle your main character takes part in",
        "hand": "in the mulligan (to the bottom), the windows (play a support or event) and the end of turn "
                "(discard down to 6)",
        "skill": "in the windows: main phase, battle phase, after declaration, after cover",
        "attack": "in the turn player's 'attack declaration' step",
        "partner": "in the attacker's 'combi partner' step",
        "target": "in the attacker's 'attack target' step",
        "cover": "in the defender's 'cover' step",
        "level_down": "in the 'level down' step after a main character loses a battle",
        "combi_loss": "in the 'combi loss' step after a support combi loses",
        "choose_main": "in the 'choose main character' step of setup",
        "level_up": "in the 'level up' step after a won battle",
        "effect_target": "when one of your one-support effects waits for you to choose its support",
    }[field]


FALLBACK = "not legal in this decision"  # only for a code the table does not know (never written by the rules)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _use_facts(row: np.ndarray, pool: CardPool, p: int, inst: int, card: int, trigger: int) -> dict:
    """The words of the reasons an event (``trigger`` TR_EVENT) or a [Use] skill (TR_USE) gets: its tags, costs,
    skill, level and condition, and, for ``NOTHING_TO_DO``, why each of its effects would change nothing (the code
    ``effects.effect_status`` gives each, the same the mask asked)."""
    tables = pool.tables
    info = pool.cards[card]
    e = int(tables.cards[card, C_EVENT_EFFECT if trigger == TR_EVENT else C_USE_EFFECT])
    eff = tables.effects[card, e]
    tp = int(_f(row, "turn_player"))
    ph_tag, tu_tag = int(eff[E_PHASE]), int(eff[E_TURN])
    allows = []
    if ph_tag != PH_ANY:
        allows.append(f"only in the {PHASES[ph_tag]} phase")
    if tu_tag != TU_ANY:
        allows.append("only in your own turn" if tu_tag == TU_OWN else "only in the opponent's turn")
    cond = CONDITIONS[int(eff[E_COND])]
    skills = getattr(pool, "skills", None)
    idle: list[str] = []
    for k in range(MAX_EFFECTS):
        if int(tables.effects[card, k, E_TRIGGER]) != trigger:
            continue
        other = tables.effects[card, k]
        op = OP_NAMES[int(other[E_OP])]
        target = TARGETS[int(other[E_TARGET])] if int(other[E_TARGET]) >= 0 else ""
        code = int(effect_status(row, tables, p, card, k, inst))
        words = W.TEMPLATES[code].format(op=op, target=target, state="resting" if op == "rest" else "Active")
        if code != W.NONE and words not in idle:
            idle.append(words)
    return {
        "card": "it", "allows": " and ".join(allows),
        "phase": "main" if int(_f(row, "step")) == S.ST_MAIN else "battle",
        "whose_turn": "your" if tp == p else "the opponent's",
        "skill": skills[int(eff[E_SKILL])] if skills else info["name"],
        "need": int(eff[E_LEVEL]), "level": int(_f(row, "level_count")[p]) + 1, "cond": cond,
        "cond_words": {
            "own_turn": "it must be your turn", "opp_turn": "it must be the opponent's turn",
            "has_trait": f"you need a character with the trait '{info['effects'][e].get('trait', '')}' on your field",
            "in_battle": "this character must be in the battle", "attacking": "this character must be attacking",
            "defending": "this character must be defending",
        }.get(cond, cond),
        "idle": "; ".join(idle),
    }


def _facts(row: np.ndarray, pool: CardPool, p: int, field: str, i: int) -> tuple[dict, str]:
    """The names and counts the templates of ``reasons`` fill in for action ``(field, i)`` of ``p``, and the prefix of
    a reason said of an event or a [Use] skill. Only ``p``'s own cards and public information are read."""
    tables = pool.tables
    step = int(_f(row, "step"))
    tp = int(_f(row, "turn_player"))
    o = 1 - p
    n_sup = int(_f(row, "support_count")[p])
    facts: dict = {
        "step": S.STEP_NAMES[step], "to_act": int(row[H_TO_ACT]), "where": _where(field), "i": i,
        "supports": _count(n_sup, "support"), "levels": int(_f(row, "level_count")[p]),
        "cap": S.SUPPORT_CAP, "markers": _count(int(_f(row, "marker")[p]), "turn marker"),
    }
    prefix = ""
    inst, owner = -1, p
    choice = int(_f(row, "choice_player"))
    if choice >= 0:  # a one-support effect waits for its owner's choice
        src = int(_f(row, "choice_inst"))
        eff = tables.effects[int(_f(row, "deck_list")[choice, src]), int(_f(row, "choice_effect"))]
        owner = choice if int(eff[E_TARGET]) == TG_OWN_ONE else 1 - choice
        sup = _zone(row, "support", "support_count", owner)
        whose = "your" if owner == p else "the opponent's"
        facts.update(source=_card_name(row, pool, choice, src), whose=whose, slot=i + 1, count=len(sup))
        inst = sup[i] if field == "effect_target" and i < len(sup) else -1
    elif field in ("hand", "skill"):
        if field == "hand":
            hand = _zone(row, "hand", "hand_count", p)
            facts["held"] = _count(len(hand), "card")
            inst = hand[i] if i < len(hand) else -1
        else:
            inst = _slot_inst(row, p, i)
            facts["slot"] = i
        if inst >= 0:
            card = int(_f(row, "deck_list")[p, inst])
            name = pool.name(card)
            facts.update(cost=int(tables.cards[card, C_TURN_COST]), color=pool.cards[card]["color"],
                         now=f"this is P{tp}'s turn, not yours" if p != tp else f"now it is the '{S.STEP_NAMES[step]}' "
                                                                                   f"window")
            if field == "skill" and int(tables.cards[card, C_USE_EFFECT]) >= 0:
                facts.update(_use_facts(row, pool, p, inst, card, TR_USE))
                prefix = f"the [Use] skill of '{name}': "
            elif field == "hand" and int(tables.cards[card, C_TYPE]) == TYPE_EVENT:
                facts.update(_use_facts(row, pool, p, inst, card, TR_EVENT))
                prefix = f"event '{name}': "
    elif field == "attack":
        inst = _slot_inst(row, p, i)
        facts.update(slot=i, active_need="only an Active character can attack")
    elif field in ("partner", "cover"):
        inst = _entry(row, "support", "support_count", p, i)
        need = "a combi partner must be Active" if field == "partner" else "only an Active support can cover"
        facts.update(slot=i + 1, active_need=need)
    elif field == "target":
        owner, inst = o, _slot_inst(row, o, i)
        facts.update(slot=i, opp_supports=_count(int(_f(row, "support_count")[o]), "support"))
    elif field == "choose_main":
        inst = i
        card = int(_f(row, "deck_list")[p, i])
        facts["first"] = next((k for k in range(i) if int(_f(row, "deck_list")[p, k]) == card), i)
    if "card" not in facts:
        facts["card"] = f"'{_card_name(row, pool, owner, inst)}'"
    return facts, prefix


def explain_illegal(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Why ``action`` is not legal for ``player`` in ``row``, in levelneo's terms; "" when it is legal.

    The reason is the code the rules' own mask recorded from the branch that refused the action
    (``rules.why_row``, the body of ``mask_row``); this function only words it (``reasons.TEMPLATES``), naming only
    ``player``'s own cards and public information (never the opponent's hand or face-down cards).
    """
    p, a = int(player), int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"there is no action {a}: action ids run from 0 to {NUM_ACTIONS - 1}"
    why = np.zeros(NUM_ACTIONS, np.int8)
    why_row(row, pool.tables, p, why)
    code = int(why[a])
    if code == W.NONE:
        return ""
    if not 0 < code < W.NUM_REASONS:
        return FALLBACK
    facts, prefix = _facts(row, pool, p, *ACTIONS.locate(a))
    return (prefix if code in W.USE_REASONS else "") + W.TEMPLATES[code].format(**facts)
