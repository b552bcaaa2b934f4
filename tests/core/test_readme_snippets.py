"""Every Python snippet of the README runs as printed: the blocks are read from README.md itself, not copied here, so
a snippet that names an undefined variable (the deckgen snippet once used ``pool`` without defining it) fails here."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line number, code) of every ```python block of a Markdown text."""
    return [(text[:m.start()].count("\n") + 1, m.group(1)) for m in BLOCK.finditer(text)]


SNIPPETS = python_blocks(README.read_text(encoding="utf-8"))


def test_the_readme_has_python_snippets() -> None:
    assert len(SNIPPETS) >= 5, "the README's python blocks were not found (did the fence change?)"


@pytest.mark.parametrize("line, code", SNIPPETS, ids=[f"README.md:{line}" for line, _ in SNIPPETS])
def test_readme_snippet_runs_as_printed(line: int, code: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # snippets write files (out/, mine.toml): keep them out of the checkout
    monkeypatch.setenv("MPLBACKEND", "Agg")
    exec(compile(code, f"README.md:{line}", "exec"), {"__name__": f"readme_{line}"})
