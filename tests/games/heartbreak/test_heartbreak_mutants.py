"""Scenario tests for the mutants of issue 39's heartbreak sample that no earlier test could tell apart (seed 39, 140
of the 12,858 mutants of rules.py, effects.py, board.py and observe.py at d087860; docs/CHECKS.md, "Mutation
testing"). Each test builds a position and checks the rule (or the observation field) the mutated line serves, on
the side of a boundary the mutant moves: player 1 where a mutant is right for player 0 only (``p ** n``, ``p % n``,
``p // n`` for ``p * n``), instance numbers other than 0, thresholds exactly at their value and one off. Every test
was seen failing on its mutant (applied by hand to a private copy of the rule code, kernels as plain Python).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from heartbreak_helpers import (FILLER, A, build, damage_at, do, field, inst_at, is_legal, name_at, onto, pass_window,
                                rested_at, skill, zone_names, POOL)
from test_heartbreak_observation_knowledge import _obs  # one viewer's observation, its stored integers

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_TURN, LIVE
from cardenvs.games.heartbreak import SPEC, load_deck
from cardenvs.games.heartbreak.cards import DEFAULT_POOL
from cardenvs.games.heartbreak import obs_layout as L
from cardenvs.games.heartbreak import state as S
from cardenvs.games.heartbreak import tables as T
from cardenvs.games.heartbreak.board import hp_of, is_rested
from cardenvs.games.heartbreak.observe import OBS
from cardenvs.games.heartbreak.text import reason_names, why_codes

STOP = "Reinforcements"  # a free Turbo: keeps a player's windows and phases real decisions
_TABLES = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=0).pool.tables
CTAB = _TABLES.cards


def _card(g: BatchGame, q: int, inst: int) -> int:
    return int(field(g, "deck_list")[q, inst])


def _card_id(block: np.ndarray) -> int:
    """The ``card_id`` entry of a CARD block (pool index + 1, 0 for none)."""
    return int(block[L.CARD_CARD_ID])


def _field_inst(g: BatchGame, q: int, pos: int) -> int:
    return int(field(g, "lead")[q, 0]) if pos == 0 else (
        int(field(g, "backup")[q, pos - 1]) if pos - 1 < int(field(g, "backup_count")[q]) else -1)


def _pile(g: BatchGame, q: int, zone: str, count: str, face: int | None) -> np.ndarray:
    """Cards of ``q``'s zone by card id (``face`` None: all, else only those with that face_up flag)."""
    out = np.zeros(64, np.int64)
    for inst in field(g, zone)[q, : int(field(g, count)[q])]:
        if face is None or int(field(g, "face_up")[q, inst] != 0) == face:
            out[_card(g, q, int(inst))] += 1
    return out


def check_observation_against_state(g: BatchGame, viewer: int) -> None:
    """Every named observation field a rule shows, read back by name and compared with the state it shows (the
    independent reading of what ``observe_into`` writes where): counts (HB-F12), heart slots (HB-H2/H9), public
    piles, stock and charged cards (HB-I15, C8), fighters (HB-F10, K7, I3), the hand, the stack (HB-R7), waiting
    triggers (HB-L5/L6). Position-sensitive: a value written one block, one player or one entry off fails."""
    obs = _obs(g.states[0], viewer)
    for side in range(2):
        q = viewer if side == 0 else 1 - viewer
        counts = OBS.get(obs, "counts")[side]
        for name, state_name in (("deck", "deck_count"), ("hand", "hand_count"), ("heart", "heart_count"),
                                 ("charge", "charge_count"), ("discard", "discard_count"),
                                 ("backup", "backup_count"), ("stock", "stock_count"),
                                 ("on_stack", "resolving_count")):
            assert counts[L.COUNTS.offset(name)] == int(field(g, state_name)[q]), (side, name)
        hearts = list(field(g, "heart")[q, : int(field(g, "heart_count")[q])])
        up = [bool(field(g, "face_up")[q, i]) for i in hearts]
        assert counts[L.COUNT_HEART_FACE_DOWN] == up.count(False)
        top = max(0, len(hearts) - S.HEART_SLOTS)
        slots = OBS.get(obs, "heart")[side]
        for s in range(S.HEART_SLOTS):
            j = top + s
            present = j < len(hearts)
            assert slots[s, L.HEART_SLOT_PRESENT] == present, (side, s)
            assert slots[s, L.HEART_SLOT_FACE_UP] == (present and up[j]), (side, s)
            want = _card(g, q, int(hearts[j])) + 1 if present and up[j] else 0
            assert _card_id(slots[s, L.HEART_SLOT_CARD:]) == want, (side, s)
        public = OBS.get(obs, "public_cards")[side]
        assert np.array_equal(public[L.PILE_DISCARD], _pile(g, q, "discard", "discard_count", None))
        assert np.array_equal(public[L.PILE_STOCK], _pile(g, q, "stock", "stock_count", 1))
        assert np.array_equal(public[L.PILE_HEART], _pile(g, q, "heart", "heart_count", 1))
        unseen = _pile(g, q, "deck", "deck_count", None) + _pile(g, q, "heart", "heart_count", 0)
        if q != viewer:
            unseen += (_pile(g, q, "hand", "hand_count", None) + _pile(g, q, "charge", "charge_count", None)
                       + _pile(g, q, "stock", "stock_count", 0))
        assert np.array_equal(OBS.get(obs, "unseen_cards")[side], unseen), side
        stock_cards = OBS.get(obs, "stock_cards")[side]
        for pos in range(S.FIELD_CAP):
            host = _field_inst(g, q, pos)
            want = np.zeros(64, np.int64)
            for inst in field(g, "stock")[q, : int(field(g, "stock_count")[q])]:
                if host >= 0 and int(field(g, "stock_host")[q, inst]) == host and (
                        q == viewer or field(g, "face_up")[q, inst]):
                    want[_card(g, q, int(inst))] += 1
            assert np.array_equal(stock_cards[pos], want), (side, pos)
            block = OBS.get(obs, "field")[side, pos]
            if host < 0:
                assert not block.any(), (side, pos)
                continue
            card = _card(g, q, host)
            assert _card_id(block[L.FIGHTER_CARD:]) == card + 1, (side, pos)
            assert block[L.FIGHTER_RESTED] == field(g, "rested")[q, host], (side, pos)
            assert block[L.FIGHTER_DAMAGE] == field(g, "damage")[q, host] // 10, (side, pos)
            assert block[L.FIGHTER_SILENCED] == field(g, "silenced")[q, host], (side, pos)
            assert block[L.FIGHTER_MAY_EVOLVE] == (field(g, "since_turn")[q, host] < g.states[0][H_TURN]), (side, pos)
            under = [i for i in field(g, "stock")[q, : int(field(g, "stock_count")[q])]
                     if int(field(g, "stock_host")[q, i]) == host]
            assert block[L.FIGHTER_STOCK] == len(under), (side, pos)
            assert block[L.FIGHTER_STOCK_FACE_DOWN] == sum(1 for i in under if not field(g, "face_up")[q, i])
            items = [int(i) for i in under if field(g, "face_up")[q, i] and CTAB[_card(g, q, int(i)), T.C_TYPE] == T.TYPE_ITEM]
            item = items[0] if items else -1
            assert block[L.FIGHTER_HAS_ITEM] == (item >= 0), (side, pos)
            assert _card_id(block[L.FIGHTER_ITEM:]) == (_card(g, q, item) + 1 if item >= 0 else 0), (side, pos)

            def keyword(col: int, mod: str | None, q: int = q, inst: int = host, item: int = item) -> int:
                v = int(field(g, mod)[q, inst]) if mod else 0
                if not field(g, "silenced")[q, inst]:
                    v += int(CTAB[_card(g, q, inst), col])
                return v + (int(CTAB[_card(g, q, item), col]) if item >= 0 else 0)

            for at, col, mod in ((L.FIGHTER_ARMOR_NOW, T.C_ARMOR, "mod_armor"), (L.FIGHTER_WARD_NOW, T.C_WARD, "mod_ward"),
                                 (L.FIGHTER_COUNTER_NOW, T.C_COUNTER, "mod_counter"),
                                 (L.FIGHTER_ATTACK_BONUS, T.C_ATTACK, "mod_attack")):
                assert block[at] == keyword(col, mod) // 10, (side, pos, at)
            assert block[L.FIGHTER_BYPASS_NOW] == (keyword(T.C_BYPASS, "mod_bypass") > 0), (side, pos)
            mod_hp = int(field(g, "mod_hp")[q, host])
            up = max(mod_hp, 0) + (int(CTAB[_card(g, q, item), T.C_HP]) if item >= 0 else 0)
            down = max(-mod_hp, 0)
            if pos == 0:  # HB-K7/K9: every [Baneful] of the opposing fighters lowers the Lead's HP
                for opos in range(S.FIELD_CAP):
                    other = _field_inst(g, 1 - q, opos)
                    if other >= 0:
                        o_items = [int(i) for i in field(g, "stock")[1 - q, : int(field(g, "stock_count")[1 - q])]
                                   if int(field(g, "stock_host")[1 - q, i]) == other and field(g, "face_up")[1 - q, i]
                                   and CTAB[_card(g, 1 - q, int(i)), T.C_TYPE] == T.TYPE_ITEM]
                        down += keyword(T.C_BANEFUL, None, 1 - q, other, o_items[0] if o_items else -1)
            hp = int(CTAB[card, T.C_HP]) + up - down
            hp = max(hp, 10) if down > 0 else hp  # HB-K8
            assert block[L.FIGHTER_HP_NOW] == hp // 10, (side, pos)
            assert block[L.FIGHTER_HP_LEFT] == (hp - int(field(g, "damage")[q, host])) // 10, (side, pos)
    if viewer >= 0:
        charged = _pile(g, viewer, "charge", "charge_count", None)
        assert np.array_equal(OBS.get(obs, "charged_cards"), charged)
        hand = OBS.get(obs, "hand")
        n = int(field(g, "hand_count")[viewer])
        for i in range(min(n, 60)):
            assert _card_id(hand[i]) == _card(g, viewer, int(field(g, "hand")[viewer, i])) + 1, i
        assert not hand[n:].any()
    stack = OBS.get(obs, "stack")
    for j in range(int(field(g, "stack_count"))):
        entry = field(g, "stack")[j]
        q = int(entry[S.SK_PLAYER])
        e = stack[j]
        assert e[L.STACK_ENTRY_PRESENT] == 1, j
        kinds = e[L.STACK_ENTRY_KIND: L.STACK_ENTRY_KIND + 7]
        assert list(np.flatnonzero(kinds)) == [int(entry[S.SK_KIND])], j
        assert e[L.STACK_ENTRY_MINE] == (q == viewer), j
        assert e[L.STACK_ENTRY_CANCELLED] == entry[S.SK_CANCEL], j
        assert e[L.STACK_ENTRY_INDEX] == entry[S.SK_INDEX], j
        targets = [pos for pos in range(S.FIELD_CAP) if entry[S.SK_TARGET] >= 0
                   and _field_inst(g, 1 - q, pos) == entry[S.SK_TARGET]]
        assert list(np.flatnonzero(e[L.STACK_ENTRY_TARGET: L.STACK_ENTRY_TARGET + S.FIELD_CAP])) == targets, j
        assert _card_id(e[L.STACK_ENTRY_CARD:]) == _card(g, q, int(entry[S.SK_INST])) + 1, j
    assert not stack[int(field(g, "stack_count")):].any()
    triggers = OBS.get(obs, "triggers")
    for j in range(int(field(g, "trig_count"))):
        q = int(field(g, "trig")[j, S.TQ_PLAYER])
        assert triggers[j, L.TRIGGER_PRESENT] == 1, j
        assert triggers[j, L.TRIGGER_MINE] == (q == viewer), j
        assert _card_id(triggers[j, L.TRIGGER_CARD:]) == _card(g, q, int(field(g, "trig")[j, S.TQ_INST])) + 1, j
    assert not triggers[int(field(g, "trig_count")):].any()
    ctx = OBS.get(obs, "context")
    waiting = int(field(g, "trig_count")) > 0
    kind = int(field(g, "trig_kind"))
    for name, code in (("trig_call", T.TR_CALL), ("trig_start", T.TR_START), ("trig_end", T.TR_END)):
        assert ctx[L.CONTEXT.offset(name)] == (waiting and kind == code), name
    tp = int(field(g, "turn_player"))
    cpos = [pos for pos in range(S.FIELD_CAP) if _field_inst(g, 1 - tp, pos) == int(field(g, "kw_counter")) >= 0]
    apos = [pos for pos in range(S.FIELD_CAP) if _field_inst(g, tp, pos) == int(field(g, "kw_attacker")) >= 0]
    shown = cpos and apos
    assert list(np.flatnonzero(ctx[L.CTX_COUNTER_WAITING: L.CTX_COUNTER_WAITING + S.FIELD_CAP])) == (cpos if shown else [])
    assert list(np.flatnonzero(ctx[L.CTX_COUNTER_ATTACKER: L.CTX_COUNTER_ATTACKER + S.FIELD_CAP])) == (
        apos if shown else [])


def _rich_position(turn_player: int = 0) -> BatchGame:
    """Both players with a Lead and Back-Up fighters, items and face-down stock, a deep heart with face-up cards
    (more than the 10 slots show), discards, charged cards, a two-entry stack with a target on Back-Up 2 and two
    waiting triggers, one each."""
    heart1 = [FILLER] * 4 + ["Flash Burn:up", FILLER, "Kelp Mail:up", FILLER, FILLER, "Wild Growth:up", FILLER,
                             "Reefling Scout:up"]
    g = build({"lead": "Kiln Warden:R:d20", "backup": ["Pyre Duelist", "Coral Sentinel:N"],
               "hand": ["Flash Burn", "Magma Tyrant", FILLER], "charge": ["Wildfire", FILLER],
               "discard": ["Final Flare", FILLER], "stock": [("Emberforged Blade", 0, True), ("Cinderwing Drake", 2, False)],
               "heart": [FILLER, "Blaze of Glory:up", FILLER]},
              {"lead": "Reefling Guardian:d10", "backup": ["Mistveil Oracle:R", "Harbor Warden", "Briarback Boar:d30"],
               "hand": ["Riptide Denial", FILLER], "charge": 3, "discard": ["High Tide"],
               "stock": [("Kelp Mail", 3, True), ("Reefling Scout", 0, False), ("Heartwood Charm", 2, True)],
               "heart": heart1},
              turn_player=turn_player, step=S.ST_WINDOW)
    tp = turn_player
    field(g, "silenced")[1, inst_at(g, 1, 1)] = 1  # Mistveil Oracle: its Ward 20 is off
    field(g, "mod_hp")[1, inst_at(g, 1, 0)] = -20  # a lowered HP ...
    field(g, "mod_hp")[1, inst_at(g, 1, 2)] = -10  # ... and one beside an item's HP bonus
    field(g, "mod_armor")[0, inst_at(g, 0, 1)] = 20
    stack = field(g, "stack")
    stack[0, S.SK_KIND], stack[0, S.SK_PLAYER], stack[0, S.SK_INST] = S.K_ACTION, tp, inst_at(g, tp, 0)
    stack[0, S.SK_INDEX], stack[0, S.SK_TARGET], stack[0, S.SK_CANCEL] = 1, inst_at(g, 1 - tp, 2), 0
    o = 1 - tp
    stack[1, S.SK_KIND], stack[1, S.SK_PLAYER], stack[1, S.SK_INST] = S.K_SKILL, o, inst_at(g, o, 1)
    stack[1, S.SK_INDEX], stack[1, S.SK_TARGET], stack[1, S.SK_CANCEL] = 0, -1, 1
    field(g, "stack_count")[...] = 2
    trig = field(g, "trig")
    trig[0, S.TQ_PLAYER], trig[0, S.TQ_INST] = 1, inst_at(g, 1, 3)
    trig[1, S.TQ_PLAYER], trig[1, S.TQ_INST] = 0, inst_at(g, 0, 2)
    field(g, "trig_count")[...] = 2
    field(g, "trig_kind")[...] = T.TR_END
    return g


def test_observation_fields_read_back_by_name_for_both_viewers() -> None:
    """HB-F12, H9, I15, C8, R7, L5/L6, R2: in a position that fills every observed zone for both players (and the
    turn player either one), each named field holds what the state says, for the own and the opposing side; with
    each kind of waiting trigger (call, start, end) and a [Counter] waiting on Back-Up 2 against the Lead."""
    for tp in (0, 1):
        for kind in (T.TR_END, T.TR_START, T.TR_CALL):
            g = _rich_position(tp)
            field(g, "trig_kind")[...] = kind
            field(g, "kw_counter")[...] = inst_at(g, 1 - tp, 2)
            field(g, "kw_attacker")[...] = inst_at(g, tp, 0)
            for viewer in (0, 1):
                check_observation_against_state(g, viewer)


def test_HB_S1_lead_options_show_each_offered_card_at_its_instance() -> None:
    """HB-S1: while a player picks its Lead, ``lead_options`` shows each distinct Lead-capable card of its deck at
    the instance its choose_lead action names, with that card's printed numbers (Coral Sentinel's Counter 10
    included), and nothing at any other instance; for either deck."""
    for seed in (0, 1):
        g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=seed)
        for _ in range(2):
            p = int(field(g, "setup_player"))
            assert int(field(g, "step")) == S.ST_SETUP_LEAD
            options = OBS.get(_obs(g.states[0], p), "lead_options")
            want = np.zeros_like(options)
            seen = set()
            for inst in field(g, "deck")[p, : int(field(g, "deck_count")[p])]:
                card = _card(g, p, int(inst))
                if not CTAB[card, T.C_LEAD_OK] or card in seen:
                    continue
                seen.add(card)
                row = want[int(inst)]
                row[L.LEAD_OPT_OFFERED] = 1
                for at, value in ((L.LEAD_OPT_LEVEL, CTAB[card, T.C_LEVEL]), (L.LEAD_OPT_HP, CTAB[card, T.C_HP] // 10),
                                  (L.LEAD_OPT_ARMOR, CTAB[card, T.C_ARMOR] // 10),
                                  (L.LEAD_OPT_WARD, CTAB[card, T.C_WARD] // 10),
                                  (L.LEAD_OPT_COUNTER, CTAB[card, T.C_COUNTER] // 10),
                                  (L.LEAD_OPT_STRIKE, CTAB[card, T.C_STRIKE]), (L.LEAD_OPT_BYPASS, CTAB[card, T.C_BYPASS]),
                                  (L.LEAD_OPT_ACTION1_DAMAGE, CTAB[card, T.C_ACT_DMG] // 10),
                                  (L.LEAD_OPT_CARD_ID, card + 1)):
                    row[at] = value
            assert np.array_equal(options, want), (seed, p)
            do(g, "choose_lead", int(np.flatnonzero(want[:, L.LEAD_OPT_OFFERED])[0]), player=p)


# ------------------------------------------------------------------------------------------------- rules
def pass_to(g: BatchGame, step: int, player: int, limit: int = 40) -> None:
    """Pass (refill the Lead from Back-Up slot 0, order the first trigger where those are the decision) until
    ``player``'s turn stops at ``step`` with ``player`` to act: real start and end phases in between."""
    for _ in range(limit):
        assert g.status[0] == LIVE
        st = int(field(g, "step"))
        if st == step and int(field(g, "turn_player")) == player and int(g.to_act[0]) == player:
            return
        do(g, "refill" if st == S.ST_REFILL else "order" if st == S.ST_TRIGGERS else "pass")
    raise AssertionError(f"step {step} of player {player} not reached")


def _ko_check(g: BatchGame) -> None:
    """End the main phase: its phase-change entry resolves and runs the KO check (HB-B11)."""
    do(g, "pass")
    pass_window(g, end_open=False)


def test_HB_K8_HP_lowered_by_an_effect_stops_at_10_for_either_player() -> None:
    """HB-K8, B10: an HP reduction never takes HP below 10. A 40-HP fighter at -40 HP (and at -50) has 10 HP
    (``board.hp_of``, what the KO check and the heuristic read), at -30 HP also 10: with no damage it stays, with
    10 damage (exactly its HP) it is KO'd; for the fighters of either player."""
    for p in (0, 1):
        for damage, kod in ((0, False), (10, True)):
            sides = [{"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Guardian", "hand": [STOP]}]
            sides[p]["backup"] = [f"Wandering Sellsword:d{damage}" if damage else "Wandering Sellsword"]
            g = build(*sides)
            inst = inst_at(g, p, 1)
            for mod in (-30, -50, -40):
                field(g, "mod_hp")[p, inst] = mod
                assert hp_of(g.states[0], CTAB, p, inst) == 10, (p, mod)
            _ko_check(g)
            assert (name_at(g, p, 1) == "-") == kod, (p, damage)


def test_HB_B10_an_HP_buff_of_player_1s_fighter_keeps_it_on_the_field() -> None:
    """HB-B10, I16: an HP buff counts for the fighter that has it: player 1's 50-HP Back-Up fighter with 60 damage
    and +20 HP (70) stays, at 70 damage it is KO'd (player 0's instance of the same number has no buff)."""
    for damage, kod in ((60, False), (70, True)):
        g = build({"lead": "Kiln Warden", "backup": ["Moss Hermit"], "hand": [STOP]},
                  {"lead": "Reefling Guardian", "backup": [f"Pyre Duelist:d{damage}"]})
        field(g, "mod_hp")[1, inst_at(g, 1, 1)] = 20
        _ko_check(g)
        assert (name_at(g, 1, 1) == "-") == kod, damage


def test_HB_K7_baneful_lowers_the_opposing_Lead_only() -> None:
    """HB-K7, K9: Scorchmaw Brute's [Baneful 10] lowers the opposing Lead's HP (Reefling Guardian 70 -> 60: KO'd at
    60 damage, not at 50) and never a Back-Up fighter's (Pyre Duelist, 50 HP, stays at 40 damage)."""
    for lead_damage, kod in ((50, False), (60, True)):
        g = build({"lead": "Scorchmaw Brute", "hand": [STOP]},
                  {"lead": f"Reefling Guardian:d{lead_damage}", "backup": ["Pyre Duelist:d40"]})
        _ko_check(g)
        assert (name_at(g, 1, 0) == "-") == kod, lead_damage
        assert name_at(g, 1, 1) == "Pyre Duelist" or kod  # (after a KO the Back-Up fighter refills nothing yet)
        assert "Pyre Duelist" not in zone_names(g, 1, "discard")


def test_HB_H3_HB_M3_heartbreak_and_two_effect_cards_after_a_real_start_phase() -> None:
    """HB-H3, M3, P1: in a turn reached through a real start phase (its trigger step done), Firestarter Rations
    resolves both its effects (draw 1, then charge the top card) and Blaze of Glory breaks player 1's heart once."""
    g = build({"lead": "Kiln Warden", "hand": ["Firestarter Rations", "Blaze of Glory"], "charge": 2},
              {"lead": "Reefling Scout", "hand": [STOP]}, turn_player=1, step=S.ST_CLIMAX)
    pass_to(g, S.ST_MAIN, 0)
    hand, charge = int(field(g, "hand_count")[0]), int(field(g, "charge_count")[0])
    do(g, "hand", 0)  # Firestarter Rations
    pass_window(g, end_open=False)
    assert int(field(g, "hand_count")[0]) == hand - 1 + 1  # played, drew 1
    assert int(field(g, "charge_count")[0]) == charge + 1  # and charged the top card
    pass_to(g, S.ST_CLIMAX, 0)
    hearts = int(field(g, "heart_count")[1])
    i = zone_names(g, 0, "hand").index("Blaze of Glory")
    do(g, "hand", i)
    pass_window(g, end_open=False)
    assert int(field(g, "heart_count")[1]) == hearts - 1


def test_HB_V5_a_loss_on_the_stack_stops_the_entries_below() -> None:
    """HB-V5, R7: player 0's Flash Burn, on top of player 1's Turbo and player 0's Second Wind, KOs player 1's Lead
    with an empty heart: player 1 loses at once, and the entries below never resolve (Second Wind draws nothing)."""
    g = build({"lead": "Kiln Warden", "hand": ["Second Wind", "Flash Burn"], "charge": 2},
              {"lead": "Reefling Scout:d20", "heart": [], "hand": [STOP]})
    deck = int(field(g, "deck_count")[0])
    do(g, "hand", 0)  # Second Wind
    do(g, "hand", 0, player=1)  # Reinforcements in answer
    do(g, "hand", 0, player=0)  # Flash Burn: the turn player's last word
    assert g.status[0] != LIVE and int(g.winner[0]) == 0
    assert int(field(g, "deck_count")[0]) == deck  # Second Wind never resolved
    assert int(field(g, "hand_count")[0]) == 0


def test_HB_P5_the_empty_Lead_is_refilled_for_either_player() -> None:
    """HB-P5: at the start of its turn a player with an empty Lead and a Back-Up fighter moves one into the Lead,
    whichever player it is (the other player having no Back-Up fighter)."""
    for p in (0, 1):
        sides = [{"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout", "hand": [STOP]}]
        sides[p] = {"lead": None, "backup": ["Pyre Duelist"], "hand": [STOP]}
        g = build(*sides, turn_player=1 - p, step=S.ST_CLIMAX)
        pass_to(g, S.ST_MAIN, p)
        assert name_at(g, p, 0) == "Pyre Duelist" and int(field(g, "backup_count")[p]) == 0, p


def test_HB_M4_M5_swap_needs_a_Lead_for_player_1_too() -> None:
    """HB-M4/M5: a swap needs a Lead and a Back-Up fighter, for player 1 as for player 0; and the once-per-turn
    limit starts afresh in the next turn."""
    for p in (0, 1):
        sides = [{"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout", "hand": [STOP]}]
        sides[p] = {"lead": None, "backup": ["Pyre Duelist"], "hand": [STOP]}
        g = build(*sides, turn_player=p)
        assert not is_legal(g, "swap", 0), p
        sides[p] = {"lead": "Coral Sentinel", "backup": ["Pyre Duelist"], "hand": [STOP]}
        g = build(*sides, turn_player=p)
        assert is_legal(g, "swap", 0), p
    g = build({"lead": "Kiln Warden", "backup": ["Moss Hermit"], "hand": [STOP]},
              {"lead": "Reefling Scout", "backup": ["Pyre Duelist"], "hand": [STOP]})
    do(g, "swap", 0)
    assert not is_legal(g, "swap", 0)
    pass_to(g, S.ST_MAIN, 1)
    assert is_legal(g, "swap", 0)  # HB-M4: once per turn, each turn


def test_HB_I8_I14_evolving_a_Back_Up_fighter_keeps_every_other_stock_and_fighter() -> None:
    """HB-I8, I14, I6: evolving the Back-Up Cinderwing Hatchling puts it under the Drake as its stock; the Lead's
    item stays the Lead's, and the Lead keeps its damage and rest state (only the evolving fighter changes)."""
    g = build({"lead": "Kiln Warden:R:d20", "backup": ["Cinderwing Hatchling:d10"], "hand": ["Cinderwing Drake"],
               "charge": 1, "stock": [("Emberforged Blade", 0, True)]}, {"lead": "Reefling Scout"})
    lead, base = inst_at(g, 0, 0), inst_at(g, 0, 1)
    blade = int(field(g, "stock")[0, 0])
    do(g, "onto", onto(0, 1))
    pass_window(g, end_open=False)
    evo = inst_at(g, 0, 1)
    assert name_at(g, 0, 1) == "Cinderwing Drake" and damage_at(g, 0, 1) == 0
    assert int(field(g, "stock_host")[0, base]) == evo  # the base is the evolution's stock
    assert int(field(g, "stock_host")[0, blade]) == lead  # the Lead's item stays under the Lead
    assert rested_at(g, 0, 0) and damage_at(g, 0, 0) == 20


def test_HB_I18_player_1s_KOd_fighter_takes_its_own_stock_to_the_discard_pile() -> None:
    """HB-I18, B12: player 1's Back-Up fighter KO'd: its item (the second card of player 1's stock) goes to the
    discard pile with it; the Lead's item (the first) stays."""
    g = build({"lead": "Kiln Warden", "hand": [STOP]},
              {"lead": "Reefling Scout", "backup": ["Pyre Duelist:d70"],
               "stock": [("Heartwood Charm", 0, True), ("Kelp Mail", 1, True)]})
    _ko_check(g)
    assert name_at(g, 1, 1) == "-"
    assert zone_names(g, 1, "stock") == ["Heartwood Charm"]
    assert sorted(zone_names(g, 1, "discard")) == ["Kelp Mail", "Pyre Duelist"]


def test_HB_L1_player_1s_skill_resolves_whatever_player_0s_instances_are() -> None:
    """HB-L1, L4: player 1's Kiln Warden uses Fan the Coals (+10 attack to its Lead): it resolves, silenced
    fighters of player 0 (instance 1, the number after the Warden's) notwithstanding."""
    g = build({"lead": "Reefling Scout", "backup": ["Moss Hermit"], "hand": [STOP]},
              {"lead": "Kiln Warden", "charge": 1, "hand": [STOP]}, turn_player=1)
    field(g, "silenced")[0, 1] = 1
    do(g, "skill", skill(0, 0))
    pass_window(g, end_open=False)
    assert int(field(g, "mod_attack")[1, inst_at(g, 1, 0)]) == 10


def test_HB_M5_player_1s_swap_effect_moves_the_chosen_Back_Up_fighter() -> None:
    """HB-M5 (swap_lead by an effect), RULES.md's choices: player 1's Changing Currents with two standing Back-Up
    fighters and a rested one: player 1 picks slot 0 and that fighter becomes the Lead (the rested one cannot)."""
    g = build({"lead": "Kiln Warden", "hand": [STOP]},
              {"lead": "Reefling Scout", "backup": ["Pyre Duelist", "Moss Hermit", "Coral Sentinel:R"],
               "hand": ["Changing Currents", STOP]}, turn_player=1)
    do(g, "hand", 0)
    pass_window(g, end_open=False)
    assert int(field(g, "step")) == S.ST_CHOOSE
    assert is_legal(g, "swap", 0) and is_legal(g, "swap", 1) and not is_legal(g, "swap", 2)
    do(g, "swap", 0)
    pass_window(g, end_open=False)
    assert name_at(g, 1, 0) == "Pyre Duelist"


def test_HB_F6_low_heart_call_condition_at_its_boundary() -> None:
    """HB-F6 (call conditions, cards.toml's low_heart: 2 heart cards or fewer): Tidecaller Siren may be called with 1
    and with exactly 2 heart cards, not with 3."""
    for hearts, ok in ((1, True), (2, True), (3, False)):
        g = build({"lead": "Kiln Warden", "hand": ["Tidecaller Siren"], "charge": 3, "heart": [FILLER] * hearts},
                  {"lead": "Reefling Scout"})
        assert is_legal(g, "hand", 0) == ok, hearts


def test_HB_B2_a_non_attack_action_has_no_target() -> None:
    """HB-B2: an action with no number is not an attack: Mistveil Oracle's Ebb and Flow waits on the stack with
    no target (none shown in the observation), though the opponent has fighters at every instance number."""
    g = build({"lead": "Mistveil Oracle", "backup": ["Moss Hermit"], "hand": [STOP]},
              {"lead": "Reefling Scout", "backup": ["Pyre Duelist", "Moss Hermit"], "hand": [STOP]}, step=S.ST_ACTION)
    do(g, "act", 1)
    assert int(field(g, "stack_count")) == 1 and int(field(g, "stack")[0, S.SK_TARGET]) == -1
    for viewer in (0, 1):
        entry = OBS.get(_obs(g.states[0], viewer), "stack")[0]
        assert not entry[L.STACK_ENTRY_TARGET: L.STACK_ENTRY_TARGET + S.FIELD_CAP].any()


def test_HB_R2_a_legal_Turbo_in_the_action_phase_has_no_refusal_reason() -> None:
    """HB-R2/R3 and issue 16's reasons: a Turbo the turn player may play in the action phase is legal and has no
    reason recorded; the hand slots past the last card say there is no card."""
    g = build({"lead": "Kiln Warden", "hand": ["Flash Burn"], "charge": 1}, {"lead": "Reefling Scout"},
              step=S.ST_ACTION)
    why = why_codes(g.states[0], g.pool, 0)
    assert is_legal(g, "hand", 0) and why[A("hand", 0)] == 0
    assert reason_names(int(why[A("hand", 1)])) == ["no_hand_card"]


def test_HB_L5_order_refusals_name_the_other_players_trigger() -> None:
    """HB-L5/L6: while triggers wait, each one of the other player's is refused for that reason, wherever it lies
    in the queue (first, second, third)."""
    g = build({"lead": "Coral Sentinel", "backup": ["Thornwood Elder"], "hand": [STOP]},
              {"lead": "Harbor Warden", "backup": ["Briarback Boar"], "hand": [STOP]}, step=S.ST_TRIGGERS)
    trig = field(g, "trig")
    for j, (q, pos) in enumerate(((1, 0), (0, 0), (1, 1), (0, 1))):
        trig[j, S.TQ_PLAYER], trig[j, S.TQ_INST] = q, inst_at(g, q, pos)
    field(g, "trig_count")[...] = 4
    field(g, "trig_kind")[...] = T.TR_END
    why = why_codes(g.states[0], g.pool, 0)
    for j in range(4):
        names = reason_names(int(why[A("order", j)]))
        assert names == ([] if j % 2 else ["others_trigger"]), (j, names)


def _lead_from_backup(g: BatchGame, p: int) -> None:
    """Exchange ``p``'s Lead and Back-Up slot 0 (as a swap leaves them): the Lead is then instance 1, not the
    instance 0 every ``build`` Lead has, so a rule reading a fixed instance or the wrong player's Lead shows."""
    lead, first = int(field(g, "lead")[p, 0]), int(field(g, "backup")[p, 0])
    field(g, "lead")[p, 0], field(g, "backup")[p, 0] = first, lead


def test_HB_P1_L5_two_start_triggers_each_resolve_for_their_own_fighter() -> None:
    """HB-P1, L5: at the start of player 0's turn Coral Sentinel (the Lead: heal 10 itself) and Thornwood Elder
    (Back-Up 2, instance 2: put the deck's top card into its own stock) both trigger; player 0 orders them (either
    one first), the other one moves up the queue, each resolves for its own fighter, and the queue empties."""
    for first in (1, 0):
        g = build({"lead": "Coral Sentinel:d20", "backup": ["Moss Hermit", "Thornwood Elder"], "hand": [STOP]},
                  {"lead": "Reefling Scout", "hand": [STOP]}, turn_player=1, step=S.ST_CLIMAX)
        sentinel, elder = inst_at(g, 0, 0), inst_at(g, 0, 2)
        for _ in range(12):
            if int(field(g, "turn_player")) == 0 and int(field(g, "step")) == S.ST_TRIGGERS and int(g.to_act[0]) == 0:
                break
            do(g, "pass")
        assert int(field(g, "trig_count")) == 2
        assert [int(i) for i in field(g, "trig")[:2, S.TQ_INST]] == [sentinel, elder]
        do(g, "order", first)
        assert int(field(g, "trig_count")) == 1
        assert int(field(g, "trig")[0, S.TQ_INST]) == (sentinel, elder)[1 - first]  # the other one, now first
        assert int(field(g, "trig")[0, S.TQ_PLAYER]) == 0
        assert int(field(g, "trig")[1, S.TQ_INST]) == -1 and int(field(g, "trig")[1, S.TQ_PLAYER]) == -1
        pass_to(g, S.ST_MAIN, 0)
        assert int(field(g, "trig_count")) == 0
        assert damage_at(g, 0, 0) == 10  # healed 10
        under = [int(i) for i in field(g, "stock")[0, : int(field(g, "stock_count")[0])]]
        assert len(under) == 1 and int(field(g, "stock_host")[0, under[0]]) == elder
        assert not field(g, "face_up")[0, under[0]]  # HB-I15: face down


def test_HB_K1_a_Bypass_Lead_that_is_not_instance_0_targets_every_fighter_for_either_player() -> None:
    """HB-K1, B3/B4: a [Bypass] Lead (Ashfang Raider, swapped in: instance 1) may attack with the opposing Lead
    gone, since Back-Up fighters remain; a Lead without [Bypass] (the Back-Up Raider's partner) may not."""
    for p in (0, 1):
        sides = [{"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout", "hand": [STOP]}]
        sides[p] = {"lead": "Kiln Warden", "backup": ["Ashfang Raider"], "hand": [STOP]}
        sides[1 - p] = {"lead": None, "backup": ["Pyre Duelist"], "hand": [STOP]}
        g = build(*sides, turn_player=p, step=S.ST_ACTION)
        assert not is_legal(g, "act", 0), p  # Kiln Warden: no [Bypass], no opposing Lead
        _lead_from_backup(g, p)
        assert name_at(g, p, 0) == "Ashfang Raider"
        assert is_legal(g, "act", 0), p


def test_HB_B8_effects_on_a_Lead_that_is_not_instance_0() -> None:
    """HB-B8, HB-M3: Flash Burn's 20 effect damage goes to the opposing Lead and Reinforcements' +20 HP to the own
    Lead, where the Lead is instance 1 (after a swap), for either player."""
    for p in (0, 1):
        sides = [None, None]
        sides[p] = {"lead": "Kiln Warden", "backup": ["Moss Hermit"], "hand": ["Flash Burn", STOP], "charge": 1}
        sides[1 - p] = {"lead": "Reefling Scout", "backup": ["Pyre Duelist"], "hand": [STOP]}
        g = build(*sides, turn_player=p)
        _lead_from_backup(g, 0)
        _lead_from_backup(g, 1)
        do(g, "hand", 0)  # Flash Burn
        pass_window(g, end_open=False)
        assert damage_at(g, 1 - p, 0) == 20 and damage_at(g, 1 - p, 1) == 0, p
        do(g, "hand", 0)  # Reinforcements
        pass_window(g, end_open=False)
        assert int(field(g, "mod_hp")[p, inst_at(g, p, 0)]) == 20 and int(field(g, "mod_hp")[p, inst_at(g, p, 1)]) == 0


def test_HB_L4_silence_stops_the_skills_of_its_own_fighter_only() -> None:
    """HB-L4, L1: a silenced fighter cannot use its skills, whichever instance it is; its unsilenced partner can."""
    for silenced_pos in (0, 1):
        g = build({"lead": "Kiln Warden", "backup": ["Kiln Warden"], "charge": 2, "hand": [STOP]},
                  {"lead": "Reefling Scout"})
        field(g, "silenced")[0, inst_at(g, 0, silenced_pos)] = 1
        assert not is_legal(g, "skill", skill(silenced_pos, 0)), silenced_pos
        assert is_legal(g, "skill", skill(1 - silenced_pos, 0)), silenced_pos


def test_HB_C1_charging_a_card_changes_no_other_card() -> None:
    """HB-C1, P3: the charge step moves the chosen hand card (the tenth: instance 11) into the charge zone (face
    down) and draws; every other instance keeps its card, face and zone, and the game its random stream."""
    for p in (0, 1):
        sides = [{"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout", "hand": [STOP]}]
        sides[p] = {"lead": "Kiln Warden", "backup": ["Moss Hermit"], "hand": [FILLER] * 9 + ["Pyre Duelist"],
                    "discard": ["Final Flare"]}
        g = build(*sides, turn_player=1 - p, step=S.ST_CLIMAX)
        pass_to(g, S.ST_CHARGE, p)
        cards = field(g, "deck_list").copy()
        face = field(g, "face_up").copy()
        rng = int(field(g, "rng_counter"))
        charged = int(field(g, "hand")[p, 9])
        assert charged == 11
        do(g, "hand", 9)
        assert np.array_equal(field(g, "deck_list"), cards)
        assert zone_names(g, p, "charge") == ["Pyre Duelist"] and int(field(g, "charge")[p, 0]) == charged
        assert not field(g, "face_up")[p, charged]
        drawn = int(field(g, "hand")[p, int(field(g, "hand_count")[p]) - 1])
        face[p, drawn] = field(g, "face_up")[p, drawn]
        assert np.array_equal(field(g, "face_up"), face)
        assert int(field(g, "rng_counter")) == rng


def test_HB_E3_a_hand_past_60_cards_keeps_every_distinct_card_addressable() -> None:
    """HB-E3 (no hand limit), the 60 hand actions: a 61st card drawn into a hand of 60 copies of one card is
    placed among the first 60 places, where an action can name it."""
    g = build({"lead": "Kiln Warden", "hand": [FILLER] * 60, "deck": ["Pyre Duelist"]},
              {"lead": "Reefling Scout", "hand": [STOP]}, turn_player=1, step=S.ST_CLIMAX)
    pass_to(g, S.ST_CHARGE, 0)
    assert int(field(g, "hand_count")[0]) == 61
    assert "Pyre Duelist" in zone_names(g, 0, "hand")[:60]


def test_HB_S1_choosing_the_Lead_changes_no_other_card() -> None:
    """HB-S1: each player sets a deck fighter face down as its Lead; the deck lists and every other card's face
    stay as they were."""
    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=3)
    for _ in range(2):
        p = int(field(g, "setup_player"))
        cards = field(g, "deck_list").copy()
        face = field(g, "face_up").copy()
        options = np.flatnonzero(OBS.get(_obs(g.states[0], p), "lead_options")[:, L.LEAD_OPT_OFFERED])
        inst = int(options[-1])
        do(g, "choose_lead", inst, player=p)
        assert np.array_equal(field(g, "deck_list"), cards)
        if int(field(g, "step")) == S.ST_SETUP_LEAD:  # (the second choice reveals both Leads: HB-S6)
            assert np.array_equal(field(g, "face_up"), face) and int(field(g, "lead")[p, 0]) == inst


def test_HB_I16_player_1s_item_HP_counts_at_the_KO_boundary() -> None:
    """HB-I16, B10: player 1's Pyre Duelist (50 HP) with Kelp Mail (+20 HP): at 60 damage it stays, at 70 it is
    KO'd."""
    for damage, kod in ((60, False), (70, True)):
        g = build({"lead": "Kiln Warden", "hand": [STOP]},
                  {"lead": "Reefling Scout", "backup": [f"Pyre Duelist:d{damage}"],
                   "stock": [("Heartwood Charm", 0, True), ("Kelp Mail", 1, True)]})
        _ko_check(g)
        assert (name_at(g, 1, 1) == "-") == kod, damage


def test_HB_M5_swap_effect_choice_of_the_second_slot() -> None:
    """HB-M5, RULES.md's choices: Changing Currents' swap picks Back-Up slot 1 when its player says so."""
    g = build({"lead": "Kiln Warden", "backup": ["Pyre Duelist", "Moss Hermit"], "hand": ["Changing Currents", STOP]},
              {"lead": "Reefling Scout", "hand": [STOP]})
    do(g, "hand", 0)
    pass_window(g, end_open=False)
    do(g, "swap", 1)
    pass_window(g, end_open=False)
    assert name_at(g, 0, 0) == "Moss Hermit" and sorted([name_at(g, 0, 1), name_at(g, 0, 2)]) == [
        "Kiln Warden", "Pyre Duelist"]


def test_HB_F10_is_rested_reads_the_asked_players_fighter() -> None:
    """HB-F10: ``board.is_rested`` says whether the asked player's fighter is rested (player 1's rested Back-Up
    fighter, player 0's standing one of the same instance number)."""
    g = build({"lead": "Kiln Warden", "backup": ["Moss Hermit"]}, {"lead": "Reefling Scout", "backup": ["Pyre Duelist:R"]})
    row = g.states[0]
    assert is_rested(row, 1, inst_at(g, 1, 1)) and not is_rested(row, 0, inst_at(g, 0, 1))
    assert not is_rested(row, 1, inst_at(g, 1, 0))


def test_HB_I4_a_fighter_called_this_turn_evolves_from_the_next_turn_on() -> None:
    """HB-I4, I3: Cinderwing Hatchling called this turn (into Back-Up 1) cannot take the Drake this turn; in its
    owner's next turn it can; for either player."""
    for p in (0, 1):
        sides = [{"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout", "hand": [STOP]}]
        sides[p] = {"lead": "Kiln Warden", "hand": ["Cinderwing Hatchling", "Cinderwing Drake", STOP], "charge": 2}
        g = build(*sides, turn_player=p)
        do(g, "hand", 0)  # the call
        pass_window(g, end_open=False)
        assert name_at(g, p, 1) == "Cinderwing Hatchling"
        assert int(field(g, "face_up")[p, inst_at(g, p, 1)]) == 1  # called face up (state.py: 1)
        assert not is_legal(g, "onto", onto(0, 1)), p
        pass_to(g, S.ST_MAIN, 1 - p)
        pass_to(g, S.ST_MAIN, p)
        i = zone_names(g, p, "hand").index("Cinderwing Drake")
        assert is_legal(g, "onto", onto(i, 1)), p


def test_observation_positions_of_a_Lead_that_is_not_instance_0() -> None:
    """HB-R2, F5 (observation): with player 1's Lead and Back-Up 1 exchanged (the Lead is instance 1, Back-Up 1
    instance 0), the waiting [Counter] of that Back-Up fighter is shown at Back-Up 1, and every field reads back as
    in the state for both viewers."""
    g = _rich_position(0)
    _lead_from_backup(g, 1)
    field(g, "kw_counter")[...] = inst_at(g, 1, 1)
    field(g, "kw_attacker")[...] = inst_at(g, 0, 0)
    assert inst_at(g, 1, 1) == 0
    for viewer in (0, 1):
        check_observation_against_state(g, viewer)
        ctx = OBS.get(_obs(g.states[0], viewer), "context")
        assert list(np.flatnonzero(ctx[L.CTX_COUNTER_WAITING: L.CTX_COUNTER_WAITING + S.FIELD_CAP])) == [1]


# ------------------------------------------------------------------ cards the package's pool lacks, seen
#: an item with [Dual Strike], an action effect on the action's target, a fighter with a call ability beside an
#: end-of-turn ability that has a condition, and an attack whose own effect swaps the attacker out of the Lead (the
#: package's pool has none of these)
def _fighter(name: str, action: str, effects: str) -> str:
    """A level-1, 40-HP blaze fighter of the pool format (cards.toml) with one action and the given effects."""
    return (f'[[card]]\nname = "{name}"\ntype = "fighter"\nfighter_name = "{name}"\nalliance = "blaze"\nlevel = 1\n'
            f'hp = 40\nactions = [{{ {action} }}]\neffects = [{effects}]\n')


EXTRA_POOL = "\n".join((
    'alliances = ["blaze", "tide"]\n',
    '[[card]]\nname = "Twin Fang"\ntype = "item"\nalliance = "blaze"\nstrike = 2\n',
    _fighter("Pinning Hound", 'name = "Pin", damage = 20',
             '{ trigger = "action", index = 1, op = "rest", target = "action_target" }'),
    _fighter("Watchful Heron", 'name = "Peck", damage = 10',
             '{ trigger = "call", op = "draw", n = 1 }, '
             '{ trigger = "end_turn", condition = "own_turn", op = "heal", amount = 10, target = "self" }'),
    _fighter("Feint Dancer", 'name = "Feint", damage = 20', '{ trigger = "action", index = 1, op = "swap_lead" }'),
))


def with_extra_cards(tmp_path: Path, position: BatchGame, cards: dict[tuple[int, int], str]) -> BatchGame:
    """``position`` (built on the package's pool) in a game of the package's pool plus EXTRA_POOL (whose ids follow,
    so every package card keeps its id), each ``(player, instance)`` of ``cards`` now that extra card."""
    path = tmp_path / "extra.toml"
    path.write_text(EXTRA_POOL)
    pool = SPEC.load_pool([DEFAULT_POOL, path])
    assert all(pool.by_name[c["name"]] == POOL.by_name[c["name"]] for c in POOL.cards)
    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=0, pool=pool)
    g.states[0][:] = position.states[0]
    for (p, inst), name in cards.items():
        field(g, "deck_list")[p, inst] = pool.by_name[name]
    return g


def test_HB_K4_I16_an_items_Dual_Strike_rises_the_Lead_after_its_first_action(tmp_path: Path) -> None:
    """HB-K4/K5, I16 (extra pool: Twin Fang, an item with [Dual Strike]): the Lead that holds it rises after its
    first action of the turn and stays rested after its second."""
    g0 = build({"lead": "Kiln Warden", "stock": [("Emberforged Blade", 0, True)], "hand": [STOP]},
               {"lead": "Reefling Guardian", "hand": [STOP]}, step=S.ST_ACTION)
    item = int(field(g0, "stock")[0, 0])
    assert item != 0
    g = with_extra_cards(tmp_path, g0, {(0, item): "Twin Fang"})
    for acted, rested in ((1, False), (2, True)):
        do(g, "act", 0)
        pass_window(g, end_open=False)
        assert int(field(g, "acted")[0, inst_at(g, 0, 0)]) == acted
        assert rested_at(g, 0, 0) == rested, acted


def test_HB_A7_an_action_effect_on_the_actions_target(tmp_path: Path) -> None:
    """HB-A7, B6 (extra pool: Pinning Hound, whose attack rests its target): the action's own effect reaches the
    fighter it targets, the opposing Lead, and no other."""
    g0 = build({"lead": "Kiln Warden", "hand": [STOP]},
               {"lead": "Reefling Guardian", "backup": ["Pyre Duelist"], "hand": [STOP]}, step=S.ST_ACTION)
    g = with_extra_cards(tmp_path, g0, {(0, inst_at(g0, 0, 0)): "Pinning Hound"})
    do(g, "act", 0)
    pass_window(g, end_open=False)
    assert rested_at(g, 1, 0) and not rested_at(g, 1, 1)
    assert damage_at(g, 1, 0) == 10  # 20 less [Armor 10]


def test_HB_E1_L3_an_end_of_turn_ability_waits_only_when_its_condition_holds(tmp_path: Path) -> None:
    """HB-E1, L3 (extra pool: Watchful Heron, a call ability and an end-of-turn heal "if it is your turn"): at the
    end of the opponent's turn nothing of it waits (its call ability is no end-of-turn ability); at the end of its
    owner's turn the heal triggers and resolves."""
    g0 = build({"lead": "Kiln Warden", "hand": [STOP]},
               {"lead": "Reefling Scout", "backup": ["Pyre Duelist:d20"], "hand": [STOP]}, step=S.ST_CLIMAX)
    heron = inst_at(g0, 1, 1)
    g = with_extra_cards(tmp_path, g0, {(1, heron): "Watchful Heron"})
    for _ in range(20):  # player 0's end phase, up to player 1's main phase
        if int(field(g, "turn_player")) == 1 and int(field(g, "step")) == S.ST_MAIN:
            break
        assert int(field(g, "step")) != S.ST_TRIGGERS and int(field(g, "trig_count")) == 0
        stack = field(g, "stack")[: int(field(g, "stack_count"))]
        assert S.K_TRIGGER not in [int(k) for k in stack[:, S.SK_KIND]]  # (a lone trigger is ordered unasked)
        do(g, "pass")
    assert damage_at(g, 1, 1) == 20
    pass_to(g, S.ST_CLIMAX, 1)
    do(g, "pass")
    pass_to(g, S.ST_MAIN, 0)
    assert damage_at(g, 1, 1) == 10  # healed at the end of its owner's turn


# ------------------------------------------------------------------ the state's documented encoding
def test_state_encoding_of_calls_losses_counters_and_stock_hosts() -> None:
    """The state's documented values (state.py), which the text, ``hide`` and every reader rely on: a called
    fighter is face up as 1 (HB-F6); a break on an empty heart marks its owner lost as 1 (HB-H6); a [Counter] that
    fired leaves no attacker waiting (-1, HB-K3); a fresh game's stock hosts are -1 (none); the legal-action mask
    holds 1 for each legal action (HB-M4: the swap)."""
    g = build({"lead": "Kiln Warden", "backup": ["Moss Hermit"], "hand": [FILLER, STOP]},
              {"lead": "Reefling Scout", "hand": [STOP]})
    assert g.legal_mask([0])[0][A("swap", 0)] == 1
    do(g, "hand", 0)
    assert int(field(g, "face_up")[0, inst_at(g, 0, 2)]) == 1
    g = build({"lead": "Kiln Warden", "charge": 2, "hand": ["Blaze of Glory"]},
              {"lead": "Reefling Scout", "heart": [], "hand": [STOP]}, step=S.ST_CLIMAX)
    do(g, "hand", 0)
    pass_window(g, end_open=False)
    assert g.status[0] != LIVE and [int(v) for v in field(g, "lost")] == [0, 1]
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Coral Sentinel", "hand": [STOP]}, step=S.ST_ACTION)
    do(g, "act", 0)  # Coal Toss into [Counter 10]
    pass_window(g, end_open=False)
    assert damage_at(g, 0, 0) == 10 and damage_at(g, 1, 0) == 20  # the Counter hit back
    assert int(field(g, "kw_counter")) == -1 and int(field(g, "kw_attacker")) == -1
    fresh = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=0)
    assert (field(fresh, "stock_host") == -1).all()


def test_refusal_reasons_for_a_finished_game_and_for_the_waiting_player() -> None:
    """The mask's reasons (issue 16): the player not to act in a live game is refused every action as not its
    decision; once the game is over, both players are refused as the game being over."""
    g = build({"lead": "Kiln Warden", "hand": [STOP]}, {"lead": "Reefling Scout", "hand": [STOP]})
    assert {reason_names(int(b))[0] for b in why_codes(g.states[0], g.pool, 1)} == {"not_yours"}
    g = build({"lead": "Kiln Warden", "charge": 2, "hand": ["Blaze of Glory"]},
              {"lead": "Reefling Scout", "heart": [], "hand": [STOP]}, step=S.ST_CLIMAX)
    do(g, "hand", 0)
    pass_window(g, end_open=False)
    for p in (0, 1):
        assert {reason_names(int(b))[0] for b in why_codes(g.states[0], g.pool, p)} == {"game_over"}


def test_HB_K3_Counter_hits_an_attacker_its_own_action_moved_to_Back_Up(tmp_path: Path) -> None:
    """HB-K3, A7, B12 (extra pool: Feint Dancer, whose attack first swaps it with a Back-Up fighter): Coral
    Sentinel, attacked and not KO'd, deals its [Counter 10] to the attacker, now on Back-Up 1 (still on the
    field)."""
    g0 = build({"lead": "Kiln Warden", "backup": ["Moss Hermit"], "hand": [STOP]},
               {"lead": "Coral Sentinel", "hand": [STOP]}, step=S.ST_ACTION)
    dancer = inst_at(g0, 0, 0)
    g = with_extra_cards(tmp_path, g0, {(0, dancer): "Feint Dancer"})
    do(g, "act", 0)
    for _ in range(8):
        if g.status[0] != LIVE or int(field(g, "turn_player")) != 0 or int(field(g, "step")) in (S.ST_ACTION,
                                                                                                  S.ST_CLIMAX):
            break
        do(g, "swap" if int(field(g, "step")) == S.ST_CHOOSE else "pass")
    assert inst_at(g, 0, 1) == dancer and name_at(g, 0, 0) == "Moss Hermit"
    assert damage_at(g, 1, 0) == 20
    assert int(field(g, "damage")[0, dancer]) == 10  # the Counter hit it on Back-Up 1


def test_HB_S1_D9_instance_numbers_of_small_and_large_decks(tmp_path: Path) -> None:
    """HB-S1, D9 (reset_row's instance order): a deck of at most 60 cards keeps its listed order as the instance
    order; a larger one lists every card's first copy first (so the 60 choose_lead actions reach each), then the
    other copies in their order."""
    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=0)
    for p, name in enumerate(("blaze", "tide")):
        ids = [int(c) for c in load_deck(name, POOL).card_ids]
        assert len(ids) <= S.LEAD_SLOTS
        assert [int(c) for c in field(g, "deck_list")[p, : len(ids)]] == ids
        assert (field(g, "deck_list")[p, len(ids):] == -1).all()
    path = tmp_path / "all.toml"
    path.write_text('name = "all"\ndescription = "4 of each"\nformat = "wild"\n[cards]\n'
                    + "\n".join(f'"{name}" = 4' for name in POOL.by_name) + "\n")
    big = load_deck(path, POOL)
    ids = [int(c) for c in big.card_ids]
    g = BatchGame(SPEC, 1, decks=(big, "tide"), seed=0)
    firsts = list(dict.fromkeys(ids))
    rest = list(ids)
    for c in firsts:
        rest.remove(c)
    assert len(ids) > S.LEAD_SLOTS
    assert [int(c) for c in field(g, "deck_list")[0, : len(ids)]] == firsts + rest
    assert (field(g, "deck_list")[0, len(ids):] == -1).all()


def test_HB_K3_Counter_hits_an_attacking_Lead_that_is_not_instance_0() -> None:
    """HB-K3, B12: Coral Sentinel's [Counter 10] hits player 0's attacking Lead, here instance 1 (swapped in), though
    player 1 has no fighter of that instance number; and the attacker of either instance when player 1 attacks."""
    g = build({"lead": "Moss Hermit", "backup": ["Kiln Warden"], "hand": [STOP]},
              {"lead": "Coral Sentinel", "hand": [STOP]}, step=S.ST_ACTION)
    _lead_from_backup(g, 0)
    assert inst_at(g, 0, 0) == 1 and name_at(g, 0, 0) == "Kiln Warden"
    do(g, "act", 0)  # Coal Toss, 20
    pass_window(g, end_open=False)
    assert damage_at(g, 1, 0) == 20 and damage_at(g, 0, 0) == 10  # the Counter hit back
    g = build({"lead": "Coral Sentinel", "hand": [STOP]},
              {"lead": "Moss Hermit", "backup": ["Kiln Warden"], "hand": [STOP]}, turn_player=1, step=S.ST_ACTION)
    _lead_from_backup(g, 1)
    do(g, "act", 0)
    pass_window(g, end_open=False)
    assert damage_at(g, 0, 0) == 20 and damage_at(g, 1, 0) == 10


def test_HB_L2_a_skill_once_per_turn_marks_its_own_fighter_only() -> None:
    """HB-L2: each fighter uses each skill once per turn: after Back-Up 1's Kiln Warden (instance 1) uses Fan the
    Coals, it cannot again, while the Lead's Kiln Warden (instance 0) still can; for either player."""
    for p in (0, 1):
        sides = [{"lead": "Reefling Scout", "hand": [STOP]}, {"lead": "Reefling Scout", "hand": [STOP]}]
        sides[p] = {"lead": "Kiln Warden", "backup": ["Kiln Warden"], "charge": 3, "hand": [STOP]}
        g = build(*sides, turn_player=p)
        do(g, "skill", skill(1, 0))
        pass_window(g, end_open=False)
        assert not is_legal(g, "skill", skill(1, 0)), p
        assert is_legal(g, "skill", skill(0, 0)), p
