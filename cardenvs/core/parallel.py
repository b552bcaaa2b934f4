"""The PettingZoo ParallelEnv of a simultaneous ruleset, a view of the same one-row BatchGame as the AEC env.

Each ``step`` takes one decision from each player. A player whose plan for the phase is done (its ``needs`` bit is
clear) sees a mask with only the game's no-op action and its action is ignored; the other player's decision is
applied. Both decisions are checked before either is applied: an illegal one raises and leaves the game exactly as it
was (with ``illegal_action="lose"`` the game, as it stood, ends as a loss for the first offender in seat order).
``step`` before ``reset`` is an error. Player 0's decision is applied before player 1's; a simultaneous ruleset reads the other side only as it
stood at the start of the phase, so the order cannot change the game and the AEC env (player 0's whole plan, then
player 1's) plays the same game for the same plans.
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils import EzPickle
from pettingzoo import ParallelEnv

from .aec import AGENTS, OneGameView, check_action, explain_illegal
from .rows import forfeit_game
from .batch import rewards_from
from .errors import BadArgumentError, IllegalActionError
from .header import H_NEEDS, H_STATUS, H_WINNER, LIVE, TERMINATED, TRUNCATED
from .spec import GameSpec


class CardGameParallelEnv(OneGameView, ParallelEnv, EzPickle):
    def __init__(self, spec: GameSpec, decks: Any = None, render_mode: str | None = None,
                 illegal_action: str = "raise", pool: Any = None, obs_format: str = "stored") -> None:
        """``obs_format``: "stored" (``spec.obs_dtype``) or "float32" (the float view), as the AEC env's."""
        EzPickle.__init__(self, spec, decks, render_mode, illegal_action, pool, obs_format)
        if illegal_action not in ("raise", "lose"):
            raise BadArgumentError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if not spec.simultaneous:
            raise BadArgumentError(f"{spec.name} is a sequential game; use its AEC env")
        self._open_game(spec, decks, render_mode, pool, obs_format)
        self.noop = int(spec.noop_action)
        self.metadata = {"name": spec.env_name, "render_modes": ["ansi", "human"], "is_parallelizable": True}

    def _human_viewer(self) -> int | None:
        """Both players watch one screen: "human" mode prints the view they share (a simultaneous game's render takes
        viewer -1 for it), the whole board once the game is over."""
        return -1 if self.game.states[0, H_STATUS] == LIVE else None

    def _mask(self, player: int) -> np.ndarray:
        if self.game.states[0, H_NEEDS] & (1 << player):
            return self.game.legal_mask(player)[0].copy()
        mask = np.zeros(self.spec.num_actions, dtype=np.int8)
        if self.game.states[0, H_STATUS] == LIVE:
            mask[self.noop] = 1
        return mask

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {
            a: {"observation": self._observation(p), "action_mask": self._mask(p)}
            for p, a in enumerate(AGENTS)
            if a in self.agents
        }

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._reset_game(seed)
        self.agents = list(AGENTS)
        return self._observations(), {a: {} for a in AGENTS}

    def step(self, actions: dict[str, Any]):
        if not self._has_reset:
            raise BadArgumentError("step() called before reset(); call reset() first")
        if not isinstance(actions, dict) or set(actions) != set(self.agents):
            got = sorted(map(str, actions)) if isinstance(actions, dict) else repr(actions)
            raise BadArgumentError(f"step needs a dict with one action for each of {self.agents}, got {got}")
        needs = int(self.game.states[0, H_NEEDS])  # who had a decision when the step began
        movers = [p for p in range(2) if needs & (1 << p) and self.game.states[0, H_STATUS] == LIVE]
        forfeit = None
        start = self.game.states[0].copy()  # every check passes before anything is applied; restored on a failure
        try:
            acts = {}
            for player in movers:  # both actions are checked (type, range, legality) before either is applied
                agent = AGENTS[player]
                act = check_action(self.spec, actions[agent])
                if not self.game.legal_mask(player)[0, act]:
                    raise IllegalActionError(explain_illegal(self.game, ValueError("illegal"), player, actions[agent]))
                acts[player] = act
            for player in movers:
                self.game.step(np.array([acts[player]], np.int32), players=np.array([player], np.int32))
            self._history += [(player, acts[player]) for player in movers]
        except IllegalActionError as err:
            self.game.states[0] = start
            player = next((p for p in movers if p not in acts), None)
            if player is None:  # legal on its own but not after the other's (a ruleset breaking its contract)
                player = movers[-1]
            if self.illegal_action == "raise":
                message = str(err) if "legal actions" in str(err) else \
                    explain_illegal(self.game, err, player, actions[AGENTS[player]])
                raise IllegalActionError(message) from None
            forfeit = player
            forfeit_game(self.game.states[0], player)
            self._history.append((player, -1))
        except BaseException:
            self.game.states[0] = start
            raise
        status = int(self.game.states[0, H_STATUS])
        rewards = rewards_from(self.game.winner, self.game.status)[0]
        obs = self._observations()
        rew = {a: float(rewards[i]) for i, a in enumerate(AGENTS) if a in self.agents}
        term = {a: status == TERMINATED for a in self.agents}
        trunc = {a: status == TRUNCATED for a in self.agents}
        infos = {a: ({"winner": int(self.game.states[0, H_WINNER])} if status != LIVE else {}) for a in self.agents}
        if forfeit is not None:
            for a in infos:
                infos[a]["illegal_action"] = AGENTS[forfeit]
        if status != LIVE:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rew, term, trunc, infos

    def action_name(self, action: int, agent: str) -> str:
        return self.game.action_name(check_action(self.spec, action), 0, self._player(agent))


def make_parallel_env(spec: GameSpec, **kwargs: Any) -> CardGameParallelEnv:
    return CardGameParallelEnv(spec, **kwargs)


__all__ = ["CardGameParallelEnv", "make_parallel_env"]
