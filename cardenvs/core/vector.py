"""Vector envs over a BatchGame: the learner plays one seat, an opponent policy plays the other inside the batch.

:class:`SeatedBatch` holds the logic (seats, opponents, same-step autoreset); :class:`CardGameVectorEnv` is its
Gymnasium 1.x ``VectorEnv`` view and :class:`cardenvs.core.sb3.CardGameVecEnv` its SB3 ``VecEnv`` view (what
MaskablePPO takes; sb3-contrib 2.9): ``reset() -> obs``; ``step_wait() -> (obs, rewards, dones, infos)`` with
``infos[i]["terminal_observation"]`` and ``["TimeLimit.truncated"]``; ``action_masks()`` describing the state the next
action applies to: after the autoreset and after the opponent's replies. The learner's seat is drawn at random each
episode unless ``learner_seat`` is fixed, and rewards are from the learner's side (+1 win, -1 loss, 0 draw or
truncation; ``draw_reward`` sets what a draw or truncation is worth instead, e.g. -0.5 to train a learner out of
stalling to the rules' draw caps). Observations are the rows as the game stores them (``spec.obs_dtype``: small
integers for a compact layout, with an integer Box) unless ``obs_format="float32"`` asks for their float view.

Bad actions never step part of a batch. ``step`` checks every row first (integers of the right shape, in range, and
legal for the learner's pending decision) and only then applies them. ``illegal_action="raise"`` (the default) raises
:class:`~cardenvs.core.errors.IllegalActionError` naming the first bad row and changes no game, so the env stays
usable; ``illegal_action="lose"`` plays the legal rows and ends each row with an illegal action as a loss for the
learner (reward -1, ``infos[i]["illegal_action"] = True``, then the usual autoreset): for learners that do not use
the action masks. Wrong types or shapes always raise.
"""
from __future__ import annotations

import numbers
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .aec import check_obs_format, observation_box
from .rows import forfeit_game
from .batch import BatchGame, check_seed, int_array, rewards_from, seed_sequence
from .errors import BadArgumentError, IllegalActionError
from .header import H_STATUS, H_TO_ACT, HEADER_SIZE, LIVE, TRUNCATED
from .seat_view import agent_states
from .spec import GameSpec


class SeatedBatch:
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
        illegal_action: str = "raise",
        draw_reward: float = 0.0,
        obs_format: str = "stored",
    ) -> None:
        if isinstance(learner_seat, bool) or learner_seat not in ("random", 0, 1):
            raise BadArgumentError(f"learner_seat must be 'random', 0 or 1, got {learner_seat!r}")
        if illegal_action not in ("raise", "lose"):
            raise BadArgumentError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        if isinstance(draw_reward, bool) or not isinstance(draw_reward, numbers.Real) or not -1 <= draw_reward <= 1:
            raise BadArgumentError(f"draw_reward must be a number from -1 to 1, got {draw_reward!r}")
        self.draw_reward = float(draw_reward)
        self.obs_format = check_obs_format(obs_format)
        self._float_view = obs_format == "float32" and spec.obs_dtype != np.float32
        seed = check_seed(seed)
        self.spec = spec
        self.illegal_action = illegal_action
        self.game = BatchGame(spec, num_envs, decks=decks, seed=seed)
        self._base_seed = 0 if seed is None else seed
        self._rng = np.random.default_rng(None if seed is None else seed_sequence(seed))
        self.learner_seat_mode = learner_seat
        self.opponent_source = opponent
        self.episodes_started = 0
        self.num_envs = num_envs
        self.observation_space = observation_box(spec, obs_format)
        self.action_space = spaces.Discrete(spec.num_actions)
        self.seats = np.zeros(num_envs, dtype=np.int32)
        self.opponent_of = np.zeros(num_envs, dtype=np.int32)  # index into _opponent_agents, per game
        self._actions = np.zeros(num_envs, dtype=np.int32)
        self._next_seed = self._base_seed
        self._pending_seed: int | None = None
        self._mask_cache: tuple[np.ndarray, np.ndarray] | None = None  # (key, the learner's mask) of one position
        self._opponent_cache: dict[Any, int] = {}
        self._opponent_agents: list[Any] = []
        self._opponent_faults: dict[int, str] = {}  # row -> what the opponent did wrong (see _report_opponent_faults)

    # ----- opponents -----------------------------------------------------------------------------------------
    def _make_opponent(self) -> int:
        """The index (in ``_opponent_agents``) of the opponent for a new episode."""
        from .agents import make_agent  # names resolve through the core's agent factory (no import of the agents)

        source = self.opponent_source
        if callable(source) and not hasattr(source, "act"):
            source = source(self.episodes_started)
        key = source if isinstance(source, str) else id(source)
        if key not in self._opponent_cache:
            self._opponent_cache[key] = len(self._opponent_agents)
            self._opponent_agents.append(make_agent(self.spec, source, seed=int(self._rng.integers(2**31))))
        return self._opponent_cache[key]

    def set_opponent(self, opponent: Any) -> None:
        """Change the opponent for episodes that start from now on."""
        self.opponent_source = opponent

    @property
    def next_seed(self) -> int:
        """The game seed the next episode will start from (episodes take consecutive seeds); saved by trainers
        with their checkpoints and set back on resume so that a resumed run plays fresh games."""
        return self._next_seed

    @next_seed.setter
    def next_seed(self, value: int) -> None:
        self._next_seed = check_seed(value, "next_seed")
        if self._next_seed is None:
            raise BadArgumentError("next_seed must be an integer")

    def _start_episodes(self, rows: np.ndarray) -> None:
        idx = np.flatnonzero(rows)
        if idx.size == 0:
            return
        seeds = [int(v) for v in self.game.seeds]
        for k, i in enumerate(idx):
            seeds[i] = self._next_seed + k
        self._next_seed += idx.size
        self._mask_cache = None
        self.game.reset(seeds, rows=rows)
        if self.learner_seat_mode == "random":
            self.seats[idx] = self._rng.integers(2, size=idx.size)
        else:
            self.seats[idx] = self.learner_seat_mode
        if callable(self.opponent_source) and not hasattr(self.opponent_source, "act"):
            for i in idx:  # a league picks per episode
                self.opponent_of[i] = self._make_opponent()
                self.episodes_started += 1
        else:
            self.opponent_of[idx] = self._make_opponent()
            self.episodes_started += idx.size

    def _play_opponents(self) -> None:
        """Let the opponent seat act until every live row waits for the learner.

        Separate observe/mask/step calls on purpose: only the rows whose opponent is to act are viewed (the others
        get the kernels' cheap all-zero path), while a fused ``BatchGame.play`` would view every row each round;
        measured at 1024 envs, levelneo: 75k learner steps/s this way, 29k with the fused call."""
        states = self.game.states
        for _ in range(100_000):
            waiting = (states[:, H_STATUS] == LIVE) & (states[:, H_TO_ACT] == 1 - self.seats)
            if not waiting.any():
                return
            players = np.where(waiting, 1 - self.seats, -1).astype(np.int32)
            obs = self.game.observe(players)
            mask = self.game.legal_mask(players)
            actions = np.zeros(self.num_envs, dtype=np.int32)
            for slot in np.unique(self.opponent_of[waiting]):
                rows = np.flatnonzero(waiting & (self.opponent_of == slot))
                agent = self._opponent_agents[slot]
                chosen = agent.act(obs[rows], mask[rows], agent_states(agent, self.spec, states, players[rows], rows=rows),
                                   players[rows])
                try:
                    actions[rows] = int_array(chosen, "opponent actions", len(rows))
                except BadArgumentError as exc:
                    raise BadArgumentError(f"opponent {getattr(agent, 'name', type(agent).__name__)!r}: {exc}") from None
            # an opponent's illegal action ends that game as the opponent's loss (checked here, before any row is
            # stepped: BatchGame.step would raise after stepping the others, leaving the opponent to act forever)
            legal = np.zeros(self.num_envs, dtype=np.bool_)
            ok = waiting & (actions >= 0) & (actions < self.spec.num_actions)
            legal[ok] = mask[ok, actions[ok]] != 0
            for i in np.flatnonzero(waiting & ~legal):
                agent = self._opponent_agents[self.opponent_of[i]]
                self._opponent_faults[int(i)] = (
                    f"opponent {getattr(agent, 'name', type(agent).__name__)!r} in vector env row {int(i)}: "
                    f"{self.game.describe_illegal(int(i), int(players[i]), int(actions[i]))}")
                forfeit_game(self.game.states[i], int(players[i]))
                players[i] = -1
            self._mask_cache = None
            self.game.step(actions, players=players)
        raise RuntimeError("opponent did not hand the turn back within 100000 decisions")

    def _report_opponent_faults(self, infos: list[dict] | None = None) -> None:
        """After the opponents played: with ``illegal_action="raise"`` an opponent's illegal action is an
        :class:`IllegalActionError` naming the agent and the action (its game already ended as the opponent's loss,
        so the env stays usable: the next step reports that game done); with ``"lose"`` it is only
        ``infos[i]["opponent_illegal_action"]``."""
        faults, self._opponent_faults = self._opponent_faults, {}
        if not faults:
            return
        if self.illegal_action == "raise":
            first = min(faults)
            more = f" (and {len(faults) - 1} more rows)" if len(faults) > 1 else ""
            raise IllegalActionError(f"{faults[first]}{more}; that game ends as the opponent's loss and the env "
                                     f"plays on (make it with illegal_action='lose' to only report it in infos)")
        for i, text in faults.items():
            if infos is not None:
                infos[i]["opponent_illegal_action"] = text

    # ----- stepping ---------------------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        if self._pending_seed is not None:
            self._next_seed = self._pending_seed
            self._rng = np.random.default_rng(seed_sequence(self._pending_seed))
            self._pending_seed = None
        self._opponent_faults = {}
        self._start_episodes(np.ones(self.num_envs, dtype=np.bool_))
        self._play_opponents()
        self._settle_finished_before_learner()
        self._report_opponent_faults()
        return self._observe()

    def _observe(self) -> np.ndarray:
        """The learner's observations (a copy) in the env's ``obs_format``."""
        rows = self.game.observe(self.seats)
        return self.spec.float_observation(rows, np.empty(rows.shape, np.float32)) if self._float_view else rows.copy()

    def _settle_finished_before_learner(self) -> None:
        # A game could end during the opponent's replies right after a reset; start those again at once.
        for _ in range(1000):
            done = self.game.status != LIVE
            if not done.any():
                return
            self._start_episodes(done)
            self._play_opponents()

    def check_actions(self, actions: Any) -> tuple[np.ndarray, np.ndarray]:
        """The learner's actions as ``int32[num_envs]`` and the rows where they are illegal; raises
        :class:`BadArgumentError` for wrong types or shapes and, with ``illegal_action="raise"``,
        :class:`IllegalActionError` for the first illegal row. Changes nothing."""
        acts = int_array(actions, "actions", self.num_envs).copy()
        in_range = (acts >= 0) & (acts < self.spec.num_actions)
        mask = self._learner_mask()
        legal = np.zeros(self.num_envs, dtype=np.bool_)
        rows = np.flatnonzero(in_range)
        legal[rows] = mask[rows, acts[rows]] != 0
        live = self.game.status == LIVE
        bad = live & ~legal
        if bad.any() and self.illegal_action == "raise":
            i = int(np.flatnonzero(bad)[0])
            raise IllegalActionError(
                f"vector env row {i}: {self.game.describe_illegal(i, int(self.seats[i]), int(acts[i]))}; no game was "
                f"stepped (pass the action_masks(), or make the env with illegal_action='lose')")
        return acts, bad

    def _learner_mask(self) -> np.ndarray:
        """The learner's legal mask, computed once per position: ``action_masks()`` and the next ``step``'s check
        share it (keyed on the row headers, which change with every decision, and on the seats)."""
        key = np.concatenate([self.game.states[:, :HEADER_SIZE].reshape(-1), self.seats])
        if self._mask_cache is None or not np.array_equal(self._mask_cache[0], key):
            mask = self.game.legal_mask(self.seats, out=np.zeros((self.num_envs, self.spec.num_actions), np.int8))
            self._mask_cache = (key, mask)
        return self._mask_cache[1]

    def step(self, actions: np.ndarray):
        """Apply the learner's actions, play the opponents, autoreset finished rows; SB3's 4-tuple. Every row is
        checked before any is applied (see the module docstring for ``illegal_action``)."""
        return self._apply(*self.check_actions(actions))

    def _apply(self, acts: np.ndarray, bad: np.ndarray):
        """:meth:`step` after :meth:`check_actions` (the SB3 view checks in ``step_async``, applies in ``step_wait``)."""
        self._actions = acts
        players = np.where(bad, -1, self.seats).astype(np.int32)
        self._mask_cache = None
        self.game.step(acts, players=players)
        for i in np.flatnonzero(bad):  # illegal_action="lose": the learner forfeits that game
            forfeit_game(self.game.states[i], int(self.seats[i]))
        self._play_opponents()
        status = self.game.status.copy()
        done = status != LIVE
        rewards = rewards_from(self.game.winner, status)[np.arange(self.num_envs), self.seats]
        if self.draw_reward:
            rewards = np.where(done & (rewards == 0), np.float32(self.draw_reward), rewards)
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(bad):
            infos[i]["illegal_action"] = True
        self._report_opponent_faults(infos)  # raises here with illegal_action="raise": the rows are consistent
        if done.any():
            final_obs = self._observe()
            for i in np.flatnonzero(done):
                infos[i]["terminal_observation"] = final_obs[i]
                infos[i]["TimeLimit.truncated"] = bool(status[i] == TRUNCATED)
                infos[i]["winner"] = int(self.game.winner[i])
                infos[i]["learner_seat"] = int(self.seats[i])
            self._start_episodes(done)
            self._play_opponents()
            self._settle_finished_before_learner()
            self._report_opponent_faults(infos)
        obs = self._observe()
        return obs, rewards.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """bool ``[num_envs, num_actions]`` for the learner's pending decision in every game."""
        return self._learner_mask().astype(np.bool_)

    def seed(self, seed: int | None = None) -> None:
        """Seed the episodes that start at the next :meth:`reset` (any Python int; None keeps the current stream)."""
        self._pending_seed = check_seed(seed)


class CardGameVectorEnv(VectorEnv):
    """Gymnasium 1.x ``VectorEnv`` view (autoreset mode SAME_STEP, as SB3).

    ``step`` returns ``(obs, rewards, terminations, truncations, infos)``; ``infos["action_mask"]`` (N, A) is the
    learner's next decision; rows finished in this step add ``infos["final_obs"]``/``["_final_obs"]`` and
    ``["final_info"]``/``["_final_info"]``.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, spec: GameSpec, num_envs: int, **kwargs: Any) -> None:
        self.seated = SeatedBatch(spec, num_envs, **kwargs)
        self.num_envs = num_envs
        self.single_observation_space = self.seated.observation_space
        self.single_action_space = self.seated.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self.seated.seed(seed)
        obs = self.seated.reset()
        return obs, {"action_mask": self.seated.action_masks()}

    def step(self, actions):
        obs, rewards, dones, infos = self.seated.step(actions)
        truncated = np.array([bool(info.get("TimeLimit.truncated", False)) for info in infos])
        out: dict[str, Any] = {"action_mask": self.seated.action_masks()}
        if dones.any():
            final_obs = np.zeros_like(obs)
            final_info = np.array([{} for _ in range(self.num_envs)], dtype=object)
            for i in np.flatnonzero(dones):
                final_obs[i] = infos[i]["terminal_observation"]
                final_info[i] = {k: v for k, v in infos[i].items() if k != "terminal_observation"}
            out.update(final_obs=final_obs, _final_obs=dones.copy(), final_info=final_info, _final_info=dones.copy())
        return obs, rewards, dones & ~truncated, truncated, out

    def action_masks(self) -> np.ndarray:
        return self.seated.action_masks()


__all__ = ["CardGameVectorEnv", "SeatedBatch"]
