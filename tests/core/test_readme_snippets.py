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


#: calls that run for minutes at the README's sizes, and the words that show progress while they do
LONG_WORK = ("run_tournament(", "run_sprt(", ".learn(", "for _ in range(")
SHOWS_PROGRESS = ("progress=", "trange(", "tqdm(", "progress_bar=True")


def test_every_long_snippet_shows_progress() -> None:
    """The batch loop, the MaskablePPO run and the evaluation snippet printed nothing for 2-10 minutes (issue 42
    item 4): each snippet that runs long work shows a progress bar (checked failing on the README before)."""
    silent = [f"README.md:{line}" for line, code in SNIPPETS
              if any(w in code for w in LONG_WORK) and not any(p in code for p in SHOWS_PROGRESS)]
    assert not silent, f"snippets that run long work without a progress bar: {silent}"
    for line, code in SNIPPETS:  # each long call of its own, not one bar for a snippet of several
        for call in ("run_tournament(", "run_sprt("):
            for use in code.split(call)[1:]:
                assert "progress=" in use.split("\n", 1)[0], f"README.md:{line}: {call} without progress="
