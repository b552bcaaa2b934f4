"""Print the simulfight tables for RULES.md, generated from the layouts so the docs cannot drift from the code.

    python -m cardenvs.games.simulfight.docs            # actions, observation, state, card pool
"""
from __future__ import annotations

from .actions import ACTIONS, card_text
from .cards import load_pool
from .observe import OBS
from .state import STATE


def tables() -> str:
    pool = load_pool()
    cards = "\n".join(f"| {i} | {card_text(pool, i)} |" for i in range(len(pool)))
    return "\n\n".join([
        f"### Actions ({ACTIONS.size}; `offset` = first action id of the range, index = card instance)\n\n"
        + ACTIONS.markdown(),
        f"### Observation (float32, {OBS.size} values)\n\n" + OBS.markdown(),
        f"### State row (int32, {STATE.size} values)\n\n" + STATE.markdown(),
        f"### Card pool ({len(pool)} units; id = instance in the full deck)\n\n| id | card |\n|---:|---|\n" + cards,
    ])


if __name__ == "__main__":
    print(tables())
