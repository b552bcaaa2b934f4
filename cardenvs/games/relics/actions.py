"""The flat relics action space, declared as a Layout so its table in RULES.md is generated from the code.

Grid slots are 0-2 (front row) and 3-5 (back row) of the acting player's side ("own") or of the opponent's side
("opp"). Which ranges are legal depends on the pending step (see ``rules.fill_mask``).
"""
from __future__ import annotations

from cardenvs.core.layout import Layout, fields

from . import state as S

ACTIONS = Layout(
    "relics_actions",
    fields(
        ("pass", (), ("Pass (draw 1) / send the drawn character to the reserves / decline a Jump / done keeping or "
                     "discarding")),
        ("fight", (S.PARTY, S.PARTY), "Fight: own slot a attacks opposing slot t (a * 6 + t)"),
        ("throw", (S.PARTY, S.PARTY),
         "Throw: own slot a throws at opposing slot t (then pick the equipment to discard)"),
        ("move", (S.PARTY, S.PARTY), "Move: own slot a to empty own slot b (a * 6 + b)"),
        ("hand", (S.HAND_CAP,), "hand card i: Cast/Use it, Reinforce with it (equipment), or discard it when asked"),
        ("reserve", (S.RES_CAP,), "reserve character j: Reinforce with it; in the Relic phase: discard it (trim)"),
        ("relic", (2 * S.SIDE_CAP,),
         "Reinforce with a sideboard relic: k < 5 own location cards, k >= 5 the opponent's"),
        ("ability", (S.PARTY,), "use the act ability of the character on own slot s"),
        ("leader_ability", (), "use the act ability of the leader card"),
        ("recruit", (), "Recruit: discard 3 cards, draw a character into the reserves"),
        ("appoint", (), "Appoint: discard 3 cards, move the leader card to another character"),
        ("retreat", (), "Retreat: all characters back to the reserves, lose the battle"),
        ("slot", (S.PARTY,), "choose own grid slot s (placement, host, caster, target, new leader, keep)"),
        ("target", (S.PARTY,), "choose opposing grid slot t (effect target, Jump target)"),
        ("location", (2 * S.LOCATIONS,), "choose the location: k < 5 own pile entry k, k >= 5 opponent's entry k - 5"),
        ("pick", (S.LINEUP,), "choose drawn character j as the leader"),
        ("pile", (S.POOL_CAP,), "take back a card with card id k (pool order) from the pile (raise, reclaim, exhume)"),
    ),
)
NUM_ACTIONS = ACTIONS.size
(A_PASS, A_FIGHT, A_THROW, A_MOVE, A_HAND, A_RESERVE, A_RELIC, A_ABILITY, A_LEADER_ABILITY, A_RECRUIT, A_APPOINT,
 A_RETREAT, A_SLOT, A_TARGET, A_LOCATION, A_PICK, A_PILE) = ACTIONS.offsets(
    "pass", "fight", "throw", "move", "hand", "reserve", "relic", "ability", "leader_ability", "recruit", "appoint",
    "retreat", "slot", "target", "location", "pick", "pile")


def action_range(action: int) -> tuple[str, int]:
    """(field name, index inside the field) of a flat action id."""
    for f in ACTIONS.fields:
        start = ACTIONS.offset(f.name)
        if start <= action < start + f.size:
            return f.name, action - start
    raise ValueError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
