"""Issue 39, simulfight's test-strength target: scenarios for the mutants of docs/mutation/simulfight.md's sample
(commit c0f2ba1, seed 39, 140 of 7,639) that the game's suite let survive. They were written from the sample while
the measurement ran, so a few also cover mutants the suite kills, but only through a test of another rule (a re-deal
check, a sweep of refusal reasons). Each test names the rule it checks and builds a position where the mutated line
makes a difference, mostly one the other tests' positions cannot tell: player 1 as the one who acts (a mutant that
reads ``p ** n`` or ``p % n`` for ``p * n`` is right for player 0), a threshold at exactly its value and one off, zones
read past their last entry, an effect landing once and not again a phase later, a phase or sub-decision one outside
its values, and, for the effect vocabulary the package's pool leaves unused (damage to one's own units, health
filters on allies, an opponent's resources changed now), three cards of an extra pool file. The mutants no position
can tell apart from the rules are listed with their reasons in docs/CHECKS.md ("Mutation testing", Results)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cardenvs.core.batch import BatchGame
from cardenvs.games.simulfight import SPEC
from cardenvs.games.simulfight import obs_layout as L
from cardenvs.games.simulfight.cards import DEFAULT_POOL, load_pool
from cardenvs.games.simulfight.obs_layout import OBS, OBS_LIMIT
from cardenvs.games.simulfight.observe import observe_row
from cardenvs.games.simulfight.rules import mask_row, step_row
from cardenvs.games.simulfight.state import LOC_DECK, LOC_DISCARD, LOC_HAND, LOC_PLAY, STATE, SUB_TARGET

from simulfight_helpers import DONE, PH_ATTACK, PH_DEFEND, Game

#: three cards for effects the package's pool has no card for (appended to it: instances 36, 37, 38); an inline
#: table of TOML stays on one line, hence the joins
_DEFEND, _ATTACK = 'trigger = "defend", cost = "shields"', 'trigger = "attack", cost = "swords"'
EXTRA_CARDS = "\n".join([
    '[[card]]', 'name = "Blood Pact"', 'gold = 1', 'health = 5', 'effects = [',
    f'  {{ {_DEFEND}, cost_amount = 1, op = "damage", target = "one_ally", amount = 2 }},', ']',
    '[[card]]', 'name = "Triage"', 'gold = 1', 'health = 3', 'effects = [',
    f'  {{ {_DEFEND}, cost_amount = 1, condition = "health_le", threshold = 2, op = "heal", target = "one_ally", '
    'amount = 1 },',
    f'  {{ {_ATTACK}, cost_amount = 1, condition = "health_le", threshold = 2, op = "heal", target = "all_allies", '
    'amount = 1 },', ']',
    '[[card]]', 'name = "Sapper"', 'gold = 1', 'health = 3', 'effects = [',
    f'  {{ {_DEFEND}, cost_amount = 1, op = "gain", target = "opponent", resource = "swords", amount = -1 }},', ']',
    '',
])


class ExtraGame(Game):
    """A :class:`Game` over the package's pool plus ``EXTRA_CARDS`` (full decks: instance i is card i)."""

    def __init__(self, pool_path: Path) -> None:
        pool = load_pool([DEFAULT_POOL, pool_path])
        self.g = BatchGame(SPEC, 1, decks=("full", "full"), seed=0, pool=pool)
        self.pool = self.g.pool


@pytest.fixture(scope="module")
def extra(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pool") / "extra.toml"
    path.write_text(EXTRA_CARDS)
    return path


def hand_ids(g: Game, p: int) -> list[int]:
    return g.get("hand")[p].tolist()


# ---- zones ----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("p", [0, 1])
def test_SF_D1_a_played_card_leaves_the_hand_compact_with_no_entry_past_its_last_card(p: int) -> None:
    """SF-D1: playing a card takes it out of its owner's hand; the hand stays compact, every slot past the last card
    holding -1 (no card), for either player."""
    side = dict(hand=["Herald", "Plague Rat", "Tin Sentry"], gold=3)
    other = dict(hand=["Herald"], gold=1)
    g = Game().setup(PH_DEFEND, 1, *((side, other) if p == 0 else (other, side)))
    g.play(p, "Herald")
    hand = hand_ids(g, p)
    assert hand[:2] == [g.inst("Plague Rat"), g.inst("Tin Sentry")] and int(g.get("hand_count")[p]) == 2
    assert hand[2:] == [-1] * (len(hand) - 2), "a slot past the hand's last card names a card"
    assert g.where(p, "Herald") == LOC_PLAY


def test_SF_E1_the_units_left_in_play_stay_compact_after_a_discard() -> None:
    """SF-E1: a unit at 0 or less after the phase is discarded and the others keep their order, every slot past the
    last unit holding -1."""
    g = Game().setup(PH_ATTACK, 1, dict(play=["Hedge Archer"], swords=1),
                     dict(play=["Ember Cultist", ("Hexblade", 2), "Tin Sentry"]))
    g.use(0, "Hedge Archer")
    g.foe(0, "Hexblade")  # 2 -> 0: discarded at the phase end
    assert g.round == 2
    play = g.get("play")[1].tolist()
    assert play[:2] == [g.inst("Ember Cultist"), g.inst("Tin Sentry")] and int(g.get("play_count")[1]) == 2
    assert play[2:] == [-1] * (len(play) - 2), "a slot past the last unit names a unit"
    assert g.where(1, "Hexblade") == LOC_DISCARD


def test_SF_E3_player_1s_empty_deck_reshuffles_its_discard_pile() -> None:
    """SF-E3 for player 1 (test_rules checks player 0): the discard pile becomes the new deck, each of its cards
    marked as in the deck, and the two cards of the Start phase are drawn from it."""
    g = Game()
    n = len(g.pool)
    rest = [g.pool.name(i) for i in range(n) if g.pool.name(i) != "Herald"]
    g.setup(PH_DEFEND, 1, dict(hand=["Herald"], gold=1), dict(hand=["Herald"], gold=1, discard=rest))
    assert int(g.get("deck_count")[1]) == 0
    g.done(0)
    g.done(1)
    assert g.round == 2
    assert int(g.get("hand_count")[1]) == 3 and int(g.get("deck_count")[1]) == n - 3
    assert int(g.get("discard_count")[1]) == 0
    loc = g.get("loc")[1, :n]
    deck = g.get("deck")[1, : n - 3]
    assert (loc[deck] == LOC_DECK).all() and (loc == LOC_DECK).sum() == n - 3
    assert (loc == LOC_HAND).sum() == 3 and (loc != LOC_DISCARD).all()
    assert int(g.get("deck_count")[0]) == n - 1 - 2, "player 0 drew from its own deck"


# ---- costs ----------------------------------------------------------------------------------------------------------
def test_SF_C1_player_1_pays_a_sword_cost_from_its_own_swords() -> None:
    """SF-C1 for player 1: Ember Cultist's ATTACK costs 1 sword, taken at once from player 1's swords (not its gold,
    and nothing of player 0's), while player 0's plan is still open."""
    g = Game().setup(PH_ATTACK, 1, dict(play=["Ember Cultist"], swords=1, gold=3, shields=2),
                     dict(play=["Ember Cultist"], swords=2, gold=3, shields=2))
    g.use(1, "Ember Cultist")
    assert g.needs == 0b01, "player 0 has not planned yet"
    assert (g.gold(1), g.shields(1), g.swords(1)) == (3, 2, 1)
    assert (g.gold(0), g.shields(0), g.swords(0)) == (3, 2, 1)


# ---- conditions: exactly at the threshold and one off ------------------------------------------------------------
@pytest.mark.parametrize("p", [0, 1])
@pytest.mark.parametrize("health, hits", [(10, True), (11, False)])
def test_SF_A1_grizzled_veteran_hits_only_while_its_owner_has_10_or_less(p: int, health: int, hits: bool) -> None:
    """SF-A1, the ``you_health_le`` condition: Grizzled Veteran's ATTACK (1 sword: 4 damage to the opponent if you
    have 10 or less health) hits at exactly 10 and not at 11. The condition reads its owner's health, whichever
    player that is (the other one has 20)."""
    side = dict(play=["Grizzled Veteran"], swords=1, health=health)
    other = dict(hand=["Herald"], gold=1)
    g = Game().setup(PH_ATTACK, 1, *((side, other) if p == 0 else (other, side)))
    g.use(p, "Grizzled Veteran")
    g.finish(1 - p)
    assert g.round == 2
    assert g.health(1 - p) == (20 - 4 if hits else 20) and g.health(p) == health


@pytest.mark.parametrize("p", [0, 1])
@pytest.mark.parametrize("allies, gains", [(3, True), (2, False)])
def test_SF_C3_rally_captain_gains_only_with_3_allies(p: int, allies: int, gains: bool) -> None:
    """SF-C3 with the ``allies_ge`` condition: Rally Captain's DEFEND (no cost: +2 swords if you have 3 or more
    allies) is used either way, and gains only at exactly 3 allies, not at 2."""
    side = dict(play=["Rally Captain", "Hedge Archer", "Ember Cultist"][:allies], swords=0)
    other = dict(hand=["Herald"], gold=1)
    g = Game().setup(PH_DEFEND, 1, *((side, other) if p == 0 else (other, side)))
    assert g.legal(p) == [g.A("use", "Rally Captain")], "a usable DEFEND is mandatory"
    g.use(p, "Rally Captain")
    assert g.swords(p) == (2 if gains else 0)


def test_SF_E5_player_1s_filter_reads_player_0s_units_at_the_phase_start() -> None:
    """SF-E5 (the other side as at the phase start, less what the own plan queued) and SF-C9 for player 1: its Gloam
    Stalker (a Foe with 2 or less) has one candidate among player 0's Hedge Archer (2, exactly the threshold) and
    Ember Cultist (3, one over), so it hits the Archer without a choice; and for player 0 the same with the units'
    instance numbers next to each other (a filter that read a neighbour's health picks the other one)."""
    for p in (0, 1):
        side = dict(play=["Gloam Stalker"], swords=1)
        foes = dict(play=["Hedge Archer", "Ember Cultist"], hand=["Herald"], gold=1)
        g = Game().setup(PH_ATTACK, 1, *((side, foes) if p == 0 else (foes, side)))
        g.use(p, "Gloam Stalker")
        assert int(g.get("sub")[p]) != SUB_TARGET, "one candidate: picked automatically"
        q = 1 - p
        assert g.round == 2, "nothing else to decide: the phase has ended"
        assert g.where(q, "Hedge Archer") == LOC_DISCARD, p
        assert g.where(q, "Ember Cultist") == LOC_PLAY and g.unit_health(q, "Ember Cultist") == 3, p


# ---- decision timing ------------------------------------------------------------------------------------------------
CHEAP = ("Tin Sentry", "Hedge Archer", "Ember Cultist", "Bone Serf", "Field Medic", "Coin Hoarder", "Blood Priest",
         "War Banner", "Reckless Bomber", "Carrion Crow", "Shield Maiden", "Herald", "Plague Rat", "Spearwall",
         "Pack Hunter", "Mud Golem")  # every card of the pool that costs 1 or 2 gold


@pytest.mark.parametrize("p", [0, 1])
@pytest.mark.parametrize("gold, open_", [(3, True), (2, False)])
def test_SF_R2_a_defend_plan_stays_open_exactly_while_gold_reaches_the_cheapest_card_it_could_hold(
        p: int, gold: int, open_: bool) -> None:
    """SF-R2, decision timing (RULES.md "Decision timing"): whether a player gets to plan must not depend on its hidden
    hand, so a Defend plan with cards in hand stays open while its gold reaches the cheapest card it could be holding
    (its hand and deck; play and discard are public), even if nothing in hand is affordable. With every card of 1 or
    2 gold discarded, the cheapest is 3: 3 gold keeps the plan open ('done' only), 2 closes it by itself."""
    side = dict(hand=["Siege Ram"], gold=gold, discard=list(CHEAP))
    other = dict(hand=["Herald"], gold=1)
    g = Game().setup(PH_DEFEND, 1, *((side, other) if p == 0 else (other, side)))
    assert bool(g.needs & (1 << p)) == open_
    if open_:
        assert g.legal(p) == [DONE]


# ---- next-round changes ---------------------------------------------------------------------------------------------
def test_SF_R5_a_next_round_loss_lands_once() -> None:
    """SF-R5: Tithe Reeve's 'opponent loses 1 gold next round' is taken at the next Start phase, once: the next phase
    to end (round 2's Defend) leaves player 1 nothing more to lose next round."""
    g = Game().setup(PH_ATTACK, 1, dict(play=["Tithe Reeve"], swords=1), dict(hand=["Herald"], gold=0))
    g.use(0, "Tithe Reeve")
    assert g.round == 2 and g.phase == PH_DEFEND
    assert g.gold(1) == 0 + 2 - 1 and g.get("next_round")[1].tolist() == [0, 0, 0]
    g.finish(0)
    g.finish(1)
    assert g.round == 2 and g.phase == PH_ATTACK
    assert g.get("next_round")[1].tolist() == [0, 0, 0], "the loss landed again"
    assert g.gold(1) == 1


# ---- effects the package's pool has no card for ------------------------------------------------------------------
@pytest.mark.parametrize("health, after", [(5, 3), (1, -1), (0, 0)])
def test_SF_C5_damage_to_an_own_unit_lands_at_once_but_not_on_a_unit_at_0(extra: Path, health: int,
                                                                          after: int) -> None:
    """SF-C5 (a unit at 0 or less neither gains nor loses) and SF-C9 (one_ally: any of your units): Blood Pact's
    DEFEND deals 2 damage to an ally of its owner's choice, at once. 5 -> 3; a unit at 1 (the last health above 0)
    goes to -1; a unit at exactly 0 stays at 0."""
    g = ExtraGame(extra).setup(PH_DEFEND, 1, dict(play=["Blood Pact", ("Hedge Archer", health)], shields=1),
                               dict(hand=["Herald"], gold=1))
    g.use(0, "Blood Pact")
    assert int(g.get("sub")[0]) == SUB_TARGET
    g.ally(0, "Hedge Archer")
    assert g.unit_health(0, "Hedge Archer") == after and g.unit_health(0, "Blood Pact") == 5


def test_SF_C6_damage_to_an_own_protected_unit_does_nothing(extra: Path) -> None:
    """SF-C6: a Protected unit loses no health, to one's own effects either."""
    g = ExtraGame(extra).setup(PH_DEFEND, 1, dict(play=["Blood Pact", "Hedge Archer"], shields=1,
                                                  protected=["Hedge Archer"]), dict(hand=["Herald"], gold=1))
    g.use(0, "Blood Pact")
    g.ally(0, "Hedge Archer")
    assert g.unit_health(0, "Hedge Archer") == 2


@pytest.mark.parametrize("p", [0, 1])
def test_SF_C9_a_one_ally_filter_offers_exactly_the_allies_at_the_threshold_or_under(extra: Path, p: int) -> None:
    """SF-C9 with a health filter: Triage's DEFEND heals 1 an ally with 2 or less. Allies at 1 and 2 (exactly the
    threshold) may be picked, the ally at 3 (one over) and Triage itself (3) may not; with one ally under the
    threshold, it is healed without a choice."""
    side = dict(play=["Triage", ("Hedge Archer", 1), ("Ember Cultist", 2), ("Cinder Lancer", 3)], shields=2)
    other = dict(hand=["Herald"], gold=1)
    g = ExtraGame(extra).setup(PH_DEFEND, 1, *((side, other) if p == 0 else (other, side)))
    g.use(p, "Triage")
    assert int(g.get("sub")[p]) == SUB_TARGET
    assert g.legal(p) == sorted([g.A("ally", "Hedge Archer"), g.A("ally", "Ember Cultist")])
    g.ally(p, "Ember Cultist")
    assert [g.unit_health(p, c) for c in ("Hedge Archer", "Ember Cultist", "Cinder Lancer")] == [1, 3, 3]
    side = dict(play=["Triage", ("Ember Cultist", 2), ("Cinder Lancer", 3)], shields=1)
    g = ExtraGame(extra).setup(PH_DEFEND, 1, *((side, other) if p == 0 else (other, side)))
    g.use(p, "Triage")
    assert int(g.get("sub")[p]) != SUB_TARGET, "one candidate: picked automatically"
    assert [g.unit_health(p, c) for c in ("Triage", "Ember Cultist", "Cinder Lancer")] == [3, 3, 3]


@pytest.mark.parametrize("p", [0, 1])
def test_SF_C9_an_all_allies_filter_hits_exactly_the_allies_at_the_threshold_or_under(extra: Path, p: int) -> None:
    """SF-C9 with a health filter on all allies: Triage's ATTACK heals 1 every ally with 2 or less: the allies at 1
    and 2 (exactly the threshold), not the one at 3 (one over) nor Triage (3)."""
    side = dict(play=["Triage", ("Hedge Archer", 1), ("Ember Cultist", 2), ("Cinder Lancer", 3)], swords=1)
    other = dict(hand=["Herald"], gold=1)
    g = ExtraGame(extra).setup(PH_ATTACK, 1, *((side, other) if p == 0 else (other, side)))
    g.use(p, "Triage")
    assert [g.unit_health(p, c) for c in ("Triage", "Hedge Archer", "Ember Cultist", "Cinder Lancer")] == [3, 2, 3, 3]


@pytest.mark.parametrize("p", [0, 1])
def test_SF_C4_a_resource_the_opponent_loses_now_lands_at_the_phase_end(extra: Path, p: int) -> None:
    """SF-C4 (shields and swords are resources like gold) and SF-E5 (effects on the other side land when both plans
    are done): Sapper's DEFEND makes the opponent lose 1 sword now; the opponent's swords drop when the Defend phase
    ends (the owner's Ember Cultist keeps the Attack phase open to look), its gold and shields and the Sapper's
    owner's resources do not change."""
    side = dict(play=["Sapper", "Ember Cultist"], shields=1, swords=2, gold=3)
    other = dict(hand=["Herald"], gold=3, shields=2, swords=2)
    g = ExtraGame(extra).setup(PH_DEFEND, 1, *((side, other) if p == 0 else (other, side)))
    g.use(p, "Sapper")
    q = 1 - p
    assert g.swords(q) == 2, "lands only when both plans are done"
    g.finish(q)
    assert g.phase == PH_ATTACK and g.round == 1
    assert (g.gold(q), g.shields(q), g.swords(q)) == (3, 2, 1)
    assert (g.gold(p), g.shields(p), g.swords(p)) == (3, 0, 2)


# ---- the observation's clip ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("over", [0, 1])
def test_SF_R2_unbounded_counters_are_observed_as_they_are_up_to_the_clip_and_clipped_past_it(over: int) -> None:
    """SF-R2 (what a player sees of its plan and of the other side) with issue 43 #11's clip: a counter the rules do
    not bound is stored as it is up to ``OBS_LIMIT`` times its divisor (10,000 for health and player damage, x10;
    5,000 for resources, x5) and clipped there, in both directions: exactly at the clip it is unchanged, one past it
    it is the clip. Checked for the opponent's health at the phase start and my plan's player damage and resource
    changes against the opponent."""
    g = Game().setup(PH_DEFEND, 1, dict(hand=["Herald"], gold=1), dict(hand=["Herald"], gold=1))
    for sign in (1, -1):
        snap = g.get("snap_player").copy()
        snap[1, 0] = sign * (10 * OBS_LIMIT + over)  # player 1's health at the phase start
        g.set("snap_player", snap)
        g.set("in_player_damage", [0, sign * (10 * OBS_LIMIT + over)])
        g.set("in_resources", [[0, 0, 0], [sign * (5 * OBS_LIMIT + over)] * 3])
        obs = g.observe(0)
        assert obs[L.O_OPP + L.PLAYER_HEALTH] == sign * 10 * OBS_LIMIT
        assert obs[L.O_PLANNED + L.PLANNED_DAMAGE] == sign * 10 * OBS_LIMIT
        planned = obs[L.O_PLANNED + L.PLANNED_RESOURCES:L.O_PLANNED + L.PLANNED_RESOURCES + 3]
        assert planned.tolist() == [sign * 5 * OBS_LIMIT] * 3
        view = OBS.float_view(obs)
        assert view[L.O_OPP + L.PLAYER_HEALTH] == view[L.O_PLANNED + L.PLANNED_DAMAGE] == sign * OBS_LIMIT


# ---- rows no rule writes --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, value", [("phase", -1), ("phase", PH_ATTACK + 1), ("sub", -1), ("sub", SUB_TARGET + 1)])
def test_SF_R1_a_phase_or_sub_decision_one_outside_its_values_reads_nothing(name: str, value: int) -> None:
    """SF-R1 (a round's decisions are in its Defend and Attack phases, each a plan step, a paying ally or a target):
    the raw kernels, which a caller may hand any row (``rules.decision_ok``), offer nothing, apply nothing and show
    no pending decision for a phase or sub-decision one below or one above its values, where the real position (a
    target pending in the Attack phase) offers the Foes. test_simulfight_completeness checks values further out."""
    tables = SPEC.load_pool(None).tables
    g = Game().setup(PH_ATTACK, 3, dict(play=["Hedge Archer"], swords=3), dict(play=["Tin Sentry", "Bone Serf"]))
    g.use(0, "Hedge Archer")
    row = g.row.copy()
    mask = np.zeros(SPEC.num_actions, np.int8)
    mask_row(row, tables, 0, mask)
    assert int(g.get("sub")[0]) == SUB_TARGET and np.flatnonzero(mask).tolist() == sorted(
        [g.A("foe", "Tin Sentry"), g.A("foe", "Bone Serf")])
    STATE.get(row, name)[...] = value if name == "phase" else [value, STATE.get(row, "sub")[1]]
    before = row.copy()
    mask_row(row, tables, 0, mask)
    assert not mask.any()
    for a in range(SPEC.num_actions):
        assert not step_row(row, tables, 0, a, np.zeros(SPEC.num_actions, np.int8)), a
    np.testing.assert_array_equal(row, before)
    obs = np.zeros(SPEC.obs_dim, SPEC.obs_dtype)
    observe_row(row, tables, 0, obs)
    assert not obs[L.O_DECISION:L.O_DECISION_END].any() and not obs[L.O_PENDING:L.O_PENDING_END].any()
    assert not obs[L.O_PHASE:L.O_PHASE_END].any() or name == "sub"
