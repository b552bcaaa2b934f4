"""Training configuration: defaults, TOML files (``train/configs/<game>.toml``) and command-line overrides.

A config is a plain nested dict with six tables:

``[ppo]``        MaskablePPO hyper-parameters (``net_arch``, ``lr_schedule = "constant" | "linear"`` and
                 ``card_embedding`` (size of a learned per-card embedding, 0 = none) and ``instance_head`` are ours)
``[train]``      ``total_steps``, ``stop_steps``, ``num_envs``, ``seed``, ``checkpoint_every``, threads, ``decks`` (a pair, or
                 ``"mixed"``: starter and random legal decks per episode, ``random_deck_share``, ``deck_bank``,
                 ``starter_weights``),
                 ``draw_reward`` (what a draw is worth to the learner, 0 by default)
``[opponents]``  ``mix = {heuristic = 0.5, league = 0.3, random = 0.2}`` (also ``pilot``: the agent named by
                 ``pilot = "ppo:FILE"``) or ``[[opponents.phases]]`` with ``until``
                 and ``mix``; ``league_size``, ``league_every`` (steps between pool additions), ``league_recent_weight``
``[grow]``       with ``--resume``: grow the resumed model first (``enabled``, ``net_arch``; train/grow.py)
``[bc]``         a warm start that clones the heuristic (or ``teacher``: a trained policy) before PPO (``games``, ``epochs``,
                 ``explore``; train/bc.py)
``[eval]``       ``every`` (steps), ``games`` (seat-swapped, per opponent), ``opponents = ["random", "heuristic"]``,
                 ``holdout_pairs`` (random deck pairs never used in training, evaluated too)
"""
from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any, Mapping

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CONFIG_DIR = Path(__file__).resolve().parent / "configs"

DEFAULTS: dict[str, Any] = {
    "ppo": {
        "learning_rate": 3e-4,
        "lr_schedule": "constant",
        "n_steps": 128,
        "batch_size": 1024,
        "n_epochs": 4,
        "gamma": 0.995,
        "gae_lambda": 0.95,
        "clip_range": 0.2,
        "ent_coef": 0.01,
        "vf_coef": 0.5,
        "max_grad_norm": 0.5,
        "target_kl": None,
        "net_arch": [256, 256],
        "card_embedding": 0,  # > 0: learned embedding of this size per card-id entry (train/features.py)
        # > 0: per-card actions scored from their card's observation block by a head of this width, with weights
        # shared by every card (train/instance_head.py; games with GameSpec.action_obs_blocks)
        "instance_head": 0,
    },
    "train": {
        "total_steps": 1_000_000,
        # stop once the model has this many steps while the learning-rate schedule still runs to total_steps (0: at
        # total_steps): retraces a run that --max-minutes stopped early, as the shipped divinecross policy was
        "stop_steps": 0,
        "num_envs": 64,
        "seed": 0,
        "checkpoint_every": 250_000,
        "numba_threads": 1,  # one thread: the batch kernels are tiny per call and threads only contend
        "torch_threads": 1,  # the MLP is small; a second thread gains little and contends on shared machines
        "decks": None,  # None: the game's default pair; ["deck_a", "deck_b"]; or "mixed" (train/decks.py)
        "random_deck_share": 0.5,  # with decks = "mixed": share of seats given a random legal deck
        "deck_bank": 256,  # with decks = "mixed": random legal decks made at the start from the seed
        "starter_weights": {},  # with decks = "mixed": {deck = weight} for the starter draws (default 1 each)
        "export_dtype": "float16",  # weights of the exported policy.npz (float16 halves the file; see agents.policy)
        "learner_seat": "random",
        "draw_reward": 0.0,  # the learner's reward for a draw or truncation (-0.5: stalling to a rule draw costs)
        "device": "cpu",  # where torch trains: "cpu", "cuda" or "auto" (cuda when there is one); the env is always numpy
    },
    "opponents": {
        "mix": {"random": 1.0},
        "league_size": 8,
        "league_every": 250_000,
        "league_recent_weight": 1.0,
        "league_fallback": "random",
        "pilot": "heuristic",  # the agent a mix's "pilot" share plays (any agent name: train/exploit.py sets it)
    },
    "bc": {  # warm start by behaviour cloning of the heuristic (train/bc.py); games = 0: none
        "games": 0, "epochs": 6, "batch_size": 512, "learning_rate": 1e-3, "explore": 0.1, "opponent_random": 0.2,
        "max_mb": 2000, "batch_games": 256, "dagger_rounds": 0, "dagger_games": 0,
        "teacher": "heuristic",  # or "ppo" / "ppo:PATH": distil a trained policy (e.g. into a narrower network)
        "init": False,  # start the network from the teacher file's own weights (same architecture; train/bc.py)
    },
    "grow": {  # with --resume: grow the resumed model first (train/grow.py), keeping what it plays
        "enabled": False,  # onto the game's current observation (appended fields enter with zero weights)
        "net_arch": [],  # and wider hidden layers of the same depth ([] keeps the widths)
        "seed": 0,  # initial weights of the new units
    },
    "eval": {
        "every": 250_000,
        "games": 400,
        "opponents": ["random", "heuristic"],
        "seed": 12345,
        "holdout_pairs": 0,  # > 0: also evaluate on this many random deck pairs that training never used
    },
}


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Recursive dict merge; tables merge, everything else (lists, mixes' values) is replaced."""
    out = copy.deepcopy(dict(base))
    for k, v in override.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping) and k not in ("mix",):
            out[k] = merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def default_config_path(game: str) -> Path | None:
    p = CONFIG_DIR / f"{game}.toml"
    return p if p.exists() else None


#: keys a table may hold besides those in DEFAULTS
EXTRA_KEYS: dict[str, tuple[str, ...]] = {"opponents": ("phases",), "train": (), "eval": (), "ppo": ()}
#: MaskablePPO arguments the trainer sets itself (never from [ppo])
_PPO_MANAGED = {"self", "policy", "env", "seed", "device", "verbose", "policy_kwargs", "tensorboard_log",
                "_init_setup_model", "kwargs",
                # a Python class and its arguments: nothing a TOML file can spell (a string failed in SB3's constructor)
                "rollout_buffer_class", "rollout_buffer_kwargs"}


def valid_keys(table: str) -> list[str]:
    """The keys ``[table]`` accepts: our settings, plus for ``[ppo]`` every MaskablePPO constructor argument that the
    trainer does not set itself."""
    keys = set(DEFAULTS[table]) | set(EXTRA_KEYS.get(table, ()))
    if table == "ppo":
        try:
            import inspect

            from sb3_contrib import MaskablePPO

            keys |= set(inspect.signature(MaskablePPO.__init__).parameters) - _PPO_MANAGED
        except ImportError:  # pragma: no cover - training needs sb3-contrib anyway
            pass
    return sorted(keys)


def check_config(data: Mapping[str, Any], where: str) -> None:
    """Unknown tables or keys are one clear error listing the valid ones (a typo such as ``num_env`` would
    otherwise be ignored silently)."""
    from cardenvs.core.errors import BadArgumentError

    unknown = sorted(set(data) - set(DEFAULTS))
    if unknown:
        raise BadArgumentError(f"{where}: unknown table(s) {unknown}; valid tables: {', '.join(sorted(DEFAULTS))}")
    for table, body in data.items():
        if not isinstance(body, Mapping):
            raise BadArgumentError(f"{where}: [{table}] must be a table of settings, got {body!r}")
        valid = valid_keys(table)
        bad = sorted(set(body) - set(valid))
        if bad:
            raise BadArgumentError(f"{where}: unknown key(s) {bad} in [{table}]; valid keys: {', '.join(valid)}")
    for k, phase in enumerate(data.get("opponents", {}).get("phases", []) or []):
        if not isinstance(phase, Mapping) or set(phase) - {"until", "mix"} or "mix" not in phase:
            raise BadArgumentError(f"{where}: [[opponents.phases]] entry {k + 1} must have 'mix' and optionally "
                                   f"'until', got {phase!r}")


def _whole(lo: int, hi: int) -> tuple:
    return ("whole", lo, hi)


def _number(lo: float, hi: float) -> tuple:
    return ("number", lo, hi)


_BIG = 10 ** 12
#: the type and range of every setting of ours and of the MaskablePPO arguments the shipped configs use; a value
#: outside them is one BadArgumentError naming the table, the key and the value, before any env or model is built
#: (without it ``num_envs = "x"`` or ``net_arch = "a"`` surfaced as a torch or int() traceback far from the file)
VALUE_RULES: dict[str, dict[str, tuple]] = {
    "ppo": {
        "learning_rate": _number(0, 1), "lr_schedule": ("choice", "constant", "linear"),
        "n_steps": _whole(1, 1_000_000), "batch_size": _whole(2, 100_000_000), "n_epochs": _whole(1, 1000),
        "gamma": _number(0, 1), "gae_lambda": _number(0, 1), "clip_range": _number(1e-9, 10),
        "ent_coef": _number(0, 100), "vf_coef": _number(0, 1000), "max_grad_norm": _number(1e-9, 1e9),
        "target_kl": ("optional_number", 1e-9, 1e9), "net_arch": ("widths",),
        "card_embedding": _whole(0, 4096), "instance_head": _whole(0, 4096),
        # the other MaskablePPO arguments [ppo] accepts (a wrong type failed in SB3, or at the first update)
        "clip_range_vf": ("optional_number", 1e-9, 1e9), "normalize_advantage": ("flag",),
        "stats_window_size": _whole(1, 1_000_000),
    },
    "train": {
        "total_steps": _whole(1, _BIG), "stop_steps": _whole(0, _BIG), "num_envs": _whole(1, 65_536),
        "seed": _whole(0, 2 ** 32 - 1), "checkpoint_every": _whole(1, _BIG), "numba_threads": _whole(1, 4096),
        "torch_threads": _whole(1, 4096), "decks": ("decks",), "random_deck_share": _number(0, 1),
        "deck_bank": _whole(1, 1_000_000), "starter_weights": ("weights",),
        "export_dtype": ("choice", "float16", "float32"), "learner_seat": ("choice", "random", 0, 1),
        "draw_reward": _number(-1, 1), "device": ("choice", "cpu", "cuda", "auto"),
    },
    "opponents": {
        "league_size": _whole(1, 10_000), "league_every": _whole(1, _BIG), "league_recent_weight": _number(0, 1e9),
        "league_fallback": ("text",), "pilot": ("text",),
    },
    "eval": {
        "every": _whole(1, _BIG), "games": _whole(1, 100_000_000), "opponents": ("texts",),
        "seed": _whole(0, 2 ** 32 - 1), "holdout_pairs": _whole(0, 100_000),
    },
    "grow": {"enabled": ("flag",), "net_arch": ("widths",), "seed": _whole(0, 2 ** 32 - 1)},
}


def _value_problem(rule: tuple, v: Any) -> str | None:
    """What is wrong with ``v`` under ``rule`` (None: nothing)."""
    import math

    kind = rule[0]
    is_num = not isinstance(v, bool) and isinstance(v, (int, float))
    if kind in ("whole", "number", "optional_number"):
        if kind == "optional_number" and v is None:
            return None
        lo, hi = rule[1], rule[2]
        whole = kind == "whole"
        if is_num and math.isfinite(v) and (not whole or float(v).is_integer()) and lo <= v <= hi:
            return None
        what = "a whole number" if whole else "a number"
        span = f"from {lo:,} to {hi:,}" if whole else f"from {lo:g} to {hi:g}"
        return f"must be {what} {span}" + (" (or absent)" if kind == "optional_number" else "")
    if kind == "choice":
        ok = any(v == c and type(v) is type(c) for c in rule[1:])
        return None if ok else "must be one of " + ", ".join(repr(c) for c in rule[1:])
    if kind == "widths":
        ok = isinstance(v, (list, tuple)) and len(v) <= 16 and all(
            not isinstance(w, bool) and isinstance(w, int) and 1 <= w <= 65_536 for w in v)
        return None if ok else "must be a list of layer widths (whole numbers from 1 to 65536), e.g. [256, 256]"
    if kind == "decks":
        ok = v is None or v == "mixed" or (isinstance(v, (list, tuple)) and len(v) == 2
                                            and all(isinstance(d, str) and d for d in v))
        return None if ok else 'must be "mixed" or a pair of deck names, e.g. ["aggro", "control"]'
    if kind == "weights":
        ok = isinstance(v, Mapping) and all(isinstance(k, str) and not isinstance(w, bool) and isinstance(w, (int, float))
                                            and math.isfinite(w) and w >= 0 for k, w in v.items())
        return None if ok else "must be a table of deck name = weight (a number >= 0)"
    if kind == "text":
        return None if isinstance(v, str) and v else "must be a non-empty string"
    if kind == "texts":
        ok = isinstance(v, (list, tuple)) and len(v) > 0 and all(isinstance(x, str) and x for x in v)
        return None if ok else 'must be a non-empty list of agent names, e.g. ["random", "heuristic"]'
    if kind == "flag":
        return None if isinstance(v, bool) else "must be true or false"
    raise AssertionError(kind)  # pragma: no cover - a rule kind without a check


def check_values(cfg: Mapping[str, Any], where: str = "config (files and command line)") -> None:
    """Every setting with a rule in :data:`VALUE_RULES` checked for its type and range: one
    :class:`~cardenvs.core.errors.BadArgumentError` for the first bad one, naming ``[table] key`` and the value."""
    from cardenvs.core.errors import BadArgumentError

    for table, rules in VALUE_RULES.items():
        body = cfg.get(table) or {}
        for key, rule in rules.items():
            if key not in body:
                continue
            problem = _value_problem(rule, body[key])
            if problem:
                raise BadArgumentError(f"{where}: [{table}] {key} {problem}, got {body[key]!r}")
    ppo, train = cfg.get("ppo") or {}, cfg.get("train") or {}
    if "n_steps" in ppo and "num_envs" in train and ppo["n_steps"] * train["num_envs"] < 2:
        raise BadArgumentError(f"{where}: [ppo] n_steps x [train] num_envs must be at least 2 (one rollout), got "
                               f"{ppo['n_steps']} x {train['num_envs']}")


def _mix_problem(mix: Any) -> str | None:
    """What is wrong with an opponent mix (None: nothing)."""
    import math

    from .league import KINDS

    if not isinstance(mix, Mapping) or not mix:
        return f"must be a table of opponent kind = weight ({', '.join(KINDS)}), e.g. {{random = 1.0}}"
    unknown = sorted(str(k) for k in mix if k not in KINDS)
    if unknown:
        return f"names unknown opponent kind(s) {unknown}; use {', '.join(KINDS)}"
    if not all(not isinstance(w, bool) and isinstance(w, (int, float)) and math.isfinite(w) and w >= 0
               for w in mix.values()):
        return "must give each opponent kind a number >= 0"
    if not any(w > 0 for w in mix.values()):
        return "needs at least one weight above 0"
    return None


def check_game_settings(cfg: Mapping[str, Any], game: str, where: str = "config") -> None:
    """The settings whose meaning depends on the game, or that a run would only read hours in, checked now: one
    :class:`~cardenvs.core.errors.BadArgumentError` naming the setting (issue 43: an unknown ``[eval] opponents``
    name used to fail at the first evaluation, after training time was spent; a phase's ``until`` in the middle of
    training; a mix weight or ``league_fallback`` when the league was first drawn).

    Checked: ``[bc]``'s ranges and its ``teacher`` (built once when ``games`` > 0); ``[opponents]`` ``mix`` /
    ``phases`` (known kinds, weights >= 0, one above 0, increasing ``until``, only the last phase open-ended) and
    ``league_fallback`` (an agent the game has); ``[eval] opponents`` (each agent built once, so a ``ppo:PATH`` is
    loaded and checked); ``[train] decks`` (a pair of the game's starter decks or deck files, loaded) and
    ``starter_weights`` (the game's starter decks).
    """
    from cardenvs.core.errors import BadArgumentError, CardenvsError

    ocfg, tcfg, ecfg = cfg.get("opponents") or {}, cfg.get("train") or {}, cfg.get("eval") or {}
    bcfg = cfg.get("bc") or {}
    from .bc import check_settings

    try:  # [bc]'s ranges: the trainer checks them too, but only once its folder and env are made
        check_settings(bcfg)
    except BadArgumentError as exc:
        raise BadArgumentError(f"{where}: {exc}") from None
    if "phases" in ocfg:
        phases = ocfg["phases"]
        if not isinstance(phases, list) or not phases:
            raise BadArgumentError(f"{where}: [[opponents.phases]] must be a list of phases, got {phases!r:.80}")
        last = 0
        for k, phase in enumerate(phases, 1):
            problem = _mix_problem(phase.get("mix"))
            if problem:
                raise BadArgumentError(f"{where}: [[opponents.phases]] entry {k}: mix {problem}, got "
                                       f"{phase.get('mix')!r:.80}")
            until = phase.get("until")
            if until is None:
                if k != len(phases):
                    raise BadArgumentError(f"{where}: [[opponents.phases]] entry {k} has no 'until', so it lasts to "
                                           f"the end, but entries follow it")
                continue
            if _value_problem(_whole(1, _BIG), until) or until <= last:
                raise BadArgumentError(f"{where}: [[opponents.phases]] entry {k}: until must be a step count "
                                       f"above the previous phase's ({last:,}), got {until!r:.40}")
            last = until
    else:
        problem = _mix_problem(ocfg.get("mix", {"random": 1.0}))
        if problem:
            raise BadArgumentError(f"{where}: [opponents] mix {problem}, got {ocfg.get('mix')!r:.80}")
    from cardenvs.core.agents import make_agent

    def agent(setting: str, name: Any) -> None:
        if not isinstance(name, str) or not name:
            raise BadArgumentError(f"{where}: {setting} must be an agent name, got {name!r:.80}")
        try:
            make_agent(game, name, seed=0)
        except CardenvsError as exc:
            raise BadArgumentError(f"{where}: {setting} {name!r:.80}: {exc}") from None
        except (ImportError, OSError, ValueError, KeyError) as exc:
            raise BadArgumentError(f"{where}: {setting} {name!r:.80}: cannot be loaded ({exc})") from None

    if "league_fallback" in ocfg:
        agent("[opponents] league_fallback", ocfg["league_fallback"])
    mixes = [phase.get("mix") or {} for phase in ocfg.get("phases") or ()] or [ocfg.get("mix") or {}]
    if any(mix.get("pilot", 0) > 0 for mix in mixes):
        agent("[opponents] pilot", ocfg.get("pilot", "heuristic"))
    if int(bcfg.get("games", 0) or 0) > 0:
        agent("[bc] teacher", bcfg.get("teacher", "heuristic"))
    for name in dict.fromkeys(ecfg.get("opponents") or ()):
        agent("[eval] opponents", name)
    import cardenvs

    spec = cardenvs.get_game(game)
    decks = tcfg.get("decks")
    if isinstance(decks, (list, tuple)):
        pool = spec.load_pool(None)
        for deck in decks:
            try:
                spec.load_deck(deck, pool)
            except CardenvsError as exc:
                raise BadArgumentError(f"{where}: [train] decks: {exc}") from None
    weights = tcfg.get("starter_weights") or {}
    unknown = sorted(set(weights) - set(spec.starter_decks())) if isinstance(weights, Mapping) else []
    if unknown:
        raise BadArgumentError(f"{where}: [train] starter_weights: {', '.join(map(repr, unknown))} is not a starter "
                               f"deck of {spec.name} (starter decks: {', '.join(spec.starter_decks())})")


def load_config(game: str, path: str | Path | None = None) -> dict[str, Any]:
    """Defaults, then the game's shipped config (if any), then ``path`` (if given). Unknown tables and keys are an
    error (:class:`~cardenvs.core.errors.BadArgumentError`) listing the valid ones; so is every value out of range
    (:func:`check_values`) and every setting the game does not have (:func:`check_game_settings`), before any
    training starts."""
    from cardenvs.core.errors import BadArgumentError

    cfg = copy.deepcopy(DEFAULTS)
    shipped = default_config_path(game)
    for p in (shipped, Path(path) if path else None):
        if p is None:
            continue
        try:
            with open(p, "rb") as f:
                data = tomllib.load(f)
        except OSError as exc:
            raise BadArgumentError(f"{p}: cannot read the config: {exc.strerror or exc}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError) as exc:
            raise BadArgumentError(f"{p}: malformed TOML: {exc}") from None
        check_config(data, str(p))
        check_values(data, str(p))
        opp = data.get("opponents", {})
        if "phases" in opp:
            cfg["opponents"].pop("mix", None)  # a schedule replaces an earlier mix ...
        elif "mix" in opp:
            cfg["opponents"].pop("phases", None)  # ... and a mix an earlier schedule
        cfg = merge(cfg, data)
    check_game_settings(cfg, game, str(path) if path else str(shipped or "config"))
    return cfg


__all__ = ["DEFAULTS", "VALUE_RULES", "load_config", "merge", "default_config_path", "check_config", "check_values",
           "check_game_settings", "valid_keys", "CONFIG_DIR"]
