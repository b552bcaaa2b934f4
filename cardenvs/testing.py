"""The shipped checker: play a ruleset under several pilots and check every invariant cardenvs promises.

``check_game("levelneo")`` plays legal games on the batch core under every pairing of the pilots (by default random
vs random, random vs heuristic with the seats swapped every other game, and heuristic vs heuristic) and asserts,
after every decision of every pairing: every card instance is in exactly one zone (conservation), the player to act
always has a legal action while the game is live and the other player has none unless it too has a decision pending,
every game ends within the cap, observations are finite and in bounds (their float view) and, for a compact
observation layout, that every value the kernel writes fits the layout's dtype (:func:`check_observation_range`). It
also checks that a seed replays the same
game exactly, that the single AEC env plays the same game as the batch core for the same seed and actions, that a
player's observation and legal actions do not change when everything hidden from that player is re-dealt
(``spec.hide``), and the **decision-timing leak check** (:func:`check_timing`): re-deal what a viewer cannot know,
apply the same action in both copies, and require that who decides next and what the viewer sees next are the same
once the cards the step revealed to the viewer are pinned to the same slots in both. Truncations are counted per
pairing; a pairing with a non-random pilot may not truncate any game unless the call allows a documented rate
(``allow_truncation``). The exact rules of every check are in ``docs/CHECKS.md``.

Users can run it on their own card pool and decks:
``check_game("levelneo", decks=("my.toml", "my.toml"), pool=levelneo.SPEC.load_pool([Path("my_cards.toml")]))``.
``cardenvs check GAME --pilots heuristic --games 10000`` (or ``python -m cardenvs check ...``) runs a big sweep
from the command line.
"""
from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from .core.aec import OBS_BOUND, CardGameEnv
from .core.batch import BatchGame, get_spec
from .core.header import DRAW, H_NEEDS, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TERMINATED, TRUNCATED
from .core.invariants import conservation_errors
from .core.rows import RowChecker
from .core.spec import GameSpec

#: header fields that say who decides next and whether the game goes on; the timing check compares them
TIMING_FIELDS = (("status", H_STATUS), ("to_act", H_TO_ACT), ("needs", H_NEEDS), ("winner", H_WINNER),
                 ("turn", H_TURN))


class InvariantError(AssertionError):
    pass


@dataclass
class PairingStats:
    """One pairing of pilots: ``seats[0]`` plays seat 0 in even games and seat 1 in odd games (seats swapped)."""

    name: str
    seats: tuple[str, str]
    games: int = 0
    decisions: int = 0
    terminated: int = 0
    truncated: int = 0
    max_turn: int = 0
    seconds: float = 0.0
    allowed_truncation: float = 0.0

    @property
    def truncation_rate(self) -> float:
        return self.truncated / self.games if self.games else 0.0


@dataclass
class TimingStats:
    """Counts of the decision-timing leak check (see :func:`check_timing`)."""

    pairs: int = 0  # (state, viewer) pairs sampled
    compared: int = 0  # pairs compared (the copies agree: a pass; they differ: a leak)
    pinned: int = 0  # of those, compared after the cards the step revealed were pinned in the re-deal
    unpinned: int = 0  # skipped: a card the step revealed could not be put in the same slot of the re-deal
    illegal: int = 0  # skipped: the actor's action is not legal in the re-deal (only when viewer != actor)
    unchanged: int = 0  # hide() changed nothing in the copy (nothing to hide from this viewer here)
    leaks: int = 0  # compared pairs that differ: each is a failure
    examples: list[str] = field(default_factory=list)


@dataclass
class CompletenessStats:
    """Counts of the observation-completeness check (see :func:`check_completeness`)."""

    samples: int = 0  # (state, acting player) pairs sampled
    mutants: int = 0  # constructed pairs: one thing the viewer knows changed
    shown: int = 0  # the viewer's observation, mask or who decides changed at once: the observation holds it
    inert: int = 0  # nothing the viewer sees changed over the horizon: the change cannot matter here
    invalid: int = 0  # skipped: the changed row broke conservation or a kernel refused it
    missing: int = 0  # the observation and mask stayed, but what the viewer sees later differs: each a failure
    collisions: int = 0  # natural pairs of sampled states with the same observation and mask
    collision_diffs: int = 0  # of those, pairs whose knowable parts differ (outside the ignored fields): failures
    fields: dict[str, list[int]] = field(default_factory=dict)  # field -> [mutants, missing]
    examples: list[str] = field(default_factory=list)

    def missing_fields(self) -> dict[str, int]:
        return {name: c[1] for name, c in sorted(self.fields.items()) if c[1]}


@dataclass
class HonestStats:
    """Counts of the honest-pilot check (see :func:`check_honest`)."""

    positions: int = 0  # (position, pilot) pairs from play with that pilot
    redeals: int = 0  # re-deals compared
    unchanged: int = 0  # re-deals hide() left as they were (nothing hidden from the actor)
    changed: int = 0  # re-deals after which the pilot chose another action: each a failure
    examples: list[str] = field(default_factory=list)


@dataclass
class CheckReport:
    game: str
    games: int = 0
    decisions: int = 0
    terminated: int = 0
    truncated: int = 0
    hidden_checks: int = 0
    hidden_changed: int = 0
    hidden_possible: int = 0  # sampled (state, viewer) pairs with something to hide (see docs/CHECKS.md)
    aligned_games: int = 0
    pairings: dict[str, PairingStats] = field(default_factory=dict)
    timing: TimingStats = field(default_factory=TimingStats)
    completeness: CompletenessStats = field(default_factory=CompletenessStats)
    honest: HonestStats = field(default_factory=HonestStats)
    notes: list[str] = field(default_factory=list)

    def truncation_rate(self, pairing: str | None = None) -> float:
        if pairing is not None:
            return self.pairings[pairing].truncation_rate
        return self.truncated / self.games if self.games else 0.0

    def summary(self) -> str:
        lines = [f"{self.game}: {self.games} games, {self.decisions} decisions"]
        for p in self.pairings.values():
            lines.append(f"  {p.name:<24} {p.games:>7} games  {p.decisions:>10} decisions  truncated "
                         f"{p.truncated} ({100 * p.truncation_rate:.2f}%, allowed {100 * p.allowed_truncation:.2f}%)"
                         f"  max turn {p.max_turn}  {p.seconds:.1f} s")
        lines.append(f"  hidden information: {self.hidden_checks} re-deals ({self.hidden_changed} changed the state, "
                     f"{self.hidden_possible} had something to hide); {self.aligned_games} games single env == batch")
        t = self.timing
        lines.append(f"  decision timing: {t.pairs} pairs, {t.compared} compared ({t.pinned} with the revealed "
                     f"cards pinned), {t.leaks} leaks; skipped: {t.unpinned} revealed card not pinnable, "
                     f"{t.illegal} action illegal after the re-deal, {t.unchanged} nothing re-dealt")
        c = self.completeness
        if c.samples:
            lines.append(f"  observation completeness: {c.samples} states, {c.mutants} changes of what the actor "
                         f"knows: {c.shown} shown at once, {c.inert} inert over the horizon, {c.missing} missing, "
                         f"{c.invalid} invalid; {c.collisions} natural collisions, {c.collision_diffs} differing"
                         + (f"; missing by field {c.missing_fields()}" if c.missing else ""))
        h = self.honest
        if h.positions:
            lines.append(f"  honest pilots: {h.positions} positions, {h.redeals} re-deals, {h.changed} changed the "
                         f"decision, {h.unchanged} nothing re-dealt")
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


# ----- geometry ----------------------------------------------------------------------------------------------------
def zone_geometry(spec: GameSpec) -> tuple[np.ndarray, np.ndarray]:
    layout = spec.state_layout
    starts = np.array([layout.offset(f.name) for f in layout.zones], dtype=np.int64)
    widths = np.array([f.shape[1] for f in layout.zones], dtype=np.int64)
    return starts, widths


def check_conservation(spec: GameSpec, states: np.ndarray) -> np.ndarray:
    """Per-row error codes (0 = fine); see :func:`conservation_errors`."""
    starts, widths = zone_geometry(spec)
    out = np.zeros(states.shape[0], dtype=np.int32)
    conservation_errors(states, spec.state_layout.offset("deck_list"), spec.max_deck, starts, widths, out)
    return out


_SLOT_INDEX: dict[int, tuple[Any, np.ndarray, int]] = {}


def _slot_index(spec: GameSpec) -> tuple[np.ndarray, int]:
    """State columns of every zone slot, ``int64[2, S]`` (zones in layout order), and the ``deck_list`` offset."""
    layout = spec.state_layout
    hit = _SLOT_INDEX.get(id(layout))
    if hit is None or hit[0] is not layout:
        cols = []
        for z in layout.zones:
            width = z.shape[1]
            at = layout.offset(z.name)
            cols.append(at + np.arange(2 * width).reshape(2, width))
        hit = (layout, np.concatenate(cols, axis=1), layout.offset("deck_list"))
        _SLOT_INDEX[id(layout)] = hit
    return hit[1], hit[2]


def slot_cards(spec: GameSpec, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(instances, cards)``, both ``int32[N, 2, S]``: for every zone slot of each player (zones in layout order,
    ``S`` slots per player in all), the card instance in it and that instance's card id (``-1`` for an empty slot)."""
    states = np.atleast_2d(states)
    cols, dl_at = _slot_index(spec)
    inst = states[:, cols]
    owner = np.arange(2).reshape(1, 2, 1) * spec.max_deck
    where = (dl_at + owner + np.clip(inst, 0, spec.max_deck - 1)).reshape(states.shape[0], -1)
    cards = np.take_along_axis(states, where, axis=1).reshape(inst.shape)
    return inst, np.where(inst >= 0, cards, -1).astype(np.int32)


def timing_hide(spec: GameSpec) -> Any:
    """The re-deal the decision-timing check pins against (:func:`hidden_slots`, :func:`check_timing`): ``spec.hide``,
    or ``spec.extra["timing_hide"]`` where a game gives one. simulfight's ``hide`` also re-deals the other seat's
    secret plan, which is revealed whole when it lands, where pinning moves cards only; its ``timing_hide`` re-deals
    the hidden cards alone."""
    return (spec.extra or {}).get("timing_hide") or spec.hide


def hidden_slots(spec: GameSpec, row: np.ndarray, viewer: int, rng: np.random.Generator, pool: Any,
                 samples: int = 4, extra: Sequence[np.ndarray] = ()) -> np.ndarray:
    """``bool[2, S]``: the zone slots of ``row`` whose card ``spec.hide(row, viewer)`` re-deals in at least one of
    ``samples`` re-deals (plus the given ``extra`` re-deals of the same row). A slot ``hide`` never changes counts as
    visible to ``viewer``: a correct ``hide`` never changes a visible slot, so the error can only go one way (a hidden
    slot among identical cards looks visible)."""
    _, base = slot_cards(spec, row)
    hide = timing_hide(spec)
    variants = [hide(row, viewer, rng, pool) for _ in range(samples)] + list(extra)
    _, cards = slot_cards(spec, np.stack(variants))
    return (cards != base).any(axis=0)


def _hideable_zones(spec: GameSpec) -> list[tuple[int, int, str]]:
    """Slot ranges ``(start, stop, kind)`` of zones that hold hidden cards in every cardenvs game: a zone named
    ``*deck*`` (order unknown to both players) or ``*hand*`` (unknown to the opponent)."""
    out, at = [], 0
    for z in spec.state_layout.zones:
        width = z.shape[1]
        if "deck" in z.name:
            out.append((at, at + width, "deck"))
        elif "hand" in z.name:
            out.append((at, at + width, "hand"))
        at += width
    return out


def something_to_hide(spec: GameSpec, row: np.ndarray, viewer: int) -> bool:
    """True when one zone that is hidden from ``viewer`` by the naming convention (a deck of either player, the
    opponent's hand) holds at least two different cards, so that a working ``hide`` can change the state. Two one-card
    decks have nothing to hide: the hidden-information checks then have nothing to test, which is not an error."""
    _, cards = slot_cards(spec, row)
    for start, stop, kind in _hideable_zones(spec):
        for p in (0, 1):
            if kind == "hand" and p == viewer:
                continue
            ids = cards[0, p, start:stop]
            ids = ids[ids >= 0]
            if ids.size > 1 and (ids != ids[0]).any():
                return True
    return False


# ----- pilots -------------------------------------------------------------------------------------------------------
def _pilot_name(pilot: Any) -> str:
    return pilot if isinstance(pilot, str) else str(getattr(pilot, "name", type(pilot).__name__))


def make_pilot(spec: GameSpec, pilot: Any, seed: int, pool: Any) -> Any:
    """An agent for ``pilot`` (``"random"``, ``"heuristic"``, ``"ppo:PATH"`` or an object with ``act``). A rule-based
    agent that reads the pool's tables is given the pool in use (``pool=``), not the game's own."""
    from .core.agents import make_agent

    agent = make_agent(spec.name, pilot, seed=seed)
    if pool is None or pilot == "random" or not isinstance(pilot, str):
        return agent  # an agent object is the caller's to match to the pool
    if hasattr(agent, "use_pool"):  # agents.base.StateHeuristic: its kernel reads card stats from the pool only
        agent.use_pool(pool)
        return agent
    raise ValueError(f"the {_pilot_name(pilot)} agent reads the game's own card pool and cannot be given pool=")


def pairings_of(pilots: Sequence[Any]) -> list[tuple[Any, Any]]:
    """Every pairing of the pilots, each once: ``("random", "heuristic")`` gives random-random, random-heuristic,
    heuristic-heuristic."""
    return list(itertools.combinations_with_replacement(list(pilots), 2))


def pairing_name(a: Any, b: Any) -> str:
    return f"{_pilot_name(a)}-{_pilot_name(b)}"


class Seats:
    """Which agent decides for which (row, seat), and the one loop that asks them: every study, sweep and check that
    sets two agents against each other dispatches through it, so each agent gets only its rows, and the state only as
    its seat's view (``seat_view``), never the true rows.

    ``by="parity"`` (seat-swapped matches): ``agents[0]`` plays seat 0 of even rows and seat 1 of odd rows,
    ``agents[1]`` the other seat. ``by="seat"``: ``agents[s]`` plays seat ``s`` of every row. ``fallback=False``
    asks the kernel heuristics for their raw choices (no legal-action fallback), so an illegal choice shows."""

    def __init__(self, agents: Sequence[Any], n: int, by: str = "parity", fallback: bool = True) -> None:
        if len(agents) != 2:
            raise ValueError(f"two agents, one a seat, not {len(agents)}")
        if by not in ("parity", "seat"):
            raise ValueError(f"by must be 'parity' or 'seat', not {by!r}")
        self.agents = tuple(agents)
        self.same = agents[0] is agents[1]
        self.flip = (np.arange(n) % 2).astype(np.int32) if by == "parity" else np.zeros(n, dtype=np.int32)
        self.fallback = fallback
        self.reads_state = any(getattr(a, "reads_state", True) for a in self.agents)

    def _ask(self, agent: Any, obs: np.ndarray | None, mask: np.ndarray, states: np.ndarray | None,
             players: np.ndarray) -> np.ndarray:
        if not self.fallback and getattr(agent, "kernel", None) is not None:
            return agent.act(obs, mask, states, players, fallback=False)
        return agent.act(obs, mask, states, players)

    def act(self, obs: np.ndarray | None, mask: np.ndarray, states: np.ndarray | None, players: np.ndarray,
            spec: GameSpec) -> np.ndarray:
        """The agents' actions for the rows with ``players >= 0``; ``states`` are the true rows (or None)."""
        from .core.seat_view import agent_states

        live = players >= 0
        out = np.zeros(players.shape[0], dtype=np.int32)
        which = players ^ self.flip  # the index of the agent that decides each row
        for k in ((0,) if self.same else (0, 1)):
            rows = np.flatnonzero(live if self.same else live & (which == k))
            if rows.size:
                agent = self.agents[k]
                view = None if states is None else agent_states(agent, spec, states, players[rows], rows=rows)
                out[rows] = self._ask(agent, None if obs is None else obs[rows], mask[rows], view,
                                      players[rows])
        return out


class _RandomPilot:
    name = "random"
    reads_state = False

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, obs: np.ndarray, mask: np.ndarray, states: Any = None, players: Any = None) -> np.ndarray:
        from cardenvs.agents.base import masked_uniform

        return masked_uniform(mask, self.rng)


# ----- play --------------------------------------------------------------------------------------------------------
def recorded_observations(game: Any, n_games: int = 16, steps: int = 12, seed: int = 3,
                          action_seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations and legal masks of real positions, from the player to act's view before each of ``steps``
    random legal decisions in ``n_games`` games (finished games left out): inputs for checking a policy's forward
    pass."""
    batch = BatchGame(game, n_games, seed=seed)
    rng = np.random.default_rng(action_seed)
    obs, masks = [], []
    for _ in range(steps):
        who = batch.to_act.copy()
        live = ~batch.done
        o, m = batch.observe(who), batch.legal_mask(who)
        obs.append(o[live])
        masks.append(m[live])
        batch.step(np.argmax((rng.random(m.shape) + 1.0) * (m != 0), axis=1), who)
    return np.concatenate(obs), np.concatenate(masks)


def decide_by_seat(game: BatchGame, agents: Sequence[Any], on_choice: Any = None) -> Any:
    """A ``BatchGame.play_out`` decider in which ``agents[s]`` decides for seat ``s`` of every row (``Seats`` with
    ``by="seat"``): the loop of the scripts that study a pilot in one seat. ``on_choice(row, seat, action,
    mask_row)``, when given, sees each decision after it is made."""
    seats = Seats(agents, game.num_games, by="seat")

    def decide(who: np.ndarray, obs: np.ndarray | None, mask: np.ndarray) -> np.ndarray:
        out = seats.act(obs, mask, game.states, who, game.spec)
        if on_choice is not None:
            for i in np.flatnonzero(who >= 0):
                on_choice(int(i), int(who[i]), int(out[i]), mask[i])
        return out

    return decide


def play_random(
    game: BatchGame, seed: int, agent_seed: int, max_steps: int, record_rows: int = 0, check: bool = True,
    report: CheckReport | None = None, hidden_every: int = 0,
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Random legal play of every row to the end; returns the final states and the actions of the first rows."""
    pilot = _RandomPilot(agent_seed)
    return play_pilots(game, Seats((pilot, pilot), game.num_games), seed, agent_seed, max_steps, record_rows, check,
                       report, hidden_every)


def random_endings(spec: GameSpec, games: int = 200, seed: int = 38, draw_codes: Sequence[int] = ()) -> np.ndarray:
    """Play ``games`` games of random legal play to the end and check the game's ``end_reason`` on them (each
    game's ``endings.py``): a live game has no ending, every game the rules ended has one of ``spec.endings``, a
    truncated game has none, and the draws are exactly the games with an ending in ``draw_codes``. Returns the codes
    (int8 [games]) for the game's own checks (which endings random play reaches)."""
    if spec.end_reason is None:
        raise InvariantError(f"{spec.name} declares no endings (endings.py)")
    game = BatchGame(spec, games, seed=seed, autoreset=False)
    if not (spec.end_reason(game.states) == -1).all():
        raise InvariantError(f"{spec.name}: a game that has not started has an ending")
    rng = np.random.default_rng(seed)
    game.play_out(lambda who, obs, mask: (rng.random(mask.shape) * mask).argmax(axis=1), observe=False)
    codes = spec.end_reason(game.states)
    status, winner = game.states[:, H_STATUS], game.states[:, H_WINNER]
    ended = status == TERMINATED
    problems = []
    if codes.dtype != np.int8 or codes.shape != (games,):
        problems.append(f"codes of dtype {codes.dtype} and shape {codes.shape}, not int8 ({games},)")
    elif not ((codes[ended] >= 0) & (codes[ended] < len(spec.endings))).all():
        problems.append(f"{int(((codes[ended] < 0) | (codes[ended] >= len(spec.endings))).sum())} ended games "
                        "without an ending")
    elif not (codes[status == TRUNCATED] == -1).all():
        problems.append("a truncated game has an ending")
    elif not (np.isin(codes, list(draw_codes)) == (ended & (winner == DRAW))).all():
        problems.append(f"the draws are not exactly the games ending by {list(draw_codes)}")
    if problems:
        raise InvariantError(f"{spec.name} endings: " + "; ".join(problems))
    return codes


def play_pilots(
    game: BatchGame, seats: Seats, seed: int, agent_seed: int, max_steps: int, record_rows: int = 0,
    check: bool = True, report: CheckReport | None = None, hidden_every: int = 0, timing_every: int = 0,
    timing_rows: int = 8, sample_every: int = 0, sample_rows: int = 4, samples: list[np.ndarray] | None = None,
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Play every row to the end with ``seats`` deciding; returns the final states and the actions of the first
    ``record_rows`` rows. With ``check`` every invariant is checked after every decision; the static hidden-information
    check runs every ``hidden_every`` decisions and the decision-timing check every ``timing_every``. With
    ``samples`` (a list), copies of up to ``sample_rows`` live rows, chosen at random, are appended every
    ``sample_every`` decisions (the positions the completeness and honest-pilot checks start from)."""
    spec = game.spec
    hide_rng = np.random.default_rng(agent_seed + 1)
    timing_rng = np.random.default_rng(agent_seed + 2)
    sample_rng = np.random.default_rng(agent_seed + 3)
    game.reset(seed)
    recorded: list[np.ndarray] = []
    n = game.num_games
    for step in range(max_steps):
        live = game.status == LIVE
        if not live.any():
            break
        players = np.where(live, game.to_act, -1).astype(np.int32)
        mask = game.legal_mask(players).copy()
        obs = game.observe(players).copy()
        if check:
            _check_masks(game, live, mask, players)
            check_observation_range(game, game.states.view(np.ndarray), players, obs)
            if spec.obs_dtype == np.float32:  # a compact row holds only what its dtype can: the range guard above
                view = spec.float_observation(obs)
                if not np.isfinite(view).all() or np.abs(view).max(initial=0) > OBS_BOUND:
                    raise InvariantError(f"{spec.name}: observation not finite or outside +-{OBS_BOUND}")
            if hidden_every and step % hidden_every == 0:
                _check_hidden(game, live, hide_rng, report)
        if samples is not None and sample_every and step % sample_every == 0:
            rows = np.flatnonzero(live)
            if rows.size > sample_rows:
                rows = np.sort(sample_rng.choice(rows, sample_rows, replace=False))
            samples.extend(game.states[rows].copy())
        actions = seats.act(obs, mask, game.states if seats.reads_state else None, players, spec)
        if check:
            chosen = mask[np.arange(n), np.clip(actions, 0, spec.num_actions - 1)]
            if (live & ((actions < 0) | (actions >= spec.num_actions) | (chosen == 0))).any():
                raise InvariantError(f"{spec.name}: a pilot chose an illegal action")
            if timing_every and step % timing_every == 0 and report is not None:
                rows = np.flatnonzero(live)
                if rows.size > timing_rows:
                    rows = np.sort(timing_rng.choice(rows, timing_rows, replace=False))
                check_timing(game, rows, actions[rows], timing_rng, report.timing)
        if record_rows:
            recorded.append(np.where(live[:record_rows], actions[:record_rows], -1))
        game.step(actions, players=players)
        if report is not None:
            report.decisions += int(live.sum())
        if check:
            bad = check_conservation(spec, game.states)
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                raise InvariantError(f"{spec.name}: card conservation broken (code {bad[row]}) in game {row} "
                                     f"after decision {game.decisions[row]}:\n{game.render(row)}")
    if (game.status == LIVE).any():
        raise InvariantError(f"{spec.name}: {int((game.status == LIVE).sum())} of {n} games still live after "
                             f"{max_steps} decisions: the cap does not end them")
    return game.states.copy(), recorded


#: the dtype :func:`check_observation_range` observes into: a second Numba specialization of the same
#: ``batch_observe`` in which every value the row function writes is exact (integers, and fractions it should not
#: write); compiled once per compact game, on the checker's first decision (tens of seconds cold, cached on disk)
WIDE_OBS = np.float64


def check_observation_range(game: BatchGame, states: np.ndarray, players: np.ndarray, stored: np.ndarray) -> None:
    """The range guard of a compact observation layout: a kernel that writes a value the layout's integer dtype
    cannot hold (300 into int8, a fraction) wraps or truncates silently in Numba. Observe the same ``states`` from the
    same ``players`` into a :data:`WIDE_OBS` buffer and require it to equal ``stored`` (what ``batch_observe`` wrote
    into ``spec.obs_dtype``) entry for entry; an :class:`InvariantError` names the field, the value and the game.
    Nothing to do for a float32 layout."""
    spec = game.spec
    if spec.obs_dtype == np.float32:
        return
    # a row no player observes (an ended game, player -1) has nothing to guard: only the others are observed again
    players = np.asarray(players)
    rows = np.flatnonzero(players >= 0)
    wide = np.zeros((rows.size, stored.shape[1]), WIDE_OBS)
    game.kernels.batch_observe(np.ascontiguousarray(states[rows]), game.pool.tables,
                               np.ascontiguousarray(players[rows], np.int32), wide)
    bad = wide != stored[rows]
    if bad.any():
        j, k = (int(v) for v in np.argwhere(bad)[0])
        i = int(rows[j])
        info = np.iinfo(spec.obs_dtype)
        raise InvariantError(f"{spec.name}: observation entry {_slice_name(spec, k)} of game {i} (player "
                             f"{int(players[i])}) is {wide[j, k]:g}, which {spec.obs_dtype.name} stores as "
                             f"{int(stored[i, k])} (it holds the integers {info.min}..{info.max}); {int(bad.sum())} "
                             f"entries differ")


def _check_masks(game: BatchGame, live: np.ndarray, mask: np.ndarray, players: np.ndarray) -> None:
    spec = game.spec
    empty = live & (mask.sum(axis=1) == 0)
    if empty.any():
        row = int(np.flatnonzero(empty)[0])
        raise InvariantError(f"{spec.name}: empty action mask for player_{players[row]} in live game {row}:\n"
                             f"{game.render(row)}")
    needs = game.needs
    if not (needs[live] & (1 << game.to_act[live])).all():
        raise InvariantError(f"{spec.name}: to_act has no pending decision (needs bit clear)")
    others = np.where(live, 1 - game.to_act, -1).astype(np.int32)
    other_mask = game.legal_mask(others, out=np.zeros_like(mask))
    idle = live & ((needs & (1 << np.clip(others, 0, 1))) == 0)
    if (other_mask[idle].sum(axis=1) > 0).any():
        raise InvariantError(f"{spec.name}: a player with no pending decision has legal actions")


def _check_hidden(game: BatchGame, live: np.ndarray, rng: np.random.Generator, report: CheckReport | None) -> None:
    """Static re-deal: the viewer's observation, and its legal actions when it is to act, must not change."""
    spec = game.spec
    rows = np.flatnonzero(live)[:8]
    for r in rows:
        for viewer in (0, 1):
            original = game.states[r].copy()
            variant = spec.hide(original, viewer, rng, game.pool)
            if not np.array_equal(original, game.states[r]):
                raise InvariantError(f"{spec.name}: hide() modified its input row")
            pair = np.stack([original, variant])
            view = np.array([viewer, viewer], np.int32)
            obs = np.zeros((2, spec.obs_dim), dtype=spec.obs_dtype)
            game.kernels.batch_observe(pair, game.pool.tables, view, obs)
            if not np.array_equal(obs[0], obs[1]):
                diff = np.flatnonzero(obs[0] != obs[1])
                names = {_slice_name(spec, int(d)) for d in diff}
                raise InvariantError(f"{spec.name}: player_{viewer}'s observation depends on hidden information "
                                     f"(slices {sorted(names)}) in game {r}")
            masks = np.zeros((2, spec.num_actions), dtype=np.int8)
            game.kernels.batch_mask(pair, game.pool.tables, view, masks)
            if not np.array_equal(masks[0], masks[1]):
                diff = np.flatnonzero(masks[0] != masks[1])[:6]
                names = [spec.action_name(original, game.pool, viewer, int(a)) for a in diff]
                raise InvariantError(f"{spec.name}: player_{viewer}'s legal actions depend on hidden information "
                                     f"(actions {names}) in game {r}")
            bad = check_conservation(spec, pair)
            if bad.any():
                raise InvariantError(f"{spec.name}: hide() produced an invalid state (code {bad.max()})")
            if report is not None:
                report.hidden_checks += 1
                report.hidden_changed += int(not np.array_equal(original, variant))
                report.hidden_possible += int(something_to_hide(spec, original, viewer))


def _slice_name(spec: GameSpec, index: int) -> str:
    for f in spec.obs_layout.fields:
        s = spec.obs_layout.slice(f.name)
        if s.start <= index < s.stop:
            return f.name
    return str(index)


# ----- the decision-timing leak check ------------------------------------------------------------------------------
def check_timing(game: BatchGame, rows: np.ndarray, actions: np.ndarray, rng: np.random.Generator,
                 stats: TimingStats, samples: int = 3, max_examples: int = 3, horizon: int = 16) -> TimingStats:
    """The decision-timing leak check on rows ``rows`` of ``game`` (live, not yet stepped), where the player to act
    is about to play ``actions``. For each row and each viewer V (the actor and its opponent):

    1. copy 1 is the row; copy 2 is ``spec.hide(row, V)``: everything V cannot know re-dealt (a copy that ``hide``
       left unchanged is counted in ``unchanged`` and dropped);
    2. when V is the actor, its legal actions must be the same in both copies (else a leak through the mask);
    3. the actor plays the same action in both copies (the batch step kernel: every forced step runs after it);
    4. the copies must agree on who decides next and how the game stands (header ``status``, ``to_act``, ``needs``,
       ``winner``, ``turn``), on V's next observation and on V's legal actions. If they agree, the pair passes.
    5. If they differ (or the action is not legal in copy 2), the difference may come from the cards the step
       revealed to V, which differ between the copies. Those cards are **pinned**: in copy 2, every slot from which
       the step revealed a card to V in copy 1 (a slot hidden from V before the step whose card is visible to V
       after it, :func:`revealed_slots`) is given copy 1's card, by swapping card identities with another slot hidden
       from V (:func:`pin_cards`); nothing else of copy 2 is chosen. When the actor (not V) decides again and V has
       no decision pending, copy 1 is carried on with up to ``horizon`` random legal moves of the actor until V
       decides, and the cards revealed along the way are pinned too (V cannot act on what it sees meanwhile). The
       actor plays the action, then copy 1's further moves, in the pinned copy, and any difference from copy 1 after
       a step is a leak: who decides next, what V sees next or whether a reveal happens at all depends on hidden
       cards other than the ones revealed. A pair is skipped only when a revealed card cannot be pinned
       (``unpinned``) or the action is not legal even in the pinned copy (``illegal``).

    Unlike re-dealing until a copy happens to reveal the same cards, pinning never selects copies by their hidden
    cards, so a step that reveals a card *because* of the rest of a hidden hand (an engine-made placement, a phase
    skipped because nothing in the hand is playable) is caught.
    """
    spec = game.spec
    pool = game.pool
    firsts, seconds, actors, views, acts, origin = [], [], [], [], [], []
    for r, a in zip(rows.tolist(), np.asarray(actions).tolist()):
        row = game.states[r].copy()
        actor = int(row[H_TO_ACT])
        for viewer in (actor, 1 - actor):
            stats.pairs += 1
            variant = timing_hide(spec)(row, viewer, rng, pool)
            if np.array_equal(variant, row):
                stats.unchanged += 1
                continue
            firsts.append(row)
            seconds.append(variant)
            actors.append(actor)
            views.append(viewer)
            acts.append(int(a))
            origin.append(r)
    if not firsts:
        return stats
    m = len(firsts)
    before = np.stack(firsts + seconds)
    actor_arr = np.array(actors, dtype=np.int32)
    view_arr = np.array(views, dtype=np.int32)
    act_arr = np.array(acts, dtype=np.int32)
    masks = _masks(game, before, np.concatenate([actor_arr, actor_arr]))
    keep = []
    for i in range(m):
        if views[i] == actors[i] and not np.array_equal(masks[i], masks[m + i]):
            _mask_leak(spec, pool, stats, max_examples, before[i], masks[i], masks[m + i], actors[i], origin[i])
        else:
            keep.append(i)
    if not keep:
        return stats
    keep_arr = np.array(keep)
    legal2 = masks[m + keep_arr, act_arr[keep_arr]] != 0
    # copy 1 of every kept pair, copy 2 where the action is legal in it: one batch
    idx = np.concatenate([keep_arr, m + keep_arr[legal2]])
    sel = np.concatenate([keep_arr, keep_arr[legal2]])
    after, obs, vmask = _step_and_view(game, before[idx], actor_arr[sel], act_arr[sel], view_arr[sel])
    k = keep_arr.size
    at2 = np.full(k, -1)
    at2[legal2] = k + np.arange(int(legal2.sum()))
    for j in range(k):
        i = int(keep_arr[j])
        if at2[j] >= 0 and not _differences(spec, after, obs, vmask, j, int(at2[j])):
            stats.compared += 1
            continue
        viewer = views[i]
        hid = hidden_slots(spec, firsts[i], viewer, rng, pool, samples=samples, extra=(seconds[i],))
        chain = _actor_goes_on(game, after[j], actors[i], viewer, rng, horizon)
        shown = _union(revealed_slots(spec, firsts[i], st, hid, viewer, rng, pool, samples)
                       for st in [after[j]] + [c[0] for c in chain])
        pinned = pin_cards(spec, seconds[i], shown, hid, rng)
        if pinned is None:
            stats.unpinned += 1
        elif at2[j] >= 0 and np.array_equal(pinned, seconds[i]):  # nothing to pin: the difference stands
            stats.compared += 1
            _timing_leak(spec, pool, stats, max_examples, firsts[i], after[j], after[at2[j]],
                         _differences(spec, after, obs, vmask, j, int(at2[j])), actors[i], acts[i], viewer,
                         origin[i], shown, False)
        else:
            _compare_pinned(game, stats, max_examples, firsts[i], pinned, actors[i], acts[i], viewer, origin[i],
                            (after[j], obs[j], vmask[j]), chain, shown)
    return stats


def _actor_goes_on(game: BatchGame, state: np.ndarray, actor: int, viewer: int, rng: np.random.Generator,
                   horizon: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
    """Copy 1 carried on while the actor, not the viewer, decides again and the viewer has no decision pending (a
    compound action, the rest of a turn): ``(state, viewer's observation, viewer's mask, the actor's move)`` after
    each of up to ``horizon`` random legal moves of the actor. The viewer cannot act on what it sees meanwhile, so
    cards revealed before its next decision may explain it."""
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
    cur = state
    one = np.array([actor], np.int32)
    for _ in range(horizon if actor != viewer else 0):
        if cur[H_STATUS] != LIVE or cur[H_TO_ACT] != actor or (int(cur[H_NEEDS]) >> viewer) & 1:
            break
        move = int(rng.choice(np.flatnonzero(_masks(game, cur[None], one)[0])))
        nxt, o, m = _step_and_view(game, cur[None], one, np.array([move], np.int32), np.array([viewer], np.int32))
        cur = nxt[0]
        out.append((cur, o[0], m[0], move))
    return out


def _union(lists: Any) -> list[tuple[int, int, int]]:
    seen: dict[tuple[int, int], int] = {}
    for items in lists:
        for p, s, c in items:
            seen.setdefault((p, s), c)
    return [(p, s, c) for (p, s), c in sorted(seen.items())]


def _compare_pinned(game: BatchGame, stats: TimingStats, max_examples: int, first: np.ndarray, pinned: np.ndarray,
                    actor: int, action: int, viewer: int, origin: int, one: tuple, chain: list, shown: list) -> None:
    """Step the pinned copy 2 and compare it with copy 1 (``one``: its state, the viewer's observation and mask after
    the step), then along copy 1's ``chain`` (the actor's further moves, while they are legal in copy 2)."""
    spec, pool = game.spec, game.pool
    both = np.stack([first, pinned])
    view = np.array([viewer, viewer], np.int32)
    seen = np.zeros((2, spec.obs_dim), dtype=spec.obs_dtype)
    game.kernels.batch_observe(both, pool.tables, view, seen)
    masks = _masks(game, both, np.array([actor, actor], np.int32))
    if check_conservation(spec, pinned[None])[0] or not np.array_equal(seen[0], seen[1]):
        stats.unpinned += 1  # the swap touched something V sees (a hidden slot taken for visible): no world of V's
        return
    if viewer == actor and not np.array_equal(masks[0], masks[1]):
        _mask_leak(spec, pool, stats, max_examples, first, masks[0], masks[1], actor, origin)
        return
    if masks[1, action] == 0:
        stats.illegal += 1
        return
    stats.compared += 1
    stats.pinned += 1
    steps = [(one, action)] + [((c[0], c[1], c[2]), c[3]) for c in chain]
    cur = pinned
    for (want, move) in steps:
        if _masks(game, cur[None], np.array([actor], np.int32))[0, move] == 0:
            return  # copy 1's next move is not open in copy 2 (the actor's own hidden cards): compared up to here
        got = _step_and_view(game, cur[None], np.array([actor], np.int32), np.array([move], np.int32),
                             np.array([viewer], np.int32))
        differs = _differences(spec, np.stack([want[0], got[0][0]]), np.stack([want[1], got[1][0]]),
                               np.stack([want[2], got[2][0]]), 0, 1)
        if differs:
            _timing_leak(spec, pool, stats, max_examples, first, want[0], got[0][0], differs, actor, action, viewer,
                         origin, shown, True)
            return
        cur = got[0][0]


def _mask_leak(spec: GameSpec, pool: Any, stats: TimingStats, max_examples: int, row: np.ndarray, mask1: np.ndarray,
               mask2: np.ndarray, actor: int, origin: int) -> None:
    diff = np.flatnonzero(mask1 != mask2)[:6]
    names = [spec.action_name(row, pool, actor, int(x)) for x in diff]
    stats.compared += 1
    stats.leaks += 1
    _example(stats, max_examples, f"player_{actor}'s legal actions depend on what it cannot see (actions {names} "
             f"differ after a re-deal) in game {origin}:\n{spec.render(row, pool, actor)}")


def _timing_leak(spec: GameSpec, pool: Any, stats: TimingStats, max_examples: int, row: np.ndarray,
                 after1: np.ndarray, after2: np.ndarray, differs: list, actor: int, action: int, viewer: int,
                 origin: int, shown: list, pinned: bool) -> None:
    stats.leaks += 1
    if len(stats.examples) >= max_examples:
        return
    what = spec.action_name(row, pool, actor, action)
    header = [i for _, i in TIMING_FIELDS]
    if shown:
        names = [_card_name(pool, c) for _, _, c in shown]
        told = (f"; the step revealed {len(shown)} card(s) to player_{viewer} in copy 1 ({', '.join(names)}), "
                f"{'pinned in copy 2' if pinned else 'the same in copy 2'}")
    else:
        told = f"; the step revealed no card to player_{viewer} in copy 1"
    _example(stats, max_examples,
             f"after player_{actor} plays {what!r} in game {origin}, {'; '.join(differs)} differ between two deals "
             f"that player_{viewer} cannot tell apart{told}. Header {[n for n, _ in TIMING_FIELDS]}: copy 1 "
             f"{after1[header].tolist()}, copy 2 {after2[header].tolist()}.\nBefore the step, as player_{viewer} "
             f"sees it:\n{spec.render(row, pool, viewer)}")


def _card_name(pool: Any, card: int) -> str:
    try:
        return str(pool.cards[card]["name"])
    except (AttributeError, IndexError, KeyError, TypeError):
        return f"card {card}"


def _masks(game: BatchGame, states: np.ndarray, players: np.ndarray) -> np.ndarray:
    out = np.zeros((states.shape[0], game.spec.num_actions), dtype=np.int8)
    game.kernels.batch_mask(states, game.pool.tables, players, out)
    return out


def _step_and_view(game: BatchGame, before: np.ndarray, actors: np.ndarray, actions: np.ndarray,
                   viewers: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    spec, tables = game.spec, game.pool.tables
    after = np.ascontiguousarray(before).copy()
    errors = np.zeros(after.shape[0], dtype=np.int32)
    game.kernels.batch_step(after, tables, actors, actions, errors)
    if errors.any():
        raise InvariantError(f"{spec.name}: a legal action was refused by the step kernel in a timing pair")
    obs = np.zeros((after.shape[0], spec.obs_dim), dtype=spec.obs_dtype)
    game.kernels.batch_observe(after, tables, viewers, obs)
    return after, obs, _masks(game, after, viewers)


def _differences(spec: GameSpec, after: np.ndarray, obs: np.ndarray, vmask: np.ndarray, i1: int, i2: int) -> list:
    differs = [f"{name} ({after[i1, at]} vs {after[i2, at]})" for name, at in TIMING_FIELDS
               if after[i1, at] != after[i2, at]]
    if not np.array_equal(obs[i1], obs[i2]):
        diff = np.flatnonzero(obs[i1] != obs[i2])
        differs.append(f"observation slices {sorted({_slice_name(spec, int(d)) for d in diff})}")
    if not np.array_equal(vmask[i1], vmask[i2]):
        differs.append("legal actions")
    return differs


def _slot_zone(spec: GameSpec) -> np.ndarray:
    return np.concatenate([np.full(z.shape[1], k) for k, z in enumerate(spec.state_layout.zones)])


def revealed_slots(spec: GameSpec, before: np.ndarray, after: np.ndarray, hidden_before: np.ndarray, viewer: int,
                   rng: np.random.Generator, pool: Any, samples: int = 3) -> list[tuple[int, int, int]]:
    """What the step from ``before`` to ``after`` revealed to ``viewer``: ``(owner, slot, card)``, in slot order, for
    every card instance that was in a slot hidden from the viewer before (``hidden_before``, ``bool[2, S]``, slots as
    in :func:`slot_cards`) and is in a slot visible to it after; ``slot`` is where the instance was *before* the step
    and ``card`` its card id."""
    vis_after = ~hidden_slots(spec, after, viewer, rng, pool, samples=samples)
    inst_b, cards_b = slot_cards(spec, before)
    inst_a, _ = slot_cards(spec, after)
    out = []
    for p in (0, 1):
        now_seen = inst_a[0, p][vis_after[p] & (inst_a[0, p] >= 0)]
        hit = hidden_before[p] & (inst_b[0, p] >= 0) & np.isin(inst_b[0, p], now_seen)
        out += [(p, int(s), int(cards_b[0, p, s])) for s in np.flatnonzero(hit)]
    return out


def pin_cards(spec: GameSpec, row: np.ndarray, pins: Sequence[tuple[int, int, int]], hidden: np.ndarray,
              rng: np.random.Generator) -> np.ndarray | None:
    """A copy of ``row`` in which every slot ``(owner, slot, card)`` of ``pins`` holds ``card``; None when one cannot.

    The card identities (``deck_list`` entries) of the instance in the slot and of an instance holding ``card`` in
    another slot of the same owner that is hidden (``hidden``, ``bool[2, S]``) and does not already hold its own
    pinned card are swapped, as ``hide`` itself re-deals: positions and per-instance state stay. The other slot is taken from the same zone if it can be,
    else from a zone named ``*deck*`` or ``*hand*`` (any card may lie there); a card found only in another zone (a
    face-down card that must be of some kind) is not moved, and the copy is not made."""
    out = row.copy()
    inst, cards = slot_cards(spec, out)
    inst, cards = inst[0], cards[0]
    zone = _slot_zone(spec)
    anywhere = np.zeros(zone.size, dtype=bool)
    for start, stop, _ in _hideable_zones(spec):
        anywhere[start:stop] = True
    want = np.full(hidden.shape, -1, dtype=np.int64)
    for p, s, card in pins:
        want[p, s] = card
    _, dl_at = _slot_index(spec)
    for p, s, card in pins:
        if cards[p, s] == card:
            continue
        # a donor may be a pinned slot not yet given its own card (it gets it later), never one that has it
        donors = np.flatnonzero(hidden[p] & (cards[p] != want[p]) & (cards[p] == card) & (inst[p] >= 0))
        same = donors[zone[donors] == zone[s]]
        donors = same if same.size else donors[anywhere[donors]]
        if donors.size == 0 or inst[p, s] < 0:
            return None
        d = int(rng.choice(donors))
        a, b = dl_at + p * spec.max_deck + inst[p, s], dl_at + p * spec.max_deck + inst[p, d]
        out[a], out[b] = out[b], out[a]
        cards[p, s], cards[p, d] = card, cards[p, s]
    return out


def _example(stats: TimingStats, limit: int, text: str) -> None:
    if len(stats.examples) < limit:
        stats.examples.append(text)


# ----- observation completeness ------------------------------------------------------------------------------------
#: state fields that hide() leaves as they are but that no player knows, or that cannot matter to a decision, in
#: every game (the header every layout starts with); a game adds its own in ``spec.extra["complete_ignore"]``
#: (``{field: reason}``) and a call in ``check_game(complete_ignore=...)``
UNKNOWABLE_FIELDS = {
    "rng_key_lo": "the chance stream: no player knows the random key, which decides every later shuffle and draw",
    "rng_key_hi": "the chance stream (as rng_key_lo)",
    "rng_counter": "the chance stream (as rng_key_lo)",
    "decisions": "the decision counter only feeds the safety cap DECISION_CAP, far beyond any game's length; the "
                 "documented turn cap reads the turn field",
}


#: games the completeness check does not run on by default yet, and why (docs/CHECKS.md, "Observation completeness")
COMPLETENESS_NOT_YET: dict[str, str] = {}


def completeness_ignored(spec: GameSpec, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """``{field: reason}``: the state fields the completeness check leaves alone. The core's
    :data:`UNKNOWABLE_FIELDS`, every ``<zone>_count`` field of a zone (redundant with the zone's slots: changed alone
    it is no state that can occur; the zone itself is changed instead), the game's own list
    (``spec.extra["complete_ignore"]``) and the call's ``extra``."""
    names = {f.name for f in spec.state_layout.fields}
    out = {k: v for k, v in UNKNOWABLE_FIELDS.items() if k in names}
    for z in spec.state_layout.zones:
        if f"{z.name}_count" in names:
            out[f"{z.name}_count"] = f"redundant with the slots of zone {z.name!r}"
    for source in (spec.extra.get("complete_ignore") if isinstance(spec.extra, Mapping) else None, extra):
        for name, reason in (source or {}).items():
            if name not in names:
                raise ValueError(f"{spec.name}: complete_ignore names {name!r}, which is no state field")
            if not str(reason).strip():
                raise ValueError(f"{spec.name}: complete_ignore[{name!r}] needs a reason")
            out[name] = str(reason)
    return out


def hidden_columns(spec: GameSpec, row: np.ndarray, viewer: int, rng: np.random.Generator, pool: Any,
                   samples: int = 3) -> np.ndarray:
    """``bool[W]``: the state columns ``spec.hide(row, viewer)`` changes in at least one of ``samples`` re-deals:
    what ``viewer`` cannot know. A hidden column whose every re-deal happened to draw the value it had is taken for
    known: among identical cards that can only hide a failure, but a constructed change of such a column (the
    completeness check) that the rules reveal later reads as a missing field. relics' unshown leader card, re-dealt
    among 4 leader cards, was kept by 3 re-deals in 1 of 64 states (a false failure in CI, 2026-11-30), so the
    completeness check takes 12 (1 in 17 million)."""
    out = np.zeros(row.shape[0], dtype=bool)
    for _ in range(samples):
        out |= spec.hide(row, viewer, rng, pool) != row
    return out


def _position(spec: GameSpec, column: int) -> str:
    name, at = spec.state_layout.locate(int(column))
    shape = spec.state_layout[name].shape
    return f"{name}{[int(i) for i in np.unravel_index(at, shape)]}" if shape else name


def _mutants(spec: GameSpec, states: np.ndarray, known: np.ndarray, ignored: Mapping[str, str],
             rng: np.random.Generator) -> tuple[list[int], list[np.ndarray], list[str], list[str]]:
    """One change per (sampled state, state field) of something the actor knows, to a value that occurs: a field's
    known column set to the value another sampled state has there (a ``deck_list`` entry: to another card some
    sampled deck holds, since the games of one run often share their decks); a zone slot swapped with another known slot of
    the same owner holding another card (both cards stay in play: a state that can occur). A per-instance field
    (shape ``(2, deck size)``) is changed only for an instance whose card the actor knows, to a value it has in a
    sample where it lies in the same zone. Returns the sample index, the changed row, the field and its
    position."""
    layout = spec.state_layout
    dl_at = layout.offset("deck_list")
    md = spec.max_deck
    zone_cols, _ = _slot_index(spec)
    zone_of = np.full(layout.size, -1, dtype=np.int64)
    for s in range(zone_cols.shape[1]):
        zone_of[zone_cols[0, s]], zone_of[zone_cols[1, s]] = 0, 1
    # the zone each instance is in, per sample: a per-instance value occurs where the instance is in that zone (a
    # hand card carries no damage, so damage taken from a sample where it was in play is no state that occurs)
    inst_zone = np.full((states.shape[0], 2, md), -1, dtype=np.int64)
    all_inst, _ = slot_cards(spec, states)
    slot_zone = _slot_zone(spec)
    for p in (0, 1):
        k_idx, s_idx = np.nonzero(all_inst[:, p] >= 0)
        inst_zone[k_idx, p, all_inst[k_idx, p, s_idx]] = slot_zone[s_idx]
    origin, rows, names, where = [], [], [], []
    for k in range(states.shape[0]):
        row = states[k]
        inst_known = known[k, dl_at:dl_at + 2 * md].reshape(2, md)
        for f in layout.fields:
            if f.name in ignored:
                continue
            cols = np.arange(layout.offset(f.name), layout.offset(f.name) + f.size)
            cols = cols[known[k, cols]]
            if f.zone:
                owner = zone_of[cols]
                inst = row[cols]
                ok = (inst >= 0) & inst_known[owner, np.clip(inst, 0, md - 1)]
                cols, owner, inst = cols[ok], owner[ok], inst[ok]
                if not cols.size:
                    continue
                j = int(rng.integers(cols.size))
                c, p = int(cols[j]), int(owner[j])
                others = zone_cols[p][(row[zone_cols[p]] >= 0) & known[k, zone_cols[p]]]
                others = others[inst_known[p, np.clip(row[others], 0, md - 1)]]
                others = others[row[dl_at + p * md + row[others]] != row[dl_at + p * md + row[c]]]
                if not others.size:
                    continue
                d = int(rng.choice(others))
                mutant = row.copy()
                mutant[c], mutant[d] = row[d], row[c]
            else:
                if f.name == "deck_list":  # another card in that deck slot: any card the samples' decks hold
                    cards = np.unique(states[:, cols])
                    cols = cols[(cards[None, :] != row[cols][:, None]).any(axis=1)]
                    if not cols.size:
                        continue
                    c = int(cols[rng.integers(cols.size)])
                    mutant = row.copy()
                    mutant[c] = int(rng.choice(cards[cards != row[c]]))
                    origin.append(k)
                    rows.append(mutant)
                    names.append(f.name)
                    where.append(_position(spec, c))
                    continue
                alt = states[:, cols] != row[cols]
                if f.shape == (2, md):  # per instance: only instances whose card the actor knows, values from
                    at = cols - layout.offset(f.name)  # samples where the instance is in the same zone
                    alt = alt[:, inst_known.reshape(-1)[at]]
                    cols, at = cols[inst_known.reshape(-1)[at]], at[inst_known.reshape(-1)[at]]
                    flat = inst_zone.reshape(states.shape[0], -1)
                    alt &= flat[:, at] == flat[k, at]
                cols, alt = cols[alt.any(axis=0)], alt[:, alt.any(axis=0)]
                if not cols.size:
                    continue
                j = int(rng.integers(cols.size))
                c = int(cols[j])
                mutant = row.copy()
                mutant[c] = states[int(rng.choice(np.flatnonzero(alt[:, j]))), c]
            origin.append(k)
            rows.append(mutant)
            names.append(f.name)
            where.append(_position(spec, c))
    return origin, rows, names, where


def check_completeness(game: BatchGame, states: np.ndarray, rng: np.random.Generator, stats: CompletenessStats,
                       ignore: Mapping[str, str] | None = None, horizon: int = 12, samples: int = 12,
                       max_examples: int = 3, chunk: int = 256) -> CompletenessStats:
    """The observation-completeness check, the counterpart of the leak check, on sampled live ``states`` (the
    viewer of each is its player to act). What a player knows is the state less what ``spec.hide`` re-deals for
    it (:func:`hidden_columns`), less the fields of :func:`completeness_ignored`.

    1. **Natural collisions.** Wherever two sampled states give the actor the same observation and mask, the columns
       both call known must be equal, and the hidden columns of each field must hold the same values once sorted
       (``hide`` permutes them); a difference is a failure (``collision_diffs``).
    2. **Constructed pairs.** From every sampled state, for every state field, one thing the actor knows is changed
       to a value that occurs (:func:`_mutants`). The change must show at once in the actor's observation, its mask,
       or who decides (``shown``); if it does not, both rows are played on with the same random legal moves for up to
       ``horizon`` decisions, and if what the actor sees (its observation and mask, who decides, the game's end) or
       any actor's legal moves ever differ, the observation lacked something the actor knew and that matters: a
       failure (``missing``), reported by field. A change that nothing ever shows is ``inert`` (a stale field, a
       card that cannot matter here): a field need only be shown where it matters.
    """
    spec, pool, tables = game.spec, game.pool, game.pool.tables
    ignored = completeness_ignored(spec, ignore)
    states = np.ascontiguousarray(states)
    n = states.shape[0]
    if not n:
        return stats
    viewers = states[:, H_TO_ACT].astype(np.int32)
    known = np.stack([~hidden_columns(spec, states[k], int(viewers[k]), rng, pool, samples) for k in range(n)])
    stats.samples += n
    obs = np.zeros((n, spec.obs_dim), dtype=spec.obs_dtype)
    game.kernels.batch_observe(states, tables, viewers, obs)
    masks = _masks(game, states, viewers)
    ign_cols = np.zeros(spec.state_layout.size, dtype=bool)
    for name in ignored:
        ign_cols[spec.state_layout.slice(name)] = True
    groups: dict[bytes, int] = {}
    for k in range(n):
        key = bytes([viewers[k]]) + obs[k].tobytes() + masks[k].tobytes()
        first = groups.setdefault(key, k)
        if first == k:
            continue
        stats.collisions += 1
        both = known[first] & known[k] & ~ign_cols
        differ = set(_position(spec, c) for c in np.flatnonzero(both & (states[first] != states[k])))
        hidden = ~(known[first] & known[k]) & ~ign_cols
        for f in spec.state_layout.fields:
            cols = np.flatnonzero(hidden[spec.state_layout.slice(f.name)]) + spec.state_layout.offset(f.name)
            if cols.size and not np.array_equal(np.sort(states[first, cols]), np.sort(states[k, cols])):
                differ.add(f"{f.name} (hidden values)")
        if differ:
            stats.collision_diffs += 1
            _example(stats, max_examples, f"two states give player_{viewers[k]} the same observation and mask but "
                     f"differ in what it can know: {sorted(differ)[:8]}:\n{spec.render(states[k], pool, viewers[k])}")
    origin, rows, names, where = _mutants(spec, states, known, ignored, rng)
    for name in names:
        stats.fields.setdefault(name, [0, 0])[0] += 1
    stats.mutants += len(rows)
    for at in range(0, len(rows), chunk):
        idx = np.array(origin[at:at + chunk])
        _roll_pairs(game, states[idx], np.stack(rows[at:at + chunk]), viewers[idx], rng, stats, horizon,
                    names[at:at + chunk], where[at:at + chunk], max_examples)
    return stats


def _roll_pairs(game: BatchGame, first: np.ndarray, second: np.ndarray, viewers: np.ndarray, rng: np.random.Generator,
                stats: CompletenessStats, horizon: int, names: list[str], where: list[str], max_examples: int) -> None:
    """Constructed pairs: ``first[i]`` (a sampled state) and ``second[i]`` (it with one known thing changed)."""
    spec, tables = game.spec, game.pool.tables
    m = first.shape[0]
    header = [i for _, i in TIMING_FIELDS]
    # a changed row that breaks conservation, or that the row check a kernel's input passes refuses (a pointer field,
    # such as a game's pending card, that no kernel can have left: spec.extra["check_rows"]), is no state to play
    checker = RowChecker(spec, len(game.pool))
    bad = (check_conservation(spec, second) != 0) | checker.bad_rows(second)
    second = np.where(bad[:, None], first, second)  # no kernel reads a refused row: its sampled state stands in
    both = np.ascontiguousarray(np.concatenate([first, second]))
    view2 = np.concatenate([viewers, viewers])

    def seen(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        o = np.zeros((rows.shape[0], spec.obs_dim), dtype=spec.obs_dtype)
        game.kernels.batch_observe(rows, tables, view2, o)
        return o, _masks(game, rows, view2)

    o, mk = seen(both)
    now = (o[:m] != o[m:]).any(axis=1) | (mk[:m] != mk[m:]).any(axis=1) | (both[:m, header] != both[m:, header]).any(1)
    outcome = np.where(bad, 3, np.where(now, 1, 0))  # 0 open, 1 shown, 2 missing, 3 invalid
    steps = np.full(m, -1)
    for t in range(horizon):
        open_ = (outcome == 0) & (both[:m, H_STATUS] == LIVE)
        if not open_.any():
            break
        actors = np.where(open_, both[:m, H_TO_ACT], -1).astype(np.int32)
        am = _masks(game, both, np.concatenate([actors, actors]))
        diverged = open_ & (am[:m] != am[m:]).any(axis=1)
        outcome[diverged], steps[diverged] = 2, t
        go = open_ & ~diverged
        moves = np.argmax((rng.random(am[:m].shape) + 1.0) * (am[:m] != 0), axis=1).astype(np.int32)
        who = np.where(go, actors, -1).astype(np.int32)
        errors = np.zeros(2 * m, dtype=np.int32)
        game.kernels.batch_step(both, tables, np.concatenate([who, who]), np.concatenate([moves, moves]), errors)
        refused = go & ((errors[:m] != 0) | (errors[m:] != 0))
        outcome[refused] = 3
        o, mk = seen(both)
        differ = go & ~refused & ((o[:m] != o[m:]).any(axis=1) | (mk[:m] != mk[m:]).any(axis=1)
                                  | (both[:m, header] != both[m:, header]).any(axis=1))
        outcome[differ], steps[differ] = 2, t + 1
    stats.shown += int((outcome == 1).sum())
    stats.invalid += int((outcome == 3).sum())
    stats.inert += int((outcome == 0).sum())
    for i in np.flatnonzero(outcome == 2):
        stats.missing += 1
        stats.fields[names[i]][1] += 1
        _example(stats, max_examples, f"player_{viewers[i]}'s observation and mask are the same when {where[i]} "
                 f"changes, but what it sees differs {steps[i]} decision(s) later: the observation lacks "
                 f"{names[i]!r}. The "
                 f"state as player_{viewers[i]} sees it:\n{spec.render(first[i], game.pool, int(viewers[i]))}")


# ----- honest pilots -----------------------------------------------------------------------------------------------
def check_honest(game: BatchGame, agent: Any, states: np.ndarray, rng: np.random.Generator, stats: HonestStats,
                 redeals: int = 2, max_examples: int = 3) -> HonestStats:
    """The honest-pilot check on sampled live ``states``: ``agent`` decides for the player to act in each, through
    the agent API exactly as every caller hands it a state (the observation, the mask and :func:`seat_view` rows),
    and again in ``redeals`` re-deals ``spec.hide(state, actor)``. The decision must be the same: a pilot whose
    choice changes when only cards its seat cannot see change reads what it may not know."""
    from .core.seat_view import seat_view

    spec, pool, tables = game.spec, game.pool, game.pool.tables
    states = np.ascontiguousarray(states)
    if not states.shape[0]:
        return stats
    actors = states[:, H_TO_ACT].astype(np.int32)
    copies = [states] + [np.stack([spec.hide(states[k], int(actors[k]), rng, pool) for k in range(states.shape[0])])
                         for _ in range(redeals)]
    choices = []
    for rows in copies:
        obs = np.zeros((rows.shape[0], spec.obs_dim), dtype=spec.obs_dtype)
        game.kernels.batch_observe(rows, tables, actors, obs)
        choices.append(np.asarray(agent.act(obs, _masks(game, rows, actors), seat_view(spec, rows, actors),
                                            actors.copy())))
    stats.positions += states.shape[0]
    for r in range(redeals):
        same_row = (copies[r + 1] == states).all(axis=1)
        stats.unchanged += int(same_row.sum())
        stats.redeals += int((~same_row).sum())
        for k in np.flatnonzero(~same_row & (choices[r + 1] != choices[0])):
            stats.changed += 1
            a0 = spec.action_name(states[k], pool, int(actors[k]), int(choices[0][k]))
            a1 = spec.action_name(copies[r + 1][k], pool, int(actors[k]), int(choices[r + 1][k]))
            _example(stats, max_examples, f"the {_pilot_name(agent)} pilot of player_{actors[k]} chose {a0!r}, and "
                     f"{a1!r} after a re-deal of what it cannot see:\n{spec.render(states[k], pool, int(actors[k]))}")
    return stats


# ----- single env == batch -----------------------------------------------------------------------------------------
def check_alignment(spec: GameSpec, decks: Any, seed: int, actions: list[np.ndarray], final: np.ndarray,
                    rows: int, pool: Any = None) -> int:
    """Replay the recorded batch actions of the first rows in the single AEC env; states must match."""
    env = CardGameEnv(spec, decks=decks, pool=pool)
    for r in range(rows):
        env.reset(seed=seed + r)
        for step_actions in actions:
            a = int(step_actions[r])
            if a < 0:
                break
            env.step(a)
        if not np.array_equal(env.row, final[r]):
            diff = np.flatnonzero(env.row != final[r])
            fields = sorted({_state_field(spec, int(d)) for d in diff})
            raise InvariantError(f"{spec.name}: single env and batch core disagree on game {r} (fields {fields})")
    return rows


def _state_field(spec: GameSpec, index: int) -> str:
    layout = spec.state_layout
    for f in layout.fields:
        s = layout.slice(f.name)
        if s.start <= index < s.stop:
            return f.name
    return str(index)


# ----- the checker -------------------------------------------------------------------------------------------------
def _split_games(num_games: int | Mapping[str, int], names: list[str], requested: list[str]) -> dict[str, int]:
    if isinstance(num_games, Mapping):
        unknown = set(num_games) - set(requested)
        if unknown:
            raise ValueError(f"num_games names unknown pairings {sorted(unknown)}; pairings: {requested}")
        return {n: int(num_games.get(n, 0)) for n in names}
    total = int(num_games)
    if total < 1:
        raise ValueError(f"num_games must be positive, got {num_games!r}")
    base, extra = divmod(total, len(names))
    return {n: base + (1 if i < extra else 0) for i, n in enumerate(names)}


def _allowance(allow: float | Mapping[str, float] | None, name: str, seats: tuple[Any, Any],
               documented: Any = None) -> float:
    for source in (allow, documented):  # the call first, then the game's own spec.allow_truncation
        if isinstance(source, Mapping):
            if name in source:
                return float(source[name])
        elif source is not None:
            return float(source)
    # default: aimless random play may run into the documented cap; competent play may not
    return 1.0 if all(_pilot_name(s) == "random" for s in seats) else 0.0


def check_game(
    game: str | GameSpec,
    num_games: int | Mapping[str, int] = 1000,
    seed: int = 0,
    decks: Any = None,
    batch_size: int = 2000,
    max_steps: int | None = None,
    align_games: int = 4,
    hidden_every: int = 7,
    pool: Any = None,
    pilots: Sequence[Any] = ("random", "heuristic"),
    allow_truncation: float | Mapping[str, float] | None = None,
    timing_every: int = 3,
    timing_rows: int = 8,
    min_timing_pairs: int = 50,
    timing: bool = True,
    replay_games: int = 256,
    completeness: bool | None = None,
    complete_every: int = 11,
    complete_rows: int = 3,
    complete_ignore: Mapping[str, str] | None = None,
    complete_horizon: int = 12,
    honest: bool = True,
) -> CheckReport:
    """Play every pairing of ``pilots`` and check every invariant; raises :class:`InvariantError` on a breach.

    ``num_games``: all games, split evenly over the pairings, or a mapping ``{pairing name: games}`` such as
    ``{"random-random": 5000, "random-heuristic": 200, "heuristic-heuristic": 200}`` (see :func:`pairing_name`).
    ``pool``: a card pool (``spec.load_pool([...])``) to play instead of the game's own; ``decks`` must be built
    from it. A pilot the game does not have (a spec without a heuristic) is dropped with a note in the report.
    ``allow_truncation``: the truncation rate a pairing may reach, one number for all or a mapping by pairing name;
    by default 0 for every pairing with a non-random pilot (a truncation under competent play is a defect unless a
    documented cap explains it, and then the call says so) and unlimited for random vs random (reported only). A
    game may document its own allowance in ``spec.allow_truncation`` (same forms), used where the call
    gives none for a pairing.
    The static hidden-information check runs every ``hidden_every`` decisions and the decision-timing leak check
    (:func:`check_timing`) every ``timing_every`` decisions on ``timing_rows`` live games, both in the first batch of
    every pairing; the timing check fails on any leak, and when fewer than ``min_timing_pairs`` pairs were compared
    over the whole run although ``hide`` had something to re-deal. Seed replay and single env == batch are checked on
    the first batch of the first pairing (replay: its first ``replay_games`` games, played twice on their own).
    ``completeness``: the observation-completeness check (:func:`check_completeness`; default: on, except for the
    games of :data:`COMPLETENESS_NOT_YET`, where True runs it anyway, at the risk named there) on ``complete_rows``
    live games sampled every ``complete_every`` decisions of the first batch of every pairing (random and heuristic play), with
    the game's ignored fields plus ``complete_ignore`` (``{field: reason}``); ``honest``: the honest-pilot check
    (:func:`check_honest`) of every heuristic pilot on the positions sampled from the pairings it plays in.
    """
    spec = get_spec(game)
    report = CheckReport(spec.name)
    if completeness is None:
        completeness = spec.name not in COMPLETENESS_NOT_YET
        if not completeness:
            report.notes.append(f"observation completeness not checked: {COMPLETENESS_NOT_YET[spec.name]}")
    max_steps = max_steps or 100_000
    if pool is not None and not hasattr(pool, "tables"):
        raise ValueError(f"pool must be a loaded card pool (spec.load_pool([...])), got {pool!r}")
    if isinstance(pilots, str) or hasattr(pilots, "act"):
        pilots = (pilots,)
    chosen = []
    for p in pilots:
        try:
            make_pilot(spec, p, seed, pool)
        except Exception as exc:  # noqa: BLE001 - a game without that agent: say so, play the others
            report.notes.append(f"pilot {_pilot_name(p)!r} dropped: {exc}")
            continue
        chosen.append(p)
    if not chosen:
        chosen = ["random"]
    pairs = pairings_of(chosen)
    names = [pairing_name(a, b) for a, b in pairs]
    requested = [pairing_name(a, b) for a, b in pairings_of(pilots)]
    counts = _split_games(num_games, names, requested)
    first = True
    for (pa, pb), name in zip(pairs, names):
        stats = PairingStats(name, (_pilot_name(pa), _pilot_name(pb)),
                             allowed_truncation=_allowance(allow_truncation, name, (pa, pb),
                                                           spec.allow_truncation))
        report.pairings[name] = stats
        started = time.perf_counter()
        done = 0
        chunk = 0
        while done < counts[name]:
            n = min(batch_size, counts[name] - done)
            base_seed = seed + done
            agent_seed = seed * 7919 + chunk + 104729 * len(report.pairings)
            agent_a = make_pilot(spec, pa, agent_seed, pool)
            agent_b = agent_a if pa == pb else make_pilot(spec, pb, agent_seed + 1, pool)
            batch = BatchGame(spec, n, decks=decks, seed=base_seed, pool=pool)
            decisions_before = report.decisions
            sampled: list[np.ndarray] = []
            final, recorded = play_pilots(
                batch, Seats((agent_a, agent_b), n), base_seed, agent_seed=agent_seed, max_steps=max_steps,
                record_rows=align_games if first else 0, report=report,
                hidden_every=hidden_every if chunk == 0 else 0,
                timing_every=timing_every if (chunk == 0 and timing) else 0, timing_rows=timing_rows,
                sample_every=complete_every if chunk == 0 and (completeness or honest) else 0,
                sample_rows=complete_rows, samples=sampled)
            if sampled:
                positions = np.stack(sampled)
                check_rng = np.random.default_rng(agent_seed + 5)
                if completeness:
                    check_completeness(batch, positions, check_rng, report.completeness, complete_ignore,
                                       horizon=complete_horizon)
                for pilot in dict.fromkeys((pa, pb)):
                    if honest and _pilot_name(pilot) == "heuristic":
                        check_honest(batch, make_pilot(spec, pilot, agent_seed, pool), positions, check_rng,
                                     report.honest)
            stats.decisions += report.decisions - decisions_before
            stats.games += n
            stats.terminated += int((final[:, H_STATUS] == TERMINATED).sum())
            stats.truncated += int((final[:, H_STATUS] == TRUNCATED).sum())
            stats.max_turn = max(stats.max_turn, int(final[:, H_TURN].max()))
            if first:
                _check_replay(spec, min(n, replay_games), decks, pool, base_seed, agent_seed, max_steps, pa, pb)
                report.aligned_games = check_alignment(spec, decks, base_seed, recorded, final, min(align_games, n),
                                                       pool=pool)
                first = False
            done += n
            chunk += 1
        stats.seconds = time.perf_counter() - started
        report.games += stats.games
        report.terminated += stats.terminated
        report.truncated += stats.truncated
    _verdicts(spec, report, timing, min_timing_pairs)
    _pilot_verdicts(spec, report)
    return report


def _pilot_verdicts(spec: GameSpec, report: CheckReport) -> None:
    c, h = report.completeness, report.honest
    if c.missing or c.collision_diffs:
        raise InvariantError(f"{spec.name}: the observation lacks what the player to act knows: {c.missing} of "
                             f"{c.mutants} changes of a known field were never shown and changed what it saw later "
                             f"(by field: {c.missing_fields()}); {c.collision_diffs} of {c.collisions} natural "
                             f"collisions differ. First:\n" + "\n\n".join(c.examples[:1]) + f"\n{report.summary()}")
    if h.changed:
        raise InvariantError(f"{spec.name}: a pilot's decision depends on cards its seat cannot see ({h.changed} of "
                             f"{h.redeals} re-deals). First:\n" + "\n\n".join(h.examples[:1])
                             + f"\n{report.summary()}")


def _check_replay(spec: GameSpec, n: int, decks: Any, pool: Any, base_seed: int, agent_seed: int, max_steps: int,
                  pa: Any, pb: Any) -> None:
    """``n`` games played twice from the same seeds by freshly made pilots with the same seeds end identically."""
    finals = []
    for _ in range(2):
        agent_a = make_pilot(spec, pa, agent_seed, pool)
        agent_b = agent_a if pa == pb else make_pilot(spec, pb, agent_seed + 1, pool)
        replay = BatchGame(spec, n, decks=decks, seed=base_seed, pool=pool)
        final, _ = play_pilots(replay, Seats((agent_a, agent_b), n), base_seed, agent_seed=agent_seed,
                               max_steps=max_steps, check=False)
        finals.append(final)
    if not np.array_equal(finals[0], finals[1]):
        raise InvariantError(f"{spec.name}: the same seeds and actions did not replay the same games")


def _verdicts(spec: GameSpec, report: CheckReport, timing: bool, min_timing_pairs: int) -> None:
    if report.hidden_checks and not report.hidden_changed:
        if report.hidden_possible:
            raise InvariantError(f"{spec.name}: hide() never changed a state although {report.hidden_possible} "
                                 f"sampled states had different cards in a hidden zone: hide() is broken")
        report.notes.append("nothing to hide: every sampled hidden zone held copies of one card, so the "
                            "hidden-information and timing checks had nothing to test")
    over = [p for p in report.pairings.values() if p.truncation_rate > p.allowed_truncation]
    if over:
        text = ", ".join(f"{p.name} {p.truncated}/{p.games} ({100 * p.truncation_rate:.2f}%, allowed "
                         f"{100 * p.allowed_truncation:.2f}%)" for p in over)
        raise InvariantError(f"{spec.name}: games truncated beyond the allowed rate: {text}; a truncation under "
                             f"competent play is a defect unless a documented cap explains it (allow_truncation=)\n"
                             f"{report.summary()}")
    t = report.timing
    if timing and t.leaks:
        raise InvariantError(f"{spec.name}: decision-timing leak in {t.leaks} of {t.compared} compared pairs "
                             f"({t.pairs} sampled). First:\n" + "\n\n".join(t.examples[:1]) + f"\n{report.summary()}")
    if timing and t.compared < min_timing_pairs and (t.pairs > t.unchanged or report.hidden_possible):
        raise InvariantError(f"{spec.name}: the decision-timing check compared only {t.compared} pairs (at least "
                             f"{min_timing_pairs} needed to mean anything; {t.unpinned} revealed card not pinnable, "
                             f"{t.illegal} illegal after the re-deal, {t.unchanged} unchanged); play more games")


__all__ = [
    "check_alignment", "Seats", "check_completeness", "COMPLETENESS_NOT_YET", "check_conservation", "check_game", "decide_by_seat", "check_honest", "check_timing",
    "CheckReport", "CompletenessStats", "completeness_ignored", "hidden_columns", "hidden_slots", "HonestStats",
    "InvariantError", "make_pilot", "pairing_name", "pairings_of", "PairingStats", "pin_cards", "play_pilots",
    "play_random", "random_endings", "recorded_observations", "revealed_slots", "slot_cards", "something_to_hide", "TIMING_FIELDS",
    "TimingStats", "zone_geometry"
]
