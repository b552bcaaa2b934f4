"""Issue 40: no import circles and no upward imports between the project's modules.

Every module of ``cardenvs/``, ``agents/``, ``train/`` and ``benchmarks/`` is parsed (``ast``, nothing is run) and
every import in it counts, at the top or inside a function: a lazy import still ties two modules together. The
layers, from the ground up (a module imports its own layer and the ones below it, never one above):

    core      cardenvs/core/         the batch engine, files, errors: imports nothing of the project above it
    games     cardenvs/games/<g>/    one game's rules: imports the core and its own folder only
    agents    agents/                pilots: the core and the games
    tools     cardenvs/eval/, testing, scenario, play, viewer, cards_table: evaluation and tools over agents
    face      cardenvs/__init__.py   the public face (``cardenvs.__all__``), which may hand on any name below it
    scripts   train/, benchmarks/, cardenvs/golden.py: programs that use the face
    cli       cardenvs/cli/, cardenvs/__main__.py: the command line, which imports everything

``from cardenvs.core.batch import X`` ties a module to ``cardenvs.core.batch`` only: a package's ``__init__`` counts
only when a name is taken from it (``from cardenvs import get_game`` ties a module to the face). A file's
``if __name__ == "__main__":`` block is its program, not the module: it runs only when the file is run, so what it
imports is no tie of the module.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: where each installed package's files are in the repository
PACKAGES = {"cardenvs": ROOT / "cardenvs", "cardenvs.agents": ROOT / "agents", "cardenvs.train": ROOT / "train",
            "cardenvs.benchmarks": ROOT / "benchmarks"}
#: the layers, lowest first: (name, module-name prefixes); the longest matching prefix places a module
LAYERS = (
    ("core", ("cardenvs.core",)),
    ("games", ("cardenvs.games",)),
    ("agents", ("cardenvs.agents",)),
    ("tools", ("cardenvs.eval", "cardenvs.testing", "cardenvs.scenario", "cardenvs.play", "cardenvs.viewer",
               "cardenvs.cards_table")),
    ("face", ("cardenvs",)),
    ("scripts", ("cardenvs.train", "cardenvs.benchmarks", "cardenvs.golden")),
    ("cli", ("cardenvs.cli", "cardenvs.__main__")),
)


def module_files() -> dict[str, Path]:
    """Every module of the project by its installed name (``agents/policy.py`` is ``cardenvs.agents.policy``)."""
    found: dict[str, Path] = {}
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            if any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
                continue
            name = ".".join([package, *parts])
            if package == "cardenvs" and parts and parts[0] in ("agents", "train", "benchmarks"):
                continue  # never in the source tree; the installed names come from the top-level folders
            found[name] = path
    return found


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The project modules ``name`` imports, anywhere in its file."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()

    def nearest(dotted: str) -> str | None:  # cardenvs.core.batch.BatchGame -> cardenvs.core.batch
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    tree.body = [n for n in tree.body if not _is_main_block(n)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                hit = nearest(alias.name)
                if hit:
                    out.add(hit)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:  # a submodule taken by name is that module; any other name, its package
                hit = nearest(f"{source}.{alias.name}") if f"{source}.{alias.name}" in modules else nearest(source)
                if hit:
                    out.add(hit)
    out.discard(name)
    return out


def _is_main_block(node: ast.stmt) -> bool:
    """``if __name__ == "__main__":`` at the top of a file."""
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
            and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value == "__main__")


def import_graph() -> tuple[dict[str, set[str]], dict[str, Path]]:
    files = module_files()
    names = set(files)
    return {n: imports_of(n, p, names) for n, p in files.items()}, files


def layer_of(module: str) -> int:
    best, level = -1, -1
    for k, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, level = len(prefix), k
    return level


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["cardenvs", "games"] else None


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """``(importer, imported)`` for every import of a higher layer, or of another game's folder."""
    bad = []
    for src, targets in graph.items():
        for dst in targets:
            if layer_of(dst) > layer_of(src):
                bad.append((src, dst))
            elif game_of(src) and game_of(dst) and game_of(src) != game_of(dst):
                bad.append((src, dst))
    return sorted(bad)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:  # recursion depth is the longest import chain: tens of modules
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def problems(graph: dict[str, set[str]], files: dict[str, Path] | None = None) -> list[str]:
    """One line per circle and per upward import, naming the files (or the modules, for a synthetic graph)."""
    def where(module: str) -> str:
        path = (files or {}).get(module)
        return str(path.relative_to(ROOT)) if path is not None else module

    lines = []
    for component in circles(graph):
        members = set(component)
        ties = [f"{where(a)} -> {where(b)}" for a in component for b in sorted(graph[a]) if b in members]
        lines.append(f"import circle of {len(component)} files: " + "; ".join(ties))
    for src, dst in upward_imports(graph):
        lines.append(f"upward import: {where(src)} ({LAYERS[layer_of(src)][0]}) imports {where(dst)} "
                     f"({LAYERS[layer_of(dst)][0]})")
    return lines


def test_every_module_is_placed_in_a_layer() -> None:
    graph, files = import_graph()
    assert len(graph) > 100, "the module walk found too few files"
    assert [n for n in graph if layer_of(n) < 0] == []


def test_no_import_circles_and_no_upward_imports() -> None:
    graph, files = import_graph()
    found = problems(graph, files)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("extra, expected", [
    ({"cardenvs.core.aec": {"cardenvs.core.replay"}, "cardenvs.core.replay": {"cardenvs.core.aec"}},
     "import circle of 2 files"),
    ({"cardenvs.core.agents": {"cardenvs.agents"}, "cardenvs.agents": set()}, "upward import"),
    ({"cardenvs.games.relics.rules": {"cardenvs.games.levelneo.board"}, "cardenvs.games.levelneo.board": set()},
     "upward import"),
    ({"cardenvs.eval.balance": {"cardenvs.cli.balance"}, "cardenvs.cli.balance": set()}, "upward import"),
])
def test_the_check_can_fail(extra: dict[str, set[str]], expected: str) -> None:
    """A planted circle or upward import is reported, naming both ends."""
    assert problems({"cardenvs.core.batch": set()}) == []
    found = problems({"cardenvs.core.batch": set(), **extra})
    assert any(expected in line for line in found), found
    assert all(any(m in line for line in found) for m in extra)


def test_the_check_fails_on_a_planted_circle_in_the_tree(tmp_path: Path) -> None:
    """The walk over real files sees a lazy import inside a function: a planted one in a copy makes a circle."""
    files = module_files()
    copy = {n: p for n, p in files.items() if n in ("cardenvs.core.errors", "cardenvs.core.escaping")}
    planted = {}
    for name, path in copy.items():
        planted[name] = tmp_path / path.name
        planted[name].write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    with planted["cardenvs.core.errors"].open("a", encoding="utf-8") as fh:
        fh.write("\n\ndef _planted() -> None:\n    from .escaping import terminal  # noqa: F401\n")
    with planted["cardenvs.core.escaping"].open("a", encoding="utf-8") as fh:
        fh.write("\n\ndef _planted() -> None:\n    from cardenvs.core import errors  # noqa: F401\n")
    names = set(files)
    graph = {n: imports_of(n, p, names) & set(planted) for n, p in planted.items()}
    assert circles(graph) == [["cardenvs.core.errors", "cardenvs.core.escaping"]]


# ----- what each module offers ---------------------------------------------------------------------------------------
def top_level_names(tree: ast.Module) -> set[str]:
    """Names a module binds at its top level (definitions, assignments, imports), ``if``/``try`` blocks included."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def declared_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                return list(ast.literal_eval(node.value))
    return None


def offering_modules() -> dict[str, Path]:
    """Every module outside the games that defines something: ``__main__`` scripts, private (``_name``) modules and
    empty package files offer nothing."""
    out = {}
    for name, path in module_files().items():
        last = name.rpartition(".")[2]
        if game_of(name) or name.endswith("__main__") or last.startswith("_"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)) for n in tree.body):
            out[name] = path
    return out


def test_every_module_outside_the_games_says_what_it_offers() -> None:
    """Issue 40: what is public is said, in ``__all__``, and everything it lists exists (or the face's lazy table
    hands it on)."""
    problems_found = []
    for name, path in sorted(offering_modules().items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = declared_all(tree)
        where = path.relative_to(ROOT)
        if names is None:
            problems_found.append(f"{where}: no __all__")
            continue
        lazy = set()
        if name == "cardenvs":  # names the face imports on first use
            import cardenvs

            lazy = set(cardenvs._LAZY)
        missing = sorted(set(names) - top_level_names(tree) - lazy)
        if missing:
            problems_found.append(f"{where}: __all__ lists undefined names {missing}")
        if len(set(names)) != len(names):
            problems_found.append(f"{where}: __all__ lists a name twice")
    assert not problems_found, "\n".join(problems_found)


def test_the_face_hands_on_every_name_it_lists() -> None:
    import cardenvs

    assert [n for n in cardenvs.__all__ if not hasattr(cardenvs, n)] == []
