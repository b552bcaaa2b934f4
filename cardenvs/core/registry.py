"""The game registry: every ruleset by name, and its :class:`~cardenvs.core.spec.GameSpec` on demand.

A game is one folder holding a ``game.toml`` (name, rules version, whether play is simultaneous) beside its package's
``__init__.py``, which exports ``SPEC``. The registry finds the games by scanning ``cardenvs/games/*/game.toml``; no
list names them. :func:`register_game` adds a game from anywhere else (a package name, a module, or a folder).

It lives in the core so that the batch core, the envs and the checker can resolve a game name without importing the
top-level package (``cardenvs/__init__.py`` re-exports it). The metadata is read without importing the games, and a
game is imported only when asked for, so one game that fails to import never stops the others.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from .errors import UnknownGameError

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

__all__ = ["GAMES", "GAMES_DIR", "METADATA_FILE", "RULES_VERSIONS", "SIMULTANEOUS_GAMES", "GameInfo", "available_games",
           "game_dir", "game_info", "get_game", "register_game"]

#: the folder scanned for games: each subfolder with a ``game.toml`` is one
GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
METADATA_FILE = "game.toml"


@dataclass(frozen=True)
class GameInfo:
    """What is known of a game without importing it: its ``game.toml`` and where its package is."""

    name: str
    #: its ``SPEC.version`` (a test keeps the two equal). Replays and environment ids (``levelneo_v2``,
    #: ``cardenvs/levelneo-v2``) carry it, and older ones are refused by name.
    rules_version: int
    #: play is simultaneous (the game also has a PettingZoo ParallelEnv)
    simultaneous: bool
    module: str
    folder: Path


#: registered rulesets: name -> GameInfo (games found in GAMES_DIR first, then those registered)
_INFOS: dict[str, GameInfo] = {}
# The three views below are kept for their readers (and ``cardenvs.GAMES``); they are filled from the game.toml files
# and updated in place by register_game, never written by hand.
#: name -> the module that exports its SPEC
GAMES: dict[str, str] = {}
#: name -> rules version
RULES_VERSIONS: dict[str, int] = {}
#: the games whose play is simultaneous
SIMULTANEOUS_GAMES: set[str] = set()


def read_metadata(folder: Path, module: str) -> GameInfo:
    """A game folder's ``game.toml``, checked: a clear error naming the file otherwise."""
    path = Path(folder) / METADATA_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UnknownGameError(f"{path}: cannot read the game's metadata ({exc})") from exc
    name, version, simultaneous = data.get("name"), data.get("rules_version"), data.get("simultaneous")
    if not isinstance(name, str) or not name.isidentifier() or name != name.lower() or "_v" in name:
        raise UnknownGameError(f"{path}: name must be a lower-case identifier without '_v', not {name!r}")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise UnknownGameError(f"{path}: rules_version must be a whole number >= 0, not {version!r}")
    if not isinstance(simultaneous, bool):
        raise UnknownGameError(f"{path}: simultaneous must be true or false, not {simultaneous!r}")
    unknown = sorted(set(data) - {"name", "rules_version", "simultaneous"})
    if unknown:
        raise UnknownGameError(f"{path}: unknown keys {', '.join(unknown)}")
    return GameInfo(name, version, simultaneous, module, Path(folder).resolve())


def _check_free(info: GameInfo) -> None:
    known = _INFOS.get(info.name)
    if known is not None and known.folder != info.folder:
        raise UnknownGameError(f"a game named {info.name!r} is already registered from {known.folder}; "
                               f"not registering {info.folder}")


def _add(info: GameInfo) -> GameInfo:
    _check_free(info)
    _INFOS[info.name] = info
    GAMES[info.name] = info.module
    RULES_VERSIONS[info.name] = info.rules_version
    (SIMULTANEOUS_GAMES.add if info.simultaneous else SIMULTANEOUS_GAMES.discard)(info.name)
    return info


def _discover() -> None:
    """Every ``cardenvs/games/<name>/game.toml`` (folders starting with ``_`` are not games), in name order."""
    for path in sorted(GAMES_DIR.glob(f"*/{METADATA_FILE}")):
        folder = path.parent
        if folder.name.startswith("_") or not (folder / "__init__.py").is_file():
            continue
        info = read_metadata(folder, f"cardenvs.games.{folder.name}")
        if info.name != folder.name:
            raise UnknownGameError(f"{path}: name {info.name!r} is not its folder's name {folder.name!r}")
        _add(info)


def register_game(game: str | Path | ModuleType) -> str:
    """Register a game from outside ``cardenvs/games`` and return its name.

    ``game`` is a folder holding ``game.toml`` and the package's ``__init__.py`` (imported at once, under the folder's
    name, which must not be taken by another module), an importable package name (``"mypkg.mygame"``, imported when
    its SPEC is first asked for), or that package already imported. Registering the same folder again
    is a no-op; another game under a registered name is refused. A registered game lives in this process only:
    a spec pickled to another process resolves there only if that process registers it too.
    """
    if isinstance(game, ModuleType):
        folder, module = Path(game.__file__).parent, game.__name__
    elif isinstance(game, Path) or (isinstance(game, str) and ("/" in game or "\\" in game or Path(game).is_dir())):
        folder = Path(game).resolve()
        if not (folder / "__init__.py").is_file():
            raise UnknownGameError(f"{folder}: a game folder holds its package's __init__.py")
        module = folder.name
        loaded = sys.modules.get(module)
        if loaded is not None and Path(getattr(loaded, "__file__", "") or "").resolve().parent != folder:
            raise UnknownGameError(f"{folder}: the module name {module!r} is already taken by {loaded!r}")
        info = read_metadata(folder, module)
        if loaded is None:
            # imported now, from the folder itself (not from sys.path), so that ``import <name>.docs`` works at once and
            # the package's relative imports resolve inside it; a broken game fails here, naming its file
            spec = importlib.util.spec_from_file_location(module, folder / "__init__.py",
                                                          submodule_search_locations=[str(folder)])
            if spec is None or spec.loader is None:
                raise UnknownGameError(f"{folder}: cannot import its __init__.py")
            _check_free(info)
            loaded = importlib.util.module_from_spec(spec)
            sys.modules[module] = loaded  # before running it: its own modules import their parent package
            try:
                spec.loader.exec_module(loaded)
            except BaseException:
                del sys.modules[module]
                raise
        return _add(info).name
    elif isinstance(game, str):
        spec = importlib.util.find_spec(game)
        if spec is None or not spec.submodule_search_locations:
            raise UnknownGameError(f"{game!r} is not an importable package")
        folder, module = Path(next(iter(spec.submodule_search_locations))), game
    else:
        raise UnknownGameError(f"register_game takes a folder, a package name or a module, not {type(game).__name__}")
    return _add(read_metadata(folder, module)).name



def _present(info: GameInfo) -> bool:
    return info.module in sys.modules or importlib.util.find_spec(info.module) is not None


def available_games() -> list[str]:
    """Games whose package is present (importing them is left to :func:`get_game`)."""
    return [name for name, info in _INFOS.items() if _present(info)]


def game_info(name: str) -> GameInfo:
    """A registered game's metadata, read without importing it; ``name`` may carry the rules version (``_v2``)."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game name must be a string, not {type(name).__name__} {name!r}; "
                               f"known games: {', '.join(available_games())}")
    key, _, version = name.lower().partition("_v")
    info = _INFOS.get(key)
    if info is None or not _present(info):
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(available_games())}")
    if version and version != str(info.rules_version):
        raise UnknownGameError(f"{name!r}: this cardenvs plays {key}_v{info.rules_version} (the rules changed since "
                               f"version {version})")
    return info


def game_dir(name: str) -> Path:
    """A registered game's folder (its data, goldens, RULES.md and checklist), without importing it."""
    return game_info(name).folder


def get_game(name: str):
    """The GameSpec of a registered game; a clear error naming the known games otherwise."""
    info = game_info(name)
    spec = importlib.import_module(info.module).SPEC
    if spec.name != info.name or spec.version != info.rules_version or spec.simultaneous != info.simultaneous:
        raise UnknownGameError(f"{info.folder / METADATA_FILE} says {info.name} v{info.rules_version} "
                               f"(simultaneous={info.simultaneous}); its SPEC says {spec.name} v{spec.version} "
                               f"(simultaneous={spec.simultaneous})")
    return spec


_discover()
