"""Python-side helpers over a state row: action names, a text board, and ``hide`` (re-deal what a viewer can't see)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.cards import CardPool
from cardenvs.core.header import DRAW, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TRUNCATED

from .actions import ACTIONS
from .cards import C_AP, C_MAIN_OK, E_COND, E_TARGET, E_TRIGGER, TG_OWN_ONE, TRIGGERS
from . import state as S


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
            eff = pool.tables[1][int(_f(row, "deck_list")[owner, src]), int(_f(row, "choice_effect"))]
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
    text = f"{info['name']} ({info['color']}, AP {pool.tables[0][card, C_AP]}"
    if mods:
        text += f"{mods:+d}"
    return text + f") [{flags}{'*' if _f(row, 'attacked')[p, inst] else ''}]"


def render(row: np.ndarray, pool: CardPool, viewer: int | None = None) -> str:
    """A readable board; ``viewer`` None shows everything, else only what that player can see."""
    lines = []
    status = int(row[H_STATUS])
    tp = int(_f(row, "turn_player"))
    head = f"levelneo  turn {int(row[H_TURN])}  turn player P{tp}  step: {S.STEP_NAMES[int(_f(row, 'step'))]}"
    if status == LIVE:
        head += f"  to act: P{int(row[H_TO_ACT])}"
    elif status == TRUNCATED:
        head += "  [truncated]"
    else:
        w = int(row[H_WINNER])
        head += "  [draw]" if w == DRAW else f"  [P{w} wins]"
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
    deck_list = S.STATE.get(out, "deck_list")  # a view into out
    face_up = S.STATE.get(out, "face_up")
    drawn = S.STATE.get(out, "drawn")
    ctab = pool.tables[0]
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
    etab = pool.tables[1]
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
    from .actions import ACTIONS

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


_WINDOWS = (S.ST_MAIN, S.ST_BATTLE_WINDOW, S.ST_DECL_WINDOW, S.ST_COVER_WINDOW)
_FIELD_STEPS = {  # the steps in which each action range can be legal (rules.mask_row)
    "pass": (S.ST_MULLIGAN, *_WINDOWS, S.ST_ATTACK, S.ST_PARTNER, S.ST_COVER, S.ST_BURST, S.ST_LEVEL_UP),
    "go_first": (S.ST_ORDER,), "go_second": (S.ST_ORDER,), "burst": (S.ST_BURST,), "burst_known": (S.ST_BURST,),
    "hand": (S.ST_MULLIGAN, *_WINDOWS, S.ST_END), "skill": _WINDOWS, "attack": (S.ST_ATTACK,),
    "partner": (S.ST_PARTNER,), "target": (S.ST_TARGET,), "cover": (S.ST_COVER,), "level_down": (S.ST_LEVEL_DOWN,),
    "combi_loss": (S.ST_COMBI_LOSS,), "choose_main": (S.ST_CHOOSE_MAIN,), "level_up": (S.ST_LEVEL_UP,),
    "effect_target": (),
}


def _use_reason(row: np.ndarray, pool: CardPool, p: int, inst: int, card: int, e: int, trigger: int) -> str:
    """The first failing requirement of a [Use] skill (``trigger`` TR_USE) or an event (TR_EVENT), in the order of
    ``rules.skill_usable`` / ``rules.event_usable`` (their own predicates); "" when all hold."""
    from .board import has_color
    from .cards import C_COLOR, C_TURN_COST, CONDITIONS, E_COND_TRAIT, E_COST_REST, E_LEVEL, E_PHASE, E_SKILL, \
        E_TURN, PH_MAIN, PHASES, TR_EVENT, TU_OWN
    from .effects import any_effect_can_act, condition_holds
    from .rules import skill_used, tags_allow, window_phase

    tables = pool.tables
    eff = tables[1][card, e]
    info = pool.cards[card]
    tp = int(_f(row, "turn_player"))
    phase = int(window_phase(row))
    ph_tag, tu_tag = int(eff[E_PHASE]), int(eff[E_TURN])
    if not tags_allow(ph_tag, tu_tag, phase, tp == p):
        allows = []
        if ph_tag != 0:
            allows.append(f"only in the {PHASES[ph_tag]} phase")
        if tu_tag != 0:
            allows.append("only in your own turn" if tu_tag == TU_OWN else "only in the opponent's turn")
        now = "main" if phase == PH_MAIN else "battle"
        whose = "your" if tp == p else "the opponent's"
        return f"its timing tag allows it {' and '.join(allows)}; now it is the {now} phase of {whose} turn"
    if trigger == TR_EVENT:
        cost, marker = int(tables[0][card, C_TURN_COST]), int(_f(row, "marker")[p])
        if marker < cost:  # LN-T9
            return f"it costs turn cost {cost} and you have {marker} turn marker{'' if marker == 1 else 's'}"
        if not has_color(row, tables[0], p, int(tables[0][card, C_COLOR])):  # LN-D4
            return (f"its colour cost needs a {info['color']} character on your field (main or support) and you have "
                    f"none")
    elif int(eff[E_COST_REST]) != 0 and bool(_f(row, "rested")[p, inst]):
        return "its cost is to rest this character, and it is already resting"
    if skill_used(row, p, int(eff[E_SKILL])):  # LN-K4
        skills = getattr(pool, "skills", None)
        name = skills[int(eff[E_SKILL])] if skills else info["name"]
        return f"the skill '{name}' was already used this turn (each skill once per turn)"
    need, lv = int(eff[E_LEVEL]), int(_f(row, "level_count")[p]) + 1
    if lv < need:  # LN-K5
        return f"it needs your main character at level {need} (Lv {need}) and it is level {lv}"
    cond = int(eff[E_COND])
    if not condition_holds(row, tables, p, inst, cond, int(eff[E_COND_TRAIT])):
        what = {
            "own_turn": "it must be your turn", "opp_turn": "it must be the opponent's turn",
            "has_trait": f"you need a character with the trait '{info['effects'][e].get('trait', '')}' on your field",
            "in_battle": "this character must be in the battle", "attacking": "this character must be attacking",
            "defending": "this character must be defending",
        }.get(CONDITIONS[cond], CONDITIONS[cond])
        return f"its condition '{CONDITIONS[cond]}' is not met: {what}"
    if not any_effect_can_act(row, tables, p, card, trigger, inst):
        return "it would do nothing now: " + "; ".join(_idle_reasons(row, pool, p, card, trigger, inst))
    return ""


def _idle_reasons(row: np.ndarray, pool: CardPool, p: int, card: int, trigger: int, inst: int) -> list[str]:
    """Why each effect of ``card`` with ``trigger`` would change nothing now (``effects.effect_can_act`` said so; the
    words follow its branches), in card order, one reason per op."""
    from .cards import E_OP, E_TARGET, E_TRIGGER, MAX_EFFECTS, OP_NAMES, TARGETS
    from .effects import effect_active

    reasons: list[str] = []
    for e in range(MAX_EFFECTS):
        eff = pool.tables[1][card, e]
        if int(eff[E_TRIGGER]) != trigger:
            continue
        op = OP_NAMES[int(eff[E_OP])]
        if not effect_active(row, pool.tables, p, card, e, inst):
            why = f"its {op} effect's level requirement (LN-K5) or condition is not met"
        elif op == "draw":
            why = "your deck is empty"
        elif op == "opp_discard":
            why = "the opponent's hand is empty"
        elif op == "level_up":
            why = ("your main character is at level 5 (Level Neo)" if int(_f(row, "level_count")[p]) >= S.LEVEL_CAP
                   else "your deck is empty")
        elif op == "prevent_level_down":
            why = ("your main character is not the target of an attack with a level to lose (only a defending main "
                   "levels down, LN-J5; not at level 1, LN-L6), or it is already protected this battle")
        elif op in ("rest", "activate"):
            state = "resting" if op == "rest" else "Active"
            why = (f"every character it could {op} ({TARGETS[int(eff[E_TARGET])]}) is already {state}, or is the "
                   f"opponent's and no battle can involve it before its turn starts")
        else:
            why = (f"no character it changes ({TARGETS[int(eff[E_TARGET])]}) can still be in a battle this turn, "
                   f"and the change ends with the turn (LN-T8)")
        if why not in reasons:
            reasons.append(why)
    return reasons


FALLBACK = "not legal in this decision"


def _own_support(row: np.ndarray, pool: CardPool, p: int, i: int) -> tuple[int, str]:
    """(instance, card name) in player ``p``'s support slot ``i`` (0-based), or (-1, why the slot is empty)."""
    sup = _zone(row, "support", "support_count", p)
    if i >= len(sup):
        n = len(sup)
        return -1, f"your support {i + 1} is empty (you have {n} support{'' if n == 1 else 's'})"
    return int(sup[i]), _card_name(row, pool, p, int(sup[i]))


def explain_illegal(row: np.ndarray, pool: CardPool, player: int, action: int) -> str:
    """Why ``action`` is not legal for ``player`` in ``row``, in levelneo's terms; "" when it is legal.

    Legality is decided by the rules' own ``mask_row``; the reason follows the same branches and reuses the same
    predicates (``support_playable``, ``skill_usable``'s checks, ``can_attack``, ``any_resting``, ``can_burst``...).
    Only ``player``'s own cards and public information are named (never the opponent's hand or face-down cards).
    """
    from . import rules as R
    from .actions import NUM_ACTIONS
    from .board import has_color
    from .cards import (
        C_COLOR, C_EVENT_EFFECT, C_MAIN_OK, C_TRAITS, C_TURN_COST, C_TYPE, C_USE_EFFECT, OP_REST, TR_EVENT, TR_USE,
        TYPE_CHARACTER,
    )

    p, a = int(player), int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"there is no action {a}: action ids run from 0 to {NUM_ACTIONS - 1}"
    tables = pool.tables
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if R.mask_row(row, tables, p, mask) and mask[a]:
        return ""
    status = int(row[H_STATUS])
    if status != LIVE:
        return "the game is over: nobody has a decision"
    if int(row[H_TO_ACT]) != p:
        step = S.STEP_NAMES[int(_f(row, 'step'))]
        return f"it is not your decision: P{int(row[H_TO_ACT])} decides now (step: {step})"
    field, i = ACTIONS.locate(a)
    st = int(_f(row, "step"))
    step = S.STEP_NAMES[st]
    tp = int(_f(row, "turn_player"))
    o = 1 - p
    ctab = tables[0]
    n_sup = int(_f(row, "support_count")[p])
    choice = int(_f(row, "choice_player"))
    if choice >= 0:  # a one-support effect waits for its owner's choice of a support
        src = int(_f(row, "choice_inst"))
        src_name = _card_name(row, pool, choice, src)
        if field != "effect_target":
            return (f"the effect of '{src_name}' waits for you to choose the support it applies to: only the "
                    f"'effect target' actions are open now")
        cp, src, target, filt, op = R.choice_fields(row, tables)
        q = R.one_side(cp, target)
        whose = "your" if q == p else "the opponent's"
        sup = _zone(row, "support", "support_count", q)
        if i >= len(sup):
            return f"{whose} support {i + 1} is empty ({whose} support zone holds {len(sup)})"
        inst = sup[i]
        if q == p and inst == src:
            return f"'{src_name}' cannot choose itself with its own effect"
        if filt != 0 and (ctab[int(_f(row, "deck_list")[q, inst]), C_TRAITS] & filt) == 0:
            return f"'{_card_name(row, pool, q, inst)}' lacks the trait the effect asks for"
        want = 0 if op == OP_REST else 1
        return f"the effect needs {'an Active' if want == 0 else 'a resting'} support and " \
               f"'{_card_name(row, pool, q, inst)}' is {'resting' if want == 0 else 'Active'}"
    if field == "effect_target":
        return "no effect waits for a choice of support now; " + _where(field)
    if st not in _FIELD_STEPS[field]:
        if field == "pass":
            return f"you cannot pass in the '{step}' step: one of the listed choices must be made"
        return f"the step is '{step}'; this action is allowed only {_where(field)}"
    if field == "hand":
        hand = _zone(row, "hand", "hand_count", p)
        if i >= len(hand):
            return f"hand slot {i} is empty (you hold {len(hand)} card{'' if len(hand) == 1 else 's'})"
        inst = hand[i]
        card = int(_f(row, "deck_list")[p, inst])
        name = pool.name(card)
        if ctab[card, C_TYPE] == TYPE_CHARACTER:
            main_turn = st == S.ST_MAIN and p == tp and int(_f(row, "sub")) == 0
            if not main_turn:
                now = f"this is P{tp}'s turn, not yours" if p != tp else f"now it is the '{step}' window"
                return (f"'{name}' is a character: supports are played only in your own main phase and {now}; "
                        f"only events can be played here")
            if int(_f(row, "support_played")):
                return "you already played a support this main phase (one support per main phase)"
            if n_sup >= S.SUPPORT_CAP:
                return f"your support zone is full ({S.SUPPORT_CAP} supports)"
            cost, marker = int(ctab[card, C_TURN_COST]), int(_f(row, "marker")[p])
            if marker < cost:
                return f"'{name}' costs turn cost {cost} and you have {marker} turn marker{'' if marker == 1 else 's'}"
            if not has_color(row, ctab, p, int(ctab[card, C_COLOR])):
                return (f"'{name}' has a colour cost: it needs a {pool.cards[card]['color']} character on your field "
                        f"(main or support) and you have none")
            return FALLBACK
        reason = _use_reason(row, pool, p, inst, card, int(ctab[card, C_EVENT_EFFECT]), TR_EVENT)
        return f"event '{name}': {reason}" if reason else FALLBACK
    if field == "skill":
        inst = _slot_inst(row, p, i)
        if inst < 0:
            return f"your support {i} is empty (you have {n_sup} support{'' if n_sup == 1 else 's'})"
        card = int(_f(row, "deck_list")[p, inst])
        name = pool.name(card)
        e = int(ctab[card, C_USE_EFFECT])
        if e < 0:
            return f"'{name}' has no [Use] skill"
        reason = _use_reason(row, pool, p, inst, card, e, TR_USE)
        return f"the [Use] skill of '{name}': {reason}" if reason else FALLBACK
    if field == "attack":
        inst = _slot_inst(row, p, i)
        if inst < 0:
            return f"your support {i} is empty (you have {n_sup} support{'' if n_sup == 1 else 's'})"
        name = _card_name(row, pool, p, inst)
        if bool(_f(row, "rested")[p, inst]):
            return f"'{name}' is resting [R]: only an Active character can attack"
        if bool(_f(row, "attacked")[p, inst]):
            return f"'{name}' already attacked this turn (marked *)"
        if i > 0 and not R.any_resting(row, o):
            return ("a support can attack only a resting character, and none of the opponent's characters is "
                    "resting")
        return FALLBACK
    if field == "partner":
        if int(_f(row, "atk_a")) == int(_f(row, "main")[p, 0]) and R.is_neo(row, p):
            return "your main character is Level Neo: a Level Neo main attacks alone (no combi)"
        inst, name = _own_support(row, pool, p, i)
        if inst < 0:
            return name
        if inst == int(_f(row, "atk_a")):
            return f"'{name}' is the attacker itself"
        if bool(_f(row, "rested")[p, inst]):
            return f"'{name}' is resting [R]: a combi partner must be Active"
        if bool(_f(row, "attacked")[p, inst]):
            return f"'{name}' already attacked this turn (marked *)"
        return FALLBACK
    if field == "target":
        if int(_f(row, "atk_a")) == int(_f(row, "main")[p, 0]):
            return "an attack by your main character (alone or in a combi) must target the opponent's main"
        inst = _slot_inst(row, o, i)
        if inst < 0:
            n = int(_f(row, "support_count")[o])
            return f"the opponent's support {i} is empty (it has {n} support{'' if n == 1 else 's'})"
        if not bool(_f(row, "rested")[o, inst]):
            return (f"'{_card_name(row, pool, o, inst)}' is Active [A]: a support's attack can target only a "
                    f"resting character")
        return FALLBACK
    if field == "cover":
        if int(_f(row, "atk_a")) == int(_f(row, "main")[tp, 0]) and R.is_neo(row, tp):
            return "the attacker is a Level Neo main character: its attack cannot be covered"
        inst, name = _own_support(row, pool, p, i)
        if inst < 0:
            return name
        if inst == int(_f(row, "target")):
            return f"'{name}' is the attack's target itself"
        if bool(_f(row, "rested")[p, inst]):
            return f"'{name}' is resting [R]: only an Active support can cover"
        return FALLBACK
    if field in ("burst", "burst_known"):
        if not R.main_participates(row, p):
            return "your main character is not in this battle: only a battling main can Level Burst"
        if int(_f(row, "burst_failed")[p]):
            return "your Level Burst already failed this battle"
        if not R.has_face_down_level(row, p):
            return "you have no face-down level card to reveal"
        level = _zone(row, "level", "level_count", p)
        face_up, drawn = _f(row, "face_up")[p], _f(row, "drawn")[p]
        if field == "burst":
            return ("every face-down level card of yours is one you once held: burst with it by its slot "
                    "('Level Burst revealing level card k')")
        if i >= len(level):
            return f"level card {i} does not exist (your level zone holds {len(level)})"
        inst = level[i]
        if face_up[inst]:
            return f"level card {i} is already face up"
        if not drawn[inst]:
            return "you never saw that face-down level card: use the plain 'Level Burst' action (unseen cards are " \
                   "indistinguishable)"
        return FALLBACK
    if field == "level_down":
        n = int(_f(row, "level_count")[p])
        return f"level card {i} does not exist (your level zone holds {n})" if i >= n else FALLBACK
    if field == "choose_main":
        card = int(_f(row, "deck_list")[p, i])
        if card < 0:
            return f"deck card {i} does not exist (your deck list is shorter)"
        name = pool.name(card)
        if not ctab[card, C_MAIN_OK]:
            return f"'{name}' cannot be a main character: only a character with turn cost 1 can"
        first = next(k for k in range(i) if int(_f(row, "deck_list")[p, k]) == card)
        return f"'{name}' is a copy: choose deck card {first}, its first copy (copies are interchangeable)"
    return FALLBACK
