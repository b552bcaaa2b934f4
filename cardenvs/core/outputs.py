"""Output paths checked before any game is played, and report folders that never mix two runs (issue 43, finding 8).

A command that plays games for minutes must not find out at the end that ``--json`` names a folder or that
``--report`` names a file: :func:`check_file` and :func:`check_folder` say so in one line before the first game.

Report folders (``eval --report DIR``, ``balance --out DIR``) hold exactly one run. The rule, decided for both:

* a new or empty folder receives the report;
* a folder holding a previous report of the same tool (its manifest ``.cardenvs-report.json`` lists every file
  that run wrote, and the folder holds nothing else) is replaced: the old run's files go, the new run's arrive, so
  a file of the old run (``cards.png`` of a run with card statistics, say) can never sit beside the new ones;
* any other non-empty folder is refused before the games, since deleting files this tool did not write would be
  worse than asking for another folder.

:func:`write_folder` writes the files into a temporary folder beside the target first and moves them in only when
all are written, so an interrupt or an error leaves the old report or no report, never a mixture.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from .errors import BadArgumentError

MANIFEST = ".cardenvs-report.json"

__all__ = ["check_file", "check_folder", "write_folder", "MANIFEST"]


def _nearest_existing(path: Path) -> Path:
    p = path
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def _check_creatable(path: Path, what: str) -> None:
    """The folders missing above ``path`` can be made, and ``path`` itself written."""
    base = _nearest_existing(path.parent if path.parent != path else path)
    if not base.is_dir():
        raise BadArgumentError(f"{what} {path}: {base} is a file, not a folder")
    if not os.access(base, os.W_OK | os.X_OK):
        raise BadArgumentError(f"{what} {path}: no permission to write in {base}")


def check_file(path: str | Path, what: str) -> Path:
    """``path`` can be written as a file (it is not a folder; its folder exists or can be made and is writable):
    one :class:`BadArgumentError` naming ``what`` (the flag) otherwise. Creates nothing."""
    path = Path(path)
    if path.is_dir():
        raise BadArgumentError(f"{what} {path}: is a folder; give a file name")
    if path.exists() and not os.access(path, os.W_OK):
        raise BadArgumentError(f"{what} {path}: no permission to write this file")
    _check_creatable(path, what)
    return path


def check_folder(path: str | Path, what: str, kind: str | None = None) -> Path:
    """``path`` can be written as an output folder: not a file, creatable and writable. With ``kind`` (a report
    kind such as ``"cardenvs eval report"``) it must also be new, empty or a previous report of that kind (see the
    module docstring). Creates nothing."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise BadArgumentError(f"{what} {path}: is a file, not a folder")
    if path.is_dir():
        if not os.access(path, os.W_OK | os.X_OK):
            raise BadArgumentError(f"{what} {path}: no permission to write in this folder")
        if kind is not None:
            _previous_files(path, kind, what)
    _check_creatable(path, what)
    return path


def _previous_files(folder: Path, kind: str, what: str) -> list[str]:
    """The files of the previous ``kind`` report in ``folder`` ([] for an empty folder); refuses anything else."""
    entries = sorted(p.name for p in folder.iterdir())
    if not entries:
        return []
    refuse = (f"{what} {folder}: the folder holds files that are not a previous {kind} ({', '.join(entries[:3])}"
              f"{', ...' if len(entries) > 3 else ''}); choose a new or empty folder, so that no run's files mix "
              f"with another's")
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        raise BadArgumentError(refuse) from None
    files = manifest.get("files") if isinstance(manifest, dict) else None
    if (manifest.get("kind") if isinstance(manifest, dict) else None) != kind or not isinstance(files, list) \
            or not all(isinstance(f, str) and f and "/" not in f and f not in (".", "..") for f in files) \
            or set(entries) - set(files) - {MANIFEST}:
        raise BadArgumentError(refuse)
    return files


def write_folder(folder: str | Path, kind: str, write: Callable[[Path], object], what: str = "output folder") -> Path:
    """Run ``write(tmp)`` to write a report's files into a temporary folder, then make ``folder`` hold exactly
    those files (plus the manifest): the temporary folder is renamed to ``folder``, and a previous report of the
    same ``kind`` (or an empty folder) there is moved aside first and deleted after. Any other non-empty folder is
    refused (one :class:`BadArgumentError`), as :func:`check_folder` says before the games."""
    folder = Path(folder)
    check_folder(folder, what, kind)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".tmp", dir=folder.parent))
    aside: Path | None = None
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)  # mkdtemp's 0700 would become the report folder's mode
    try:
        write(tmp)
        files = sorted(p.name for p in tmp.iterdir())
        (tmp / MANIFEST).write_text(json.dumps({"kind": kind, "files": files}, indent=1) + "\n", encoding="utf-8")
        if folder.is_dir():
            _previous_files(folder, kind, what)  # still only a previous report of ours (or empty)
            # the old run's folder steps aside whole, and goes once the new one is in place
            aside = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", suffix=".old", dir=folder.parent))
            os.replace(folder, aside / "report")
        os.replace(tmp, folder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if aside is not None:
            if not folder.exists():  # the new report did not arrive: the old one comes back
                os.replace(aside / "report", folder)
            shutil.rmtree(aside, ignore_errors=True)
    return folder
