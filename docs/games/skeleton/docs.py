"""The skeleton's tables for RULES.md, generated from the layouts: ``python -m <package>.docs``."""
from __future__ import annotations

from .actions import ACTIONS
from .observe import OBS


def tables() -> str:
    return "\n".join(["### Actions", "", ACTIONS.markdown(), "", "### Observation", "", OBS.markdown()])


if __name__ == "__main__":
    print(tables())
