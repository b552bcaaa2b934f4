"""Grow a saved MaskablePPO model without changing what it plays: ``python -m cardenvs.train.grow GAME IN.zip OUT.zip``.

Two changes keep a trained policy's output exactly while giving it room to learn more:

* **new observation fields** (the game's observation grew since the model was saved, e.g. relics' ``own_library``):
  every old observation value keeps its weights, and each new value enters the first layers with zero weights, so
  the policy and value outputs are unchanged until training moves them. The new fields must come after the old
  ones (appended), and the card-id entries must not move; anything else is refused.
* **wider hidden layers** (``--net-arch 192 192``): each old unit keeps its incoming and outgoing weights; a new unit
  gets fresh incoming weights (PyTorch's default init) and zero outgoing weights, so it changes nothing until
  trained.

The step count, the hyperparameters and the run state beside the model (``IN.json``: league pool, episode numbering)
are kept, so ``python -m cardenvs.train.ppo GAME --resume OUT.zip --config stage.toml`` continues the run as if it
had had the larger network all along. The optimizer restarts (its moments are for the old shapes).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .lineage import carry_run_state


class GrowError(ValueError):
    """A model that cannot be grown into the requested shape."""


def _first_layer_columns(old_dim: int, new_dim: int, kwargs: dict) -> tuple[np.ndarray, int]:
    """For each old first-layer input, its column in the new first layer; and the new input width."""
    ext = kwargs.get("features_extractor_kwargs") or {}
    if "card_idx" not in ext:  # a plain flattened observation: appended values are appended columns
        return np.arange(old_dim), new_dim
    from .features import plain_indices

    ids = np.asarray(list(ext["card_idx"]), dtype=np.int64)
    rest_old, rest_new = plain_indices(old_dim, ids), plain_indices(new_dim, ids)
    if len(ids) and ids.max() >= old_dim:
        raise GrowError("the card-id entries lie outside the old observation")
    if not np.array_equal(rest_new[: len(rest_old)], rest_old):
        raise GrowError("the new observation values are not appended after the old ones")
    dim = int(ext["dim"])
    cols = np.concatenate([np.arange(len(rest_old)), len(rest_new) + np.arange(len(ids) * dim)])
    return cols, len(rest_new) + len(ids) * dim


def _scale_inputs(kwargs: dict, spec: Any) -> None:
    """Point the model's features extractor at ``spec``'s observation dtype: a compact observation's divisors (the
    network keeps reading the float view it learned on, train/features.py), none for a float32 one."""
    from .features import ScaledFlattenExtractor

    ext = dict(kwargs.get("features_extractor_kwargs") or {})
    ext.pop("divisors", None)
    if spec.obs_dtype != np.float32:
        ext["divisors"] = [float(d) for d in spec.obs_divisors]
    if "card_idx" in ext:
        kwargs["features_extractor_kwargs"] = ext
    elif "divisors" in ext:
        kwargs["features_extractor_class"], kwargs["features_extractor_kwargs"] = ScaledFlattenExtractor, ext
    else:
        for key in ("features_extractor_class", "features_extractor_kwargs"):
            kwargs.pop(key, None)


def grow(model_path: str | Path, out_path: str | Path, game: str, net_arch: Sequence[int] | None = None,
         seed: int = 0, trust_pickle: bool = False) -> dict:
    """Write ``out_path``: the model of ``model_path`` on ``game``'s current observation, hidden layers widened to
    ``net_arch`` (same depth; ``None`` keeps them). Returns a summary (old and new sizes). The run-state file beside
    the model is copied beside the output."""
    import torch
    from sb3_contrib import MaskablePPO

    import cardenvs
    from cardenvs.core.aec import observation_box
    from cardenvs.core.batch import get_spec

    torch.manual_seed(seed)
    from cardenvs.agents.policy import check_pickle_trust, trust_pickle_file

    check_pickle_trust(model_path, trust_pickle)  # SB3 unpickles the file: a crafted one runs code
    model = MaskablePPO.load(str(model_path), device="cpu")
    spec = get_spec(cardenvs.get_game(game).name)
    old_space = model.observation_space
    old_dim = int(np.prod(old_space.shape))
    new_dim = int(spec.obs_dim)
    if new_dim < old_dim:
        raise GrowError(f"{game}'s observation has {new_dim} values, fewer than the model's {old_dim}")
    if int(model.action_space.n) != int(spec.num_actions):
        raise GrowError(f"the model has {model.action_space.n} actions, {game} has {spec.num_actions}")
    if not isinstance(model.policy.action_net, torch.nn.Linear):
        raise GrowError(f"only an MlpPolicy model can be grown, not one with {type(model.policy.action_net).__name__}")
    kwargs = dict(model.policy_kwargs)
    arch = kwargs.get("net_arch") or {}
    old_pi, old_vf = list(arch["pi"]), list(arch["vf"])
    widths = list(net_arch) if net_arch else old_pi
    if not all(isinstance(w, int) and not isinstance(w, bool) and w > 0 for w in widths):
        raise GrowError(f"net_arch must be positive whole numbers, got {widths}")
    if len(widths) != len(old_pi) or len(old_vf) != len(old_pi) or any(w < o for w, o in zip(widths, old_pi)) \
            or any(w < o for w, o in zip(widths, old_vf)):
        raise GrowError(f"net_arch {widths} must keep the depth of {old_pi} and be at least as wide")
    kwargs["net_arch"] = {"pi": widths, "vf": widths}
    _scale_inputs(kwargs, spec)
    # the space the training env declares (cardenvs.make_vec), so that a resumed run accepts the grown model
    new_space = observation_box(spec)
    policy = model.policy_class(new_space, model.action_space, model.lr_schedule, **kwargs).to("cpu")
    cols, width_in = _first_layer_columns(old_dim, new_dim, kwargs)
    old_sd = model.policy.state_dict()
    new_sd = policy.state_dict()
    with torch.no_grad():
        for net in ("policy_net", "value_net"):
            prev_cols = torch.as_tensor(cols)  # where each old input sits in the new layer's inputs
            k = 0
            while f"mlp_extractor.{net}.{k}.weight" in old_sd:
                w_old, b_old = old_sd[f"mlp_extractor.{net}.{k}.weight"], old_sd[f"mlp_extractor.{net}.{k}.bias"]
                w_new, b_new = new_sd[f"mlp_extractor.{net}.{k}.weight"], new_sd[f"mlp_extractor.{net}.{k}.bias"]
                n_out = w_old.shape[0]
                # old units: old weights on old inputs, zero on new inputs; new units keep their fresh init
                w_new[:n_out] = 0.0
                w_new[:n_out, prev_cols] = w_old
                b_new[:n_out] = b_old
                prev_cols = torch.arange(n_out)
                k += 2  # Linear, activation, Linear, ...
            head = "action_net" if net == "policy_net" else "value_net"
            w_old, w_new = old_sd[f"{head}.weight"], new_sd[f"{head}.weight"]
            w_new.zero_()
            w_new[:, prev_cols] = w_old  # new last-layer units: zero outgoing weights
            new_sd[f"{head}.bias"].copy_(old_sd[f"{head}.bias"])
        for key, value in old_sd.items():  # everything else (the card embedding) unchanged
            if not key.startswith(("mlp_extractor.", "action_net.", "value_net.")):
                if new_sd[key].shape != value.shape:
                    raise GrowError(f"{key}: {tuple(value.shape)} cannot become {tuple(new_sd[key].shape)}")
                new_sd[key].copy_(value)
    if new_sd["mlp_extractor.policy_net.0.weight"].shape[1] != width_in:
        raise GrowError("the first layer's input width is not what the observation layout gives")
    policy.load_state_dict(new_sd)
    model.policy = policy
    model.observation_space = new_space
    model.policy_kwargs = kwargs
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    model.save(str(out_path))
    trust_pickle_file(out_path)  # written by this process: the run resumes it
    summary = {"model": str(model_path), "out": str(out_path), "obs": [old_dim, new_dim],
               "net_arch": [old_pi, widths], "steps": int(model.num_timesteps), "seed": int(seed)}
    carry_run_state(model_path, out_path, {"grown": summary})  # what retraces the policy
    return summary


def main(argv: Sequence[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(prog="python -m cardenvs.train.grow", description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--trust-pickle", action="store_true", dest="trust_pickle",
                    help="load the .zip although SB3 unpickles it (a crafted one runs code): for models you trust")
    ap.add_argument("model", help="a MaskablePPO .zip")
    ap.add_argument("out", help="the grown .zip (the run state .json is copied beside it)")
    ap.add_argument("--net-arch", type=int, nargs="+", dest="net_arch", help="new hidden widths (same depth)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the new units' initial weights")
    args = ap.parse_args(argv)
    if not Path(args.model).is_file():
        ap.error(f"no model file {args.model!r}")
    try:
        summary = grow(args.model, args.out, args.game, args.net_arch, args.seed, trust_pickle=args.trust_pickle)
    except (GrowError, KeyError, ValueError) as exc:  # BadArgumentError (an untrusted .zip) is a ValueError
        print(f"python -m cardenvs.train.grow: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    print(json.dumps(summary))
    return summary


__all__ = ["grow", "GrowError", "main"]


if __name__ == "__main__":
    main()
