"""Batched agents for every cardenvs game: ``random``, ``heuristic`` (one per game) and trained policies.

``make_agent(game, "random" | "heuristic" | "ppo" | "ppo:path.npz" | "ppo:path.zip" | "search[:N]" | "py:FILE[:CLASS]",
seed=...)`` returns an object with ``act(obs, mask, states=None, players=None) -> actions`` over many games at once.
``py:FILE`` plays an agent class from a Python file (an older heuristic from history, one being written): running the
file runs its code, as importing it would. ``ppo`` is the policy shipped
for the game (``agents/policies/<game>.npz``, numpy only); :func:`default_pilot` names the strongest pilot available.
An SB3 ``.zip`` is unpickled when loaded (a crafted one runs code): it needs ``trust_pickle=True`` (``--trust-pickle``).
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from cardenvs.core.errors import BadArgumentError

from .base import Agent, masked_uniform

# RandomAgent is imported on first use (its sampler is a Numba kernel): `import cardenvs` does not load Numba, so a
# command that plays nothing (`cardenvs --help`, `decks validate`) answers without waiting for it
def __getattr__(name: str) -> Any:
    if name == "RandomAgent":
        from .random_agent import RandomAgent

        return RandomAgent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


AGENT_KINDS = ("random", "heuristic", "ppo", "ppo:PATH", "search[:N]", "py:FILE[:CLASS]")


def make_agent(game: Any, kind: Any, seed: int | None = None, pool: Any = None, trust_pickle: bool = False) -> Agent:
    """Resolve an agent by name for ``game`` (a name or GameSpec); objects with ``act`` pass through. ``pool``: the
    card pool the games use when it is not the game's own (the heuristics read card stats from it).
    ``trust_pickle``: load a ``ppo:FILE.zip`` although SB3 unpickles it (a crafted one runs code); without it a
    ``.zip`` loads only if this process wrote it or named it trusted (``policy.trust_pickle_file``). ``.npz`` policies
    are numbers only and need no trust."""
    if hasattr(kind, "act"):
        return kind
    if not isinstance(kind, str):
        raise BadArgumentError(f"agent must be one of {', '.join(AGENT_KINDS)} or an object with act(), got {kind!r}")
    game_name = game if isinstance(game, str) else game.name
    if kind == "random":
        from .random_agent import RandomAgent

        return RandomAgent(seed)
    if kind == "heuristic":
        try:
            module = importlib.import_module(f"cardenvs.agents.heuristic_{game_name}")
        except ModuleNotFoundError:
            raise BadArgumentError(f"no heuristic agent for {game_name} yet; use random or ppo:PATH") from None
        return module.HeuristicAgent(seed, pool=pool)
    if kind == "ppo":
        from .policy import load_shipped

        return load_shipped(game_name, seed=seed, older_rules=True)
    if kind.startswith("ppo:"):
        from .policy import load

        # named on purpose: a policy of an older rules version (same observations and actions) plays, and
        # describe_pilot says its figures predate the rule changes; default_pilot never picks one
        return load(kind[4:], game=game_name, seed=seed, older_rules=True, trust_pickle=trust_pickle)
    if _is_search(kind):
        return _search_agent(game_name, kind, seed, pool)
    if kind.startswith("py:"):
        return _file_agent(game_name, kind, seed, pool)
    raise BadArgumentError(f"unknown agent {kind!r}; choose one of {', '.join(AGENT_KINDS)}")


def _search_agent(game_name: str, kind: str, seed: int | None, pool: Any) -> Agent:
    """``search[:N]``: flat Monte Carlo search with N rollouts per legal action (agents/search.py), rolled out by the
    game's default pilot on both sides."""
    from .search import SearchAgent

    rollouts = _search_rollouts(kind)
    base = default_pilot(game_name)
    seed = 0 if seed is None else int(seed)
    pilot = make_agent(game_name, base, seed=seed + 1, pool=pool)
    model = make_agent(game_name, base, seed=seed + 2, pool=pool)
    return SearchAgent(game_name, pilot=pilot, opponent=model, rollouts=rollouts, seed=seed, pool=pool)


def _file_class_names(kind: str) -> tuple[str, str]:
    """FILE and CLASS of ``py:FILE[:CLASS]`` (CLASS defaults to ``HeuristicAgent``, the class every heuristic module
    defines)."""
    rest = kind[3:]
    path, sep, cls = rest.rpartition(":")
    if sep and path.endswith(".py") and cls.isidentifier():
        return path, cls
    return rest, "HeuristicAgent"


def _file_agent(game_name: str, kind: str, seed: int | None, pool: Any) -> Agent:
    """``py:FILE[:CLASS]``: an instance of CLASS from the Python file FILE, loaded as a module of this package, so
    that a copy of ``agents/heuristic_<game>.py`` taken from history (``git show REV:agents/heuristic_levelneo.py >
    old.py``) loads as it is, its ``from .base import ...`` included. Built as ``CLASS(seed)``, with ``pool=`` when
    it takes one; a class that names its ``game`` must name this one."""
    import hashlib
    import inspect
    import sys
    from pathlib import Path

    path_text, cls_name = _file_class_names(kind)
    path = Path(path_text).expanduser()
    if path.suffix != ".py" or not path.is_file():
        raise BadArgumentError(f"{kind!r}: py:FILE[:CLASS] takes an existing Python file (.py), and {path_text!r} is "
                               f"{'not a .py file' if path.suffix != '.py' else 'not there'}")
    path = path.resolve()
    # one module per file and content: the same file twice is one module, an edited file a new one
    digest = hashlib.sha1(str(path).encode() + path.read_bytes()).hexdigest()[:12]
    name = f"{__name__}._from_file_{digest}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # the file's own error, said once with where it came from
            del sys.modules[name]
            raise BadArgumentError(f"{path_text}: loading it as an agent failed: {type(exc).__name__}: {exc}") from None
    cls = getattr(module, cls_name, None)
    if not inspect.isclass(cls):
        found = sorted(k for k, v in vars(module).items() if inspect.isclass(v) and hasattr(v, "act")
                       and getattr(v, "__module__", "") == name)
        raise BadArgumentError(f"{path_text} has no class {cls_name}; its classes with act(): "
                               f"{', '.join(found) or 'none'} (name one as py:FILE:CLASS)")
    own_game = getattr(cls, "game", None)
    if isinstance(own_game, str) and own_game and own_game != game_name:
        raise BadArgumentError(f"{path_text}:{cls_name} plays {own_game}, not {game_name}")
    try:
        takes_pool = "pool" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        takes_pool = False
    try:
        agent = cls(seed, pool=pool) if takes_pool else cls(seed)
    except Exception as exc:
        raise BadArgumentError(f"{path_text}:{cls_name}({seed}) failed: {type(exc).__name__}: {exc}") from None
    if not callable(getattr(agent, "act", None)):
        raise BadArgumentError(f"{path_text}:{cls_name} has no act(obs, mask, states, players) method")
    if not hasattr(cls, "name") or getattr(agent, "name", None) in (None, "heuristic"):
        try:
            agent.name = f"py:{path.name}"  # so reports tell it from the installed heuristic
        except AttributeError:
            pass
    return agent


def _is_search(kind: str) -> bool:
    return kind == "search" or kind.startswith("search:")


def _search_rollouts(kind: str) -> int:
    """N of ``search[:N]`` (the default without ``:N``), or one clear error."""
    from .search import DEFAULT_ROLLOUTS

    text = kind.partition(":")[2]
    if not text:
        return DEFAULT_ROLLOUTS
    if not (text.isdigit() and 1 <= int(text) <= 1024):
        raise BadArgumentError(f"search:N takes a whole number of rollouts from 1 to 1024, got {kind!r}")
    return int(text)


def default_pilot(game: Any) -> str:
    """The strongest pilot the base install can run for ``game``: ``ppo`` when a policy ships for it and still
    matches the game (rules version, observation layout), else ``heuristic`` when the game has one, else ``random``."""
    game_name = game if isinstance(game, str) else game.name
    from .policy import shipped_path

    path = shipped_path(game_name)
    if path is not None:
        from .policy import load_npz

        try:
            load_npz(path, game=game_name)
            return "ppo"
        except BadArgumentError:
            pass  # a stale shipped policy: fall back (make_agent(game, "ppo") still says why)
    if importlib.util.find_spec(f"cardenvs.agents.heuristic_{game_name}") is not None:
        return "heuristic"
    return "random"


def describe_pilot(game: Any, kind: str) -> str:
    """One phrase saying what a pilot is, for reports: where a policy comes from and how long it trained."""
    game_name = game if isinstance(game, str) else game.name
    if kind in ("random", "heuristic"):
        text = "uniformly random legal actions" if kind == "random" else "rule-based heuristic"
        from .policy import load_npz, shipped_path

        path = shipped_path(game_name)
        if path is not None:  # say why a shipped policy is not the default (trained on older rules or observations)
            try:
                load_npz(path, game=game_name)
            except BadArgumentError as exc:
                text += f"; the shipped policy is not used: {str(exc).replace(str(path), _policy_name(path))}"
        return text
    if kind == "ppo" or kind.startswith("ppo:"):
        from .policy import read_npz, shipped_path

        path = shipped_path(game_name) if kind == "ppo" else kind[4:]
        if path is None or not str(path).endswith(".npz"):
            return "MaskablePPO model" if path else ""
        try:
            meta = read_npz(path)[0]
        except BadArgumentError:
            return ""
        where = "shipped policy" if kind == "ppo" else "policy"
        name = _policy_name(path)
        from .policy import stale_rules

        older = stale_rules(meta, game_name)
        if older is not None:  # admitted by name only: its strength was measured on the older rules
            from cardenvs.core.registry import RULES_VERSIONS

            where = (f"{where} trained on {game_name} rules version {older} (now {RULES_VERSIONS.get(game_name)}; "
                     f"its measured strength predates the rule changes, retrain for figures that hold)")
        try:  # the metadata comes from the file: a hand-made one may hold anything, and this runs after the games
            teacher = (meta.get("warm_start") or {}).get("teacher")
            if isinstance(teacher, dict) and teacher.get("steps"):  # distilled ([bc] teacher): its teacher trained
                layers = "x".join(str(w) for w in meta.get("hidden") or []) or "linear"
                taught = "x".join(str(w) for w in teacher.get("hidden") or []) or "linear"
                # one commit: the policy's own (its teacher's is in the file's metadata for whoever needs it)
                return (f"{where} {name}, a {layers} network distilled from a {taught} policy of "
                        f"{int(teacher['steps']):,} training steps, seed {meta.get('seed')}, "
                        f"commit {_short_commit(meta.get('commit'))}")
            text = (f"{where} {name}, {int(meta.get('steps') or 0):,} training steps, seed {meta.get('seed')}, "
                    f"commit {_short_commit(meta.get('commit'))}")
            certified = meta.get("certified")
            if isinstance(certified, dict) and older is None:  # trained on older rules, measured on these (bars)
                trained = (certified.get("trained_on") or {}).get("rules_version")
                ported = meta.get("ported")
                moved = (f"; moved to today's observation layout (train/port.py) from its {ported['old_obs_dim']:,} "
                         f"entries" if isinstance(ported, dict) and ported.get("old_obs_dim") else "")
                text += (f" (trained on rules version {trained}{moved}, its bars met on version "
                         f"{meta.get('rules_version')}: train/bars.py --ship)")
            return text
        except (AttributeError, TypeError, ValueError, OverflowError):
            return f"{where} {name} (its metadata does not say how it was trained)"
    if kind.startswith("py:"):
        path, cls = _file_class_names(kind)
        return f"agent class {cls} from the file {path}"
    if _is_search(kind):
        try:
            rollouts = _search_rollouts(kind)
        except BadArgumentError:  # a report describes pilots that were made; a malformed name has nothing to say
            return ""
        base = default_pilot(game_name)
        return (f"flat Monte Carlo search, {rollouts} re-dealt rollouts per legal action, both sides rolled out by "
                f"the {base} pilot ({describe_pilot(game_name, base)})")
    return ""


def slow_pilot_note(kind: str) -> str | None:
    """One sentence for a user about to play games with ``kind`` when it is far slower than the other pilots (a
    search pilot plays thousands of games per game it pilots), else None."""
    if not _is_search(kind):
        return None
    n = _search_rollouts(kind)
    return (f"{kind} plays each legal action of every decision to the end {n} time{'s' if n > 1 else ''} with the "
            "default pilot, thousands of times slower than that pilot (search:4 against the heuristic took about 20 s a "
            "levelneo game and 60 s a relics game on 2 cores)")


def _short_commit(commit: Any) -> str:
    text = str(commit or "?")
    return text[:7] + ("+dirty" if text.endswith("+dirty") else "")


def _policy_name(path: Any) -> str:
    """A policy file as a report names it: relative to the package for a shipped one (``agents/policies/X.npz``,
    the same in a checkout and an install), relative to the working folder where it lies below it, else as given;
    an absolute path of this machine tells a reader of the report nothing."""
    from pathlib import Path

    file = Path(path)
    for base in (Path(__file__).resolve().parent.parent, Path.cwd()):
        try:
            return file.resolve().relative_to(base).as_posix()
        except (ValueError, OSError):
            continue
    return str(path)


def load(path: str, game: str | None = None, seed: int | None = None, trust_pickle: bool = False) -> Agent:
    """A saved policy wrapped as a batched agent (a ``.zip`` only with ``trust_pickle=True``: SB3 unpickles it)."""
    from .policy import load as _load

    return _load(path, game=game, seed=seed, trust_pickle=trust_pickle)


__all__ = ["Agent", "RandomAgent", "make_agent", "default_pilot", "describe_pilot", "load", "masked_uniform",
           "slow_pilot_note"]
