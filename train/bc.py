"""Warm start by behaviour cloning: a new run's policy first learns to play like the game's heuristic, then PPO
improves on it.

Why: from a random start PPO spends its budget learning what the heuristic already knows, and on the games with
long turns (heartbreak: 0.80 against random after 1.7M steps, while the heuristic scores 0.94) it plateaus below
it. Cloning the heuristic first puts the policy at the heuristic's level in minutes; PPO's self-play then has to
beat it rather than reach it.

``[bc]`` in a config (used only when a run starts from scratch, not on ``--resume``; all keys and their defaults are
in :mod:`train.config`)::

    [bc]
    games = 3000          # heuristic games recorded (0: no warm start, the default)
    epochs = 6            # passes over the recorded decisions
    explore = 0.1         # share of moves played at random (the label stays the heuristic's choice): the clone
                          # also sees positions a little off the heuristic's own path
    opponent_random = 0.2 # share of games whose other seat is the random agent (else the heuristic)
    dagger_rounds = 0     # then this many rounds of: play with the clone, label its positions with the heuristic's
                          # choices, refit on everything recorded (dagger_games games a round; 0: as many as games)
    teacher = "heuristic" # whose choices are cloned: any agent name, e.g. "ppo" (the shipped policy) or
                          # "ppo:runs/x/policy.npz": a trained policy distilled into this run's network (a
                          # narrower one for a faster pilot)
    init = false          # true: first set the network to the teacher file's own weights (same architecture, e.g.
                          # a policy ported to today's observation by train/port.py); the rounds then fit only the
                          # value head (the policy stays the teacher's exactly)

The recorded games use the run's deck settings (``[train] decks``: starter and random legal decks from the same
bank, so the held-out evaluation decks stay unseen). Each decision is recorded from the mover's seat with its
observation, legal mask, the heuristic's choice and the game's result for that seat, discounted by ``gamma`` per
later own decision: the policy head learns the choice (cross-entropy over the legal actions) and the value head the
result (squared error), so PPO's first updates start from a critic that already knows who is winning.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

def check_settings(bcfg: Mapping[str, Any]) -> None:
    """``[bc]``'s values (defaults in train.config): one clear error for a value out of range."""
    from cardenvs.core.errors import BadArgumentError

    def number(key: str, lo: float, hi: float, integer: bool = False) -> None:
        v = bcfg.get(key)
        ok = (not isinstance(v, bool) and isinstance(v, (int, float)) and (not integer or float(v).is_integer())
              and np.isfinite(v) and lo <= v <= hi)
        if not ok:
            kind = "a whole number" if integer else "a number"
            raise BadArgumentError(f"[bc] {key} must be {kind} from {lo:g} to {hi:g}, got {v!r}")

    number("games", 0, 10_000_000, integer=True)
    number("epochs", 1, 1000, integer=True)
    number("batch_size", 1, 1_000_000, integer=True)
    number("batch_games", 1, 100_000, integer=True)
    number("learning_rate", 0, 1)
    number("explore", 0, 1)
    number("opponent_random", 0, 1)
    number("max_mb", 1, 1_000_000)
    number("dagger_rounds", 0, 100, integer=True)
    number("dagger_games", 0, 10_000_000, integer=True)
    teacher = bcfg.get("teacher", "heuristic")
    if not isinstance(teacher, str) or not teacher:
        raise BadArgumentError(f"[bc] teacher must be an agent name such as \"heuristic\", \"ppo\" or "
                               f"\"ppo:PATH\", got {teacher!r}")
    init = bcfg.get("init", False)
    if not isinstance(init, bool):
        raise BadArgumentError(f"[bc] init must be true or false, got {init!r}")
    if init and not (teacher.startswith("ppo:") and teacher.endswith(".npz")):
        raise BadArgumentError(f"[bc] init = true starts the network from a policy file's weights: teacher must be "
                               f"\"ppo:PATH.npz\", got {teacher!r}")


@dataclass
class Demonstrations:
    """Recorded heuristic decisions: ``obs`` [M, D] as the game stores it for a compact observation, else float16
    (exact for the small integers, card ids included), ``mask`` bool [M, A], ``action`` int64 [M],
    ``ret`` float32 [M] (the game's result for the mover, discounted)."""

    obs: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    ret: np.ndarray
    games: int

    def __len__(self) -> int:
        return int(self.action.shape[0])

    def merged(self, newer: "Demonstrations", max_decisions: int) -> "Demonstrations":
        """Both sets of decisions, the oldest dropped past ``max_decisions`` (DAgger's aggregate)."""
        def join(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            return np.concatenate([a, b])[-max_decisions:]

        return Demonstrations(join(self.obs, newer.obs), join(self.mask, newer.mask),
                              join(self.action, newer.action), join(self.ret, newer.ret), self.games + newer.games)


def record(game: Any, games: int, seed: int, *, explore: float = 0.1, opponent_random: float = 0.2,
           gamma: float = 0.995, draw_reward: float = 0.0, deck_sampler: Any = None, batch_games: int = 256,
           max_mb: float = 2000, pilot: Any = None, progress: Any = None, teacher: Any = "heuristic") -> Demonstrations:
    """Play ``games`` games with the heuristic (or ``teacher``: any agent name or object) in seat 0 and 1 (``opponent_random`` of them with the random agent in
    one seat, whose moves are not recorded) and record every heuristic decision.

    With ``pilot`` (an agent, e.g. the clone so far), the recorded seats play the pilot's moves while the labels stay
    the heuristic's choices in the positions the pilot reaches (DAgger: the clone learns to recover from its own
    mistakes, which a clone of the heuristic's own games never sees)."""
    from cardenvs.agents import make_agent
    from cardenvs.core.batch import BatchGame, get_spec
    from cardenvs.core.header import TERMINATED

    spec = get_spec(game)
    pool = spec.load_pool(None)
    max_decisions = max(1, int(max_mb * 1e6 / (2 * spec.obs_dim)))
    rng = np.random.default_rng([int(seed), 0xB0C])
    heuristic = make_agent(spec.name, teacher, seed=seed)  # the teacher: "heuristic" unless [bc] teacher says
    rand = make_agent(spec.name, "random", seed=seed + 1)
    obs_parts: list[np.ndarray] = []
    mask_parts: list[np.ndarray] = []
    act_parts: list[np.ndarray] = []
    ret_parts: list[np.ndarray] = []
    kept = played = 0
    for start in range(0, int(games), int(batch_games)):
        n = min(int(batch_games), int(games) - start)
        batch = BatchGame(spec, n, seed=int(seed) * 1_000_003 + start, pool=pool, fused=True)
        if deck_sampler is not None:
            deck_sampler.assign(batch, np.ones(n, dtype=bool))
            batch.reset(int(seed) * 1_000_003 + start)
        # which seat (if any) the random agent plays in each game: -1 = heuristic in both seats
        random_seat = np.where(rng.random(n) < opponent_random, rng.integers(0, 2, n), -1).astype(np.int32)
        rows_log: list[np.ndarray] = []
        seats_log: list[np.ndarray] = []
        actions = np.zeros(n, dtype=np.int32)

        # a compact observation's rows as they are (int16 values past 2048 are not exact in float16); the policy's
        # features extractor divides them into the float view, as in PPO
        store = np.float16 if spec.obs_dtype == np.float32 else spec.obs_dtype

        def decide(who: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            actions[:] = 0
            live = who >= 0
            by_random = np.flatnonzero(live & (who == random_seat))
            by_heuristic = np.flatnonzero(live & (who != random_seat))
            if by_random.size:
                actions[by_random] = rand.act(obs[by_random], mask[by_random], batch.states[by_random],
                                              who[by_random])
            if by_heuristic.size:
                chosen = np.asarray(heuristic.act(obs[by_heuristic], mask[by_heuristic], batch.states[by_heuristic],
                                                  who[by_heuristic]), dtype=np.int64)
                obs_parts.append(obs[by_heuristic].astype(store))
                mask_parts.append(mask[by_heuristic] != 0)
                act_parts.append(chosen)
                rows_log.append(by_heuristic)
                seats_log.append(who[by_heuristic].astype(np.int32))
                played_action = chosen.copy() if pilot is None else np.asarray(
                    pilot.act(obs[by_heuristic], mask[by_heuristic], batch.states[by_heuristic], who[by_heuristic]),
                    dtype=np.int64)
                wild = rng.random(by_heuristic.size) < explore
                if np.any(wild):  # a random legal move instead; the label stays the heuristic's
                    played_action[wild] = rand.act(obs[by_heuristic[wild]], mask[by_heuristic[wild]],
                                                   batch.states[by_heuristic[wild]], who[by_heuristic[wild]])
                actions[by_heuristic] = played_action
            return actions

        batch.play_out(decide)
        status, winner = batch.status, batch.winner
        rows = np.concatenate(rows_log) if rows_log else np.zeros(0, np.int64)
        seats = np.concatenate(seats_log) if seats_log else np.zeros(0, np.int32)
        result = np.where(status[rows] != TERMINATED, np.float32(draw_reward),
                          np.where(winner[rows] == seats, np.float32(1.0), np.float32(-1.0))).astype(np.float32)
        # discount per later own decision: count, from the end, each (game, seat)'s decisions
        later = np.zeros(rows.size, dtype=np.int64)
        seen: dict[tuple[int, int], int] = {}
        for k in range(rows.size - 1, -1, -1):
            key = (int(rows[k]), int(seats[k]))
            later[k] = seen.get(key, 0)
            seen[key] = later[k] + 1
        ret_parts.append(result * np.power(np.float32(gamma), later).astype(np.float32))
        kept += rows.size
        played += n
        if progress is not None:
            progress(played, kept)
        if kept >= max_decisions:
            break
    obs = np.concatenate(obs_parts)[:max_decisions]
    return Demonstrations(obs, np.concatenate(mask_parts)[:max_decisions], np.concatenate(act_parts)[:max_decisions],
                          np.concatenate(ret_parts)[:max_decisions], played)


def value_parameters(policy: Any) -> list:
    """The parameters only the value estimate uses: the critic's own layers and output, and its features extractor
    when it has its own (SB3 shares one between actor and critic by default; a shared one belongs to the actor)."""
    mlp = getattr(policy.mlp_extractor, "inner", policy.mlp_extractor)
    params = list(mlp.value_net.parameters()) + list(policy.value_net.parameters())
    if not getattr(policy, "share_features_extractor", True):
        params += list(policy.vf_features_extractor.parameters())
    return params


def clone(model: Any, demos: Demonstrations, *, epochs: int = 6, batch_size: int = 512, learning_rate: float = 1e-3,
          vf_coef: float = 0.5, seed: int = 0, holdout: float = 0.05, progress: Any = None,
          value_only: bool = False) -> dict:
    """Fit ``model.policy`` (a MaskablePPO policy) to the demonstrations: cross-entropy of the heuristic's choice over
    the legal actions plus ``vf_coef`` x squared error of the value. Returns the fit's figures, among them the share
    of held-out decisions where the clone's most likely action is the heuristic's (``agreement``). ``value_only``
    (``[bc] init``: the policy already is the teacher) fits only the value's own parameters to the results, so the
    policy stays exactly the teacher's (a shared features extractor moved by the value loss would move it)."""
    import torch as th

    policy = model.policy
    policy.set_training_mode(True)
    rng = np.random.default_rng([int(seed), 0xC10])
    order = rng.permutation(len(demos))
    n_hold = max(1, int(len(demos) * holdout)) if len(demos) > 20 else 0
    hold, fit = order[:n_hold], order[n_hold:]
    params = value_parameters(policy) if value_only else list(policy.parameters())
    opt = th.optim.Adam(params, lr=learning_rate)
    t0 = time.perf_counter()
    losses: list[float] = []
    for epoch in range(int(epochs)):
        rng.shuffle(fit)
        total = 0.0
        for s in range(0, fit.size, int(batch_size)):
            idx = np.sort(fit[s: s + int(batch_size)])
            obs = th.as_tensor(demos.obs[idx].astype(np.float32), device=policy.device)
            act = th.as_tensor(demos.action[idx], device=policy.device)
            ret = th.as_tensor(demos.ret[idx], device=policy.device)
            values, log_prob, _ = policy.evaluate_actions(obs, act, action_masks=demos.mask[idx])
            value_loss = vf_coef * th.nn.functional.mse_loss(values.flatten(), ret)
            loss = value_loss if value_only else -log_prob.mean() + value_loss
            opt.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(params, 0.5)
            opt.step()
            total += loss.item() * idx.size
        losses.append(total / max(fit.size, 1))
        if progress is not None:
            progress(epoch + 1, losses[-1])
    policy.set_training_mode(False)
    agreement = float("nan")
    if n_hold:
        with th.no_grad():
            dist = policy.get_distribution(th.as_tensor(demos.obs[hold].astype(np.float32), device=policy.device),
                                           action_masks=demos.mask[hold])
            best = dist.distribution.probs.argmax(dim=1).cpu().numpy()
        agreement = float(np.mean(best == demos.action[hold]))
    # PPO's optimizer state keeps its own moments: the clone's Adam is dropped here
    return {"decisions": len(demos), "games": demos.games, "epochs": int(epochs), "loss": losses,
            "agreement": agreement, "holdout": int(n_hold), "fit_s": round(time.perf_counter() - t0, 1)}


def start_from_policy(model: Any, path: str) -> dict:
    """Set ``model``'s policy network (features, hidden layers, action output, instance head) to the weights of the
    policy file ``path`` (``[bc] init = true``): the clone then starts as the teacher itself, and cloning mostly fits
    the value head, which a policy file does not hold. The file must read today's observation (a ported one, see
    train/port.py) with the run's architecture; its instance head may read fewer block entries than the run's (the
    entries a port added get zero weight). Returns what was copied. Raises ``BadArgumentError`` on any mismatch."""
    import torch as th

    from cardenvs.agents.policy import read_npz
    from cardenvs.core.errors import BadArgumentError

    meta, hidden, action, embed, instance = read_npz(path)
    policy = model.policy
    fe = getattr(policy, "pi_features_extractor", policy.features_extractor)

    def put(param: Any, value: np.ndarray, what: str) -> None:
        value = np.asarray(value, dtype=np.float32)
        if tuple(param.shape) != value.shape:
            raise BadArgumentError(f"{path}: {what} has shape {value.shape}; the run's network needs "
                                   f"{tuple(param.shape)} ([ppo] net_arch, card_embedding and instance_head must be "
                                   f"the file's: {meta.get('hidden')}, {meta.get('card_embedding')}, "
                                   f"{meta.get('instance_head')})")
        with th.no_grad():
            param.copy_(th.as_tensor(value))

    if (embed is None) != (not hasattr(fe, "embedding")):
        raise BadArgumentError(f"{path}: the file and the run differ in having a card embedding ([ppo] card_embedding)")
    if embed is not None:
        for key in ("card_idx", "rest_idx"):
            if not np.array_equal(np.asarray(embed[key]), getattr(fe, key).cpu().numpy()):
                raise BadArgumentError(f"{path}: its {key} differs from the run's observation (port it first: "
                                       f"python -m cardenvs.train.port)")
        put(fe.embedding.weight, embed["table"], "the card embedding")
    mlp = getattr(policy.mlp_extractor, "inner", policy.mlp_extractor)
    linears = [m for m in mlp.policy_net if isinstance(m, th.nn.Linear)]
    if len(linears) != len(hidden):
        raise BadArgumentError(f"{path}: {len(hidden)} hidden layers; the run's network has {len(linears)}")
    for k, (layer, (w, b)) in enumerate(zip(linears, hidden)):
        put(layer.weight, np.asarray(w).T, f"hidden layer {k}")
        put(layer.bias, b, f"hidden layer {k}'s bias")
    head = policy.action_net
    put(getattr(head, "base", head).weight, np.asarray(action[0]).T, "the action layer")
    put(getattr(head, "base", head).bias, action[1], "the action layer's bias")
    groups = list(getattr(policy, "instance_groups", []) or [])
    if len(groups) != len(instance or []):
        raise BadArgumentError(f"{path}: {len(instance or [])} instance-head ranges; the run's network has "
                               f"{len(groups)} ([ppo] instance_head)")
    dim = int(embed["table"].shape[1]) if embed is not None else 1
    for k, (g, f) in enumerate(zip(groups, instance or [])):
        # the file's block inputs, column by column, among the run's (same observation positions in every block)
        run_cols = [tuple(c) for c in np.asarray(g["rest_pos"]).T]
        run_ids = [tuple(c) for c in np.asarray(g["id_pos"]).reshape(int(g["n"]), -1).T]
        rows = []
        try:
            for c in np.asarray(f["rest_pos"]).T:
                rows.append(run_cols.index(tuple(c)))
            for c in np.asarray(f["id_pos"]).T:
                j = run_ids.index(tuple(c))
                rows.extend(len(run_cols) + j * dim + d for d in range(dim))
        except ValueError:
            raise BadArgumentError(f"{path}: instance head {k} reads an observation entry the run's head does not "
                                   f"(port it first: python -m cardenvs.train.port)") from None
        block = np.zeros(tuple(head.block[k].weight.shape[::-1]), np.float32)  # [inputs, width]
        block[rows] = np.asarray(f["block_w"], np.float32)
        put(head.block[k].weight, block.T, f"instance head {k}'s block weights")
        put(head.block[k].bias, f["block_b"], f"instance head {k}'s block bias")
        put(head.state[k].weight, np.asarray(f["state_w"]).T, f"instance head {k}'s state weights")
        put(head.score[k].weight, np.asarray(f["score_w"])[None, :], f"instance head {k}'s score weights")
        put(head.score[k].bias, np.atleast_1d(f["score_b"]), f"instance head {k}'s score bias")
    return {"from": str(path), "hidden": [int(np.asarray(w).shape[1]) for w, _ in hidden],
            "instance_heads": len(groups)}


__all__ = ["Demonstrations", "check_settings", "record", "clone", "start_from_policy", "value_parameters"]
