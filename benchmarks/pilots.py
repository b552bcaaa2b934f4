"""Evaluation speed by pilot: ``python -m cardenvs.benchmarks.pilots [GAME ...] [--pilots random heuristic ppo]
[--games N] [--repeats R] [--json PATH] [--plot PNG]``.

Each measurement is what ``cardenvs eval GAME --agents PILOT --no-cards`` does: a round robin of the game's starter
decks, both seatings, the same pilot on both sides, ``--games`` games per pairing (``run_tournament``), timed by the
tournament's own clock (kernels compiled and the policy loaded before it starts). ``ppo`` is the shipped policy and
is skipped, with the reason, for a game that ships none; ``ppo:PATH`` measures any policy file. The repeats go round
the pilots in turn (random, heuristic, ppo, then again), so a change in the machine's load hits every pilot alike;
the figure is the median games/s, with every repeat and the load average in the JSON. The mean game length in turns
(the game's own turn counter) is reported beside it: a pilot that plays longer games is slower per game for that.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any, Sequence

from .common import machine_info, versions

DEFAULT_PILOTS = ("random", "heuristic", "ppo")


def _pilot_available(game: str, pilot: str) -> str | None:
    """None when ``pilot`` can play ``game`` here, else why not (no shipped policy, a stale one, a missing file)."""
    from cardenvs.agents import make_agent
    from cardenvs.core.errors import CardenvsError

    try:
        make_agent(game, pilot, seed=0)
    except CardenvsError as exc:
        return str(exc).splitlines()[0]
    return None


def measure_pilot(game: str, pilot: str, games: int, seed: int = 0) -> dict[str, Any]:
    """One timed round robin of ``game``'s starter decks with ``pilot`` on both sides."""
    from cardenvs.eval.tournament import run_tournament

    result = run_tournament(game, pilots=(pilot,), games=games, seed=seed)
    return {"games": result.games, "seconds": result.elapsed,
            "games_per_second": result.games / max(result.elapsed, 1e-9),
            "turns_per_game": float(result.tally.turns.mean()) if result.games else 0.0,
            "load_1m": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}


def run(games_list: Sequence[str], pilots: Sequence[str], games: int, repeats: int,
        log: Any = print) -> dict[str, Any]:
    """Measure every (game, pilot) ``repeats`` times, the pilots interleaved; returns the JSON report."""
    from cardenvs.eval.tournament import run_tournament

    rows: list[dict[str, Any]] = []
    for game in games_list:
        skipped = {p: _pilot_available(game, p) for p in pilots}
        ready = [p for p in pilots if skipped[p] is None]
        for pilot in ready:
            run_tournament(game, pilots=(pilot,), games=2, seed=1)  # compile and load off the clock
        runs: dict[str, list[dict]] = {p: [] for p in ready}
        for _ in range(repeats):
            for pilot in ready:
                runs[pilot].append(measure_pilot(game, pilot, games))
        for pilot in pilots:  # rows in the order the pilots were named
            if skipped[pilot] is not None:
                rows.append({"game": game, "pilot": pilot, "skipped": skipped[pilot]})
                log(f"{game:12s} {pilot:10s} skipped: {skipped[pilot]}")
                continue
            rates = [r["games_per_second"] for r in runs[pilot]]
            row = {"game": game, "pilot": pilot, "games_per_second": statistics.median(rates),
                   "runs": [round(x, 1) for x in rates], "games": runs[pilot][0]["games"],
                   "turns_per_game": round(runs[pilot][0]["turns_per_game"], 1),
                   "load_1m": [r["load_1m"] for r in runs[pilot]]}
            rows.append(row)
            log(f"{game:12s} {pilot:10s} {row['games_per_second']:9,.0f} games/s  (runs {row['runs']}, "
                f"{row['games']:,} games, {row['turns_per_game']:.1f} turns a game)")
    return {"benchmark": "pilots", "games_per_pairing": games, "repeats": repeats, "rows": rows,
            "machine": machine_info(), "versions": versions()}


def table(report: dict[str, Any]) -> str:
    """The results as a Markdown table: one row per game, one column per pilot (median games/s)."""
    pilots = list(dict.fromkeys(r["pilot"] for r in report["rows"]))
    games = list(dict.fromkeys(r["game"] for r in report["rows"]))
    cell = {(r["game"], r["pilot"]): (f"{r['games_per_second']:,.0f}" if "games_per_second" in r else "-")
            for r in report["rows"]}
    lines = ["| game | " + " | ".join(pilots) + " |", "|---|" + "---:|" * len(pilots)]
    lines += [f"| {g} | " + " | ".join(cell.get((g, p), "-") for p in pilots) + " |" for g in games]
    return "\n".join(lines)


def plot(report: dict[str, Any], path: Path) -> Path:
    """Grouped bars of games/s per game and pilot (log scale: the pilots differ by 10x and more)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    rows = [r for r in report["rows"] if "games_per_second" in r]
    games = list(dict.fromkeys(r["game"] for r in report["rows"]))
    pilots = list(dict.fromkeys(r["pilot"] for r in report["rows"]))
    width = 0.8 / max(len(pilots), 1)
    fig, ax = plt.subplots(figsize=(8, 4))
    for k, pilot in enumerate(pilots):
        ys = [next((r["games_per_second"] for r in rows if r["game"] == g and r["pilot"] == pilot), np.nan)
              for g in games]
        bars = ax.bar(np.arange(len(games)) + k * width, ys, width, label=pilot)
        ax.bar_label(bars, labels=["" if np.isnan(y) else f"{y:,.0f}" for y in ys], fontsize=7, rotation=90,
                     padding=2)
        for j, y in enumerate(ys):  # a skipped pilot (no shipped policy) is named, not left as a silent gap
            if np.isnan(y) and any(r["game"] == games[j] and r["pilot"] == pilot for r in report["rows"]):
                ax.text(j + k * width, 0.02, "none", rotation=90, ha="center", va="bottom", fontsize=8,
                        transform=ax.get_xaxis_transform())
    ax.set_xticks(np.arange(len(games)) + width * (len(pilots) - 1) / 2, games)
    ax.set_yscale("log")
    measured = [r["games_per_second"] for r in rows if r["games_per_second"] > 0]
    if measured:  # bars rise from well below the slowest, which autoscale would put at the axis' foot
        ax.set_ylim(min(measured) / 4, max(measured) * 2.5)
    ax.set_ylabel("games/s (starter-deck round robin)")
    ax.set_title("Evaluation speed by pilot")
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    import cardenvs
    from cardenvs.core.errors import BadArgumentError

    ap = argparse.ArgumentParser(prog="python -m cardenvs.benchmarks.pilots", description=__doc__.split("\n\n")[0])
    ap.add_argument("games_list", nargs="*", metavar="GAME", help="games to measure (default: all five)")
    ap.add_argument("--pilots", nargs="+", default=list(DEFAULT_PILOTS),
                    help="pilots: random, heuristic, ppo (the shipped policy), ppo:PATH (default: %(default)s)")
    ap.add_argument("--games", type=int, default=2000, help="games per pairing, even (default: %(default)s)")
    ap.add_argument("--repeats", type=int, default=3, help="timed round robins per pilot (default: %(default)s)")
    ap.add_argument("--json", type=Path, default=None, help="write the report here")
    ap.add_argument("--plot", type=Path, default=None, help="write a bar chart (PNG) here")
    args = ap.parse_args(argv)
    # the registry's own check and spelling (case, a ``_v<N>`` suffix), as every other command takes a game name
    args.games_list = [cardenvs.get_game(g).name for g in args.games_list]
    if args.games < 2 or args.games % 2:
        raise BadArgumentError(f"--games must be an even number of at least 2, got {args.games}")
    if args.repeats < 1:
        raise BadArgumentError(f"--repeats must be at least 1, got {args.repeats}")
    args.games_list = args.games_list or list(cardenvs.available_games())
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    report = run(args.games_list, args.pilots, args.games, args.repeats)
    print()
    print(table(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1))
    if args.plot:
        plot(report, args.plot)
    return report


def _cli(argv: Sequence[str] | None = None) -> int:
    from cardenvs.core.errors import run_cli

    return run_cli(main, argv, "python -m cardenvs.benchmarks.pilots")


__all__ = ["DEFAULT_PILOTS", "main", "measure_pilot", "parse_args", "plot", "run", "table"]


if __name__ == "__main__":
    sys.exit(_cli())
