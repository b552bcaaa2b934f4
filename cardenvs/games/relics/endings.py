"""How a relics game ended, read from its final state (``eval``'s "how games end").

A game ends four ways (RULES.md): a player takes its fourth relic (RL-V1, checked in the Resolution when a relic is
taken), a player has no card in hand and none in its item deck (RL-V2, checked before every decision), a player's
character deck is empty when a battle is to start (RL-V3, checked in ``begin_battle``), or both players lose at the
same check (RL-V5: a draw). Every game ends at ``ST_OVER``, so the step cannot tell them apart; the zones can:

* RL-V1: the winner controls 4 relics (``relic_count``: won location cards by ``controller``). Relics change hands
  only in the Resolution, where RL-V1 is checked, so no other ending leaves a player with 4.
* RL-V3: the loser's character deck is empty, with the trace ``end_battle`` leaves just before ``begin_battle``
  checks it: both parties, both discard piles (sent to the doom piles) and both line-ups empty.
* RL-V2: otherwise, the loser's hand and item deck are empty. (Cards set aside in the Resolution count as in hand
  while it lasts, RL-G14, but they are discarded before the step moves on, so an empty ``hand`` is what every RL-V2
  loss leaves.)
* RL-V5: a draw where both players meet the RL-V2 condition, or both the RL-V3 one.

An RL-V3 loss often comes with an empty hand and item deck as well (in random play about 1 in 7: the player
discarded its last cards in the Resolution, RL-B7, with nothing left to draw); ``begin_battle`` ended such a game, so
it is read as RL-V3. The trace rules out nearly every RL-V2 loss with an empty character deck: that deck was emptied
by the draws of the battle the loss came in (a battle starts only with both character decks holding a card), and
``advance`` checks RL-V2 before every decision, so the loss comes during that battle or its Resolution, while a party,
a line-up or the battle's discard pile is still there. Only an RL-V2 loss in a Resolution after a battle that sent no
card to either discard pile would be read as RL-V3; none occurred in 1,500 random games checked against the call
that ended each one.
A finished game that none of these explains (a forfeit) is no ending of the rules: -1.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.outcomes import final_outcomes

from .state import (
    CHAR_DECK_COUNT,
    CONTROLLER,
    DISCARD_COUNT,
    HAND_COUNT,
    ITEM_DECK_COUNT,
    LINEUP_COUNT,
    MAX_DECK,
    PARTY_COUNT,
    RELICS_TO_WIN,
    SIDE_CAP,
    WON,
    WON_COUNT,
)

ENDINGS = (
    ("RL-V1", "the winner took its fourth relic"),
    ("RL-V2", "the loser had no card in hand and none in its item deck"),
    ("RL-V3", "the loser's character deck was empty when a battle was to start"),
    ("RL-V5", "both players lost at the same check (draw)"),
)
FOUR_RELICS, NO_CARDS, NO_CHARACTERS, BOTH_LOST = range(4)


def relic_counts(states: np.ndarray) -> np.ndarray:
    """int [G, 2]: the relics each player controls (``board.relic_count``, vectorised): won location cards of either
    owner whose ``controller`` is that player."""
    g = states.shape[0]
    won = states[:, WON:WON + 2 * SIDE_CAP].reshape(g, 2, SIDE_CAP)  # [G, owner, j]: instance ids
    held = np.arange(SIDE_CAP)[None, None, :] < states[:, WON_COUNT:WON_COUNT + 2][:, :, None]
    cols = CONTROLLER + np.arange(2)[None, :, None] * MAX_DECK + np.where(held, won, 0)
    controller = np.where(held, np.take_along_axis(states, cols.reshape(g, -1), axis=1).reshape(won.shape), -1)
    return np.stack([(controller == p).sum(axis=(1, 2)) for p in range(2)], axis=1)


def end_reason(states: np.ndarray) -> np.ndarray:
    """int8 [G]: each final state's ending (an index into ``ENDINGS``; -1 for a game not ended by the rules)."""
    game = final_outcomes(states)
    out = game.no_ending()
    rows, loser = game.rows, game.loser
    # [G, 2]: each player's RL-V2 and RL-V3 conditions
    no_cards = (game.both(HAND_COUNT) == 0) & (game.both(ITEM_DECK_COUNT) == 0)
    after_battle = np.ones(rows.shape[0], dtype=bool)  # end_battle's trace
    for count in (PARTY_COUNT, DISCARD_COUNT, LINEUP_COUNT):
        after_battle &= (game.both(count) == 0).all(axis=1)
    no_chars = (game.both(CHAR_DECK_COUNT) == 0) & after_battle[:, None]
    out[game.won & no_cards[rows, loser]] = NO_CARDS
    out[game.won & no_chars[rows, loser]] = NO_CHARACTERS  # after RL-V2: begin_battle ended a game that meets both
    four = relic_counts(game.states)[rows, game.winner] >= RELICS_TO_WIN
    out[game.won & four] = FOUR_RELICS  # last: it ends the game first
    out[game.drawn & (no_cards.all(axis=1) | no_chars.all(axis=1))] = BOTH_LOST
    return out
