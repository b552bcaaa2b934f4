"""The flat divinecross action space, declared as a Layout so its table in RULES.md is generated from the code.

Every decision uses one contiguous range; which ranges are legal depends on the pending step (see ``rules.mask_row``).
Unit positions: 0 is the Main Area, 1..3 the Standby slots in order.
"""
from __future__ import annotations

from cardenvs.core.layout import Layout, fields

from . import state as S

ACTIONS = Layout(
    "divinecross_actions",
    fields(
        ("pass", (), "end the Main Phase / end the Battle Phase without a skill / decline the extra setup draw"),
        ("extra_draw", (), "setup: draw the optional extra card after the opponent's redeal (DC-S6)"),
        ("hand", (S.HAND_CAP,), "hand card i: setup: place this Unit face down as Main Unit; Main Phase: play it"),
        ("charge", (S.AREA_SIZE,),
         "charge the unit at position j (0 Main, 1..3 Standby) with the top card of the deck"),
        ("retreat", (S.STANDBY_CAP,), "retreat the Main Unit, swapping it with Standby slot s"),
        ("ex_power", (S.AREA_SIZE,), "use the EX-Power of the unit at position j (once per game)"),
        ("skill", (2,), "Battle Phase: use skill k of the Main Unit"),
        ("host", (S.AREA_SIZE,), "attach the Assist being played to the unit at position j"),
        ("promote", (S.STANDBY_CAP,), "after a Main Unit KO: move Standby slot s up to the Main Area"),
    ),
)
NUM_ACTIONS = ACTIONS.size
# each range's first id (A_HAND + i is hand card i) and, where an action is decoded by its range, one past its last
A_PASS, A_EXTRA_DRAW, A_HAND, A_CHARGE, A_RETREAT, A_EX_POWER, A_SKILL, A_HOST, A_PROMOTE = ACTIONS.offsets(
    "pass", "extra_draw", "hand", "charge", "retreat", "ex_power", "skill", "host", "promote")
A_HAND_END, A_CHARGE_END, A_RETREAT_END, A_EX_POWER_END = (
    ACTIONS.slice(name).stop for name in ("hand", "charge", "retreat", "ex_power"))
