"""The observation holds what its player knows (issue 38, step 1): two positions that differ only in what the viewer
knows give it different observations, and positions that differ only in what it cannot know give the same one.

Each card case swaps the identities (``deck_list`` entries) of two instances of one player, so both positions hold
the same cards; only where they lie differs. Each case failed before the ``stock_cards``, ``charged_cards`` and
``unseen_cards`` fields and the context's ``pending_action``, ``window_return``, ``resume_effect`` and
``triggers_return`` existed (the two observations it expects to differ were equal). The last three cases change one
field of the resolving stack (what check_game's completeness check changes) and play both positions on to show
that it matters; each failed with the observation of commit bb19f4a (``resume_effect`` and the choice kind shown
only at an effect choice, the window's stage only in an open window, no waiting [Counter]).
"""
from __future__ import annotations

import numpy as np
from heartbreak_helpers import FILLER, POOL, build, do, field

from cardenvs.core.batch import BatchGame
from cardenvs.games.heartbreak import SPEC
from cardenvs.games.heartbreak.obs_layout import (
    CTX_CHOICE_SWAP,
    CTX_COUNTER_ATTACKER,
    CTX_COUNTER_WAITING,
    CTX_PENDING_ACTION,
    CTX_RESUME_EFFECT,
    CTX_STACK_RESOLVING,
    CTX_TRIGGERS_RETURN,
    CTX_WINDOW_RETURN,
)
from cardenvs.games.heartbreak.observe import OBS
from cardenvs.games.heartbreak.state import (
    CH_EVOLVE,
    CH_SWAP,
    FIELD_CAP,
    MAX_DECK,
    NUM_STEPS,
    SK_INDEX,
    ST_ACTION,
    ST_CHOOSE,
    ST_CLEANUP,
    ST_DRAW,
    ST_END_OPEN,
    ST_START_OPEN,
    ST_TARGET,
    ST_TRIGGERS,
    ST_WINDOW,
    STATE,
    WIN_RESOLVING,
)
from cardenvs.games.heartbreak.tables import TR_COUNTER


STOP = "Reinforcements"  # a free Turbo: keeps a player's windows real decisions
_POOL_TABLES = BatchGame(SPEC, 1, decks=("blaze", "tide"), seed=0).pool.tables


def _obs(row: np.ndarray, viewer: int) -> np.ndarray:
    obs = np.zeros((1, SPEC.obs_dim), SPEC.obs_dtype)  # stored integers: flags and counts read as they are
    SPEC.kernels.batch_observe(row[None, :].copy(), _POOL_TABLES, np.array([viewer], np.int32), obs)
    return obs[0]


def _swapped(g: BatchGame, p: int, a: int, b: int) -> np.ndarray:
    """The row with the cards of ``p``'s instances ``a`` and ``b`` exchanged (everything else the same)."""
    row = g.states[0].copy()
    off = STATE.offset("deck_list") + p * MAX_DECK
    row[off + a], row[off + b] = row[off + b], row[off + a]
    return row


def _deck_top(g: BatchGame, p: int) -> int:
    return int(field(g, "deck")[p, int(field(g, "deck_count")[p]) - 1])


def test_HB_C8_the_owner_sees_its_charged_cards_the_opponent_does_not() -> None:
    """HB-C8: charged cards are face down to the opponent only: their owner knows which cards it charged."""
    g = build({"lead": "Kiln Warden", "charge": ["Magma Tyrant"], "deck": ["Flash Burn"]}, {"lead": "Reefling Scout"})
    charged = int(field(g, "charge")[0, 0])
    other = _swapped(g, 0, charged, _deck_top(g, 0))  # Flash Burn charged, Magma Tyrant in the deck
    row = g.states[0]
    assert not np.array_equal(_obs(row, 0), _obs(other, 0))
    assert np.array_equal(_obs(row, 1), _obs(other, 1))  # the opponent cannot tell
    mine = OBS.get(_obs(row, 0), "charged_cards")
    assert mine[POOL.by_name["Magma Tyrant"]] == 1 and mine.sum() == 1
    assert OBS.get(_obs(other, 0), "charged_cards")[POOL.by_name["Flash Burn"]] == 1


def test_HB_I15_the_owner_sees_its_face_down_stock_the_opponent_does_not() -> None:
    """HB-I15: face-down stock cards can be seen only by their owner, and it sees them under their fighter."""
    g = build({"lead": "Thornwood Sapling", "backup": [FILLER], "stock": [("Kelp Mail", 1, False)],
               "deck": ["Flash Burn"]}, {"lead": "Kiln Warden"})
    stocked = int(field(g, "stock")[0, 0])
    other = _swapped(g, 0, stocked, _deck_top(g, 0))
    row = g.states[0]
    assert not np.array_equal(_obs(row, 0), _obs(other, 0))
    assert np.array_equal(_obs(row, 1), _obs(other, 1))
    stock = OBS.get(_obs(row, 0), "stock_cards")
    assert stock[0, 1, POOL.by_name["Kelp Mail"]] == 1 and stock.sum() == 1  # own side, Back-Up 1
    assert OBS.get(_obs(row, 1), "stock_cards").sum() == 0  # the opponent's view: nothing of it


def test_HB_I16_which_fighter_a_face_up_stock_card_lies_under_is_public() -> None:
    """HB-I16/I18: face-up stock is public, and which fighter holds it decides where it goes (with its host): two
    fighters with one face-up stock card each, the two cards exchanged, look different to both players."""
    def position(under_lead: str, under_backup: str) -> BatchGame:
        return build({"lead": "Thornwood Sapling", "backup": ["Thornwood Sapling"],
                      "stock": [(under_lead, 0, True), (under_backup, 1, True)]}, {"lead": "Kiln Warden"})

    g, h = position("Thornwood Seedling", FILLER), position(FILLER, "Thornwood Seedling")
    seedling = POOL.by_name["Thornwood Seedling"]
    for viewer, side in ((0, 0), (1, 1)):
        a, b = _obs(g.states[0], viewer), _obs(h.states[0], viewer)
        assert not np.array_equal(a, b)
        assert OBS.get(a, "stock_cards")[side, 0, seedling] == 1
        assert OBS.get(b, "stock_cards")[side, 1, seedling] == 1


def test_HB_C8_I15_H9_the_cards_a_viewer_cannot_see_are_known_only_together() -> None:
    """HB-C8, HB-I15, HB-H9: the cards a viewer cannot see are known together, by card id (``unseen_cards``: each
    deck list is known to both players):
    a different card in the opponent's deck changes the view; the same cards dealt differently between the
    opponent's hand and deck do not."""
    base = {"lead": "Kiln Warden", "hand": ["Flash Burn"]}
    g = build({"lead": "Reefling Scout"}, dict(base, deck=["Magma Tyrant"]))
    h = build({"lead": "Reefling Scout"}, dict(base, deck=["Kiln Warden"]))
    assert not np.array_equal(_obs(g.states[0], 0), _obs(h.states[0], 0))
    unseen = OBS.get(_obs(g.states[0], 0), "unseen_cards")
    assert unseen[1, POOL.by_name["Magma Tyrant"]] == 1 and unseen[1, POOL.by_name["Flash Burn"]] == 1
    assert unseen[1].sum() == int(field(g, "deck_count")[1]) + 1 + 5  # deck, hand, face-down heart
    in_hand = int(field(g, "hand")[1, 0])
    other = _swapped(g, 1, in_hand, _deck_top(g, 1))  # Magma Tyrant in hand, Flash Burn on top of the deck
    assert np.array_equal(_obs(g.states[0], 0), _obs(other, 0))
    assert not np.array_equal(_obs(g.states[0], 1), _obs(other, 1))  # its owner sees its hand
    own = OBS.get(_obs(g.states[0], 0), "unseen_cards")[0]
    assert own.sum() == int(field(g, "deck_count")[0]) + 5 and own[POOL.by_name[FILLER]] == own.sum()


def test_HB_K1_the_target_step_shows_which_action_waits_for_its_target() -> None:
    """HB-K1: a [Bypass] attacker picks its target after its player declared one of the Lead's actions; that player
    knows which (the two actions deal different damage), so the target step shows it."""
    views = []
    for k in range(2):
        g = build({"lead": "Kiln Warden"}, {"lead": "Reefling Scout", "backup": [FILLER]}, step=ST_TARGET)
        field(g, "pending_action")[...] = k
        views.append(_obs(g.states[0], 0))
    assert not np.array_equal(views[0], views[1])
    assert [OBS.get(v, "context")[CTX_PENDING_ACTION + k] for k, v in enumerate(views)] == [1.0, 1.0]


def test_HB_R3_a_window_shows_where_the_turn_goes_on() -> None:
    """HB-R3: a Turbo played at the start phase's open moment and the same Turbo at the end phase's open moment open
    the same window; both players saw where, and the turn goes on there (main phase or end of turn)."""
    views = {0: [], 1: []}
    for step in (ST_START_OPEN, ST_END_OPEN):
        g = build({"lead": "Kiln Warden", "hand": ["Reinforcements", FILLER]}, {"lead": "Reefling Scout",
                                                                             "hand": [FILLER]}, step=step)
        do(g, "hand", 0)
        assert int(field(g, "step")) == ST_WINDOW
        for viewer in (0, 1):
            views[viewer].append(_obs(g.states[0], viewer))
    for viewer in (0, 1):
        assert not np.array_equal(*views[viewer])
        returns = [np.flatnonzero(OBS.get(v, "context")[CTX_WINDOW_RETURN:CTX_WINDOW_RETURN + NUM_STEPS])
                   for v in views[viewer]]
        assert [r.tolist() for r in returns] == [[ST_START_OPEN], [ST_END_OPEN]]


def test_HB_I5_an_effect_choice_shows_which_effect_of_its_card_is_paused() -> None:
    """HB-I5 (the evolve effect's choice, ST_CHOOSE): the effects of one card resolve in printed order, and a choice
    pauses one of them; the players saw the earlier ones resolve, so the choice shows which one is paused."""
    views = []
    for paused in (0, 1):
        g = build({"lead": "Bloomcaller Druid", "hand": ["Thornwood Elder"]}, {"lead": "Reefling Scout"},
                  step=ST_CHOOSE)
        field(g, "choice_kind")[...] = CH_EVOLVE
        field(g, "choice_player")[...] = 0
        field(g, "resume_effect")[...] = paused
        views.append(_obs(g.states[0], 1))
    assert not np.array_equal(views[0], views[1])
    assert OBS.get(views[1], "context")[CTX_RESUME_EFFECT] == 1.0


def test_HB_L5_L6_the_trigger_step_shows_where_the_turn_goes_on() -> None:
    """HB-L5/L6: while triggered abilities are ordered and resolved, both players know which phase collected them
    and so where the turn goes on after the last one."""
    views = []
    for after in (ST_DRAW, ST_CLEANUP):
        g = build({"lead": "Kiln Warden"}, {"lead": "Reefling Scout"}, step=ST_TRIGGERS)
        field(g, "trig_next")[...] = after
        views.append(_obs(g.states[0], 1))
    assert not np.array_equal(views[0], views[1])
    assert OBS.get(views[1], "context")[CTX_TRIGGERS_RETURN + ST_CLEANUP] == 1.0


# ---- what check_game's completeness check found missing on 28 Nov (16:10 UTC: 45 of 26,575 changes) --------------
def _twins(build_position, change) -> tuple[BatchGame, BatchGame]:
    """Two copies of one position, ``change(g)`` applied to the second: what the viewer knows differs in one field."""
    g, h = build_position(), build_position()
    change(h)
    return g, h


def _set(name: str, value: int):
    """A change for :func:`_twins`: the state field ``name`` set to ``value``."""
    def change(g: BatchGame) -> None:
        field(g, name)[...] = value
    return change


def _top_index(g: BatchGame) -> int:
    n = int(field(g, "stack_count"))
    return int(field(g, "stack")[n - 1, SK_INDEX]) if n else -1


def _views_differ(g: BatchGame, h: BatchGame) -> bool:
    """Whether the player to act in ``g`` sees the two positions differently (observation or mask)."""
    p = int(g.to_act[0])
    return (not np.array_equal(_obs(g.states[0], p), _obs(h.states[0], p))
            or not np.array_equal(g.legal_mask([p]), h.legal_mask([p])))


def _currents_window() -> BatchGame:
    """Player 0 has played Changing Currents (swap_lead, then rise its Lead) in its main phase; player 1 answers."""
    g = build({"lead": FILLER, "backup": [FILLER, FILLER], "hand": ["Changing Currents", FILLER]},
              {"lead": "Reefling Scout", "hand": [FILLER]})
    do(g, "hand", 0)
    assert int(field(g, "step")) == ST_WINDOW and int(g.to_act[0]) == 1
    return g


def test_HB_R7_where_the_top_stack_entry_resumes_is_shown_at_every_step() -> None:
    """HB-R7 (each entry's effects resolve in printed order): at which effect the top entry resumes (``resume_effect``)
    and whether an effect choice is pending (``choice_kind``) decide what resolves next; both players saw every effect
    resolve, so the observation shows them at every step, not only while the choice is asked (0 elsewhere, where
    the rules keep them 0). Changing Currents waits in a window: resumed at its second effect it would skip the
    swap_lead choice, and with a swap choice already pending it would not ask one."""
    for name, value in (("resume_effect", 1), ("choice_kind", CH_SWAP)):
        g, h = _twins(_currents_window, _set(name, value))
        assert _views_differ(g, h), name
        do(g, "pass", player=1)
        do(h, "pass", player=1)
        # it matters: the real position asks player 0 which Back-Up becomes the Lead, the changed one does not
        assert int(field(g, "step")) == ST_CHOOSE and int(field(h, "step")) != ST_CHOOSE, name
    h = _currents_window()
    field(h, "resume_effect")[...] = 1
    ctx = OBS.get(_obs(h.states[0], 1), "context")
    assert ctx[CTX_RESUME_EFFECT] == 1.0 and ctx[CTX_CHOICE_SWAP] == 0.0


def test_HB_R8_whether_the_window_is_open_or_its_stack_resolving_is_shown() -> None:
    """HB-R8 (a pass closes the window, then the stack resolves, HB-R7): an effect choice is asked while the closed
    window's stack resolves (``win_stage`` 9), and after the choice the rest resolves at once; a window still open
    would give the other player an answer first. The observation tells them apart (``stack_resolving``), at the
    choice and in an open window."""
    def at_choice() -> BatchGame:
        g = _currents_window()
        do(g, "pass", player=1)
        assert int(field(g, "step")) == ST_CHOOSE and int(field(g, "win_stage")) == WIN_RESOLVING
        return g

    g, h = _twins(at_choice, _set("win_stage", 0))
    assert _views_differ(g, h)
    assert OBS.get(_obs(g.states[0], 0), "context")[CTX_STACK_RESOLVING] == 1.0
    do(g, "swap", 0)
    do(h, "swap", 0)
    assert int(field(g, "step")) != ST_WINDOW and int(field(h, "step")) == ST_WINDOW  # h: player 1 answers again
    g, h = _twins(_currents_window, _set("win_stage", WIN_RESOLVING))
    assert _views_differ(g, h)
    assert OBS.get(_obs(g.states[0], 1), "context")[CTX_STACK_RESOLVING] == 0.0


def _strike_window() -> BatchGame:
    """Pyre Duelist ([Dual Strike]) has hit Reefling Leviathan ([Armor 20] [Counter 20]) with Twin Cuts: the Strike
    rise waits in its window (player 1 answers) and the Leviathan's [Counter] waits behind it (HB-R2)."""
    g = build({"lead": "Pyre Duelist", "backup": [FILLER], "hand": [STOP]},
              {"lead": "Reefling Leviathan", "backup": [FILLER], "hand": [FILLER]}, step=ST_ACTION)
    do(g, "act", 0)
    do(g, "pass", player=1)  # no answer to the action: it resolves, [Dual Strike] triggers
    assert int(field(g, "step")) == ST_WINDOW and int(g.to_act[0]) == 1
    assert int(field(g, "kw_counter")) == int(field(g, "lead")[1, 0])
    return g


def test_HB_R2_K3_the_counter_waiting_behind_a_strike_rise_is_shown() -> None:
    """HB-R2, HB-K3, HB-K4: after an attack the target survived, its [Counter] triggers once the attacker's [X Strike]
    entry has resolved; both players saw the attack, so while the Strike's window is open the observation shows
    which fighter's Counter waits and which attacker it hits (``counter_waiting``, ``counter_attacker``: field
    positions). Without them a position where no Counter waits looks the same, and only one of the two then opens a
    window for the Counter."""
    for name in ("kw_counter", "kw_attacker"):
        g, h = _twins(_strike_window, _set(name, -1))
        assert _views_differ(g, h), name
        do(g, "pass", player=1)
        do(h, "pass", player=1)
        assert _top_index(g) == TR_COUNTER and int(field(h, "stack_count")) == 0, name
    g = _strike_window()
    for viewer in (0, 1):
        ctx = OBS.get(_obs(g.states[0], viewer), "context")
        assert ctx[CTX_COUNTER_WAITING:CTX_COUNTER_WAITING + FIELD_CAP].tolist() == [1.0, 0.0, 0.0, 0.0]
        assert ctx[CTX_COUNTER_ATTACKER:CTX_COUNTER_ATTACKER + FIELD_CAP].tolist() == [1.0, 0.0, 0.0, 0.0]
    do(g, "pass", player=1)  # the Counter has triggered: nothing waits any more
    ctx = OBS.get(_obs(g.states[0], 0), "context")
    assert ctx[CTX_COUNTER_WAITING:CTX_COUNTER_ATTACKER + FIELD_CAP].sum() == 0.0
