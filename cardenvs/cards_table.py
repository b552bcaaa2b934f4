"""A game's card pool as rows and a table (name, cost, stats, text), searchable: what ``cardenvs cards`` shows.

The names are the pool's names, spelled as deck files spell them. The table is built from the cleaned card dicts
every game's pool loader returns (so a new card field shows up without code here): the cost is the first of the
card's cost-like fields, the stats are its other printed fields, and the text is its ``text`` field plus one
clause per effect, skill, action or ability.

    rows = card_rows(cardenvs.get_game("levelneo").load_pool(None))
    print(render_table(search_rows(rows, "beast"), "levelneo: beasts"))
"""
from __future__ import annotations

import importlib
import io
import json
import sys
from typing import Any, Callable

__all__ = ["COST_FIELDS", "HIDDEN_FIELDS", "TEXT_LISTS", "card_clauses", "card_row", "card_rows", "card_words",
           "effect_words", "render_table", "schema_defaults", "search_rows", "stats_text"]

#: fields that are a card's cost, in the order they are looked for (the first present is the cost column)
COST_FIELDS = ("turn_cost", "cost", "gold", "energy")
#: fields never shown as stats (the name, the text, flavour text, internal keys, effect lists)
HIDDEN_FIELDS = {"name", "text", "flavor", "effects", "skills", "actions", "abilities", "fighter_name"}
#: lists of effect-like tables shown in the text column, with the label each entry gets
TEXT_LISTS = (("actions", "action"), ("skills", "skill"), ("abilities", "ability"), ("effects", ""))
#: field values that say "nothing" and are left out of the stats and the effect clauses
_EMPTY = ("", None, (), [], "none", "default", "any", False)


def _shown(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "/".join(map(str, value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def schema_defaults(spec: Any) -> tuple[dict, dict]:
    """``(effect key -> default, op -> {arg -> default})`` from the game's card module (the module defining its
    ``load_pool``: ``EFFECT_SCHEMA`` and ``OPS``), so effect clauses leave out values that are only defaults;
    empty where the game does not declare them."""
    module = sys.modules.get(getattr(spec.load_pool, "__module__", ""), None)
    effect = {k: f.default for k, f in (getattr(module, "EFFECT_SCHEMA", None) or {}).items()
              if not getattr(f, "required", False)}
    ops = {}
    for name, op in (getattr(module, "OPS", None) or {}).items():
        args = getattr(op, "args", None) or {}
        ops[name] = {k: f.default for k, f in args.items() if not getattr(f, "required", False)}
    return effect, ops


def _clause(entry: dict, label: str, defaults: tuple[dict, dict] = ({}, {})) -> str:
    """One effect/skill/action as text: ``label name: op key=value ...`` with its nested effects in brackets;
    values equal to the schema's defaults (``defaults``) are left out."""
    head = entry.get("name") or entry.get("trigger") or ""
    parts = []
    if entry.get("op"):
        parts.append(str(entry["op"]))
    effect_defaults, op_defaults = defaults
    skip = dict(effect_defaults) if "trigger" in entry else {}
    skip.update(op_defaults.get(str(entry.get("op")), {}))
    for key, value in entry.items():
        if key in ("name", "trigger", "op", "opcode", "effects") or key.startswith("_"):
            continue
        if key in skip and value == skip[key] and key not in ("cost", "energy", "damage"):
            continue
        if value in _EMPTY or (isinstance(value, int) and not isinstance(value, bool) and value == 0
                               and key not in ("cost", "energy", "damage")):
            continue
        parts.append(f"{key}={_shown(value)}" if not isinstance(value, bool) else key)
    nested = entry.get("effects")
    if isinstance(nested, list) and nested:
        parts.append("[" + "; ".join(_clause(e, "", defaults) for e in nested if isinstance(e, dict)) + "]")
    prefix = " ".join(x for x in (label, str(head)) if x)
    body = " ".join(parts)
    return f"{prefix}: {body}" if prefix and body else (prefix or body)


def _card_text_module(spec: Any) -> Any:
    """The game's ``card_text`` module (beside its cards module, the one defining ``load_pool``), or None."""
    module_name = getattr(getattr(spec, "load_pool", None), "__module__", "") or ""
    package = module_name.rpartition(".")[0]
    if not package:
        return None
    try:
        return importlib.import_module(f"{package}.card_text")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.card_text":
            raise
        return None


def effect_words(spec: Any) -> Callable[[dict], str] | None:
    """The game's card text in words: ``effect_text`` of its ``card_text`` module (beside its cards module), which
    turns one effect entry into a sentence; None for a game that has none yet (its effects are shown as ops)."""
    return getattr(_card_text_module(spec), "effect_text", None)


def card_words(spec: Any) -> Callable[[dict], list[str]] | None:
    """A card's skills, actions, abilities and effects in words, one sentence each: the game's ``card_text`` module's
    ``card_clauses(card)`` where it has one (a game whose effects belong to a named action or skill words them
    together), else its ``effect_text`` for each effect and the other entries as ops; None for a game without a
    ``card_text`` module. The card's printed ``text`` field is not among them (:func:`card_clauses` puts it first)."""
    module = _card_text_module(spec)
    whole = getattr(module, "card_clauses", None)
    if whole is not None:
        return whole
    effect = getattr(module, "effect_text", None)
    if effect is None:
        return None
    defaults = schema_defaults(spec)
    return lambda card: _entry_clauses(card, defaults, effect)


def _entry_clauses(card: dict, defaults: tuple[dict, dict], words: Callable[[dict], str] | None) -> list[str]:
    clauses = []
    for key, label in TEXT_LISTS:
        for entry in card.get(key) or []:
            if isinstance(entry, dict):
                clauses.append(words(entry) if words is not None and key == "effects" else
                               _clause(entry, label, defaults))
            elif entry not in _EMPTY:
                clauses.append(f"{label} {entry}" if label else str(entry))
    return clauses


def card_clauses(card: dict, defaults: tuple[dict, dict] = ({}, {}),
                 words: Callable[[dict], list[str]] | None = None) -> list[str]:
    """A card's text as clauses: its ``text`` field, then one per effect, skill, action or ability (in words where
    the game has a renderer, ``words`` from :func:`card_words`; else as its op and arguments)."""
    clauses = [str(card["text"]).strip()] if str(card.get("text") or "").strip() else []
    clauses += words(card) if words is not None else _entry_clauses(card, defaults, None)
    return [c for c in clauses if c]


def card_row(card_id: int, card: dict, defaults: tuple[dict, dict] = ({}, {}),
             words: Callable[[dict], list[str]] | None = None) -> dict:
    """One card as ``{id, name, cost, stats, text, fields}``: ``cost`` its first integer cost field (None where it
    has none), ``stats`` a dict of its other printed fields, ``text`` one line (effects in words where the game has
    a renderer, ``words``), ``fields`` the card's cleaned fields (JSON-ready)."""
    cost_key = next((k for k in COST_FIELDS if isinstance(card.get(k), int) and not isinstance(card[k], bool)), None)
    stats = {}
    for key, value in card.items():
        if key in HIDDEN_FIELDS or key == cost_key or key.startswith("_") or isinstance(value, (dict, list)):
            continue
        if value in _EMPTY or (isinstance(value, int) and not isinstance(value, bool) and value == 0):
            continue
        stats[key] = list(value) if isinstance(value, tuple) else value
    clauses = card_clauses(card, defaults, words)
    fields = {k: (list(v) if isinstance(v, tuple) else v) for k, v in card.items() if not k.startswith("_")}
    return {
        "id": card_id,
        "name": card["name"],
        "cost": None if cost_key is None else card[cost_key],
        "cost_field": cost_key,
        "stats": stats,
        "text": " ".join(clauses) if words is not None else "; ".join(clauses),
        "fields": json.loads(json.dumps(fields, default=list)),
    }


def card_rows(pool: Any, spec: Any = None) -> list[dict]:
    """Every card of ``pool`` as :func:`card_row` rows, in pool (card id) order."""
    defaults = schema_defaults(spec) if spec is not None else ({}, {})
    words = card_words(spec) if spec is not None else None
    return [card_row(i, c, defaults, words) for i, c in enumerate(pool.cards)]


def search_rows(rows: list[dict], text: str | None) -> list[dict]:
    """Rows whose name, stats or text contain ``text`` (case-insensitive), or whose effects use an op of that name
    (text in words no longer spells ``opp_discard``); all rows for no text."""
    if not text:
        return rows
    needle = text.strip().lower()
    return [r for r in rows if needle in r["name"].lower() or needle in r["text"].lower()
            or needle in " ".join(f"{k} {_shown(v)}" for k, v in r["stats"].items()).lower()
            or needle in " ".join(_ops(r.get("fields") or {})).lower()]


def _ops(fields: dict) -> list[str]:
    """The op names of a card's effects, skills, actions and abilities (nested effects included)."""
    found: list[str] = []
    todo = [e for key, _ in TEXT_LISTS for e in (fields.get(key) or []) if isinstance(e, dict)]
    while todo:
        entry = todo.pop()
        if entry.get("op"):
            found.append(str(entry["op"]))
        todo += [e for e in entry.get("effects") or [] if isinstance(e, dict)]
    return found


def stats_text(stats: dict) -> str:
    return ", ".join(f"{k} {_shown(v)}" for k, v in stats.items())


def render_table(rows: list[dict], title: str, width: int | None = None) -> str:
    """The rows as a text table (rich), as a string. Every cell is plain text (never rich markup: a card named
    ``[/]`` or ``[bold]`` prints as written) with its control characters escaped (:func:`escaping.terminal`)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .core.escaping import terminal

    def cell(value: Any) -> Text:
        return Text(terminal(value))

    # the whole width, the text twice as wide as the stats: text is what wraps most
    table = Table(title=cell(title), show_lines=False, expand=True)
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("cost", justify="right")
    table.add_column("stats", ratio=1)
    table.add_column("text", ratio=2)
    for r in rows:
        table.add_row(cell(r["name"]), cell("" if r["cost"] is None else _shown(r["cost"])),
                      cell(stats_text(r["stats"])), cell(r["text"]))
    out = io.StringIO()
    Console(width=width or 100, file=out, color_system=None, force_terminal=False).print(table)
    return out.getvalue()
