"""``cardenvs.core.zones.deal_deck_lists``: the deal of the deck files at reset that divinecross and levelneo share
(issue 40). Their golden playthroughs and stream digests are unchanged by it; this checks the helper on its own, with
the padding a deck file of fewer cards than the deck's size leaves."""
from __future__ import annotations

import numpy as np

from cardenvs.core.zones import deal_deck_lists

SIZE = 4
DECK_LIST, DECK, DECK_COUNT = 3, 3 + 2 * SIZE, 3 + 4 * SIZE  # three header entries first: offsets are honoured


def test_the_deck_list_is_the_file_and_the_deck_its_real_entries_in_order() -> None:
    row = np.full(DECK_COUNT + 2 + 1, -1, dtype=np.int32)
    decks = np.array([[7, -1, 2, 2], [-1, -1, -1, 5]], dtype=np.int32)
    deal_deck_lists(row, decks, DECK_LIST, DECK, DECK_COUNT, SIZE)
    assert row[DECK_LIST:DECK].tolist() == [7, -1, 2, 2, -1, -1, -1, 5]  # as the files give them, padding included
    assert row[DECK:DECK + SIZE].tolist() == [0, 2, 3, -1]  # instances: indices into the list, in file order
    assert row[DECK + SIZE:DECK_COUNT].tolist() == [3, -1, -1, -1]
    assert row[DECK_COUNT:DECK_COUNT + 2].tolist() == [3, 1]
    assert row[:DECK_LIST].tolist() == [-1, -1, -1] and row[-1] == -1  # nothing else is written
