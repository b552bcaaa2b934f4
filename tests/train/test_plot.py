"""train.plot: the learning curve of a deck-general run (eval.csv with per-seat and unseen-pair columns)."""
from __future__ import annotations

from pathlib import Path

from cardenvs.train.plot import plot_curve

HEADER = ("step,wall_s,unseen_win_random,unseen_lo_random,unseen_hi_random,win_random,lo_random,hi_random,"
          "score_random,win_random_seat0,win_random_seat1,eval_s")


def test_curve_of_a_deck_general_run_skips_the_per_seat_columns(tmp_path: Path) -> None:
    rows = ["64,0.1,0.3,0.25,0.38,0.35,0.29,0.42,0.35,0.5,0.2,4.3",
            "500032,2052.3,0.97,0.94,0.99,0.99,0.96,1.0,0.99,0.99,0.99,29.8"]
    (tmp_path / "eval.csv").write_text("\n".join([HEADER, *rows]) + "\n")
    out = plot_curve(tmp_path, tmp_path / "curve.png", minutes=True)
    assert out.stat().st_size > 1000 and out.read_bytes()[:4] == b"\x89PNG"
