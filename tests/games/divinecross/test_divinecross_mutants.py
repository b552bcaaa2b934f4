"""Issue 39, divinecross's test-strength target: scenarios for the mutants that survived the game's suite in the
measurement of docs/mutation/divinecross.md (commit 9f4b277, seed 39). Each test names the rule it checks and builds
a position where the mutated line makes a difference, mostly one the other tests leave out: player 1 as the turn
player or as the one to promote, a skill ability's condition on each side of its test (stunned only, poisoned only,
damaged only), guards on units of both players and at instances other than 0, each observed flag read for both
viewers, and cards of an extra pool file for the effect vocabulary the package's cards leave unused (an ``opp_all``
target, a second skill with ``bonus_energy``, an Assist that lowers the damage its host deals). The mutants no
position can tell apart from the rules are listed with their reasons in docs/CHECKS.md ("Mutation testing",
Results)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from divinecross_helpers import FILLER, POOL, build, do, field, legal, names, step_of, unit, unit_name

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, H_TO_ACT, LIVE
from cardenvs.games.divinecross import SPEC
from cardenvs.games.divinecross import obs_layout as L
from cardenvs.games.divinecross.cards import DEFAULT_POOL, DivineCrossPool
from cardenvs.games.divinecross.observe import OBS
from cardenvs.games.divinecross.state import ST_BATTLE, ST_EXTRA_DRAW, ST_MAIN, ST_SETUP_PLACE

MAIN_HOLD = "Vagabond Scout"  # hp 400, no attribute, Quick Jab: 0 Energy, 100 damage


def side(main: str = MAIN_HOLD, **kw) -> dict:
    s = {"main": main}
    s.update(kw)
    return s


def observe(g: BatchGame, viewer: int) -> np.ndarray:
    return g.observe([viewer])[0].copy()


def context(g: BatchGame, viewer: int) -> np.ndarray:
    return OBS.get(observe(g, viewer), "context")


def last_damage(g: BatchGame) -> int:
    return int(field(g, "last_damage"))


# ------------------------------------------------------------------------------------------ an extra pool file
#: cards the package's pool lacks: an ``opp_all`` damage event, a unit whose second skill has ``bonus_energy``
#: (the package's two such skills are first skills), an Assist with a negative ``dmg_up`` (its host deals less)
EXTRA_CARDS = """
[[card]]
name = "Test Wildfire"
type = "event"
series = ["Ember Vale"]
effects = [{ trigger = "play", op = "damage", amount = 100, target = "opp_all" }]

[[card]]
name = "Test Surge Golem"
type = "unit"
series = ["Ember Vale"]
attribute = "none"
hp = 900
retreat = 1
[[card.skill]]
name = "Tap"
energy = 0
damage = 100
[[card.skill]]
name = "Surge"
energy = 2
damage = 200
effects = [{ op = "bonus_energy", amount = 100 }]

[[card]]
name = "Test Dull Edge"
type = "assist"
series = ["Ember Vale"]
effects = [{ trigger = "passive", op = "dmg_up", amount = -100 }]
"""


def extra_pool(tmp_path: Path) -> DivineCrossPool:
    path = tmp_path / "extra.toml"
    path.write_text(EXTRA_CARDS)
    pool = SPEC.load_pool([DEFAULT_POOL, path])
    assert all(pool.by_name[c["name"]] == POOL.by_name[c["name"]] for c in POOL.cards)  # the package's ids kept
    return pool


def with_cards(pool: DivineCrossPool, position: BatchGame, changes: list[tuple[int, int, str]]) -> BatchGame:
    """``position`` (built on the package's pool) in a game of ``pool``, each (player, instance) now that card."""
    g = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=0, pool=pool)
    g.states[0] = position.states[0]
    for p, inst, name in changes:
        field(g, "deck_list")[p, inst] = pool.by_name[name]
    return g


def hand_inst(g: BatchGame, p: int, i: int = 0) -> int:
    return int(field(g, "hand")[p, i])


# ------------------------------------------------------------------------------------------ damage step 1
def test_DC_A1_bonus_condition_counts_a_stunned_or_poisoned_target_and_not_a_damaged_one() -> None:
    """DC-A1: Mistveil Serpent's Crushing Tide (300, +200 against a Stunned or Poisoned Main Unit) on each side of
    its condition: a clean target and a damaged one (not a condition) take 300; stunned only, poisoned only and
    both take 500. No advantage: the target has no attribute."""
    attacker = side("Mistveil Serpent", energy={0: 4})
    cases = [({}, 300), ({"damage": {0: 100}}, 300), ({"stunned": 1}, 500), ({"poisoned": 1}, 500),
             ({"stunned": 1, "poisoned": 1}, 500)]
    for target, want in cases:
        g = build(attacker, side("Wandering Golem", **target), step=ST_BATTLE)
        do(g, "skill", 1)
        assert last_damage(g) == want, (target, last_damage(g))


def test_DC_A1_bonus_energy_of_a_second_skill_counts_the_energy_over_that_skills_need(tmp_path: Path) -> None:
    """DC-A1: a ``bonus_energy`` ability adds its amount per Energy over the need of the skill it belongs to: the
    second skill's need (2), read from the second skill's column. Exactly at the need: no bonus; one over: +100;
    two over: +200."""
    pool = extra_pool(tmp_path)
    for n, want in ((2, 200), (3, 300), (4, 400)):
        g0 = build(side(energy={0: n}), side("Wandering Golem"), step=ST_BATTLE)
        g = with_cards(pool, g0, [(0, unit(g0, 0), "Test Surge Golem")])
        do(g, "skill", 1)
        assert last_damage(g) == want, (n, last_damage(g))


# ------------------------------------------------------------------------------------------ targets and ops
def test_DC_O3_an_opp_all_effect_hits_the_opponents_main_and_every_standby_unit(tmp_path: Path) -> None:
    """DC-A6/O2: ``opp_all`` targets every opposing Unit, Main and Standby (a card effect's damage, dealt as
    stated), and none of the player's own."""
    pool = extra_pool(tmp_path)
    g0 = build(side(hand=[FILLER], standby=["Grove Stag"]),
               side("Wandering Golem", standby=["Grove Stag", "Bloom Dryad"]), step=ST_MAIN)
    g = with_cards(pool, g0, [(0, hand_inst(g0, 0), "Test Wildfire")])
    do(g, "hand", 0)
    assert [int(field(g, "damage")[1, unit(g, 1, pos)]) for pos in range(3)] == [100, 100, 100]
    assert [int(field(g, "damage")[0, unit(g, 0, pos)]) for pos in range(2)] == [0, 0]


def test_DC_E1_N2_N4_a_cure_removes_stun_and_poison_from_the_own_main_unit() -> None:
    """DC-E1 (an Action played from hand) with a ``cure`` effect: Neap Current removes the stun marker (DC-N2) and
    the poison (DC-N4) of its player's Main Unit, and heals 100; the opponent's conditions stay."""
    g = build(side(hand=["Neap Current"], stunned=1, poisoned=1, damage={0: 200}),
              side("Wandering Golem", stunned=1, poisoned=1), step=ST_MAIN)
    do(g, "hand", 0)
    assert list(field(g, "stunned")) == [0, 1] and list(field(g, "poisoned")) == [0, 1]
    assert int(field(g, "damage")[0, unit(g, 0)]) == 100
    g = build(side("Wandering Golem", stunned=1, poisoned=1),
              side(hand=["Neap Current"], stunned=1, poisoned=1), step=ST_MAIN, turn_player=1)
    do(g, "hand", 0)
    assert list(field(g, "stunned")) == [1, 0] and list(field(g, "poisoned")) == [1, 0]


# ------------------------------------------------------------------------------------------ guard, KO, assists
def test_DC_T1_A3_guards_end_at_the_start_of_their_owners_next_turn_on_every_unit() -> None:
    """DC-T1/T2 with DC-A3's guard: at the start of a player's turn (the Draw Phase) the guards on every one of
    that player's Units end, whatever their instance; the opponent's guards stay until that opponent's next turn.
    Both players in turn."""
    for tp in (0, 1):
        nxt = 1 - tp
        g = build(side(standby=["Grove Stag", "Bloom Dryad"]), side(standby=["Grove Stag", "Bloom Dryad"]),
                  step=ST_BATTLE, turn_player=tp)
        guards = field(g, "guard")
        for p in (0, 1):
            for pos in range(3):
                guards[p, unit(g, p, pos)] = 100
        do(g, "pass")  # the Battle Phase ends, the End Phase passes the turn, the next Draw Phase starts
        assert int(field(g, "turn_player")) == nxt and step_of(g) == ST_MAIN
        assert [int(guards[nxt, unit(g, nxt, pos)]) for pos in range(3)] == [0, 0, 0], tp
        assert [int(guards[tp, unit(g, tp, pos)]) for pos in range(3)] == [100, 100, 100], tp


def test_DC_O3_O4_a_ko_leaves_no_modifier_on_any_unit_and_the_card_face_up() -> None:
    """DC-O3/O4: a KO'd Main Unit goes face up into the KO Zone with its damage, boost and guard gone, and the KO
    writes nothing into another unit's modifiers (player 1's Main Unit, instance 0: a KO that wrote its face-up
    flag elsewhere put a guard on a unit)."""
    for tp in (0, 1):
        o = 1 - tp
        g = build(side(), side(), step=ST_BATTLE, turn_player=tp)  # no Standby Unit: the KO ends the game
        field(g, "damage")[o, unit(g, o)] = 300
        victim = unit(g, o)
        do(g, "skill", 0)
        assert g.states[0, H_STATUS] != LIVE
        assert int(field(g, "ko")[o, 0]) == victim and int(field(g, "face_up")[o, victim]) == 1
        for name in ("guard", "boost", "damage"):
            assert not field(g, name).any(), (tp, name, field(g, name))


def test_DC_E4_an_attached_assist_counts_as_played_for_either_player() -> None:
    """DC-E4: an Assist played from hand and attached to a Unit is recorded as played (the played-card statistics
    of cardenvs eval), for player 0 and player 1 as the turn player."""
    for tp in (0, 1):
        sides = [side(), side()]
        sides[tp] = side(hand=["Iron Buckler"])
        g = build(*sides, step=ST_MAIN, turn_player=tp)
        inst = hand_inst(g, tp)
        do(g, "hand", 0)  # the Main Unit is the one possible host: attached by itself
        assert int(field(g, "played")[tp, inst]) == 1
        assert names(g, tp, "assist") == ["Iron Buckler"]
        assert int(field(g, "played").sum()) == 1  # nothing else flagged


def test_DC_A2_an_assist_that_lowers_dealt_damage_shows_in_its_hosts_observed_deal_minus(tmp_path: Path) -> None:
    """DC-A2 (the user's modifiers): an Assist with a negative ``dmg_up`` lowers the damage its host deals; the
    host's observed deal_minus holds it (in hundreds), for its owner and the opponent, and the skill deals less."""
    pool = extra_pool(tmp_path)
    g0 = build(side(assists={0: [FILLER]}), side("Wandering Golem"), step=ST_BATTLE)
    assist = int(field(g0, "assist")[0, 0])
    g = with_cards(pool, g0, [(0, assist, "Test Dull Edge")])
    for viewer, own in ((0, 0), (1, 1)):
        slot = OBS.get(observe(g, viewer), "units")[own, 0]
        assert slot[L.CARD_DEAL_MINUS] == 1 and slot[L.CARD_DEAL_PLUS] == 0, viewer
    g1 = with_cards(pool, g0, [])  # the filler as the Assist: no modifier
    assert OBS.get(observe(g1, 0), "units")[0, 0][L.CARD_DEAL_MINUS] == 0
    do(g, "skill", 0)
    assert last_damage(g) == 0  # Quick Jab's 100, less 100


# ------------------------------------------------------------------------------------------ promotion
def test_DC_O5_a_single_standby_unit_moves_up_by_itself_whoever_promotes() -> None:
    """DC-O5/O6: a KO'd Main Unit's owner with exactly one Standby Unit has one choice, known from public
    information (the area), so it is played by itself even while that owner holds cards: player 1's promotion in
    player 0's Main Phase and player 0's in player 1's. With two Standby Units the owner decides."""
    for tp in (0, 1):
        o = 1 - tp
        sides = [side(hand=[FILLER]), side(hand=[FILLER])]
        sides[tp] = side(hand=["Firestorm", FILLER])
        sides[o] = side(hand=[FILLER, FILLER], standby=["Grove Stag"], damage={0: 200})
        g = build(*sides, step=ST_MAIN, turn_player=tp)
        do(g, "hand", 0)  # Firestorm: 200 to the opposing Main Unit, a KO
        assert unit_name(g, o) == "Grove Stag" and int(field(g, "standby_count")[o]) == 0, tp
        assert int(g.states[0, H_TO_ACT]) == tp and step_of(g) == ST_MAIN and int(field(g, "promote")) == 0
        sides[o] = side(hand=[FILLER, FILLER], standby=["Grove Stag", "Bloom Dryad"], damage={0: 200})
        g = build(*sides, step=ST_MAIN, turn_player=tp)
        do(g, "hand", 0)
        assert int(g.states[0, H_TO_ACT]) == o and {n for n, _ in legal(g)} == {"promote"}, tp


def test_DC_O5_the_promoting_player_is_observed_by_both_players() -> None:
    """DC-O5: while a player must move a Standby Unit up, that player observes promote_own and the opponent
    promote_opp; with no promotion pending both flags are 0 for both viewers."""
    for tp in (0, 1):
        o = 1 - tp
        sides = [side(hand=[FILLER]), side(hand=[FILLER])]
        sides[tp] = side(hand=["Firestorm", FILLER])
        sides[o] = side(hand=[FILLER], standby=["Grove Stag", "Bloom Dryad"], damage={0: 200})
        g = build(*sides, step=ST_MAIN, turn_player=tp)
        for viewer in (0, 1):
            ctx = context(g, viewer)
            assert (ctx[L.CTX_PROMOTE_OWN], ctx[L.CTX_PROMOTE_OPP]) == (0, 0), (tp, viewer)
        do(g, "hand", 0)
        ctx = context(g, o)
        assert (ctx[L.CTX_PROMOTE_OWN], ctx[L.CTX_PROMOTE_OPP]) == (1, 0), tp
        ctx = context(g, tp)
        assert (ctx[L.CTX_PROMOTE_OWN], ctx[L.CTX_PROMOTE_OPP]) == (0, 1), tp


# ------------------------------------------------------------------------------------------ setup
def test_DC_S6_an_extra_draw_offer_ends_when_the_deck_is_empty() -> None:
    """DC-S6 (and DC-T4: an empty deck is public): player 0 has two extra draws on offer; drawing the last card of
    the deck ends the offer (setup goes on to the placement); with one card more the second offer stands."""
    for deck, left_after in ((1, 0), (2, 1)):
        g = build({"hand": ["Vagabond Scout"], "deck": [FILLER] * deck, "fill": False},
                  {"hand": ["Vagabond Scout"]}, step=ST_EXTRA_DRAW, turn=0)
        field(g, "extra_left")[:] = (2, 0)
        do(g, "extra_draw")
        assert int(field(g, "deck_count")[0]) == deck - 1 and int(field(g, "hand_count")[0]) == 2
        assert int(field(g, "extra_left")[0]) == left_after and g.states[0, H_STATUS] == LIVE, deck
        assert step_of(g) == (ST_SETUP_PLACE if left_after == 0 else ST_EXTRA_DRAW), deck
        assert int(g.states[0, H_TO_ACT]) == 0


# ------------------------------------------------------------------------------------------ observation
def test_DC_K2_context_flags_are_the_viewers_own_and_the_opponents() -> None:
    """The observation's turn flags, each for the rule it serves and for both viewers: my_decision (only the player
    to act), charged_own (DC-C1), event_played_own (DC-E2), stunned_own / stunned_opp (DC-N2/N3)."""
    g = build(side(charged=1, event_played=1), side(stunned=1), step=ST_MAIN)
    c0, c1 = context(g, 0), context(g, 1)
    assert (c0[L.CTX_MY_DECISION], c1[L.CTX_MY_DECISION]) == (1, 0)
    assert (c0[L.CTX_CHARGED_OWN], c1[L.CTX_CHARGED_OWN]) == (1, 0)
    assert (c0[L.CTX_EVENT_PLAYED_OWN], c1[L.CTX_EVENT_PLAYED_OWN]) == (1, 0)
    assert (c0[L.CTX_STUNNED_OWN], c0[L.CTX_STUNNED_OPP]) == (0, 1)
    assert (c1[L.CTX_STUNNED_OWN], c1[L.CTX_STUNNED_OPP]) == (1, 0)
    g = build(side(stunned=1), side(charged=1, event_played=1), step=ST_MAIN, turn_player=1)
    c0, c1 = context(g, 0), context(g, 1)
    assert (c0[L.CTX_MY_DECISION], c1[L.CTX_MY_DECISION]) == (0, 1)
    assert (c1[L.CTX_CHARGED_OWN], c1[L.CTX_EVENT_PLAYED_OWN], c0[L.CTX_CHARGED_OWN]) == (1, 1, 0)
    assert (c0[L.CTX_STUNNED_OWN], c0[L.CTX_STUNNED_OPP]) == (1, 0)
    assert (c1[L.CTX_STUNNED_OWN], c1[L.CTX_STUNNED_OPP]) == (0, 1)


def test_DC_T2_T9_both_hand_sizes_are_observed_by_both_players() -> None:
    """DC-T2/T9: the hand sizes are public (draws are seen, there is no hand limit): each viewer observes its own
    and the opponent's, here 3 and 5."""
    g = build(side(hand=[FILLER] * 3), side(hand=[FILLER] * 5), step=ST_MAIN)
    for viewer, want in ((0, (3, 5)), (1, (5, 3))):
        counts = OBS.get(observe(g, viewer), "counts")
        assert (counts[0, L.COUNT_HAND], counts[1, L.COUNT_HAND]) == want, viewer


def test_DC_S8_units_in_the_area_are_observed_face_up() -> None:
    """DC-S8/U1: after the reveal every Unit in either Area is face up, and the observation's face_up says so, for
    the own and the opposing Units; during setup the viewer's own face-down Main Unit is observed face down."""
    g = build(side(standby=["Grove Stag"]), side(standby=["Bloom Dryad"]), step=ST_MAIN)
    units = OBS.get(observe(g, 0), "units")
    for s, j in ((0, 0), (0, 1), (1, 0), (1, 1)):
        assert units[s, j][L.CARD_SIZE + L.UNIT_FACE_UP] == 1, (s, j)
    g = build(side(hand=["Grove Stag"]), {"hand": ["Grove Stag"]}, step=ST_SETUP_PLACE, turn=0)
    field(g, "face_up")[0, unit(g, 0)] = 0
    own = OBS.get(observe(g, 0), "units")[0, 0]
    assert own[L.CARD_PRESENT] == 1 and own[L.CARD_SIZE + L.UNIT_FACE_UP] == 0
