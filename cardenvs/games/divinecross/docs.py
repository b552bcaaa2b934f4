"""Print the generated tables of RULES.md: ``python -m cardenvs.games.divinecross.docs``."""
from __future__ import annotations

from . import obs_layout as L
from . import state as S
from .actions import ACTIONS
from .observe import OBS


def tables() -> str:
    return "\n\n".join([
        f"### Action space ({ACTIONS.size} actions)\n\n" + ACTIONS.markdown().replace("| offset |", "| first id |"),
        f"### Observation ({OBS.size} floats)\n\n" + OBS.markdown(),
        f"#### Card block ({L.CARD.size} floats: a hand slot, `pending`, the first {L.CARD.size} of a `units` slot)\n\n"
        + L.CARD.markdown(),
        f"#### Unit block ({L.UNIT.size} floats: the rest of a `units` slot)\n\n" + L.UNIT.markdown(),
        f"#### Context block ({L.CONTEXT.size} floats: `context`)\n\n" + L.CONTEXT.markdown(),
        f"#### Counts block ({L.COUNTS.size} floats per player: `counts`)\n\n" + L.COUNTS.markdown(),
        f"### State row ({S.STATE.size} int32)\n\n" + S.STATE.markdown(),
    ])


if __name__ == "__main__":
    print(tables())
