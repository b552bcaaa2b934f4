"""What every game's data tests (``tests/games/<game>/test_<game>_data.py``) do with a card pool file written for
the test: load one that must fail, or one that adds cards to the game's pool."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from cardenvs.core.errors import CardPoolError


def pool_error(load_pool: Callable[..., Any], path: Path, text: str) -> str:
    """Write ``text`` to ``path`` and load it as the pool: the error's message, which must name the file."""
    path.write_text(text)
    with pytest.raises(CardPoolError) as err:
        load_pool([path])
    message = str(err.value)
    assert str(path) in message, message
    return message


def pool_with(load_pool: Callable[..., Any], base: Path, path: Path, text: str) -> Any:
    """The pool of ``base`` and ``path`` (``text`` written to it): cards added by a file of their own."""
    path.write_text(text)
    return load_pool([base, path])
