"""The flat levelneo action space, declared as a Layout so its table in RULES.md is generated from the code.

Every decision uses one contiguous range; which ranges are legal depends on the pending step (see ``rules.fill_mask``).
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
        ("level_down", (S.LEVEL_ZONE,), "discard level-zone card k when the main character levels down"),
        ("combi_loss", (2,), "discard the attacker (0) or its combi partner (1) after a lost support combi"),
        ("choose_main", (S.DECK_SIZE,), "setup: card instance i of the deck list becomes the main character"),
        ("level_up", (), "level up after a won battle (LN-L2: the main *may* level up; pass declines)"),
        ("effect_target", (S.SUPPORT_CAP,), "the support slot 0..3 a one-support effect applies to (own or the "
                                          "opponent's, as the effect says)"),
        ("burst_known", (S.LEVEL_ZONE,), "Level Burst revealing face-down level card k that its owner once held "
                                       "(a mulliganed card levelled from the bottom of the deck)"),
    ),
)
NUM_ACTIONS = ACTIONS.size
A_PASS, A_GO_FIRST, A_GO_SECOND, A_BURST = ACTIONS.offsets("pass", "go_first", "go_second", "burst")
A_HAND, A_SKILL, A_ATTACK, A_PARTNER, A_TARGET, A_COVER, A_LEVEL_DOWN, A_COMBI_LOSS, A_CHOOSE_MAIN = ACTIONS.offsets(
    "hand", "skill", "attack", "partner", "target", "cover", "level_down", "combi_loss", "choose_main"
)
A_LEVEL_UP, A_EFFECT_TARGET, A_BURST_KNOWN = ACTIONS.offsets("level_up", "effect_target", "burst_known")


def action_range(action: int) -> tuple[str, int]:
    """(field name, index inside the field) of a flat action id."""
    for f in ACTIONS.fields:
        start = ACTIONS.offset(f.name)
        if start <= action < start + f.size:
            return f.name, action - start
    raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
