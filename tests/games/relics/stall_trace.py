"""Why relics battles stall under heuristic pilots (issue 38, item 2). Not collected by pytest.

``python tests/games/relics/stall_trace.py N``: N heuristic mirrors over the 9 starter pairings (seed 1000). Prints
how the games ended (``endings.end_reason``), how the battles ended (won by 1P or 2P, drawn at ``ROUND_CAP``) and, for
every battle drawn at the cap, each attacker and target pair at its last round whose ATT reaches the target's DEF,
sorted by why no Fight took it: out of reach (RL-P3; with the attacker's and the target's row depth and how full the
attacker's front row was), a Counter that would take the attacker too (RL-K7), or open.
"""
import collections
import sys
import time

import numpy as np

from cardenvs.agents.heuristic_relics import HeuristicAgent
from cardenvs.core.batch import BatchGame
from cardenvs.games.relics import SPEC
from cardenvs.games.relics.board import att_of, def_of, depth, distance, row_count, skills_of
from cardenvs.games.relics.cards import SK_COUNTER, SK_RANGED
from cardenvs.games.relics.endings import ENDINGS, end_reason
from cardenvs.games.relics.state import PARTY, PARTY_COUNT, PARTY_SIZE, ROUND_CAP
from cardenvs.testing import decide_by_seat

N = int(sys.argv[1])
names = SPEC.starter_decks()
pairs = [(a, b) for a in names for b in names]
L = SPEC.state_layout
g = BatchGame(SPEC, N, decks=[pairs[i % len(pairs)] for i in range(N)], seed=1000, parallel=False)
agent = HeuristicAgent()
tables = agent.tables


def classify(s, reasons):
    """Each pair of ``s`` whose attacker's ATT reaches its target's DEF, counted by why no Fight takes it."""
    for p in range(2):
        q = 1 - p
        for i in range(s[PARTY_COUNT + p]):
            a = s[PARTY + p * PARTY_SIZE + i]
            for j in range(s[PARTY_COUNT + q]):
                t = s[PARTY + q * PARTY_SIZE + j]
                if att_of(s, tables, p, a) < def_of(s, tables, q, t):
                    continue
                reach = 2 if skills_of(s, tables.cards, p, a) & SK_RANGED else 1
                d = distance(s, p, a, q, t)
                if d > reach:
                    reasons[f"out of reach: attacker depth {depth(s, p, a)} (its front row holds "
                            f"{row_count(s, p, 0)}), target depth {depth(s, q, t)}"] += 1
                    continue
                d_sk = skills_of(s, tables.cards, q, t)
                if ((d_sk & SK_COUNTER) and (d < 2 or d_sk & SK_RANGED)
                        and att_of(s, tables, q, t) >= def_of(s, tables, p, a)):
                    reasons["a Counter takes the attacker too"] += 1
                    continue
                reasons["open"] += 1


battle_winner = L.get(g.states, "battle_winner").copy()
battles = collections.Counter()
last_round = {}
reasons = collections.Counter()


def on_step():
    global battle_winner
    now = L.get(g.states, "battle_winner")
    rnd = L.get(g.states, "round")
    for i in np.flatnonzero((now == -1) & (rnd == ROUND_CAP) & (L.get(g.states, "passes") == 1)):
        last_round[i] = g.states[i].copy()  # the cap's last round, one pass made: the board it stalls on
    for i in np.flatnonzero((battle_winner == -1) & (now != -1)):
        lead = int(L.get(g.states[i], "lead"))
        battles["drawn" if now[i] == 2 else "won by 1P" if now[i] == lead else "won by 2P"] += 1
        if now[i] == 2 and i in last_round:
            classify(last_round.pop(i), reasons)
    battle_winner = now.copy()


t = time.time()
g.play_out(decide_by_seat(g, [agent, agent]), on_step=on_step)
codes = end_reason(g.states)
print(f"{N} heuristic mirrors in {time.time() - t:.0f} s; games ended by: " + ", ".join(
    f"{ENDINGS[c][0] if c >= 0 else 'no rule'} {n}" for c, n in sorted(collections.Counter(codes.tolist()).items())))
print(f"battles {sum(battles.values())}: " + ", ".join(f"{k} {v}" for k, v in sorted(battles.items())))
print("pairs whose ATT reaches the DEF, at the last round of battles drawn at the round cap:")
for k, v in reasons.most_common():
    print(f"  {v:6d}  {k}")
