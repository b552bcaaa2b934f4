"""A look-ahead pilot: flat Monte Carlo search over a known opponent, to measure how much a game's luck leaves to win.

At each of its decisions :class:`LookaheadAgent` tries every legal action in ``rollouts`` copies of the game, plays
each copy to the end with a rollout pilot for itself and the opponent's own policy (by default the masked random
agent) for the other side, and takes the action that won most often (the rollout pilot's own choice wins ties). It
is a one-step policy improvement of the rollout pilot against that opponent, so its win rate against random is a
lower bound on what a pilot can reach there, and a much stronger one than any trained policy: a deck-strength bar
that this searcher misses is out of reach for reasons of luck rather than of training.

``hidden="redeal"`` (the fair mode) gives each copy the game's ``hide``: what the searcher cannot see is re-dealt
(the other hand, both deck orders). Every candidate action of a decision is tried on the same ``rollouts`` copies
(common random numbers), so actions are compared on the same deals. ``hidden="known"`` plays the copies on the true
state (the searcher knows the opponent's hand and every future draw): an oracle, an upper estimate of the same kind.
In games with simultaneous plans the copies keep the part of the opponent's plan already made this phase (``hide``
does not re-deal a plan), which only the second player to plan can have seen; the script reports results per seat for
that reason.

    python -m cardenvs.train.lookahead simulfight --games 200 --rollouts 16 --pilot ppo --hidden redeal

Slow by design (``rollouts`` x legal actions x the rest of the game, per decision): an analysis tool, not a pilot.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from cardenvs.agents.base import state_inputs
from cardenvs.core.batch import BatchGame, get_spec
from cardenvs.core.errors import BadArgumentError, CardenvsError
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_WINNER, LIVE, TERMINATED

HIDDEN_MODES = ("redeal", "known")


class LookaheadAgent:
    """Flat Monte Carlo search against a known opponent model (module docstring). ``act`` needs the true states."""

    name = "lookahead"

    def __init__(self, game: str, pilot: Any = "heuristic", opponent: Any = "random", rollouts: int = 16,
                 hidden: str = "redeal", seed: int = 0, capacity: int = 8192) -> None:
        from cardenvs.agents import make_agent

        if not isinstance(rollouts, int) or rollouts < 1:
            raise BadArgumentError(f"rollouts must be a positive integer, got {rollouts!r}")
        if hidden not in HIDDEN_MODES:
            raise BadArgumentError(f"hidden must be one of {', '.join(HIDDEN_MODES)}, got {hidden!r}")
        self.spec = get_spec(game)
        self.pool = self.spec.load_pool(None)
        self.pilot = make_agent(game, pilot, seed=seed + 1) if isinstance(pilot, str) else pilot
        self.opponent = make_agent(game, opponent, seed=seed + 2) if isinstance(opponent, str) else opponent
        self.rollouts, self.hidden = rollouts, hidden
        self.rng = np.random.default_rng(seed)
        self.capacity = max(int(capacity), rollouts * self.spec.num_actions)
        self.seed = seed
        self._batches: dict[int, BatchGame] = {}  # by power-of-two size: a finished row still costs each loop
        self.searched = 0  # decisions searched (more than one legal action)
        self.changed = 0  # of which the search overruled the rollout pilot

    def _choose(self, agent: Any, obs: np.ndarray, mask: np.ndarray, states: np.ndarray, players: np.ndarray,
                rows: np.ndarray) -> np.ndarray:
        if hasattr(agent, "act_rows"):
            return agent.act_rows(obs, mask, rows, players)
        return agent.act(obs[rows], mask[rows], states[rows], players)

    def act(self, obs: np.ndarray, mask: np.ndarray, states: np.ndarray | None = None,
            players: np.ndarray | None = None) -> np.ndarray:
        if states is None or players is None:
            raise BadArgumentError("the look-ahead pilot needs the true states and players (it copies the games)")
        # shapes, dtypes and seats checked before any row is copied into the search's batches (and their kernels)
        states, _, players = state_inputs(self.spec.name, mask, states, players)
        everyone = np.arange(len(mask))
        out = np.asarray(self._choose(self.pilot, obs, mask, states, players, everyone), np.int32).copy()
        # candidate (row, action) pairs of the rows with a real choice (a finished row, player -1, has none)
        choosing = np.flatnonzero((np.count_nonzero(mask, axis=1) > 1) & (players >= 0))
        pairs = [(int(i), int(a)) for i in choosing for a in np.flatnonzero(mask[i])]
        if not pairs:
            return out
        # common random numbers: one set of copies per row, shared by all its candidate actions, so the actions are
        # compared on the same deals (the re-dealt hand, both deck orders and the row's later chance) and the
        # comparison's noise is the rollouts' alone; it also re-deals rollouts, not rollouts x actions, times
        k = self.rollouts
        copies = {int(i): self._copies(states[i], int(players[i])) for i in choosing}
        wins = np.zeros(len(pairs))
        per_chunk = self.capacity // k
        for start in range(0, len(pairs), per_chunk):
            chunk = pairs[start:start + per_chunk]
            wins[start:start + len(chunk)] = self._rollout_wins(chunk, copies, players)
        best: dict[int, tuple[float, int]] = {}
        for (i, a), w in zip(pairs, wins):
            score = w + (0.5 if a == out[i] else 0.0)  # the pilot's choice wins ties
            if i not in best or score > best[i][0]:
                best[i] = (score, a)
        for i, (_, a) in best.items():
            self.searched += 1
            self.changed += int(a != out[i])
            out[i] = a
        return out

    def _copies(self, state: np.ndarray, player: int) -> np.ndarray:
        """``rollouts`` copies of one game as ``player`` may know it: re-dealt by the game's ``hide`` (fair mode) or
        the true state (oracle mode)."""
        if self.hidden == "known":
            return np.repeat(state[None], self.rollouts, axis=0)
        return np.stack([self.spec.hide(state, player, self.rng, self.pool) for _ in range(self.rollouts)])

    def _rollout_wins(self, chunk: list[tuple[int, int]], copies: dict[int, np.ndarray],
                      players: np.ndarray) -> np.ndarray:
        """Wins of each (row, action) of ``chunk`` over the row's ``rollouts`` copies played to the end."""
        k, n = self.rollouts, len(chunk) * self.rollouts
        size = 1 << max(n - 1, 1).bit_length()
        if size not in self._batches:
            self._batches[size] = BatchGame(self.spec, size, pool=self.pool, fused=True, seed=self.seed)
        b = self._batches[size]
        me = np.full(size, -1, np.int32)
        first = np.zeros(size, np.int32)
        for j, (i, a) in enumerate(chunk):
            b.states[j * k:(j + 1) * k] = copies[i]
            me[j * k:(j + 1) * k], first[j * k:(j + 1) * k] = int(players[i]), a
        b.states[n:, H_STATUS] = TERMINATED  # unused rows: finished, nobody to act
        b.states[n:, H_TO_ACT] = -1
        b.step(first, players=me, errors="ignore")
        if np.count_nonzero(b.last_errors[:n]):
            raise RuntimeError(f"{self.spec.name}: a legal action became illegal in a re-dealt copy")
        actions = np.zeros(size, np.int32)

        def decide(who: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            actions[:] = 0
            live = who >= 0
            for agent, mine in ((self.pilot, True), (self.opponent, False)):
                rows = np.flatnonzero(live & ((who == me) == mine))
                if rows.size:
                    actions[rows] = self._choose(agent, obs, mask, b.states, who[rows], rows)
            return actions

        if np.count_nonzero(b.states[:n, H_STATUS] == LIVE):
            b.play_out(decide)
        won = (b.states[:n, H_STATUS] == TERMINATED) & (b.states[:n, H_WINNER] == me[:n])
        return won.reshape(len(chunk), k).sum(axis=1).astype(np.float64)


#: deck settings: the bars' default pair, all starter pairings and sealed test pairs (train.bars, train.protocol),
#: and the validation ("unseen") pairs training's evaluations score
CHECKS = ("pair", "starters", "unseen", "test")


def deck_pairings(game: str, check: str, deck_bank: int = 256, train_seed: int = 0, pairs: int = 20) -> list:
    """The deck pairs of one of the bars' checks: the default pair (None), every ordered starter pairing, or the
    unseen pairs a deck-general run with ``train_seed`` and ``deck_bank`` never used (``train.evaluate``'s sets)."""
    from .evaluate import starter_pairings, unseen_pairings

    if check == "pair":
        return [None]
    if check == "starters":
        return starter_pairings(game)
    if check == "test":
        from .protocol import sealed_pairs

        return sealed_pairs(game, pairs, train_seed, deck_bank)
    return unseen_pairings(game, pairs, train_seed, deck_bank)


def main(argv: list[str] | None = None) -> int:
    from tqdm import tqdm

    from .evaluate import MatchResult, add_result, play_match

    ap = argparse.ArgumentParser(prog="python -m cardenvs.train.lookahead", description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=200, help="seat-swapped games, spread over the pairings (200)")
    ap.add_argument("--decks", choices=CHECKS, default="pair",
                    help="the default pair, all starter pairings, 20 validation ('unseen') pairs or the bars' 20 "
                         "sealed test pairs (default pair)")
    ap.add_argument("--rollouts", type=int, default=16, help="copies per legal action and decision (default 16)")
    ap.add_argument("--pilot", default="heuristic", help="rollout pilot for the searcher (default heuristic)")
    ap.add_argument("--opponent", default="random", help="the opponent, also its model in the copies")
    ap.add_argument("--hidden", choices=HIDDEN_MODES, default="redeal")
    ap.add_argument("--batch", type=int, default=50, help="games played at once (default 50)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, help="write the result as JSON here")
    ap.add_argument("--trust-pickle", action="store_true", dest="trust_pickle",
                    help="load ppo:FILE.zip pilots although SB3 unpickles them (a crafted .zip runs code)")
    args = ap.parse_args(argv)
    from cardenvs.agents.policy import trust_pilots

    trust_pilots([args.pilot, args.opponent], args.trust_pickle)
    t0 = time.perf_counter()
    total = MatchResult.empty()
    per_pairing: dict[str, MatchResult] = {}
    try:
        agent = LookaheadAgent(args.game, args.pilot, args.opponent, args.rollouts, args.hidden, args.seed)
        pairings = deck_pairings(args.game, args.decks)
        per = max(2, args.games // len(pairings))
        with tqdm(total=per * len(pairings), desc=f"lookahead {args.game} {args.decks}", unit="game") as bar:
            for k, pair in enumerate(pairings):
                name = "default pair" if pair is None else (f"{pair[0]} vs {pair[1]}" if args.decks == "starters"
                                                            else f"{args.decks} pair {k}")
                for j, start in enumerate(range(0, per, max(2, args.batch))):
                    n = min(max(2, args.batch), per - start)
                    r = play_match(args.game, agent, args.opponent, games=n, decks=pair,
                                   seed=(args.seed * 1000 + k) * 1000 + j)
                    add_result(per_pairing.setdefault(name, MatchResult.empty()), r)
                    add_result(total, r)
                    bar.update(n)
    except CardenvsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    games = total.games
    lo, hi = total.ci
    result = {"game": args.game, "decks": args.decks, "pilot": args.pilot, "opponent": args.opponent,
              "rollouts": args.rollouts, "hidden": args.hidden, "seed": args.seed, "games": games,
              "wins": total.wins, "draws": total.draws, "losses": total.losses,
              "by_seat": {s: list(v) for s, v in total.by_seat.items()}, "win_rate": total.win_rate, "ci95": [lo, hi],
              "pairings": {name: [r.wins, r.draws, r.losses] for name, r in per_pairing.items()},
              "searched_decisions": agent.searched, "overruled_pilot": agent.changed,
              "seconds": round(time.perf_counter() - t0, 1)}
    seat = "  ".join(f"seat {s}: {w}/{w + d + l_}" for s, (w, d, l_) in result["by_seat"].items())
    print(f"{args.game} {args.decks}: lookahead ({args.pilot} rollouts x{args.rollouts}, hidden {args.hidden}) vs "
          f"{args.opponent}: {result['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] over {games} games ({seat}); "
          f"{agent.changed} of {agent.searched} searched decisions overruled the pilot; {result['seconds']} s")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1))
    return 0


__all__ = ["CHECKS", "deck_pairings", "HIDDEN_MODES", "LookaheadAgent", "main"]


if __name__ == "__main__":
    raise SystemExit(main())
