"""One PettingZoo AEC env for every ruleset: a view of a one-row BatchGame.

``agent_selection`` follows the row's ``to_act`` field, so responses by the non-turn player (cover, bursts,
mulligans, discards) and both plans of a simultaneous phase are ordinary turns of the player who decides.
Illegal actions raise ``ValueError`` (an :class:`IllegalActionError`) naming the action and the legal ones and leave
the game untouched, unless the env was made with ``illegal_action="lose"``: then the offender loses at once.
"""
from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from .batch import BatchGame, check_seed, is_int, outcome_rewards, seed_sequence
from .errors import BadArgumentError, IllegalActionError
from .header import H_STATUS, H_TO_ACT, H_WINNER, LIVE, TERMINATED, TRUNCATED
from .replay import Replay, replay_from_history
from .rows import forfeit_game
from .spec import GameSpec

AGENTS = ["player_0", "player_1"]
SEAT_OF = {agent: seat for seat, agent in enumerate(AGENTS)}
OBS_BOUND = 1000.0


#: what an env's ``obs_format`` may ask for: the rows as the game's kernels write them, or their float32 view
OBS_FORMATS = ("stored", "float32")


def check_obs_format(obs_format: Any) -> str:
    if not isinstance(obs_format, str) or obs_format not in OBS_FORMATS:
        raise BadArgumentError(f"obs_format must be one of {OBS_FORMATS}, got {obs_format!r}")
    return obs_format


def observation_box(spec: GameSpec, obs_format: str = "stored") -> spaces.Box:
    """The Box of one observation row. ``"stored"``: the rows in ``spec.obs_dtype``; for a compact layout the integer
    Box of the dtype's whole range, which holds every value by construction (a kernel's write that would not fit is
    what ``check_game``'s range guard catches; a bound cut below the dtype's range was left by reachable positions,
    divinecross stores 6,220 in one). ``"float32"``: the float view's Box, per entry the dtype's range over the entry's
    divisor for a compact layout; a float32 layout's rows are their own float view, within [-OBS_BOUND, OBS_BOUND]."""
    check_obs_format(obs_format)
    dtype = spec.obs_dtype
    if dtype == np.float32:
        return spaces.Box(-OBS_BOUND, OBS_BOUND, shape=(spec.obs_dim,), dtype=np.float32)
    info = np.iinfo(dtype)
    if obs_format == "float32":
        # through the float view itself, so that its rounding and the Box's agree to the last bit
        low, high = (spec.float_observation(np.full((1, spec.obs_dim), v, dtype=dtype))[0]
                     for v in (info.min, info.max))
        return spaces.Box(low, high, shape=(spec.obs_dim,), dtype=np.float32)
    return spaces.Box(info.min, info.max, shape=(spec.obs_dim,), dtype=dtype)


def make_spaces(spec: GameSpec, obs_format: str = "stored") -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict(
        {
            "observation": observation_box(spec, obs_format),
            "action_mask": spaces.Box(0, 1, shape=(spec.num_actions,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(spec.num_actions)


def check_action(spec: GameSpec, action: Any) -> int:
    """An int action id in range, or a clear error (numpy ints and 0-d integer arrays accepted; bools, floats
    and strings refused, never cast)."""
    if type(action) is int and 0 <= action < spec.num_actions:  # the usual case, decided at once
        return action
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action[()]
    if not is_int(action):
        raise IllegalActionError(f"action must be an integer in [0, {spec.num_actions}), got {action!r}")
    if not 0 <= int(action) < spec.num_actions:
        raise IllegalActionError(f"action {int(action)} is out of range [0, {spec.num_actions}) for {spec.env_name}")
    return int(action)


class OneGameView:
    """What the AEC and parallel envs share: one BatchGame row, its seeding, rendering and action names."""

    game: BatchGame
    render_mode: str | None
    spec: GameSpec

    def _open_game(self, spec: GameSpec, decks: Any, render_mode: str | None, pool: Any,
                   obs_format: str = "stored") -> None:
        if render_mode not in (None, "ansi", "human"):
            raise BadArgumentError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.spec = spec
        self.render_mode = render_mode
        self.obs_format = check_obs_format(obs_format)
        # the float view is a copy only where the layout is compact: a float32 layout is already its float view
        self._float_view = obs_format == "float32" and spec.obs_dtype != np.float32
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._obs_space, self._act_space = make_spaces(spec, obs_format)
        self.observation_spaces = {a: self._obs_space for a in AGENTS}
        self.action_spaces = {a: self._act_space for a in AGENTS}
        self.game = BatchGame(spec, 1, decks=decks, seed=0, pool=pool)
        self._seed_source = np.random.default_rng()
        self._has_reset = False

    def _player(self, agent: Any) -> int:
        seat = SEAT_OF.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise BadArgumentError(f"agent must be one of {AGENTS}, got {agent!r}")
        return seat

    # PettingZoo asks for these by agent; the same object every call.
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def _observation(self, player: int) -> np.ndarray:
        """``player``'s observation row (a copy) in the env's ``obs_format``."""
        row = self.game.observe(player)[0]
        return self.spec.float_observation(row, np.empty(row.shape, np.float32)) if self._float_view else row.copy()

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space

    def _reset_game(self, seed: int | None) -> None:
        """A seeded reset replays exactly; later unseeded resets continue a stream drawn from that seed. Any Python
        int is a seed; anything else (a float, a string, a bool) is an error."""
        seed = check_seed(seed)
        if seed is not None:
            self._seed_source = np.random.default_rng(seed_sequence(seed))
            game_seed = seed
        else:
            game_seed = int(self._seed_source.integers(0, 2**62))
        self.game.reset(game_seed)
        self._has_reset = True
        self._history: list[tuple[int, int]] = []  # (player, action) since the reset, for replay()

    def replay(self, meta: dict | None = None) -> Replay:
        """The game so far as a :class:`~cardenvs.core.replay.Replay` (save it with ``.save(path)``; watch it with
        ``cardenvs replay``). An illegal action that lost the game (``illegal_action="lose"``) is a resignation."""
        return replay_from_history(self.game, 0, getattr(self, "_history", []), meta)

    # A copy (copy.copy, copy.deepcopy, pickle) continues the same game, RNG included: the whole env is copied,
    # the game's state row with it (EzPickle alone would rebuild a fresh game from the constructor arguments).
    def __getstate__(self) -> dict:
        return dict(self.__dict__)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def __copy__(self):
        return copy.deepcopy(self)

    def render(self, viewer: str | None = None) -> str | None:
        """The board as text: as ``viewer`` sees it, or omniscient ("ansi" mode with no viewer, for logs and tests).
        "human" mode prints it, from ``viewer``'s seat or by default from the seat of the player to act (a
        simultaneous game prints the view both players share), never the all-seeing board."""
        if viewer is not None and viewer not in AGENTS:
            raise BadArgumentError(f"viewer must be None or one of {AGENTS}, got {viewer!r}")
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        if self.render_mode == "human":
            # a screen a person watches: never the all-seeing board while the game is live (issue 12 #24)
            seat = self._human_viewer() if viewer is None else AGENTS.index(viewer)
            print(self.spec.render(self.game.states[0], self.game.pool, seat))
            return None
        return self.game.render(0, None if viewer is None else AGENTS.index(viewer))

    def _human_viewer(self) -> int | None:
        """Whose view "human" mode prints when no viewer is named: the player to act (the whole board once the game
        is over); in a simultaneous game the view both players share (-1), as in its ParallelEnv: both plan at once,
        so the player to act is only the AEC env's order (issue 39 #9)."""
        row = self.game.states[0]
        if row[H_STATUS] != LIVE:
            return None
        return -1 if self.spec.simultaneous else int(row[H_TO_ACT])

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray:
        """A copy of the game's state row."""
        return self.game.states[0].copy()


def explain_illegal(game: BatchGame, err: Exception, player: int, action: Any) -> str:
    """The message for an illegal action in a one-row game: what was tried and the legal actions by name."""
    if isinstance(action, (int, np.integer)) and 0 <= int(action) < game.spec.num_actions:
        return game.describe_illegal(0, player, int(action))
    legal = np.flatnonzero(game.legal_mask(player, out=np.zeros_like(game.legal_mask(player)))[0]).tolist()
    return f"{err}; legal actions: {legal}"


class CardGameEnv(OneGameView, AECEnv, EzPickle):
    """The AEC env of a ruleset. ``decks=(a, b)``: starter deck names or TOML paths (default: the game's pair).
    ``obs_format="stored"`` (default) gives observations as the game stores them (``spec.obs_dtype``: small integers
    for a compact layout), ``"float32"`` their float view (``spec.float_observation``) with a float Box."""

    def __init__(
        self,
        spec: GameSpec,
        decks: Any = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        pool: Any = None,
        obs_format: str = "stored",
    ) -> None:
        EzPickle.__init__(self, spec, decks, render_mode, illegal_action, pool, obs_format)
        super().__init__()
        if illegal_action not in ("raise", "lose"):
            raise BadArgumentError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        self._open_game(spec, decks, render_mode, pool, obs_format)
        self.metadata = {"name": spec.env_name, "render_modes": ["ansi", "human"],
                         "is_parallelizable": spec.simultaneous}
        self.illegal_action = illegal_action
        self._reset_bookkeeping()

    @property
    def row(self) -> np.ndarray:
        """The game's state row (a view; edit it to set up positions in tests)."""
        return self.game.states[0]

    def _reset_bookkeeping(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._sync()

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._reset_game(seed)
        self._reset_bookkeeping()

    def _sync(self) -> None:
        """Copy the row's header into PettingZoo's dicts."""
        status, to_act, winner = self.game.header()
        if status == LIVE:
            self.agent_selection = AGENTS[to_act]
            return
        rewards = outcome_rewards(status, winner)
        for i, a in enumerate(AGENTS):
            if a in self.agents:
                self.rewards[a] = float(rewards[i])
                self.terminations[a] = status == TERMINATED
                self.truncations[a] = status == TRUNCATED
                self.infos[a] = {"winner": winner}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._player(agent)
        game = self.game
        return {"observation": self._observation(player), "action_mask": game.legal_mask(player)[0].copy()}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        return self.game.legal_mask(self._player(agent or self.agent_selection))[0].copy()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = SEAT_OF[agent]
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        try:
            act = check_action(self.spec, action)
            self.game.step_one(act, player)
            self._history.append((player, act))
        except IllegalActionError as err:
            if self.illegal_action == "raise":
                raise IllegalActionError(explain_illegal(self.game, err, player, action)) from None
            forfeit_game(self.row, player)
            self._history.append((player, -1))
            self._sync()
            self.infos = {a: {**self.infos[a], "illegal_action": agent} for a in self.agents}
        else:
            self._sync()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def action_name(self, action: int, agent: str | None = None) -> str:
        """Human-readable name of an action for ``agent`` (default: the agent to act) in the current state."""
        player = self._player(agent or self.agent_selection)
        return self.game.action_name(check_action(self.spec, action), 0, player)

    def legal_actions(self, agent: str | None = None) -> list[int]:
        return np.flatnonzero(self.action_mask(agent)).tolist()


def make_env(spec: GameSpec, raw: bool = False, **kwargs: Any) -> AECEnv:
    """``raw=True`` gives the bare env; otherwise it is wrapped in PettingZoo's OrderEnforcingWrapper.

    PettingZoo's AssertOutOfBoundsWrapper is left out on purpose: the env itself rejects an out-of-range action with
    a ``ValueError`` that lists the legal ones, which is more useful than a bare assertion.
    """
    env = CardGameEnv(spec, **kwargs)
    return env if raw else OrderEnforcing(env)


def _guarded(name: str) -> property:
    """A read-through property for an attribute that OrderEnforcingWrapper refuses before ``reset``: the same
    check and error as its ``__getattr__``, without the failed ordinary lookup that reaches ``__getattr__`` (two
    levels of it, about 1.4 µs per read, several reads per step in ``agent_iter`` / ``last`` loops)."""

    def read(self: "OrderEnforcing") -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(read, doc=f"the wrapped env's ``{name}`` (an error before reset)")


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper whose ``copy.copy`` is a full copy, like the env's own: a shallow copy
    would share one game between the two. The attributes read every step go straight to the env (same checks)."""

    agent_selection = _guarded("agent_selection")
    agents = _guarded("agents")
    rewards = _guarded("rewards")
    terminations = _guarded("terminations")
    truncations = _guarded("truncations")
    infos = _guarded("infos")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def render(self, viewer: str | None = None) -> str | None:
        """The env's ``render(viewer)`` (PettingZoo's wrapper takes no viewer: ``render("player_1")`` was a
        TypeError, issue 39 #9)."""
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return self.env.render(viewer)

    def __copy__(self):
        return copy.deepcopy(self)


__all__ = [
    "AGENTS", "CardGameEnv", "check_action", "check_obs_format", "explain_illegal", "make_env", "make_spaces",
    "OBS_BOUND", "OBS_FORMATS", "observation_box", "OneGameView", "OrderEnforcing", "SEAT_OF"
]
