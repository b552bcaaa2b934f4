"""Port a policy file to today's observation layout: ``python -m cardenvs.train.port GAME OLD.npz --out NEW.npz``.

A policy is trained on one observation layout; when a game's observation grows (issue 38 added what each player knows:
levelneo's 1,440 entries became 1,709), the loader refuses the old file and training starts again from nothing
(levelneo's recipe: 8M steps, about 2.5 hours on the 2-core machine). Most of what the old network learned still
applies: every old entry is still in the observation, under the same name, beside new ones. So this moves the weights
instead of retraining them (network surgery, as OpenAI Five carried its network across observation changes):

- every entry of both layouts is named by path (``hand[3].card.ap``, ``context.battle``, ``main[1].attacker``): the
  field, its indices, and for a field of repeated blocks (a hand of card blocks) the block's own field names;
- the first layer's weight row of each old entry moves to the entry of the same name today (card-id entries move
  with their embedding slot; the instance heads' block positions are renamed the same way);
- entries new today get zero weight: the ported network computes exactly what the old one did on every position
  where the old entries' values are unchanged, and training (a ``[bc]`` clone of it, then PPO) teaches it the rest;
- an old entry that no longer exists under its name needs a rename (``--renames FILE.toml``): a list of
  ``[new name, factor]`` terms whose weighted sum equals the old entry's value (``"(bias)"`` is the constant 1).
  levelneo's (train/warm_starts/levelneo_renames.toml): ``attacking`` became ``attacker`` + ``partner``; the
  ``main_phase_2`` flag became ``main_phase`` (1 or 2; 0 before turn 1) - 1 + the three setup steps' flags.
  An old entry without a name today and without a rename is refused, naming it.

The old layout's names come from the code the policy was trained on: its ``meta["commit"]`` (or ``--old-rev``) is
read from this repository with ``git archive`` and imported in a subprocess, which runs this file (so this module
imports nothing of cardenvs at its top). The ported file carries today's observation digest, the rules version it
was trained on and, in ``meta["ported"]``, what it was ported from. A ported policy has not been measured on today's
game: the default pilot takes it only after the strength bars on today's rules (``python -m cardenvs.train.bars GAME
ppo:FILE --ship PATH``), like a policy of older rules; or it warm-starts training (``[bc] teacher = "ppo:FILE"``).
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

#: the name of the constant input in a rename's terms (the first layer's bias)
BIAS = "(bias)"


def entry_names(layout: Any, layouts: dict[str, Any], game: str, blocks: dict[str, str] | None = None) -> list[str]:
    """One path name per entry of ``layout``. A field of repeated blocks is named by its block's fields: the block
    the field declares (``Field.block``), else a layout of the module named ``<game>_<field>`` (or singular) that
    fits, else the block today's code declares for a field of that name (``blocks``: field name -> layout name; an
    older layout declared none)."""
    names: list[str] = []
    blocks = blocks or {}
    for f in layout.fields:
        shape = tuple(f.shape)
        blk = getattr(f, "block", None)
        if blk is None:
            candidates = [f"{game}_{f.name}", f"{game}_{f.name.removesuffix('s')}"] + (
                [blocks[f.name]] if f.name in blocks else [])
            for cand in candidates:
                sub = layouts.get(cand)
                if sub is not None and sub is not layout and shape and sub.size in (f.size, shape[-1]):
                    blk = sub
                    break
        if blk is not None and shape and shape[-1] == blk.size:
            inner = entry_names(blk, layouts, game, blocks)
            for idx in itertools.product(*[range(n) for n in shape[:-1]]):
                prefix = f.name + "".join(f"[{i}]" for i in idx)
                names += [f"{prefix}.{s}" for s in inner]
        elif blk is not None and f.size == blk.size:
            names += [f"{f.name}.{s}" for s in entry_names(blk, layouts, game, blocks)]
        else:
            for idx in itertools.product(*[range(n) for n in shape]) if shape else [()]:
                names.append(f.name + "".join(f"[{i}]" for i in idx))
    if len(names) != layout.size:
        raise ValueError(f"layout {layout.name}: named {len(names)} entries of {layout.size}")
    return names


def block_names(layout: Any) -> dict[str, str]:
    """Field name -> the name of the block layout it repeats, for every block field of ``layout`` and its blocks."""
    out: dict[str, str] = {}
    for f in layout.fields:
        blk = getattr(f, "block", None)
        if blk is not None:
            out.setdefault(f.name, blk.name)
            out.update({k: v for k, v in block_names(blk).items() if k not in out})
    return out


def layout_names(game: str, blocks: dict[str, str] | None = None) -> dict[str, Any]:
    """The names of the importable cardenvs's observation entries for ``game``, its card-id entries and size."""
    import importlib

    from cardenvs.core.layout import Layout

    module = importlib.import_module(f"cardenvs.games.{game}.obs_layout")
    spec = importlib.import_module(f"cardenvs.games.{game}").SPEC
    layouts = {}  # every layout the game's modules declare or import (a block may live in cards.py)
    for name, mod in list(sys.modules.items()):
        if mod is not None and (name == f"cardenvs.games.{game}" or name.startswith(f"cardenvs.games.{game}.")):
            layouts.update({v.name: v for v in vars(mod).values() if isinstance(v, Layout)})
    layouts.update({v.name: v for v in vars(module).values() if isinstance(v, Layout)})
    names = entry_names(spec.obs_layout, layouts, game, blocks)
    return {"names": names, "card_ids": [int(i) for i in (getattr(spec, "obs_card_ids", ()) or ())],
            "obs_dim": int(spec.obs_dim)}


def old_layout_names(game: str, rev: str, blocks: dict[str, str], repo: Path | None = None) -> dict[str, Any]:
    """The observation entry names of ``game`` as commit ``rev`` of this repository declared them: its ``cardenvs``
    and ``agents`` folders are extracted with ``git archive`` and imported in a subprocess running this file."""
    from cardenvs.core.errors import BadArgumentError

    repo = repo or Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="cardenvs-port-") as tmp:
        try:
            archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", rev, "cardenvs", "agents"],
                                     capture_output=True, timeout=120)
        except (OSError, subprocess.SubprocessError) as exc:
            raise BadArgumentError(f"cannot read commit {rev} with git ({exc}): pass --old-names") from None
        if archive.returncode != 0:
            raise BadArgumentError(f"commit {rev} is not in {repo} (git: {archive.stderr.decode().strip()}): run "
                                   f"from a clone with that history, or pass --old-names")
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True, timeout=120)
        out = Path(tmp) / "names.json"
        env = {**os.environ, "PYTHONPATH": tmp, "NUMBA_DISABLE_JIT": "1", "PYTHONDONTWRITEBYTECODE": "1"}
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--names-of", game, json.dumps(blocks),
                               str(out), tmp], cwd=tmp, env=env, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            raise BadArgumentError(f"could not read {game}'s observation layout at commit {rev}: {' / '.join(tail)}")
        return json.loads(out.read_text())


def read_renames(path: str | Path | None) -> dict[str, list[tuple[str, float]]]:
    """``--renames``: a TOML file whose ``[renames]`` table maps an old entry name to ``[[new name, factor], ...]``."""
    if path is None:
        return {}
    import tomllib

    from cardenvs.core.errors import BadArgumentError

    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise BadArgumentError(f"{path}: cannot read the renames ({exc})") from None
    table = data.get("renames")
    if not isinstance(table, dict):
        raise BadArgumentError(f"{path}: needs a [renames] table of old name = [[new name, factor], ...]")
    out: dict[str, list[tuple[str, float]]] = {}
    for old, terms in table.items():
        ok = isinstance(terms, list) and terms and all(
            isinstance(t, list) and len(t) == 2 and isinstance(t[0], str) and isinstance(t[1], (int, float))
            and not isinstance(t[1], bool) for t in terms)
        if not ok:
            raise BadArgumentError(f"{path}: renames.{old!r} must be a list of [new name, factor] pairs, got {terms!r}")
        out[old] = [(str(n), float(x)) for n, x in terms]
    return out


def port_arrays(arrays: dict[str, np.ndarray], old: dict[str, Any], new: dict[str, Any],
                renames: dict[str, list[tuple[str, float]]] | None = None) -> tuple[dict[str, np.ndarray], dict]:
    """The policy ``arrays`` (a policy file's members) moved from the ``old`` layout's entries to the ``new`` one's
    (each ``{"names", "card_ids"}``). Returns the new arrays and a summary. Raises ``BadArgumentError`` naming every
    old entry the first layer reads that has no place in the new layout."""
    from cardenvs.core.errors import BadArgumentError

    renames = renames or {}
    old_names, new_names = list(old["names"]), list(new["names"])
    where = {name: i for i, name in enumerate(new_names)}
    if len(where) != len(new_names):
        raise BadArgumentError("the new layout names two entries alike")
    new_ids = [int(i) for i in new["card_ids"]]
    out = dict(arrays)
    w0, b0 = arrays["pi_w0"].astype(np.float64), arrays["pi_b0"].astype(np.float64).copy()
    dtype = arrays["pi_w0"].dtype

    def targets(name: str) -> list[tuple[str, float]]:
        return renames.get(name, [(name, 1.0)])

    missing = [old_names[int(p)] for p in range(len(old_names))
               if any(t != BIAS and t not in where for t, _ in targets(old_names[p]))]
    if "emb_table" in arrays:
        old_ids, old_rest = arrays["emb_card_idx"].astype(int), arrays["emb_rest_idx"].astype(int)
        dim = arrays["emb_table"].shape[1]
        new_id_set = set(new_ids)
        new_rest = np.array([i for i in range(len(new_names)) if i not in new_id_set], dtype=np.int64)
        rest_row = {int(p): k for k, p in enumerate(new_rest)}
        slot = {p: k for k, p in enumerate(new_ids)}
    else:
        old_ids, old_rest, dim = np.zeros(0, int), np.arange(len(old_names)), 0
        new_rest = np.arange(len(new_names))
        rest_row = {int(p): int(p) for p in new_rest}
        slot = {}
    if missing:
        raise BadArgumentError(f"{len(missing)} old observation entries have no entry of that name today and no "
                               f"rename: {', '.join(missing[:12])}{' ...' if len(missing) > 12 else ''}")
    w = np.zeros((len(new_rest) + len(slot) * dim, w0.shape[1]))
    for k, p in enumerate(old_rest):
        for name, factor in targets(old_names[int(p)]):
            if name == BIAS:
                b0 += factor * w0[k]
                continue
            q = where[name]
            if q not in rest_row:
                raise BadArgumentError(f"old entry {old_names[int(p)]} is a value, {name} a card id today")
            w[rest_row[q]] += factor * w0[k]
    base = len(old_rest)
    for c, p in enumerate(old_ids):
        name = old_names[int(p)]
        if name in renames or where[name] not in slot:
            raise BadArgumentError(f"old card-id entry {name} is not a card-id entry today")
        s = slot[where[name]]
        w[len(new_rest) + s * dim: len(new_rest) + (s + 1) * dim] = w0[base + c * dim: base + (c + 1) * dim]
    out["pi_w0"], out["pi_b0"] = w.astype(dtype), b0.astype(dtype)
    if "emb_table" in arrays:
        out["emb_card_idx"] = np.asarray(new_ids, dtype=np.int32)
        out["emb_rest_idx"] = new_rest.astype(np.int32)
    k = 0
    while f"inst{k}_rest_pos" in arrays:  # the instance heads read block positions: rename them the same way
        for key in (f"inst{k}_rest_pos", f"inst{k}_id_pos"):
            pos = arrays[key].astype(np.int64)
            moved = np.empty_like(pos)
            for idx, p in np.ndenumerate(pos):
                name = old_names[int(p)]
                if name in renames:
                    raise BadArgumentError(f"instance head {k} reads {name}, which was renamed: port it by hand")
                moved[idx] = where[name]
            out[key] = moved.astype(arrays[key].dtype)
        k += 1
    summary = {"old_obs_dim": len(old_names), "new_obs_dim": len(new_names),
               "renamed": sorted(n for n in renames if n in set(old_names)),
               "new_entries": sorted({re.sub(r"\[\d+\]", "", n) for n in set(new_names) - set(old_names)})}
    return out, summary


def port_policy(src: str | Path, game: str, out: str | Path, renames: str | Path | None = None,
                old_rev: str | None = None, old_names: str | Path | None = None) -> tuple[Path, dict]:
    """Port policy file ``src`` (trained on an older observation layout of ``game``) to today's; write ``out``."""
    from cardenvs.agents.policy import _git_commit, _resolve, _write_npz, observation_digest, read_npz
    from cardenvs.core.batch import get_spec
    from cardenvs.core.errors import BadArgumentError

    spec = get_spec(game)
    p = _resolve(src)
    meta = read_npz(p)[0]
    if meta.get("game") != spec.name:
        raise BadArgumentError(f"{p} is a policy for {meta.get('game')!r}, not {spec.name}")
    if meta.get("num_actions") != spec.num_actions:
        raise BadArgumentError(f"{p} scores {meta.get('num_actions')} actions; {spec.name} has {spec.num_actions}: "
                               f"porting moves observation entries, not actions")
    if "obs_divisors" in meta:
        raise BadArgumentError(f"{p} reads a compact observation; porting starts from a float32-era policy")
    new = layout_names(spec.name)
    if old_names is not None:
        old = json.loads(Path(old_names).read_text())
    else:
        rev = old_rev or str(meta.get("commit") or "").removesuffix("+dirty")
        if not rev:
            raise BadArgumentError(f"{p} names no commit: pass --old-rev or --old-names")
        old = old_layout_names(spec.name, rev, block_names(spec.obs_layout))
    if len(old["names"]) != meta.get("obs_dim"):
        raise BadArgumentError(f"the old layout has {len(old['names'])} entries; {p} reads {meta.get('obs_dim')}")
    with np.load(p, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays, summary = port_arrays(arrays, old, new, read_renames(renames))
    arrays["obs_divisors"] = np.asarray(spec.obs_divisors, dtype=np.float32)  # the weights read the float view
    summary.update({"from": {k: meta.get(k) for k in ("obs_digest", "obs_dim", "rules_version", "commit")},
                    "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": _git_commit()})
    # the rules version stays the one it was trained on: a policy of today's layout trained on older rules, which the
    # default pilot takes only once the bars certify it on today's rules (train/bars.py --ship)
    meta.update({"obs_dim": int(spec.obs_dim), "obs_digest": observation_digest(spec),
                 "obs_dtype": np.dtype(spec.obs_dtype).name, "ported": summary})
    arrays["meta"] = np.array(json.dumps(meta, default=str))
    out = _write_npz(arrays, Path(out))
    from cardenvs.agents.policy import load_npz

    load_npz(out, game=spec.name, older_rules=True)  # a policy of today's layout now
    return out, summary


def main(argv: Sequence[str] | None = None) -> int:
    from cardenvs.core.errors import CardenvsError

    ap = argparse.ArgumentParser(prog="python -m cardenvs.train.port", description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("policy", help="the policy file (.npz) trained on an older observation layout")
    ap.add_argument("--out", required=True, help="where to write the ported policy (.npz)")
    ap.add_argument("--renames", help="TOML file: [renames] old entry name = [[new name, factor], ...]")
    ap.add_argument("--old-rev", help="the commit whose layout the policy read (default: its metadata's commit)")
    ap.add_argument("--old-names", help="JSON of the old layout's entry names, instead of reading a commit")
    args = ap.parse_args(argv)
    try:
        import cardenvs

        game = cardenvs.get_game(args.game).name
        out, summary = port_policy(args.policy, game, args.out, args.renames, args.old_rev, args.old_names)
    except CardenvsError as exc:
        print(f"python -m cardenvs.train.port: error: {exc}", file=sys.stderr)
        return 2
    print(f"{out}: {game} policy ported from {summary['old_obs_dim']} to {summary['new_obs_dim']} observation "
          f"entries; new fields (zero weight): {', '.join(summary['new_entries']) or 'none'}; renamed: "
          f"{len(summary['renamed'])}")
    return 0


def _names_of(game: str, blocks_json: str, out: str, root: str) -> None:
    """Subprocess side of :func:`old_layout_names`: the cardenvs imported here must be the extracted one."""
    import cardenvs

    if not Path(cardenvs.__file__).resolve().is_relative_to(Path(root).resolve()):
        raise SystemExit(f"imported {cardenvs.__file__}, not the extracted commit's cardenvs")
    Path(out).write_text(json.dumps(layout_names(game, json.loads(blocks_json))))


__all__ = ["BIAS", "block_names", "entry_names", "layout_names", "main", "old_layout_names", "port_arrays",
           "port_policy", "read_renames"]


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--names-of":
        sys.path[:] = [sys.argv[5]] + [p for p in sys.path if Path(p).resolve() != Path(__file__).resolve().parent]
        _names_of(*sys.argv[2:])
        sys.exit(0)
    sys.exit(main())
