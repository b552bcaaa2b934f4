"""``--backend ray`` on a local 2-worker Ray gives the very same counts as the local backend."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.eval import make_backend, run_tournament


def test_ray_backend_matches_local(spec) -> None:
    pytest.importorskip("ray", reason="ray is not installed (pip install 'cardenvs[ray]'); CI installs it")
    decks = ["aggro", "burst", "weak"]
    local = run_tournament(spec, decks, games=40, seed=8, chunk_size=25)
    remote = run_tournament(spec, decks, games=40, seed=8, chunk_size=25, backend=make_backend("ray", workers=2))
    assert remote.backend == "ray" and remote.games == local.games == 120
    for f in ("results", "first", "cards", "game_ids", "outcomes", "turns"):
        assert np.array_equal(getattr(local.tally, f), getattr(remote.tally, f)), f


def test_missing_ray_is_one_clear_line(monkeypatch, capsys, spec) -> None:
    import builtins

    from cardenvs.cli import main

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    code = main(["eval", "levelneo", "--games", "4", "--backend", "ray"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "pip install" in err
