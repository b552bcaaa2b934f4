"""Issue 14 item 2: card identity in the relics observation (``card_id`` in every card block, ``SPEC.obs_card_ids``)."""
from __future__ import annotations

import numpy as np
from relics_helpers import POOL, build, field

from cardenvs.games.relics import SPEC
from cardenvs.games.relics.obs_layout import (
    CARD_CARD_ID,
    CARD_SIZE,
    CELL_CARD,
    CELL_SIZE,
    CELL_SLOT,
    OBS,
    SIDE_CARD,
    SIDE_ENTRY_SIZE,
    SLOT_ATTACHMENT_ID,
)
from cardenvs.games.relics.observe import write_card
from cardenvs.games.relics.state import MAX_DECK, NUM_LOCATIONS, PARTY_SIZE, SIDE_CAP


def _id(g, q: int, inst: int) -> float:
    return float(field(g, "deck_list")[q, inst] + 1)


def _expected(g, viewer: int, index: int) -> float:
    """What the flat observation ``index`` must hold for ``viewer``, read from the state fields (not the kernel)."""
    name, pos = OBS.locate(index)
    o = 1 - viewer
    if name in ("hand", "lineup", "reserves"):
        k, at = divmod(pos, CARD_SIZE)
        assert at == CARD_CARD_ID
        return _id(g, viewer, field(g, name)[viewer, k]) if k < field(g, f"{name}_count")[viewer] else 0.0
    if name == "grid":
        cell, at = divmod(pos, CELL_SIZE)
        assert at in (CELL_CARD + CARD_CARD_ID, CELL_SLOT + SLOT_ATTACHMENT_ID)
        side, slot = divmod(cell, PARTY_SIZE)
        q = viewer if side == 0 else o
        for inst in field(g, "party")[q, : field(g, "party_count")[q]]:
            if field(g, "pos")[q, inst] == slot:
                if q != viewer and field(g, "face_down")[q, inst]:
                    return 0.0
                if at == CELL_CARD + CARD_CARD_ID:
                    return _id(g, q, inst)
                code = field(g, "attached")[q, inst]  # issue 38: which equipment or relic it carries
                return 0.0 if code < 0 else _id(g, code // MAX_DECK, code % MAX_DECK)
        return 0.0
    if name == "leader_cards":
        side, at = divmod(pos, CARD_SIZE)
        q = viewer if side == 0 else o
        return _id(g, q, field(g, "leader_card")[q, 0]) if q == viewer or field(g, "leader_shown")[q] else 0.0
    if name == "location_pile":
        k, at = divmod(pos, CARD_SIZE)
        side, j = divmod(k, NUM_LOCATIONS)
        q = viewer if side == 0 else o
        return _id(g, q, field(g, "loc_pile")[q, j]) if j < field(g, "loc_pile_count")[q] else 0.0
    if name == "battlefield":
        for q in (0, 1):
            if field(g, "battlefield_count")[q]:
                return _id(g, q, field(g, "battlefield")[q, 0])
        return 0.0
    if name == "sideboard":
        k, at = divmod(pos, SIDE_ENTRY_SIZE)
        assert at == SIDE_CARD + CARD_CARD_ID
        q, j = (viewer, k) if k < SIDE_CAP else (o, k - SIDE_CAP)
        if j < field(g, "won_count")[q] and field(g, "controller")[q, field(g, "won")[q, j]] == viewer:
            return _id(g, q, field(g, "won")[q, j])
        return 0.0
    if name == "opp_known_reserves":  # issue 38: the opponent's reserve characters the viewer saw arrive, in order
        if pos < field(g, "reserves_count")[o]:
            inst = field(g, "reserves")[o, pos]
            return _id(g, o, inst) if field(g, "known")[o, inst] else 0.0
        return 0.0
    if name == "opp_relics":  # issue 38: the opponent's relics in its relic-action order
        k, at = divmod(pos, 2)
        assert at == 0
        q, j = (o, k) if k < SIDE_CAP else (viewer, k - SIDE_CAP)
        if j < field(g, "won_count")[q] and field(g, "controller")[q, field(g, "won")[q, j]] == o:
            return _id(g, q, field(g, "won")[q, j])
        return 0.0
    assert name == "pending_card", name
    return 0.0  # no pending action in this position


def test_issue14_every_observed_card_slot_carries_its_identity_and_hidden_cards_none() -> None:
    """Issue 14 item 2: every index of ``SPEC.obs_card_ids`` reads the card's pool index + 1 (own hand, line-up and
    reserves, both grids, leader cards, battlefield, location pile, sideboard) and 0 for an empty slot or a card the
    viewer cannot see: the opponent's hand and reserves never show, nor its face-down character, nor its leader card
    before it was attached."""
    g = build({"party": ["Gale Duelist@0:L", "Quill Archer@4"], "equip": {4: "Longbow"},
               "hand": ["Longbow", "Night Bolt"],
               "reserves": ["Dust Monk"], "lineup": ["Iron Abbot"], "relics": ["Iron Foundry"],
               "pile": ["Mirror Lake", "Storm Peak"]},
              {"party": ["Brass Golem@0", "Marrow Witch@1:?"], "hand": ["Smoke Bomb", "Wither"],
               "reserves": ["Hollow Shade"], "pile": ["Bone Chapel"], "leader_card": "Shadow Crest"})
    ids = np.array(SPEC.obs_card_ids)
    assert len(ids) == len(set(ids.tolist())) > 0
    for viewer in (0, 1):
        obs = g.observe([viewer])[0]
        expected = [_expected(g, viewer, int(i)) for i in ids]
        assert obs[ids].tolist() == expected
        # with the Archer's Longbow (attachment_id); player 1 also sees player 0's relic in opp_relics (issue 38)
        assert sum(e > 0 for e in expected) == (14 if viewer == 0 else 15)
    seen = set(g.observe([0])[0][ids].tolist())
    hidden = {POOL.by_name[n] + 1 for n in ("Smoke Bomb", "Wither", "Hollow Shade", "Marrow Witch", "Shadow Crest")}
    assert not hidden & seen  # the opponent's hand, reserves, face-down character and unshown leader card
    assert {POOL.by_name[n] + 1 for n in ("Longbow", "Night Bolt", "Dust Monk", "Iron Abbot", "Brass Golem",
                                          "Iron Foundry", "Royal Arena", "Bone Chapel")} <= seen
    # a card block's id is its own: a card written alone carries exactly its pool index + 1
    for card in range(len(POOL.cards)):
        out = np.zeros(CARD_SIZE, SPEC.obs_dtype)
        write_card(g.pool.tables.cards, card, out, 0)
        assert out[CARD_CARD_ID] == card + 1


def test_issue14_own_library_counts_the_own_decks_by_card_id_and_nothing_of_the_opponent() -> None:
    """Issue 14 (deck-general play): ``own_library`` counts the viewer's own character and item decks by card id (the
    deck list less every card drawn; a player knows both). It does not depend on the order of those decks, nor on
    anything of the opponent's decks, and a card drawn leaves it."""
    p0 = {"char_deck": ["Dust Monk", "Iron Abbot", "Dust Monk"], "item_deck": ["Longbow", "Smoke Bomb"]}
    p1 = {"char_deck": ["Hollow Shade"] * 4, "item_deck": ["Wither", "Night Bolt", "Wither"]}
    g = build(p0, p1)
    lib = OBS.slice("own_library")
    for viewer, side in ((0, p0), (1, p1)):
        expected = np.zeros(lib.stop - lib.start, np.float32)
        for name in side["char_deck"] + side["item_deck"]:
            expected[POOL.by_name[name]] += 1
        assert g.observe([viewer])[0][lib].tolist() == expected.tolist()
    before = g.observe([0])[0].copy()
    # the deck orders are hidden, the opponent's decks are hidden: neither moves the viewer's observation
    field(g, "char_deck")[0, :3] = field(g, "char_deck")[0, :3][::-1].copy()
    field(g, "item_deck")[1, :3] = field(g, "item_deck")[1, [2, 0, 1]].copy()
    other = build(p0, {"char_deck": ["Brass Golem"] * 4, "item_deck": ["Longbow"] * 3})
    assert np.array_equal(g.observe([0])[0], before)
    assert np.array_equal(other.observe([0])[0][lib], before[lib])
    # the top character (the last entry) drawn: one Dust Monk fewer in the library
    field(g, "char_deck_count")[0] -= 1
    after = g.observe([0])[0][lib]
    assert after.sum() == before[lib].sum() - 1
    assert after[POOL.by_name["Dust Monk"]] == before[lib][POOL.by_name["Dust Monk"]] - 1
