"""The game registry: games found by their folder's game.toml, rules versions, old versions refused by name, and
games registered from elsewhere."""
from __future__ import annotations

import pytest

import cardenvs
from cardenvs.core import registry
from cardenvs.core.errors import UnknownGameError
from cardenvs.core.registry import GAMES_DIR, RULES_VERSIONS, SIMULTANEOUS_GAMES, game_info, read_metadata


def test_registry_versions_are_the_games_own(game_name):
    spec = cardenvs.get_game(game_name)
    assert spec.version == RULES_VERSIONS[game_name] == game_info(game_name).rules_version
    assert spec.simultaneous == (game_name in SIMULTANEOUS_GAMES)
    assert spec.package_dir == game_info(game_name).folder
    assert cardenvs.get_game(spec.env_name) is spec


def test_every_game_folder_is_registered_and_nothing_else():
    """No list names the games: every folder of cardenvs/games with a game.toml is one, under its folder's name."""
    folders = {p.parent.name for p in GAMES_DIR.glob("*/game.toml") if not p.parent.name.startswith("_")}
    assert folders and folders <= set(cardenvs.GAMES)
    assert all(cardenvs.GAMES[name] == f"cardenvs.games.{name}" for name in folders)


def test_the_metadata_is_read_without_importing_the_game():
    import subprocess
    import sys

    code = ("import sys, cardenvs; print(cardenvs.RULES_VERSIONS['relics'], sorted(cardenvs.SIMULTANEOUS_GAMES)); "
            "print(any(m.startswith('cardenvs.games.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.split("\n")[1] == "False", out.stdout + out.stderr[-2000:]


def test_an_older_rules_version_is_refused_by_name():
    with pytest.raises(UnknownGameError, match="rules changed"):
        cardenvs.get_game("levelneo_v0")


@pytest.mark.parametrize("bad", ["nosuch", "", 3, None])
def test_unknown_names_are_one_clear_error(bad):
    with pytest.raises(UnknownGameError, match="known games"):
        cardenvs.get_game(bad)


@pytest.mark.parametrize("text, error", [
    ('name = "Big"\nrules_version = 1\nsimultaneous = false\n', "lower-case identifier"),
    ('name = "big"\nrules_version = "1"\nsimultaneous = false\n', "rules_version"),
    ('name = "big"\nrules_version = 1\n', "simultaneous"),
    ('name = "big"\nrules_version = 1\nsimultaneous = false\nversion = 2\n', "unknown keys version"),
    ('name = "big"\nrules_version = 1\nsimultaneous = false\n[oops\n', "cannot read"),
])
def test_bad_metadata_names_the_file_and_the_key(tmp_path, text, error):
    (tmp_path / "game.toml").write_text(text)
    with pytest.raises(UnknownGameError, match=error) as info:
        read_metadata(tmp_path, "big")
    assert str(tmp_path / "game.toml") in str(info.value)


def test_register_game_refuses_a_second_game_under_a_known_name(tmp_path):
    folder = tmp_path / "levelneo"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "game.toml").write_text('name = "levelneo"\nrules_version = 2\nsimultaneous = false\n')
    with pytest.raises(UnknownGameError, match="already registered"):
        registry.register_game(folder)
    with pytest.raises(UnknownGameError, match="holds its package"):
        registry.register_game(tmp_path)
    # the known game is untouched
    assert game_info("levelneo").folder == GAMES_DIR / "levelneo"
