"""Per-card statistics in the style of 17lands, from the counters the kernels keep in every state row.

For every card of the evaluated decks, over the games of the decks that contain it (one count per game and seat,
however many copies):

* ``gp``   games played with the card in the deck, and the win rate then (GP WR);
* ``gih``  games in which a copy was drawn (opening hand included) (GIH WR);
* ``gns``  games in which no copy was ever drawn (GNS WR);
* ``played`` games in which a copy was played from hand;
* ``iwd``  improvement when drawn, GIH WR - GNS WR, with Newcombe's interval (the two sets of games are disjoint);
* ``iih``  in-hand improvement over games played, GIH WR - GP WR. Since GP WR = f GIH WR + (1 - f) GNS WR with
  f the fraction of games drawn, this is ``(1 - f) * iwd`` and its interval is the IWD interval scaled by 1 - f.

Win rates count draws and truncated games as half a win and carry 95% Wilson intervals.

:func:`rarely_played` lists, per pilot, the cards it drew often but almost never played: for those cards GIH and IWD
measure holding the card (a dead draw), not what the card does, so a designer should not read them as its strength.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from . import stats
from .tournament import CARD_CATEGORIES, TournamentResult


def card_table(cards: np.ndarray, card_names: Sequence[str], deck_labels: Sequence[str] | None = None,
               min_games: int = 1) -> list[dict]:
    """Rows of per-card statistics from ``cards[E, n_cards, 8]`` counters, summed over the entries given.

    ``deck_labels`` (one per entry) lists which decks contain each card. Cards in no evaluated deck are left out.
    Sorted by improvement when drawn, best first (ties by name, so the order is deterministic).
    """
    total = np.asarray(cards, dtype=np.int64).sum(axis=0)  # [n_cards, 8]
    rows = []
    for cid in np.flatnonzero(total[:, 0] >= min_games):
        row: dict = {"card": card_names[cid], "card_id": int(cid)}
        if deck_labels is not None:
            row["decks"] = [deck_labels[e] for e in np.flatnonzero(cards[:, cid, 0] > 0)]
        for c, cat in enumerate(CARD_CATEGORIES):
            n, pts2 = int(total[cid, 2 * c]), int(total[cid, 2 * c + 1])
            rate, lo, hi = stats.wilson(pts2 / 2.0, n)
            row[f"{cat}_games"] = n
            row[f"{cat}_wr"] = rate
            row[f"{cat}_ci"] = [lo, hi]
        gih_n, gih_s = total[cid, 2], total[cid, 3] / 2.0
        gns_n, gns_s = total[cid, 4], total[cid, 5] / 2.0
        iwd, lo, hi = stats.newcombe_diff(gih_s, gih_n, gns_s, gns_n)
        row["iwd"], row["iwd_ci"] = iwd, [lo, hi]
        frac_drawn = gih_n / total[cid, 0]
        row["drawn_rate"] = float(frac_drawn)
        row["played_rate"] = float(total[cid, 6] / total[cid, 0])
        scale = 1.0 - frac_drawn
        row["iih"], row["iih_ci"] = iwd * scale, [lo * scale, hi * scale]
        rows.append(row)
    rows.sort(key=lambda r: (-_nan_low(r["iwd"]), r["card"]))
    return rows


def _nan_low(x: float) -> float:
    return -1e9 if x != x else x


def card_stats(result: TournamentResult, by_deck: bool = False) -> list[dict] | dict[str, list[dict]]:
    """Per-card statistics of a tournament, over all decks, or one table per entry with ``by_deck=True``."""
    cards = result.tally.cards
    if not by_deck:
        return card_table(cards, result.card_names, result.labels)
    return {label: card_table(cards[e:e + 1], result.card_names) for e, label in enumerate(result.labels)}


RARELY_PLAYED_SHARE = 0.05  # played in at most this share of the games it was drawn in
RARELY_PLAYED_MIN_DRAWN = 20  # below this many drawn games a low count is noise, not a habit


def is_rarely_played(drawn_games: int, played_games: int, max_share: float = RARELY_PLAYED_SHARE,
                     min_drawn: int = RARELY_PLAYED_MIN_DRAWN) -> bool:
    """The rule, in one place: drawn in at least ``min_drawn`` games (at least 1) and played in at most ``max_share``
    of them."""
    return drawn_games >= max(int(min_drawn), 1) and played_games <= max_share * drawn_games


def rarely_played(result: TournamentResult, max_share: float = RARELY_PLAYED_SHARE,
                  min_drawn: int = RARELY_PLAYED_MIN_DRAWN) -> list[dict]:
    """Cards that a pilot drew in at least ``min_drawn`` games but played in at most ``max_share`` of them, per pilot
    (summed over the decks it piloted): ``{"pilot", "card", "card_id", "drawn_games", "played_games"}``, by pilot,
    then least played first.

    Why per pilot: a card the heuristic never plays may be played by the trained policy; summed over pilots the habit
    of one would hide behind the other.
    """
    cards = np.asarray(result.tally.cards, dtype=np.int64)
    out = []
    for pilot in sorted({e.pilot for e in result.entries}):
        rows = [k for k, e in enumerate(result.entries) if e.pilot == pilot]
        total = cards[rows].sum(axis=0)
        for cid in range(total.shape[0]):
            drawn, played = int(total[cid, 2]), int(total[cid, 6])
            if is_rarely_played(drawn, played, max_share, min_drawn):
                out.append({"pilot": pilot, "card": result.card_names[cid], "card_id": int(cid),
                            "drawn_games": drawn, "played_games": played})
    out.sort(key=lambda r: (r["pilot"], r["played_games"] / r["drawn_games"], r["card"]))
    return out


__all__ = [
    "card_stats", "card_table", "is_rarely_played", "rarely_played", "RARELY_PLAYED_MIN_DRAWN", "RARELY_PLAYED_SHARE"
]
