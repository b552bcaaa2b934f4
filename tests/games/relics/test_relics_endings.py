"""``endings.py``: how a finished relics game ended (``eval``'s "how games end"), read from the final state.

One test per ending code, reaching that ending the way the RL-V scenario tests do (``relics_helpers.build``), then
random games played out through the batch core: every game the rules ended is explained, nothing else is.
"""
from __future__ import annotations

import numpy as np
from relics_helpers import POOL, act, build, do, field, fight, inst_at

from cardenvs.core.batch import BatchGame
from cardenvs.testing import random_endings
from cardenvs.core.header import DRAW, H_STATUS, H_WINNER, TERMINATED, TRUNCATED
from cardenvs.core.rows import forfeit_game
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.endings import BOTH_LOST, ENDINGS, FOUR_RELICS, NO_CARDS, NO_CHARACTERS
from cardenvs.games.relics.state import BATTLE_CAP, ST_HAND


def ended_as(g: BatchGame, winner: int) -> np.ndarray:
    """The game's final row, checked to be a finished game with ``winner``."""
    assert g.states[0, H_STATUS] == TERMINATED and g.states[0, H_WINNER] == winner
    return g.states[0].copy()


def resolution(p0: dict, p1: dict, **kw) -> BatchGame:
    """A Resolution's hand step between two battles (no parties, no battlefield), player 1 the 1P to choose first."""
    for side in (p0, p1):
        side.setdefault("party", [])
    return build(p0, p1, step=ST_HAND, location=None, lead=1, to_act=1, **kw)


def test_endings_name_the_games_rules() -> None:
    assert SPEC.endings == ENDINGS
    assert [rule for rule, _ in ENDINGS] == ["RL-V1", "RL-V2", "RL-V3", "RL-V5"]
    assert [ENDINGS[c][0] for c in (FOUR_RELICS, NO_CARDS, NO_CHARACTERS, BOTH_LOST)] == ["RL-V1", "RL-V2", "RL-V3",
                                                                                          "RL-V5"]


def test_RL_V1_endings_a_fourth_relic_is_read_as_a_relic_win() -> None:
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"],
               "relics": ["Royal Arena", "Iron Foundry", "Monastery Steps"]},
              {"party": ["Cutpurse Vex@0:L"], "hand": ["Oak Buckler"]}, location=("Storm Peak", 1))
    act(g, fight(0, 0))  # the battle is won and its relic, the fourth, taken
    final = ended_as(g, 0)
    assert SPEC.end_reason(final[None]).tolist() == [FOUR_RELICS]
    assert SPEC.end_reason(final).tolist() == [FOUR_RELICS]  # one row (1-D) is one game


def test_RL_V2_endings_no_card_in_hand_or_item_deck_is_read_as_running_out_of_cards() -> None:
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Smoke Bomb"], "item_deck": []},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    field(g, "deck_list")[0, inst_at(g, 0, 0)] = POOL.by_name["Gale Duelist"]
    do(g, "hand", 0)
    do(g, "target", 0)  # the last card is used: hand and item deck are both empty now
    in_battle = ended_as(g, 1)
    # an empty character deck too (the battle drew its last characters): still the item rule, mid-battle
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Smoke Bomb"], "item_deck": [], "char_deck": []},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    field(g, "deck_list")[0, inst_at(g, 0, 0)] = POOL.by_name["Gale Duelist"]
    do(g, "hand", 0)
    do(g, "target", 0)
    no_characters_either = ended_as(g, 1)
    assert SPEC.end_reason(np.stack([in_battle, no_characters_either])).tolist() == [NO_CARDS] * 2


def test_RL_V3_endings_an_empty_character_deck_at_the_next_battle_is_read_as_running_out_of_characters() -> None:
    g = resolution({"hand": ["Oak Buckler"], "char_deck": [], "pile": ["Royal Arena"]},
                   {"hand": ["Oak Buckler"] * 3, "char_deck": ["Dust Monk"], "pile": ["Iron Foundry"]})
    do(g, "pass")  # 1P done with the Resolution
    do(g, "pass")  # player 0 done: the next battle would start, and player 0 has no character to draw
    plain = ended_as(g, 1)
    # player 0 discards its last card with an empty item deck: both losses hold when the battle would start, and
    # begin_battle's check is the one that ended the game
    g = resolution({"hand": ["Oak Buckler"], "item_deck": [], "char_deck": [], "pile": ["Royal Arena"]},
                   {"hand": ["Oak Buckler"] * 3, "char_deck": ["Dust Monk"], "pile": ["Iron Foundry"]})
    do(g, "pass")
    do(g, "hand", 0)  # set aside (still in hand while both choose, RL-G14); then the pass is forced
    no_cards_either = ended_as(g, 1)
    assert int(field(g, "hand_count")[0]) == 0 and int(field(g, "item_deck_count")[0]) == 0
    assert int(field(g, "doom_count")[0]) == 1  # end_battle ran (the discarded card went on to the doom pile)
    assert SPEC.end_reason(np.stack([plain, no_cards_either])).tolist() == [NO_CHARACTERS] * 2


def test_RL_V5_endings_both_losing_at_the_same_check_is_read_as_a_draw() -> None:
    g = resolution({"hand": ["Oak Buckler"], "char_deck": [], "pile": ["Royal Arena"]},
                   {"hand": ["Oak Buckler"] * 3, "char_deck": [], "pile": ["Iron Foundry"]})
    do(g, "pass")
    do(g, "pass")  # neither player can draw a party
    assert SPEC.end_reason(ended_as(g, DRAW)[None]).tolist() == [BOTH_LOST]


def test_RL_V5_endings_truncation_forfeits_and_live_games_are_not_endings() -> None:
    g = resolution({"hand": ["Oak Buckler"], "pile": ["Royal Arena"]},
                   {"hand": ["Oak Buckler"] * 3, "pile": ["Iron Foundry"]}, battle=BATTLE_CAP)
    live = g.states[0].copy()
    do(g, "pass")
    do(g, "pass")  # battle 17 would start: truncated (eval counts truncation itself)
    assert g.states[0, H_STATUS] == TRUNCATED
    truncated = g.states[0].copy()
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]}, {"party": ["Brass Golem@0:L"], "hand": []})
    forfeit_game(g.states[0], 1)  # a resignation: no rule of the game ended it
    assert SPEC.end_reason(np.stack([live, truncated, g.states[0]])).tolist() == [-1, -1, -1]


def test_RL_endings_every_random_game_that_ends_by_the_rules_is_explained() -> None:
    codes = random_endings(SPEC, draw_codes=(BOTH_LOST,))  # 200 random games, checked (cardenvs.testing)
    for code in (FOUR_RELICS, NO_CARDS, NO_CHARACTERS):  # every loss occurs in random play
        assert (codes == code).any(), ENDINGS[code]


def test_RL_V1_E4_relic_counts_read_every_won_zone_by_controller() -> None:
    """RL-E4 (a relic counts for the player who controls it, whichever won zone it sits in) and RL-V1 (four relics
    win): ``endings.relic_counts``, vectorised, equals ``board.relic_count`` (the rules' own count) on positions of
    random play, with the controllers of won cards re-drawn (relics taken from the other owner) and the won zones'
    unused slots holding stale instance numbers (only the first ``won_count`` entries are cards)."""
    from cardenvs.games.relics.board import relic_count
    from cardenvs.games.relics.endings import relic_counts
    from cardenvs.games.relics.state import CONTROLLER, MAX_DECK, SIDE_CAP, WON, WON_COUNT

    g = BatchGame(SPEC, 48, seed=9)
    rng = np.random.default_rng(9)
    snapshots = []
    for step in range(900):
        if step % 60 == 59:
            snapshots.append(g.states.copy())
        who = g.to_act.copy()
        mask = g.legal_mask(who)
        g.step(np.argmax((rng.random(mask.shape) + 1.0) * (mask != 0), axis=1), who)
    states = np.ascontiguousarray(np.concatenate(snapshots))
    for row in states:
        for owner in range(2):
            count = int(row[WON_COUNT + owner])
            for j in range(count):
                row[CONTROLLER + owner * MAX_DECK + row[WON + owner * SIDE_CAP + j]] = rng.integers(0, 2)
            row[WON + owner * SIDE_CAP + count:WON + (owner + 1) * SIDE_CAP] = rng.integers(0, MAX_DECK,
                                                                                           SIDE_CAP - count)
    expected = np.array([[relic_count(row, p) for p in range(2)] for row in states])
    won = states[:, WON_COUNT:WON_COUNT + 2]
    assert (won[:, 0] != won[:, 1]).sum() >= 20  # the owners' won zones differ in length
    assert ((expected != won).any(axis=1)).sum() >= 20  # relics controlled by the other owner
    assert (expected[:, 0] != expected[:, 1]).sum() >= 20
    assert np.array_equal(relic_counts(states), expected)


def test_RL_V2_V3_endings_a_header_that_does_not_fit_the_state_is_no_ending() -> None:
    """end_reason reads RL-V2 and RL-V3 from the loser's zones, not from the header alone, so that the random-play
    check (``random_endings``: every ended game is explained) would catch an engine that ended a game against the
    rules. A resignation between battles (no parties, lines or discard piles: the trace RL-V3 reads) by a player
    whose item deck is empty but who holds cards (not RL-V2), or whose character deck still holds cards (not RL-V3),
    is no ending; with the hand empty too it is RL-V2, with the character deck empty RL-V3."""
    g = resolution({"hand": ["Oak Buckler"], "pile": ["Royal Arena"]},
                   {"hand": ["Oak Buckler"] * 3, "pile": ["Iron Foundry"]})
    forfeit_game(g.states[0], 1)
    L = SPEC.state_layout
    rows = np.stack([g.states[0]] * 4)
    for name in ("party_count", "lineup_count", "discard_count"):
        L.get(rows, name)[:] = 0
    L.get(rows, "char_deck_count")[:, 1] = 3
    L.get(rows, "item_deck_count")[:, 1] = 0  # the item deck empty...
    assert (L.get(rows, "hand_count")[:, 1] > 0).all()  # ... with cards in hand: not RL-V2
    L.get(rows, "hand_count")[1, 1] = 0  # hand and item deck empty: RL-V2
    L.get(rows, "item_deck_count")[2, 1] = 5  # cards in the item deck, the character deck holding 3: neither
    L.get(rows, "item_deck_count")[3, 1] = 5
    L.get(rows, "char_deck_count")[3, 1] = 0  # the character deck empty between battles: RL-V3
    assert SPEC.end_reason(rows).tolist() == [-1, NO_CARDS, -1, NO_CHARACTERS]
