"""deck_toml writes deck files that read back: names outside the Basic Multilingual Plane (an emoji) were written as
JSON's surrogate-pair escapes, which TOML refuses, so a deck written by `decks optimize` or `deckgen.write_deck` could
not be loaded again (checked failing with the old ``json.dumps`` default)."""
from __future__ import annotations

import tomllib

import numpy as np

from cardenvs.core.decks import Deck, deck_toml


class _Pool:
    names = ["Plain Card", "Storm \U0001F329 Drake", 'Quote " and \\ slash', "Del\x7fete", "Tab\tCard"]

    def name(self, card_id: int) -> str:
        return self.names[card_id]


def test_every_card_name_survives_a_round_trip_through_a_deck_file() -> None:
    deck = Deck(name="My \U0001F680 deck", path="", card_ids=np.array([0, 1, 1, 2, 3, 4], dtype=np.int32))
    data = tomllib.loads(deck_toml(deck, _Pool()))
    assert data["name"] == "My \U0001F680 deck"
    assert data["cards"] == {"Plain Card": 1, "Storm \U0001F329 Drake": 2, 'Quote " and \\ slash': 1,
                             "Del\x7fete": 1, "Tab\tCard": 1}
