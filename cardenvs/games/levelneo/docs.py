"""Print the generated tables of RULES.md: ``python -m cardenvs.games.levelneo.docs``."""
from __future__ import annotations

from . import obs_layout as L
from . import reasons as W
from . import state as S
from .actions import ACTIONS
from .tables import CARD_COLUMNS, EFFECT_COLUMNS, MAX_EFFECTS


def reason_table() -> str:
    """The reason codes ``mask_row`` records (``reasons.py``) with their message templates."""
    lines = ["| code | name | message template |", "|---:|---|---|"]
    for code, (name, _, template) in enumerate(W.REASONS.entries):
        lines.append(f"| {code} | `{name}` | {template.replace('|', '/') or '(legal)'} |")
    return "\n".join(lines)


def tables() -> str:
    blocks = [("CARD", L.CARD, "one card's features (hand slots, `card` of a character or level slot)"),
              ("CHAR", L.CHAR, "a character on the field (`main`, `supports`)"),
              ("LEVEL_SLOT", L.LEVEL_SLOT, "one level-zone slot (`level`)"),
              ("COUNT", L.COUNT, "one player's zone sizes (`counts`)"),
              ("BATTLE_AP", L.BATTLE_AP, "the current battle (`battle_ap`)"),
              ("CONTEXT", L.CONTEXT, "context flags (`context`)"),
              ("QUEUED", L.QUEUED, "one effect source queued behind the pending choice (`queue`)")]
    return "\n\n".join([
        f"### Action space ({ACTIONS.size} actions)\n\n" + ACTIONS.markdown().replace("| offset |", "| first id |"),
        f"### Observation ({L.OBS.size} entries, {L.OBS_DTYPE.__name__}; the float view divides each by its "
        f"\"stored xN\")\n\n" + L.OBS.markdown(),
        *[f"#### Observation block `{name}` ({block.size} entries; offsets `{name}_*` in `obs_layout.py`): {what}\n\n"
          + block.markdown() for name, block, what in blocks],
        f"### State row ({S.STATE.size} int32)\n\n" + S.STATE.markdown(),
        f"#### State block: one `queue` entry ({S.QUEUE_ENTRY.size} int32; offsets `QUEUE_ENTRY_*`)\n\n"
        + S.QUEUE_ENTRY.markdown(),
        f"### Card table `tables.cards` ({CARD_COLUMNS.size} int32 columns `C_*` in `tables.py`; the card's "
        f"observation block `CARD` as stored is `tables.features`)\n\n"
        + CARD_COLUMNS.layout().markdown().replace("| offset |", "| column |"),
        f"### Effect table `tables.effects` ({EFFECT_COLUMNS.size} int32 columns `E_*` in `tables.py`, "
        f"{MAX_EFFECTS} rows per card)\n\n" + EFFECT_COLUMNS.layout().markdown().replace("| offset |", "| column |"),
        f"### Why an action is illegal: reason codes ({W.NUM_REASONS} in `reasons.py`)\n\n" + reason_table(),
    ])


if __name__ == "__main__":
    print(tables())
