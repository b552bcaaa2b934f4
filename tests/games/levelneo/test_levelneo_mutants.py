"""Issue 39, levelneo's test-strength target: scenarios for the mutants that survived the game's suite in the
measurement of docs/mutation/levelneo.md (commit faeda32, seed 39). Each test names the rule it checks (all but the
observation's no-viewer contract, no rule of the game) and builds a position where the mutated line makes a
difference, mostly one the symmetric or instance-0 positions of the other tests cannot: player 1 as the turn
player, mains and supports whose instance numbers differ between the players and from 0, every kind of AP modifier
read back, a state's documented encoding, and cards of an extra pool file for the effect vocabulary the package's
cards leave unused. The mutants no position can tell apart from the rules are listed with their reasons in
docs/CHECKS.md ("Mutation testing", Results)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.cards import DEFAULT_POOL, LevelNeoPool
from cardenvs.games.levelneo.effects import compute_ap
from cardenvs.games.levelneo.obs_layout import (
    AP_UNIT, CARD, CHAR_AP_NOW, CHAR_ATTACKED, CHAR_DECLARED_TARGET, CHAR_DEFENDING, CONTEXT_CHOICE_ACTIVATE,
    CONTEXT_CHOICE_AMOUNT, CONTEXT_CHOICE_AP_DOWN, CONTEXT_CHOICE_AP_UP, CONTEXT_CHOICE_ON_OPP_SUPPORTS,
    CONTEXT_CHOICE_OPP, CONTEXT_CHOICE_OWN, CONTEXT_CHOICE_REST, CONTEXT_RESULT_ATTACKER, CONTEXT_RESULT_DEFENDER,
    CONTEXT_RESULT_TIE, OBS,
)
from cardenvs.games.levelneo.state import (
    ST_ATTACK, ST_BATTLE_WINDOW, ST_BURST, ST_COVER, ST_DECL_WINDOW, ST_LEVEL_UP, ST_MULLIGAN, ST_PARTNER,
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
    """LN-A1: each character attacks at most once per turn. Player 0's second support (instance 2) attacks the
    resting main and wins (2000 against 800), so it stays on the field; both players see it marked as having
    attacked, and made Active again (as Solar Engineer would) it is still refused; the main, which has not
    attacked, may."""
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
    encoding of "no partner" (state.py; text.py, hide() and tools read it), for either turn player; so does it at
    the partner step, before the choice."""
    for tp in (0, 1):
        atk = {"main": "Ashen Recruit", "supports": ["Meadow Scout"], "hand": ["Clumsy Page"]}
        dfn = {"main": "Harbor Watch", "hand": ["Clumsy Page"]}
        g = build(*((atk, dfn) if tp == 0 else (dfn, atk)), turn_player=tp, step=ST_ATTACK)
        do(g, "attack", 0)
        assert step_name(g) == ST_PARTNER and int(field(g, "atk_b")) == -1, tp  # none chosen yet
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


# ------------------------------------------------------------------------------------------------------- cover
def test_LN_C3_no_cover_against_a_level_neo_main_of_either_seat_whatever_its_instance() -> None:
    """LN-C3: against the attacking Level Neo main (level 5) the defender may not cover; at level 4 it may. Either
    seat attacks, and the mains carry instance numbers other than 0 (a rule that compared the attacker with a fixed
    entry, not the turn player's main, passed on ``build``'s numbering, where every main is instance 0)."""
    for tp in (0, 1):
        for levels, cover in ((4, False), (3, True)):
            atk = {"main": "Ashen Recruit", "level": ["Clumsy Page"] * levels}
            dfn = {"main": "Harbor Watch", "supports": ["Dynamo Mech"]}
            g = build(*((atk, dfn) if tp == 0 else (dfn, atk)), turn_player=tp, step=ST_COVER, to_act=1 - tp)
            renumber_mains(g)
            field(g, "battle")[...] = 1
            field(g, "atk_a")[...] = inst_of(g, tp, "main")
            field(g, "target")[...] = inst_of(g, 1 - tp, "main")
            field(g, "orig_target")[...] = inst_of(g, 1 - tp, "main")
            assert is_legal(g, "cover", 0, 1 - tp) == cover, (tp, levels)


def test_LN_A3_a_resting_opposing_main_opens_support_attacks_whatever_its_instance() -> None:
    """LN-A3: a support may attack when the opponent has a resting character; the opponent's resting main is one,
    for either turn player, with mains numbered apart from 0 and from each other (a rule that read another player's
    main, or a fixed entry, found it Active there); an Active main and no resting support is none."""
    for tp in (0, 1):
        for rested in (True, False):
            atk = {"main": "Ashen Recruit", "supports": ["Meadow Scout"]}
            dfn = {"main": "Harbor Watch:R" if rested else "Harbor Watch", "supports": ["Brass Footman"]}
            g = build(*((atk, dfn) if tp == 0 else (dfn, atk)), turn_player=tp, step=ST_ATTACK)
            renumber_mains(g)
            assert is_legal(g, "attack", 1) == rested, (tp, rested)
            assert is_legal(g, "attack", 0)


# ------------------------------------------------------------------------------- a one-support AP change, seen
def _card(name: str, trait: str, effect: str) -> str:
    """A yellow 2000-AP character of the pool format (cards.toml) with one effect."""
    return (f'[[card]]\nname = "{name}"\ntype = "character"\ncolor = "yellow"\nap = 2000\ntraits = ["{trait}"]\n'
            f"effects = [{{ {effect} }}]\n")


#: cards the package's pool lacks: one-support AP changes (up on one's own, down on the opponent's), an
#: "in_battle" [Cont] condition and an "opp_main" selector
EXTRA_POOL = "\n".join((
    _card("Drill Sergeant", "Knight",
          'trigger = "use", phase = "main", turn = "own", op = "ap_up", amount = 500, target = "own_one_support"'),
    _card("Hex Weaver", "Mage",
          'trigger = "use", phase = "main", turn = "own", op = "ap_down", amount = 700, target = "opp_one_support"'),
    _card("Duel Adept", "Knight", 'trigger = "cont", condition = "in_battle", op = "ap_up", amount = 1000, '
                                  'target = "self"'),
    _card("Jinx Totem", "Spirit", 'trigger = "cont", op = "ap_down", amount = 500, target = "opp_main"'),
))


def extra_pool(tmp_path: Path) -> LevelNeoPool:
    """The package's cards, then EXTRA_POOL's (whose ids follow, so every package card keeps its id)."""
    path = tmp_path / "extra.toml"
    path.write_text(EXTRA_POOL)
    pool = SPEC.load_pool([DEFAULT_POOL, path])
    assert all(pool.by_name[c["name"]] == POOL.by_name[c["name"]] for c in POOL.cards)
    return pool


def with_card(pool: LevelNeoPool, position: BatchGame, p: int, inst: int, name: str) -> BatchGame:
    """``position`` (built on the package's pool) in a game of ``pool``, player ``p``'s instance ``inst`` now card
    ``name`` of that pool."""
    g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=0, pool=pool)
    g.states[0][:] = position.states[0]
    field(g, "deck_list")[p, inst] = pool.by_name[name]
    return g


def test_LN_K3_a_pending_one_support_ap_change_shows_its_op_and_amount(tmp_path: Path) -> None:
    """LN-K3: a pool may give a one-support effect any op of the vocabulary (cards.py: ap_up / ap_down take a
    target). Pending, the choice of an AP change shows that op (up or down), its amount, and is neither a rest
    nor an activation; own supports for AP up, the opponent's for AP down. Two such cards in an extra pool file
    (their ids follow the package's cards, so the position's other cards keep theirs)."""
    pool = extra_pool(tmp_path)
    for name, up in (("Drill Sergeant", True), ("Hex Weaver", False)):
        g0 = build({"main": "Brass Footman", "supports": ["Rusty Bot", "Clumsy Page", "Lost Lamb"]},
                   {"main": "Harbor Watch", "supports": ["Meadow Scout", "Drowsy Ghost"]})
        g = with_card(pool, g0, 0, inst_of(g0, 0, "support", 0), name)  # in Rusty Bot's place
        do(g, "skill", 1)
        assert int(field(g, "choice_player")) == 0, name
        for viewer in (0, 1):
            ctx = OBS.get(observe(g, viewer), "context")
            assert (ctx[CONTEXT_CHOICE_AP_UP], ctx[CONTEXT_CHOICE_AP_DOWN]) == ((1, 0) if up else (0, 1)), name
            assert (ctx[CONTEXT_CHOICE_REST], ctx[CONTEXT_CHOICE_ACTIVATE]) == (0, 0), name
            assert ctx[CONTEXT_CHOICE_ON_OPP_SUPPORTS] == (0 if up else 1), name
            assert int(ctx[CONTEXT_CHOICE_AMOUNT]) * AP_UNIT == (500 if up else 700), name


def test_LN_B4_player_1s_failed_burst_stops_its_bursting() -> None:
    """LN-B4: a burst that reveals a card without Level Burst text fails and stops that player's bursting for the
    battle; here the failing player is player 1, as defender and as attacker (its second face-down card stays face
    down: no second burst is offered). The other player's only level card is face up, so it never bursts."""
    for tp in (0, 1):
        burster = {"main": "Harbor Watch", "level": ["Clumsy Page", "Phoenix Ember"], "hand": ["Clumsy Page"]}
        other = {"main": "Ashen Recruit", "level": ["Clumsy Page:up"], "hand": ["Clumsy Page"]}
        g = build(other, burster, turn_player=tp, step=ST_ATTACK)
        do(g, "attack", 0)
        pass_until(g, ST_BURST)
        assert int(g.to_act[0]) == 1 and is_legal(g, "burst", 0, 1), tp
        do(g, "burst")  # the first face-down card: Clumsy Page, no Level Burst text
        assert int(field(g, "face_up")[1, inst_of(g, 1, "level", 0)]) == 1
        assert step_name(g) != ST_BURST, tp  # player 1 cannot burst again: the alternation ended
        assert int(field(g, "face_up")[1, inst_of(g, 1, "level", 1)]) == 0, tp


def test_LN_T3_LN_C1_the_defenders_main_cannot_become_the_cover_whatever_its_instance() -> None:
    """LN-T3 / LN-C1: after a declaration the defender's supports may still become the cover, its main may not;
    with every attacker of the turn player spent, an AP boost for the defender's main outside the battle (Rime
    Sentinel's) changes nothing and is not offered. Player 1 defends, its main numbered 9 (a check that compared the
    main with another entry of the row took it for a support that may still cover)."""
    for tp in (0, 1):
        turn = {"main": "Ashen Recruit", "supports": ["Meadow Scout"], "hand": ["Clumsy Page"]}
        other = {"main": "Harbor Watch", "supports": ["Rime Sentinel", "Drowsy Ghost:R"]}
        g = build(*((turn, other) if tp == 0 else (other, turn)), turn_player=tp, step=ST_DECL_WINDOW, sub=1)
        renumber_mains(g)
        op = 1 - tp
        scout, ghost = inst_of(g, tp, "support", 0), inst_of(g, op, "support", 1)
        field(g, "battle")[...] = 1
        field(g, "atk_a")[...] = scout  # the support attacks the resting Drowsy Ghost
        field(g, "target")[...] = ghost
        field(g, "orig_target")[...] = ghost
        field(g, "attacked")[tp, [inst_of(g, tp, "main"), scout]] = 1
        field(g, "rested")[tp, scout] = 1
        assert int(g.to_act[0]) == op
        assert not is_legal(g, "skill", 1), tp
        field(g, "attacked")[tp, inst_of(g, tp, "main")] = 0  # the main may still attack: a battle can come
        assert is_legal(g, "skill", 1), tp


def test_LN_K1_an_in_battle_condition_holds_for_a_battler_of_either_side_only(tmp_path: Path) -> None:
    """LN-K1: a [Cont] skill applies while its condition holds. The package's cards use no "in_battle" condition
    (tables.CONDITIONS has it), so an extra pool's Duel Adept (+1000 to itself in battle): as the attacking
    support, and as the defending support (player 1's), +1000; outside the battle, or in a battle without it,
    nothing."""
    pool = extra_pool(tmp_path)
    base = 2000
    for adept_side in (0, 1):
        for in_it in (True, False):
            g0 = build({"main": "Ashen Recruit", "supports": ["Rusty Bot", "Meadow Scout"]},
                       {"main": "Harbor Watch", "supports": ["Rusty Bot:R", "Drowsy Ghost:R"]}, step=ST_DECL_WINDOW)
            adept = inst_of(g0, adept_side, "support", 0)
            g = with_card(pool, g0, adept_side, adept, "Duel Adept")
            field(g, "battle")[...] = 1
            field(g, "atk_a")[...] = inst_of(g, 0, "support", 0 if (in_it or adept_side == 1) else 1)
            target = inst_of(g, 1, "support", 0 if (in_it or adept_side == 0) else 1)
            field(g, "target")[...] = target
            field(g, "orig_target")[...] = target
            want = base + (1000 if in_it else 0)
            assert compute_ap(g.states[0], pool.tables, adept_side, adept) == want, (adept_side, in_it)
            side = OBS.get(g.observe([adept_side])[0], "supports")[0, 0]
            assert int(side[CHAR_AP_NOW]) * AP_UNIT == want, (adept_side, in_it)


def test_LN_A3_the_defending_character_is_observed_as_such_never_an_attacker() -> None:
    """LN-A3 (the declared target defends): both players see the target, a support of the other player, as
    defending and as the declared target; no character of the turn player is marked defending, also the one whose
    instance number equals the target's, for either turn player."""
    for tp in (0, 1):
        turn = {"main": "Ashen Recruit", "supports": ["Meadow Scout"]}
        other = {"main": "Harbor Watch", "supports": ["Drowsy Ghost:R"]}
        g = build(*((turn, other) if tp == 0 else (other, turn)), turn_player=tp, step=ST_DECL_WINDOW)
        scout, ghost = inst_of(g, tp, "support", 0), inst_of(g, 1 - tp, "support", 0)
        assert scout == ghost  # the same instance number on both sides
        field(g, "battle")[...] = 1
        field(g, "atk_a")[...] = scout
        field(g, "target")[...] = ghost
        field(g, "orig_target")[...] = ghost
        for viewer in (0, 1):
            o = observe(g, viewer)
            sup = OBS.get(o, "supports")
            t_side, a_side = (0, 1) if viewer == 1 - tp else (1, 0)
            assert (sup[t_side, 0, CHAR_DEFENDING], sup[t_side, 0, CHAR_DECLARED_TARGET]) == (1, 1), (tp, viewer)
            assert (sup[a_side, 0, CHAR_DEFENDING], sup[a_side, 0, CHAR_DECLARED_TARGET]) == (0, 0), (tp, viewer)
            assert OBS.get(o, "main")[:, CHAR_DEFENDING].tolist() == [0, 0], (tp, viewer)


def test_LN_K1_an_opp_main_selector_hits_the_opposing_main_only(tmp_path: Path) -> None:
    """LN-K1: a [Cont] skill applies to the characters its selector names. No package card names "opp_main"
    (tables.TARGETS has it), so an extra pool's Jinx Totem (AP -500 to the opposing main) as either player's
    support: the other player's main loses 500, in the rules' AP and in both observations; its own main and every
    support keep theirs."""
    pool = extra_pool(tmp_path)
    for owner in (0, 1):
        g0 = build({"main": "Ashen Recruit", "supports": ["Rusty Bot", "Meadow Scout"]},
                   {"main": "Harbor Watch", "supports": ["Rusty Bot", "Drowsy Ghost"]}, turn_player=1)
        g = with_card(pool, g0, owner, inst_of(g0, owner, "support", 0), "Jinx Totem")
        for q in (0, 1):
            for where in (("main", 0), ("support", 0), ("support", 1)):
                inst = inst_of(g, q, *where)
                card = int(field(g, "deck_list")[q, inst])
                want = int(pool.tables.cards[card, C_AP]) + (500 if q == 1 and where[0] == "main" else 0)  # LN-L4
                want -= 500 if (q != owner and where[0] == "main") else 0
                assert compute_ap(g.states[0], pool.tables, q, inst) == want, (owner, q, where)
                for viewer in (0, 1):
                    o = g.observe([viewer])[0]
                    side = 0 if q == viewer else 1
                    seen = OBS.get(o, "main")[side] if where[0] == "main" else OBS.get(o, "supports")[side, where[1]]
                    assert int(seen[CHAR_AP_NOW]) * AP_UNIT == want, (owner, q, where, viewer)


def test_LN_D5_a_draw_into_a_full_hand_discards_the_deck_top_and_keeps_the_hand() -> None:
    """LN-D5's physical hand cap (16) for a deck the loader did not check: a draw into a full hand puts the deck's top
    card in the discard pile (face up, not drawn) and leaves the hand as it was (core ``zones.zone_draw``'s
    ``ZONE_FULL`` branch); one card fewer in hand draws it normally."""
    from cardenvs.games.levelneo.board import draw
    from levelneo_helpers import FILLER

    for in_hand, full in ((16, True), (15, False)):
        g = build({"main": "Ashen Recruit", "hand": [FILLER] * in_hand}, {"main": "Ashen Recruit"})
        row = g.states.view(np.ndarray)[0]
        top = inst_of(g, 0, "deck", int(field(g, "deck_count")[0]) - 1)
        hand, deck, discard = (int(field(g, f"{z}_count")[0]) for z in ("hand", "deck", "discard"))
        draw(row, 0)
        assert int(field(g, "deck_count")[0]) == deck - 1
        if full:
            assert int(field(g, "hand_count")[0]) == hand == 16
            assert int(field(g, "discard_count")[0]) == discard + 1 and inst_of(g, 0, "discard", discard) == top
            assert field(g, "face_up")[0, top] == 1 and field(g, "drawn")[0, top] == 0
        else:
            assert int(field(g, "hand_count")[0]) == hand + 1 and inst_of(g, 0, "hand", hand) == top
            assert int(field(g, "discard_count")[0]) == discard and field(g, "drawn")[0, top] == 1
