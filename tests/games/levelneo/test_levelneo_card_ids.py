"""Issue 14 item 2: every observed card slot carries the card's identity (pool index + 1), listed in
``SPEC.obs_card_ids``; hidden cards (the opponent's hand, face-down level cards the viewer never held) read 0."""
from __future__ import annotations

from levelneo_helpers import POOL, build, field

from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.obs_layout import CARD, CHAR, LEVEL_SLOT, OBS, QUEUED
from cardenvs.games.levelneo.state import (
    DECK_SIZE, HAND_CAP, LEVEL_CAP, OPENING_HAND_SIZE, QUEUE_CAP, SUPPORT_CAP,
)

CHARACTERS = [c["name"] for c in POOL.cards if c["type"] == "character"]
EVENTS = [c["name"] for c in POOL.cards if c["type"] == "event"]


def _slot(index: int) -> tuple[str, int]:
    """(observation field, slot number) of a card-id index, from the layouts (hand slot, main/support/level k)."""
    name, pos = OBS.locate(index)
    width = {"hand": CARD.size, "main": CHAR.size, "supports": CHAR.size, "level": LEVEL_SLOT.size,
             "queue": QUEUED.size}.get(name, 1)
    return name, pos // width


def test_obs_card_ids_read_the_pool_index_plus_one() -> None:
    """Every index of SPEC.obs_card_ids reads pool index + 1 for the card in its slot of a full board (own hand,
    both mains, both support zones, both level zones face up), and the opponent's hand never shows."""
    own = {"main": CHARACTERS[0], "supports": CHARACTERS[1:1 + SUPPORT_CAP],
           "hand": (EVENTS + CHARACTERS)[:HAND_CAP], "level": [f"{c}:up" for c in CHARACTERS[5:5 + LEVEL_CAP]]}
    opp_hand = CHARACTERS[10 + SUPPORT_CAP + LEVEL_CAP:][:6]
    opp = {"main": CHARACTERS[9], "supports": CHARACTERS[10:10 + SUPPORT_CAP], "hand": opp_hand,
           "level": [f"{c}:up" for c in CHARACTERS[10 + SUPPORT_CAP:10 + SUPPORT_CAP + LEVEL_CAP]]}
    g = build(own, opp)
    obs = g.observe([0])[0]
    want = {"hand": own["hand"], "main": [own["main"], opp["main"]], "supports": own["supports"] + opp["supports"],
            "level": [c.partition(":")[0] for c in own["level"] + opp["level"]]}
    assert len(SPEC.obs_card_ids) == (HAND_CAP + DECK_SIZE + OPENING_HAND_SIZE + 1 + QUEUE_CAP + 2 + 2 * SUPPORT_CAP
                                      + 2 * LEVEL_CAP)
    deck_list = [int(c) + 1 for c in field(g, "deck_list")[0]]  # the viewer's own deck list, instance order
    for index in SPEC.obs_card_ids:
        name, k = _slot(index)
        if name == "deck_list":
            assert obs[index] == deck_list[k], (index, k)
        elif name in ("deck_bottom", "choice_card", "queue"):
            assert obs[index] == 0, (index, name)  # nothing mulliganed, no choice pending, nothing queued
        else:
            assert obs[index] == POOL.by_name[want[name][k]] + 1, (index, name, k)
    shown = set(obs[list(SPEC.obs_card_ids)].astype(int))
    own_cards = set(sum(want.values(), [])) | {POOL.name(int(c)) for c in field(g, "deck_list")[0] if c >= 0}
    assert not shown & {POOL.by_name[c] + 1 for c in opp_hand if c not in own_cards}


def test_obs_card_ids_are_zero_for_empty_and_hidden_slots() -> None:
    """Empty slots read 0; a face-down level card reads 0 for the opponent (and for its owner, who never held it)."""
    g = build({"main": CHARACTERS[0], "hand": [EVENTS[0]], "level": [CHARACTERS[1]]},
              {"main": CHARACTERS[2], "hand": [CHARACTERS[3], CHARACTERS[4]], "level": [CHARACTERS[5]]})
    for viewer in (0, 1):
        obs = g.observe([viewer])[0]
        ids = {_slot(i): float(obs[i]) for i in SPEC.obs_card_ids}
        own_main, own_hand = (CHARACTERS[0], EVENTS[0]) if viewer == 0 else (CHARACTERS[2], CHARACTERS[3])
        assert ids[("main", 0)] == POOL.by_name[own_main] + 1
        assert ids[("hand", 0)] == POOL.by_name[own_hand] + 1
        assert ids[("hand", 1)] == (0 if viewer == 0 else POOL.by_name[CHARACTERS[4]] + 1)
        assert all(v == 0 for (name, k), v in ids.items() if name == "hand" and k >= 2)
        assert all(v == 0 for (name, _), v in ids.items() if name in ("supports", "level"))
