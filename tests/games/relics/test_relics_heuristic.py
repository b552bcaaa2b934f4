"""The relics heuristic plays its game and reads only what its seat may know (issue 38, steps 2 and 3).

RL-V2 (a player with no card in hand and none in its item deck loses), RL-A4/RL-P3 (a Move to reach a winning
Fight), RL-K6 (a Steal that takes the opponent's last card wins); and every decision of heuristic play equals the
decision on re-deals (``hide``) of everything the deciding seat cannot see. Each scenario failed on the heuristic
before issue 38 (it spent its last card, never moved, and took the first of equal Fights).
"""
from __future__ import annotations

import numpy as np
from relics_helpers import POOL, act, build, fight, is_down, party_at

from cardenvs.agents.heuristic_relics import HeuristicAgent, batch_decide
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.actions import A_HAND, A_LEADER_ABILITY, A_MOVE, A_PASS, A_SLOT
from cardenvs.games.relics.state import PARTY_SIZE


def _decide(rows: np.ndarray, players: np.ndarray) -> np.ndarray:
    rows = np.ascontiguousarray(rows)
    masks = np.zeros((rows.shape[0], SPEC.num_actions), np.int8)
    SPEC.kernels.batch_mask(rows.copy(), POOL.tables, players.astype(np.int32), masks)
    out = np.zeros(rows.shape[0], dtype=np.int32)
    batch_decide(rows, POOL.tables, players.astype(np.int32), masks, out, False)
    return out


def _choice(g: BatchGame, p: int = 0) -> int:
    return int(_decide(g.states[:1], np.array([p]))[0])


def test_RL_V2_the_heuristic_never_spends_its_last_card_with_an_empty_item_deck() -> None:
    """Checks RL-V2: with one card in hand it equips the Oak Buckler while its item deck holds a card (the next Pass
    draws), and Passes when the item deck is empty (an empty hand and item deck lose the game at once)."""
    def position(deck: list[str]):
        return build({"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"], "item_deck": deck},
                     {"party": ["Thornwall Sentinel@0:L"], "hand": ["Oak Buckler"]})

    assert _choice(position(["Longbow"])) == A_HAND + 0
    assert _choice(position([])) == A_PASS


def test_RL_A4_P3_the_heuristic_moves_to_reach_a_winning_fight() -> None:
    """Checks RL-A4, RL-P3: the Skyhook Dragoon (ATT 5) in the back row cannot reach the Dust Monk (DEF 4) in front
    (distance 2, reach 1) and nothing else defeats anyone. Either Move opens the Fight: the Golem to the back row
    (the front row empties and the back row collapses forward, RL-P3, with the Dragoon still Up) or the Dragoon to
    the front; in either place no opposing character can defeat the Dragoon (ATT 2 and 3 against its DEF 4). Facing
    a Bramble Beast (ATT 4) instead, the open Fight would only give the Dragoon away: it Passes."""
    def position(target: str):
        return build({"party": ["Brass Golem@0:L", "Skyhook Dragoon@3"], "hand": ["Night Bolt"]},
                     {"party": ["Thornwall Sentinel@0:L", f"{target}@1"], "hand": ["Oak Buckler"]})

    g = position("Dust Monk")
    a = _choice(g)
    assert a in (A_MOVE + 3 * PARTY_SIZE + 1, A_MOVE + 3 * PARTY_SIZE + 2, A_MOVE + 4, A_MOVE + 5), a
    act(g, a)
    act(g, A_PASS, player=1)
    dragoon = next(s for s, name in party_at(g, 0).items() if name == "Skyhook Dragoon")
    if is_down(g, 0, dragoon):  # it moved itself: it fights once the round ends (two passes in a row: all Up)
        act(g, A_PASS)
    assert int(g.to_act[0]) == 0 and _choice(g) == fight(dragoon, 1)  # the Monk (slot 1) falls
    assert _choice(position("Bramble Beast")) == A_PASS


def test_RL_K6_V2_a_steal_that_takes_the_opponents_last_card_comes_first() -> None:
    """Checks RL-K6, RL-V2: two Fights defeat the Marrow Witch; the Cutpurse Vex's also makes the opponent discard,
    and with its last card (item deck empty) the opponent loses the game: the Vex fights. With cards left in the
    opponent's item deck the two Fights are worth the same and the first one is taken."""
    def position(deck: list[str]):
        return build({"party": ["Gale Duelist@0:L", "Cutpurse Vex@1"], "hand": ["Night Bolt"]},
                     {"party": ["Marrow Witch@0:L", "Brass Golem@3"], "hand": ["Oak Buckler"], "item_deck": deck})

    assert _choice(position([])) == fight(1, 0)
    assert _choice(position(["Longbow"])) == fight(0, 0)


def test_RL_L2_U1_the_heuristic_downs_its_leader_for_a_boost_that_opens_the_winning_fight() -> None:
    """Checks RL-L2, RL-U1 (and RL-B1, the battle won): the Banner of Command (its Blade leader qualifies at the
    Royal Arena) gives each of its characters +1 ATT, so the Gale Duelist has ATT 5 against the lone Thornwall
    Sentinel's DEF 6: no Fight defeats it. The Banner's act ability downs the leader for +2 ATT on one character: the
    heuristic uses it, gives the +2 to the Duelist (not to the leader it downs) and, once the opponent has passed,
    the Duelist's Fight wins the battle. With the Sigil of the Archmage (its act ability draws a card) there is no
    boost to use: it Passes."""
    def position(leader_card: str):
        return build({"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "leader_card": leader_card},
                     {"party": ["Thornwall Sentinel@0:L"], "hand": ["Oak Buckler"]})

    g = position("Banner of Command")
    assert _choice(g) == A_LEADER_ABILITY
    act(g, A_LEADER_ABILITY)
    assert _choice(g) == A_SLOT + 1  # the Duelist, slot 1
    act(g, A_SLOT + 1)
    act(g, A_PASS, player=1)
    assert _choice(g) == fight(1, 0)
    act(g, fight(1, 0))
    assert party_at(g, 1) == {}  # the Sentinel fell: the battle is won
    assert _choice(position("Sigil of the Archmage")) == A_PASS


def test_RL_M3_U1_the_heuristic_keeps_a_whetstone_until_it_opens_a_fight() -> None:
    """Checks RL-M3, RL-U1: the Whetstone (an item; the user goes Down) gives one character +2 ATT until its next Up.
    Against a Thornwall Sentinel (DEF 6) the Gale Duelist (ATT 4) falls short and the boost opens the Fight: the
    heuristic uses it, the Ironbrand Squire pays (not the Duelist, the one the boost is for), and the +2 goes to the
    Duelist. Against a Brass Golem with an Oak Buckler (DEF 9) the boost opens nothing, so the card is kept."""
    def position(target: str, equip: dict):
        return build({"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "hand": ["Whetstone"]},
                     {"party": [f"{target}@0:L"], "hand": ["Oak Buckler"], "equip": equip})

    g = position("Thornwall Sentinel", {})
    assert _choice(g) == A_HAND + 0
    act(g, A_HAND + 0)
    assert _choice(g) == A_SLOT + 0  # the Squire uses it and goes Down
    act(g, A_SLOT + 0)
    assert _choice(g) == A_SLOT + 1  # the Duelist gets the +2
    act(g, A_SLOT + 1)
    act(g, A_PASS, player=1)
    assert _choice(g) == fight(1, 0)
    assert _choice(position("Brass Golem", {0: "Oak Buckler"})) != A_HAND + 0  # (it moves the Duelist out of reach)


def test_RL_V2_the_heuristic_uses_a_discard_ability_once_the_opponents_item_deck_is_empty() -> None:
    """Checks RL-V2 (and RL-L2): the Shadow Crest's act ability (its Noble leader qualifies at the Royal Arena) makes
    the opponent discard a random card. With the opponent's item deck empty and one card in its hand, that discard
    leaves it with no card at all, which loses it the game: the heuristic uses it. While the opponent's item deck
    still holds a card, the discard wins nothing the next Pass would not give back: it Passes."""
    def position(deck: list[str]):
        return build({"party": ["Skyhook Dragoon@0:L"], "leader_card": "Shadow Crest", "hand": ["Night Bolt"]},
                     {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"], "item_deck": deck})

    g = position([])
    assert _choice(g) == A_LEADER_ABILITY
    act(g, A_LEADER_ABILITY)
    assert int(g.winner[0]) == 0  # RL-V2: no card in hand or item deck
    assert _choice(position(["Longbow"])) == A_PASS


def _positions(games: int = 6, every: int = 2) -> list[tuple[np.ndarray, int]]:
    """Positions before decisions of heuristic mirrors over the starter pairings (every ``every``-th decision)."""
    out = []
    names = SPEC.starter_decks()
    agent = HeuristicAgent()
    for k in range(games):
        g = BatchGame(SPEC, 1, decks=(names[k % len(names)], names[(k + 1) % len(names)]), seed=300 + k)
        n = 0
        while g.status[0] == LIVE and n < 3000:
            p = int(g.to_act[0])
            if n % every == 0:
                out.append((g.states[0].copy(), p))
            mask = g.legal_mask([p])
            g.step(agent.act(None, mask, g.states, np.array([p], np.int32)), [p])
            n += 1
    return out


def test_RL_Z4_no_heuristic_decision_depends_on_what_its_seat_cannot_see() -> None:
    """Checks RL-Z4 and the hidden zones (the opponent's hand, reserves, line-up, face-down characters and unshown
    leader card, both decks' order): over positions of heuristic play, every decision equals the decision on three
    re-deals of everything the deciding seat cannot see (``hide``)."""
    rng = np.random.default_rng(7)
    positions = _positions()
    assert len(positions) > 300
    rows, players = [], []
    for row, p in positions:
        rows.append(row)
        players.append(p)
        for _ in range(3):
            rows.append(SPEC.hide(row, p, rng, POOL))
            players.append(p)
    choices = _decide(np.stack(rows), np.array(players)).reshape(-1, 4)
    differ = np.flatnonzero((choices != choices[:, :1]).any(axis=1))
    assert differ.size == 0, f"{differ.size} of {len(positions)} decisions depend on hidden cards: {choices[differ[:5]]}"
