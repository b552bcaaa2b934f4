"""Card pools as data: read a TOML pool, validate every field against a game's schema, compile to int tables.

A game declares its card schema as a dict of :class:`FieldSpec` and its effect vocabulary as a dict of
:class:`OpSpec`; :func:`load_card_pool` checks every card and effect and reports the first problem with the file,
the card and the field. Compiling the cleaned cards to numpy tables is the game's job (it knows its columns).
"""
from __future__ import annotations

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .errors import CardPoolError


@dataclass(frozen=True)
class FieldSpec:
    """One card field: ``kind`` is "int", "str", "bool", "enum" or "list[str]"."""

    kind: str
    required: bool = False
    default: Any = None
    choices: Sequence[str] = ()
    min: int | None = None
    max: int | None = None
    doc: str = ""


@dataclass(frozen=True)
class OpSpec:
    """One effect op of a game's vocabulary: its opcode and the schema of its arguments."""

    code: int
    args: dict[str, FieldSpec]
    doc: str = ""


#: card pool files larger than this are refused before they are parsed (the shipped pools are under 100 KB)
MAX_POOL_FILE_BYTES = 8 * 1024 * 1024


def read_toml(path: Path | str, error: type = CardPoolError, max_bytes: int = MAX_POOL_FILE_BYTES) -> dict:
    """Parse a TOML file; every problem (missing, a folder, too large, not UTF-8 text, malformed, nested too deep)
    is one ``error`` naming the file."""

    def fail(problem: str) -> Exception:
        return CardPoolError(str(path), None, problem) if error is CardPoolError else error(str(path), problem)

    path = Path(path)
    try:
        if path.is_dir():
            raise fail("is a folder, not a TOML file")
        if not path.is_file():
            raise fail("file not found")
        size = path.stat().st_size
        if size > max_bytes:
            raise fail(f"file too large ({size} bytes; at most {max_bytes})")
        with path.open("rb") as fh:
            raw = fh.read(max_bytes + 1)
    except OSError as exc:
        raise fail(f"cannot read: {exc.strerror or exc}") from None
    if len(raw) > max_bytes:
        raise fail(f"file too large (more than {max_bytes} bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise fail(f"not UTF-8 text (byte {exc.start})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise fail(f"malformed TOML: {exc}") from None
    except RecursionError:
        raise fail("malformed TOML: nested too deeply") from None
    return data


def check_value(path: str, card: str, name: str, spec: FieldSpec, value: Any) -> Any:
    """Validate one value against its spec; return it cleaned (ints as int, lists as tuples)."""

    def fail(msg: str) -> CardPoolError:
        return CardPoolError(path, card, f"field {name!r}: {msg}")

    if spec.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"expected an integer, got {value!r}")
        if spec.min is not None and value < spec.min:
            raise fail(f"{value} is below the minimum {spec.min}")
        if spec.max is not None and value > spec.max:
            raise fail(f"{value} is above the maximum {spec.max}")
        return int(value)
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise fail(f"expected true or false, got {value!r}")
        return value
    if spec.kind == "str":
        if not isinstance(value, str) or not value.strip():
            raise fail(f"expected a non-empty string, got {value!r}")
        return value
    if spec.kind == "enum":
        if not isinstance(value, (str, int)) or isinstance(value, bool) or value not in spec.choices:
            raise fail(f"{value!r} is not one of {', '.join(map(str, spec.choices))}")
        return value
    if spec.kind == "list[str]":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(f"expected a list of strings, got {value!r}")
        if spec.choices:
            for v in value:
                if v not in spec.choices:
                    raise fail(f"{v!r} is not one of {', '.join(spec.choices)}")
        return tuple(value)
    raise AssertionError(f"unknown field kind {spec.kind}")


def check_fields(path: str, card: str, raw: dict, schema: dict[str, FieldSpec], what: str = "field") -> dict:
    """Validate a table against a schema: unknown keys, missing required keys, and every value."""
    unknown = sorted(set(raw) - set(schema))
    if unknown:
        raise CardPoolError(path, card, f"unknown {what} {unknown[0]!r} (known: {', '.join(sorted(schema))})")
    clean = {}
    for name, spec in schema.items():
        if name in raw:
            clean[name] = check_value(path, card, name, spec, raw[name])
        elif spec.required:
            raise CardPoolError(path, card, f"missing required {what} {name!r}")
        else:
            clean[name] = spec.default
    return clean


@dataclass
class CardPool:
    """A validated card pool: cleaned card dicts in id order and the game's compiled tables."""

    paths: list[Path]
    cards: list[dict]
    tables: Any = None
    by_name: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_name = {c["name"]: i for i, c in enumerate(self.cards)}

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def fingerprint(self) -> str:
        """A digest of the card names and compiled tables: equal for two loads of the same pool files, different for
        another pool. A :class:`~cardenvs.core.decks.Deck` carries the fingerprint of the pool it was loaded against."""
        cached = self.__dict__.get("_fingerprint")
        if cached is None:
            import hashlib

            import numpy as np

            h = hashlib.sha256()
            for card in self.cards:
                h.update(str(card.get("name")).encode("utf-8", "replace") + b"\0")

            def feed(t: Any) -> None:
                if isinstance(t, np.ndarray):
                    h.update(f"{t.dtype.str}{t.shape}".encode())
                    h.update(np.ascontiguousarray(t).tobytes())
                elif isinstance(t, (tuple, list)):
                    for x in t:
                        feed(x)
                else:
                    h.update(repr(t).encode())

            feed(self.tables)
            cached = self.__dict__["_fingerprint"] = h.hexdigest()[:32]
        return cached

    def name(self, card_id: int) -> str:
        return self.cards[card_id]["name"] if 0 <= card_id < len(self.cards) else "?"


def load_card_pool(
    paths: Sequence[Path | str],
    schema: dict[str, FieldSpec],
    ops: dict[str, OpSpec] | None = None,
    effect_schema: dict[str, FieldSpec] | None = None,
    effects_key: str = "effects",
) -> list[dict]:
    """Read and validate the ``[[card]]`` entries of one or more pool files; returns cleaned cards.

    Each card's ``effects`` (if the game has them) is a list of tables validated against ``effect_schema`` (the
    common keys: trigger, condition...) plus the chosen op's own argument schema.
    """
    cards: list[dict] = []
    seen: dict[str, str] = {}
    for path in paths:
        path = str(path)
        data = read_toml(path)
        entries = data.get("card")
        if not isinstance(entries, list) or not entries:
            raise CardPoolError(path, None, "no [[card]] entries")
        for index, raw in enumerate(entries):
            if not isinstance(raw, dict):
                raise CardPoolError(path, f"#{index + 1}", f"expected a [[card]] table, got {raw!r:.60}")
            name = raw.get("name")
            label = name if isinstance(name, str) else f"#{index + 1}"
            raw = dict(raw)
            raw_effects = raw.pop(effects_key, []) if ops is not None else []
            if not isinstance(raw_effects, list):
                raise CardPoolError(path, label, f"field {effects_key!r}: expected a list of effect tables, "
                                                 f"got {raw_effects!r:.60}")
            card = check_fields(path, label, raw, schema)
            if card["name"] in seen:
                raise CardPoolError(path, label, f"name already used in {seen[card['name']]}")
            seen[card["name"]] = path
            if ops is not None:
                card[effects_key] = [
                    check_effect(path, label, i, e, ops, effect_schema or {}) for i, e in enumerate(raw_effects)
                ]
            cards.append(card)
    return cards


def check_effect(path: str, card: str, index: int, raw: Any, ops: dict[str, OpSpec], common: dict[str, FieldSpec]) -> dict:
    where = f"effect {index + 1}"
    if not isinstance(raw, dict):
        raise CardPoolError(path, card, f"{where}: expected a table, got {raw!r}")
    op = raw.get("op")
    if not isinstance(op, str) or op not in ops:
        raise CardPoolError(path, card, f"{where}: unknown op {op!r} (known: {', '.join(sorted(ops))})")
    spec = ops[op]
    body = {k: v for k, v in raw.items() if k != "op"}
    schema = {**common, **spec.args}
    clean = check_fields(path, card, body, schema, what=f"{where} ({op}) key")
    clean["op"] = op
    clean["opcode"] = spec.code
    return clean


__all__ = [
    "CardPool", "check_effect", "check_fields", "check_value", "FieldSpec", "load_card_pool", "MAX_POOL_FILE_BYTES",
    "OpSpec", "read_toml"
]
