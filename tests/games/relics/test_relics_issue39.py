"""Scenario tests for issue 39's relics findings; each failed on the code before its fix.

Finding 10: free repeatable actions (two Scavenger's Hooks, Dawn Cleric, Banner of Command) held a battle forever;
the cards changed and RULES.md "Caps" proves a bound: every battle-phase action lowers the potential ``phi`` below.
Finding 11: the reserve limit and the offered no-ops (RL-P4, RL-P6, RL-M4, RL-D14, Longbow).
Finding 12: the simultaneous steps (reserve trim, Resolution discards) hide the first chooser's choice (RL-G14).
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from relics_helpers import (
    POOL,
    build,
    do,
    field,
    is_down,
    is_legal,
    legal,
    names,
    party_at,
)

from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import DeckError
from cardenvs.core.header import H_TURN, LIVE
from cardenvs.games.relics import SPEC, load_deck, load_pool
from cardenvs.games.relics.actions import ACTIONS
from cardenvs.games.relics.cards import DEFAULT_POOL
from cardenvs.games.relics.state import (
    BATTLE_TURN_CAP,
    CHAR_DECK_SIZE,
    DECISION_CAP,
    ITEM_DECK_SIZE,
    PARTY_SIZE,
    RELICS_TO_WIN,
    RES_VIEW,
    ROUND_CAP,
    ST_BATTLE,
    ST_HAND,
    ST_TRIM,
)
from cardenvs.games.relics.text import render

# ---------------------------------------------------------------------------------------------------- the potential
# RULES.md "Caps: why every battle ends": per card of a player, 6 for an item-deck card in its item deck or hand,
# 3 for a character in its character deck or reserves, 2 / 1 for an Up / Down character in its party, 1 for a relic
# it controls that is not in play; 0 anywhere else (discard and doom piles, attached equipment and relics).
W_ITEM, W_CHAR, W_UP, W_DOWN, W_RELIC = 6, 3, 2, 1, 1


def phi(g: BatchGame) -> np.ndarray:
    """The potential of every row of ``g`` (both players together)."""
    get = lambda name: SPEC.state_layout.get(g.states, name)  # noqa: E731
    total = W_ITEM * (get("item_deck_count") + get("hand_count")).sum(axis=1)
    total += W_CHAR * (get("char_deck_count") + get("reserves_count")).sum(axis=1)
    party, count, down = get("party"), get("party_count"), get("down")
    won, won_count, controller, host = get("won"), get("won_count"), get("controller"), get("host")
    for r in range(len(g.states)):
        for p in range(2):
            for j in range(count[r, p]):
                total[r] += W_DOWN if down[r, p, party[r, p, j]] else W_UP
            for j in range(won_count[r, p]):
                inst = won[r, p, j]
                if host[r, p, inst] < 0:
                    total[r] += W_RELIC  # counted once, for its controller
    return total


def down_count(g: BatchGame) -> np.ndarray:
    get = lambda name: SPEC.state_layout.get(g.states, name)  # noqa: E731
    party, count, down = get("party"), get("party_count"), get("down")
    return np.array([sum(int(down[r, p, party[r, p, j]]) for p in range(2) for j in range(count[r, p]))
                     for r in range(len(g.states))])


def _stall(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Never pass while anything else but Retreat is legal; abilities first."""
    weight = np.ones(mask.shape[1])
    weight[ACTIONS.slice("ability")] = 1e6
    weight[ACTIONS.slice("leader_ability")] = 1e6
    weight[ACTIONS.offset("pass")] = 1e-6
    weight[ACTIONS.offset("retreat")] = 0.0
    return (mask * weight * (0.5 + rng.random(mask.shape))).argmax(axis=1)


@pytest.mark.parametrize("pilot", ["random", "stall"])
def test_RL_G13_every_battle_action_lowers_the_potential(pilot: str) -> None:
    """Checks RL-G13 (issue 39 finding 10), the key step of the termination argument in RULES.md "Caps": between
    two battle-phase decisions of the acting player, an action or its sub-decisions and the Steal discards it caused
    lower ``phi`` by at least 1, a Pass leaves it unchanged, and only a round end (two passes) raises it, by the
    number of Down characters it Ups. With the old cards (Hooks taking each other back, Dawn Cleric and Banner of
    Command Upping the one that paid) an action could leave it unchanged forever."""
    names_ = SPEC.starter_decks()
    pairs = [(a, b) for a in names_ for b in names_]
    n = 36
    g = BatchGame(SPEC, n, decks=[pairs[i % len(pairs)] for i in range(n)], seed=39)
    rng = np.random.default_rng(1)
    last = np.full(n, -1)  # phi at the last battle-step decision of this battle phase (-1: none yet)
    last_round = np.zeros(n, dtype=np.int64)
    last_pass = np.zeros(n, dtype=bool)
    last_down = np.zeros(n, dtype=np.int64)
    last_battle = np.zeros(n, dtype=np.int64)
    checked = passes = 0
    get = lambda name: SPEC.state_layout.get(g.states, name).copy()  # noqa: E731
    for _ in range(DECISION_CAP):
        live = g.status == LIVE
        if not live.any():
            break
        at_battle = live & (get("step") == ST_BATTLE) & (get("battle_winner") < 0)
        now = phi(g)
        rounds, battles = get("round"), g.states[:, H_TURN].copy()
        for r in np.flatnonzero(at_battle):
            if last[r] >= 0 and battles[r] == last_battle[r]:
                if rounds[r] != last_round[r]:  # a round end: everything went Up
                    assert now[r] - last[r] <= last_down[r]
                elif last_pass[r]:
                    assert now[r] == last[r]
                    passes += 1
                else:
                    assert now[r] <= last[r] - 1, (r, now[r], last[r])
                    checked += 1
        mask = g.legal_mask()
        acts = _stall(mask, rng) if pilot == "stall" else (rng.random(mask.shape) * mask).argmax(axis=1)
        last = np.where(at_battle, now, last)
        last_round = np.where(at_battle, rounds, last_round)
        last_pass = np.where(at_battle, acts == ACTIONS.offset("pass"), last_pass)
        last_down = np.where(at_battle, down_count(g), last_down)
        last_battle = np.where(at_battle, battles, last_battle)
        g.step(acts)
    assert (g.status != LIVE).all()
    assert checked > 500 and (pilot == "stall" or passes > 100)


def test_RL_G13_V5_the_caps_are_above_the_proved_bounds() -> None:
    """Checks RL-G13, RL-V5 (issue 39 finding 10): the bounds of RULES.md "Caps", from the deck sizes: phi at the
    start of a battle phase is at most 2 x (6 x 30 + 3 x 40 + 3) = 606; each of the 11 round ends that a battle can
    have raises it by at most 12; every action lowers it by 1 at least, and a Pass is followed by an action or ends
    a round with the next Pass. So a battle phase has at most 738 actions and 738 + 24 passes, below
    BATTLE_TURN_CAP, and a game of at most 7 battles stays below DECISION_CAP."""
    phi_max = 2 * (W_ITEM * ITEM_DECK_SIZE + W_CHAR * CHAR_DECK_SIZE + W_RELIC * (RELICS_TO_WIN - 1))
    actions = phi_max + (ROUND_CAP - 1) * 2 * PARTY_SIZE
    turns = actions + actions + 2 * ROUND_CAP
    assert (phi_max, actions, turns) == (606, 738, 1500)
    assert turns < BATTLE_TURN_CAP
    relic_phase = 1 + 4 + 2 * 5 + 2 * (CHAR_DECK_SIZE - 3) + 2 * 3
    per_battle = relic_phase + 8 * actions + (actions + 2 * ROUND_CAP) + 4 + 2 * (ITEM_DECK_SIZE + 1)
    battles = CHAR_DECK_SIZE // 6 + 1
    assert battles == 7 and battles * per_battle < DECISION_CAP


def test_RL_G13_M1_two_scavengers_hooks_cannot_take_each_other_back_forever() -> None:
    """Checks RL-G13, RL-M1 (issue 39 finding 10): the Hook costs a Down now. Two Hooks took each other back for
    free (30 casts in a row, no pass, the round never ended); now each cast downs an Up user, so with one
    character the second Hook waits for the next Up."""
    g = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Scavenger's Hook", "Oak Buckler"],
               "discard": ["Scavenger's Hook"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    casts = 0
    for _ in range(30):
        hooks = [i for i, n in enumerate(names(g, 0, "hand")) if n == "Scavenger's Hook"]
        if not hooks or not is_legal(g, "hand", hooks[0]):
            break
        do(g, "hand", hooks[0])
        if ("slot", 0) in legal(g):
            do(g, "slot", 0)  # its user: the Hook costs a Down (issue 39)
        casts += 1
        do(g, "pass", player=1)
    assert casts == 1 and is_down(g, 0, 0)
    assert names(g, 0, "hand") == ["Oak Buckler", "Scavenger's Hook"]


def test_RL_G13_U5_dawn_cleric_and_banner_of_command_no_longer_up_the_one_that_paid() -> None:
    """Checks RL-G13, RL-U5 (issue 39 finding 10): Dawn Cleric's ability and Banner of Command's leader ability Upped
    the character that had just gone Down for them, every turn; now they give +2 DEF / +2 ATT until the next Up and
    the payer stays Down."""
    g = build({"party": ["Dawn Cleric@0", "Ironbrand Squire@1:L"], "hand": ["Whetstone"],
               "leader_card": "Banner of Command"},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}, location=("Royal Arena", 0))
    do(g, "ability", 0)
    do(g, "slot", 0)  # the Cleric itself
    assert is_down(g, 0, 0)
    do(g, "pass", player=1)
    assert not is_legal(g, "ability", 0)
    do(g, "leader_ability")
    do(g, "slot", 1)  # the leader itself
    assert is_down(g, 0, 1)
    do(g, "pass", player=1)
    assert not is_legal(g, "leader_ability") and [n for n, _ in legal(g)] == ["pass", "retreat"]


def test_RL_G13_gravecrawler_defeat_gives_att_not_a_raise() -> None:
    """Checks RL-G13 (issue 39 finding 10): a raise on a defeat lets two Gravecrawler players trade defeats, raises
    and Reinforces forever (the potential of RULES.md "Caps" rises by 1 on a Down victim). Gravecrawler's [Defeat]
    now gives it +1 ATT until the next Up, and the discard pile stays where it was."""
    g = build({"party": ["Gravecrawler@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"], "discard": ["Dust Monk"]},
              {"party": ["Cutpurse Vex@0:L", "Brass Golem@1"], "hand": ["Oak Buckler"]})
    do(g, "fight", 0)  # 4 vs DEF 3: defeated
    assert party_at(g, 1) == {1: "Brass Golem"} and names(g, 0, "reserves") == []
    assert names(g, 0, "discard") == ["Dust Monk"] and int(field(g, "att_mod")[0, 0]) == 1
    assert int(g.to_act[0]) == 1


# ---------------------------------------------------------------------------------------------------- finding 11
def test_RL_P4_P6_recruit_and_raise_beyond_twelve_and_twenty_four_reserves() -> None:
    """Checks RL-P4, RL-P6 (issue 39 finding 11): the reserves have no limit once the battle starts. Recruit,
    Recruiting Horn and a raise used to be refused at 12 reserves; and past the 24 observed entries, every different
    character stays among them, so a raised Dust Monk can still Reinforce."""
    twelve = build({"party": ["Ironbrand Squire@0:L"], "reserves": ["Brass Golem"] * 12,
                    "hand": ["Recruiting Horn", "Oak Buckler", "Tin Sword", "Whetstone"]},
                   {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    assert is_legal(twelve, "recruit") and is_legal(twelve, "hand", 0)
    do(twelve, "hand", 0)
    assert int(field(twelve, "reserves_count")[0]) == 13
    many = build({"party": ["Ironbrand Squire@0:L"], "reserves": ["Brass Golem"] * 24,
                  "hand": ["Grave Lantern", "Oak Buckler"], "discard": ["Dust Monk"]},
                 {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    do(many, "hand", 0)  # the user (the only Up character) and the card (the only one) are the player's choices
    for name, k in legal(many):
        if name == "slot":
            do(many, "slot", k)
            break
    if names(many, 0, "reserves").count("Dust Monk") == 0:
        do(many, "pile", POOL.by_name["Dust Monk"])
    res = names(many, 0, "reserves")
    assert len(res) == 25 and "Dust Monk" in res[:RES_VIEW]
    do(many, "pass", player=1)
    j = res.index("Dust Monk")
    assert is_legal(many, "reserve", j)
    do(many, "reserve", j)
    do(many, "slot", 3)
    assert party_at(many, 0)[3] == "Dust Monk" and int(field(many, "reserves_count")[0]) == 24


def test_RL_M4_recruit_cards_need_a_character_to_draw() -> None:
    """Checks RL-M4 (issue 39 finding 11): Recruiting Horn and Call of the Wild do nothing with an empty character
    deck and are not offered then."""
    p1 = {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}
    empty = build({"party": ["Rune Caller@0:L"], "hand": ["Recruiting Horn", "Call of the Wild"], "char_deck": []}, p1)
    assert not is_legal(empty, "hand", 0) and not is_legal(empty, "hand", 1)
    full = build({"party": ["Rune Caller@0:L"], "hand": ["Recruiting Horn", "Call of the Wild"]}, p1)
    assert is_legal(full, "hand", 0) and is_legal(full, "hand", 1)


def test_RL_M4_healing_draught_needs_a_down_character_and_targets_only_one() -> None:
    """Checks RL-M4, RL-U5 (issue 39 finding 11): Healing Draught with nobody Down is not offered; with one Down
    character only that one may be chosen."""
    p1 = {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}
    nobody = build({"party": ["Ironbrand Squire@0:L", "Gale Duelist@1"], "hand": ["Healing Draught"]}, p1)
    assert not is_legal(nobody, "hand", 0)
    one = build({"party": ["Ironbrand Squire@0:L", "Gale Duelist@1:v"], "hand": ["Healing Draught"]}, p1)
    do(one, "hand", 0)
    assert [a for a in legal(one) if a[0] == "slot"] == [("slot", 1)]


def test_RL_M4_smoke_bomb_targets_only_up_characters() -> None:
    """Checks RL-M4 (issue 39 finding 11): Smoke Bomb (Down one opposing character) cannot be aimed at a Down one,
    and is not offered when every opposing character is Down."""
    p0 = {"party": ["Ironbrand Squire@0:L"], "hand": ["Smoke Bomb"]}
    some = build(p0, {"party": ["Brass Golem@0:L", "Gale Duelist@1:v"], "hand": ["Oak Buckler"]})
    do(some, "hand", 0)
    assert [a for a in legal(some) if a[0] == "target"] == [("target", 0)]
    none = build(p0, {"party": ["Brass Golem@0:Lv", "Gale Duelist@1:v"], "hand": ["Oak Buckler"]})
    assert not is_legal(none, "hand", 0)


def test_RL_M4_supply_cart_needs_an_item_deck() -> None:
    """Checks RL-M4, RL-V4 (issue 39 finding 11): Supply Cart on an empty item deck draws nothing: not offered."""
    p1 = {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}
    empty = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Supply Cart", "Oak Buckler"], "item_deck": []}, p1)
    assert not is_legal(empty, "hand", 0)
    one = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Supply Cart", "Oak Buckler"], "item_deck": ["Tin Sword"]},
                p1)
    assert is_legal(one, "hand", 0)


def test_RL_M4_scavengers_hook_needs_something_to_take() -> None:
    """Checks RL-M4, RL-Z5 (issue 39 finding 11): the Hook with no item-deck card in the discard pile is not offered
    (a character there is not something it may take)."""
    p1 = {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}
    nothing = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Scavenger's Hook"], "discard": ["Dust Monk"]}, p1)
    assert not is_legal(nothing, "hand", 0)
    some = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Scavenger's Hook"], "discard": ["Tin Sword"]}, p1)
    assert is_legal(some, "hand", 0)


def test_RL_A4_M4_a_move_changes_rows() -> None:
    """Checks RL-A4, RL-M4 (issue 39 finding 11): a Move within its own row changed nothing but the Down; only
    empty slots of the other row are offered."""
    g = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Oak Buckler"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    moves = sorted(k for name, k in legal(g) if name == "move")
    assert moves == [0 * PARTY_SIZE + 3, 0 * PARTY_SIZE + 4, 0 * PARTY_SIZE + 5]


def test_longbow_grants_ranged_to_a_rogue() -> None:
    """Checks RL-K4, RL-E1 (issue 39 finding 11): Longbow suited only Hunters, who are Ranged already, so its Ranged
    never mattered; it now suits Rogues too, and a Rogue carrying it Fights 2 rows away."""
    g = build({"party": ["Ironbrand Squire@0:L", "Cutpurse Vex@3"], "hand": ["Longbow"]},
              {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]})
    assert not is_legal(g, "fight", 3 * PARTY_SIZE + 0)  # 2 rows away, no Ranged yet
    do(g, "hand", 0)
    do(g, "slot", 3)  # the Rogue (the Squire is a Blade: not suited)
    do(g, "pass", player=1)
    assert is_legal(g, "fight", 3 * PARTY_SIZE + 0)


def test_RL_D14_a_deck_holds_at_most_24_different_characters(tmp_path: Path) -> None:
    """Checks RL-D14 (issue 39 finding 11): the reserves are observed and chosen in 24 entries that show one copy of
    each different character (RL-P6), so a deck may hold at most 24 different characters; more is refused by name."""
    extra = tmp_path / "extra.toml"
    extra.write_text("".join(
        f'[[card]]\nname = "Extra {k}"\ntype = "character"\nclass = "Blade"\ndescriptors = ["Human"]\n'
        f'att = 3\ndef = 3\n\n' for k in range(5)))
    pool = load_pool([DEFAULT_POOL, extra])
    chars = [c["name"] for c in pool.cards if c["type"] == "character" and c["rarity"] == "common"]
    assert len(chars) >= RES_VIEW + 1
    others = Counter(pool.cards[int(c)]["name"] for c in load_deck("vanguard", pool).card_ids
                     if pool.cards[int(c)]["type"] != "character")

    def deck(n_distinct: int) -> Path:
        cards = dict(others)
        picked = chars[:n_distinct]
        for k in range(CHAR_DECK_SIZE):
            cards[picked[k % n_distinct]] = cards.get(picked[k % n_distinct], 0) + 1
        body = "\n".join(f'"{k}" = {v}' for k, v in cards.items())
        path = tmp_path / f"deck{n_distinct}.toml"
        path.write_text(f'name = "t"\ndescription = "t"\n\n[cards]\n{body}\n')
        return path

    load_deck(deck(RES_VIEW), pool)
    with pytest.raises(DeckError) as err:
        load_deck(deck(RES_VIEW + 1), pool)
    assert "RL-D14" in str(err.value) and "25 different characters" in str(err.value)


# ---------------------------------------------------------------------------------------------------- finding 12
def _obs_and_text(g: BatchGame, viewer: int) -> tuple[np.ndarray, str, np.ndarray]:
    return g.observe([viewer])[0].copy(), render(g.states[0], g.pool, viewer), g.legal_mask([viewer])[0].copy()


def test_RL_G14_G8_the_reserve_trim_hides_the_first_choice() -> None:
    """Checks RL-G14, RL-G8 (issue 39 finding 12): both players trim their reserves at once; 1P's trimmed characters
    are set aside face down, so 2P's observation, board and legal actions at its trim are the same whatever 1P
    trimmed. Then both trims reach the discard piles together."""
    seen = []
    for choice in ([0, 0], [2, 2], [3, 1]):
        g = build({"party": ["Ironbrand Squire@0:L"], "hand": ["Oak Buckler"],
                   "reserves": ["Dust Monk", "Brass Golem", "Gale Duelist", "Quill Archer", "Marrow Witch"]},
                  {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"],
                   "reserves": ["Iron Abbot", "Bramble Beast", "Cutpurse Vex", "Knife Juggler"]},
                  step=ST_TRIM, to_act=0)
        for j in choice:
            do(g, "reserve", j)
        assert int(g.to_act[0]) == 1 and int(field(g, "step")) == ST_TRIM
        seen.append(_obs_and_text(g, 1))
        gone = names(g, 0, "hand_aside")
        do(g, "reserve", 0, player=1)
        assert sorted(names(g, 0, "discard")) == sorted(gone) and names(g, 1, "discard") == ["Iron Abbot"]
    for obs, text, mask in seen[1:]:
        assert np.array_equal(obs, seen[0][0]) and text == seen[0][1] and np.array_equal(mask, seen[0][2])


def test_RL_G14_B7_resolution_discards_hide_the_first_choice() -> None:
    """Checks RL-G14, RL-B7 (issue 39 finding 12): both players discard at once in the Resolution; 1P's discards are
    set aside and its redraw waits, so 2P sees the same whatever 1P discarded. Then both discard and draw to 3."""
    seen = []
    for choice in ([], [0], [0, 0, 0]):
        g = build({"hand": ["Tin Sword", "Whetstone", "Longbow", "Supply Cart"],
                   "item_deck": ["Oak Buckler"] * 5},
                  {"hand": ["Smoke Bomb", "Oak Buckler"], "item_deck": ["Tin Sword"] * 5, "pile": ["Iron Foundry"]},
                  step=ST_HAND, to_act=0, location=None)
        for i in choice:
            do(g, "hand", i)
        do(g, "pass")
        assert int(g.to_act[0]) == 1 and int(field(g, "step")) == ST_HAND
        seen.append(_obs_and_text(g, 1))
        do(g, "hand", 0, player=1)
        do(g, "pass", player=1)
        assert int(field(g, "discard_count")[0]) == 0  # the Resolution sent both discard piles to the doom pile
        assert len(names(g, 0, "doom")) == len(choice) and names(g, 1, "doom") == ["Smoke Bomb"]
        assert len(names(g, 0, "hand")) == max(3, 4 - len(choice))
    for obs, text, mask in seen[1:]:
        assert np.array_equal(obs, seen[0][0]) and text == seen[0][1] and np.array_equal(mask, seen[0][2])
