"""The game registry: names, rules versions, and old versions refused by name."""
from __future__ import annotations

import pytest

import cardenvs
from cardenvs.core.errors import UnknownGameError
from cardenvs.core.registry import RULES_VERSIONS


def test_registry_versions_are_the_games_own(game_name):
    spec = cardenvs.get_game(game_name)
    assert spec.version == RULES_VERSIONS[game_name]
    assert cardenvs.get_game(spec.env_name) is spec


def test_an_older_rules_version_is_refused_by_name():
    with pytest.raises(UnknownGameError, match="rules changed"):
        cardenvs.get_game("levelneo_v0")


@pytest.mark.parametrize("bad", ["nosuch", "", 3, None])
def test_unknown_names_are_one_clear_error(bad):
    with pytest.raises(UnknownGameError, match="known games"):
        cardenvs.get_game(bad)
