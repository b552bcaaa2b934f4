"""SB3 ``VecEnv`` over a BatchGame: the learner plays one seat, an opponent policy plays the other inside the batch.

What MaskablePPO sees (sb3-contrib 2.9): ``reset() -> obs``; ``step_wait() -> (obs, rewards, dones, infos)`` with
same-step autoreset, ``infos[i]["terminal_observation"]`` and ``["TimeLimit.truncated"]``; ``action_masks()`` (also
through ``env_method("action_masks")``) describing the state the next action applies to: after the autoreset and
after the opponent's replies. The learner's seat is drawn at random each episode unless ``learner_seat`` is fixed,
and rewards are from the learner's side (+1 win, -1 loss, 0 draw or truncation).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .batch import BatchGame, rewards_from
from .errors import BadArgumentError
from .header import H_STATUS, H_TO_ACT, LIVE, TRUNCATED
from .spec import GameSpec


class CardGameVecEnv(VecEnv):
    """``num_envs`` games; ``opponent`` is "random", "heuristic", "ppo:PATH", an agent with ``act``, or a callable
    ``(episode_index) -> agent`` to pick a new opponent per episode (self-play leagues)."""

    def __init__(
        self,
        spec: GameSpec,
        num_envs: int,
        opponent: Any = "random",
        decks: Any = None,
        seed: int | None = None,
        learner_seat: int | str = "random",
    ) -> None:
        if learner_seat not in ("random", 0, 1):
            raise BadArgumentError(f"learner_seat must be 'random', 0 or 1, got {learner_seat!r}")
        self.spec = spec
        self.game = BatchGame(spec, num_envs, decks=decks, seed=seed)
        self._base_seed = 0 if seed is None else int(seed)
        self._rng = np.random.default_rng(seed)
        self.learner_seat_mode = learner_seat
        self.opponent_source = opponent
        self.episodes_started = 0
        obs_space = spaces.Box(-1000.0, 1000.0, shape=(spec.obs_dim,), dtype=np.float32)
        super().__init__(num_envs, obs_space, spaces.Discrete(spec.num_actions))
        self.render_mode = None
        self.seats = np.zeros(num_envs, dtype=np.int32)
        self.opponents: list[Any] = [None] * num_envs
        self._actions = np.zeros(num_envs, dtype=np.int32)
        self._next_seed = self._base_seed
        self._pending_seed: int | None = None

    # ----- opponents -----------------------------------------------------------------------------------------
    def _make_opponent(self) -> Any:
        from agents import make_agent  # agents depend on the core, not the other way round

        source = self.opponent_source
        if callable(source) and not hasattr(source, "act"):
            source = source(self.episodes_started)
        if not hasattr(self, "_opponent_cache"):
            self._opponent_cache: dict[Any, Any] = {}
        key = source if isinstance(source, str) else id(source)
        if key not in self._opponent_cache:
            self._opponent_cache[key] = make_agent(self.spec, source, seed=int(self._rng.integers(2**31)))
        return self._opponent_cache[key]

    def set_opponent(self, opponent: Any) -> None:
        """Change the opponent for episodes that start from now on."""
        self.opponent_source = opponent

    def _start_episodes(self, rows: np.ndarray) -> None:
        idx = np.flatnonzero(rows)
        if idx.size == 0:
            return
        seeds = self.game.seeds.copy()
        seeds[idx] = self._next_seed + np.arange(idx.size)
        self._next_seed += idx.size
        self.game.reset(seeds, rows=rows)
        for i in idx:
            self.seats[i] = self._rng.integers(2) if self.learner_seat_mode == "random" else self.learner_seat_mode
            self.opponents[i] = self._make_opponent()
            self.episodes_started += 1

    def _play_opponents(self) -> None:
        """Let the opponent seat act until every live row waits for the learner."""
        states = self.game.states
        for _ in range(100_000):
            waiting = (states[:, H_STATUS] == LIVE) & (states[:, H_TO_ACT] == 1 - self.seats)
            if not waiting.any():
                return
            players = np.where(waiting, 1 - self.seats, -1).astype(np.int32)
            obs = self.game.observe(players)
            mask = self.game.legal_mask(players)
            actions = np.zeros(self.num_envs, dtype=np.int32)
            groups: dict[int, list[int]] = {}
            for i in np.flatnonzero(waiting):
                groups.setdefault(id(self.opponents[i]), []).append(i)
            for members in groups.values():
                rows = np.asarray(members)
                agent = self.opponents[rows[0]]
                actions[rows] = agent.act(obs[rows], mask[rows], states[rows], players[rows])
            self.game.step(actions, players=players)
        raise RuntimeError("opponent did not hand the turn back within 100000 decisions")

    # ----- VecEnv API ----------------------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        if self._pending_seed is not None:
            self._next_seed = self._pending_seed
            self._rng = np.random.default_rng(self._pending_seed)
            self._pending_seed = None
        self._start_episodes(np.ones(self.num_envs, dtype=np.bool_))
        self._play_opponents()
        self._settle_finished_before_learner()
        return self.game.observe(self.seats).copy()

    def _settle_finished_before_learner(self) -> None:
        # A game could end during the opponent's replies right after a reset; start those again at once.
        for _ in range(1000):
            done = self.game.status != LIVE
            if not done.any():
                return
            self._start_episodes(done)
            self._play_opponents()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int32).reshape(self.num_envs)

    def step_wait(self):
        self.game.step(self._actions, players=self.seats)
        self._play_opponents()
        status = self.game.status.copy()
        done = status != LIVE
        rewards = rewards_from(self.game.winner, status)[np.arange(self.num_envs), self.seats]
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        if done.any():
            final_obs = self.game.observe(self.seats).copy()
            for i in np.flatnonzero(done):
                infos[i]["terminal_observation"] = final_obs[i]
                infos[i]["TimeLimit.truncated"] = bool(status[i] == TRUNCATED)
                infos[i]["winner"] = int(self.game.winner[i])
                infos[i]["learner_seat"] = int(self.seats[i])
            self._start_episodes(done)
            self._play_opponents()
            self._settle_finished_before_learner()
        obs = self.game.observe(self.seats).copy()
        return obs, rewards.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """bool ``[num_envs, num_actions]`` for the learner's pending decision in every game."""
        return self.game.legal_mask(self.seats).astype(np.bool_)

    def close(self) -> None:
        pass

    def seed(self, seed: int | None = None) -> Sequence[None]:
        self._pending_seed = seed
        return [None] * self.num_envs

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self, attr_name)

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_images(self) -> Sequence[None]:
        return [None] * self.num_envs
