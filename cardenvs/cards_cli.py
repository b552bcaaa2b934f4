"""``cardenvs cards GAME``: a game's card pool as a table (name, cost, stats, text), searchable, or as JSON.

The names are the pool's names, spelled as deck files spell them. The table is built from the cleaned card dicts
every game's pool loader returns (so a new card field shows up without code here): the cost is the first of the
card's cost-like fields, the stats are its other printed fields, and the text is its ``text`` field plus one
clause per effect, skill, action or ability.

    cardenvs cards levelneo
    cardenvs cards levelneo --search beast
    cardenvs cards relics --json > relics-cards.json
    cardenvs cards simulfight --pool my-pool.toml --search overpowered
"""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any, Sequence

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


def card_row(card_id: int, card: dict, defaults: tuple[dict, dict] = ({}, {})) -> dict:
    """One card as ``{id, name, cost, stats, text, fields}``: ``cost`` its first integer cost field (None where it
    has none), ``stats`` a dict of its other printed fields, ``text`` one line, ``fields`` the card's cleaned fields
    (JSON-ready)."""
    cost_key = next((k for k in COST_FIELDS if isinstance(card.get(k), int) and not isinstance(card[k], bool)), None)
    stats = {}
    for key, value in card.items():
        if key in HIDDEN_FIELDS or key == cost_key or key.startswith("_") or isinstance(value, (dict, list)):
            continue
        if value in _EMPTY or (isinstance(value, int) and not isinstance(value, bool) and value == 0):
            continue
        stats[key] = list(value) if isinstance(value, tuple) else value
    clauses = [str(card["text"]).strip()] if str(card.get("text") or "").strip() else []
    for key, label in TEXT_LISTS:
        for entry in card.get(key) or []:
            if isinstance(entry, dict):
                clauses.append(_clause(entry, label, defaults))
            elif entry not in _EMPTY:
                clauses.append(f"{label} {entry}" if label else str(entry))
    fields = {k: (list(v) if isinstance(v, tuple) else v) for k, v in card.items() if not k.startswith("_")}
    return {
        "id": card_id,
        "name": card["name"],
        "cost": None if cost_key is None else card[cost_key],
        "cost_field": cost_key,
        "stats": stats,
        "text": "; ".join(c for c in clauses if c),
        "fields": json.loads(json.dumps(fields, default=list)),
    }


def card_rows(pool: Any, spec: Any = None) -> list[dict]:
    """Every card of ``pool`` as :func:`card_row` rows, in pool (card id) order."""
    defaults = schema_defaults(spec) if spec is not None else ({}, {})
    return [card_row(i, c, defaults) for i, c in enumerate(pool.cards)]


def search_rows(rows: list[dict], text: str | None) -> list[dict]:
    """Rows whose name, stats or text contain ``text`` (case-insensitive); all rows for no text."""
    if not text:
        return rows
    needle = text.strip().lower()
    return [r for r in rows if needle in r["name"].lower() or needle in r["text"].lower()
            or needle in " ".join(f"{k} {_shown(v)}" for k, v in r["stats"].items()).lower()]


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

    table = Table(title=cell(title), show_lines=False, expand=False)
    table.add_column("name", no_wrap=True, style="bold")
    table.add_column("cost", justify="right")
    table.add_column("stats")
    table.add_column("text")
    for r in rows:
        table.add_row(cell(r["name"]), cell("" if r["cost"] is None else _shown(r["cost"])),
                      cell(stats_text(r["stats"])), cell(r["text"]))
    out = io.StringIO()
    Console(width=width or 160, file=out, color_system=None, force_terminal=False).print(table)
    return out.getvalue()


def add_command(sub: Any) -> None:
    """``cardenvs cards``: added to the CLI's subcommands (dispatch through ``func``)."""
    p = sub.add_parser(
        "cards", help="a game's card pool: name (as deck files spell it), cost, stats and text; --search, --json",
        description="List a game's card pool as a table: each card's name exactly as deck files spell it, its cost, "
                    "its stats and its text (effects, skills, actions). --search keeps the cards whose name, stats "
                    "or text contain the words (case-insensitive); --json prints every card's fields as JSON.")
    p.add_argument("game", help="game name (see 'cardenvs games')")
    p.add_argument("--search", "-s", metavar="TEXT", help="only cards whose name, stats or text contain TEXT "
                                                          "(case-insensitive)")
    p.add_argument("--json", action="store_true", help="print the cards as a JSON list instead of a table")
    p.add_argument("--pool", nargs="+", metavar="FILE", help="card pool files to list instead of the game's own")
    p.add_argument("--width", type=int, default=None, help="table width in characters (default: the terminal's, "
                                                            "at least 100)")
    p.set_defaults(func=main)


def main(args: Any) -> int:
    from .core.registry import get_game
    from .core.decks import did_you_mean

    from .core.errors import UnknownGameError
    from .core.registry import available_games

    try:
        spec = get_game(args.game)
    except UnknownGameError as exc:
        raise UnknownGameError(f"{exc}{did_you_mean(str(args.game), available_games())}") from None
    if args.pool:
        for file in args.pool:
            if not Path(file).is_file():
                from .core.errors import BadArgumentError

                raise BadArgumentError(f"--pool: {file}: no such card pool file")
    pool = spec.load_pool([Path(p) for p in args.pool] if args.pool else None)
    rows = search_rows(card_rows(pool, spec), args.search)
    from .core.escaping import json_text, terminal

    if args.json:  # the same strings; only what a terminal would act on is \u-escaped
        print(json_text(rows, indent=1))
        return 0
    if not rows:
        hint = did_you_mean(args.search, [c["name"] for c in pool.cards])
        print(terminal(f"no {spec.name} card matches {args.search!r}{hint}"), file=sys.stderr)
        return 1
    import shutil

    width = args.width or max(100, shutil.get_terminal_size((160, 40)).columns)
    found = f", {len(rows)} matching {args.search!r}" if args.search else ""
    title = f"{spec.name}: {len(pool)} cards{found}"
    sys.stdout.write(render_table(rows, title, width))
    return 0


def run(argv: Sequence[str]) -> int:  # pragma: no cover - convenience for python -m
    from .cli import main as cli_main

    return cli_main(["cards", *argv])


# ----- cardenvs decks random ----------------------------------------------------------------------------------------
def add_decks_random(dsub: Any) -> None:
    """``cardenvs decks random``: added to the ``decks`` actions."""
    p = dsub.add_parser(
        "random", help="random legal decks of a game (a starter after many random legal one-card moves)",
        description="Write N random legal decks of GAME: each is a starter deck (drawn at random, or --start) after "
                    "many random one-card moves (swaps, and adds/removals where the deck size may vary), each kept "
                    "only if the game's deck-building rules accept it. The same --seed gives the same decks.")
    p.add_argument("game", help="game name (see 'cardenvs games')")
    from .cli import seed_type

    p.add_argument("-n", "--number", type=int, default=1, help="how many decks (default: %(default)s)")
    p.add_argument("--seed", type=seed_type, default=0, help="seed, any integer (default: %(default)s)")
    p.add_argument("--start", metavar="DECK", help="start from this deck (starter name or file) instead of a random "
                                                   "starter")
    p.add_argument("--moves", type=int, default=None, help="random moves per deck (default: 2 per card, at least 20)")
    p.add_argument("--out", metavar="DIR", help="write random-SEED-I.toml files into DIR (default: print the deck "
                                                 "files to stdout)")
    p.set_defaults(func=main_decks_random)


def main_decks_random(args: Any) -> int:
    from .core import deckgen
    from .core.escaping import terminal
    from .core.errors import BadArgumentError
    from .core.registry import get_game

    spec = get_game(args.game)
    if not 1 <= args.number <= 100_000:
        raise BadArgumentError(f"-n must be between 1 and 100000, got {args.number}")
    if args.moves is not None and args.moves < 0:
        raise BadArgumentError(f"--moves must be 0 or more, got {args.moves}")
    if args.out:
        from .core.outputs import check_folder

        check_folder(args.out, "--out")
    pool = spec.load_pool(None)
    start = spec.load_deck(args.start, pool) if args.start else None
    decks = deckgen.random_decks(spec, args.number, seed=args.seed, pool=pool, start=start, swaps=args.moves)
    folder = Path(args.out) if args.out else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    for i, deck in enumerate(decks):
        if folder is None:
            from .core.decks import deck_toml

            sys.stdout.write(("\n" if i else "") + deck_toml(deck, pool))
        else:
            path = deckgen.write_deck(deck, pool, folder / f"random-{args.seed}-{i}.toml")
            print(terminal(f"{path}  ({len(deck)} cards)"))
    return 0
