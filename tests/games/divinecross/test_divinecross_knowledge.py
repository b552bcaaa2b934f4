"""The observation holds what its player knows (issue 38 step 1): each test builds two positions that differ only in
something the viewer knows and requires the viewer's observations to differ there, and nowhere else; the player
who does not know it must see no difference."""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.core.decks import Deck
from cardenvs.games.divinecross import SPEC
from cardenvs.games.divinecross.obs_layout import OBS
from cardenvs.games.divinecross.rules import advance
from cardenvs.games.divinecross.state import DECK_SIZE, ST_EXTRA_DRAW
from cardenvs.games.divinecross.text import hide, render
from divinecross_helpers import POOL, build, do, field, step_of
from divinecross_helpers import names as names_of


def _differing_fields(a: np.ndarray, b: np.ndarray) -> set[str]:
    return {OBS.locate(int(i))[0] for i in np.flatnonzero(a != b)}


def _one_unit_deck(filler: str) -> Deck:
    """One Unit and 29 copies of ``filler`` (a test deck: it breaks DC-D1..D4 on purpose), so almost every hand
    lacks a Unit and is shown (DC-S5)."""
    ids = [POOL.by_name["Vagabond Scout"]] + [POOL.by_name[filler]] * (DECK_SIZE - 1)
    return Deck(filler, "<test>", np.asarray(ids, dtype=np.int32))


def _after_redeals(filler: str, seed: int) -> BatchGame:
    return BatchGame(SPEC, 1, decks=("blaze", _one_unit_deck(filler)), seed=seed, check_decks=False)


def test_DC_S5_the_cards_a_redeal_showed_stay_in_both_players_observations() -> None:
    """DC-S5: a hand without a Unit is revealed before it goes back into the deck. Both players saw it, so both
    observations keep it after the cards are back in the deck (``shown``: per card id, the most copies one reveal
    showed). Two games that differ only in the cards player 1 revealed (same shuffles: the Unit is instance 0 in
    both decks) used to give player 0 the same observation: only the redeal count was kept."""
    seed = next(s for s in range(200) if int(field(_after_redeals("Field Ration", s), "redeals")[1]) >= 2
                and int(field(_after_redeals("Field Ration", s), "redeals")[0]) == 0)
    a, b = _after_redeals("Field Ration", seed), _after_redeals("Smoke Bomb", seed)
    for g in (a, b):
        assert step_of(g) == ST_EXTRA_DRAW and int(g.to_act[0]) == 0  # player 0 decides, having seen the reveals
        assert int(field(g, "redeals")[1]) >= 2 and int(field(g, "hand_count")[1]) == 5
    obs_a, obs_b = a.observe([0])[0].copy(), b.observe([0])[0].copy()
    assert _differing_fields(obs_a, obs_b) == {"shown"}
    for g, filler, obs in ((a, "Field Ration", obs_a), (b, "Smoke Bomb", obs_b)):
        shown = OBS.get(obs, "shown")  # side 0 = the viewer, 1 = the opponent
        # every reveal showed 5 fillers: the most one reveal showed is 5, not 5 per reveal (copies cannot be told
        # apart, so two reveals of 5 prove 5 copies, not 10)
        assert shown[1, POOL.by_name[filler]] == 5 and shown[1].sum() == 5 and shown[0].sum() == 0
        own = OBS.get(g.observe([1])[0], "shown")  # the player who revealed knows what the other one saw
        assert (own[0] == shown[1]).all() and own[1].sum() == 0
    for viewer in (0, 1):  # the text board a person plays from lists them too, under the player who showed them
        board = render(a.states[0], a.pool, viewer).splitlines()
        assert board[board.index(next(x for x in board if x.startswith("P1:"))) + 3] == "  shown:   Field Ration x5"
    # still known once the game is under way: the cards went back into a deck nobody sees
    for g in (a, b):
        while int(field(g, "turn")) < 1:  # pass the extra draws, place the first Unit of each hand
            mask = g.legal_mask()[0]
            g.step(np.array([int(np.flatnonzero(mask)[-1])]))
    assert OBS.get(a.observe([0])[0], "shown")[1, POOL.by_name["Field Ration"]] == 5
    assert OBS.get(b.observe([0])[0], "shown")[1, POOL.by_name["Smoke Bomb"]] == 5


def test_DC_S5_a_reveal_counts_the_copies_it_showed() -> None:
    """DC-S5 boundary: a reveal of 2 copies of a card and 3 others records 2 for that card and 1 for each other one;
    a later reveal with 1 copy does not lower it."""
    names = ["Field Ration", "Field Ration", "Smoke Bomb", "Treasure Map", "Battle Fury"]
    rest = ["Vagabond Scout"] * (DECK_SIZE - 5)  # the redraw surely holds a Unit: exactly one reveal
    g = build({"main": None, "hand": ["Vagabond Scout"] * 5}, {"hand": names, "deck": rest, "fill": False},
              step=0, turn=0)
    field(g, "setup_player")[...] = -1
    field(g, "shown")[1, POOL.by_name["Field Ration"]] = 1  # an earlier reveal showed one copy
    field(g, "shown")[1, POOL.by_name["Treasure Map"]] = 2  # and one showed two of these
    advance(g.states[0], g.pool.tables)
    shown = field(g, "shown")[1]
    assert int(field(g, "redeals")[1]) == 1
    assert shown[POOL.by_name["Field Ration"]] == 2 and shown[POOL.by_name["Smoke Bomb"]] == 1
    assert shown[POOL.by_name["Treasure Map"]] == 2 and shown[POOL.by_name["Battle Fury"]] == 1
    assert shown.sum() == 6


def test_own_deck_contents_are_observed_and_the_opponents_are_not() -> None:
    """A player knows the contents of their own deck (the deck list less every card seen leaving it), not its
    order; the opponent knows neither. Two positions whose player 0 decks hold different cards (same sizes, same
    everything else) used to look the same to player 0."""
    def position(top: str) -> BatchGame:
        return build({"main": "Pyre Drake", "hand": ["Cinderpaw Cub"], "deck": [top]},
                     {"main": "Reef Titan", "hand": ["Riptide"]})

    a, b = position("Smoke Bomb"), position("Battle Fury")
    obs_a, obs_b = a.observe([0])[0].copy(), b.observe([0])[0].copy()
    assert _differing_fields(obs_a, obs_b) == {"own_deck"}
    deck_a = OBS.get(obs_a, "own_deck")
    assert deck_a[POOL.by_name["Smoke Bomb"]] == 1 and deck_a.sum() == int(field(a, "deck_count")[0])
    assert (a.observe([1])[0].copy() == b.observe([1])[0]).all()  # the opponent learns nothing of player 0's deck
    # the order is not observed: hide() reshuffles the deck and re-deals the opponent's hidden cards
    rng = np.random.default_rng(3)
    for viewer in (0, 1):
        row = hide(a.states[0], viewer, rng, a.pool)
        twin = a.clone()
        twin.states[0] = row
        assert (twin.observe([viewer])[0] == a.observe([viewer])[0]).all()


def _with_energy(cards: dict[int, list[str]]) -> BatchGame:
    """Player 0: Kiln Warden (retreat 2) in the Main Area, Cinderpaw Cub on Standby; ``cards[pos]`` are the Energy
    cards attached to position ``pos``, in attachment order."""
    g = build({"main": "Kiln Warden", "standby": ["Cinderpaw Cub"], "hand": ["Smoke Bomb"],
               "energy": {pos: len(names) for pos, names in cards.items()}}, {"main": "Reef Titan"})
    insts = iter(field(g, "energy")[0, : int(field(g, "energy_count")[0])].tolist())
    for pos, names in cards.items():  # build attaches position by position, in this order
        for name in names:
            field(g, "deck_list")[0, next(insts)] = POOL.by_name[name]
    return g


def test_DC_C6_O4_which_cards_sit_on_which_unit_is_observed() -> None:
    """DC-C6/DC-O4: attachments move with their Unit and go to the discard pile when it is KO'd, so which public
    card sits on which Unit decides what a KO, a retreat or strip_energy discards. Two positions that differ only in
    which Unit holds which Energy card (same counts per Unit, same cards per player) used to look the same."""
    a = _with_energy({0: ["Treasure Map"], 1: ["Battle Fury"]})
    b = _with_energy({0: ["Battle Fury"], 1: ["Treasure Map"]})
    for viewer in (0, 1):
        obs_a, obs_b = a.observe([viewer])[0].copy(), b.observe([viewer])[0]
        assert _differing_fields(obs_a, obs_b) == {"attached"}
        side = 0 if viewer == 0 else 1  # player 0's Units: the viewer's own side or the opponent's
        energy = OBS.get(obs_a, "attached")[side, :, 0]  # [position, card id] of the Energy
        assert energy[0, POOL.by_name["Treasure Map"]] == 1 and energy[1, POOL.by_name["Battle Fury"]] == 1
        assert OBS.get(obs_a, "attached")[side].sum() == 2


def test_DC_E4_C2_an_assist_card_charged_as_energy_is_told_from_one_attached_as_an_assist() -> None:
    """DC-E4/DC-C2: a charge attaches the deck's top card as Energy, whatever its type, so an Assist card can be
    either; which one it is decides what it does and what a retreat or strip_energy discards. Two positions that
    differ only in which of two attached cards is the Energy and which the Assist (Flame Brand and Iron Buckler
    both on the Main Unit) must look different."""
    def position(energy: str, assist: str) -> BatchGame:
        g = build({"main": "Kiln Warden", "energy": {0: 1}, "assists": {0: [assist]}}, {"main": "Reef Titan"})
        field(g, "deck_list")[0, int(field(g, "energy")[0, 0])] = POOL.by_name[energy]
        return g

    a, b = position("Flame Brand", "Iron Buckler"), position("Iron Buckler", "Flame Brand")
    for viewer in (0, 1):
        assert "attached" in _differing_fields(a.observe([viewer])[0].copy(), b.observe([viewer])[0])


def test_DC_R2_a_retreat_discards_the_highest_card_id_whatever_the_attachment_order() -> None:
    """DC-R2 (engine choice, RULES.md): the Energy a retreat pays is picked by card id (the highest first), not by
    attachment order, which no observation shows: the same Energy cards attached in another order give the same
    discard pile and the same observations."""
    names = ["Treasure Map", "Battle Fury", "Field Ration"]
    paid = sorted(names, key=lambda n: POOL.by_name[n])[-2:]  # Kiln Warden's retreat costs 2
    results = []
    for order in (names, names[::-1], names[1:] + names[:1]):
        g = _with_energy({0: order})
        do(g, "retreat", 0)
        assert sorted(names_of(g, 0, "discard")) == sorted(paid)
        results.append((g.observe([0])[0].copy(), g.observe([1])[0].copy()))
    for obs in results[1:]:
        assert all((x == y).all() for x, y in zip(obs, results[0]))
