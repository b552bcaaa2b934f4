"""Batched head-to-head matches on the batch core: ``play_match(game, agent_a, agent_b, games=2000)``.

Used by the training callbacks (win rate of the learner against random and heuristic opponents every K steps) and
by the acceptance figures. Games are seat-swapped with common random numbers: game ``k`` and game ``k + n/2`` have
the same seed, with A in seat 0 in the first and in seat 1 in the second, so the deck pairing, the shuffles and the
first player are balanced between the agents. Why not ``cardenvs.eval``: its tournaments pit decks x pilot *names*
against each other; training needs two agent objects (the live model included) on one deck pair. Both drive their
games with the same loop, ``BatchGame.play_out``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardenvs.core.batch import BatchGame, get_spec
from cardenvs.core.header import LIVE, TERMINATED
from cardenvs.eval import stats

MAX_DECISIONS = 1_000_000  # guard: the kernels truncate long games far earlier


def wilson(successes: float, n: float, z: float = stats.Z95) -> tuple[float, float]:
    """95% Wilson score interval ``(lo, hi)`` of a proportion: :func:`cardenvs.eval.stats.wilson`, the one copy."""
    _, lo, hi = stats.wilson(successes, n, z)
    return float(lo), float(hi)


@dataclass
class MatchResult:
    """Counts from A's side. ``truncated`` games (turn cap) are also counted in ``draws``."""

    wins: int
    draws: int
    losses: int
    truncated: int = 0
    by_seat: dict = field(default_factory=dict)  # A's seat -> (wins, draws, losses)
    decisions: int = 0  # agent decisions played in all games (both seats)

    @classmethod
    def empty(cls) -> "MatchResult":
        """No games yet: the start of a sum with :func:`add_result`."""
        return cls(0, 0, 0, 0, {0: (0, 0, 0), 1: (0, 0, 0)}, 0)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        return self.wins / max(self.games, 1)

    @property
    def score(self) -> float:
        """Wins plus half the draws, per game."""
        return (self.wins + 0.5 * self.draws) / max(self.games, 1)

    @property
    def ci(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson(self.wins, self.games)

    def summary(self) -> str:
        lo, hi = self.ci
        return (f"{self.games} games: {self.wins} W / {self.draws} D / {self.losses} L, win rate "
                f"{self.win_rate:.3f} (95% CI {lo:.3f}-{hi:.3f}), score {self.score:.3f}")

    def to_dict(self) -> dict:
        lo, hi = self.ci
        return {"games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "truncated": self.truncated, "win_rate": self.win_rate, "ci95": [lo, hi], "score": self.score,
                "by_seat": {str(k): list(v) for k, v in self.by_seat.items()}}


def _resolve_agent(spec: Any, agent: Any, seed: int) -> Any:
    if hasattr(agent, "act"):
        return agent
    from cardenvs.agents import make_agent

    return make_agent(spec.name, agent, seed=seed)


def play_match(game: Any, agent_a: Any, agent_b: Any, games: int = 2000, seed: int = 0, decks: Any = None,
               batch_size: int = 1000, progress: Any = None, first: int = 0) -> MatchResult:
    """Play ``games`` seat-swapped games of ``agent_a`` against ``agent_b`` (agent objects or names such as
    "random", "heuristic", "ppo:path.zip") and count the results from A's side.

    ``games`` is rounded up to an even number; ``decks`` is a pair (seat 0's deck, seat 1's deck) or None for the
    game's default pair (so with seat swapping each agent pilots each deck in half of the games). ``progress``, when
    given, is called with the number of games that just finished (a progress bar's ``advance``). ``first``: the index
    of the first seat-swapped pair, so that rounds of one match (:func:`play_timed`) play the games a single call of
    the summed size would.
    """
    spec = get_spec(game)
    a = _resolve_agent(spec, agent_a, seed * 2 + 1)
    b = _resolve_agent(spec, agent_b, seed * 2 + 2)
    half = (int(games) + 1) // 2
    ks = np.arange(int(first), int(first) + half)
    seeds = np.concatenate([ks, ks]).astype(np.int64) + int(seed) * 1_000_003
    a_seat = np.concatenate([np.zeros(half, np.int32), np.ones(half, np.int32)])
    wins = draws = losses = truncated = decisions = 0
    by_seat = {0: [0, 0, 0], 1: [0, 0, 0]}
    pool = spec.load_pool(None)
    for start in range(0, 2 * half, batch_size):
        sl = slice(start, min(start + batch_size, 2 * half))
        batch = BatchGame(spec, sl.stop - sl.start, decks=decks, seed=seeds[sl], pool=pool, fused=True)
        seat_a = a_seat[sl]
        decisions += _play_to_end(batch, a, b, seat_a, progress)
        status = batch.status
        winner = batch.winner
        for s in (0, 1):
            rows = seat_a == s
            w = int(np.count_nonzero(rows & (status == TERMINATED) & (winner == s)))
            l_ = int(np.count_nonzero(rows & (status == TERMINATED) & (winner == 1 - s)))
            d = int(np.count_nonzero(rows)) - w - l_
            by_seat[s][0] += w
            by_seat[s][1] += d
            by_seat[s][2] += l_
            wins, draws, losses = wins + w, draws + d, losses + l_
        truncated += int(np.count_nonzero(status != TERMINATED))
    return MatchResult(wins, draws, losses, truncated, {k: tuple(v) for k, v in by_seat.items()}, decisions)


def _play_to_end(batch: BatchGame, a: Any, b: Any, seat_a: np.ndarray, progress: Any = None) -> int:
    """One batched decision per loop for every live game (``BatchGame.play_out``, the tournaments' loop too);
    returns the number of decisions played. ``progress(n)`` hears of every ``n`` games that finished."""
    actions = np.zeros(batch.num_games, dtype=np.int32)
    finished = [0]

    def report() -> None:
        done = int(np.count_nonzero(batch.status != LIVE))
        if done > finished[0]:
            progress(done - finished[0])
            finished[0] = done

    def decide(who: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        actions[:] = 0
        live = who >= 0
        for agent, is_a in ((a, True), (b, False)):
            rows = np.flatnonzero(live & ((who == seat_a) == is_a))
            if rows.size and hasattr(agent, "act_rows"):  # the numpy policy reads the rows in place
                actions[rows] = agent.act_rows(obs, mask, rows, who[rows])
            elif rows.size:
                actions[rows] = agent.act(obs[rows], mask[rows], batch.states[rows], who[rows])
        return actions

    return batch.play_out(decide, max_steps=MAX_DECISIONS, on_step=None if progress is None else report)


def unseen_pairings(game: Any, pairs: int = 20, train_seed: int = 0, deck_bank: int = 256) -> list:
    """``pairs`` random legal deck pairs that a deck-general run with ``train_seed`` (and ``deck_bank`` random decks)
    never used: the unseen pairs of the strength bars."""
    from .decks import deck_bank as make_bank, holdout_pairs

    bank = make_bank(game, deck_bank, train_seed) if deck_bank > 0 else []
    return holdout_pairs(game, pairs, train_seed, exclude=bank)


def starter_pairings(game: Any) -> list[tuple[str, str]]:
    """Every ordered pair of the game's starter decks, mirrors included."""
    names = get_spec(game).starter_decks()
    return [(d0, d1) for d0 in names for d1 in names]


def play_unseen(game: Any, agent_a: Any, agent_b: Any, games: int = 2000, pairs: int = 20, seed: int = 0,
                train_seed: int = 0, deck_bank: int = 256, per_pairing: dict | None = None,
                progress: Any = None) -> MatchResult:
    """``games`` seat-swapped games spread evenly over ``pairs`` random legal deck pairs that a deck-general run with
    ``train_seed`` (and ``deck_bank`` random decks) never used; counts summed over the pairs. ``per_pairing``, when
    given, receives ``"unseen pair K" -> MatchResult`` for each pair: whether the losses gather in a few pairs."""
    held = unseen_pairings(game, pairs, train_seed, deck_bank)
    per = max(2, int(games) // max(len(held), 1))
    total = MatchResult.empty()
    for k, pair in enumerate(held):
        r = play_match(game, agent_a, agent_b, games=per, seed=seed * 1000 + k, decks=pair, progress=progress)
        if per_pairing is not None:
            per_pairing[f"unseen pair {k}"] = r
        add_result(total, r)
    return total


def add_result(total: MatchResult, r: MatchResult) -> None:
    """Add ``r``'s counts (results, seats, decisions) into ``total``: sums over pairings or runs."""
    total.wins += r.wins
    total.draws += r.draws
    total.losses += r.losses
    total.truncated += r.truncated
    total.decisions += r.decisions
    total.by_seat = {s: tuple(a + b for a, b in zip(total.by_seat[s], r.by_seat[s])) for s in (0, 1)}


def play_timed(game: Any, agent_a: Any, agent_b: Any, games: int, seconds: float, seed: int = 0,
               pairs: list | None = None, progress: Any = None) -> tuple[MatchResult, int]:
    """Up to ``games`` seat-swapped games (spread evenly over the deck ``pairs``; None: the game's default pair) that
    stop when ``seconds`` of wall time are used: rounds of seat-swapped pairs on every deck pair in turn, each round
    sized by the games per second measured so far so that the next one fits. Returns the counts and how many deck
    pairs were reached. Always plays at least one seat-swapped pair. Pair ``k`` plays its games with seed ``seed + k``
    and the game indices a single :func:`play_match` of the same size would (``first``), so the games played are a
    prefix of the untimed evaluation's.

    Why: a training run under ``--max-minutes`` must end within its budget, evaluations included, so each
    evaluation gets a time slice instead of a game count (train/budget.py)."""
    import time

    end = time.perf_counter() + float(seconds)
    pairs = list(pairs) if pairs else [None]
    cap = max(1, (int(games) // len(pairs) + 1) // 2)  # seat-swapped pairs per deck pair
    total = MatchResult.empty()
    played, per_game, reached = 0, None, 0  # pairs of games played on every deck pair so far; seconds a game
    size = 1
    while played < cap:
        for k, pair in enumerate(pairs):
            left = end - time.perf_counter()
            if total.games and (left <= 0 or (per_game is not None and per_game * 2 * size > left)):
                return total, reached
            t = time.perf_counter()
            r = play_match(game, agent_a, agent_b, games=2 * size, seed=seed + k, decks=pair, progress=progress,
                           first=played)
            spent = time.perf_counter() - t
            per_game = spent / r.games if per_game is None else 0.5 * per_game + 0.5 * spent / r.games
            add_result(total, r)
            reached = max(reached, k + 1)
        played += size
        left = end - time.perf_counter()
        # the next round: what the time left holds at the measured rate (half of it, as rates vary), at most 4x
        fit = int(0.5 * left / max(per_game * 2 * len(pairs), 1e-9))
        size = max(1, min(cap - played, 4 * size, fit))
    return total, reached


def play_starters(game: Any, agent_a: Any, agent_b: Any, games: int = 2000, seed: int = 0,
                  per_pairing: dict | None = None, progress: Any = None) -> MatchResult:
    """``games`` seat-swapped games spread evenly over every ordered pair of the game's starter decks, mirrors
    included (n x n pairings for n starter decks); counts summed over the pairings.

    Why: one default pair measures one matchup, and a lopsided one (divinecross's blaze against tide is ~10/90
    between equal pilots) mostly measures the decks. Over all ordered pairs each agent pilots every starter deck
    against every other from both seats, so ``by_seat`` is the seat's effect alone and the score is the pilot's.
    ``per_pairing`` (a dict), when given, receives ``"deck0 vs deck1" -> MatchResult`` for each pairing.
    """
    pairings = starter_pairings(game)
    per = max(2, int(games) // len(pairings))
    total = MatchResult.empty()
    for k, pair in enumerate(pairings):
        r = play_match(game, agent_a, agent_b, games=per, seed=seed * 1000 + k, decks=pair, progress=progress)
        if per_pairing is not None:
            per_pairing[f"{pair[0]} vs {pair[1]}"] = r
        add_result(total, r)
    return total


def main(argv: Any = None) -> MatchResult:
    """``python -m cardenvs.train.evaluate GAME AGENT_A AGENT_B [--games 2000] [--seed 0] [--decks a b] [--json out.json]``"""
    import argparse
    import json
    import time

    import numba

    ap = argparse.ArgumentParser(prog="python -m cardenvs.train.evaluate", description="seat-swapped head-to-head match")
    ap.add_argument("game")
    ap.add_argument("a", help="random | heuristic | ppo:PATH")
    ap.add_argument("b", help="random | heuristic | ppo:PATH")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--decks", nargs=2, help="seat 0's and seat 1's deck (default: the game's default pair)")
    ap.add_argument("--unseen-pairs", type=int, default=0, dest="unseen_pairs", metavar="N",
                    help="instead of one deck pair: the games spread over N random legal deck pairs that a deck-general "
                         "run with --train-seed never trained on (train/decks.py holdout_pairs)")
    ap.add_argument("--all-starters", action="store_true", dest="all_starters",
                    help="instead of one deck pair: the games spread over every ordered pair of starter decks, mirrors "
                         "included, so each agent pilots every starter deck from both seats")
    ap.add_argument("--train-seed", type=int, default=0, dest="train_seed",
                    help="the training run's seed (its deck bank is excluded from the unseen pairs; default 0)")
    ap.add_argument("--deck-bank", type=int, default=256, dest="deck_bank", help="the training run's deck_bank")
    ap.add_argument("--json", help="write the counts and interval to this file")
    ap.add_argument("--no-progress", action="store_true", dest="no_progress",
                    help="no progress bar (it goes to stderr; the results go to stdout)")
    ap.add_argument("--trust-pickle", action="store_true", dest="trust_pickle",
                    help="load ppo:FILE.zip agents although SB3 unpickles them (a crafted .zip runs code)")
    args = ap.parse_args(argv)
    from cardenvs.agents.policy import trust_pilots

    trust_pilots([args.a, args.b], args.trust_pickle)
    numba.set_num_threads(1)  # tiny kernels per call: one thread is fastest on small machines
    t = time.perf_counter()
    pairings: dict = {}
    if args.unseen_pairs > 0 and args.all_starters:
        ap.error("--unseen-pairs and --all-starters pick the decks in two different ways: give one of them")
    from rich.console import Console

    from cardenvs.eval.report import RichProgress

    # long work shows progress (issue 42): a bar of games on stderr, so stdout holds the results alone
    with RichProgress(f"{args.game}: {args.a} vs {args.b}", console=Console(stderr=True),
                      disable=args.no_progress) as bar:
        if args.all_starters:
            n_pairings = len(starter_pairings(args.game))
            bar.set_total((max(2, args.games // n_pairings) + 1) // 2 * 2 * n_pairings)
            res = play_starters(args.game, args.a, args.b, games=args.games, seed=args.seed, per_pairing=pairings,
                                progress=bar.advance)
        elif args.unseen_pairs > 0:
            bar.set_total((max(2, args.games // args.unseen_pairs) + 1) // 2 * 2 * args.unseen_pairs)
            res = play_unseen(args.game, args.a, args.b, games=args.games, pairs=args.unseen_pairs, seed=args.seed,
                              train_seed=args.train_seed, deck_bank=args.deck_bank, per_pairing=pairings,
                              progress=bar.advance)
        else:
            bar.set_total((args.games + 1) // 2 * 2)
            res = play_match(args.game, args.a, args.b, games=args.games, seed=args.seed,
                             decks=tuple(args.decks) if args.decks else None, progress=bar.advance)
    wall = time.perf_counter() - t
    print(f"{args.game}: {args.a} vs {args.b}: {res.summary()}  [{wall:.1f}s]")
    for seat, (w, d, l_) in sorted(res.by_seat.items()):
        print(f"  {args.a} in seat {seat}: {w} W / {d} D / {l_} L")
    for name, r in pairings.items():
        print(f"  {name} (seat 0's deck vs seat 1's): {args.a} {r.win_rate:.3f} of {r.games}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(match_json(args.game, args.a, args.b, args.seed, res, pairings), f, indent=1)
    return res


def match_json(game: str, a: str, b: str, seed: int, result: MatchResult, pairings: dict | None = None) -> dict:
    """A match as the bar-check JSON files hold it: who played, the counts and interval, and each pairing's."""
    out = {"game": game, "a": a, "b": b, "seed": seed, **result.to_dict()}
    if pairings:
        out["pairings"] = {name: r.to_dict() for name, r in pairings.items()}
    return out


__all__ = ["MatchResult", "match_json", "play_match", "play_starters", "play_timed", "play_unseen", "wilson", "main"]


if __name__ == "__main__":
    main()
