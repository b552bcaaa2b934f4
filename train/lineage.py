"""The run state beside a model a tool derives from another (``train.slim``, ``train.grow``): copied beside the new
model with the step that made it added to its ``lineage``, which is what retraces a shipped policy."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def carry_run_state(model_path: str | Path, out_path: str | Path, step: dict[str, Any]) -> bool:
    """Copy ``<model>.json`` (the run state) to ``<out>.json``, its lineage extended by the model itself and ``step``
    (e.g. ``{"slimmed": summary}``). Returns False when the model has no run state beside it (nothing to carry)."""
    state = Path(model_path).with_suffix(".json")
    if not state.exists():
        return False
    run_state = json.loads(state.read_text())
    run_state["lineage"] = list(run_state.get("lineage", [])) + [
        {"model": str(model_path), "steps": run_state.get("steps"), "config": run_state.get("config")}, step]
    Path(out_path).with_suffix(".json").write_text(json.dumps(run_state, indent=1))
    return True


__all__ = ["carry_run_state"]
