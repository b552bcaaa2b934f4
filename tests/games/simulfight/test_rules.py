"""Scenario tests, one or more per checklist rule ID (SF-*): build a position, act, check the outcome."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.errors import IllegalActionError
from cardenvs.core.header import DRAW, H_STATUS, H_TO_ACT, H_WINNER, LIVE, TERMINATED, TRUNCATED
from cardenvs.games.simulfight import SPEC, load_deck
from cardenvs.games.simulfight.state import (
    GOLD_PER_ROUND, LOC_DISCARD, LOC_HAND, LOC_PLAY, ROUND_CAP, START_GOLD, START_HEALTH, SUB_PAYER,
    SUB_TARGET,
)

from simulfight_helpers import DONE, PH_ATTACK, PH_DEFEND, Game


# ---- setup --------------------------------------------------------------------------------------------------------
def test_SF_S1_deck_is_one_copy_of_each_card_shuffled() -> None:
    a, b = Game(seed=1), Game(seed=2)
    n = len(a.pool)
    for g in (a, b):
        deck_list = g.get("deck_list")
        for p in range(2):
            np.testing.assert_array_equal(deck_list[p, :n], np.arange(n))
            assert (deck_list[p, n:] == -1).all()
            held = np.concatenate([g.get("deck")[p], g.get("hand")[p]])
            assert sorted(held[held >= 0].tolist()) == list(range(n))
    assert not np.array_equal(a.get("deck")[0], b.get("deck")[0]), "different seeds shuffle differently"
    assert not np.array_equal(a.get("deck")[0], a.get("deck")[1]), "each player shuffles their own deck"
    np.testing.assert_array_equal(load_deck(None, a.pool).card_ids, np.arange(n))
    full_file = load_deck(SPEC.deck_dir / "full.toml", a.pool)
    assert sorted(full_file.card_ids.tolist()) == list(range(n))


def test_SF_S1_custom_decks_per_player() -> None:
    g = Game(seed=3, decks=("aggro", "guard"))
    sizes = g.get("deck_size")
    aggro, guard = load_deck("aggro", g.pool), load_deck("guard", g.pool)
    assert sizes.tolist() == [len(aggro), len(guard)]
    np.testing.assert_array_equal(g.get("deck_list")[0, : len(aggro)], aggro.card_ids)
    np.testing.assert_array_equal(g.get("deck_list")[1, : len(guard)], guard.card_ids)


def test_SF_S2_start_with_2_gold_and_20_health() -> None:
    g = Game(seed=4)
    assert g.round == 1 and g.phase == PH_DEFEND
    for p in range(2):
        assert g.health(p) == START_HEALTH == 20
        assert g.gold(p) == START_GOLD + GOLD_PER_ROUND == 4  # 2 at setup, +2 at the round 1 Start phase
        assert int(g.get("hand_count")[p]) == 2


# ---- rounds -------------------------------------------------------------------------------------------------------
def test_SF_R1_round_is_start_defend_attack_with_both_players_acting() -> None:
    side = dict(play=["Ember Cultist"], hand=["Herald"], gold=1, swords=1)
    g = Game().setup(PH_DEFEND, 1, dict(side), dict(side))
    assert g.phase == PH_DEFEND and g.needs == 0b11 and int(g.row[H_TO_ACT]) == 0
    g.done(1)  # player 1 may decide before player 0 finishes: the phase is simultaneous
    assert g.needs == 0b01 and int(g.row[H_TO_ACT]) == 0
    g.done(0)
    assert g.phase == PH_ATTACK and g.round == 1 and g.needs == 0b11
    g.use(0, "Ember Cultist")
    assert g.needs == 0b10 and int(g.row[H_TO_ACT]) == 1
    g.use(1, "Ember Cultist")
    assert g.round == 2 and g.phase == PH_DEFEND
    assert g.health(0) == g.health(1) == 18


def test_SF_R3_start_draws_two_and_gains_two_gold() -> None:
    side = dict(hand=["Herald"], gold=1)
    g = Game().setup(PH_DEFEND, 1, dict(side), dict(side))
    tops = [g.get("deck")[p, int(g.get("deck_count")[p]) - 2: int(g.get("deck_count")[p])].tolist() for p in (0, 1)]
    g.done(0)
    g.done(1)
    assert g.round == 2
    for p in range(2):
        hand = g.get("hand")[p]
        assert sorted(hand[hand >= 0].tolist()) == sorted([g.inst("Herald"), *tops[p]])
        assert g.gold(p) == 1 + 2


def test_SF_R4_shields_and_swords_set_to_round_number() -> None:
    side = dict(hand=["Herald"], gold=1, shields=9, swords=0)
    g = Game().setup(PH_DEFEND, 4, dict(side), dict(side))
    g.done(0)
    g.done(1)
    assert g.round == 5
    assert [g.shields(0), g.swords(0), g.shields(1), g.swords(1)] == [5, 5, 5, 5]


def test_SF_R5_next_round_changes_apply_after_the_round_resources() -> None:
    side = dict(hand=["Herald"], gold=1, next=(-1, 2, -3))
    g = Game().setup(PH_DEFEND, 1, dict(side), dict(side))
    g.done(0)
    g.done(1)
    assert g.round == 2
    assert (g.gold(0), g.shields(0), g.swords(0)) == (1 + 2 - 1, 2 + 2, 0)  # swords 2 - 3 -> 0, never negative
    assert g.get("next_round")[0].tolist() == [0, 0, 0]


def test_SF_R5_next_round_gains_and_losses_from_cards() -> None:
    g = Game().setup(PH_DEFEND, 1,
                     dict(play=["Quartermaster"], shields=1),
                     dict(play=["Coin Hoarder"]))
    g.use(0, "Quartermaster")  # shields 1 -> you gain 2 swords next round
    g.use(1, "Coin Hoarder")  # -> you gain 1 gold next round
    g2 = Game().setup(PH_ATTACK, 1, dict(play=["Tithe Reeve", "Rust Saboteur"], swords=1, gold=1), dict())
    g2.use(0, "Tithe Reeve")  # opponent loses 1 gold next round, and 1 health
    g2.use(0, "Rust Saboteur")  # opponent loses 2 swords next round (gold cost)
    assert g2.round == 2
    assert (g2.gold(1), g2.swords(1), g2.health(1)) == (0 + 2 - 1, 0, 19)
    assert g.round == 2  # nothing else to decide: Attack passes, round 2 starts
    assert g.swords(0) == 2 + 2 and g.gold(1) == 0 + 2 + 1


def test_SF_R6_gold_carries_over_shields_and_swords_vanish() -> None:
    side = dict(hand=["Herald"], gold=3, shields=1, swords=1)
    g = Game().setup(PH_DEFEND, 2, dict(side), dict(side))
    g.done(0)
    g.done(1)
    assert g.round == 3
    assert (g.gold(0), g.shields(0), g.swords(0)) == (3 + 2, 3, 3)


# ---- Defend phase ---------------------------------------------------------------------------------------------------
def test_SF_D1_playing_costs_gold_and_enters_with_printed_health() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(hand=["Cinder Lancer", "Siege Ram"], gold=3), dict(hand=["Herald"], gold=1))
    assert g.A("play", "Siege Ram") not in g.legal(0), "4 gold card with 3 gold"
    assert g.A("play", "Cinder Lancer") in g.legal(0)
    g.play(0, "Cinder Lancer")
    assert g.gold(0) == 0
    assert g.where(0, "Cinder Lancer") == LOC_PLAY and g.unit_health(0, "Cinder Lancer") == 3
    assert g.get("played")[0, g.inst("Cinder Lancer")] == 1


def test_SF_D2_play_ability_happens_on_play() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(hand=["Herald", "Plague Rat", "Tin Sentry"], gold=3),
                     dict(play=["Hedge Archer"]))
    g.play(0, "Herald")
    assert g.swords(0) == 1  # PLAY: +1 sword, at once
    g.play(0, "Plague Rat")  # PLAY: a Foe loses 1 (the only Foe is picked automatically), at the phase end
    assert g.unit_health(1, "Hedge Archer") == 2
    g.done(0)
    assert g.round == 2 and g.unit_health(1, "Hedge Archer") == 1


def test_SF_D3_playing_is_optional_any_number_while_gold_lasts() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(hand=["Herald", "Plague Rat", "Hedge Archer"], gold=3),
                     dict(hand=["Herald"], gold=1))
    assert DONE in g.legal(0), "done is legal with playable cards in hand"
    g.play(0, "Herald")
    g.play(0, "Plague Rat")
    assert g.gold(0) == 1 and g.A("play", "Hedge Archer") not in g.legal(0)
    # a card in hand and gold for the cheapest card player 0 could hold (Herald, 1 gold, is in its deck): the plan
    # stays open with only `done` legal, so the plan's length does not tell player 1 what the hand holds
    assert g.needs & 1 and g.legal(0) == [DONE]
    g.done(0)
    g.done(1)  # player 1 saves its card
    assert g.where(1, "Herald") == LOC_HAND and g.where(0, "Hedge Archer") == LOC_HAND


def test_SF_D4_defend_abilities_are_mandatory_even_for_a_unit_played_this_phase() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(play=["Tin Sentry"], hand=["Coin Hoarder"], shields=1, gold=1),
                     dict(hand=["Herald"], gold=1))
    assert DONE not in g.legal(0)
    before = g.row.copy()
    with pytest.raises(IllegalActionError):
        g.done(0)  # not only masked: the step refuses it and leaves the game untouched
    np.testing.assert_array_equal(g.row, before)
    g.play(0, "Coin Hoarder")
    assert g.A("use", "Coin Hoarder") in g.legal(0) and DONE not in g.legal(0)
    g.use(0, "Coin Hoarder")
    assert DONE not in g.legal(0)
    g.use(0, "Tin Sentry")
    assert g.get("protected")[0, g.inst("Tin Sentry")] == 1
    assert g.get("next_round")[0, 0] == 1
    assert g.needs == 0b10, "player 0's plan is done (nothing left to decide)"


def test_SF_D5_any_order_and_an_unaffordable_ability_is_skipped() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(play=["Tin Sentry", "Warden"], hand=["Herald"], shields=2, gold=1),
                     dict(hand=["Herald"], gold=1))
    assert {g.A("use", "Tin Sentry"), g.A("use", "Warden"), g.A("play", "Herald")} <= set(g.legal(0))
    g.use(0, "Tin Sentry")  # 1 shield left: Warden (2 shields) can no longer be paid
    assert g.A("use", "Warden") not in g.legal(0) and DONE in g.legal(0)
    g.play(0, "Herald")  # plays and abilities interleave
    assert g.needs == 0b10
    assert g.get("protected")[0, g.inst("Tin Sentry")] == 1 and g.get("protected")[0, g.inst("Warden")] == 0


def test_SF_D5_the_other_order_uses_the_other_ability() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(play=["Tin Sentry", "Warden"], shields=2), dict(hand=["Herald"], gold=1))
    g.use(0, "Warden")
    assert int(g.get("sub")[0]) == SUB_TARGET  # one ally to protect: two candidates
    g.ally(0, "Warden")
    assert g.shields(0) == 0 and g.needs == 0b10
    assert g.get("protected")[0, g.inst("Warden")] == 1 and g.get("protected")[0, g.inst("Tin Sentry")] == 0


# ---- Attack phase ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("first, expected", [("Ember Cultist", 18), ("Cinder Lancer", 16)])
def test_SF_A1_attack_abilities_mandatory_in_chosen_order(first: str, expected: int) -> None:
    g = Game().setup(PH_ATTACK, 1, dict(play=["Cinder Lancer", "Ember Cultist"], swords=2), dict())
    assert DONE not in g.legal(0)
    assert {g.A("use", "Cinder Lancer"), g.A("use", "Ember Cultist")} <= set(g.legal(0))
    g.use(0, first)  # either way the other one is then unaffordable and skipped
    assert g.round == 2 and g.health(1) == expected


# ---- costs and effects ----------------------------------------------------------------------------------------------
def test_SF_C1_each_cost_kind_is_paid() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(play=["Tin Sentry", "Spearwall", ("Bone Serf", 4)], shields=1, swords=1),
                     dict(play=["Ember Cultist"], hand=["Herald"], gold=1))
    g.use(0, "Tin Sentry")
    assert g.shields(0) == 0
    g.use(0, "Spearwall")
    assert g.swords(0) == 0
    g.use(0, "Bone Serf")  # payers: Bone Serf (4) and Spearwall (4), Tin Sentry is Protected
    assert int(g.get("sub")[0]) == SUB_PAYER
    g.ally(0, "Bone Serf")
    assert g.unit_health(0, "Bone Serf") == 2 and g.swords(0) == 2
    g2 = Game().setup(PH_ATTACK, 1, dict(play=["Gilded Mercenary"], gold=3), dict())
    g2.use(0, "Gilded Mercenary")
    assert g2.gold(0) == 1 + 2 and g2.health(1) == 17  # gold paid (then +2 at round 2), opponent -3


def test_SF_C2_health_cost_needs_ally_with_enough() -> None:
    # only Hedge Archer (2) can pay Bone Serf's 2: it is picked automatically
    g = Game().setup(PH_DEFEND, 1, dict(play=[("Bone Serf", 1), ("Hedge Archer", 2)]), dict())
    g.use(0, "Bone Serf")
    assert g.unit_health(0, "Hedge Archer") == 0 and g.unit_health(0, "Bone Serf") == 1
    # two can pay: the player chooses, and only they are offered (Protected and too-weak allies are not)
    g = Game().setup(PH_DEFEND, 1, dict(play=[("Bone Serf", 4), "Tin Sentry", ("Hedge Archer", 1), "Warden"],
                                        protected=["Warden"]), dict())
    g.use(0, "Bone Serf")
    assert g.legal(0) == sorted([g.A("ally", "Bone Serf"), g.A("ally", "Tin Sentry")])
    g.ally(0, "Tin Sentry")
    assert g.unit_health(0, "Tin Sentry") == 1
    # nobody can pay: the ability is not usable and not mandatory
    g = Game().setup(PH_DEFEND, 1, dict(play=[("Bone Serf", 1)], hand=["Herald"], gold=1), dict())
    assert g.A("use", "Bone Serf") not in g.legal(0) and DONE in g.legal(0)


def test_SF_C3_payable_ability_is_used_even_if_useless_or_harmful() -> None:
    g = Game().setup(PH_ATTACK, 1, dict(play=["Gloam Stalker", "Reckless Bomber"], swords=1),
                     dict(play=[("Siege Ram", 5)]))
    assert DONE not in g.legal(0)
    g.use(0, "Gloam Stalker")  # no Foe with 2 or less: pays a sword, does nothing
    assert g.swords(0) == 0 and g.get("in_damage")[1].sum() == 0
    g.use(0, "Reckless Bomber")  # costs nothing, so always mandatory; it hurts its user
    assert g.health(0) == 19
    assert g.round == 2 and g.health(1) == 18 and g.unit_health(1, "Siege Ram") == 5


def test_SF_C4_shields_and_swords_pay_either_phase() -> None:
    """The pool pays DEFEND with shields and ATTACK with swords, except Spearwall (DEFEND, swords) and Hexblade
    (ATTACK, shields); shields left from Defend remain for Attack in the same round."""
    g = Game().setup(PH_DEFEND, 1, dict(play=["Spearwall", "Hexblade"], shields=1, swords=1),
                     dict(play=[("Siege Ram", 6)]))
    g.use(0, "Spearwall")
    assert g.swords(0) == 0 and g.shields(0) == 1
    g.finish(1)
    assert g.phase == PH_ATTACK
    g.use(0, "Hexblade")
    assert g.round == 2 and g.unit_health(1, "Siege Ram") == 6 - 1 - 2


def test_SF_C5_unit_at_zero_cannot_gain_or_lose_more() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(play=[("Bone Serf", 2), ("Field Medic", 2)], shields=1),
                     dict(play=["Spearwall"], swords=1))
    g.use(0, "Bone Serf")
    g.ally(0, "Bone Serf")  # pays with itself: 0
    g.use(0, "Field Medic")
    g.ally(0, "Bone Serf")  # heal 2 on a unit at 0: nothing
    assert g.unit_health(0, "Bone Serf") == 0
    g.use(1, "Spearwall")
    g.foe(1, "Bone Serf")  # a Foe at the phase start (2); at landing it is at 0 and loses nothing more
    assert g.round == 2
    assert g.unit_health(0, "Bone Serf") == 0 and g.where(0, "Bone Serf") == LOC_DISCARD


def test_SF_C6_protected_unit_loses_no_health_until_round_end() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(play=["Tin Sentry"], shields=1), dict(play=["Spearwall"], swords=1))
    g.use(1, "Spearwall")  # player 1 resolves first; its hit lands only at the phase end
    g.use(0, "Tin Sentry")  # Protected this phase, before the landing
    assert g.round == 2 and g.unit_health(0, "Tin Sentry") == 3
    g2 = Game().setup(PH_DEFEND, 1, dict(play=["Tin Sentry"], protected=["Tin Sentry"], hand=["Herald"], gold=1),
                      dict())
    g2.done(0)  # Attack: no abilities; then round 2 starts
    assert g2.round == 2 and g2.get("protected")[0].sum() == 0, "Protected ends with the round"


def test_SF_C7_stunned_unit_uses_no_abilities_to_round_end() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(play=["Frost Hexer", "Ember Cultist"], shields=2, swords=1),
                     dict(play=["Hedge Archer"], hand=["Herald"], gold=1, swords=1))
    g.use(0, "Frost Hexer")  # the only Foe is the target
    g.done(1)
    assert g.phase == PH_ATTACK and g.get("stunned")[1, g.inst("Hedge Archer")] == 1
    assert g.needs == 0b01, "the stunned Hedge Archer cannot use its ATTACK: player 1 has nothing to decide"
    g.use(0, "Ember Cultist")
    assert g.round == 2 and g.get("stunned")[1].sum() == 0, "Stunned ends with the round"


def test_SF_C8_unit_that_lost_all_health_uses_no_more_abilities() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(play=[("Bone Serf", 1), ("Mirror Knight", 2)], shields=1),
                     dict(hand=["Herald"], gold=1))
    g.use(0, "Bone Serf")  # only Mirror Knight has 2 health: it pays and drops to 0
    assert g.unit_health(0, "Mirror Knight") == 0 and g.shields(0) == 1
    assert g.needs == 0b10, "Mirror Knight's DEFEND (payable with the shield) is no longer used"
    g.done(1)
    assert g.get("protected")[0, g.inst("Mirror Knight")] == 0 and g.where(0, "Mirror Knight") == LOC_DISCARD


def test_SF_C8_unit_stunned_this_round_uses_no_more_abilities() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(hand=["Mud Golem"], gold=2, swords=3),
                     dict(play=["Ember Cultist"], hand=["Herald"], gold=1, swords=1))
    g.play(0, "Mud Golem")  # PLAY: stuns and protects itself
    g.done(1)
    assert g.phase == PH_ATTACK and g.round == 1
    assert g.needs == 0b10 and g.swords(0) == 3, "Mud Golem's ATTACK (payable) is not used this round"
    g.use(1, "Ember Cultist")
    assert g.round == 2 and g.where(0, "Mud Golem") == LOC_PLAY and g.get("stunned")[0].sum() == 0


def test_SF_C9_allies_are_own_units_foes_are_the_other_players_units_at_phase_start() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(hand=["Plague Rat"], gold=1, play=["Field Medic"], shields=1),
                     dict(play=["Hedge Archer", "Ember Cultist"], hand=["Herald"], gold=1))
    g.play(1, "Herald")  # played this phase: not visible, so not a Foe player 0 can target
    g.play(0, "Plague Rat")
    assert g.legal(0) == sorted([g.A("foe", "Hedge Archer"), g.A("foe", "Ember Cultist")])
    g.foe(0, "Ember Cultist")
    g.use(0, "Field Medic")  # one Ally: Field Medic or Plague Rat
    assert g.legal(0) == sorted([g.A("ally", "Field Medic"), g.A("ally", "Plague Rat")])
    g.ally(0, "Plague Rat")
    assert g.unit_health(0, "Plague Rat") == 3


# ---- end of phase, game end -----------------------------------------------------------------------------------------
def test_SF_E1_units_at_zero_discarded_after_phase_damage_persists() -> None:
    g = Game().setup(PH_ATTACK, 1, dict(play=["Hedge Archer", "Bloodsworn Berserker"], swords=1),
                     dict(play=["Ember Cultist", "Hexblade"]))
    g.use(0, "Hedge Archer")
    g.foe(0, "Ember Cultist")  # 3 -> 1
    g.use(0, "Bloodsworn Berserker")
    g.ally(0, "Bloodsworn Berserker")
    g.foe(0, "Hexblade")  # 3 -> 0
    assert g.round == 2
    assert g.in_play(1) == ["Ember Cultist"] and g.unit_health(1, "Ember Cultist") == 1
    assert g.where(1, "Hexblade") == LOC_DISCARD
    assert g.unit_health(0, "Bloodsworn Berserker") == 4, "damage is kept across rounds"


@pytest.mark.parametrize("h0, h1, winner", [(2, 1, 0), (1, 2, 1), (2, 3, 1), (2, 2, DRAW)])
def test_SF_E2_game_ends_higher_health_wins_even_negative(h0: int, h1: int, winner: int) -> None:
    g = Game().setup(PH_ATTACK, 3, dict(play=["Siege Ram"], swords=3, health=h0),
                     dict(play=["Siege Ram"], swords=3, health=h1))
    g.use(0, "Siege Ram")
    g.use(1, "Siege Ram")  # both -5: e.g. 2 -> -3 and 1 -> -4
    assert int(g.row[H_STATUS]) == TERMINATED and int(g.row[H_WINNER]) == winner
    assert g.needs == 0 and int(g.row[H_TO_ACT]) == -1
    assert (g.health(0), g.health(1)) == (h0 - 5, h1 - 5)


def test_SF_E2_game_goes_on_while_both_are_above_zero() -> None:
    g = Game().setup(PH_ATTACK, 3, dict(play=["Siege Ram"], swords=3, health=6), dict(health=6))
    g.use(0, "Siege Ram")
    assert int(g.row[H_STATUS]) == LIVE and g.health(1) == 1 and g.round == 4


def test_SF_E3_empty_deck_reshuffles_the_discard_pile() -> None:
    g = Game()
    n = len(g.pool)
    rest = [g.pool.name(i) for i in range(n) if g.pool.name(i) != "Herald"]
    g.setup(PH_DEFEND, 1, dict(hand=["Herald"], gold=1, discard=rest), dict(hand=["Herald"], gold=1))
    assert int(g.get("deck_count")[0]) == 0
    g.done(0)
    g.done(1)
    assert g.round == 2
    assert int(g.get("hand_count")[0]) == 3 and int(g.get("deck_count")[0]) == n - 3
    assert int(g.get("discard_count")[0]) == 0
    assert (g.get("loc")[0, :n] != LOC_DISCARD).all()


def test_SF_E4_round_cap_truncates() -> None:
    g = Game().setup(PH_DEFEND, ROUND_CAP, dict(hand=["Herald"], gold=1), dict())
    g.done(0)
    assert int(g.row[H_STATUS]) == TRUNCATED and int(g.row[H_WINNER]) == -1
    assert g.needs == 0 and int(g.row[H_TO_ACT]) == -1 and g.round == ROUND_CAP


def test_SF_E5_effects_land_together_units_trade() -> None:
    """Both Hedge Archers shoot each other: each plan reads the other side as at the phase start, both die."""
    side = dict(play=["Hedge Archer"], swords=1)
    g = Game().setup(PH_ATTACK, 1, dict(side), dict(side))
    g.use(0, "Hedge Archer")
    assert g.where(1, "Hedge Archer") == LOC_PLAY and g.unit_health(1, "Hedge Archer") == 2, "not landed yet"
    g.use(1, "Hedge Archer")
    assert g.in_play(0) == [] and g.in_play(1) == []


def test_SF_E5_conditions_read_the_other_side_at_phase_start() -> None:
    g = Game().setup(PH_ATTACK, 1, dict(play=["Gloam Stalker"], swords=1),
                     dict(play=[("Bloodsworn Berserker", 3)]))
    g.use(1, "Bloodsworn Berserker")  # pays 1 health from itself (3 -> 2) and queues 3 damage on Gloam Stalker
    assert g.unit_health(1, "Bloodsworn Berserker") == 2
    g.use(0, "Gloam Stalker")  # 'a Foe with 2 or less': at the phase start the Berserker had 3 -> no target
    assert g.round == 2 and g.unit_health(1, "Bloodsworn Berserker") == 2


def test_SF_E5_stun_and_damage_land_at_the_end_of_the_phase() -> None:
    g = Game().setup(PH_DEFEND, 1, dict(play=["Frost Hexer", "Spearwall", "Ember Cultist"], shields=2, swords=2),
                     dict(play=["Mirror Knight"], shields=1))
    g.use(0, "Frost Hexer")  # stun Mirror Knight: lands at the end, so it still protects itself now
    g.use(0, "Spearwall")
    assert g.A("use", "Mirror Knight") in g.legal(1)
    g.use(1, "Mirror Knight")
    assert g.phase == PH_ATTACK
    assert g.get("stunned")[1, g.inst("Mirror Knight")] == 1 and g.unit_health(1, "Mirror Knight") == 4


def test_SF_E5_own_plan_sees_the_damage_it_queued_on_a_foe() -> None:
    """Issue 12 #22 (G3): your plan sees the Foes as at the phase start *less what your own plan queued on them*:
    Hedge Archer's 2 damage brings Siege Ram (4) to 2, so the same plan's Gloam Stalker (a Foe with 2 or less) can
    hit it; a Foe Protected at the phase start keeps its health in that view (the damage will not land)."""
    g = Game().setup(PH_ATTACK, 1, dict(play=["Hedge Archer", "Gloam Stalker"], swords=2),
                     dict(play=[("Siege Ram", 4), "Ember Cultist"]))
    g.use(0, "Hedge Archer")
    g.foe(0, "Siege Ram")
    g.use(0, "Gloam Stalker")  # Siege Ram is now the only Foe with 2 or less: picked automatically (4 - 2 - 3)
    assert g.round == 2 and g.where(1, "Siege Ram") == LOC_DISCARD
    assert g.unit_health(1, "Ember Cultist") == 3
    # the same plan against a Protected Foe: its health stays 4 in the plan's view, Gloam Stalker has no target
    g = Game().setup(PH_ATTACK, 1, dict(play=["Hedge Archer", "Gloam Stalker"], swords=2),
                     dict(play=[("Siege Ram", 4), "Ember Cultist"], protected=["Siege Ram"]))
    g.use(0, "Hedge Archer")
    g.foe(0, "Siege Ram")
    g.use(0, "Gloam Stalker")
    assert g.get("in_damage")[1].sum() == 0 and g.round == 2
    assert g.unit_health(1, "Siege Ram") == 4


def test_SF_E5_own_plan_sees_the_damage_it_queued_on_the_opponent() -> None:
    """Issue 12 #22: Dread Rider's second entry (3 damage if the opponent has 8 or less) sees its first (2 damage),
    and the damage any earlier ability of the same plan queued; the other player's plan is never seen."""
    g = Game().setup(PH_ATTACK, 3, dict(play=["Dread Rider"], swords=2), dict(health=10))
    g.use(0, "Dread Rider")
    assert g.round == 4 and g.health(1) == 10 - 2 - 3
    g = Game().setup(PH_ATTACK, 3, dict(play=["Dread Rider"], swords=2), dict(health=11))
    g.use(0, "Dread Rider")
    assert g.round == 4 and g.health(1) == 11 - 2, "11 - 2 = 9 is above 8: no second hit"
    g = Game().setup(PH_ATTACK, 3, dict(play=["Dread Rider", "Ember Cultist"], swords=3), dict(health=11))
    g.use(0, "Ember Cultist")  # 2 damage queued first: the Rider's second entry sees 11 - 2 - 2 = 7
    g.use(0, "Dread Rider")
    assert g.round == 4 and g.health(1) == 11 - 2 - 2 - 3
    # player 1's own damage to itself (Reckless Bomber) lands at once on its side, but player 0's plan reads
    # player 1 as at the phase start: 9 - 2 = 7 for the Rider's second entry, whatever player 1 does
    g = Game().setup(PH_ATTACK, 3, dict(play=["Dread Rider"], swords=2), dict(health=11, play=["Reckless Bomber"]))
    g.use(1, "Reckless Bomber")
    assert g.health(1) == 10
    g.use(0, "Dread Rider")
    assert g.round == 4 and g.health(1) == 11 - 1 - 2


def test_SF_C2_C6_a_protected_ally_cannot_pay_a_health_cost() -> None:
    """Issue 12 #23, a stated rule (G5): paying a health cost is losing health, which a Protected unit cannot do, so a
    Protected ally is never offered as the payer; an ability whose only possible payers are Protected cannot be paid
    and is therefore not used this round (SF-D5), like any unaffordable ability. Order is the player's choice: with
    Bone Serf (DEFEND: 2 health -> +2 swords) and Bulwark Golem (DEFEND: 3 shields -> protect all allies), protecting
    first leaves nobody to pay."""
    side = dict(play=["Bone Serf", "Bulwark Golem"], shields=3, swords=3)
    g = Game().setup(PH_DEFEND, 3, dict(side), dict(hand=["Herald"], gold=1))
    assert {g.A("use", "Bone Serf"), g.A("use", "Bulwark Golem")} <= set(g.legal(0)) and DONE not in g.legal(0)
    g.use(0, "Bulwark Golem")
    assert g.get("protected")[0, [g.inst("Bone Serf"), g.inst("Bulwark Golem")]].tolist() == [1, 1]
    assert g.A("use", "Bone Serf") not in g.legal(0), "both allies are Protected: nobody can pay 2 health"
    assert g.needs & 1 == 0, "nothing left to decide: the plan closes, Bone Serf's DEFEND is not used"
    assert g.swords(0) == 3 and g.unit_health(0, "Bone Serf") == 4 and g.unit_health(0, "Bulwark Golem") == 7
    g.done(1)
    assert g.round == 4 and g.unit_health(0, "Bone Serf") == 4
    # the other order: Bone Serf pays first (either ally may pay), then the Golem protects both
    g = Game().setup(PH_DEFEND, 3, dict(side), dict(hand=["Herald"], gold=1))
    g.use(0, "Bone Serf")
    assert g.legal(0) == sorted([g.A("ally", "Bone Serf"), g.A("ally", "Bulwark Golem")])
    g.ally(0, "Bulwark Golem")
    assert g.swords(0) == 3 + 2 and g.unit_health(0, "Bulwark Golem") == 5
    # a Protected ally with enough health is not offered while an unprotected one can pay
    g = Game().setup(PH_DEFEND, 3, dict(play=["Bone Serf", "Warden"], protected=["Warden"]), dict())
    g.use(0, "Bone Serf")  # the only payer that can lose health is Bone Serf itself: picked automatically
    assert g.unit_health(0, "Bone Serf") == 2 and g.unit_health(0, "Warden") == 5


def test_SF_C9_other_allies_excludes_the_source_all_allies_includes_it() -> None:
    """Shield Maiden (DEFEND: heal 1 other_allies) heals every other ally, not itself; Bulwark Golem (DEFEND: protect
    all_allies) protects every ally, itself included; neither reaches a Foe."""
    g = Game().setup(PH_DEFEND, 3, dict(play=[("Shield Maiden", 2), ("Tin Sentry", 1), ("Bulwark Golem", 5)],
                                        shields=4), dict(play=[("Warden", 2)], hand=["Herald"], gold=1))
    g.use(0, "Shield Maiden")
    assert [g.unit_health(0, c) for c in ("Shield Maiden", "Tin Sentry", "Bulwark Golem")] == [2, 2, 6]
    g.use(0, "Bulwark Golem")
    assert g.get("protected")[0, [g.inst(c) for c in ("Shield Maiden", "Tin Sentry", "Bulwark Golem")]].tolist() == [1] * 3
    assert g.unit_health(1, "Warden") == 2 and g.get("protected")[1].sum() == 0
