"""The observation holds what its player knows (issue 38, step 1): each test builds two positions that differ only in
what the acting player knows and checks that the observations differ, and that ``hide`` keeps what is known.

* A deck that runs out shows both players the whole hand (every card not in play or discarded is in it); a reshuffle
  brings back only discarded cards, so those hand cards stay known until played (SF-E3, SF-R2). Before, the
  observation marked them hidden again after the reshuffle and ``hide`` re-dealt them.
* My own side as the opponent's plan sees it (SF-C9, SF-E5 / G3): which of my units were in play at the phase start
  (the opponent's Foes: a unit I played this phase is not one), their health and Protection then (the opponent's
  filters read them), and my health then (the opponent's conditions read it). My plan changes the live values, so
  the live side alone no longer says what the opponent's plan can do.
* Which entry of an ability is resolving (two identical target entries of one ability look the same otherwise).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.games.simulfight import SPEC, hide, render
from cardenvs.games.simulfight import obs_layout as L
from cardenvs.games.simulfight.cards import (
    CARD_HIDDEN, CARD_IN_HAND, CARD_KNOWN, CARD_SIZE, CARD_START_HEALTH, CARD_START_PROTECTED, DEFAULT_POOL, load_pool,
)
from cardenvs.games.simulfight.rules import begin_phase, settle
from cardenvs.games.simulfight.state import LOC_HAND, LOC_PLAY, STATE, SUB_TARGET

from simulfight_helpers import PH_ATTACK, PH_DEFEND, A, Game


def _observe(row: np.ndarray, p: int, pool=None) -> np.ndarray:
    """Player ``p``'s observation of an edited ``row`` (the kernels of a one-row batch game)."""
    h = BatchGame(SPEC, 1, seed=0, pool=pool)
    h.states[0] = row
    return h.observe(np.array([p], np.int32))[0]


def _card(obs: np.ndarray, block: int, inst: int, column: int) -> float:
    return float(obs[block + inst * CARD_SIZE + column])


def _ran_out(viewer_side: dict | None = None) -> Game:
    """Round 1 ends with player 1's deck holding only Herald (everything else but two hand cards is discarded): the
    round-2 Start phase draws Herald, which empties the deck and shows player 1's hand (Cinder Lancer, Siege Ram,
    Herald), then reshuffles the 33 discarded cards and draws one of them, unseen."""
    g = Game()
    rest = [g.pool.name(i) for i in range(len(g.pool))
            if g.pool.name(i) not in ("Cinder Lancer", "Siege Ram", "Herald")]
    g.setup(PH_DEFEND, 1, viewer_side or dict(hand=["Tin Sentry"], gold=0),
            dict(hand=["Cinder Lancer", "Siege Ram"], gold=0, discard=rest))  # no gold: both plans close at once
    assert g.round == 2 and g.phase == PH_DEFEND
    assert int(g.get("hand_count")[1]) == 4 and int(g.get("deck_count")[1]) == len(g.pool) - 4
    return g


KNOWN = ("Cinder Lancer", "Siege Ram", "Herald")


def test_SF_E3_cards_seen_in_hand_when_the_deck_ran_out_stay_known_after_the_reshuffle() -> None:
    """SF-E3 / SF-R2 (issue 38): after the reshuffle, player 0 still sees which three cards are in player 1's hand;
    the fourth (drawn from the reshuffled pile) stays hidden. The same zones without that knowledge (the flag
    cleared) give player 0 another observation; player 1 sees that its opponent knows them."""
    g = _ran_out()
    obs = g.observe(0)
    for name in KNOWN:
        inst = g.inst(name)
        assert g.where(1, name) == LOC_HAND
        assert _card(obs, L.O_OPP_CARDS, inst, CARD_IN_HAND) == 1 and _card(obs, L.O_OPP_CARDS, inst, CARD_KNOWN) == 1
        assert _card(obs, L.O_OPP_CARDS, inst, CARD_HIDDEN) == 0
        assert _card(g.observe(1), L.O_MY_CARDS, inst, CARD_KNOWN) == 1, "its owner knows the opponent knows"
    unseen = [int(i) for i in g.get("hand")[1] if i >= 0 and g.pool.name(int(i)) not in KNOWN]
    assert len(unseen) == 1 and _card(obs, L.O_OPP_CARDS, unseen[0], CARD_HIDDEN) == 1
    assert _card(obs, L.O_OPP_CARDS, unseen[0], CARD_KNOWN) == 0
    forgotten = g.row.copy()
    STATE.get(forgotten, "shown")[...] = 0
    other = _observe(forgotten, 0)
    assert not np.array_equal(obs, other), "what player 0 knows about player 1's hand is not in its observation"
    assert "known in hand: " in render(g.row, g.pool, viewer=0)
    assert "known in hand" not in render(forgotten, g.pool, viewer=0)


def test_SF_E3_hide_keeps_the_known_hand_cards_and_redeals_the_rest() -> None:
    """SF-R2: ``hide`` re-deals only what player 0 cannot know: the three known cards stay in player 1's hand in
    every re-deal, the fourth hand card is dealt from the 33 unseen ones."""
    g = _ran_out()
    rng = np.random.default_rng(0)
    fourth = set()
    for _ in range(40):
        variant = hide(g.row, 0, rng, g.pool)
        # hide also re-deals player 1's plan (open: any partial plan), which may have played a card this phase;
        # the observation still shows such a card in hand (``shown`` outlives the phase)
        played_now = STATE.get(variant, "play")[1, int(STATE.get(variant, "snap_play_count")[1]):]
        hand = {g.pool.name(int(i)) for i in np.concatenate([STATE.get(variant, "hand")[1], played_now]) if i >= 0}
        assert set(KNOWN) <= hand and len(hand) == 4
        fourth |= hand - set(KNOWN)
        np.testing.assert_array_equal(STATE.get(variant, "shown"), STATE.get(g.row, "shown"))
    assert len(fourth) > 5, "the unseen card is re-dealt"


def test_SF_E3_a_known_card_played_stays_in_hand_in_the_other_view_until_the_phase_ends() -> None:
    """SF-R2: player 1 plays a known card during the Defend phase: player 0's observation does not change (the plan
    is hidden until both are done); once the phase resolves, the card is a unit in play and no longer 'known'."""
    g = _ran_out()
    gold = g.get("resources").copy()
    gold[1, 0] = 5
    g.set("resources", gold)
    before = g.observe(0)
    g.play(1, "Siege Ram")
    np.testing.assert_array_equal(g.observe(0), before)
    g.finish(1)
    g.finish(0)
    assert (g.round, g.phase) != (2, PH_DEFEND), "the Defend phase resolved"
    inst = g.inst("Siege Ram")
    assert g.where(1, "Siege Ram") == LOC_PLAY
    assert int(g.get("shown")[1, inst]) == 0
    assert _card(g.observe(0), L.O_OPP_CARDS, inst, CARD_KNOWN) == 0


def test_SF_C9_my_units_played_this_phase_are_not_the_opponents_foes_and_the_observation_says_so() -> None:
    """SF-C9 (Foes are the units in play at the phase start): a Tin Sentry in play since the phase start and one I
    played this phase look the same live (3 health, unused, gold 0 left), but only the first can be hit by the
    opponent's plan; my observation tells them apart."""
    a = Game().setup(PH_DEFEND, 1, dict(play=["Tin Sentry"], gold=0), dict(hand=["Plague Rat"], gold=1))
    b = Game().setup(PH_DEFEND, 1, dict(hand=["Tin Sentry"], gold=1), dict(hand=["Plague Rat"], gold=1))
    b.play(0, "Tin Sentry")
    for name in ("loc", "unit_health", "resources", "used", "protected", "stunned", "play"):
        np.testing.assert_array_equal(a.get(name)[0], b.get(name)[0])
    inst = a.inst("Tin Sentry")
    assert _card(a.observe(0), L.O_MY_CARDS, inst, CARD_START_HEALTH) > 0
    assert _card(b.observe(0), L.O_MY_CARDS, inst, CARD_START_HEALTH) == 0
    assert not np.array_equal(a.observe(0), b.observe(0))
    a.play(1, "Plague Rat")  # its PLAY damage (1 to one Foe) has a Foe in a only; both phases resolve
    b.play(1, "Plague Rat")
    assert a.unit_health(0, "Tin Sentry") == 2 and b.unit_health(0, "Tin Sentry") == 3


def test_SF_E5_my_units_health_and_protection_as_the_opponents_filters_read_them() -> None:
    """SF-E5 / G3: the opponent's filters read my units as at the phase start. Field Medic heals my Mirror Knight
    from 2 to 4 this phase: the opponent's Headsman ('a Foe with 3 or less') can still hit it, which it could not had
    the Knight started at 4. My observation holds the phase-start health and Protection beside the live ones."""
    side = dict(play=[("Mirror Knight", 2), "Field Medic"], shields=1)
    a = Game().setup(PH_DEFEND, 1, dict(side), dict(hand=["Herald"], gold=1))  # player 1 still planning
    a.use(0, "Field Medic")
    if int(a.get("sub")[0]) == SUB_TARGET:
        a.ally(0, "Mirror Knight")
    knight = a.inst("Mirror Knight")
    assert a.unit_health(0, "Mirror Knight") == 4
    started_at_4 = a.row.copy()
    STATE.get(started_at_4, "snap_health")[0, knight] = 4
    obs_a, obs_b = a.observe(0), _observe(started_at_4, 0)
    assert _card(obs_a, L.O_MY_CARDS, knight, CARD_START_HEALTH) == 2  # its health then, stored as it is
    assert not np.array_equal(obs_a, obs_b)
    protected = a.row.copy()
    STATE.get(protected, "snap_protected")[0, knight] = 1
    assert _card(_observe(protected, 0), L.O_MY_CARDS, knight, CARD_START_PROTECTED) == 1


def test_SF_E5_my_health_as_the_opponents_conditions_read_it() -> None:
    """SF-E5 / G3: Blood Priest heals me from 8 to 11 this phase; the opponent's Dread Rider ('opponent at 8 or
    less') still reads 8. My observation holds my phase-start health (``me_start``) beside the live one."""
    a = Game().setup(PH_DEFEND, 1, dict(play=["Blood Priest"], health=8), dict(hand=["Herald"], gold=1))
    a.use(0, "Blood Priest")
    assert a.health(0) == 11
    b_row = a.row.copy()
    STATE.get(b_row, "snap_player")[0, 0] = 11
    obs_a = a.observe(0)
    assert obs_a[L.O_ME_START + L.PLAYER_HEALTH] == 8  # my health then, stored as it is
    assert not np.array_equal(obs_a, _observe(b_row, 0))


def test_SF_C3_which_entry_of_an_ability_is_resolving_is_observed(tmp_path: Path) -> None:
    """SF-C3 (entries resolve in order): an ability with two identical 'damage 1 one_foe' entries asks for a target
    twice; the two questions differ in what follows (one more target after the first), and the observation says
    which entry is being answered."""
    extra = tmp_path / "twin.toml"
    extra.write_text('[[card]]\nname = "Twin Archer"\ngold = 1\nhealth = 2\neffects = [\n'
                     '  { trigger = "attack", cost = "swords", cost_amount = 1, op = "damage", target = "one_foe", '
                     'amount = 1 },\n  { trigger = "attack", op = "damage", target = "one_foe", amount = 1 },\n]\n')
    pool = load_pool([DEFAULT_POOL, extra])
    deck = tmp_path / "d.toml"
    deck.write_text('name = "d"\n[cards]\n"Twin Archer" = 1\n"Tin Sentry" = 1\n"Herald" = 1\n')
    g = BatchGame(SPEC, 1, decks=(str(deck), str(deck)), seed=0, pool=pool)
    row = g.states[0]
    rec = STATE.get(row, "loc")
    twin = int(np.flatnonzero(STATE.get(row, "deck_list")[0] == len(pool) - 1)[0])
    for p in range(2):  # every card of both decks in play, swords to pay
        zone = STATE.get(row, "play")
        zone[p, :3] = [0, 1, 2]
        STATE.get(row, "play_count")[p] = 3
        STATE.get(row, "hand")[p, :] = -1
        STATE.get(row, "hand_count")[p] = 0
        STATE.get(row, "deck")[p, :] = -1
        STATE.get(row, "deck_count")[p] = 0
        rec[p, :3] = 3
        STATE.get(row, "unit_health")[p, :3] = 5
        STATE.get(row, "resources")[p] = (0, 0, 1)
    begin_phase(row, PH_ATTACK)
    settle(row, pool.tables, np.zeros(SPEC.num_actions, np.int8))
    g.step(np.array([A("use", twin)], np.int32), players=np.array([0], np.int32))
    assert int(STATE.get(g.states[0], "sub")[0]) == SUB_TARGET
    first = g.observe(np.array([0], np.int32))[0]
    second_row = g.states[0].copy()
    STATE.get(second_row, "cur_entry")[0] = 1
    second = _observe(second_row, 0, pool)
    assert first[L.O_PENDING + L.PENDING_ENTRY] == 1 and second[L.O_PENDING + L.PENDING_ENTRY + 1] == 1
    assert not np.array_equal(first, second)
