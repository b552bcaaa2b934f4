"""The one template of every game's batch kernels: ``python -m cardenvs.core.kernel_template --write [GAME ...]``.

The core owns every loop of the kernel contract (:mod:`cardenvs.core.spec`): ``batch_reset``, ``batch_step``,
``batch_observe``, ``batch_mask``, the fused ``batch_play`` and the ``step_row`` wrapper they share (range and mask
check, decision count, settle, truncation at the decision cap). They are written once, here, and rendered into a
checked-in file per game, ``cardenvs/games/<game>/_kernels.py``, because Numba caches a compiled function on disk by
its source file: one loop that took the game's row functions as arguments (or a closure made per game) would miss
the cache and compile again in every process. ``tests/core/test_kernel_template.py`` fails when a generated file
differs from what this template renders (as the generated RULES.md tables are checked).

A game supplies its row functions in ``rules.py`` and ``observe.py``:
``reset_row(row, tables, decks, seed)``, ``mask_row(row, tables, p, mask) -> int`` (the number of legal actions),
``apply_action(row, tables, p, a)``, ``settle(row, tables, mask)`` (every forced step up to the next decision,
leaving the mask of the player to act in ``mask`` while the row is live) and ``observe_row(row, tables, p, out)``,
plus ``NUM_ACTIONS`` (actions.py) and ``DECISION_CAP`` (state.py, a template step's truncation cap); and, in ``rules.py``, a literal
``KERNEL_OPTIONS = {...}`` naming where its rules really differ (:class:`KernelOptions`, all optional). A game whose
mask is costly may name a one-action check (``legal_check``): the step asks it whether the chosen action is legal
instead of computing the whole mask only to read one entry (heartbreak: 1.1x its random round robin).
"""
from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, fields
from pathlib import Path

__all__ = ["GAMES_DIR", "KernelOptions", "game_dirs", "kernel_options", "main", "render", "stale", "write"]

GAMES_DIR = Path(__file__).resolve().parents[1] / "games"
GENERATED = "_kernels.py"


@dataclass(frozen=True)
class KernelOptions:
    """Where a game's kernels differ from the template's defaults (``KERNEL_OPTIONS`` in its rules.py)."""

    #: "template": step_row is the template's wrapper over apply_action/settle/truncate; "game": rules.py defines
    #: ``step_row(row, tables, p, a, mask) -> bool`` itself (simulfight: a plan step of either player, no cap there)
    step: str = "template"
    #: the function in rules.py that ends a game at the decision cap; "": the core's ``cardenvs.core.turns.truncate``
    truncate: str = ""
    #: settle returns True when it left the mask of the player to act in its scratch (else it always does while live)
    settle_reports_mask: bool = False
    #: reset_row takes the scratch mask as a fifth argument and leaves the first decision's mask in it (it settles)
    reset_fills_mask: bool = False
    #: observe.py has ``observe_scratch()`` and ``observe_into(row, tables, p, out, scratch)``: one scratch a batch
    observe_scratch: bool = False
    #: apply_action gets the player as int64, as the game's settle passes it (one compiled version of the engine)
    cast_player: bool = True
    #: the function in rules.py, ``(row, tables, p, a, scratch_mask) -> bool``, that step_row asks whether action
    #: ``a`` is legal; "": the whole ``mask_row``, then its entry ``a`` (a game whose mask is costly checks one action)
    legal_check: str = ""

    def __post_init__(self) -> None:
        if self.step not in ("template", "game"):
            raise ValueError(f"KERNEL_OPTIONS step must be 'template' or 'game', not {self.step!r}")
        if self.truncate and not self.truncate.isidentifier():
            raise ValueError(f"KERNEL_OPTIONS truncate must name a function, not {self.truncate!r}")
        if self.legal_check and not self.legal_check.isidentifier():
            raise ValueError(f"KERNEL_OPTIONS legal_check must name a function, not {self.legal_check!r}")


def kernel_options(game_dir: Path) -> KernelOptions | None:
    """The ``KERNEL_OPTIONS`` literal of ``game_dir/rules.py``, read without importing the game (whose package
    imports the generated file), or None where it declares none."""
    rules = game_dir / "rules.py"
    if not rules.is_file():
        return None
    for node in ast.parse(rules.read_text(encoding="utf-8"), str(rules)).body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) \
            else []
        if any(isinstance(t, ast.Name) and t.id == "KERNEL_OPTIONS" for t in targets) and node.value is not None:
            given = ast.literal_eval(node.value)
            known = {f.name for f in fields(KernelOptions)}
            unknown = sorted(set(given) - known)
            if unknown:
                raise ValueError(f"{rules}: unknown KERNEL_OPTIONS {unknown}; known: {sorted(known)}")
            return KernelOptions(**given)
    return None


def game_dirs() -> list[Path]:
    """Every game folder whose rules.py declares ``KERNEL_OPTIONS`` (the games are found, not listed)."""
    return sorted(d for d in GAMES_DIR.iterdir() if d.is_dir() and kernel_options(d) is not None)


def _lines(*parts: str | None) -> str:
    return "\n".join(p for p in parts if p is not None)


def render(game_dir: Path, options: KernelOptions | None = None) -> str:
    """The source of ``game_dir/_kernels.py``."""
    game = game_dir.name
    o = options if options is not None else kernel_options(game_dir)
    if o is None:
        raise ValueError(f"{game_dir / 'rules.py'} declares no KERNEL_OPTIONS")
    own_step = o.step == "game"
    truncate = o.truncate or "truncate"
    rules_names = ["mask_row", "reset_row"] + (["step_row"] if own_step else ["apply_action", "settle"])
    if not own_step and o.truncate:
        rules_names.append(o.truncate)
    if not own_step and o.legal_check:
        rules_names.append(o.legal_check)
    observe_names = ["observe_into", "observe_scratch"] if o.observe_scratch else ["observe_row"]
    header_names = ["H_STATUS", "H_TO_ACT", "LIVE"] + ([] if own_step else ["H_DECISIONS"])
    scratch = "np.empty(NUM_ACTIONS, dtype=np.int8)"
    reset_tail = ", mask" if o.reset_fills_mask else ""
    if own_step:
        step_code = "STEP_APPLIED if step_row(row, tables, players[i], actions[i], mask) else STEP_ILLEGAL"
        batch_step_line = "errors[i] = 0 if step_row(states[i], tables, players[i], actions[i], mask) else 1"
    else:
        step_code = "step_row(row, tables, players[i], actions[i], mask)"
        batch_step_line = "errors[i] = 1 if step_row(states[i], tables, players[i], actions[i], mask) == STEP_ILLEGAL " \
                          "else 0"

    def observe(row: str, p: str, out: str) -> str:
        return f"observe_into({row}, tables, {p}, {out}, info)" if o.observe_scratch else \
            f"observe_row({row}, tables, {p}, {out})"

    info_line = "    info = observe_scratch()  # one observation scratch for the whole batch" if o.observe_scratch \
        else None
    player = "np.int64(p)" if o.cast_player else "p"
    if own_step:
        step_row = None
    else:
        settle = ("    ready = settle(row, tables, mask)" if o.settle_reports_mask else
                  "    settle(row, tables, mask)  # leaves the mask of the player to act in ``mask`` while the row is live")
        ready = "ready and row[H_STATUS] == LIVE" if o.settle_reports_mask else "row[H_STATUS] == LIVE"
        step_row = _lines(
            "",
            "",
            "@njit(cache=True, inline=\"always\")  # inlined into the batch kernels: no separate compile of the engine",
            "def step_row(row: np.ndarray, tables, p: int, a: int, mask: np.ndarray) -> int:",
            "    \"\"\"Apply action ``a`` of player ``p`` and settle: STEP_ILLEGAL (row untouched) when it is not legal,",
            "    else STEP_MASK_READY when ``mask`` (scratch) holds the live row's next mask, else STEP_APPLIED.\"\"\"",
            "    if a < 0 or a >= NUM_ACTIONS:",
            "        return STEP_ILLEGAL",
            f"    if not {o.legal_check}(row, tables, p, a, mask):" if o.legal_check else
            "    if mask_row(row, tables, p, mask) == 0 or mask[a] == 0:",
            "        return STEP_ILLEGAL",
            "    row[H_DECISIONS] += 1",
            f"    apply_action(row, tables, {player}, np.int64(a))  # the types settle passes: one compiled version",
            settle,
            "    if row[H_STATUS] == LIVE and row[H_DECISIONS] >= S.DECISION_CAP:",
            f"        {truncate}(row)",
            f"    return STEP_MASK_READY if {ready} else STEP_APPLIED",
        )
    exported = sorted(["batch_mask", "batch_observe", "batch_play", "batch_reset", "batch_step", "step_row"])
    return _lines(
        f"# GENERATED by cardenvs.core.kernel_template from KERNEL_OPTIONS in {game}/rules.py: do not edit.",
        f"# Regenerate: python -m cardenvs.core.kernel_template --write {game}",
        f"\"\"\"{game}'s batch kernels (the kernel contract of cardenvs/core/spec.py), rendered from the core's one",
        "template. A file per game, so that Numba caches each game's loops on disk (see cardenvs/core/kernel_template.py).",
        "\"\"\"",
        "from __future__ import annotations",
        "",
        "import numpy as np",
        "from numba import njit",
        "",
        f"from cardenvs.core.header import {', '.join(sorted(header_names))}",
        "from cardenvs.core.kernels import STEP_APPLIED, STEP_ILLEGAL, STEP_MASK_READY, copy_into",
        "from cardenvs.core.turns import truncate" if not own_step and not o.truncate else None,
        "",
        "from .actions import NUM_ACTIONS",
        f"from .observe import {', '.join(observe_names)}",
        f"from .rules import {', '.join(sorted(rules_names))}",
        None if own_step else "from . import state as S",
        "",
        "__all__ = [" + ", ".join('"' + n + '"' for n in exported) + "]",
        step_row,
        "",
        "",
        "@njit(cache=True, nogil=True)",
        "def batch_reset(states, tables, decks, seeds, rows):",
        f"    mask = {scratch}" if o.reset_fills_mask else None,
        "    for i in range(states.shape[0]):",
        "        if rows[i]:",
        f"            reset_row(states[i], tables, decks[i], seeds[i]{reset_tail})",
        "",
        "",
        "@njit(cache=True, nogil=True)",
        "def batch_step(states, tables, players, actions, errors):",
        f"    mask = {scratch}",
        "    for i in range(states.shape[0]):",
        "        errors[i] = 0  # every row not in error reads 0, skipped rows too (no stale error)",
        "        if players[i] >= 0:",
        f"            {batch_step_line}",
        "",
        "",
        "@njit(cache=True, nogil=True)",
        "def batch_observe(states, tables, players, out):",
        info_line,
        "    for i in range(states.shape[0]):",
        f"        {observe('states[i]', 'players[i]', 'out[i]')}",
        "",
        "",
        "@njit(cache=True, nogil=True)",
        "def batch_mask(states, tables, players, out):",
        "    for i in range(states.shape[0]):",
        "        if players[i] >= 0:",
        "            mask_row(states[i], tables, players[i], out[i])",
        "        else:",
        "            out[i, :] = 0",
        "",
        "",
        "@njit(cache=True, nogil=True)",
        "def batch_play(states, tables, decks, seeds, seed_stride, autoreset, players, actions, errors, ended, finals,",
        "               viewers, with_obs, obs, mask_out):",
        "    \"\"\"Step, autoreset, observe and mask in one pass, each row staying in cache; the next mask is copied from",
        "    the step's scratch when the step left it there. One function, no per-row helper: each jitted level",
        "    re-optimises and re-generates the code of all it calls, so a helper adds seconds to the first compile.\"\"\"",
        f"    mask = {scratch}",
        info_line,
        "    for i in range(states.shape[0]):",
        "        row = states[i]",
        "        ready = False  # True while ``mask`` holds the mask of the player to act in the row as it is now",
        "        errors[i] = 0",
        "        ended[i] = 0",
        "        if players[i] >= 0:",
        f"            stepped = {step_code}",
        "            errors[i] = 1 if stepped == STEP_ILLEGAL else 0",
        "            ready = stepped == STEP_MASK_READY",
        "        if autoreset and row[H_STATUS] != LIVE:",
        "            copy_into(finals[i], row)",
        "            ended[i] = 1",
        "            seeds[i] += seed_stride",
        f"            reset_row(row, tables, decks[i], seeds[i]{reset_tail})",
        f"            ready = {'True' if o.reset_fills_mask else 'False'}",
        "        viewer = viewers[i] if viewers[i] >= 0 else row[H_TO_ACT]",
        "        if with_obs:",
        f"            {observe('row', 'viewer', 'obs[i]')}",
        "        if viewer < 0 or row[H_STATUS] != LIVE:",
        "            mask_out[i, :] = 0",
        "        elif ready and viewer == row[H_TO_ACT]:",
        "            copy_into(mask_out[i], mask)",
        "        else:",
        "            mask_row(row, tables, viewer, mask_out[i])",
        "",
    )


def stale(game_dir: Path) -> bool:
    """True when ``game_dir/_kernels.py`` is missing or differs from what the template renders."""
    path = game_dir / GENERATED
    return not path.is_file() or path.read_text(encoding="utf-8") != render(game_dir)


def write(game_dir: Path) -> bool:
    """Render ``game_dir/_kernels.py``; True when the file changed."""
    if not stale(game_dir):
        return False
    (game_dir / GENERATED).write_text(render(game_dir), encoding="utf-8")
    return True


def _game_dir(name: str) -> Path:
    path = Path(name)
    return path if path.is_dir() else GAMES_DIR / name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardenvs.core.kernel_template",
                                     description="Render every game's _kernels.py from the core's kernel template.")
    parser.add_argument("games", nargs="*", help="game names or folders (default: every game with KERNEL_OPTIONS)")
    parser.add_argument("--write", action="store_true", help="write the files (default: only check them)")
    args = parser.parse_args(argv)
    dirs = [_game_dir(g) for g in args.games] or game_dirs()
    bad = 0
    for d in dirs:
        if args.write:
            print(f"{d / GENERATED}: {'written' if write(d) else 'up to date'}")
        elif stale(d):
            print(f"{d / GENERATED}: differs from the template (python -m cardenvs.core.kernel_template --write "
                  f"{d.name})", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
