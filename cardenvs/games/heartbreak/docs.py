"""Print the generated tables of RULES.md: ``python -m cardenvs.games.heartbreak.docs``."""
from __future__ import annotations

from .actions import ACTIONS
from .observe import OBS
from .reasons import REASONS
from .state import STATE
from .tables import CARD_COLUMNS, EFFECT_COLUMNS


def reasons_table() -> str:
    """The reason codes the mask kernel records (``reasons.py``) and their message templates."""
    lines = ["| code | reason | message template |", "|---:|---|---|"]
    lines += [f"| {code} | `{name}` | {text} |" for code, (name, text) in enumerate(REASONS.items())]
    return "\n".join(lines)


def tables() -> str:
    return "\n\n".join([
        f"### Action space ({ACTIONS.size} actions)\n\n" + ACTIONS.markdown().replace("| offset |", "| first id |"),
        f"### Observation ({OBS.size} entries, {OBS.dtype_scalar.__name__}; the float view divides each entry stored "
        f"xN by N)\n\n" + OBS.markdown(),
        f"### State row ({STATE.size} int32)\n\n" + STATE.markdown(),
        f"### Card table columns ({CARD_COLUMNS.size} int32 per card, `tables.cards`)\n\n"
        + CARD_COLUMNS.markdown().replace("| offset |", "| column |"),
        f"### Effect table columns ({EFFECT_COLUMNS.size} int32 per effect, `tables.effects`)\n\n"
        + EFFECT_COLUMNS.markdown().replace("| offset |", "| column |"),
        f"### Why an action is illegal: reason codes ({len(REASONS)})\n\n" + reasons_table(),
    ])


if __name__ == "__main__":
    print(tables())
