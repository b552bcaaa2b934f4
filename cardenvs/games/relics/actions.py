"""The flat relics action space, declared as a Layout so its table in RULES.md is generated from the code.

Grid slots are 0-2 (front row) and 3-5 (back row) of the acting player's side ("own") or of the opponent's side
("opp"). Which ranges are legal depends on the pending step (see ``rules.mask_row``).
"""
from __future__ import annotations

from cardenvs.core.layout import Layout, fields

from . import state as S

ACTIONS = Layout(
    "relics_actions",
    fields(
        ("pass", (), ("Pass (draw 1) / send the drawn character to the reserves / decline a Jump / done keeping or "
                     "discarding")),
        ("fight", (S.PARTY_SIZE, S.PARTY_SIZE), "Fight: own slot a attacks opposing slot t (a * 6 + t)"),
        ("throw", (S.PARTY_SIZE, S.PARTY_SIZE),
         "Throw: own slot a throws at opposing slot t (then pick the equipment to discard)"),
        ("move", (S.PARTY_SIZE, S.PARTY_SIZE), "Move: own slot a to empty own slot b (a * 6 + b)"),
        ("hand", (S.HAND_CAP,), "hand card i: Cast/Use it, Reinforce with it (equipment), or discard it when asked"),
        ("reserve", (S.RES_VIEW,), "reserve character j: Reinforce with it; in the Relic phase: discard it (trim)"),
        ("relic", (2 * S.SIDE_CAP,),
         "Reinforce with a sideboard relic: k < 5 own location cards, k >= 5 the opponent's"),
        ("ability", (S.PARTY_SIZE,), "use the act ability of the character on own slot s"),
        ("leader_ability", (), "use the act ability of the leader card"),
        ("recruit", (), "Recruit: discard 3 cards, draw a character into the reserves"),
        ("appoint", (), "Appoint: discard 3 cards, move the leader card to another character"),
        ("retreat", (), "Retreat: all characters back to the reserves, lose the battle"),
        ("slot", (S.PARTY_SIZE,), "choose own grid slot s (placement, host, caster, target, new leader, keep)"),
        ("target", (S.PARTY_SIZE,), "choose opposing grid slot t (effect target, Jump target)"),
        ("location", (2 * S.NUM_LOCATIONS,),
         "choose the location: k < 5 own pile entry k, k >= 5 opponent's entry k - 5"),
        ("pick", (S.LINEUP_SIZE,), "choose drawn character j as the leader"),
        ("pile", (S.POOL_CAP,), "take back a card with card id k (pool order) from the pile (raise, reclaim, exhume)"),
    ),
)
NUM_ACTIONS = ACTIONS.size
ACTIONS.export(globals(), "A_")  # A_PASS, A_FIGHT, A_FIGHT_END, ...: every range's first id and one past its last


def action_range(action: int) -> tuple[str, int]:
    """(field name, index inside the field) of a flat action id (``ACTIONS.locate``, kept for text.py and tests)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
    return ACTIONS.locate(action)
