"""Print the generated tables of RULES.md: ``python -m cardenvs.games.levelneo.docs``."""
from __future__ import annotations

from . import obs_layout as L
from . import state as S
from .actions import ACTIONS


def tables() -> str:
    blocks = [("CARD", L.CARD, "one card's features (hand slots, `card` of a character or level slot)"),
              ("CHAR", L.CHAR, "a character on the field (`main`, `supports`)"),
              ("LEVEL_SLOT", L.LEVEL_SLOT, "one level-zone slot (`level`)"),
              ("COUNT", L.COUNT, "one player's zone sizes (`counts`)"),
              ("BATTLE_AP", L.BATTLE_AP, "the current battle (`battle_ap`)"),
              ("CONTEXT", L.CONTEXT, "context flags (`context`)")]
    return "\n\n".join([
        f"### Action space ({ACTIONS.size} actions)\n\n" + ACTIONS.markdown().replace("| offset |", "| first id |"),
        f"### Observation ({L.OBS.size} floats)\n\n" + L.OBS.markdown(),
        *[f"#### Observation block `{name}` ({block.size} floats; offsets `{name}_*` in `obs_layout.py`): {what}\n\n"
          + block.markdown() for name, block, what in blocks],
        f"### State row ({S.STATE.size} int32)\n\n" + S.STATE.markdown(),
        f"#### State block: one `queue` entry ({S.QUEUE_ENTRY.size} int32; offsets `QUEUE_ENTRY_*`)\n\n"
        + S.QUEUE_ENTRY.markdown(),
    ])


if __name__ == "__main__":
    print(tables())
