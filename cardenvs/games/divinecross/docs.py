"""Print the generated tables of RULES.md: ``python -m cardenvs.games.divinecross.docs``."""
from __future__ import annotations

from .actions import ACTIONS
from .observe import OBS
from . import state as S


def tables() -> str:
    return "\n\n".join([
        f"### Action space ({ACTIONS.size} actions)\n\n" + ACTIONS.markdown().replace("| offset |", "| first id |"),
        f"### Observation ({OBS.size} floats)\n\n" + OBS.markdown(),
        f"### State row ({S.STATE.size} int32)\n\n" + S.STATE.markdown(),
    ])


if __name__ == "__main__":
    print(tables())
