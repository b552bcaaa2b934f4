"""How relics games end under heuristic pilots (issue 38), and one heuristic against another. Not collected by pytest.

``python tests/games/relics/heuristic_sweep.py N new``: N heuristic mirrors over the 9 starter pairings, the share of
games ended by each condition (4 relics RL-V1, hand and item deck empty RL-V2, character deck empty RL-V3, a draw)
and of battles that reached the round cap. ``... N new OLD.py``: the heuristic against an older one, seats swapped
(2N games), with a Wilson interval; OLD.py is a copy of agents/heuristic_relics.py from history, loaded as the agent
``py:OLD.py`` (``git show 4a5721f~1:agents/heuristic_relics.py > old.py``). Either kind may be any agent name
(``random``, ``py:FILE``). ``cardenvs match relics heuristic py:old.py`` gives the same comparison over every deck
pairing; this script adds how the games ended and the round-cap share of battles.
"""
import sys, time
import numpy as np
from cardenvs.agents import make_agent
from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, H_WINNER, H_TURN
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.state import ROUND_CAP, RELICS_TO_WIN
from cardenvs.eval.stats import wilson
from cardenvs.testing import decide_by_seat

def load(kind):
    """An agent class-like factory: ``new`` is the installed heuristic, a .py file an older copy (``py:FILE``)."""
    name = "heuristic" if kind == "new" else f"py:{kind}" if kind.endswith(".py") else kind
    return lambda: make_agent("relics", name, seed=0)

N = int(sys.argv[1]); kinds = sys.argv[2:]
names = SPEC.starter_decks()
pairs = [(a, b) for a in names for b in names]
L = SPEC.state_layout
def run(ka, kb, seed):
    g = BatchGame(SPEC, N, decks=[pairs[i % len(pairs)] for i in range(N)], seed=seed, parallel=False)
    agents = [load(ka)(), load(kb)()]
    capped = [0]; battles_seen = set()
    def on_step():
        hit = L.get(g.states, "round") > ROUND_CAP
        for i in np.flatnonzero(hit):
            battles_seen.add((int(i), int(g.states[i, H_TURN])))
    g.play_out(decide_by_seat(g, agents), on_step=on_step)
    s = g.states; w = s[:, H_WINNER]
    hand = L.get(s, "hand_count"); deck = L.get(s, "item_deck_count"); chars = L.get(s, "char_deck_count")
    ctrl = L.get(s, "controller"); wonc = L.get(s, "won_count"); won = L.get(s, "won")
    ends = {"relics": 0, "hand+item deck (RL-V2)": 0, "character deck": 0, "draw": 0, "other": 0}
    for i in range(N):
        if w[i] == 2: ends["draw"] += 1; continue
        win = int(w[i]); lose = 1 - win
        rel = sum(1 for o in range(2) for j in range(wonc[i, o]) if ctrl[i, o, won[i, o, j]] == win)
        if rel >= RELICS_TO_WIN: ends["relics"] += 1
        elif hand[i, lose] == 0 and deck[i, lose] == 0: ends["hand+item deck (RL-V2)"] += 1
        elif chars[i, lose] == 0: ends["character deck"] += 1
        else: ends["other"] += 1
    return w, ends, len(battles_seen), int(s[:, H_TURN].sum())

t = time.time()
if len(kinds) == 1:
    w, ends, capped, battles = run(kinds[0], kinds[0], 1000)
    print(f"{kinds[0]} mirror, {N} games over the 9 starter pairings (seed 1000): ends " +
          ", ".join(f"{k} {v} ({v / N:.1%})" for k, v in ends.items()) +
          f"; battles {battles}, reaching the round cap {capped} ({capped / battles:.1%}); {time.time() - t:.0f}s")
else:
    ka, kb = kinds
    score = 0.0; wins = 0; draws = 0
    for seed, (x, y) in ((1000, (ka, kb)), (2000, (kb, ka))):
        w, ends, capped, battles = run(x, y, seed)
        a_seat = 0 if x == ka else 1
        wins += int((w == a_seat).sum()); draws += int((w == 2).sum())
        print(f"  {x} (P0) vs {y} (P1): P0 {(w == 0).mean():.3f} P1 {(w == 1).mean():.3f} draw {(w == 2).mean():.3f}; ends {ends}")
    n = 2 * N; sc = (wins + 0.5 * draws) / n
    ph = wins / n; _, lo, hi = wilson(wins, n)
    se = np.sqrt(sc * (1 - sc) / n)
    print(f"{ka} vs {kb}: {n} games, seat-swapped: {ka} wins {wins} ({ph:.3f}, Wilson 95% [{float(lo):.3f}, {float(hi):.3f}]), "
          f"draws {draws}; score (draw = 1/2) {sc:.3f} +- {1.96 * se:.3f}; {time.time() - t:.0f}s")
