"""Print the simulfight tables for RULES.md, generated from the layouts so the docs cannot drift from the code.

    python -m cardenvs.games.simulfight.docs            # actions, observation, state, card pool, reasons
"""
from __future__ import annotations

from . import obs_layout as L
from . import state as S
from .actions import ACTIONS, card_text
from .cards import ABILITY, CARD, CARD_TABLE, ENTRY, load_pool
from .observe import OBS
from .reasons import REASONS


def reasons_table() -> str:
    """The reason codes the mask records for a refused action, with their message templates (reasons.py)."""
    rows = [f"| {code} | `{r.name}` | {r.template or '(legal: no reason)'} |" for code, r in enumerate(REASONS)]
    return "| code | reason | message (fields in braces are filled from the row) |\n|---:|---|---|\n" + "\n".join(rows)


def tables() -> str:
    pool = load_pool()
    cards = "\n".join(f"| {i} | {card_text(pool, i)} |" for i in range(len(pool)))
    return "\n\n".join([
        f"### Actions ({ACTIONS.size}; `offset` = first action id of the range, index = card instance)\n\n"
        + ACTIONS.markdown(),
        f"### Observation ({OBS.size} entries, {OBS.dtype_scalar.__name__}; the float view divides each entry stored "
        f"xN by N)\n\n" + OBS.markdown(),
        "#### Observation blocks (offsets inside one block)\n\n"
        + "\n\n".join(f"{name} ({layout.size} values)\n\n" + layout.markdown() for name, layout in (
            ("`me`, `me_start`, `opp`: PLAYER", L.PLAYER), ("`planned`: PLANNED", L.PLANNED), ("`pending`: PENDING", L.PENDING),
            ("`my_cards`, `opp_cards`, per instance: CARD", CARD), ("`abilities` of CARD, per trigger: ABILITY",
                                                                     ABILITY))),
        f"### State row (int32, {S.STATE.size} values)\n\n" + S.STATE.markdown(),
        f"`snap_player`, per player: PLAYER_SNAPSHOT ({S.PLAYER_SNAPSHOT.size} values)\n\n"
        + S.PLAYER_SNAPSHOT.markdown(),
        "### Card tables (int32; `cards[id]`: CARD_TABLE, `effects[id, trigger, k]`: ENTRY)\n\n"
        + CARD_TABLE.markdown() + "\n\n" + ENTRY.markdown(),
        f"### Card pool ({len(pool)} units; id = instance in the full deck)\n\n| id | card |\n|---:|---|\n" + cards,
        "### Why an action is refused (the reason codes the mask records)\n\n" + reasons_table(),
    ])


if __name__ == "__main__":
    print(tables())
