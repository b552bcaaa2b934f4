"""Print the generated tables of RULES.md: ``python -m cardenvs.games.relics.docs``."""
from __future__ import annotations

import numpy as np

from . import obs_layout as L
from .actions import ACTIONS
from .state import STATE


def _dtype() -> str:
    return np.dtype(L.OBS_DTYPE).name


def tables() -> str:
    return "\n\n".join([
        f"### Action space ({ACTIONS.size} actions)\n\n" + ACTIONS.markdown().replace("| offset |", "| first id |"),
        f"### Observation ({L.OBS.size} entries, stored {_dtype()}; the float view divides each by its field's "
        f"divisor: \"stored xN\")\n\n" + L.OBS.markdown(),
        f"#### Card block ({L.CARD.size} entries: a hand, line-up, reserve, pile or pending card; the `card` part of a "
        f"grid cell and a sideboard entry)\n\n" + L.CARD.markdown(),
        f"#### Slot block ({L.SLOT.size} entries: the `slot` part of a grid cell)\n\n" + L.SLOT.markdown(),
        f"#### Grid cell ({L.CELL.size} entries: one `grid` slot)\n\n" + L.CELL.markdown(),
        f"#### Sideboard entry ({L.SIDE_ENTRY.size} entries: one `sideboard` entry)\n\n" + L.SIDE_ENTRY.markdown(),
        f"#### Context block ({L.CONTEXT.size} entries: `context`)\n\n" + L.CONTEXT.markdown(),
        f"### State row ({STATE.size} int32)\n\n" + STATE.markdown(),
    ])


if __name__ == "__main__":
    print(tables())
