"""The heartbreak effect interpreter: conditions, target selectors, ops, evolving, stack resolution and KOs.

Targets are selectors that name every fighter they cover (no choice is left): ``*_lead``, ``*_backup`` (every
Back-Up fighter), ``*_all``, ``self`` (the fighter carrying the text) and ``action_target`` (the target of the action
being resolved). The two ops that leave a choice (``swap_lead``: which standing Back-Up fighter; ``evolve``: which
hand card onto which fighter) pause the resolution of the top stack entry at that effect (``resume_effect``) and hand
the choice to the player (``ST_CHOOSE``); the entry resumes there once the choice is made.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.header import H_TURN
from cardenvs.core.jit import helper
from cardenvs.core.zones import zone_find, zone_push, zone_remove

from .board import (
    armor_of,
    attack_bonus,
    backup_at,
    break_heart,
    card_of,
    charge_card,
    clear_instance,
    counter_of,
    draw,
    field_at,
    field_pos,
    heart_push,
    is_ko,
    overdrive,
    pop_deck,
    strike_of,
    to_discard,
    ward_of,
)
from .tables import (
    NUM_ACT_COLS,
    C_ACT_DMG,
    C_LEVEL,
    C_NAME_ID,
    C_TYPE,
    CO_IS_LEAD,
    CO_LOW_HEART,
    CO_NONE,
    CO_OPP_TURN,
    CO_OWN_TURN,
    E_AMOUNT,
    E_COND,
    E_INDEX,
    E_N,
    E_OP,
    E_SIDE,
    E_STAT,
    E_TARGET,
    E_TRIGGER,
    LOW_HEART,
    MAX_EFFECTS,
    OP_ADD_HEART,
    OP_BUFF,
    OP_CHARGE_TOP,
    OP_DAMAGE,
    OP_DRAW,
    OP_EVOLVE,
    OP_HEAL,
    OP_HEARTBREAK,
    OP_NEGATE,
    OP_OVERDRIVE,
    OP_REST,
    OP_RISE,
    OP_SILENCE,
    OP_STOCK_TOP,
    OP_SWAP_LEAD,
    ST_ARMOR,
    ST_ATTACK,
    ST_BYPASS,
    ST_COUNTER,
    ST_HP,
    ST_STRIKE,
    ST_WARD,
    TG_ACTION_TARGET,
    TG_OPP_ALL,
    TG_OPP_BACKUP,
    TG_OPP_LEAD,
    TG_OWN_ALL,
    TG_OWN_BACKUP,
    TG_OWN_LEAD,
    TG_SELF,
    TR_ACTION,
    TR_CALL,
    TR_COUNTER,
    TR_PLAY,
    TR_SKILL,
    TR_STRIKE,
    TYPE_FIGHTER,
)
from . import state as S
from .reasons import R_EFFECT_NOT_FIGHTER, R_EMPTY_PLACE, R_EVOLVE_LEVEL, R_EVOLVE_NAME, R_STOCK_FULL, refuse


@helper
def condition_holds(row: np.ndarray, p: int, src: int, cond: int) -> bool:
    if cond == CO_NONE:
        return True
    if cond == CO_OWN_TURN:
        return row[S.TURN_PLAYER] == p
    if cond == CO_OPP_TURN:
        return row[S.TURN_PLAYER] != p
    if cond == CO_IS_LEAD:
        return src >= 0 and row[S.LEAD + p] == src
    if cond == CO_LOW_HEART:
        return row[S.HEART_COUNT + p] <= LOW_HEART
    return False


@helper
def collect_targets(row: np.ndarray, p: int, src: int, target: int, t_inst: int, out: np.ndarray) -> int:
    """Fill ``out`` with ``q * D + inst`` of every fighter the selector covers; returns how many."""
    m = 0
    o = 1 - p
    if target == TG_SELF:
        if field_pos(row, p, src) >= 0:
            out[m] = p * S.MAX_DECK + src
            m += 1
        return m
    if target == TG_ACTION_TARGET:
        if field_pos(row, o, t_inst) >= 0:
            out[m] = o * S.MAX_DECK + t_inst
            m += 1
        return m
    q = p if target in (TG_OWN_LEAD, TG_OWN_BACKUP, TG_OWN_ALL) else o
    lead_too = target in (TG_OWN_LEAD, TG_OWN_ALL, TG_OPP_LEAD, TG_OPP_ALL)
    backups = target in (TG_OWN_BACKUP, TG_OWN_ALL, TG_OPP_BACKUP, TG_OPP_ALL)
    if lead_too and row[S.LEAD + q] >= 0:
        out[m] = q * S.MAX_DECK + row[S.LEAD + q]
        m += 1
    if backups:
        for s in range(row[S.BACKUP_COUNT + q]):
            out[m] = q * S.MAX_DECK + backup_at(row, q, s)
            m += 1
    return m


@helper
def effect_damage(row: np.ndarray, tables, q: int, inst: int, amount: int) -> None:
    """HB-B8/K6/K10: effect damage, lowered by [Ward], never below 0."""
    dmg = amount - ward_of(row, tables.cards, q, inst)
    if dmg > 0:
        row[S.DAMAGE + q * S.MAX_DECK + inst] += dmg


@helper
def evolve_fighter(row: np.ndarray, p: int, pos: int, hand_idx: int) -> None:
    """HB-I1/I6/I8/I10/I14: the hand card goes on top of the fighter at ``pos``; the base and its whole stock go
    under it as its stock; the evolution starts with no damage, standing, not having acted; it is not a call."""
    base = field_at(row, p, pos)
    evo = zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, hand_idx)
    for j in range(row[S.STOCK_COUNT + p]):
        s = row[S.STOCK + p * S.STOCK_CAP + j]
        if row[S.STOCK_HOST + p * S.MAX_DECK + s] == base:
            row[S.STOCK_HOST + p * S.MAX_DECK + s] = evo
    clear_instance(row, p, base)
    row[S.STOCK_HOST + p * S.MAX_DECK + base] = evo
    row[S.FACE_UP + p * S.MAX_DECK + base] = 1
    zone_push(row, S.STOCK, S.STOCK_COUNT, S.STOCK_CAP, p, base)
    if pos == 0:
        row[S.LEAD + p] = evo
    else:
        row[S.BACKUP + p * S.BACKUP_CAP + pos - 1] = evo
    clear_instance(row, p, evo)
    row[S.FACE_UP + p * S.MAX_DECK + evo] = 1
    row[S.SINCE_TURN + p * S.MAX_DECK + evo] = row[H_TURN]
    row[S.PLAYED + p * S.MAX_DECK + evo] = 1


@helper
def evolve_ok(row: np.ndarray, ctab: np.ndarray, p: int, base: int, evo_card: int, why: np.ndarray, a: int,
              record: bool) -> bool:
    """HB-I1/I2: a fighter card of the same fighter name, exactly one level higher than the fighter ``base``; the
    stock needs a free slot for the base. With ``record``, the reasons it fails go to ``why[a]`` (``rules.legal_row``:
    the evolve choice of an effect, and with HB-I4 and the cost the evolve of the main phase)."""
    if base < 0:
        return refuse(why, a, R_EMPTY_PLACE, record)
    if ctab[evo_card, C_TYPE] != TYPE_FIGHTER:
        return refuse(why, a, R_EFFECT_NOT_FIGHTER, record)
    base_card = card_of(row, p, base)
    ok = True
    if ctab[evo_card, C_NAME_ID] != ctab[base_card, C_NAME_ID]:
        ok = refuse(why, a, R_EVOLVE_NAME, record)
    elif ctab[evo_card, C_LEVEL] != ctab[base_card, C_LEVEL] + 1:
        ok = refuse(why, a, R_EVOLVE_LEVEL, record)
    if (ok or record) and row[S.STOCK_COUNT + p] >= S.STOCK_CAP:
        ok = refuse(why, a, R_STOCK_FULL, record)
    return ok


@helper
def can_evolve_with(row: np.ndarray, ctab: np.ndarray, p: int, base: int, evo_card: int) -> bool:
    """``evolve_ok`` without reasons (the heuristic's simulated choices); ``row`` stands in for ``why``, which
    ``record`` False never writes."""
    return evolve_ok(row, ctab, p, base, evo_card, row, 0, False)


@helper
def swap_lead_with(row: np.ndarray, p: int, slot: int) -> None:
    """HB-M5: Lead and Back-Up slot trade places; both keep damage, stock and rest state."""
    b = row[S.BACKUP + p * S.BACKUP_CAP + slot]
    lead = row[S.LEAD + p]
    row[S.LEAD + p] = b
    if lead >= 0:
        row[S.BACKUP + p * S.BACKUP_CAP + slot] = lead
    else:
        zone_remove(row, S.BACKUP, S.BACKUP_COUNT, S.BACKUP_CAP, p, slot)


@helper
def apply_op(row: np.ndarray, tables, p: int, src: int, eff: np.ndarray, t_inst: int, stack_pos: int) -> None:
    op = eff[E_OP]
    if op == OP_DRAW:
        for _ in range(eff[E_N]):
            draw(row, p)
        return
    if op == OP_CHARGE_TOP:
        for _ in range(eff[E_N]):
            inst = pop_deck(row, p)
            if inst >= 0:
                charge_card(row, p, inst)
        return
    if op == OP_OVERDRIVE:
        q = p if eff[E_SIDE] == 0 else 1 - p
        for _ in range(eff[E_N]):
            overdrive(row, q)
        return
    if op == OP_HEARTBREAK:
        q = p if eff[E_SIDE] == 0 else 1 - p
        for _ in range(eff[E_N]):
            if row[S.LOST + q] == 0:
                break_heart(row, q)
        return
    if op == OP_ADD_HEART:
        for _ in range(eff[E_N]):
            if row[S.DECK_COUNT + p] == 0:  # HB-H10: no heart limit; an empty deck has nothing to add
                break
            heart_push(row, p, pop_deck(row, p))
        return
    if op == OP_NEGATE:
        if stack_pos >= 1:
            row[S.STACK + (stack_pos - 1) * S.NUM_STACK_COLS + S.SK_CANCEL] = 1
        return
    if op == OP_SWAP_LEAD or op == OP_EVOLVE:  # the player's choice, made at ST_CHOOSE (see choice_needed)
        v = row[S.CHOICE_VALUE]
        row[S.CHOICE_VALUE] = S.CHOICE_NONE
        row[S.CHOICE_KIND] = S.CH_NONE
        if v < 0:
            return  # nothing eligible
        if op == OP_SWAP_LEAD:
            swap_lead_with(row, p, v)
        else:
            evolve_fighter(row, p, v % S.FIELD_CAP, v // S.FIELD_CAP)
        return
    chosen = np.empty(2 * S.FIELD_CAP, dtype=np.int64)
    m = collect_targets(row, p, src, eff[E_TARGET], t_inst, chosen)
    if op == OP_STOCK_TOP:
        if m > 0:
            q = chosen[0] // S.MAX_DECK
            host = chosen[0] % S.MAX_DECK
            for _ in range(eff[E_N]):
                if row[S.STOCK_COUNT + q] >= S.STOCK_CAP or row[S.DECK_COUNT + q] == 0:
                    break
                inst = pop_deck(row, q)
                row[S.FACE_UP + q * S.MAX_DECK + inst] = 0  # HB-I15: face down, private to its owner, inactive
                row[S.STOCK_HOST + q * S.MAX_DECK + inst] = host
                zone_push(row, S.STOCK, S.STOCK_COUNT, S.STOCK_CAP, q, inst)
        return
    amount = eff[E_AMOUNT]
    for j in range(m):
        q = chosen[j] // S.MAX_DECK
        inst = chosen[j] % S.MAX_DECK
        k = q * S.MAX_DECK + inst
        if op == OP_DAMAGE:
            effect_damage(row, tables, q, inst, amount)
        elif op == OP_HEAL:
            row[S.DAMAGE + k] = max(0, row[S.DAMAGE + k] - amount)
        elif op == OP_RISE:
            row[S.RESTED + k] = 0
        elif op == OP_REST:
            row[S.RESTED + k] = 1
        elif op == OP_SILENCE:
            row[S.SILENCED + k] = 1
        elif op == OP_BUFF:
            stat = eff[E_STAT]
            if stat == ST_ARMOR:
                row[S.MOD_ARMOR + k] += amount
            elif stat == ST_WARD:
                row[S.MOD_WARD + k] += amount
            elif stat == ST_COUNTER:
                row[S.MOD_COUNTER + k] += amount
            elif stat == ST_HP:
                row[S.MOD_HP + k] += amount
            elif stat == ST_ATTACK:
                row[S.MOD_ATTACK + k] += amount
            elif stat == ST_STRIKE:
                row[S.MOD_STRIKE + k] = max(row[S.MOD_STRIKE + k], amount)
            elif stat == ST_BYPASS:
                row[S.MOD_BYPASS + k] = 1


@helper
def standing_backups(row: np.ndarray, p: int) -> int:
    n = 0
    for s in range(row[S.BACKUP_COUNT + p]):
        if row[S.RESTED + p * S.MAX_DECK + backup_at(row, p, s)] == 0:
            n += 1
    return n


@helper
def choice_needed(row: np.ndarray, p: int, op: int) -> bool:
    """Whether ``swap_lead`` / ``evolve`` asks its player (HB choices, RULES.md): a standing Back-Up fighter to pick;
    for ``evolve`` a card in hand and a fighter on the field (public counts only, so whether the player is asked
    never depends on its hidden hand: with no eligible pair it answers ``pass``)."""
    if op == OP_SWAP_LEAD:
        return standing_backups(row, p) > 0
    return row[S.HAND_COUNT + p] > 0 and (row[S.LEAD + p] >= 0 or row[S.BACKUP_COUNT + p] > 0)


@helper
def resolve_effects(row: np.ndarray, tables, p: int, src: int, trigger: int, index: int, t_inst: int,
                    stack_pos: int, start: int) -> int:
    """Every effect of ``src``'s card with this trigger (and skill/action number) whose condition holds, in card
    order, from effect ``start``. Returns -1 when done, or the effect index at which it paused for a choice."""
    card = card_of(row, p, src)
    etab = tables.effects
    for e in range(start, MAX_EFFECTS):
        eff = etab[card, e]
        if eff[E_TRIGGER] != trigger:
            continue
        if (trigger == TR_SKILL or trigger == TR_ACTION) and eff[E_INDEX] != index:
            continue
        if not condition_holds(row, p, src, eff[E_COND]):
            continue
        op = eff[E_OP]
        if (op == OP_SWAP_LEAD or op == OP_EVOLVE) and row[S.CHOICE_KIND] == S.CH_NONE:
            if not choice_needed(row, p, op):
                continue  # nothing to choose from: the effect does nothing
            row[S.CHOICE_KIND] = S.CH_SWAP if op == OP_SWAP_LEAD else S.CH_EVOLVE
            row[S.CHOICE_PLAYER] = p
            row[S.CHOICE_VALUE] = S.CHOICE_NONE
            row[S.STEP] = S.ST_CHOOSE
            return e
        apply_op(row, tables, p, src, eff, t_inst, stack_pos)
        # HB-B11/V5: a KO happens the moment a fighter's damage reaches its HP, so it is checked after every
        # effect, not once per entry; a player who lost by it ends the game before the next effect
        check_kos(row, tables)
        if row[S.LOST] != 0 or row[S.LOST + 1] != 0:
            return -1
    return -1


@helper
def active_on_field(row: np.ndarray, p: int, inst: int) -> bool:
    """A fighter whose abilities can still resolve: on the field (not in stock) and not silenced (HB-I17, L4)."""
    return field_pos(row, p, inst) >= 0 and row[S.SILENCED + p * S.MAX_DECK + inst] == 0


@helper
def push_keyword_trigger(row: np.ndarray, p: int, inst: int, trigger: int, target: int) -> None:
    """HB-R2, L4: a keyword ability that triggers ([X Strike]'s rise, [Counter]) goes on the stack like any triggered
    ability and opens a window, the owner's opponent answering first (HB-R5/R9). Pushed while the stack resolves."""
    push_entry(row, S.K_TRIGGER, p, inst, trigger, target)
    row[S.STEP] = S.ST_WINDOW
    row[S.WIN_ACTOR] = p
    row[S.WIN_STAGE] = 0


@helper
def strike_rises(row: np.ndarray, ctab: np.ndarray, p: int, inst: int) -> bool:
    """HB-K4: a fighter on the field that has acted X-1 times or fewer this turn rises by its [X Strike]."""
    return field_pos(row, p, inst) >= 0 and row[S.ACTED + p * S.MAX_DECK + inst] <= strike_of(row, ctab, p, inst) - 1


@helper
def finish_action(row: np.ndarray, tables, p: int, inst: int, k: int, t_inst: int, cancelled: bool) -> None:
    """HB-A7/A8, B7, K2-K4: after the action's effects, the attack damage (less [Armor]) and its KO; then the
    keyword abilities that trigger after acting: [X Strike] (also after a negated action: the fighter has acted,
    HB-A5, and a negate cancels the action, not the fighter's own ability), then [Counter] (after an attack the
    target survived), each its own stack entry with a window (HB-R2). The Counter waits in ``kw_counter`` until the
    Strike entry (and whatever answers it) has resolved."""
    ctab = tables.cards
    if not cancelled and field_pos(row, p, inst) >= 0:
        dmg = ctab[card_of(row, p, inst), C_ACT_DMG + NUM_ACT_COLS * k]
        o = 1 - p
        if dmg > 0 and field_pos(row, o, t_inst) >= 0:
            total = dmg + attack_bonus(row, ctab, p, inst) - armor_of(row, ctab, o, t_inst)
            if total > 0:
                row[S.DAMAGE + o * S.MAX_DECK + t_inst] += total
            check_kos(row, tables)  # HB-B11: a target KO'd by the attack is gone before Strike and Counter
            if row[S.LOST] != 0 or row[S.LOST + 1] != 0:
                return
            if field_pos(row, o, t_inst) >= 0 and field_pos(row, p, inst) >= 0 and counter_of(row, ctab, o, t_inst) > 0:
                row[S.KW_COUNTER] = t_inst
                row[S.KW_ATTACKER] = inst
    if strike_rises(row, ctab, p, inst):
        push_keyword_trigger(row, p, inst, TR_STRIKE, -1)
    else:
        fire_counter(row)


@helper
def fire_counter(row: np.ndarray) -> None:
    """The waiting [Counter] triggers once the stack is empty (after the action and its Strike), if its fighter and
    the attacker are both still on the field."""
    t_inst = row[S.KW_COUNTER]
    if t_inst < 0 or row[S.STACK_COUNT] != 0:
        return
    att = row[S.KW_ATTACKER]
    row[S.KW_COUNTER] = -1
    row[S.KW_ATTACKER] = -1
    o = 1 - row[S.TURN_PLAYER]
    if field_pos(row, o, t_inst) >= 0 and field_pos(row, 1 - o, att) >= 0:
        push_keyword_trigger(row, o, t_inst, TR_COUNTER, att)


@helper
def resolve_keyword(row: np.ndarray, tables, p: int, inst: int, trigger: int, target: int) -> None:
    """A keyword trigger resolves with the fighter's keyword as it is now (a silence in answer turns the printed
    keyword off; HB-L4): [X Strike] rises the fighter if it still qualifies; [Counter X] deals X effect damage
    (Ward lowers it, HB-K6) to the attacker if it is still on the field."""
    ctab = tables.cards
    if trigger == TR_STRIKE:
        if strike_rises(row, ctab, p, inst):
            row[S.RESTED + p * S.MAX_DECK + inst] = 0
    elif field_pos(row, p, inst) >= 0 and field_pos(row, 1 - p, target) >= 0:
        c = counter_of(row, ctab, p, inst)
        if c > 0:
            effect_damage(row, tables, 1 - p, target, c)


@helper
def check_kos(row: np.ndarray, tables) -> None:
    """HB-B10..B12, H5, I18: every fighter at or above its HP goes to the discard pile with its stock; then each
    owner's heart breaks once per level, one break at a time (the turn player's KOs first)."""
    ctab = tables.cards
    if not any_ko(row, ctab):
        return  # the common case (every stack entry resolved ends here): no scratch arrays allocated
    tp = row[S.TURN_PLAYER]
    victims = np.empty(2 * S.FIELD_CAP, dtype=np.int64)
    for _ in range(4):
        m = 0
        for side in range(2):
            q = tp if side == 0 else 1 - tp
            for pos in range(S.FIELD_CAP):
                inst = field_at(row, q, pos)
                if inst >= 0 and is_ko(row, ctab, q, inst):
                    victims[m] = q * S.MAX_DECK + inst
                    m += 1
        if m == 0:
            return
        breaks = np.zeros(2, dtype=np.int64)
        for j in range(m):
            q = victims[j] // S.MAX_DECK
            inst = victims[j] % S.MAX_DECK
            breaks[q] += ctab[card_of(row, q, inst), C_LEVEL]
            if row[S.LEAD + q] == inst:
                row[S.LEAD + q] = -1
            else:
                s = zone_find(row, S.BACKUP, S.BACKUP_COUNT, S.BACKUP_CAP, q, inst)
                zone_remove(row, S.BACKUP, S.BACKUP_COUNT, S.BACKUP_CAP, q, s)
            j2 = 0
            while j2 < row[S.STOCK_COUNT + q]:
                s_inst = row[S.STOCK + q * S.STOCK_CAP + j2]
                if row[S.STOCK_HOST + q * S.MAX_DECK + s_inst] == inst:
                    zone_remove(row, S.STOCK, S.STOCK_COUNT, S.STOCK_CAP, q, j2)
                    to_discard(row, q, s_inst)
                else:
                    j2 += 1
            to_discard(row, q, inst)
        for side in range(2):
            q = tp if side == 0 else 1 - tp
            for _ in range(breaks[q]):
                if row[S.LOST + q] != 0:
                    break
                break_heart(row, q)


@helper
def any_ko(row: np.ndarray, ctab: np.ndarray) -> bool:
    for q in range(2):
        for pos in range(S.FIELD_CAP):
            inst = field_at(row, q, pos)
            if inst >= 0 and is_ko(row, ctab, q, inst):
                return True
    return False


@helper
def resolve_top(row: np.ndarray, tables) -> None:
    """Carry out the top stack entry (HB-R7: last in, first out), then pop it and run the KO check. An entry whose
    effect needs its player's choice stays on top, paused (``row[STEP] == ST_CHOOSE``); the next call resumes it."""
    n = row[S.STACK_COUNT] - 1
    base = S.STACK + n * S.NUM_STACK_COLS
    kind = row[base + S.SK_KIND]
    p = row[base + S.SK_PLAYER]
    inst = row[base + S.SK_INST]
    index = row[base + S.SK_INDEX]
    target = row[base + S.SK_TARGET]
    cancelled = row[base + S.SK_CANCEL] != 0
    # one call site of the interpreter (it is the largest code here): pick the text, then run it
    keyword = kind == S.K_TRIGGER and index >= TR_STRIKE  # [X Strike] / [Counter]: no card text to run
    trigger = -1
    if not cancelled and not keyword:
        if kind == S.K_CARD:
            trigger = TR_PLAY
        elif kind != S.K_PHASE and kind != S.K_PLAYED and active_on_field(row, p, inst):
            # a fighter that left the field (or was silenced) does nothing
            trigger = (TR_CALL if kind == S.K_CALL else TR_SKILL if kind == S.K_SKILL
                       else TR_ACTION if kind == S.K_ACTION else index)
    if kind == S.K_ACTION and not cancelled and field_pos(row, p, inst) >= 0:
        trigger = TR_ACTION  # a silenced Lead still acts: only its abilities are off
    if trigger >= 0:
        paused = resolve_effects(row, tables, p, inst, trigger, index if kind != S.K_TRIGGER else 0, target, n,
                                 row[S.RESUME_EFFECT])
        if paused >= 0:
            row[S.RESUME_EFFECT] = paused
            return
    row[S.RESUME_EFFECT] = 0
    row[S.CHOICE_KIND] = S.CH_NONE
    row[S.STACK_COUNT] = n
    for c in range(S.NUM_STACK_COLS):
        row[base + c] = -1
    if kind == S.K_CARD:
        j = zone_find(row, S.RESOLVING, S.RESOLVING_COUNT, S.RESOLVING_CAP, p, inst)
        if j >= 0:
            zone_remove(row, S.RESOLVING, S.RESOLVING_COUNT, S.RESOLVING_CAP, p, j)
            to_discard(row, p, inst)  # HB-M3 / HB-X4: after its effect
    if row[S.LOST] != 0 or row[S.LOST + 1] != 0:
        return  # HB-V5: the game is over
    if kind == S.K_ACTION:
        finish_action(row, tables, p, inst, index, target, cancelled)
    elif keyword and not cancelled:
        resolve_keyword(row, tables, p, inst, index, target)
    check_kos(row, tables)
    if row[S.LOST] == 0 and row[S.LOST + 1] == 0:
        fire_counter(row)  # once the stack is empty (the Strike entry resolved), a waiting [Counter] triggers


@helper
def push_entry(row: np.ndarray, kind: int, p: int, inst: int, index: int, target: int) -> None:
    n = row[S.STACK_COUNT]
    base = S.STACK + n * S.NUM_STACK_COLS
    row[base + S.SK_KIND] = kind
    row[base + S.SK_PLAYER] = p
    row[base + S.SK_INST] = inst
    row[base + S.SK_INDEX] = index
    row[base + S.SK_TARGET] = target
    row[base + S.SK_CANCEL] = 0
    row[S.STACK_COUNT] = n + 1


@helper
def hand_card_to_resolving(row: np.ndarray, p: int, hand_idx: int) -> int:
    inst = zone_remove(row, S.HAND, S.HAND_COUNT, S.HAND_CAP, p, hand_idx)
    row[S.FACE_UP + p * S.MAX_DECK + inst] = 1
    row[S.PLAYED + p * S.MAX_DECK + inst] = 1
    zone_push(row, S.RESOLVING, S.RESOLVING_COUNT, S.RESOLVING_CAP, p, inst)
    return inst

