"""Deck evaluation by self-play: tournaments on the batch core, ratings, sequential tests, card statistics, reports.

    from cardenvs.eval import run_tournament, summarize, write_report
    result = run_tournament("levelneo", games=1000, seed=0)      # starter decks, random pilots
    summary = summarize(result)                                    # JSON-ready numbers
    summary["ratings"]["rows"][0]                                  # the strongest deck, its Elo and interval
    write_report(summary, "out/")                                  # report.html + PNGs + JSON + CSV

The command line ``cardenvs eval`` is a thin shell over these functions.
"""
from __future__ import annotations

from .cards_stats import card_stats, card_table
from .report import (
    plot_cards, plot_heatmap, plot_ratings, render_summary, summarize, write_csv, write_json, write_report,
)
from .stats import Ratings, bradley_terry, gsprt_llr, newcombe_diff, rate, wilson
from .tournament import (
    Chunk, Entry, LocalBackend, SprtResult, Tally, TournamentResult, make_backend, make_entries, plan_round, play_chunk,
    run_sprt, run_tournament,
)

__all__ = [
    "Chunk", "Entry", "LocalBackend", "Ratings", "SprtResult", "Tally", "TournamentResult", "bradley_terry", "card_stats",
    "card_table", "gsprt_llr", "make_backend", "make_entries", "newcombe_diff", "plan_round", "play_chunk", "plot_cards",
    "plot_heatmap", "plot_ratings", "render_summary", "rate", "run_sprt", "run_tournament", "summarize", "wilson",
    "write_csv", "write_json", "write_report",
]
