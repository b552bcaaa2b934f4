"""Issue 39, levelneo's test-strength target: scenarios for the mutants that survived the game's suite in the
measurement of docs/mutation/levelneo.md (commit faeda32, seed 39). Each test names the rule it checks and builds a
position where the mutated line makes a difference, mostly one the symmetric or instance-0 positions of the other
tests cannot: player 1 as the turn player, mains and supports whose instance numbers differ between the players and
from 0, every kind of AP modifier read back, a state's documented encoding. The mutants no position can tell apart
from the rules are listed with their reasons in docs/mutation/levelneo.md (prose above the generated tables)."""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.effects import compute_ap
from cardenvs.games.levelneo.obs_layout import (
    AP_UNIT, CARD, CHAR_AP_NOW, CHAR_ATTACKED, CONTEXT_CHOICE_ACTIVATE, CONTEXT_CHOICE_AP_DOWN, CONTEXT_CHOICE_AP_UP,
    CONTEXT_CHOICE_ON_OPP_SUPPORTS, CONTEXT_CHOICE_OPP, CONTEXT_CHOICE_OWN, CONTEXT_CHOICE_REST, CONTEXT_RESULT_ATTACKER,
    CONTEXT_RESULT_DEFENDER, CONTEXT_RESULT_TIE, OBS,
)
from cardenvs.games.levelneo.state import (
    ST_ATTACK, ST_BATTLE_WINDOW, ST_BURST, ST_LEVEL_UP, ST_MULLIGAN,
)
from cardenvs.games.levelneo.tables import C_AP
from cardenvs.games.levelneo.text import FALLBACK

from levelneo_helpers import (
    POOL, A, build, do, field, inst_of, is_legal, judge, legal, pass_until, step_name, zone_names,
)

#: per-instance fields of the state (``[2, DECK_SIZE]``, indexed by instance)
PER_INSTANCE = ("deck_list", "rested", "face_up", "attacked", "ap_turn", "ap_next", "ap_battle", "drawn", "played")
ZONES = ("deck", "hand", "main", "support", "level", "discard")
CTAB = POOL.tables.cards


def swap_instances(g: BatchGame, p: int, i: int, j: int) -> None:
    """Renumber player ``p``'s card instances ``i`` and ``j`` (each keeps its card, zone, slot and flags): the same
    position with other instance numbers. ``build`` numbers the main 0 for both players, so a rule that reads the
    wrong player's main (or a constant 0) cannot be told from the right one there."""
    for name in PER_INSTANCE:
        a = field(g, name)[p]
        a[[i, j]] = a[[j, i]]
    for zone in ZONES:
        z = field(g, zone)[p]
        at_i, at_j = z == i, z == j
        z[at_i], z[at_j] = j, i


def renumber_mains(g: BatchGame, insts: tuple[int, int] = (7, 9)) -> None:
    """Give player 0's main instance ``insts[0]`` and player 1's ``insts[1]`` (deck cards take their old numbers)."""
    for p, k in enumerate(insts):
        swap_instances(g, p, inst_of(g, p, "main"), k)
    assert [inst_of(g, p, "main") for p in (0, 1)] == list(insts)


def explain(g: BatchGame, name: str, index: int = 0) -> str:
    p = int(g.to_act[0])
    assert not is_legal(g, name, index, p), f"{name} {index} is legal here"
    text = SPEC.explain_illegal(g.states[0], g.pool, p, A(name, index))
    assert text and text != FALLBACK
    return text


def observe(g: BatchGame, viewer: int) -> np.ndarray:
    return g.observe([viewer])[0].copy()


# ----------------------------------------------------------------------------------------------- Level Burst
def test_LN_B1_the_attacking_main_bursts_whichever_seat_attacks_and_whatever_its_instance() -> None:
    """LN-B1: the attacking main takes part in its battle and may burst; an attacking support's main does not. The
    mains carry instance numbers that differ between the players and from 0 and 1 (a rule that compared the
    attacker with player 0's main, or with a header entry, passed on ``build``'s numbering)."""
    for tp in (0, 1):
        for main_attacks in (True, False):
            atk = {"main": "Ashen Recruit", "supports": ["Meadow Scout"], "level": ["Clumsy Page"]}
            dfn = {"main": "Harbor Watch:R", "level": ["Clumsy Page"]}
            g = build(*((atk, dfn) if tp == 0 else (dfn, atk)), turn_player=tp, step=ST_BURST, to_act=tp)
            renumber_mains(g)
            field(g, "battle")[...] = 1
            field(g, "burst_player")[...] = tp
            field(g, "atk_a")[...] = inst_of(g, tp, "main") if main_attacks else inst_of(g, tp, "support", 0)
            field(g, "target")[...] = inst_of(g, 1 - tp, "main")
            field(g, "orig_target")[...] = inst_of(g, 1 - tp, "main")
            assert is_legal(g, "burst", 0, tp) == main_attacks, (tp, main_attacks)
            if not main_attacks:
                assert "your main character is not in this battle" in explain(g, "burst")


# ------------------------------------------------------------------------------------------------- attacks
def test_LN_A1_a_support_that_attacked_cannot_attack_again_even_when_made_active() -> None:
    """LN-A1: each character attacks at most once per turn. Player 0's second support (instance 2) attacks and
    loses nothing (a tie is not needed: it beats the resting main); made Active again (as Solar Engineer would), it
    is still refused as having attacked, and both players see it marked; the main, which has not attacked, may."""
    g = build({"main": "Ashen Recruit", "supports": ["Clumsy Page", "Meadow Scout"], "hand": ["Clumsy Page"]},
              {"main": "Lost Lamb:R"}, step=ST_ATTACK)
    scout = inst_of(g, 0, "support", 1)
    assert scout == 2
    do(g, "attack", 2)  # support slot 2: Meadow Scout
    do(g, "pass")  # no partner; the resting main is the only target
    assert int(field(g, "battle")) == 1 and int(field(g, "atk_a")) == scout
    assert int(field(g, "attacked")[0, scout]) == 1
    for viewer in (0, 1):
        side = 0 if viewer == 0 else 1
        assert OBS.get(observe(g, viewer), "supports")[side, 1, CHAR_ATTACKED] == 1, viewer
    judge(g)
    do(g, "pass")  # leave the battle window after the battle (back to the attack declaration)
    assert step_name(g) == ST_ATTACK
    field(g, "rested")[0, scout] = 0
    assert not is_legal(g, "attack", 2) and "already attacked this turn" in explain(g, "attack", 2)
    assert is_legal(g, "attack", 0)


def test_LN_A1_each_refused_support_attack_names_its_own_reason() -> None:
    """LN-A1: with a resting target on the other side, support 1 (resting) and support 2 (already attacked) are
    refused each for its own reason, support 3 (Active) may attack."""
    g = build({"main": "Ashen Recruit", "supports": ["Clumsy Page:R", "Meadow Scout", "Brass Footman"]},
              {"main": "Lost Lamb:R"}, step=ST_ATTACK)
    field(g, "attacked")[0, inst_of(g, 0, "support", 1)] = 1
    assert "is resting [R]: only an Active character can attack" in explain(g, "attack", 1)
    assert "already attacked this turn" in explain(g, "attack", 2)
    assert is_legal(g, "attack", 3) and is_legal(g, "attack", 0)


def test_LN_A4_a_solo_attack_declares_no_partner() -> None:
    """LN-A4: passing at the partner step declares the attack alone: the partner field holds -1, the state's one
    encoding of "no partner" (state.py; text.py, hide() and tools read it), for either turn player."""
    for tp in (0, 1):
        atk = {"main": "Ashen Recruit", "supports": ["Meadow Scout"], "hand": ["Clumsy Page"]}
        dfn = {"main": "Harbor Watch", "hand": ["Clumsy Page"]}
        g = build(*((atk, dfn) if tp == 0 else (dfn, atk)), turn_player=tp, step=ST_ATTACK)
        do(g, "attack", 0)
        do(g, "pass")  # no partner
        assert int(field(g, "atk_b")) == -1 and int(field(g, "battle")) == 1, tp


# ---------------------------------------------------------------------------------------------------- level
def test_LN_L2_level_up_moves_the_top_card_and_nothing_else() -> None:
    """LN-L2: a level up takes the top card of the deck into the level zone face down; the rest of the deck, every
    card's identity (deck list) and the other player's cards stay as they were. The top card has a small instance
    number (a short deck), where a write meant for its face-up flag but sent elsewhere lands in the deck list."""
    g = build({"main": "Ashen Recruit", "hand": ["Clumsy Page"],
               "deck": ["Lost Lamb", "Rusty Bot", "Drowsy Ghost", "Meadow Scout"], "fill": False},
              {"main": "Clumsy Page"}, step=ST_ATTACK)
    top = int(field(g, "deck")[0, 3])
    assert top == 5  # main 0, hand 1, deck 2..5 (the top is the last)
    before = {name: field(g, name).copy() for name in ("deck_list", "face_up", "hand", "support", "discard")}
    do(g, "attack", 0)
    judge(g, level_up=True)
    assert zone_names(g, 0, "level") == ["Meadow Scout"] and int(field(g, "level")[0, 0]) == top
    assert zone_names(g, 0, "deck") == ["Lost Lamb", "Rusty Bot", "Drowsy Ghost"]
    assert int(field(g, "face_up")[0, top]) == 0
    for name, value in before.items():
        assert np.array_equal(field(g, name), value), name


# ------------------------------------------------------------------------------------- AP seen in the observation
def test_LN_T8_every_ap_modifier_counts_in_the_observed_ap_of_either_player() -> None:
    """LN-T8 (and LN-L4 for the turn player's main): an AP modifier until end of turn, until the end of the next
    battle or for this battle counts in the observed current AP, alone and together, on player 1's characters too
    (the observation's AP equals the rules' ``compute_ap``)."""
    mods = {"ap_turn": 500, "ap_next": 1000, "ap_battle": 2000}
    for combo in (("ap_turn",), ("ap_next",), ("ap_battle",), ("ap_next", "ap_battle"), tuple(mods)):
        g = build({"main": "Ashen Recruit", "supports": ["Meadow Scout"]},
                  {"main": "Harbor Watch", "supports": ["Brass Footman", "Frost Sage"]})
        for q, where in ((0, ("main", 0)), (0, ("support", 0)), (1, ("main", 0)), (1, ("support", 1))):
            inst = inst_of(g, q, *where)
            for name in combo:
                field(g, name)[q, inst] = mods[name]
        bonus = sum(mods[name] for name in combo)
        for viewer in (0, 1):
            o = observe(g, viewer)
            for q, block, slot, base_name in ((0, "main", 0, "Ashen Recruit"), (0, "supports", 0, "Meadow Scout"),
                                              (1, "main", 0, "Harbor Watch"), (1, "supports", 1, "Frost Sage")):
                side = 0 if q == viewer else 1
                seen = OBS.get(o, block)[side, slot, CHAR_AP_NOW] if block == "supports" else \
                    OBS.get(o, block)[side, CHAR_AP_NOW]
                inst = inst_of(g, q, "main") if block == "main" else inst_of(g, q, "support", slot)
                level_bonus = 500 if (q == 0 and block == "main") else 0  # LN-L4: the turn player's main, level 1
                want = int(CTAB[POOL.by_name[base_name], C_AP]) + bonus + level_bonus
                assert int(seen) * AP_UNIT == want, (combo, viewer, q, block)
                assert int(seen) * AP_UNIT == compute_ap(g.states[0], POOL.tables, q, inst), (combo, viewer, q)


# ---------------------------------------------------------------------------------------- pending choice, seen
def test_LN_K3_a_pending_choice_shows_whose_supports_it_picks_from_and_what_it_does() -> None:
    """LN-K3 (one-support effects): the chooser and the other player see whether the pending choice picks among the
    chooser's own supports (Solar Engineer: activate one) or the opponent's (Undertow: rest one), and its op, each
    flag exactly 0 or 1."""
    # Solar Engineer (own_one_support, activate): two other resting supports, so a choice waits
    g = build({"main": "Brass Footman", "supports": ["Solar Engineer", "Clumsy Page:R", "Rusty Bot:R"]},
              {"main": "Harbor Watch"})
    do(g, "skill", 1)
    assert int(field(g, "choice_player")) == 0 and sorted(legal(g)) == [("effect_target", 1), ("effect_target", 2)]
    for viewer in (0, 1):
        ctx = OBS.get(observe(g, viewer), "context")
        assert ctx[CONTEXT_CHOICE_ON_OPP_SUPPORTS] == 0, viewer
        assert (ctx[CONTEXT_CHOICE_OWN], ctx[CONTEXT_CHOICE_OPP]) == ((1, 0) if viewer == 0 else (0, 1))
        assert (ctx[CONTEXT_CHOICE_ACTIVATE], ctx[CONTEXT_CHOICE_REST]) == (1, 0)
        assert (ctx[CONTEXT_CHOICE_AP_UP], ctx[CONTEXT_CHOICE_AP_DOWN]) == (0, 0)
    # Undertow (opp_one_support, rest): two Active supports of the opponent
    g = build({"main": "Harbor Watch", "hand": ["Undertow", "Frost Sage"]},
              {"main": "Ashen Recruit", "supports": ["Clumsy Page", "Blaze Vanguard"]})
    do(g, "hand", 0)
    assert int(field(g, "choice_player")) == 0
    for viewer in (0, 1):
        ctx = OBS.get(observe(g, viewer), "context")
        assert ctx[CONTEXT_CHOICE_ON_OPP_SUPPORTS] == 1, viewer
        assert (ctx[CONTEXT_CHOICE_ACTIVATE], ctx[CONTEXT_CHOICE_REST]) == (0, 1)
        assert (ctx[CONTEXT_CHOICE_AP_UP], ctx[CONTEXT_CHOICE_AP_DOWN]) == (0, 0)


# ------------------------------------------------------------------------------------------- no viewer: zeros
def test_no_viewer_observes_all_zeros() -> None:
    """A row observed for no seat (-1: a finished game in a batch, BatchGame.observe's contract) is all zeros, live
    or over; a seat's own observation is not."""
    g = build({"main": "Ashen Recruit", "supports": ["Meadow Scout"], "hand": ["Clumsy Page"]},
              {"main": "Harbor Watch", "level": ["Clumsy Page"]})
    assert not observe(g, -1).any()
    assert observe(g, 0).any() and observe(g, 1).any()


# --------------------------------------------------------------------- the defender's characters, player 1's turn
def test_LN_T3_the_defenders_ap_boost_waits_while_any_attacker_is_left_for_either_turn_player() -> None:
    """LN-T3 / LN-K3 (an offer must be able to change something): Rime Sentinel's AP boost for its own main, in the
    opponent's battle phase, is offered while one of the turn player's characters has not attacked yet (a battle
    can still come), and not once all of them have. Player 1 as the turn player too: its supports are face up,
    which a check reading the wrong player's per-instance flags took for "attacked"."""
    for tp in (0, 1):
        for support_attacked, offered in ((False, True), (True, False)):
            turn = {"main": "Ashen Recruit:R", "supports": ["Meadow Scout"], "hand": ["Clumsy Page"]}
            other = {"main": "Harbor Watch", "supports": ["Rime Sentinel"]}
            g = build(*((turn, other) if tp == 0 else (other, turn)), turn_player=tp, step=ST_BATTLE_WINDOW, sub=1)
            assert int(g.to_act[0]) == 1 - tp
            field(g, "attacked")[tp, inst_of(g, tp, "main")] = 1
            field(g, "attacked")[tp, inst_of(g, tp, "support", 0)] = int(support_attacked)
            assert is_legal(g, "skill", 1) == offered, (tp, support_attacked)



# ---------------------------------------------------------------------------------------------------- setup
def test_LN_S2_both_mains_turn_face_up_when_the_game_starts() -> None:
    """LN-S2: each main is placed face down; once both players have made their mulligan decision the game starts
    and both mains are face up: each player sees the other's main card, whoever went first."""
    for seed in (5, 6):
        g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=seed)
        do(g, "go_first")
        for _ in range(2):
            do(g, "choose_main", [i for n, i in legal(g) if n == "choose_main"][-1])
        mains = [inst_of(g, p, "main") for p in (0, 1)]
        assert [int(field(g, "face_up")[p, mains[p]]) for p in (0, 1)] == [0, 0]
        do(g, "pass")
        do(g, "pass")  # both keep their hands: the game starts
        assert step_name(g) != ST_MULLIGAN and int(field(g, "mulligan_used").sum()) == 2
        for p in (0, 1):
            assert int(field(g, "face_up")[p, mains[p]]) == 1, (seed, p)
            card = int(field(g, "deck_list")[p, mains[p]])
            seen = OBS.get(observe(g, 1 - p), "main")[1]
            assert seen[CARD.offset("card_id")] == card + 1, (seed, p)


# ------------------------------------------------------------------------------------------ judgement, seen
def test_LN_J1_an_attackers_win_is_observed_as_such() -> None:
    """LN-J1: the judged result is public: after the attacking main wins (its player now chooses whether to level
    up, LN-L2) both players see "attacker won", and neither "defender won" nor a tie."""
    g = build({"main": "Ashen Recruit", "hand": ["Clumsy Page"]}, {"main": "Clumsy Page"}, step=ST_ATTACK)
    do(g, "attack", 0)
    pass_until(g, ST_LEVEL_UP)
    for viewer in (0, 1):
        ctx = OBS.get(observe(g, viewer), "context")
        assert (ctx[CONTEXT_RESULT_ATTACKER], ctx[CONTEXT_RESULT_DEFENDER], ctx[CONTEXT_RESULT_TIE]) == (1, 0, 0)
