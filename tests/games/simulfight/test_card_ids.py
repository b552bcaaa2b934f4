"""Card identity in the observation (issue 14 item 2): every index of ``SPEC.obs_card_ids`` holds a card's pool index
+ 1 (0: no card), and it tells the viewer nothing about where the opponent's hidden cards are."""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.games.simulfight import SPEC
from cardenvs.games.simulfight.cards import CARD
from cardenvs.games.simulfight.obs_layout import OBS
from cardenvs.games.simulfight.state import MAX_DECK, STATE


def _ids(g: BatchGame, viewer: int) -> np.ndarray:
    obs = g.observe(np.array([viewer], np.int32))[0]
    return obs[list(SPEC.obs_card_ids)].reshape(2, MAX_DECK)  # rows: my_cards, opp_cards


def test_obs_card_ids_are_the_card_entries_of_both_card_blocks() -> None:
    assert len(SPEC.obs_card_ids) == 2 * MAX_DECK == len(set(SPEC.obs_card_ids))
    for index in SPEC.obs_card_ids:
        name, at = OBS.locate(index)
        assert name in ("my_cards", "opp_cards") and CARD.locate(at % CARD.size) == ("id", 0)


def test_obs_card_ids_read_pool_index_plus_one_and_zero_for_no_card() -> None:
    """A short deck (aggro, 24 cards) against the full pool: each instance reads its deck-list card + 1, the padding
    instances past the short deck read 0, from both seats."""
    g = BatchGame(SPEC, 1, decks=("aggro", "full"), seed=3)
    deck_list = STATE.get(g.states[0], "deck_list").copy()
    archer = g.pool.by_name["Hedge Archer"]
    assert (deck_list[1, : len(g.pool)] == np.arange(len(g.pool))).all()  # full deck: instance i is card i
    for viewer in (0, 1):
        ids = _ids(g, viewer)
        for row, side in ((0, viewer), (1, 1 - viewer)):
            np.testing.assert_array_equal(ids[row], deck_list[side] + 1)  # -1 padding reads 0
        assert ids[1 - viewer, archer] == archer + 1  # a known card: player 1's Hedge Archer
    assert (deck_list[0] < 0).any()  # the short deck has padding instances (they read 0 above)


def test_obs_card_ids_do_not_tell_which_hidden_cards_are_in_the_opponents_hand() -> None:
    """Deck lists are public, so an opponent instance shows its id whether it is in hand or deck; swapping a card of
    the opponent's hand with one of its deck changes nothing in the viewer's observation (hand contents stay hidden)."""
    g = BatchGame(SPEC, 1, seed=5)
    row = g.states[0]
    before = g.observe(np.array([0], np.int32))[0].copy()
    hand, deck, loc = (STATE.get(row, f) for f in ("hand", "deck", "loc"))
    h, d = int(hand[1, 0]), int(deck[1, 0])
    assert h >= 0 and d >= 0
    hand[1, 0], deck[1, 0] = d, h
    loc[1, h], loc[1, d] = loc[1, d], loc[1, h]
    row[STATE.slice("hand")], row[STATE.slice("deck")] = hand.reshape(-1), deck.reshape(-1)
    row[STATE.slice("loc")] = loc.reshape(-1)
    after = g.observe(np.array([0], np.int32))[0]
    np.testing.assert_array_equal(before, after)
    ids = _ids(g, 0)
    assert ids[1, h] == int(STATE.get(row, "deck_list")[1, h]) + 1  # the hand card's id is its public deck-list id
