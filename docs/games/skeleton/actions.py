"""The skeleton's flat action space: one action per hand slot ("play the card in slot i")."""
from __future__ import annotations

from cardenvs.core.layout import Layout, fields

from . import state as S

ACTIONS = Layout("skeleton_actions", fields(
    ("play", (S.HAND_SIZE,), "play the hand card in this slot to the current trick"),
))
NUM_ACTIONS = ACTIONS.size
A_PLAY = ACTIONS.offset("play")
