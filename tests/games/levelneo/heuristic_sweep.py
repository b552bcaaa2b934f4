"""How levelneo games end under heuristic pilots, and one heuristic against another (issue 38). Not collected by
pytest.

``python tests/games/levelneo/heuristic_sweep.py N [--old DIR] [--json F]``:
- heuristic mirrors over the 10 unordered starter pairings, N games each (half with each deck in seat 0): the first
  deck's score per pairing and how the games ended (``endings.end_reason``: Level Neo LN-V1, deck-out LN-V2);
- with ``--old DIR``: the heuristic against an older one over the 25 ordered starter pairings, N games each (half in
  each seat), its score with an interval that bootstraps the pairings, and the older one's mirror figures. ``DIR``
  holds ``heur_ln_old.py``, a copy of agents/heuristic_levelneo.py from history with its relative import of ``.base``
  made absolute, e.g. ``git show REV:agents/heuristic_levelneo.py | sed 's/^from .base/from cardenvs.agents.base/'``.
"""
import argparse
import itertools
import json
import sys
import time
from types import SimpleNamespace

import numpy as np

from cardenvs.agents import make_agent
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_WINNER
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.endings import ENDINGS, end_reason
from cardenvs.testing import decide_by_seat
from cardenvs.train.protocol import pair_bootstrap


def score_of(agents, a_deck, b_deck, n, seed):
    """agents[0] with ``a_deck`` against agents[1] with ``b_deck``: n games, half with agents[0] in seat 0; returns
    agents[0]'s score (draws half) and the end codes."""
    half = n // 2
    total, codes = 0.0, []
    for k, seat in enumerate((0, 1)):
        seats = agents if seat == 0 else agents[::-1]
        decks = (a_deck, b_deck) if seat == 0 else (b_deck, a_deck)
        g = BatchGame(SPEC, half, decks=decks, seed=seed + k, parallel=False)
        g.play_out(decide_by_seat(g, seats))
        w = g.states[:, H_WINNER]
        total += float((w == seat).sum() + 0.5 * (w == 2).sum())
        codes.append(end_reason(g.states))
    return total / (2 * half), np.concatenate(codes)


def mirror(agent, n):
    names = SPEC.starter_decks()
    scores, ends = {}, {ENDINGS[c][0]: 0 for c in range(len(ENDINGS))}
    for i, (a, b) in enumerate(itertools.combinations(names, 2)):
        s, codes = score_of([agent, agent], a, b, n, 1000 + 10 * i)
        scores[f"{a}-{b}"] = round(s, 3)
        for c in range(len(ENDINGS)):
            ends[ENDINGS[c][0]] += int((codes == c).sum())
    return {"pairing_scores": scores, "ends": ends}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", type=int)
    ap.add_argument("--old", help="folder with heur_ln_old.py")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    t = time.time()
    new = make_agent("levelneo", "heuristic")
    out = {"games_per_pairing": args.games, "mirror": {"new": mirror(new, args.games)}}
    if args.old:
        sys.path.insert(0, args.old)
        import heur_ln_old  # a plain module, so Numba's cache finds it again

        old = heur_ln_old.HeuristicAgent()
        out["mirror"]["old"] = mirror(old, args.games)
        names = SPEC.starter_decks()
        per = {}
        for i, (a, b) in enumerate(itertools.product(names, repeat=2)):
            per[f"{a}-{b}"] = round(score_of([new, old], a, b, args.games, 5000 + 10 * i)[0], 3)
        # a pairing's two orders together (each pilot with each deck) cancel the decks' own strength
        folded = {f"{a}-{b}": round((per[f"{a}-{b}"] + per[f"{b}-{a}"]) / 2, 3)
                  for a, b in itertools.combinations_with_replacement(names, 2)}
        vals = np.array(list(folded.values()))
        lo, hi = pair_bootstrap([SimpleNamespace(wins=v * args.games, games=args.games) for v in vals])
        out["new_vs_old"] = folded
        out["new_vs_old_overall"] = [round(float(vals.mean()), 3), round(lo, 3), round(hi, 3)]
    for who, m in out["mirror"].items():
        n = sum(m["ends"].values())
        print(f"{who} mirror ({n} games): " + ", ".join(f"{k} {v} ({v / n:.1%})" for k, v in m["ends"].items()))
        print("  first deck's score: " + ", ".join(f"{k} {v:.2f}" for k, v in m["pairing_scores"].items()))
    if args.old:
        m, lo, hi = out["new_vs_old_overall"]
        print(f"new vs old over the 25 ordered starter pairings ({25 * args.games} games): {m:.3f} [{lo:.3f}, {hi:.3f}]"
              " (bootstrap over the 15 unordered pairings)")
    print(f"{time.time() - t:.0f}s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
