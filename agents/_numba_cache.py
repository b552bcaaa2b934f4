"""Keep a rule-based agent's Numba cache in step with the game code it inlines.

Numba's on-disk cache is keyed by the source file of the cached function only: when a heuristic inlines a game's
kernels (``apply_action``, ``compute_ap`` ...) and the game's files change, the cached heuristic would still run the
old game code. Before its kernels are compiled, a heuristic module calls :func:`drop_stale_cache`, which deletes
that module's own cache files when any source file of the game is newer than them.
"""
from __future__ import annotations

from pathlib import Path


def drop_stale_cache(module_file: str, game_dirs: list[Path]) -> bool:
    """Delete ``module_file``'s Numba cache files (``__pycache__/<stem>.*.nbi|nbc``) if a ``*.py`` file under
    ``game_dirs`` is newer than the oldest of them; returns True when something was deleted."""
    mod = Path(module_file)
    cache_dir = mod.parent / "__pycache__"
    files = [f for pat in (f"{mod.stem}.*.nbi", f"{mod.stem}.*.nbc") for f in cache_dir.glob(pat)]
    if not files:
        return False
    oldest = min(f.stat().st_mtime for f in files)
    newest_src = max((s.stat().st_mtime for d in game_dirs for s in Path(d).glob("*.py")), default=0.0)
    if newest_src <= oldest:
        return False
    for f in files:
        try:
            f.unlink()
        except OSError:  # another process removed or is rewriting it; Numba recompiles either way
            pass
    return True
