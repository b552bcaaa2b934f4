"""Training configs whose ``[bc]`` teacher predates its game's observation (issue 38 changed every layout): the
config is valid, its teacher is to be retrained; the config tests load every other one."""
from __future__ import annotations

from typing import Any, Callable

from cardenvs.core.errors import BadArgumentError

#: what the loader says of a policy file trained on another observation layout
STALE = "observation layout"


def unless_stale_teacher(load: Callable[[], Any]) -> Any:
    """``load()``, or None when it fails only because a ``[bc]`` teacher no longer matches its game's observation."""
    try:
        return load()
    except BadArgumentError as exc:
        if "teacher" in str(exc) and STALE in str(exc):
            return None
        raise
