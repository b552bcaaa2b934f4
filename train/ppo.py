"""Train MaskablePPO on a cardenvs game: ``python -m cardenvs.train.ppo levelneo [--config f.toml] [--total-steps N] ...``.

The learner plays a random seat of ``cardenvs.make_vec(game, num_envs, opponent=mix)``; ``mix`` picks each new
episode's opponent from random, the game's heuristic and a league of frozen earlier checkpoints (see
:mod:`train.league`), following the schedule in the config (:mod:`train.config`). Every ``eval.every`` steps the
current policy plays seat-swapped games against random and heuristic on the batch core (:mod:`train.evaluate`);
win rates go to TensorBoard (``<out>/tb``) and ``<out>/eval.csv``. ``--max-minutes M`` is a budget for the whole
command, evaluations included: they are then planned in time and sized to fit, and training stops in time for the
final evaluation and saving (:mod:`train.budget`). Checkpoints go to ``<out>/checkpoints/``, the final
model to ``<out>/final.zip`` and its shipped-policy file (numpy only, :mod:`cardenvs.agents.policy`) to
``<out>/policy.npz``, throughput and the env's share of wall time to ``<out>/summary.json``.
``--resume path.zip`` continues a run (steps, league pool and schedule position included); ``--stages`` then runs
each ``train/configs/<game>_stage<k>.toml`` in turn, each resuming the previous stage's final model, and
``--stages CHAIN.toml`` the ``[[stage]]`` list of a chain file (``train/configs/chains/``) from its first stage on.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

# Before torch is imported: idle OpenMP workers sleep instead of spinning. On a busy 2-core machine a spinning torch
# worker stole the CPU from the env and the update alike (measured: <133 steps/s spinning, 680 passive).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402

from .budget import clock, plan as plan_budget, process_start, tolerance  # noqa: E402

#: a budgeted evaluation given less than this many seconds is skipped (its first games alone would overrun)
MIN_EVAL_S = 1.0
from .config import load_config, merge  # noqa: E402
from .league import CheckpointPool, OpponentMix  # noqa: E402


# ----- env timing -------------------------------------------------------------------------------------------------
def _timed_vec_env_class():
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class TimedVecEnv(VecEnvWrapper):
        """Counts the wall time spent inside the env (``step_wait``, ``reset`` and the action masks), so the
        trainer can report the env's share of the run's wall time."""

        def __init__(self, venv: Any) -> None:
            super().__init__(venv)
            self.env_seconds = 0.0
            self.env_steps = 0

        def reset(self):
            t = time.perf_counter()
            obs = self.venv.reset()
            self.env_seconds += time.perf_counter() - t
            return obs

        def step_async(self, actions: np.ndarray) -> None:
            self.venv.step_async(actions)

        def step_wait(self):
            t = time.perf_counter()
            out = self.venv.step_wait()
            self.env_seconds += time.perf_counter() - t
            self.env_steps += self.num_envs
            return out

        def env_method(self, method_name: str, *args, indices=None, **kwargs):
            t = time.perf_counter()
            out = self.venv.env_method(method_name, *args, indices=indices, **kwargs)
            self.env_seconds += time.perf_counter() - t
            return out

        def has_attr(self, attr_name: str) -> bool:
            return self.venv.has_attr(attr_name)

    return TimedVecEnv


# ----- the callback -------------------------------------------------------------------------------------------------
def _make_callback(trainer: "Trainer"):
    from stable_baselines3.common.callbacks import BaseCallback

    class TrainerCallback(BaseCallback):
        """Schedule position, checkpoints + league pool, periodic evaluation, throughput logging; under a budget
        (``--max-minutes``) the stop that keeps the final evaluation and saving within it (train/budget.py)."""

        def _on_training_start(self) -> None:
            trainer.t_start = trainer.t_start or time.perf_counter()
            trainer.steps_start = self.model.num_timesteps
            trainer.env_seconds_start = trainer.timed.env_seconds
            trainer.last_step_t = time.perf_counter()

        def _on_rollout_start(self) -> None:
            now = time.perf_counter()
            if trainer.rollout_end_t is not None:  # the PPO update between two rollouts: measured for the stop
                trainer.update_s = max(now - trainer.rollout_end_t, 0.8 * trainer.update_s)
            trainer.last_step_t = now

        def _on_step(self) -> bool:
            if trainer.setup_watch is not None:  # training has begun: from here the trainer keeps the budget
                trainer.setup_watch.disarm()
            n = self.model.num_timesteps
            now = time.perf_counter()
            trainer.time_step(now)
            if trainer.plan is not None and trainer.should_stop(now, self.locals):
                return False  # --max-minutes: run() saves and evaluates the final model within the budget
            if trainer.stop_steps and n >= trainer.stop_steps:
                return False  # [train] stop_steps: the same stop, at a step count instead of a wall time
            if n >= trainer.next_stop_check:  # a STOP file in the run folder: the same stop, asked for by hand
                trainer.next_stop_check = n + 1024
                stop = trainer.out / "STOP"
                if stop.exists():
                    stop.unlink(missing_ok=True)  # acted on: a later --resume into this folder runs on
                    _print(f"[train] {stop} found: stopping at step {n:,} (the final model is saved and evaluated)")
                    return False
            trainer.mix.steps = n
            if n >= trainer.next_checkpoint:
                trainer.checkpoint(n)
            if trainer.plan is not None:
                if trainer.eval_due(now):
                    trainer.evaluate(n, seconds=trainer.eval_slice(self.locals))
            elif n >= trainer.next_eval:
                trainer.evaluate(n)
            if trainer.bar is not None:
                trainer.bar.update(n, trainer.rate())
            return True

        def _on_rollout_end(self) -> None:
            trainer.rollout_end_t = time.perf_counter()
            wall = time.perf_counter() - trainer.t_start
            steps = self.model.num_timesteps - trainer.steps_start
            env = trainer.timed.env_seconds - trainer.env_seconds_start
            self.logger.record("time/steps_per_s", steps / max(wall, 1e-9))
            self.logger.record("time/env_share", env / max(wall, 1e-9))
            counts = trainer.mix.counts
            total = max(sum(counts.values()), 1)
            for k, v in counts.items():
                self.logger.record(f"opponents/{k}_share", v / total)
            self.logger.record("opponents/league_pool", len(trainer.mix.pool))
            if trainer.plan is not None:
                trainer.schedule_eval(trainer.rollout_end_t)  # the measured rate may end the run before the budget
            if trainer.verbose and trainer.bar is None and time.perf_counter() - trainer.last_status > 30:
                trainer.last_status = time.perf_counter()
                rate = steps / max(wall, 1e-9)
                left = (trainer.total_steps - self.model.num_timesteps) / max(rate, 1e-9)
                budget = ""
                if trainer.deadline is not None:
                    left = min(left, trainer.deadline - time.perf_counter())
                    budget = (f"  budget {clock(time.perf_counter() - trainer.clock_start)} of "
                              f"{clock(trainer.deadline - trainer.clock_start)}")
                _print(f"[train] step {self.model.num_timesteps:>10,} / {trainer.total_steps:,}  {rate:,.0f} steps/s  "
                       f"env {env / max(wall, 1e-9):.0%} of wall  ~{left / 60:.1f} min left{budget}")

    return TrainerCallback()


# ----- the trainer ----------------------------------------------------------------------------------------------------
class Trainer:
    """Builds the env, model and callbacks from a config; ``run()`` trains and saves."""

    def __init__(self, game: str, cfg: dict, out: Path, resume: str | None = None, progress: bool = True,
                 verbose: int = 1, max_minutes: float | None = None, trust_pickle: bool = False,
                 deadline: float | None = None, clock_start: float | None = None,
                 setup_watch: Any = None) -> None:
        """``max_minutes``: a budget from now; or ``deadline`` (a ``time.perf_counter()`` reading) with the
        ``clock_start`` it counts from (the command's start, train/budget.py): the run, its evaluations and saving
        end by then. ``setup_watch``: the alarm that holds the setup to the budget (train/budget.py), disarmed at the
        first training step and paused during a ``[bc]`` warm start, whose games the budget does not count."""
        self.setup_watch = setup_watch
        self.clock_start = time.perf_counter() if clock_start is None else float(clock_start)
        if deadline is None and max_minutes is not None:
            deadline = self.clock_start + 60.0 * float(max_minutes)
        self.deadline = deadline
        import cardenvs
        from cardenvs.agents.policy import check_pickle_trust, trust_pickle_file, trust_pilots
        from cardenvs.core.errors import BadArgumentError
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.logger import configure
        from stable_baselines3.common.vec_env import VecMonitor

        self.game = cardenvs.get_game(game).name
        self.cfg = cfg
        self.out = Path(out)
        self.progress = progress
        self.verbose = verbose
        tcfg, ocfg, ecfg = cfg["train"], cfg["opponents"], cfg["eval"]
        from .bc import check_settings
        from .config import check_values

        # a bad value stops here, before the env and model are built (load_config checked each file; this the
        # merged config with the command line's overrides, or a dict given by a caller)
        check_values(cfg)
        check_settings(cfg.get("bc", {}))
        # SB3 unpickles a .zip (a crafted one runs code): --resume and a [bc] teacher zip load only when the command
        # line says --trust-pickle (trust_pickle=True), or when this process wrote them (a staged run's models);
        # a config file alone never grants it
        if resume:
            check_pickle_trust(resume, trust_pickle)
        trust_pilots(str((cfg.get("bc") or {}).get("teacher", "")), trust_pickle)
        if not resume and int(cfg.get("bc", {}).get("games", 0) or 0) > 0:
            from cardenvs.agents import make_agent

            # an unknown [bc] teacher, or a policy file made for another game or observation: one error, now
            make_agent(self.game, str(cfg["bc"].get("teacher", "heuristic")), seed=0)
        _set_threads(int(tcfg["numba_threads"]), int(tcfg["torch_threads"]))
        (self.out / "checkpoints").mkdir(parents=True, exist_ok=True)
        self.seed = int(tcfg["seed"])
        gcfg = cfg.get("grow") or {}
        if resume and gcfg.get("enabled"):  # [grow]: the resumed model moved onto a longer observation / wider net
            from .grow import GrowError, grow

            grown = self.out / "grown" / "start.zip"
            try:
                info = grow(resume, grown, self.game, list(gcfg.get("net_arch") or []) or None,
                            seed=int(gcfg.get("seed", 0)))
            except GrowError as exc:
                raise BadArgumentError(f"[grow] {resume}: {exc}") from None
            trust_pickle_file(grown)  # written by this process
            if verbose:
                _print(f"[grow] {resume} -> {grown}: observation {info['obs'][0]:,} -> {info['obs'][1]:,} values, "
                       f"hidden layers {info['net_arch'][0]} -> {info['net_arch'][1]}")
            resume = str(grown)
        state = _load_run_state(resume) if resume else {}
        if trust_pickle:  # the resumed run's league checkpoints come with the run the user vouched for
            for league_path in state.get("league", []):
                if Path(league_path).exists():
                    trust_pickle_file(league_path)
        # the runs this one continues, oldest first, each with its config: what retraces a resumed (shipped) run
        self.lineage = list(state.get("lineage", [])) + (
            [{"model": str(resume), "steps": state.get("steps"), "config": state.get("config")}] if resume else [])
        pool = CheckpointPool(int(ocfg.get("league_size", 8)),
                              [p for p in state.get("league", []) if Path(p).exists()])
        self.mix = OpponentMix.from_config(ocfg, seed=self.seed, pool=pool)
        decks = tcfg.get("decks")
        self.mixed_decks = decks == "mixed"
        base = cardenvs.make_vec(self.game, int(tcfg["num_envs"]), opponent=self.mix, seed=self.seed,
                                 decks=None if self.mixed_decks or not decks else tuple(decks),
                                 learner_seat=tcfg.get("learner_seat", "random"),
                                 draw_reward=tcfg.get("draw_reward", 0.0))  # checked there: a number in [-1, 1]
        self.deck_sampler = None
        if self.mixed_decks:  # each episode's decks: starter decks and random legal decks (train/decks.py)
            from .decks import DeckSampler

            self.deck_sampler = DeckSampler(self.game, self.seed, random_share=float(tcfg["random_deck_share"]),
                                            bank_size=int(tcfg["deck_bank"]),
                                            starter_weights=tcfg.get("starter_weights") or {})
            self.deck_sampler.attach(base.seated.game)
        self.holdout = []
        if int(ecfg.get("holdout_pairs", 0)) > 0:  # random deck pairs training never used
            from .decks import holdout_pairs

            self.holdout = holdout_pairs(self.game, int(ecfg["holdout_pairs"]), self.seed,
                                         exclude=self.deck_sampler.bank if self.deck_sampler else ())
        if state.get("episodes_started"):
            # continue the episode numbering so a resumed run does not replay the same opponent draws and seeds
            base.seated.episodes_started = int(state["episodes_started"])
            base.seated.next_seed = int(state.get("next_seed", 0))
        self.base_env = base
        self.timed = _timed_vec_env_class()(base)
        self.env = VecMonitor(self.timed)
        pcfg = dict(cfg["ppo"])
        lr = float(pcfg.pop("learning_rate"))
        schedule = pcfg.pop("lr_schedule", "constant")
        net_arch = list(pcfg.pop("net_arch"))
        from .features import card_embedding_kwargs

        embedding = card_embedding_kwargs(self.game, int(pcfg.pop("card_embedding", 0) or 0))
        from .instance_head import InstanceHeadPolicy, instance_head_kwargs

        instance = instance_head_kwargs(self.game, int(pcfg.pop("instance_head", 0) or 0), embedding)
        learning_rate: Any = (lambda frac: lr * frac) if schedule == "linear" else lr
        device = _torch_device(str(tcfg.get("device", "cpu")))
        if resume:
            try:
                self.model = MaskablePPO.load(resume, env=self.env, device=device,
                                              custom_objects={"learning_rate": learning_rate})
            except ValueError as exc:
                if "spaces do not match" not in str(exc):
                    raise
                raise BadArgumentError(
                    f"--resume {resume}: the model was trained on another observation than {self.game}'s "
                    f"{self.env.observation_space.shape[0]:,} values ({exc}); if the observation only gained fields "
                    f"at its end, set [grow] enabled = true in the stage config (train/grow.py)") from None
            for line in kept_on_resume(self.model, pcfg, net_arch):
                _print(f"[train] warning: {line}")
        else:
            self.model = MaskablePPO(
                InstanceHeadPolicy if instance else "MlpPolicy", self.env, learning_rate=learning_rate,
                seed=self.seed, device=device, verbose=0,
                policy_kwargs={"net_arch": {"pi": net_arch, "vf": net_arch}, **embedding, **instance}, **pcfg)
        formats = ["tensorboard", "csv"] + (["stdout"] if verbose > 1 else [])
        self.model.set_logger(configure(str(self.out / "tb"), formats))
        self.warm_start: dict | None = None
        if not resume and int(cfg.get("bc", {}).get("games", 0) or 0) > 0:
            t_bc = time.perf_counter()
            if self.setup_watch is not None:
                self.setup_watch.disarm()
            self.warm_start = self._clone_teacher(cfg["bc"])  # [bc]: start from a clone of the teacher
            if self.deadline is not None:  # a fixed number of games: the budget's clock starts after it (stated)
                bc_s = time.perf_counter() - t_bc
                self.deadline += bc_s
                self.clock_start += bc_s
                if self.setup_watch is not None:  # the alarm moves with the clock
                    self.setup_watch.deadline += bc_s
                    self.setup_watch.clock_start += bc_s
                    self.setup_watch.arm()
                if verbose:
                    _print(f"[budget] the [bc] warm start took {bc_s:.0f} s; the budget counts from its end")
        self.total_steps = int(tcfg["total_steps"])
        self.stop_steps = int(tcfg.get("stop_steps") or 0)
        self.next_stop_check = 0  # the step at which the callback next looks for <out>/STOP
        n = self.model.num_timesteps
        self.checkpoint_every = int(tcfg["checkpoint_every"])
        self.league_every = int(ocfg.get("league_every", self.checkpoint_every))
        self.eval_every = int(ecfg["every"])
        self.next_checkpoint = _next_multiple(n, self.checkpoint_every)
        self.next_league = _next_multiple(n, self.league_every)
        self.next_eval = _next_multiple(n, self.eval_every) if n > 0 else 0
        self.eval_rows: list[dict] = _read_csv(self.out / "eval.csv") if resume else []
        self.t_start = time.perf_counter()
        self.steps_start = n
        self.env_seconds_start = 0.0
        self.eval_seconds = 0.0
        self.last_status = time.perf_counter()
        self.mix.steps = n
        # the budget (train/budget.py): its evaluation plan, made when training starts, and what the stop measures
        self.plan = None
        self.bar: Any = None
        self.periodic_done = 0  # evaluations of the plan made before the final one
        self.last_eval_t = 0.0
        self.next_eval_t = float("inf")
        self.step_s = 0.0  # seconds per vector step (an average), the PPO update's seconds, saving's seconds
        self.update_s = 0.0
        self.save_s = 2.0
        self.exit_s = 0.5
        self.last_step_t = time.perf_counter()
        self.rollout_end_t: float | None = None
        self.stop_said = False

    def _clone_teacher(self, bcfg: dict) -> dict:
        """The ``[bc]`` warm start (train/bc.py): record the teacher's games (the heuristic's unless ``[bc] teacher``
        names another agent) on the run's decks, fit the new policy to them, write ``bc.json``."""
        from .bc import clone, record

        # the run's decks and bank (held-out decks stay unseen), drawn on their own stream
        sampler = self.deck_sampler.fork(self.seed + 7) if self.deck_sampler is not None else None
        t = time.perf_counter()
        say = (lambda text: _print(text)) if self.verbose else (lambda text: None)
        last = [time.perf_counter()]

        def recorded(played: int, decisions: int) -> None:
            if time.perf_counter() - last[0] > 30:
                last[0] = time.perf_counter()
                say(f"[bc] recorded {played:,} of {games:,} games ({decisions:,} decisions)")

        from cardenvs.agents.policy import PolicyAgent

        teacher_name = str(bcfg.get("teacher", "heuristic"))
        from cardenvs.agents import make_agent

        # where a trained teacher came from (its own steps, seed, commit): the student's policy.npz carries it
        teacher_meta = getattr(make_agent(self.game, teacher_name, seed=self.seed), "meta", None) or {}
        teacher = {"name": teacher_name, **{k: teacher_meta[k] for k in ("steps", "seed", "commit", "date", "hidden",
                                                                       "lineage") if k in teacher_meta}}
        rounds = []
        demos = None
        started = None
        if bcfg.get("init"):  # the network starts as the teacher file itself; the rounds below fit its value head
            from cardenvs.agents.policy import _resolve

            from .bc import start_from_policy

            started = start_from_policy(self.model, str(_resolve(teacher_name[4:])))
            say(f"[bc] the network starts from {teacher_name}'s weights")
        for r in range(1 + int(bcfg["dagger_rounds"])):
            t = time.perf_counter()
            games = int(bcfg["games"]) if r == 0 or not int(bcfg["dagger_games"]) else int(bcfg["dagger_games"])
            # round 0 records the heuristic's own games; each DAgger round the positions the clone reaches
            new = record(self.game, games, self.seed + 7919 * r, explore=float(bcfg["explore"]),
                         opponent_random=float(bcfg["opponent_random"]), gamma=float(self.model.gamma),
                         draw_reward=float(self.cfg["train"].get("draw_reward", 0.0)), deck_sampler=sampler,
                         batch_games=int(bcfg["batch_games"]), max_mb=float(bcfg["max_mb"]),
                         pilot=None if r == 0 else PolicyAgent(self.model, name="clone"), progress=recorded,
                         teacher=teacher_name)
            cap = max(1, int(float(bcfg["max_mb"]) * 1e6 / (2 * new.obs.shape[1])))  # [bc] max_mb: oldest dropped
            demos = new if demos is None else demos.merged(new, cap)
            record_s = time.perf_counter() - t
            say(f"[bc] round {r}: {len(new):,} decisions from {games:,} {teacher_name if r == 0 else 'clone'} games "
                f"in {record_s:.0f} s; cloning on {len(demos):,}")
            fit = clone(self.model, demos, epochs=int(bcfg["epochs"]), batch_size=int(bcfg["batch_size"]),
                        learning_rate=float(bcfg["learning_rate"]), seed=self.seed + r, value_only=started is not None,
                        progress=lambda e, loss: say(f"[bc] epoch {e}/{int(bcfg['epochs'])}: loss {loss:.4f}"))
            fit["record_s"] = round(record_s, 1)
            rounds.append(fit)
            say(f"[bc] the clone picks the teacher's ({teacher_name}) move in {fit['agreement']:.1%} of {fit['holdout']:,} held-out "
                f"decisions ({fit['fit_s']:.0f} s)")
        summary = dict(rounds[-1], rounds=rounds, teacher=teacher, **({"init": started} if started else {}))
        (self.out / "bc.json").write_text(json.dumps(summary, indent=1))
        return summary

    # -- the budget (train/budget.py) --
    def rate(self) -> float:
        """Steps per second of this run so far (evaluations included)."""
        return (self.model.num_timesteps - self.steps_start) / max(time.perf_counter() - self.t_start, 1e-9)

    def time_step(self, now: float) -> None:
        """Average the seconds of one vector step (the time since the callback's last call, when nothing else ran)."""
        dt = now - self.last_step_t
        if dt > 0:
            self.step_s = dt if self.step_s == 0 else 0.9 * self.step_s + 0.1 * dt
        self.last_step_t = now

    def final_reserve(self) -> float:
        """Seconds kept for the end of a budgeted run: the final evaluation, saving and exporting, the process's exit
        and 1 s to spare."""
        return (self.plan.final_s if self.plan is not None else 0.0) + self.save_s + self.exit_s + 1.0

    def rollout_rest(self, locals_: dict) -> float:
        """Seconds until the current rollout and its PPO update are done, at the measured rates."""
        left = int(locals_.get("n_rollout_steps", 0)) - int(locals_.get("n_steps", 0)) - 1
        return max(left, 0) * self.step_s + self.update_s

    def should_stop(self, now: float, locals_: dict) -> bool:
        """Stop now if finishing this rollout and its update would leave too little for the final evaluation and
        saving before the deadline (the steps of a rollout that is cut short are not trained on: nothing is lost
        by stopping at its start instead of its end)."""
        if now + self.rollout_rest(locals_) + self.final_reserve() <= self.deadline:
            return False
        if self.verbose and not self.stop_said:
            self.stop_said = True
            _print(f"[budget] training stops at step {self.model.num_timesteps:,} with "
                   f"{max(self.deadline - now, 0):.0f} s left: the final evaluation (up to {self.plan.final_s:.0f} s) "
                   f"and saving fit in it")
        return True

    def start_budget(self, now: float) -> None:
        """Plan the evaluations for the time left (train/budget.py) and say so."""
        budget_s = self.deadline - self.clock_start
        self.plan = plan_budget(budget_s, left=self.deadline - now)
        # Python's exit (torch's and numba's modules torn down) slows with the machine's load as the start did:
        # measured 0.25-0.4 of the imports' time on a loaded 2-core machine, under a second on a quiet one
        self.exit_s = max(0.5, 0.25 * (now - self.clock_start))
        self.last_eval_t = now
        resumed_here = bool(self.eval_rows) and self.eval_rows[-1]["step"] == self.model.num_timesteps
        self.next_eval_t = float("inf") if resumed_here else now  # the start: the untrained (or resumed) policy
        if resumed_here:
            self.schedule_eval(now)
        if self.verbose:
            _print(f"[budget] {clock(budget_s)} for the whole command ({clock(self.deadline - now)} left after "
                   f"setup; ends within +{tolerance(budget_s):.0f} s): {self.plan.points} evaluations, the first now, "
                   f"the final one after training, each up to {self.plan.slice_s:.0f} s (the final "
                   f"{self.plan.final_s:.0f} s) of the games [eval] asks for")

    def schedule_eval(self, now: float) -> None:
        """The next periodic evaluation: the ones still to make spread evenly between the last one and the end of
        training (the deadline less the final reserve, or sooner where the measured rate reaches total_steps)."""
        left_points = self.plan.points - 1 - self.periodic_done
        if left_points <= 0:
            self.next_eval_t = float("inf")
            return
        end = self.deadline - self.final_reserve()
        rate = self.rate()
        if rate > 0 and self.model.num_timesteps > self.steps_start:
            end = min(end, now + (self.total_steps - self.model.num_timesteps) / rate)
        self.next_eval_t = self.last_eval_t + (end - self.last_eval_t) / (left_points + 1)

    def eval_due(self, now: float) -> bool:
        return now >= self.next_eval_t

    def eval_slice(self, locals_: dict | None = None) -> float:
        """Seconds for a periodic evaluation: its slice of the plan, less whatever the final reserve needs."""
        room = self.deadline - time.perf_counter() - self.final_reserve() - self.rollout_rest(locals_ or {})
        return max(0.0, min(self.plan.slice_s, room))

    # -- pieces called by the callback --
    def checkpoint(self, n: int) -> Path:
        path = self.out / "checkpoints" / f"step_{n:010d}.zip"
        t_save = time.perf_counter()
        self.model.save(path)
        self.save_s = max(2.0, 3 * (time.perf_counter() - t_save))  # the final save, its run state and the export
        from cardenvs.agents.policy import trust_pickle_file

        trust_pickle_file(path)  # this process wrote it: the league may load it back
        while self.next_checkpoint <= n:
            self.next_checkpoint += self.checkpoint_every
        if n >= self.next_league:
            self.mix.pool.add(path)  # a frozen copy on disk: later training does not change it
            while self.next_league <= n:
                self.next_league += self.league_every
        self._save_run_state(path)
        return path

    def _eval_fits(self, seconds: float, what: str) -> bool:
        """Whether a budgeted evaluation of ``seconds`` is worth starting: below MIN_EVAL_S (a setup that compiled
        the kernels on a loaded machine can leave nothing) even its first batch of games would overrun the budget,
        so it is skipped, and said."""
        if seconds >= MIN_EVAL_S:
            return True
        if self.verbose:
            _print(f"[budget] {what} is skipped: {max(self.deadline - time.perf_counter(), 0):.0f} s of the budget "
                   f"left, {seconds:.1f} s for it (less than {MIN_EVAL_S:.0f} s)")
        return False

    def evaluate(self, n: int, seconds: float | None = None, final: bool = False) -> dict:
        """Play the learner against each ``[eval]`` opponent (and on the held-out deck pairs) and log a row of
        ``eval.csv``. With ``seconds`` (a budgeted run) the games are those that fit in that time, at most
        ``[eval] games`` per opponent (:func:`train.evaluate.play_timed`); the row says how many were played."""
        from cardenvs.agents.policy import PolicyAgent

        from .evaluate import MatchResult, play_match, play_timed, wilson

        t = time.perf_counter()
        ecfg = self.cfg["eval"]
        games = int(ecfg["games"])
        learner = PolicyAgent(self.model, name="learner")
        row: dict[str, Any] = {"step": n, "wall_s": round(time.perf_counter() - self.t_start + self.eval_seconds, 2)}
        decks = self.cfg["train"].get("decks")
        decks = None if decks == "mixed" or not decks else tuple(decks)
        opponents = list(ecfg["opponents"])
        parts = len(opponents) * (2 if self.holdout else 1)
        unseen = f", and as many on {len(self.holdout)} unseen deck pairs" if self.holdout else ""
        what = f"vs {', '.join(opponents)}: {games:,} games each{unseen}"
        if self.verbose:  # said before it plays: an evaluation can take minutes
            _print(f"[eval] step {n:,}: " + ("the final evaluation: " if final else "")
                   + (f"up to {seconds:.0f} s, at most {what}" if seconds is not None else what))
        played = [0]

        def progress(k: int) -> None:
            played[0] += k
            if self.bar is not None:
                self.bar.set_note(f"evaluating {label}: {played[0]:,} games played", n, self.rate())

        def match(opp: str, pairs: list, seed: int) -> tuple[MatchResult, int]:
            if seconds is not None:  # the games that fit in this part's share of the slice
                return play_timed(self.game, learner, opp, games, seconds / parts, seed=seed, pairs=pairs,
                                  progress=progress)
            per = max(2, games // len(pairs))
            total = MatchResult.empty()
            from .evaluate import add_result

            for k, pair in enumerate(pairs):
                add_result(total, play_match(self.game, learner, opp, games=per, seed=seed + k, decks=pair,
                                             progress=progress))
            return total, len(pairs)

        for opp in opponents:
            if self.holdout:  # the same number of games again, spread over the held-out random deck pairs
                label = f"vs {opp} on unseen decks"
                res, reached = match(opp, self.holdout, int(ecfg["seed"]))
                row[f"unseen_win_{opp}"] = round(res.win_rate, 4)
                row[f"unseen_lo_{opp}"], row[f"unseen_hi_{opp}"] = (round(v, 4) for v in wilson(res.wins, res.games))
                row[f"unseen_games_{opp}"] = res.games
                row[f"unseen_pairs_{opp}"] = reached
                self.model.logger.record(f"eval/unseen_win_rate_vs_{opp}", res.win_rate)
            label = f"vs {opp}"
            res, _ = match(opp, [decks], int(ecfg["seed"]))
            lo, hi = res.ci
            row[f"win_{opp}"] = round(res.win_rate, 4)
            row[f"lo_{opp}"] = round(lo, 4)
            row[f"hi_{opp}"] = round(hi, 4)
            row[f"score_{opp}"] = round(res.score, 4)
            row[f"games_{opp}"] = res.games
            for seat, (w_, d_, l_) in res.by_seat.items():  # a policy that only wins from one seat is not done
                row[f"win_{opp}_seat{seat}"] = round(w_ / max(w_ + d_ + l_, 1), 4)
            self.model.logger.record(f"eval/win_rate_vs_{opp}", res.win_rate)
            self.model.logger.record(f"eval/win_rate_vs_{opp}_ci_low", lo)
            self.model.logger.record(f"eval/score_vs_{opp}", res.score)
        self.eval_seconds += time.perf_counter() - t
        row["eval_s"] = round(time.perf_counter() - t, 2)
        self.eval_rows.append(row)
        _write_csv(self.out / "eval.csv", self.eval_rows)
        while self.next_eval <= n:
            self.next_eval += self.eval_every
        if self.plan is not None and not final:  # the next one of the plan, spread over the time left
            self.periodic_done += 1
            self.last_eval_t = time.perf_counter()
            self.schedule_eval(self.last_eval_t)
        self.last_step_t = time.perf_counter()  # the evaluation is not a vector step
        if self.bar is not None:
            self.bar.set_note("", n, self.rate())
        if self.verbose:
            text = "  ".join(f"vs {o}: {row[f'win_{o}']:.3f} [{row[f'lo_{o}']:.3f}, {row[f'hi_{o}']:.3f}]"
                             + (f" of {row[f'games_{o}']}" if seconds is not None else "")
                             + (f" unseen {row[f'unseen_win_{o}']:.3f}" if f"unseen_win_{o}" in row else "")
                             for o in opponents)
            _print(f"[eval] step {n:>10,}  {text}  ({row['eval_s']:.1f}s)")
        return row

    def _save_run_state(self, model_path: Path) -> None:
        seated = self.base_env.seated
        state = {"game": self.game, "steps": int(self.model.num_timesteps), "model": str(model_path),
                 "league": list(self.mix.pool.paths), "episodes_started": int(seated.episodes_started),
                 "next_seed": int(seated.next_seed), "config": self.cfg, "lineage": self.lineage}
        (self.out / "run_state.json").write_text(json.dumps(state, indent=1, default=str))
        Path(str(model_path).removesuffix(".zip") + ".json").write_text(json.dumps(state, indent=1, default=str))

    def export(self, path: Path) -> Path:
        """The shipped-policy file (numpy forward pass, no torch needed) of the current model, with the config,
        seed, steps, commit and the last evaluation in its metadata."""
        from cardenvs.agents.policy import export

        return export(self.model, path, self.game, config=self.cfg, seed=self.seed,
                      steps=int(self.model.num_timesteps), weights_dtype=str(self.cfg["train"]["export_dtype"]),
                      extra={"last_eval": self.eval_rows[-1] if self.eval_rows else None, "lineage": self.lineage,
                             "warm_start": self.warm_start,
                             "decks": "starter + random legal decks" if self.mixed_decks else
                             (self.cfg["train"].get("decks") or "default pair")})

    # -- the run --
    def run(self) -> dict:
        remaining = self.total_steps - self.model.num_timesteps
        wall0 = time.perf_counter()
        env0 = self.timed.env_seconds
        steps0 = self.model.num_timesteps
        self.t_start = self.last_step_t = wall0
        self.steps_start = steps0
        if self.progress:  # the budget's clock when there is one, else the steps against total_steps
            from .budget import TrainBar

            self.bar = TrainBar(self.game, self.total_steps, steps0,
                                None if self.deadline is None else self.deadline - self.clock_start, self.clock_start)
        try:
            if self.deadline is not None:  # plan the evaluations in time; the first one now, at the start
                from cardenvs.core.batch import BatchGame

                # the evaluation kernels compile at their first call (after an install or an edit): here, so the
                # plan sees the time that is really left
                BatchGame.warm_up(self.game)
                self.start_budget(time.perf_counter())
                if self.eval_due(time.perf_counter()) and self._eval_fits(self.eval_slice(), "the first evaluation"):
                    self.evaluate(steps0, seconds=self.eval_slice())
                    # its first games also warmed the pilots up: the rest of the plan fits the time now left
                    self.plan = plan_budget(self.plan.seconds, left=self.deadline - time.perf_counter())
                    self.schedule_eval(time.perf_counter())
            if remaining > 0:
                self.model.learn(total_timesteps=remaining, callback=_make_callback(self), reset_num_timesteps=False,
                                 progress_bar=False)
            n = self.model.num_timesteps
            final = self.out / "final.zip"
            self.model.save(final)
            from cardenvs.agents.policy import trust_pickle_file

            trust_pickle_file(final)  # this process wrote it: the next stage resumes it
            self._save_run_state(final)
            if not self.eval_rows or self.eval_rows[-1]["step"] != n:
                # under a budget: its reserved slice, or what is left of it (the export and 1 s to spare kept)
                seconds = (None if self.plan is None else
                           max(0.0, min(self.plan.final_s, self.deadline - time.perf_counter() - self.exit_s - 1.0)))
                if seconds is None or self._eval_fits(seconds, "the final evaluation"):
                    self.evaluate(n, seconds=seconds, final=True)
            exported = self.export(self.out / "policy.npz")
        finally:
            if self.bar is not None:
                self.bar.update(self.model.num_timesteps, self.rate(), force=True)
                self.bar.close()
                self.bar = None
        wall = time.perf_counter() - wall0
        env_s = self.timed.env_seconds - env0
        summary = {
            "game": self.game, "steps": int(n), "steps_this_run": int(n - steps0), "wall_s": round(wall, 1),
            "eval_s": round(self.eval_seconds, 1),
            "steps_per_s": round((n - steps0) / max(wall, 1e-9), 1),
            "steps_per_s_excluding_eval": round((n - steps0) / max(wall - self.eval_seconds, 1e-9), 1),
            "env_s": round(env_s, 1), "env_share": round(env_s / max(wall, 1e-9), 3),
            "env_share_excluding_eval": round(env_s / max(wall - self.eval_seconds, 1e-9), 3),
            "opponent_episodes": dict(self.mix.counts), "league": list(self.mix.pool.paths),
            "final_model": str(final), "policy": str(exported),
            "last_eval": self.eval_rows[-1] if self.eval_rows else None,
            "decks_drawn": dict(self.deck_sampler.drawn) if self.deck_sampler else None,
            "warm_start": self.warm_start,
        }
        (self.out / "summary.json").write_text(json.dumps(summary, indent=1))
        if self.verbose:
            _print(f"[done] {n:,} steps, {summary['steps_per_s']:.0f} steps/s, env share of wall time "
                   f"{summary['env_share']:.1%}; final model {final}")
        return summary


# ----- helpers ------------------------------------------------------------------------------------------------------
def _set_threads(numba_threads: int, torch_threads: int) -> None:
    import numba
    import torch

    numba.set_num_threads(max(1, min(numba_threads, numba.config.NUMBA_NUM_THREADS)))
    torch.set_num_threads(max(1, torch_threads))


def _torch_device(name: str) -> str:
    """[train] device as torch names it: "auto" is cuda when torch sees one; "cuda" without one is one error."""
    import torch

    from cardenvs.core.errors import BadArgumentError

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise BadArgumentError('[train] device = "cuda", but torch sees no CUDA device here (use "cpu" or "auto")')
    return name


def _next_multiple(n: int, every: int) -> int:
    return (n // every + 1) * every


def kept_on_resume(model: Any, ppo_settings: dict, net_arch: list[int]) -> list[str]:
    """What a resumed ``model`` keeps against the run's ``[ppo]`` settings: one line per setting that differs.

    ``--resume`` takes only the learning rate (and its schedule) from the new config; the rollout, batch, loss and
    network settings stay the saved model's, so a stage file that sets them would otherwise change nothing silently."""
    lines = []
    for key, wanted in sorted(ppo_settings.items()):
        if not hasattr(model, key) or isinstance(wanted, (list, dict)):
            continue
        kept = getattr(model, key)
        kept = kept(1.0) if callable(kept) else kept  # clip_range: SB3 keeps a schedule
        if kept != wanted and not (isinstance(kept, float) and abs(float(kept) - float(wanted)) < 1e-12):
            lines.append(f"[ppo] {key} = {wanted!r} is not applied to a resumed model: it keeps {kept!r} "
                         "(only learning_rate and lr_schedule apply to a resumed run)")
    arch = getattr(model.policy, "net_arch", None)
    kept_arch = list(arch.get("pi", [])) if isinstance(arch, dict) else list(arch or [])
    if kept_arch and kept_arch != list(net_arch):
        lines.append(f"[ppo] net_arch = {list(net_arch)} is not applied to a resumed model: it keeps {kept_arch} "
                     "(train/grow.py widens a trained model)")
    return lines


def _load_run_state(resume: str) -> dict:
    p = Path(resume)
    for cand in (Path(str(p).removesuffix(".zip") + ".json"), p.parent / "run_state.json",
                 p.parent.parent / "run_state.json"):
        if cand.exists():
            return json.loads(cand.read_text())
    return {}


def _write_csv(path: Path, rows: list[dict]) -> None:
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)


def _read_csv(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with open(path) as f:
        return [{k: (float(v) if k != "step" else int(float(v))) for k, v in r.items() if v != ""}
                for r in csv.DictReader(f)]


def _print(text: str) -> None:
    try:
        from tqdm import tqdm

        tqdm.write(text)  # keeps the progress bar intact
    except ImportError:  # pragma: no cover
        print(text, flush=True)


def build_config(game: str, args: argparse.Namespace) -> dict:
    from cardenvs.agents.policy import trusting_every_zip

    # load_config loads the agents a config names: with --trust-pickle the user vouches for their SB3 zips (a [bc]
    # teacher); without it a config file alone never makes one load
    with trusting_every_zip(bool(getattr(args, "trust_pickle", False))):
        cfg = load_config(game, args.config)
    over: dict[str, Any] = {"train": {}, "eval": {}}
    for key, name in (("total_steps", "total_steps"), ("stop_steps", "stop_steps"), ("seed", "seed"),
                      ("num_envs", "num_envs")):
        v = getattr(args, name)
        if v is not None:
            over["train"][key] = v
    if args.eval_every is not None:
        over["eval"]["every"] = args.eval_every
    if args.eval_games is not None:
        over["eval"]["games"] = args.eval_games
    return merge(cfg, over)


def _steps(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a step count >= 0, got {text!r}")
    return value


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="cardenvs train", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="a registered game, e.g. levelneo or simulfight")
    ap.add_argument("--config", help="TOML file (merged over the defaults and train/configs/<game>.toml)")
    ap.add_argument("--total-steps", type=int, dest="total_steps", help="train until the model has this many steps")
    ap.add_argument("--stop-steps", type=_steps, dest="stop_steps",
                    help="stop once the model has this many steps; the learning-rate schedule still runs to "
                         "--total-steps (retraces a run that --max-minutes stopped early)")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--num-envs", type=int, dest="num_envs")
    ap.add_argument("--eval-every", type=int, dest="eval_every", help="steps between evaluations")
    ap.add_argument("--eval-games", type=int, dest="eval_games", help="games per evaluation and opponent")
    ap.add_argument("--resume", help="continue from a checkpoint .zip (league pool and counters restored); SB3 "
                                     "unpickles it, so it needs --trust-pickle")
    ap.add_argument("--trust-pickle", action="store_true", dest="trust_pickle",
                    help="load the --resume model, its league and a [bc] teacher .zip although SB3 unpickles them (a "
                         "crafted .zip runs code): only for runs you made or trust. A config file cannot grant this")
    ap.add_argument("--stages", nargs="?", const="", default=None, metavar="CHAIN.toml",
                    help="then continue the run with each train/configs/<game>_stage<k>.toml in turn, each resuming "
                         "the previous final model in <out>-stage<k>; with a chain file (train/configs/chains/), run "
                         "its [[stage]] list instead (retraces a staged shipped policy; a --max-minutes budget "
                         "covers all stages, each getting an equal share of the time still left)")
    ap.add_argument("--out", help="run folder (default runs/<game>-<seed>-<time>, or the resumed run's folder)")
    ap.add_argument("--max-minutes", type=float, dest="max_minutes",
                    help="a budget for the whole command (from its start, evaluations included; a [bc] warm start "
                         "excepted): evaluations are spread over it in time and sized to fit, training stops in time "
                         "for the final evaluation and saving, and the command ends within it plus 5 s and 2%% "
                         "(train/budget.py); creating a file named STOP in the run folder stops a run at any time")
    ap.add_argument("--export", help="also write the shipped-policy .npz here (e.g. agents/policies/<game>.npz); the run "
                                     "folder always gets policy.npz")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    ap.add_argument("-q", "--quiet", action="store_true")
    return ap.parse_args(argv)


def stage_configs(game: str) -> list[Path]:
    """``train/configs/<game>_stage<k>.toml`` in the order of k: each continues the run before it (``--stages``)."""
    from .config import CONFIG_DIR

    found = []
    for path in CONFIG_DIR.glob(f"{game}_stage*.toml"):
        k = path.stem.removeprefix(f"{game}_stage")
        if k.isdigit():
            found.append((int(k), path))
    return [path for _, path in sorted(found)]


#: what a ``[[stage]]`` of a chain file may say besides its ``config``
CHAIN_STAGE_KEYS = {"config": str, "total_steps": int, "stop_steps": int, "fresh_optimizer": bool}


@dataclass(frozen=True)
class Stage:
    """One stage of a staged run: a config file, step overrides, and whether it resumes a slim copy of the model
    before it (``fresh_optimizer``: Adam's moments dropped, as :mod:`train.slim` does)."""

    config: Path
    total_steps: int | None = None
    stop_steps: int | None = None
    fresh_optimizer: bool = False


def chain_stages(game: str, path: str | Path) -> list[Stage]:
    """The ``[[stage]]`` list of a chain file (``train/configs/chains/<game>.toml``): each stage's ``config`` (relative
    to the chain file's folder), optional ``total_steps`` / ``stop_steps`` and ``fresh_optimizer``; the first stage
    starts from scratch, each later one resumes the final model of the one before it. Every mistake is one error that
    names the file and the stage."""
    from cardenvs.core.errors import BadArgumentError

    from .config import tomllib

    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise BadArgumentError(f"--stages {path}: cannot read the chain file ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadArgumentError(f"--stages {path}: not valid TOML ({exc})") from None
    extra = sorted(set(data) - {"stage"})
    raw = data.get("stage")
    if extra or not isinstance(raw, list) or not raw:
        raise BadArgumentError(f"--stages {path}: a chain file holds one [[stage]] table per stage and nothing else"
                               + (f" (found {', '.join(extra)})" if extra else ""))
    stages = []
    for k, entry in enumerate(raw, 1):
        where = f"--stages {path}: stage {k}"
        unknown = sorted(set(entry) - set(CHAIN_STAGE_KEYS))
        if unknown:
            raise BadArgumentError(f"{where}: unknown key {unknown[0]!r}; a stage has {', '.join(CHAIN_STAGE_KEYS)}")
        for key, kind in CHAIN_STAGE_KEYS.items():
            value = entry.get(key)
            bad = value is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))
                                         or (kind is int and value < 0))
            if bad or (key == "config" and value is None):
                raise BadArgumentError(f"{where}: {key} must be {'a step count >= 0' if kind is int else kind.__name__}"
                                       f", got {value!r}")
        config = (path.parent / entry["config"]).resolve()
        if not config.is_file():
            raise BadArgumentError(f"{where}: no config file {entry['config']!r} (looked for {config})")
        if k == 1 and entry.get("fresh_optimizer"):
            raise BadArgumentError(f"{where}: fresh_optimizer needs a stage before it to resume")
        load_config(game, config)  # a bad key or value in a stage's config: one error now, not hours in
        stages.append(Stage(config, entry.get("total_steps"), entry.get("stop_steps"),
                            bool(entry.get("fresh_optimizer", False))))
    return stages


#: what training imports beyond the base install (the ``train`` extra of pyproject.toml)
TRAINING_MODULES = ("torch", "stable_baselines3", "sb3_contrib")


def require_training_extras(command: str) -> None:
    """One clear error, before any work, where the ``train`` extra is not installed (the base install pilots and
    evaluates with numpy only): which modules are missing and the command that installs them."""
    import importlib.util

    from cardenvs.core.errors import BadArgumentError

    missing = [m for m in TRAINING_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        raise BadArgumentError(f"{command} needs the training extras, not installed here (missing: "
                               f"{', '.join(missing)}): pip install torch==2.13.0 -e '.[train]' in the repository "
                               f"(or pip install 'cardenvs[train]')")


def main(argv: Sequence[str] | None = None, clock_start: float | None = None) -> dict:
    """Train as the command line says; ``clock_start`` (a ``time.perf_counter()`` reading, default: now) is where a
    ``--max-minutes`` budget counts from: the commands pass their process's start (train/budget.py)."""
    clock_start = time.perf_counter() if clock_start is None else clock_start
    args = parse_args(argv)
    import importlib.util  # noqa: F401  (cardenvs.available_games uses importlib.util)
    import math

    import cardenvs
    from cardenvs.core.errors import BadArgumentError

    game = cardenvs.get_game(args.game).name
    require_training_extras("cardenvs train")
    if args.max_minutes is not None and not (math.isfinite(args.max_minutes) and args.max_minutes > 0):
        raise BadArgumentError(f"--max-minutes must be a number of minutes above 0, got {args.max_minutes:g}")
    deadline = None if args.max_minutes is None else clock_start + 60.0 * args.max_minutes
    from contextlib import nullcontext

    from .budget import watch

    # the setup (the imports, the env and model, kernels compiling at their first call) is held to the budget by an
    # alarm until the first training step, from which the trainer keeps it (train/budget.py, SetupWatch)
    guard = watch(deadline, 0.0 if deadline is None else deadline - clock_start, game, clock_start)
    with guard if guard is not None else nullcontext():
        stages: list[Stage] = []
        if args.stages is not None:
            clash = [flag for flag, value in (("--config", args.config), ("--resume", args.resume),
                                              ("--total-steps", args.total_steps), ("--stop-steps", args.stop_steps))
                     if value is not None]
            if clash:
                raise BadArgumentError(f"--stages runs the shipped config and then each stage file as they are: drop "
                                       f"{', '.join(clash)}")
            if args.stages:  # a chain file: its first stage replaces the shipped config
                stages = chain_stages(game, args.stages)
                first = stages.pop(0)
                args.config, args.total_steps, args.stop_steps = str(first.config), first.total_steps, first.stop_steps
            else:
                stages = [Stage(path) for path in stage_configs(game)]
                if not stages:
                    raise BadArgumentError(f"--stages: {game} has no train/configs/{game}_stage<k>.toml")
        cfg = build_config(game, args)
        if args.out:
            out = Path(args.out)
        elif args.resume:
            p = Path(args.resume).resolve()
            out = p.parent.parent if p.parent.name == "checkpoints" else p.parent
        else:
            out = Path("runs") / f"{game}-s{cfg['train']['seed']}-{time.strftime('%Y%m%d-%H%M%S')}"
        # a budget covers the whole command: with --stages each stage gets an equal share of the time still left
        summary = _run(game, cfg, out, args.resume, args, *_stage_budget(deadline, clock_start, 1 + len(stages)),
                       guard=guard)
        for k, stage in enumerate(stages, 2):  # each stage resumes the final model of the run before it
            args.config, args.total_steps, args.stop_steps = str(stage.config), stage.total_steps, stage.stop_steps
            suffix = stage.config.stem.removeprefix(game + "_") if args.stages == "" else f"stage{k}"
            stage_out = Path(f"{out}-{suffix}")
            start = summary["final_model"]
            if stage.fresh_optimizer:  # as the run it retraces did: the model went on from a slim copy
                from .slim import slim

                stage_out.mkdir(parents=True, exist_ok=True)
                start = slim(start, stage_out / "start.zip")["out"]
            summary = _run(game, build_config(game, args), stage_out, start, args,
                           *_stage_budget(deadline, None, len(stages) + 2 - k))
        if args.export:
            import shutil

            Path(args.export).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(summary["policy"], args.export)
            summary["exported"] = str(args.export)
            if not args.quiet:
                _print(f"[export] {args.export}")
        return summary


def _stage_budget(deadline: float | None, clock_start: float | None, stages_left: int) -> tuple:
    """``(deadline, clock_start)`` of the next of ``stages_left`` stages: an equal share of the budget still left
    (a stage that ends early leaves its time to the next ones); its clock starts now unless given."""
    if deadline is None:
        return None, None
    now = time.perf_counter()
    return now + (deadline - now) / max(stages_left, 1), now if clock_start is None else clock_start


def _run(game: str, cfg: dict, out: Path, resume: str | None, args: argparse.Namespace,
         deadline: float | None = None, clock_start: float | None = None, guard: Any = None) -> dict:
    """One training run; ``guard``: the command's armed setup alarm (train/budget.py) where the caller holds one,
    else one is armed here for a budgeted run."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(cfg, indent=1))
    if not args.quiet:
        _print(f"[train] {game}: {cfg['train']['total_steps']:,} steps, {cfg['train']['num_envs']} envs, "
               f"opponents {cfg['opponents'].get('phases') or cfg['opponents'].get('mix')}; run folder {out}"
               + (f"; resumes {resume}" if resume else ""))
    # a progress bar on a terminal; in a log file (no terminal) a status line every 30 s instead
    bar = not args.no_progress and (sys.stderr.isatty() or os.environ.get("CARDENVS_PROGRESS") == "1")
    from contextlib import nullcontext

    from .budget import watch

    start = time.perf_counter() if clock_start is None else clock_start
    own = None if guard is not None else watch(deadline, 0.0 if deadline is None else deadline - start, game, start)
    with own if own is not None else nullcontext():
        trainer = Trainer(game, cfg, out, resume=resume, progress=bar, verbose=0 if args.quiet else 1,
                          trust_pickle=bool(getattr(args, "trust_pickle", False)), deadline=deadline,
                          clock_start=start, setup_watch=guard if guard is not None else own)
        return trainer.run()


def command(argv: Sequence[str] | None = None) -> dict:
    """``cardenvs train`` and ``python -m cardenvs.train.ppo``: :func:`main` with a budget counted from the start of
    this process (Python's start and the imports included), as the person who timed the command counts it."""
    return main(argv, clock_start=process_start())


def _cli(argv: Sequence[str] | None = None) -> int:
    """``python -m cardenvs.train.ppo``: a user mistake (unknown game, bad config key) is one line on stderr, exit status 2."""
    from cardenvs.core.errors import run_cli

    return run_cli(command, argv, "python -m cardenvs.train.ppo")


__all__ = [
    "build_config", "CHAIN_STAGE_KEYS", "chain_stages", "command", "kept_on_resume", "main", "parse_args",
    "require_training_extras", "Stage", "stage_configs", "Trainer", "TRAINING_MODULES",
]


if __name__ == "__main__":
    sys.exit(_cli())
