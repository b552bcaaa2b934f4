"""``endings.py``: how a finished divinecross game ended (``eval``'s "how games end"), read from the final state.

One test per ending code, reaching that ending the way the DC-V scenario tests do (``divinecross_helpers.build``),
then random games played out through the batch core: every game the rules ended is explained, nothing else is.
"""
from __future__ import annotations

import numpy as np
from divinecross_helpers import build, do

from cardenvs.core.batch import BatchGame
from cardenvs.testing import random_endings
from cardenvs.core.header import DRAW, H_STATUS, H_WINNER, TERMINATED, TRUNCATED
from cardenvs.core.rows import forfeit_game
from cardenvs.games.divinecross import SPEC
from cardenvs.games.divinecross.endings import BOTH_LOST, ENDINGS, NO_UNIT_LEFT, THIRD_KO
from cardenvs.games.divinecross.state import ST_BATTLE, ST_MAIN, TURN_CAP

MAIN_HOLD = "Vagabond Scout"  # hp 400, no attribute, Quick Jab: 0 Energy, 100 damage


def side(main: str = MAIN_HOLD, **kw) -> dict:
    s = {"main": main}
    s.update(kw)
    return s


def skill_hit(attacker: dict, defender: dict, skill: int = 0) -> BatchGame:
    """Player 0 uses ``skill`` in the Battle Phase against player 1; returns the game after the hit."""
    g = build(attacker, defender, step=ST_BATTLE)
    do(g, "skill", skill)
    return g


def ended_as(g: BatchGame, winner: int) -> np.ndarray:
    """The game's final row, checked to be a finished game with ``winner``."""
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == winner
    return g.states[0].copy()


def test_endings_name_the_games_rules() -> None:
    assert SPEC.endings == ENDINGS
    assert [rule for rule, _ in ENDINGS] == ["DC-V1", "DC-O7", "DC-V3"]
    assert [ENDINGS[c][0] for c in (THIRD_KO, NO_UNIT_LEFT, BOTH_LOST)] == ["DC-V1", "DC-O7", "DC-V3"]


def test_DC_V1_endings_third_card_in_the_ko_zone_is_read_as_a_ko_zone_loss() -> None:
    # Smoldering Ember KOs player 1's damaged Standby Unit: the third card in its KO Zone (its Main Unit stays)
    g = build(side(hand=["Smoldering Ember"]),
              side("Wandering Golem", standby=["Pollen Wisp", "Grove Stag"], damage={1: 300},
                   ko=["Grove Stag", "Bloom Dryad"]), step=ST_MAIN)
    do(g, "hand", 0)
    by_effect = ended_as(g, 0)
    # DC-V2: a deck-out KO of the own Main Unit counts the same (the third card, a Standby Unit left to move up)
    g = build(side(), side("Vagabond Scout", damage={0: 300}, standby=["Grove Stag"],
                           ko=["Bloom Dryad", "Pollen Wisp"], deck=[], fill=False), step=ST_MAIN)
    do(g, "pass")
    do(g, "pass")  # player 1's Draw Phase: deck-out KOs its own Main Unit
    by_deck_out = ended_as(g, 0)
    # the same for player 0: player 1 puts the third card in player 0's KO Zone
    g = build(side("Wandering Golem", standby=["Pollen Wisp", "Grove Stag"], damage={1: 300},
                   ko=["Grove Stag", "Bloom Dryad"]), side(hand=["Smoldering Ember"]), turn_player=1, step=ST_MAIN)
    do(g, "hand", 0)
    for_player_1 = ended_as(g, 1)
    assert SPEC.end_reason(np.stack([by_effect, by_deck_out, for_player_1])).tolist() == [THIRD_KO] * 3
    assert SPEC.end_reason(by_effect).tolist() == [THIRD_KO]  # one row (1-D) is one game


def test_DC_V1_endings_two_kos_at_once_past_the_third_card_are_read_as_a_ko_zone_loss() -> None:
    """DC-V1 (a third card in the KO Zone loses; "3 or more" once one action KOs two units): Pyre Drake's Inferno
    (500 to the Main Unit, 100 to the Standby Unit) KOs both of player 1's units with two cards already in its KO
    Zone, which now holds four. Read as DC-V1, not as DC-O7 (no unit left) or no ending."""
    g = build(side("Pyre Drake", energy={0: 5}),
              side(MAIN_HOLD, standby=["Grove Stag"], damage={1: 700}, ko=["Kiln Warden", "Bloom Dryad"]),
              step=ST_BATTLE)
    do(g, "skill", 1)  # Inferno
    final = ended_as(g, 0)
    assert SPEC.state_layout.get(final, "ko_count").tolist() == [0, 4]
    assert SPEC.end_reason(final[None]).tolist() == [THIRD_KO]


def test_DC_O7_endings_main_ko_with_no_standby_is_read_as_no_unit_left() -> None:
    g = skill_hit(side(), side("Vagabond Scout", damage={0: 300}))  # one card in the KO Zone, no Standby Unit
    final = ended_as(g, 0)
    assert SPEC.end_reason(final[None]).tolist() == [NO_UNIT_LEFT]
    # a third KO of a Main Unit with no Standby Unit meets both rules: read as DC-V1, the KO Zone rule
    g = skill_hit(side(), side("Vagabond Scout", damage={0: 300}, ko=["Grove Stag", "Bloom Dryad"]))
    assert SPEC.end_reason(ended_as(g, 0)[None]).tolist() == [THIRD_KO]


def test_DC_V3_endings_both_losing_at_once_is_read_as_a_draw() -> None:
    # Scorching Rush: 300 + 100 (Ashfang's passive) KOs the opposing Main Unit; its 100 recoil KOs Ashfang too
    g = skill_hit(side("Ashfang Raider", energy={0: 3}, damage={0: 500}, ko=["Kiln Warden", "Pyre Drake"]),
                  side("Wandering Golem", damage={0: 300}, ko=["Grove Stag", "Bloom Dryad"]), skill=1)
    assert SPEC.end_reason(ended_as(g, DRAW)[None]).tolist() == [BOTH_LOST]


def test_DC_V3_endings_a_double_loss_by_different_rules_is_a_draw() -> None:
    """DC-V3 with each player losing by another rule at the same check: the attacker's recoil puts the third card in
    its own KO Zone (DC-V1; a Standby Unit is left, so not DC-O7), while the defender's Main Unit is KO'd with no
    Standby Unit (DC-O7; one card in its KO Zone, so not DC-V1). Each player meets one condition: a draw all the
    same (the reader takes either condition per player, not both)."""
    g = skill_hit(side("Ashfang Raider", energy={0: 3}, damage={0: 500}, ko=["Kiln Warden", "Pyre Drake"],
                       standby=["Grove Stag"]),
                  side("Wandering Golem", damage={0: 300}), skill=1)
    final = ended_as(g, DRAW)
    L = SPEC.state_layout
    assert L.get(final, "ko_count").tolist() == [3, 1] and int(L.get(final, "standby_count")[0]) > 0
    assert int(L.get(final, "main")[1, 0]) < 0 and int(L.get(final, "standby_count")[1]) == 0
    assert SPEC.end_reason(final[None]).tolist() == [BOTH_LOST]


def test_DC_O7_endings_a_loser_with_its_main_unit_in_place_is_no_ending() -> None:
    """DC-O7 reads an empty Main Unit slot (-1), not any slot but the first: a resignation by a player whose Main
    Unit is in place (any instance) with no Standby Unit and fewer than three KOs fits no rule."""
    g = build(side(), side("Wandering Golem"), step=ST_MAIN)
    forfeit_game(g.states[0], 1)
    rows = np.stack([g.states[0]] * 3)
    main = SPEC.state_layout.get(rows, "main")
    assert (SPEC.state_layout.get(rows, "standby_count")[:, 1] == 0).all()
    main[:, 1, 0] = (0, 5, 17)  # the Main Unit's instance, whichever it is
    assert SPEC.end_reason(rows).tolist() == [-1, -1, -1]


def test_DC_O7_endings_a_resignation_while_a_standby_unit_waits_to_move_up_is_no_ending() -> None:
    """DC-O7 needs *no* Standby Unit to move up: player 1's Main Unit is KO'd with two Standby Units left, so the game
    waits for player 1 to choose one; a resignation then leaves an empty Main slot beside Standby Units, which no
    rule ends a game on."""
    g = skill_hit(side(), side("Vagabond Scout", damage={0: 300}, standby=["Grove Stag", "Bloom Dryad"]))
    L = SPEC.state_layout
    assert g.states[0, H_STATUS] != TERMINATED, "the move-up choice is player 1's"
    assert int(L.get(g.states, "main")[0, 1, 0]) < 0 and int(L.get(g.states, "standby_count")[0, 1]) == 2
    forfeit_game(g.states[0], 1)
    assert g.states[0, H_WINNER] == 0 and SPEC.end_reason(g.states[:1]).tolist() == [-1]


def test_DC_V3_endings_truncation_forfeits_and_live_games_are_not_endings() -> None:
    g = build(side(), side("Wandering Golem"), step=ST_MAIN, turn=TURN_CAP)
    do(g, "pass")
    do(g, "pass")  # turn 101 would start: truncated (eval counts truncation itself)
    assert g.states[0, H_STATUS] == TRUNCATED
    truncated = g.states[0].copy()
    g = build(side(), side("Wandering Golem"), step=ST_MAIN)
    live = g.states[0].copy()
    forfeit_game(g.states[0], 1)  # a resignation: player 0 wins, but by no rule of the game
    assert SPEC.end_reason(np.stack([truncated, live, g.states[0]])).tolist() == [-1, -1, -1]


def test_DC_endings_every_random_game_that_ends_by_the_rules_is_explained() -> None:
    codes = random_endings(SPEC, draw_codes=(BOTH_LOST,))  # 200 random games, checked (cardenvs.testing)
    assert (codes == THIRD_KO).any() and (codes == NO_UNIT_LEFT).any()  # both losses occur in random play
