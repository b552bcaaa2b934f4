"""Truncation and outcome figures of relics under heuristic pilots (RULES.md "Caps"): N games per pairing over
every starter pairing. Not collected by pytest. Run: ``python tests/games/relics/truncation_sweep.py 2000``."""
import sys, time
import numpy as np
from cardenvs.agents import make_agent
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, H_WINNER, H_TURN
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.state import BATTLE_TURN_CAP, ROUND_CAP
from cardenvs.testing import decide_by_seat

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
names = SPEC.starter_decks()
pairs = [(a, b) for a in names for b in names]
for pilots in (("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")):
    t = time.time()
    g = BatchGame(SPEC, N, decks=[pairs[i % len(pairs)] for i in range(N)], seed=1000, parallel=False)
    agents = [make_agent("relics", k, seed=7) for k in pilots]
    layout = SPEC.state_layout
    by_turns = np.zeros((N, 20), bool)  # per game and battle: the battle reached BATTLE_TURN_CAP
    by_rounds = np.zeros((N, 20), bool)  # ... or ROUND_CAP
    most = [0]  # the most battle-phase turns any battle reached (RULES.md "Caps" proves at most 1,500)

    def on_step():
        hit = layout.get(g.states, "battle_turns") >= BATTLE_TURN_CAP
        by_turns[np.flatnonzero(hit), g.states[hit, H_TURN]] = True
        hit = layout.get(g.states, "round") > ROUND_CAP
        by_rounds[np.flatnonzero(hit), g.states[hit, H_TURN]] = True
        most[0] = max(most[0], int(layout.get(g.states, "battle_turns").max()))

    g.play_out(decide_by_seat(g, agents), on_step=on_step)
    st = g.states[:, H_STATUS]; w = g.states[:, H_WINNER]
    bt = SPEC.state_layout.get(g.states, "battle_turns")
    print(f"{pilots[0]} (P0) vs {pilots[1]} (P1): {N} games, truncated {(st == 2).sum()}, terminated {(st == 1).sum()}, "
          f"P0 wins {(w == 0).mean():.3f}, P1 wins {(w == 1).mean():.3f}, draws {(w == 2).mean():.3f}, "
          f"battles mean {g.states[:, H_TURN].mean():.2f} max {g.states[:, H_TURN].max()}, "
          f"decisions mean {g.decisions.mean():.0f} max {g.decisions.max()}, battles {g.states[:, H_TURN].sum()}, "
          f"ended by ROUND_CAP {by_rounds.sum()}, by BATTLE_TURN_CAP {by_turns.sum()}, most battle turns {most[0]}, "
          f"{time.time() - t:.0f}s", flush=True)
