"""Replays: one JSON format for every game, written by ``cardenvs play``, the envs, BatchGame rows and ``eval``.

A replay holds what it takes to play the game again, and what it should come to:

``format``          this file format's version (:data:`REPLAY_FORMAT`)
``game``            the ruleset's registry name; ``rules_version`` its :attr:`GameSpec.version` when recorded
``seed``            the game's kernel seed (``BatchGame.seeds[row]``): with the decks it fixes every shuffle
``decks``           two ``{"name", "cards"}``: the full deck lists, card names in deck order (order matters: it
                    is what the seeded shuffle starts from)
``pool``            the card pool files, or null for the game's shipped pool
``decisions``       every decision in order: ``{"seat", "action", "name"}`` (the name as the deciding player saw it;
                    action -1 is a resignation: that seat loses at once)
``result``          ``{"status": "terminated" | "truncated" | "live", "winner": -1 | 0 | 1 | 2, "decisions": n}``
``meta``            free-form: who piloted each seat, when, the command

:func:`simulate` replays the decisions on the batch core and checks each against the rules and the final result
against ``result``; a replay recorded under another rules version is refused with one line, as is one whose
decisions are no longer legal or whose result no longer matches.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from .agents import make_agent
from .batch import BatchGame, get_spec
from .decks import Deck
from .errors import CardenvsError
from .header import H_NEEDS, H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE, TERMINATED, TRUNCATED
from .seat_view import agent_states
from .seeds import seed_bits
from .rows import forfeit_game
from .spec import GameSpec

REPLAY_FORMAT = 1
#: the action id that records a resignation (``cardenvs play``'s quit)
RESIGN = -1
#: replays larger than this are refused before parsing (a full game is a few hundred KB at most)
MAX_REPLAY_BYTES = 64 * 1024 * 1024
#: more decisions than any game allows (the longest games take a few thousand); a longer list is refused unread
MAX_REPLAY_DECISIONS = 1_000_000
#: deck names, card names and pool paths longer than this are refused (the loaders' own limits are far below)
MAX_REPLAY_TEXT = 4096
STATUS_NAMES = {LIVE: "live", TERMINATED: "terminated", TRUNCATED: "truncated"}


class ReplayError(CardenvsError):
    """A replay file that cannot be read, or that no longer replays under the installed rules."""


@dataclass
class Replay:
    game: str
    rules_version: int
    seed: int
    decks: list[dict]
    decisions: list[dict] = field(default_factory=list)
    result: dict = field(default_factory=dict)
    pool: list[str] | None = None
    meta: dict = field(default_factory=dict)
    format: int = REPLAY_FORMAT

    # ----- files -------------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return asdict(self)

    def save(self, path: str | Path) -> Path:
        """Write the replay as JSON (to a temporary file first, so an interrupt never leaves half a file)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 would become the replay's mode: written as other files are
            with os.fdopen(fd, "w") as f:
                json.dump(self.to_dict(), f, indent=1)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    @classmethod
    def from_dict(cls, data: Any, where: str = "replay") -> "Replay":
        if not isinstance(data, dict):
            raise ReplayError(f"{where}: expected a JSON object, got {type(data).__name__}")
        if data.get("format") != REPLAY_FORMAT:
            raise ReplayError(f"{where}: replay format {data.get('format')!r} is not supported "
                              f"(this cardenvs reads format {REPLAY_FORMAT})")
        need = {"game": str, "rules_version": int, "seed": int, "decks": list, "decisions": list, "result": dict}
        for key, kind in need.items():
            value = data.get(key)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise ReplayError(f"{where}: field {key!r} must be {kind.__name__}, got {_short(value)}")
        if len(data["game"]) > 64:
            raise ReplayError(f"{where}: field 'game' is not a game name, got {_short(data['game'])}")
        if not -2 ** 63 <= data["seed"] < 2 ** 64:  # what a recorder writes: a kernel seed (int64) or a tournament's
            raise ReplayError(f"{where}: field 'seed' is out of range, got {_short(data['seed'])}")
        decks = data["decks"]
        if len(decks) != 2 or not all(isinstance(d, dict) and isinstance(d.get("cards"), list)
                                      and all(_text(c) for c in d["cards"]) for d in decks):
            raise ReplayError(f"{where}: 'decks' must be two objects with a 'cards' list of card names")
        if not all(_text(d.get("name", "")) for d in decks):
            raise ReplayError(f"{where}: a deck's 'name' must be a string of at most {MAX_REPLAY_TEXT} characters")
        if len(data["decisions"]) > MAX_REPLAY_DECISIONS:
            raise ReplayError(f"{where}: {len(data['decisions'])} decisions, more than any game has")
        for k, d in enumerate(data["decisions"]):
            if not (isinstance(d, dict) and type(d.get("seat")) is int and type(d.get("action")) is int
                    and _text(d.get("name", ""))):
                raise ReplayError(f"{where}: decision {k} must be an object with integer 'seat' and 'action' "
                                  f"(and a string 'name')")
        pool = data.get("pool")
        if pool is not None and not (isinstance(pool, list) and pool and all(_text(p) and p for p in pool)):
            raise ReplayError(f"{where}: 'pool' must be null or a list of card pool paths")
        result = data["result"]
        if not all(isinstance(result.get(k), kind) and not isinstance(result.get(k), bool)
                   for k, kind in (("status", str), ("winner", int)) if k in result):
            raise ReplayError(f"{where}: 'result' must hold a string 'status' and an integer 'winner'")
        if not isinstance(data.get("meta", {}), dict):
            raise ReplayError(f"{where}: 'meta' must be an object, got {_short(data.get('meta'))}")
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})

    @classmethod
    def load(cls, path: str | Path) -> "Replay":
        path = Path(path)
        try:
            size = path.stat().st_size
        except OSError as err:
            raise ReplayError(f"{path}: cannot read the replay ({err.strerror or err})") from None
        if size > MAX_REPLAY_BYTES:
            raise ReplayError(f"{path}: {size} bytes, more than a replay can be ({MAX_REPLAY_BYTES} bytes)")
        try:
            data = json.loads(path.read_bytes().decode("utf-8"))
        except OSError as err:  # a folder, or unreadable
            raise ReplayError(f"{path}: cannot read the replay ({err.strerror or err})") from None
        except (UnicodeDecodeError, ValueError, RecursionError) as err:  # ValueError: bad JSON, 5,000-digit numbers
            raise ReplayError(f"{path}: not a replay file (invalid JSON: {str(err)[:80]})") from None
        return cls.from_dict(data, str(path))


def _text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_REPLAY_TEXT


def _short(value: Any) -> str:
    """A value from a replay file for an error line: its repr, cut (a 10,000-digit int is not printed whole)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10 ** 30:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


# ----- recording ---------------------------------------------------------------------------------------------
def deck_entry(deck: Deck, pool: Any) -> dict:
    return {"name": deck.name, "cards": [pool.name(int(c)) for c in deck.card_ids]}


def result_of(row: np.ndarray) -> dict:
    return {"status": STATUS_NAMES.get(int(row[H_STATUS]), "live"), "winner": int(row[H_WINNER])}


def pool_paths(game: BatchGame) -> list[str] | None:
    shipped = game.spec.load_pool(None)
    paths = [str(p) for p in getattr(game.pool, "paths", [])]
    return None if paths == [str(p) for p in shipped.paths] else paths


class ReplayRecorder:
    """Records chosen rows of a :class:`BatchGame` from their reset on, one decision at a time.

    Create it right after ``reset`` and call :meth:`record` with the same ``actions`` and ``players`` before each
    :meth:`BatchGame.step` / :meth:`BatchGame.play`, or wrap a ``play_out`` decision function with :meth:`wrap`.
    """

    def __init__(self, game: BatchGame, rows: Sequence[int] | np.ndarray | None = None,
                 meta: dict | None = None) -> None:
        self.game = game
        rows = range(game.num_games) if rows is None else rows
        self.rows = [int(r) for r in rows]
        for r in self.rows:
            if not 0 <= r < game.num_games:
                raise ReplayError(f"row {r} is out of range for a batch of {game.num_games} games")
        self.meta = dict(meta or {})
        self._start = {r: (int(game.seeds[r]), game.deck_pairs[r]) for r in self.rows}
        self._decisions: dict[int, list[dict]] = {r: [] for r in self.rows}

    def record(self, actions: np.ndarray, players: np.ndarray | None = None) -> None:
        players = self.game.to_act if players is None else np.asarray(players)
        for r in self.rows:
            seat = int(players[r])
            if seat < 0 or self.game.status[r] != LIVE:
                continue
            action = int(actions[r])
            self._decisions[r].append({"seat": seat, "action": action,
                                       "name": self.game.action_name(action, r, seat)})

    def resign(self, row: int, seat: int) -> None:
        """Record that ``seat`` resigned in ``row`` (call :func:`~cardenvs.core.rows.forfeit_game` on the row too)."""
        self._decisions[row].append({"seat": int(seat), "action": RESIGN, "name": "resign"})

    def wrap(self, decide: Callable) -> Callable:
        """``decide`` for :meth:`BatchGame.play_out` that also records the rows' decisions."""
        def recording(who, obs, mask):
            actions = decide(who, obs, mask)
            self.record(actions, who)
            return actions
        return recording

    def replay(self, row: int) -> Replay:
        seed, (deck_a, deck_b) = self._start[row]
        game = self.game
        result = result_of(game.states[row])
        result["decisions"] = len(self._decisions[row])
        return Replay(game=game.spec.name, rules_version=game.spec.version, seed=seed,
                      decks=[deck_entry(deck_a, game.pool), deck_entry(deck_b, game.pool)],
                      decisions=list(self._decisions[row]), result=result, pool=pool_paths(game),
                      meta=dict(self.meta))


def replay_from_history(game: BatchGame, row: int, history: Sequence[tuple[int, int]],
                        meta: dict | None = None, final: np.ndarray | None = None) -> Replay:
    """A replay of ``row`` of ``game`` from its last reset, given its ``(player, action)`` decisions (-1: resigned)
    and its state at the end (default: the row as it is now); the action names are those of a re-simulation."""
    seed, (deck_a, deck_b) = int(game.seeds[row]), game.deck_pairs[row]
    result = result_of(game.states[row] if final is None else final)
    result["decisions"] = len(history)
    replay = Replay(game=game.spec.name, rules_version=game.spec.version, seed=seed,
                    decks=[deck_entry(deck_a, game.pool), deck_entry(deck_b, game.pool)],
                    decisions=[{"seat": int(p), "action": int(a), "name": ""} for p, a in history], result=result,
                    pool=pool_paths(game), meta=dict(meta or {}))
    run = simulate(replay)
    for k, d in enumerate(replay.decisions):
        d["name"] = "resign" if d["action"] == RESIGN else game.spec.action_name(run.states[k], run.game.pool,
                                                                                  d["seat"], d["action"])
    return replay


# ----- playing back ------------------------------------------------------------------------------------------
@dataclass
class ReplayRun:
    """A replay played back: ``states[k]`` is the row before decision ``k`` (the last one is the final state)."""

    replay: Replay
    spec: GameSpec
    game: BatchGame
    states: list[np.ndarray]

    def render(self, step: int, viewer: int | None) -> str:
        return self.spec.render(self.states[step], self.game.pool, viewer)

    @property
    def turns(self) -> list[int]:
        return [int(s[H_TURN]) for s in self.states]


def open_game(replay: Replay) -> BatchGame:
    """A one-row BatchGame at the replay's start (rules version checked, decks and pool rebuilt)."""
    try:
        spec = get_spec(replay.game)
    except CardenvsError as err:
        raise ReplayError(f"replay of {replay.game!r}: {err}") from None
    if spec.version != replay.rules_version:
        raise ReplayError(f"this replay was recorded under {spec.name} rules version {_short(replay.rules_version)}; "
                          f"the installed cardenvs plays version {spec.version}, so it would not replay the same game")
    pool = spec.load_pool([Path(p) for p in replay.pool] if replay.pool else None)
    decks = []
    for k, entry in enumerate(replay.decks):
        unknown = [c for c in entry["cards"] if c not in pool.by_name]
        if unknown:
            raise ReplayError(f"replay deck {k}: card {unknown[0]!r} is not in the {spec.name} card pool")
        ids = np.array([pool.by_name[c] for c in entry["cards"]], dtype=np.int32)
        decks.append(Deck(name=str(entry.get("name", f"deck {k}")), path=f"<replay deck {k}>", card_ids=ids))
    try:
        return BatchGame(spec, 1, decks=(decks[0], decks[1]), seed=replay.seed, pool=pool, parallel=False)
    except CardenvsError as err:
        raise ReplayError(f"replay of {spec.name}: {err}") from None


def simulate(replay: Replay, verify: bool = True) -> ReplayRun:
    """Play the replay's decisions again; with ``verify``, refuse one that no longer ends as recorded."""
    game = open_game(replay)
    spec = game.spec
    states = [game.states[0].copy()]
    for k, d in enumerate(replay.decisions):
        row = game.states[0]
        if row[H_STATUS] != LIVE:
            raise ReplayError(f"decision {k}: the game had already ended (the rules changed since it was recorded?)")
        if d["seat"] not in (0, 1) or not (int(row[H_NEEDS]) >> d["seat"]) & 1:  # both, in a simultaneous phase
            raise ReplayError(f"decision {k}: player_{d['seat']} decided, but under the installed rules it is "
                              f"player_{int(row[H_TO_ACT])}'s turn to decide")
        if d["action"] == RESIGN:
            forfeit_game(game.states[0], d["seat"])
            states.append(game.states[0].copy())
            continue
        if not 0 <= d["action"] < spec.num_actions or not game.legal_mask(d["seat"])[0, d["action"]]:
            raise ReplayError(f"decision {k}: action {_short(d['action'])} ({_short(d.get('name', '?'))}) is not legal "
                              f"here under the installed rules")
        game.step(np.array([d["action"]], dtype=np.int32), players=np.array([d["seat"]], dtype=np.int32))
        states.append(game.states[0].copy())
    if verify and replay.result:
        got = result_of(game.states[0])
        want = {k: replay.result.get(k) for k in got}
        if got != want:
            raise ReplayError(f"the replay ends {got} under the installed rules, but was recorded as {want}")
    return ReplayRun(replay, spec, game, states)


def record_match(game: str | GameSpec, decks: Any = None, seed: int = 0, pilots: Sequence[Any] = ("random", "random"),
                 pool: Any = None, meta: dict | None = None) -> Replay:
    """Play one game between two batched agents (``act(obs, mask, states, players)``, or agent names for
    :func:`cardenvs.make_agent`) and return its replay."""
    spec = get_spec(game)
    batch = BatchGame(spec, 1, decks=decks, seed=seed, pool=pool, parallel=False)
    agents = [seeded_agent(spec, p, seed + k) for k, p in enumerate(pilots)]
    recorder = ReplayRecorder(batch, [0], meta={"pilots": [str(p) for p in pilots], **(meta or {})})

    def decide(who, obs, mask):
        seat = int(who[0])
        players = np.array([seat], dtype=np.int32)
        return np.asarray(agents[seat].act(obs, mask, agent_states(agents[seat], spec, batch.states, players), players),
                          dtype=np.int32)

    batch.play_out(recorder.wrap(decide))
    return recorder.replay(0)


def seeded_agent(spec: GameSpec, pilot: Any, seed: int) -> Any:
    """The agent of one seat (an object, or a name the registered agent factory resolves) seeded from a game seed."""
    # any integer is a game seed; an agent's generator takes a non-negative one (the same for seeds 0 .. 2**64-1)
    return make_agent(spec.name, pilot, seed=seed_bits(int(seed)))


__all__ = [
    "deck_entry", "MAX_REPLAY_BYTES", "MAX_REPLAY_DECISIONS", "MAX_REPLAY_TEXT", "open_game", "pool_paths",
    "record_match", "Replay", "REPLAY_FORMAT", "replay_from_history", "ReplayError", "ReplayRecorder", "ReplayRun",
    "RESIGN", "result_of", "seeded_agent", "simulate", "STATUS_NAMES"
]
