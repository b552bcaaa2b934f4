"""Save a MaskablePPO run's model small enough to move between machines: ``python -m cardenvs.train.slim IN.zip OUT.zip``.

A saved model carries more than its policy: Adam's two moments (twice the weights) and the last batch of
observations (``num_envs`` x the observation: 10 MB for relics at 256 envs). Neither is needed to play or to go on
training, and together they pushed a relics or heartbreak ``final.zip`` past what a lent machine sends back (16 MiB a
file). The slim copy keeps the weights, the step count and the hyperparameters, so ``python -m cardenvs.train.ppo GAME
--resume OUT.zip`` continues the run; Adam restarts with empty moments (its first steps are plain sign-sized steps of
the learning rate) and the resumed run resets its envs. The run state beside the model (``IN.json``: episode
numbering, lineage) is copied beside ``OUT.zip`` with this step added to the lineage; its league paths stay, and the
resumed run drops any that do not exist where it runs.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from cardenvs.core.errors import BadArgumentError

from .lineage import carry_run_state

#: saved by SB3 but not needed to resume: the envs are reset when a run resumes without them
LAST_BATCH = ("_last_obs", "_last_original_obs", "_last_episode_starts")


def slim(model_path: str | Path, out_path: str | Path, trust_pickle: bool = False) -> dict[str, Any]:
    """Write ``out_path``: the model of ``model_path`` without its optimizer state or last batch; returns a summary.
    ``model_path`` is unpickled by SB3: it loads only if trusted (``trust_pickle``, or written by this process)."""
    from sb3_contrib import MaskablePPO

    model_path, out_path = Path(model_path), Path(out_path)
    from cardenvs.agents.policy import check_pickle_trust, trust_pickle_file

    check_pickle_trust(model_path, trust_pickle)  # SB3 unpickles the file: a crafted one runs code
    model = MaskablePPO.load(str(model_path), device="cpu")
    policy = model.policy
    # a fresh optimizer over the same parameters: the saved state dict then holds no moments
    policy.optimizer = policy.optimizer_class(policy.parameters(), lr=model.lr_schedule(1.0), **policy.optimizer_kwargs)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    model.save(str(out_path), exclude=list(LAST_BATCH))
    trust_pickle_file(out_path)  # written by this process: a staged run resumes it
    summary = {"model": str(model_path), "out": str(out_path), "steps": int(model.num_timesteps),
               "bytes": [model_path.stat().st_size, out_path.stat().st_size]}
    carry_run_state(model_path, out_path, {"slimmed": summary})
    return summary


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="python -m cardenvs.train.slim", description=__doc__.split("\n\n")[0])
    ap.add_argument("--trust-pickle", action="store_true", dest="trust_pickle",
                    help="load the .zip although SB3 unpickles it (a crafted one runs code): for models you trust")
    ap.add_argument("model", help="a MaskablePPO .zip (a run's final.zip or a checkpoint)")
    ap.add_argument("out", help="the slim .zip (the run state .json beside the model is copied beside it)")
    args = ap.parse_args(argv)
    if not Path(args.model).is_file():
        ap.error(f"no model file {args.model!r}")
    if Path(args.out).resolve() == Path(args.model).resolve():
        ap.error("the slim copy must not overwrite the model it is made from")
    try:
        summary = slim(args.model, args.out, trust_pickle=args.trust_pickle)
    except BadArgumentError as exc:
        print(f"python -m cardenvs.train.slim: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except (ValueError, KeyError, OSError) as exc:  # SB3 turns a file that is not a zip into a ValueError
        print(f"python -m cardenvs.train.slim: {args.model}: not a saved MaskablePPO model ({exc})", file=sys.stderr)
        raise SystemExit(2) from None
    print(json.dumps(summary))
    return summary


__all__ = ["LAST_BATCH", "main", "slim"]


if __name__ == "__main__":
    main()
