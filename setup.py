"""The package list, found rather than written (everything else is in pyproject.toml).

``cardenvs`` and every folder below it install as found, so a new game folder (with its data folders: decks,
golden) needs no line here. The top-level ``agents/``, ``train/`` and ``benchmarks/`` folders install inside the
``cardenvs`` namespace (``cardenvs.agents``) so that a user's own ``agents/`` or ``train.py`` never collides with
them; pyproject's ``[tool.setuptools]`` cannot combine that remapping with discovery, hence this file.
"""
from setuptools import find_namespace_packages, setup

REMAPPED = ("agents", "train", "benchmarks")
SKIP = ["*.__pycache__", "*.__pycache__.*"]

packages = find_namespace_packages(include=["cardenvs", "cardenvs.*"], exclude=SKIP)
for top in REMAPPED:
    packages += [f"cardenvs.{name}" for name in find_namespace_packages(include=[top, f"{top}.*"], exclude=SKIP)]

setup(packages=packages, package_dir={f"cardenvs.{top}": top for top in REMAPPED})
