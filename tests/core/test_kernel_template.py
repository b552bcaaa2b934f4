"""Issue 40 step 1: the core owns every loop. Each game's batch kernels are rendered from the one template
(cardenvs/core/kernel_template.py) into a checked-in ``_kernels.py``; these tests fail when a generated file differs
from what the template renders, when a game keeps its own copy of a loop, and when a second process does not find a
game's kernels in Numba's on-disk cache (the reason the loops are generated per game instead of shared)."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from cardenvs.core import kernel_template as T

KERNELS = ("batch_reset", "batch_step", "batch_observe", "batch_mask", "batch_play")


def test_every_generated_kernel_file_is_what_the_template_renders(game_name: str) -> None:
    game_dir = T.GAMES_DIR / game_name
    assert game_dir in T.game_dirs(), f"{game_name}/rules.py declares no KERNEL_OPTIONS"
    assert not T.stale(game_dir), (f"{game_name}/_kernels.py differs from the template: run "
                                   f"python -m cardenvs.core.kernel_template --write {game_name}")
    assert T.main([game_name]) == 0


def test_the_game_registers_the_generated_kernels(game_name: str) -> None:
    spec = importlib.import_module(f"cardenvs.games.{game_name}").SPEC
    generated = importlib.import_module(f"cardenvs.games.{game_name}._kernels")
    for name in KERNELS:
        assert getattr(spec.kernels, name) is getattr(generated, name), name


def test_no_game_keeps_its_own_loops(game_name: str) -> None:
    """The batch loops live in the template only: no game module defines a ``batch_*`` kernel, and fused.py is gone."""
    game_dir = T.GAMES_DIR / game_name
    assert not (game_dir / "fused.py").exists()
    for path in sorted(game_dir.glob("*.py")):
        if path.name == T.GENERATED:
            continue
        defined = [n.name for n in ast.parse(path.read_text()).body if isinstance(n, ast.FunctionDef)]
        assert not [n for n in defined if n in KERNELS], f"{path.name} defines its own batch loop"


def test_a_stale_generated_file_is_found_and_rewritten(tmp_path: Path) -> None:
    game = tmp_path / "toygame"
    game.mkdir()
    (game / "rules.py").write_text('KERNEL_OPTIONS = {"step": "game"}\n')
    assert T.stale(game) and T.main([str(game)]) == 1
    assert T.write(game) and not T.stale(game) and T.main([str(game)]) == 0
    text = (game / T.GENERATED).read_text()
    assert text.startswith("# GENERATED") and "--write toygame" in text.splitlines()[1]
    ast.parse(text)
    (game / T.GENERATED).write_text(text.replace("errors[i] = 0", "errors[i] = 2"))
    assert T.stale(game)


def test_unknown_options_are_refused(tmp_path: Path) -> None:
    (tmp_path / "rules.py").write_text('KERNEL_OPTIONS = {"setle_reports_mask": True}\n')
    with pytest.raises(ValueError, match="setle_reports_mask"):
        T.kernel_options(tmp_path)
    (tmp_path / "rules.py").write_text('KERNEL_OPTIONS = {"step": "mine"}\n')
    with pytest.raises(ValueError, match="step"):
        T.kernel_options(tmp_path)
    (tmp_path / "rules.py").write_text('KERNEL_OPTIONS = {"legal_check": "not a name"}\n')
    with pytest.raises(ValueError, match="legal_check"):
        T.kernel_options(tmp_path)


def test_a_legal_check_replaces_the_whole_mask_in_the_step(tmp_path: Path) -> None:
    """``legal_check`` names the rules function the step asks about its one action; without it, the step computes
    the whole mask (tests/games/heartbreak/test_heartbreak_step_check.py checks heartbreak's against its mask)."""
    (tmp_path / "rules.py").write_text('KERNEL_OPTIONS = {"legal_check": "action_legal"}\n')
    text = T.render(tmp_path)
    assert "if not action_legal(row, tables, p, a, mask):" in text
    assert "mask_row(row, tables, p, mask) == 0" not in text
    assert "from .rules import action_legal, apply_action, mask_row, reset_row, settle" in text
    (tmp_path / "rules.py").write_text("KERNEL_OPTIONS = {}\n")
    assert "if mask_row(row, tables, p, mask) == 0 or mask[a] == 0:" in T.render(tmp_path)
