"""Issue 39: scenarios written for the mutants that survived levelneo's game suite (docs/mutation/levelneo.md): each
viewer's own and opposing fields read from the right player (positions that differ between the players, seen from
both seats: a mutant that reads player 0's field for player 1 survives a symmetric position), the card block's
exact values, the colour and trait rules against a card of another colour or trait, and the defender's skills for
the right side when both players own an instance with the same number."""
from __future__ import annotations

import numpy as np

from cardenvs.games.levelneo.obs_layout import (
    AP_STORED_MAX, AP_UNIT, BATTLE_AP_ATTACKER, BATTLE_AP_DEFENDER, CARD, CHAR_AP_NOW, CHAR_AP_TURN, CHAR_FACE_UP,
    CHAR_RESTED, CONTEXT_BATTLE, CONTEXT_BURST_FAILED_OPP, CONTEXT_BURST_FAILED_OWN, CONTEXT_COMBI,
    CONTEXT_MULLIGAN_USED_OPP,
    CONTEXT_MULLIGAN_USED_OWN, CONTEXT_MY_DECISION, CONTEXT_MY_TURN, CONTEXT_NO_LEVEL_DOWN_OPP,
    CONTEXT_NO_LEVEL_DOWN_OWN, CONTEXT_OPP_NEO, CONTEXT_OWN_NEO, COUNT_DECK, COUNT_DISCARD, COUNT_FACE_DOWN_LEVEL,
    COUNT_HAND, COUNT_SUPPORTS, OBS,
)
from cardenvs.core.batch import BatchGame
from cardenvs.testing import check_observation_range
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.state import (
    DECK_SIZE, NUM_STEPS, ST_ATTACK, ST_CHOOSE_MAIN, ST_DECL_WINDOW, ST_END, ST_LEVEL_UP, ST_MAIN,
)
from cardenvs.games.levelneo.tables import (
    C_AP, C_COLOR, C_HAS_BURST, C_HAS_CONT, C_HAS_START, C_MAIN_OK, C_TRAITS, C_TURN_COST, C_TYPE, C_USE_EFFECT,
)

from levelneo_helpers import (
    FILLER, POOL, A, ap, build, do, field, inst_of, is_legal, judge, level, step_name, zone_names,
)

CTAB = POOL.tables.cards
OPP = {"main": "Harbor Watch"}


def _asymmetric():
    """Player 1 to act in player 0's main phase window; every per-player field differs between the players."""
    g = build({"main": "Ashen Recruit", "supports": ["Meadow Scout:R"], "hand": ["Insight", "Undertow"],
               "level": ["Clumsy Page"], "discard": ["Rusty Bot"]},
              {"main": "Harbor Watch", "supports": ["Meadow Scout", "Frost Sage", "Brass Footman"],
               "hand": ["Insight"] * 4, "level": ["Clumsy Page:up", "Lost Lamb", "Drowsy Ghost"]},
              markers=(3, 5), sub=1)
    field(g, "mulligan_used")[:] = (1, 0)
    field(g, "no_level_down")[:] = (0, 1)
    field(g, "burst_failed")[:] = (1, 0)
    return g


def test_LN_L1_each_viewer_reads_its_own_and_the_opposing_fields() -> None:
    """Markers, levels, zone counts and per-player flags, from both seats of an asymmetric position."""
    g = _asymmetric()
    assert int(g.to_act[0]) == 1
    for viewer in (0, 1):
        o = g.observe([viewer])[0]
        own, opp = viewer, 1 - viewer
        ctx = OBS.get(o, "context")
        step = OBS.get(o, "step")
        assert step[ST_MAIN] == 1 and step.sum() == 1 and len(step) == NUM_STEPS
        assert ctx[CONTEXT_MY_DECISION] == (viewer == 1) and ctx[CONTEXT_MY_TURN] == (viewer == 0)
        assert list(OBS.get(o, "markers")) == [field(g, "marker")[q] for q in (own, opp)]  # stored as counts
        assert list(OBS.get(OBS.float_view(o), "markers")) == [np.float32(field(g, "marker")[q] / 10)
                                                              for q in (own, opp)]  # read / 10
        assert list(OBS.get(o, "levels")) == [1 + field(g, "level_count")[q] for q in (own, opp)]
        counts = OBS.get(o, "counts")
        for side, q in enumerate((own, opp)):
            assert counts[side, COUNT_DECK] == field(g, "deck_count")[q]
            assert counts[side, COUNT_HAND] == field(g, "hand_count")[q]
            assert counts[side, COUNT_SUPPORTS] == field(g, "support_count")[q]
            assert counts[side, COUNT_DISCARD] == field(g, "discard_count")[q]
            read = OBS.get(OBS.float_view(o), "counts")[side]
            assert read[COUNT_DECK] == np.float32(field(g, "deck_count")[q] / 10)
            assert read[COUNT_DISCARD] == np.float32(field(g, "discard_count")[q] / 10)
        assert list(counts[:, COUNT_FACE_DOWN_LEVEL]) == ([1, 2] if viewer == 0 else [2, 1])
        for flag_own, flag_opp, name in ((CONTEXT_MULLIGAN_USED_OWN, CONTEXT_MULLIGAN_USED_OPP, "mulligan_used"),
                                         (CONTEXT_NO_LEVEL_DOWN_OWN, CONTEXT_NO_LEVEL_DOWN_OPP, "no_level_down"),
                                         (CONTEXT_BURST_FAILED_OWN, CONTEXT_BURST_FAILED_OPP, "burst_failed")):
            assert (ctx[flag_own], ctx[flag_opp]) == (field(g, name)[own], field(g, name)[opp]), name
        assert ctx[CONTEXT_OWN_NEO] == 0 and ctx[CONTEXT_OPP_NEO] == 0
        sup = OBS.get(o, "supports")
        assert sup[0 if viewer == 0 else 1, 0, CHAR_RESTED] == 1  # player 0's resting Meadow Scout
        assert sup[1 if viewer == 0 else 0, 0, CHAR_RESTED] == 0
        main = OBS.get(o, "main")
        assert main[0, CHAR_FACE_UP] == 1 and main[1, CHAR_FACE_UP] == 1
        assert main[0, CARD.offset("card_id")] == POOL.by_name["Ashen Recruit" if viewer == 0 else "Harbor Watch"] + 1


def test_LN_L5_level_neo_flags_are_the_viewers_own_and_the_opponents() -> None:
    """A level-5 main shows as own_neo to its player and opp_neo to the other (LN-L5)."""
    g = build({"main": "Ashen Recruit", "level": ["Clumsy Page"] * 4}, {"main": "Harbor Watch"})
    for viewer, own, opp in ((0, 1, 0), (1, 0, 1)):
        ctx = OBS.get(g.observe([viewer])[0], "context")
        assert (ctx[CONTEXT_OWN_NEO], ctx[CONTEXT_OPP_NEO]) == (own, opp)


def test_card_block_holds_the_card_table_values_exactly() -> None:
    """The CARD block of a hand card: one-hot type and colour at 1, turn cost, AP in hundreds, the trait bits, the skill
    flags and main capability as in the card table (Banner Knight: [Use], turn cost 2; Ashen Recruit: vanilla,
    main-capable; Rally Banner: an event)."""
    g = build({"main": "Ashen Recruit", "hand": ["Banner Knight", "Ashen Recruit", "Rally Banner"]}, OPP)
    hand = OBS.get(g.observe([0])[0], "hand")
    for slot, name in enumerate(("Banner Knight", "Ashen Recruit", "Rally Banner")):
        c = POOL.by_name[name]
        f = {fld.name: hand[slot][CARD.offset(fld.name):CARD.offset(fld.name) + int(np.prod(fld.shape or (1,)))]
             for fld in CARD.fields}
        assert f["present"][0] == 1
        assert list(f["type"]) == [1.0 if k == CTAB[c, C_TYPE] else 0.0 for k in range(len(f["type"]))]
        assert list(f["color"]) == [1.0 if k == CTAB[c, C_COLOR] else 0.0 for k in range(len(f["color"]))]
        assert f["turn_cost"][0] == CTAB[c, C_TURN_COST]
        assert f["ap"][0] * AP_UNIT == CTAB[c, C_AP]
        assert list(f["traits"]) == [float((CTAB[c, C_TRAITS] >> b) & 1) for b in range(len(f["traits"]))]
        assert f["has_use"][0] == (1.0 if CTAB[c, C_USE_EFFECT] >= 0 else 0.0)
        assert (f["has_cont"][0], f["has_start"][0], f["has_burst"][0]) == (
            CTAB[c, C_HAS_CONT], CTAB[c, C_HAS_START], CTAB[c, C_HAS_BURST])
        assert f["main_capable"][0] == CTAB[c, C_MAIN_OK]
        assert f["card_id"][0] == c + 1
    assert hand[0][CARD.offset("has_use")] == 1 and hand[1][CARD.offset("has_use")] == 0


def _battle(turn_player: int, partner: bool) -> object:
    """A declared main attack of ``turn_player`` (with a support partner or alone), at the declaration window."""
    atk = {"main": "Ashen Recruit", "supports": ["Meadow Scout"]}
    dfn = {"main": "Harbor Watch", "supports": ["Brass Footman"]}
    sides = (atk, dfn) if turn_player == 0 else (dfn, atk)
    g = build(*sides, turn_player=turn_player, step=ST_DECL_WINDOW)
    tp, op = turn_player, 1 - turn_player
    field(g, "battle")[...] = 1
    field(g, "atk_a")[...] = inst_of(g, tp, "main")
    field(g, "atk_b")[...] = inst_of(g, tp, "support", 0) if partner else -1
    field(g, "target")[...] = inst_of(g, op, "main")
    field(g, "orig_target")[...] = inst_of(g, op, "main")
    return g


def test_LN_A4_battle_ap_and_combi_flag_for_either_turn_player() -> None:
    """The battle's AP sums and the combi flag: with and without a partner, the turn player being either seat."""
    for tp in (0, 1):
        for partner in (False, True):
            g = _battle(tp, partner)
            for viewer in (0, 1):
                o = g.observe([viewer])[0]
                ctx = OBS.get(o, "context")
                assert ctx[CONTEXT_BATTLE] == 1 and ctx[CONTEXT_COMBI] == (1 if partner else 0), (tp, partner)
                battle = OBS.get(o, "battle_ap")
                atk = ap(g, tp, "main") + (ap(g, tp, 0) if partner else 0)
                assert battle[BATTLE_AP_ATTACKER] * AP_UNIT == atk, (tp, partner, viewer)
                assert battle[BATTLE_AP_DEFENDER] * AP_UNIT == ap(g, 1 - tp, "main"), (tp, partner, viewer)


def test_ap_at_the_extremes_is_stored_without_wrapping() -> None:
    """Issue 41: AP is stored in hundreds as int16 (RULES.md "Caps"). The most one character can reach (20,000 printed
    + 2,000 + 80 cards x 4 effects x 10,000 = 3,222,000; here +3,200,000 until end of turn) is stored exactly, the
    same AP down reads -32,000 hundreds, and a combi summing past 32,767 hundreds reads that bound: clamped, never
    wrapped (the checker's range guard observes into float64 and finds every entry equal)."""
    g = _battle(0, partner=True)
    main, partner, target = inst_of(g, 0, "main"), inst_of(g, 0, "support", 0), inst_of(g, 1, "main")
    base = ap(g, 0, "main")
    field(g, "ap_turn")[0, [main, partner]] = 3_200_000
    field(g, "ap_turn")[1, target] = -3_200_000
    o = g.observe([0])[0]
    own, opp = OBS.get(o, "main")
    assert int(own[CHAR_AP_NOW]) * AP_UNIT == base + 3_200_000 and own[CHAR_AP_TURN] == 32_000
    assert opp[CHAR_AP_TURN] == -32_000 and opp[CHAR_AP_NOW] == 0  # AP never below 0
    assert OBS.get(o, "battle_ap")[BATTLE_AP_ATTACKER] == AP_STORED_MAX  # 6.4M AP summed: the bound, not negative
    assert OBS.get(OBS.float_view(o), "main")[0, CHAR_AP_NOW] == np.float32((base + 3_200_000) / 1000)
    check_observation_range(g, g.states, np.array([0], np.int32), o[None])


def test_LN_D4_colour_cost_is_a_character_of_exactly_that_colour() -> None:
    """A green support needs a green character: a yellow one (a colour listed after green) does not pay for it,
    nor a red one (listed before); a green support does (LN-D4)."""
    for supports, legal in ((["Brass Footman"], False), (["Ashen Recruit"], False), (["Meadow Scout"], True)):
        g = build({"main": "Harbor Watch", "supports": supports, "hand": ["Lost Lamb"]}, OPP)
        assert is_legal(g, "hand", 0) == legal, supports


def test_LN_K1_has_trait_condition_needs_that_trait_not_a_larger_bit() -> None:
    """Wildheart Ranger gets +500 while a Spirit is on its field (LN-K1): not with a Machine main (a trait whose bit
    is larger than Spirit's) and no Spirit, yes with a Spirit main."""
    assert CTAB[POOL.by_name["Brass Footman"], C_TRAITS] > CTAB[POOL.by_name["Seedling Sprite"], C_TRAITS]
    for main, bonus in (("Brass Footman", 0), ("Seedling Sprite", 500)):
        g = build({"main": main, "supports": ["Wildheart Ranger"]}, OPP)
        assert ap(g, 0, 0) == CTAB[POOL.by_name["Wildheart Ranger"], C_AP] + bonus, main


def test_LN_K1_defending_condition_is_the_defenders_side_only() -> None:
    """Frost Sage's +500 while defending: the turn player's Frost Sage with the same instance number as the defending
    support gets nothing; the defending Frost Sage gets it."""
    g = build({"main": "Ashen Recruit", "supports": ["Frost Sage", "Meadow Scout"]},
              {"main": "Harbor Watch", "supports": ["Frost Sage:R"]}, step=ST_DECL_WINDOW)
    own_sage, their_sage = inst_of(g, 0, "support", 0), inst_of(g, 1, "support", 0)
    assert own_sage == their_sage  # instance numbers are per player
    field(g, "battle")[...] = 1
    field(g, "atk_a")[...] = inst_of(g, 0, "support", 1)
    field(g, "target")[...] = their_sage
    field(g, "orig_target")[...] = their_sage
    base = CTAB[POOL.by_name["Frost Sage"], C_AP]
    assert ap(g, 0, 0) == base
    assert OBS.get(g.observe([1])[0], "supports")[0, 0, CHAR_AP_NOW] * AP_UNIT == base + 500


# ---------------------------------------------------------------------------- rules seen from player 1's seat too
def test_LN_T2_an_own_turn_event_is_refused_in_the_opponents_turn_for_either_seat() -> None:
    """Mind Drain (main phase, own turn) in the opponent's main-phase window: refused for either seat; Undertow
    (any turn) is offered there."""
    for tp in (0, 1):
        me = 1 - tp
        mine = {"main": "Harbor Watch", "hand": ["Mind Drain", "Undertow"]}
        theirs = {"main": "Ashen Recruit", "supports": ["Meadow Scout"], "hand": ["Clumsy Page"]}
        g = build(*((theirs, mine) if tp == 0 else (mine, theirs)), turn_player=tp, sub=1)
        assert int(g.to_act[0]) == me
        assert not is_legal(g, "hand", 0) and is_legal(g, "hand", 1), tp


def test_LN_A3_support_attack_needs_a_resting_target_of_either_seat() -> None:
    """A support may attack only when the opponent has a resting character (LN-A3), whichever seat attacks: a
    resting support of the opponent is enough (also in its second slot), an Active field is not."""
    for tp in (0, 1):
        for rested, legal in ((True, True), (False, False)):
            atk = {"main": "Ashen Recruit", "supports": ["Meadow Scout"]}
            # the resting one in the second slot and a short deck (empty deck slots hold -1): a support count read
            # from another field (a deck entry) stops before it
            dfn = {"main": "Harbor Watch", "supports": ["Brass Footman", "Rusty Bot:R" if rested else "Rusty Bot"],
                   "deck": ["Clumsy Page"] * 3, "fill": False}
            g = build(*((atk, dfn) if tp == 0 else (dfn, atk)), turn_player=tp, step=ST_ATTACK)
            assert is_legal(g, "attack", 1) == legal, (tp, rested)


def test_LN_S2_choose_main_offers_only_cards_of_the_deck_list() -> None:
    """A deck list shorter than 40 (an unchecked deck): the empty instances are no main character to choose."""
    g = build({"main": "Brass Footman", "deck": ["Ashen Recruit"], "fill": False}, OPP, step=ST_CHOOSE_MAIN)
    n = int((field(g, "deck_list")[0] >= 0).sum())
    assert n == 2
    assert is_legal(g, "choose_main", 0) and is_legal(g, "choose_main", 1)
    assert not any(is_legal(g, "choose_main", i) for i in range(n, DECK_SIZE))


def test_LN_L2_the_level_up_offer_is_a_plain_legal_action() -> None:
    """After a won battle the level up and the pass are offered, as 1 in the mask like every legal action."""
    g = build({"main": "Ashen Recruit"}, OPP, step=ST_ATTACK)
    do(g, "attack", 0)
    for _ in range(10):
        if step_name(g) == ST_LEVEL_UP:
            break
        g.step([A("pass")])
    assert step_name(g) == ST_LEVEL_UP
    mask = g.legal_mask(g.to_act.copy())[0]
    assert set(np.unique(mask)) == {0, 1} and mask[A("level_up")] == 1 and mask[A("pass")] == 1


def test_LN_T2_a_support_played_by_player_1_is_face_up() -> None:
    """A support enters the field face up, whichever seat plays it: the other player sees it."""
    g = build(OPP, {"main": "Ashen Recruit", "hand": ["Clumsy Page"]}, turn_player=1)
    do(g, "hand", 0)
    inst = inst_of(g, 1, "support", 0)
    assert field(g, "face_up")[1, inst] == 1 and field(g, "played")[1, inst] == 1
    sup = OBS.get(g.observe([0])[0], "supports")[1, 0]
    assert sup[CHAR_FACE_UP] == 1 and sup[CARD.offset("card_id")] == POOL.by_name["Clumsy Page"] + 1


def test_LN_J1_L2_player_1s_losing_attack_lets_player_0s_main_level_up() -> None:
    """Player 1's main (1500 on its turn) attacks player 0's main (2500): the defender wins, may level up (LN-L2) and
    loses no level (LN-J1 judged for the turn player's opponent)."""
    g = build({"main": "Harbor Watch", "level": [FILLER]}, {"main": "Clumsy Page", "hand": ["Clumsy Page"]},
              turn_player=1, step=ST_ATTACK)
    do(g, "attack", 0)
    judge(g, level_up=True)
    assert level(g, 0) == 3 and level(g, 1) == 1


def test_LN_J5_player_1s_winning_attack_levels_player_0_down() -> None:
    """The judgement with player 1 as turn player: its main beats player 0's main, player 0 levels down (LN-J5)."""
    g = build({"main": "Harbor Watch", "level": [FILLER]}, {"main": "Ashen Recruit", "hand": ["Clumsy Page"]},
              turn_player=1, step=ST_ATTACK)
    do(g, "attack", 0)
    judge(g)
    assert level(g, 0) == 1 and zone_names(g, 0, "discard") == [FILLER]


def test_LN_T7_end_of_turn_discard_takes_the_chosen_slot_beyond_the_fourth() -> None:
    """The end-of-turn discard removes exactly the chosen hand card, also from slot 5 and later (LN-T7)."""
    hand = ["Clumsy Page"] * 5 + ["Flashfire", "Clumsy Page", "Clumsy Page"]
    g = build({"main": "Ashen Recruit", "hand": hand}, OPP, main_phase=2)
    do(g, "pass")  # main phase 2 over (the opponent, with an empty hand, has no window)
    assert step_name(g) == ST_END and int(g.to_act[0]) == 0
    do(g, "hand", 5)
    assert zone_names(g, 0, "discard") == ["Flashfire"]


def test_LN_S3_a_new_game_starts_with_every_zone_empty() -> None:
    """After reset, before any decision: both hands, fields, level zones and discard piles hold no card (-1)."""
    g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=1)
    for zone in ("hand", "support", "level", "discard"):
        assert (field(g, zone) == -1).all(), zone
    assert (field(g, "main") == -1).all()
    assert (field(g, "deck_list") >= 0).all()
