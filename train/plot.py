"""Learning curve of a run: ``python -m cardenvs.train.plot runs/<run> [--out curve.png] [--minutes]``.

Reads ``<run>/eval.csv`` (written by :mod:`train.ppo` at every evaluation) and plots the win rate against each
evaluation opponent with its 95% Wilson band, over learner steps (or over wall-clock minutes).
"""
from __future__ import annotations

import argparse
import csv
from pathlib import Path
from typing import Sequence


def read_eval(run: str | Path) -> list[dict]:
    with open(Path(run) / "eval.csv") as f:
        return [{k: float(v) for k, v in r.items() if v != ""} for r in csv.DictReader(f)]


def plot_curve(run: str | Path, out: str | Path, minutes: bool = False, title: str | None = None) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_eval(run)
    # win_<opp> has a band (lo_/hi_); the per-seat columns win_<opp>_seat0/1 do not and are not plotted
    opponents = [k[4:] for k in rows[0] if k.startswith("win_") and f"lo_{k[4:]}" in rows[0]]
    x = [r["wall_s"] / 60 if minutes else r["step"] / 1e6 for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    for opp in opponents:
        y = [r[f"win_{opp}"] for r in rows]
        line, = ax.plot(x, y, marker="o", ms=3, label=f"vs {opp}, starter pair")
        ax.fill_between(x, [r[f"lo_{opp}"] for r in rows], [r[f"hi_{opp}"] for r in rows], alpha=0.2,
                        color=line.get_color())
        if all(f"unseen_win_{opp}" in r for r in rows):  # deck-general runs: the held-out random deck pairs too
            ax.plot(x, [r[f"unseen_win_{opp}"] for r in rows], marker="s", ms=3, ls="--", color=line.get_color(),
                    label=f"vs {opp}, unseen deck pairs")
    ax.axhline(0.5, color="grey", lw=0.8, ls=":")
    ax.set_ylim(0, 1)
    ax.set_xlabel("wall-clock minutes" if minutes else "learner steps (millions)")
    ax.set_ylabel("win rate (95% Wilson band)")
    ax.set_title(title or f"{Path(run).name}: win rate of the greedy policy")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m cardenvs.train.plot", description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="a run folder with eval.csv")
    ap.add_argument("--out", help="PNG path (default <run>/curve.png)")
    ap.add_argument("--minutes", action="store_true", help="x axis in wall-clock minutes instead of steps")
    ap.add_argument("--title")
    args = ap.parse_args(argv)
    path = plot_curve(args.run, args.out or Path(args.run) / "curve.png", args.minutes, args.title)
    print(path)


__all__ = ["main", "plot_curve", "read_eval"]


if __name__ == "__main__":
    main()
