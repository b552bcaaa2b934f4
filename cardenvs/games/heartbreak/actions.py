"""The flat heartbreak action space, declared as a Layout so its table in RULES.md is generated from the code.

Every decision uses one contiguous range; which ranges are legal depends on the pending step (``rules.fill_mask``).
Field positions: 0 is the Lead, 1..3 the Back-Up slots.
"""
from __future__ import annotations

from cardenvs.core.layout import Layout, fields

from . import state as S

ACTIONS = Layout(
    "heartbreak_actions",
    fields(
        ("pass", (), "pass: no charge / end the phase / no (more) Turbo in a response window"),
        ("choose_lead", (S.MAX_DECK,), "setup: card instance i of the deck list becomes the face-down Lead"),
        ("hand", (S.HAND_CAP,), "hand card i: charge it (charge step), call it, play it (support, Turbo, climax)"),
        ("onto", (S.HAND_CAP, S.FIELD_CAP), "hand card i onto own field position f: evolve (fighter) or equip (item)"),
        ("skill", (S.FIELD_CAP, S.MAX_SKILLS), "use skill k of the own fighter at field position f"),
        ("swap", (S.BACKUP_CAP,), "swap the Lead with Back-Up slot j (once per turn)"),
        ("act", (S.MAX_ACTIONS,), "the Lead declares its action k"),
        ("target", (S.FIELD_CAP,), "attack target: the opponent's field position f ([Bypass])"),
        ("order", (S.TRIG_CAP,), "resolve waiting triggered ability k next"),
        ("refill", (S.BACKUP_CAP,), "start phase: move Back-Up slot j into the empty Lead"),
    ),
)
NUM_ACTIONS = ACTIONS.size
A_PASS, A_CHOOSE_LEAD, A_HAND, A_ONTO, A_SKILL, A_SWAP, A_ACT, A_TARGET, A_ORDER, A_REFILL = ACTIONS.offsets(
    "pass", "choose_lead", "hand", "onto", "skill", "swap", "act", "target", "order", "refill"
)


def action_range(action: int) -> tuple[str, int]:
    """(field name, index inside the field) of a flat action id."""
    for f in ACTIONS.fields:
        start = ACTIONS.offset(f.name)
        if start <= action < start + f.size:
            return f.name, action - start
    raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
