"""Position builders and readers for the levelneo scenario tests (``field``, ``A``, ``legal``, ``is_legal`` are the
shared :class:`cardenvs.scenario.Scenario` kit's; ``do`` adds passing through the windows on top of it).

``build(p0, p1, ...)`` returns a one-row :class:`BatchGame` whose row holds exactly the described position, stopped
at a decision of the given step. A side is a dict:

* ``main``: card name, ``"Name:R"`` for a resting main;
* ``supports``: list of names (``":R"`` suffix = resting);
* ``hand``, ``discard``: lists of names;
* ``level``: list of names, ``":up"`` suffix = face up (burst already revealed);
* ``deck``: list of names, the *last* one is the top card; ``FILLER`` cards are added below them up to 40 cards
  unless ``fill=False``.
"""
from __future__ import annotations

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, HEADER_SIZE, LIVE
from cardenvs.games.levelneo import SPEC
from cardenvs.games.levelneo.obs_layout import AP_UNIT, CHAR_AP_NOW
from cardenvs.games.levelneo.observe import OBS
from cardenvs.games.levelneo.state import (
    DECK_SIZE, ST_BATTLE_WINDOW, ST_BURST, ST_COVER, ST_COVER_WINDOW, ST_DECL_WINDOW, ST_LEVEL_UP, ST_MAIN,
    ST_PARTNER,
)
from cardenvs.scenario import Scenario
from positions import go_live, instance_maker  # tests/positions.py

kit = Scenario(SPEC)
field, A, legal, is_legal = kit.field, kit.A, kit.legal, kit.is_legal

WINDOWS = (ST_MAIN, ST_BATTLE_WINDOW, ST_DECL_WINDOW, ST_COVER_WINDOW)

POOL = SPEC.load_pool(None)
FILLER = "Dynamo Mech"  # vanilla character without Level Burst text

_ZONES = ("deck", "hand", "main", "support", "level", "discard")
_MINUS_ONE = ("atk_a", "atk_b", "target", "orig_target", "pending_level_down", "combi_chooser", "choice_player")


def build(p0: dict, p1: dict, *, turn_player: int = 0, step: int = ST_MAIN, sub: int = 0, turn: int = 5,
          markers: tuple[int, int] = (3, 3), main_phase: int = 1, to_act: int | None = None,
          seed: int = 0) -> BatchGame:
    g = BatchGame(SPEC, 1, decks=("aggro", "control"), seed=seed)
    row = g.states[0]
    row[HEADER_SIZE:] = 0
    for z in _ZONES:
        field(g, z)[:] = -1
    field(g, "deck_list")[:] = -1
    for name in _MINUS_ONE:
        field(g, name)[...] = -1
    for p, side in enumerate((p0, p1)):
        _place(g, p, side)
    field(g, "marker")[:] = markers
    field(g, "mulligan_used")[:] = 1
    field(g, "step")[...] = step
    field(g, "sub")[...] = sub
    field(g, "main_phase")[...] = main_phase
    field(g, "turn_player")[...] = turn_player
    field(g, "first_player")[...] = turn_player if turn % 2 else 1 - turn_player
    who = (turn_player if sub == 0 else 1 - turn_player) if to_act is None else to_act
    go_live(row, turn, who)
    return g


def _place(g: BatchGame, p: int, side: dict) -> None:
    cards: list[str] = []

    new = instance_maker(POOL, cards)

    rested = field(g, "rested")
    face_up = field(g, "face_up")

    def put(zone: str, count: str | None, entries: list[str], up: bool = True) -> None:
        for k, entry in enumerate(entries):
            name, _, flag = entry.partition(":")
            inst = new(name)
            field(g, zone)[p, k] = inst
            rested[p, inst] = flag == "R"
            face_up[p, inst] = (flag == "up") if zone == "level" else up
        if count:
            field(g, count)[p] = len(entries)

    put("main", None, [side["main"]])
    put("support", "support_count", side.get("supports", []))
    put("hand", "hand_count", side.get("hand", []), up=False)
    put("level", "level_count", side.get("level", []))
    put("discard", "discard_count", side.get("discard", []))
    deck = list(side.get("deck", []))
    if side.get("fill", True):
        deck = [FILLER] * (DECK_SIZE - len(cards) - len(deck)) + deck
    put("deck", "deck_count", deck, up=False)
    assert len(cards) <= DECK_SIZE
    field(g, "deck_list")[p, : len(cards)] = [POOL.by_name[c] for c in cards]


def do(g: BatchGame, name: str, index: int = 0, player: int | None = None, skip: bool = True):
    """Play one action (raises IllegalActionError when it is not legal). With ``skip``, first pass in the windows
    (both players' event/effect windows) until the action is legal: windows are decisions whenever a player holds a
    card, and most scenarios are about what happens around them."""
    for _ in range(40 if skip else 0):
        if g.status[0] != LIVE or is_legal(g, name, index, player):
            break
        if step_name(g) not in WINDOWS or not is_legal(g, "pass"):
            break
        g.step([A("pass")])
    return kit.do(g, name, index, player)


def judge(g: BatchGame, level_up: bool = True):
    """Play the battle in progress to its judgement with passes (no combi partner, no cover, no burst, nothing in
    the windows), then take (or decline) the winner's level up. Stops at a level-down or combi-loss decision, or at
    the first decision after the battle. Returns the last step's result (None when nothing was played)."""
    r = None
    for _ in range(60):
        if g.status[0] != LIVE:
            return r
        st = step_name(g)
        if st == ST_LEVEL_UP:
            return g.step([A("level_up" if level_up else "pass")])
        if st in (ST_PARTNER, ST_DECL_WINDOW, ST_COVER, ST_COVER_WINDOW, ST_BURST):
            r = g.step([A("pass")])
            continue
        return r
    raise AssertionError("the battle did not end")


def zone_names(g: BatchGame, p: int, zone: str) -> list[str]:
    counts = {"deck": "deck_count", "hand": "hand_count", "support": "support_count", "level": "level_count",
              "discard": "discard_count"}
    insts = field(g, zone)[p]
    n = int(field(g, counts[zone])[p]) if zone in counts else 1
    return [POOL.name(int(field(g, "deck_list")[p, i])) for i in insts[:n]]


def inst_of(g: BatchGame, p: int, zone: str, k: int = 0) -> int:
    return int(field(g, zone)[p, k])


def level(g: BatchGame, p: int) -> int:
    return int(field(g, "level_count")[p]) + 1


def step_name(g: BatchGame) -> int:
    return int(field(g, "step"))


def ap(g: BatchGame, p: int, where: str | int = "main") -> float:
    """Current AP of player ``p``'s main (``"main"``) or support slot ``where`` (0-based), from p's observation."""
    obs = g.observe([p])[0]  # AP is stored in hundreds (obs_layout.AP_UNIT)
    if where == "main":
        return int(OBS.get(obs, "main")[0, CHAR_AP_NOW]) * AP_UNIT
    return int(OBS.get(obs, "supports")[0, where, CHAR_AP_NOW]) * AP_UNIT


def pass_until(g: BatchGame, target_step: int, limit: int = 20) -> None:
    """Pass (action 0) until the game reaches ``target_step``."""
    for _ in range(limit):
        if step_name(g) == target_step or g.status[0] != LIVE:
            return
        do(g, "pass")
    raise AssertionError(f"step {target_step} not reached; now {step_name(g)}")


def mark_used(g: BatchGame, p: int, skill: str) -> None:
    """Record that player ``p`` used the skill named ``skill`` this turn (LN-K4; ``used_skills`` is a bit set)."""
    from cardenvs.games.levelneo.state import USED_BITS

    k = POOL.skills.index(skill)
    field(g, "used_skills")[p, k // USED_BITS] |= 1 << (k % USED_BITS)


def play_positions(pilot: str = "random", games: int = 3, steps: int = 110, seed: int = 5, every: int = 1):
    """Games of ``pilot`` ("random": uniform over the legal actions, or "heuristic") against itself; yields the
    BatchGame every ``every`` decisions (its live rows are the positions to check)."""
    import numpy as np

    from cardenvs.agents import make_agent

    g = BatchGame(SPEC, games, decks=("aggro", "control"), seed=seed)
    rng = np.random.default_rng(seed)
    agent = make_agent("levelneo", "heuristic") if pilot == "heuristic" else None
    for k in range(steps):
        if k % every == 0:
            yield g
        if not (g.states[:, H_STATUS] == LIVE).any():
            return
        to = g.to_act.copy()
        mask = g.legal_mask(to)
        if agent is None:
            acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        else:
            acts = agent.act(None, mask, g.states, np.where(g.states[:, H_STATUS] == LIVE, to, -1))
        g.step(acts, to)
