"""The flat levelneo action space, declared as a Layout so its table in RULES.md is generated from the code.

Every decision uses one contiguous range; which ranges are legal depends on the pending step (see ``rules.mask_row``).
``ACTIONS.locate(a)`` is the (range name, index) of a flat action id.
"""
from __future__ import annotations

from cardenvs.core.layout import Layout, fields

from . import state as S

ACTIONS = Layout(
    "levelneo_actions",
    fields(
        ("pass", (), "pass / end the phase / keep the hand / no attack / no combi / no cover / decline a burst"),
        ("go_first", (), "the rock-paper-scissors winner goes first"),
        ("go_second", (), "the rock-paper-scissors winner goes second"),
        ("burst", (), "Level Burst: reveal a face-down level card its owner never saw (they are indistinguishable)"),
        ("hand", (S.HAND_CAP,), "hand card i: play it (support or event) / mulligan it to the bottom / discard it"),
        ("skill", (1 + S.SUPPORT_CAP,), "use the [Use] skill of own main (0) or support slot 1..4"),
        ("attack", (1 + S.SUPPORT_CAP,), "declare an attack with own main (0) or support slot 1..4"),
        ("partner", (S.SUPPORT_CAP,), "combi partner: own support slot 0..3"),
        ("target", (1 + S.SUPPORT_CAP,), "attack target: opponent main (0) or support slot 1..4"),
        ("cover", (S.SUPPORT_CAP,), "cover with own support slot 0..3"),
        ("level_down", (S.LEVEL_CAP,), "discard level-zone card k when the main character levels down"),
        ("combi_loss", (2,), "discard the attacker (0) or its combi partner (1) after a lost support combi"),
        ("choose_main", (S.DECK_SIZE,), "setup: card instance i of the deck list becomes the main character"),
        ("level_up", (), "level up after a won battle (LN-L2: the main *may* level up; pass declines)"),
        ("effect_target", (S.SUPPORT_CAP,), "the support slot 0..3 a one-support effect applies to (own or the "
                                          "opponent's, as the effect says)"),
        ("burst_known", (S.LEVEL_CAP,), "Level Burst revealing face-down level card k that its owner once held "
                                       "(a mulliganed card levelled from the bottom of the deck)"),
    ),
)
NUM_ACTIONS = ACTIONS.size
ACTIONS.export(globals(), "A_")  # A_PASS, A_HAND, A_HAND_END ...: decode an action by range, A_HAND <= a < A_HAND_END
