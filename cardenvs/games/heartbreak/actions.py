"""The flat heartbreak action space, declared as a Layout so its table in RULES.md is generated from the code.

Every decision uses one contiguous range; which ranges are legal depends on the pending step (``rules.mask_row``).
Decode a flat id by its range (``A_ONTO <= a < A_ONTO_END``) or with ``ACTIONS.locate``, never by declaration order.
Field positions: 0 is the Lead, 1..3 the Back-Up slots.
"""
from __future__ import annotations

from cardenvs.core.layout import Layout, fields

from . import state as S

ACTIONS = Layout(
    "heartbreak_actions",
    fields(
        ("pass", (), "pass: no charge / end the phase / no (more) Turbo in a response window"),
        ("choose_lead", (S.LEAD_SLOTS,), "setup: card instance i of the deck list becomes the face-down Lead"),
        ("hand", (S.HAND_SLOTS,), "hand card i: charge it (charge step), call it, play it (support, Turbo, climax)"),
        ("onto", (S.HAND_SLOTS, S.FIELD_CAP),
         "hand card i onto own field position f: evolve (fighter) or equip (item)"),
        ("skill", (S.FIELD_CAP, S.MAX_SKILLS), "use skill k of the own fighter at field position f"),
        ("swap", (S.BACKUP_CAP,), "swap the Lead with Back-Up slot j (once per turn)"),
        ("act", (S.MAX_ACTIONS,), "the Lead declares its action k"),
        ("target", (S.FIELD_CAP,), "attack target: the opponent's field position f ([Bypass])"),
        ("order", (S.TRIG_CAP,), "resolve waiting triggered ability k next"),
        ("refill", (S.BACKUP_CAP,), "start phase: move Back-Up slot j into the empty Lead"),
    ),
)
NUM_ACTIONS = ACTIONS.size
ACTIONS.export(globals(), "A_")  # A_<FIELD> the first flat id of a range, A_<FIELD>_END one past its last
