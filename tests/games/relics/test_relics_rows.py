"""The row check of relics' pending choice (``SPEC.extra["check_rows"]``, ``state.check_rows``).

The pending fields are pointers the mask and step kernels follow without bounds checks (``pend_card`` is a hand,
reserve or party instance, a leader card or ``owner * MAX_DECK + instance`` of a relic, depending on ``pend_kind``
and ``pend_src``). A row written from outside whose pending choice no kernel can leave is refused with one clear
error before any kernel reads it; check_game's completeness check, which changes one known field of a real row, skips
such rows as invalid instead of playing them (NUMBA_BOUNDSCHECK=1 found the mask and step kernels reading outside
their arrays on them). Rule IDs: RL-A3 (Cast), RL-A5/RL-E1 (equip from the hand), RL-E3 (a relic), RL-K9 (Jump).
"""
from __future__ import annotations

import numpy as np
import pytest
from relics_helpers import build, do, field, inst_at

from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import BadArgumentError
from cardenvs.core.header import H_STATUS, LIVE
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.state import MAX_DECK, PK_EQUIP, PK_OPP_TARGET, PK_RELIC, ST_JUMP, ST_SLOT, check_rows

P1 = {"party": ["Brass Golem@0:L"], "hand": ["Oak Buckler"]}


def _equip_pending():
    """P0 has played Tin Sword from its hand and picks the host (RL-A5/RL-E1): step ST_SLOT, PK_EQUIP."""
    g = build({"party": ["Gale Duelist@0:L", "Ironbrand Squire@1"], "hand": ["Tin Sword", "Oak Buckler"]}, P1)
    do(g, "hand", 0)
    assert int(field(g, "step")) == ST_SLOT and int(field(g, "pend_kind")) == PK_EQUIP
    return g


def test_RL_A5_E1_a_pending_card_outside_the_hand_is_refused() -> None:
    """Checks RL-A5, RL-E1: the equipment being attached is a card of the player's hand; a row whose pending card
    is another instance (here one in the character deck) or a relic code past the deck (what the completeness check
    built by copying pend_card from another position) is refused by name before the mask kernel reads it."""
    g = _equip_pending()
    assert check_rows(g.states.copy(), len(g.pool)) is None
    assert g.legal_mask([0]).any()
    deck_card = int(field(g, "char_deck")[0, 0])
    for wrong in (deck_card, MAX_DECK + 3):
        h = _equip_pending()
        field(h, "pend_card")[...] = wrong
        with pytest.raises(BadArgumentError, match="pend_card is not in the deciding player's hand"):
            h.legal_mask([0])


def test_RL_E3_a_relic_choice_needs_a_relic_the_player_controls() -> None:
    """Checks RL-E3: PK_RELIC's pend_card is ``owner * MAX_DECK + instance`` of a won location card the player
    controls and that is not in play. The equipment choice's hand instance read as such a code (pend_kind changed
    alone) is refused; the real relic choice passes."""
    loc = "Royal Arena"
    g = build({"party": ["Gale Duelist@0:L", "Ironbrand Squire@1"], "hand": ["Oak Buckler"], "relics": [loc]}, P1,
              location=("Iron Foundry", 1))
    do(g, "relic", 0)  # two possible hosts: the host choice is not played for P0
    assert int(field(g, "pend_kind")) == PK_RELIC
    assert check_rows(g.states.copy(), len(g.pool)) is None
    h = _equip_pending()
    field(h, "pend_kind")[...] = PK_RELIC
    with pytest.raises(BadArgumentError, match="no relic in the deciding player's sideboard"):
        h.step([0])


def test_RL_A3_a_pending_kind_of_another_step_is_refused() -> None:
    """Checks RL-A3, RL-K9: a pending kind belongs to its step (an opposing target is chosen at ST_TARGET, the battle
    step has none), and the Jumper is a character of the deciding player's party."""
    g = _equip_pending()
    field(g, "pend_kind")[...] = PK_OPP_TARGET
    with pytest.raises(BadArgumentError, match="pend_kind is not a pending choice of the row's step"):
        g.observe([0])
    g = build({"party": ["Gale Duelist@0:L"], "hand": ["Oak Buckler"]}, P1)
    field(g, "pend_kind")[...] = PK_EQUIP
    with pytest.raises(BadArgumentError, match="pend_kind is not a pending choice"):
        g.legal_mask([0])
    g = build({"party": ["Ironbrand Squire@0:L", "Ashen Pikeman@1"], "hand": ["Oak Buckler"]}, P1, step=ST_JUMP)
    field(g, "pend_player")[...] = 0
    field(g, "jumper")[...] = inst_at(g, 0, 1)
    assert g.legal_mask([0]).any()
    field(g, "jumper")[...] = int(field(g, "char_deck")[0, 0])
    with pytest.raises(BadArgumentError, match="jumper is not in the deciding player's party"):
        g.legal_mask([0])


def test_every_state_of_play_passes_the_row_check() -> None:
    """The check refuses no state the kernels reach: every live row of 40 random games, after every decision."""
    g = BatchGame(SPEC, 40, seed=5)
    rng = np.random.default_rng(5)
    for _ in range(400):
        rows = g.states.copy()
        found = check_rows(rows, len(g.pool))
        assert found is None, found
        live = rows[:, H_STATUS] == LIVE
        if not live.any():
            break
        mask = g.legal_mask()
        g.step(np.argmax(rng.random(mask.shape) * (mask != 0), axis=1).astype(np.int32))
