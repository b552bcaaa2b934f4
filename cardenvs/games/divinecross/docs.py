"""Print the generated tables of RULES.md: ``python -m cardenvs.games.divinecross.docs``."""
from __future__ import annotations

import numpy as np

from . import obs_layout as L
from . import state as S
from .actions import ACTIONS
from .obs_layout import OBS
from .reasons import REASONS
from .vocab import CARD_COLUMNS, EFFECT_COLUMNS


def reasons_table() -> str:
    """The reason codes ``rules.legal_row`` records, with the message ``text.explain_illegal`` makes of each."""
    lines = ["| code | reason | message (fields in braces are filled from the position) |", "|---:|---|---|"]
    lines += [f"| {code} | `{r.name}` | {r.template.replace('|', '/')} |" for code, r in enumerate(REASONS)]
    return "\n".join(lines)


def tables() -> str:
    kind = f"{np.dtype(OBS.dtype_scalar).name} values"
    return "\n\n".join([
        f"### Action space ({ACTIONS.size} actions)\n\n" + ACTIONS.markdown().replace("| offset |", "| first id |"),
        f"### Observation ({OBS.size} {kind})\n\n" + OBS.markdown(),
        f"#### Card block ({L.CARD.size} {kind}: a hand slot, `pending`, the first {L.CARD.size} of a `units` slot)\n\n"
        + L.CARD.markdown(),
        f"#### Unit block ({L.UNIT.size} {kind}: the rest of a `units` slot)\n\n" + L.UNIT.markdown(),
        f"#### Context block ({L.CONTEXT.size} {kind}: `context`)\n\n" + L.CONTEXT.markdown(),
        f"#### Counts block ({L.COUNTS.size} {kind} per player: `counts`)\n\n" + L.COUNTS.markdown(),
        f"### State row ({S.STATE.size} int32)\n\n" + S.STATE.markdown(),
        f"### Card table ({CARD_COLUMNS.size} int32 columns per card, then its card block: {L.CARD_FEATURE_COLUMNS} "
        f"int32 columns holding its {L.CARD_SIZE} {kind})\n\n"
        + CARD_COLUMNS.markdown().replace("| offset |", "| column |"),
        f"### Effect tables ({EFFECT_COLUMNS.size} int32 columns per effect)\n\n"
        + EFFECT_COLUMNS.markdown().replace("| offset |", "| column |"),
        f"### Reason codes ({len(REASONS)}: why an action is illegal)\n\n" + reasons_table(),
    ])


if __name__ == "__main__":
    print(tables())
