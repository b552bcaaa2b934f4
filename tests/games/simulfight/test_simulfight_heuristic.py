"""The heuristic pilot plays its game (issue 38, step 2): it knows how the game is won, and it decides only from what
its seat may know (the same choice whatever the hidden cards and the other plan are)."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.agents.heuristic_simulfight import DEFAULT_WEIGHTS, WEIGHT_NAMES, HeuristicAgent
from cardenvs.core.errors import BadArgumentError
from cardenvs.core.header import H_STATUS, H_WINNER, TERMINATED
from cardenvs.games.simulfight import hide
from cardenvs.games.simulfight.state import STATE

from simulfight_helpers import PH_ATTACK, PH_DEFEND, Game


def _choice(g: Game, p: int, weights: np.ndarray | None = None, states: np.ndarray | None = None) -> int:
    agent = HeuristicAgent(pool=g.pool, weights=weights)
    mask = g.mask(p)[None]
    rows = g.g.states.copy() if states is None else states
    return int(agent.act(None, mask, states=rows, players=np.array([p], np.int32), fallback=False)[0])


def _lethal_or_sweep() -> Game:
    """Two swords, two abilities that cost two swords each: Cinder Lancer's 4 damage brings the opponent (at 4) to 0,
    Firebrand's 1 damage to every Foe kills three valuable 1-health Foes and leaves the opponent at 3."""
    foes = [("Siege Ram", 1), ("Headsman", 1), ("Gilded Mercenary", 1)]
    return Game().setup(PH_ATTACK, 3, dict(play=["Cinder Lancer", "Firebrand"], swords=2),
                        dict(play=foes, health=4, swords=0, gold=0))


def test_SF_E2_the_heuristic_takes_the_win_over_a_unit_sweep() -> None:
    """SF-E2 (the game ends after a phase with a player at 0 or less; higher health wins): the heuristic uses Cinder
    Lancer, which wins, rather than Firebrand, which scores more on units; without the win weight it sweeps."""
    g = _lethal_or_sweep()
    lancer, firebrand = g.A("use", "Cinder Lancer"), g.A("use", "Firebrand")
    assert _choice(g, 0) == lancer
    no_win = DEFAULT_WEIGHTS.copy()
    no_win[WEIGHT_NAMES.index("win")] = 0.0
    assert _choice(g, 0, no_win) == firebrand, "the scenario needs the win condition to decide"
    g.use(0, "Cinder Lancer")
    g.finish(1)
    assert int(g.row[H_STATUS]) == TERMINATED and int(g.row[H_WINNER]) == 0


def test_SF_E2_the_win_needs_the_opponent_below_my_own_health() -> None:
    """SF-E2 (higher health wins, even negative): bringing the opponent to 0 is no win while I am at 0 or less
    myself and not above it; there the bonus is not given and the heuristic sweeps."""
    g = _lethal_or_sweep()
    health = g.get("health").copy()
    health[0] = -1  # I am below the 0 the Lancer would leave the opponent at: no win
    g.set("health", health)
    assert _choice(g, 0) == g.A("use", "Firebrand")
    health[0] = 0  # equal: a draw at best, no win either
    g.set("health", health)
    assert _choice(g, 0) == g.A("use", "Firebrand")
    health[0] = 1
    g.set("health", health)
    assert _choice(g, 0) == g.A("use", "Cinder Lancer")


def test_SF_R2_the_heuristic_decides_the_same_whatever_its_seat_cannot_know() -> None:
    """SF-R2 (honest pilot): re-dealing what the deciding seat cannot know (``hide``) and changing the other plan's
    queued effects against it never changes the choice, here and in the position where cards are known in hand."""
    g = _lethal_or_sweep()
    rng = np.random.default_rng(4)
    base = _choice(g, 0)
    for _ in range(10):
        variant = hide(g.row, 0, rng, g.pool)
        STATE.get(variant, "in_player_damage")[0] = int(rng.integers(0, 30))
        STATE.get(variant, "in_damage")[0, :] = rng.integers(0, 3, size=STATE.get(variant, "in_damage")[0].shape)
        assert _choice(g, 0, states=variant[None]) == base


def _stun_choice(health: int) -> Game:
    """Defend, round 2: my Frost Hexer must stun one Foe. Cinder Lancer (its ATTACK: 2 swords -> 4 damage to me; the
    opponent has 2 swords) or Siege Ram (worth more, but its 3-sword ATTACK is out of the opponent's reach)."""
    g = Game().setup(PH_DEFEND, 2, dict(play=["Frost Hexer"], shields=2, health=health),
                     dict(play=["Cinder Lancer", "Siege Ram"], swords=2, shields=2, hand=["Herald"], gold=1))
    g.use(0, "Frost Hexer")
    return g


def test_SF_E2_the_heuristic_stuns_the_foe_that_would_kill_it() -> None:
    """SF-E2 (the loss it can see coming) with SF-C7 (a Stunned unit uses no ability to the round end): at 4 health,
    exactly Cinder Lancer's damage, the heuristic stuns the Lancer; at 5 (one more than the threat) it stuns the
    more valuable Siege Ram, as it does without the threat weight."""
    lancer, ram = _stun_choice(4), _stun_choice(5)
    assert _choice(lancer, 0) == lancer.A("foe", "Cinder Lancer")
    assert _choice(ram, 0) == ram.A("foe", "Siege Ram")
    no_threat = DEFAULT_WEIGHTS.copy()
    no_threat[WEIGHT_NAMES.index("lethal_threat")] = 0.0
    assert _choice(lancer, 0, no_threat) == lancer.A("foe", "Siege Ram"), "the scenario needs the threat to decide"


def test_SF_C9_E1_the_heuristic_buys_a_unit_killer_over_a_resource_unit(monkeypatch) -> None:
    """SF-C9 (all_foes: the other player's units) and SF-E1 (units at 0 or less are discarded): damage to Foes is
    worth a point of player health per point, as damage to the opponent is (``FOE_DAMAGE_WORTH``). With 2 gold and
    Pack Hunter (1 damage to every Foe each Attack phase) or War Banner (a sword each Defend phase) in hand, it buys
    Pack Hunter; valued at 0.6 a point, as before 2026-11-30, it bought War Banner, and a learner trained against
    it won with the unit killers it never bought."""
    import cardenvs.agents.heuristic_simulfight as heuristic

    g = Game().setup(PH_DEFEND, 2, dict(hand=["Pack Hunter", "War Banner"], gold=2),
                     dict(play=[("Siege Ram", 1), ("Headsman", 1)]))
    assert _choice(g, 0) == g.A("play", "Pack Hunter")
    monkeypatch.setattr(heuristic, "FOE_DAMAGE_WORTH", 0.6)
    assert _choice(g, 0) == g.A("play", "War Banner"), "the scenario needs the worth of damage to Foes to decide"


def test_SF_E1_C9_the_heuristic_puts_damage_on_a_hurt_foe_before_a_fresh_one() -> None:
    """SF-E1 (damage on a surviving unit persists) and SF-C9 (one_foe: the player picks the Foe): Hedge Archer's 2
    damage kills neither Bulwark Golem (7 of 7 health) nor Bloodsworn Berserker (3 of 5). The heuristic hits the hurt
    Berserker, which the next point of damage brings nearer the discard pile (the ``wounded`` weight); with that weight
    at 0 every non-lethal point is worth the same and it takes the first Foe, the Golem."""
    g = Game().setup(PH_ATTACK, 2, dict(play=["Hedge Archer"], swords=1),
                     dict(play=["Bulwark Golem", ("Bloodsworn Berserker", 3)], swords=0))
    g.use(0, "Hedge Archer")
    assert _choice(g, 0) == g.A("foe", "Bloodsworn Berserker")
    flat = DEFAULT_WEIGHTS.copy()
    flat[WEIGHT_NAMES.index("wounded")] = 0.0
    assert _choice(g, 0, flat) == g.A("foe", "Bulwark Golem"), "the scenario needs the wounded weight to decide"


def test_SF_C3_the_heuristic_values_a_conditional_effect_by_how_often_it_holds(monkeypatch) -> None:
    """SF-C3 with G7 (an entry whose condition is false does nothing, its cost still paid): Giant Slayer's 4 damage
    needs a Foe with 5 health or more: 6 of the pool's 36 cards can have it, and a unit at a health from 1 to its
    printed health, equally likely, has it about 1 time in 21 (``condition_odds``); Hexblade's 2 damage always
    lands. With 3 gold and both in hand the heuristic buys Hexblade; counting every condition as always true, as
    before 2026-11-30, it bought Giant Slayer."""
    import cardenvs.agents.heuristic_simulfight as heuristic
    from cardenvs.games.simulfight.cards import CONDITIONS

    g = Game().setup(PH_DEFEND, 2, dict(hand=["Giant Slayer", "Hexblade"], gold=3),
                     dict(play=[("Hedge Archer", 2), ("Coin Hoarder", 2)]))
    slayer_odds = heuristic.condition_odds(HeuristicAgent(pool=g.pool).cards, CONDITIONS.index("health_ge"), 5)
    # Bulwark Golem 3/7, Mud Golem and Siege Ram 2/6 each, the three at 5 health 1/5 each, of 36 cards
    assert abs(slayer_odds - (3 / 7 + 2 * 2 / 6 + 3 * 1 / 5) / 36) < 1e-9
    assert _choice(g, 0) == g.A("play", "Hexblade")
    monkeypatch.setattr(heuristic, "condition_odds", lambda *args: 1.0)
    assert _choice(g, 0) == g.A("play", "Giant Slayer"), "the scenario needs the condition's odds to decide"


def test_weights_of_the_wrong_length_are_one_clear_error() -> None:
    """The kernels read the weights by position, so an array of another length (such as the 16 weights before
    ``wounded`` was added) is refused before any kernel runs, with the names it should hold."""
    for bad in (DEFAULT_WEIGHTS[:-1], np.append(DEFAULT_WEIGHTS, 1.0), np.full_like(DEFAULT_WEIGHTS, np.nan)):
        with pytest.raises(BadArgumentError, match="17 finite numbers.*wounded"):
            HeuristicAgent(weights=bad)
    assert HeuristicAgent(weights=DEFAULT_WEIGHTS.copy()).weights.shape == (17,)
