"""Issue 18: kernels index rows by generated names, never by hand-counted offsets (docs/ADDING-A-GAME.md).

- every field of a game's state, observation and action layouts has its generated constant (``Layout.export``) in the
  module that declares the layout, with the layout's value: a reordered or resized field moves every use with it;
- no kernel module subscripts a row with a literal offset of 2 or more (``out[at + 13]``, ``row[Q + j * 4 + 3]``):
  ``+ 1`` for "the next slot" is allowed, a literal that names a position inside a layout is not;
- kernel modules read the state module through its namespace (``from . import state as S``).
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import cardenvs

KERNEL_FILES = ("rules.py", "effects.py", "board.py", "observe.py", "_kernels.py")


def game_dir(game_name: str) -> Path:
    return Path(cardenvs.__file__).parent / "games" / game_name


def literal_offsets(path: Path) -> list[str]:
    """``file:line: text`` of every subscript whose index adds or subtracts an integer literal >= 2."""
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Subscript):
            continue
        for sub in ast.walk(node.slice):
            if isinstance(sub, ast.BinOp) and isinstance(sub.op, (ast.Add, ast.Sub)):
                for side in (sub.left, sub.right):
                    if isinstance(side, ast.Constant) and isinstance(side.value, int) and abs(side.value) >= 2:
                        found.append(f"{path.name}:{node.lineno}: {ast.unparse(node)}")
    return sorted(set(found))


def test_kernels_index_rows_by_name(game_name: str) -> None:
    offenders = [hit for name in KERNEL_FILES if (game_dir(game_name) / name).exists()
                 for hit in literal_offsets(game_dir(game_name) / name)]
    assert not offenders, f"{game_name}: literal offsets in kernel subscripts:\n" + "\n".join(offenders)


def test_kernels_read_the_state_module_through_its_namespace(game_name: str) -> None:
    for name in KERNEL_FILES:
        path = game_dir(game_name) / name
        if path.exists():
            tree = ast.parse(path.read_text())
            bad = [n.lineno for n in tree.body if isinstance(n, ast.ImportFrom) and n.level == 1 and n.module == "state"]
            assert not bad, f"{game_name}/{name}:{bad}: `from .state import ...`; use `from . import state as S`"


@pytest.mark.parametrize("module, attr, prefix", [("state", "STATE", ""), ("obs_layout", "OBS", "O_"),
                                                  ("actions", "ACTIONS", "A_")])
def test_layout_constants_are_generated(game_name: str, module: str, attr: str, prefix: str) -> None:
    """A module's offset constants come from its Layout (``export`` or ``Layout.offsets``), never typed by hand: every
    module attribute named like one of the layout's constants has the layout's value, and the kernels read some."""
    try:
        mod = importlib.import_module(f"cardenvs.games.{game_name}.{module}")
    except ModuleNotFoundError:
        pytest.skip(f"{game_name} has no {module} module")
    layout = getattr(mod, attr, None)
    if layout is None:
        pytest.skip(f"{game_name}.{module} declares no {attr} layout")
    constants = layout.constants(prefix)
    present = {k: getattr(mod, k) for k in constants if hasattr(mod, k)}
    stale = sorted(k for k, v in present.items() if v != constants[k])
    assert present, f"{game_name}.{module}: none of {attr}'s constants is defined"
    assert not stale, f"{game_name}.{module}: constants stale (not the layout's values): {stale[:10]}"
