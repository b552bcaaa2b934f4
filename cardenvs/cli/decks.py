"""``cardenvs decks ACTION``: list a game's starter decks, validate deck files, write random legal decks, search
for a better deck (the search itself is :mod:`cardenvs.eval.optimize`, the random decks
:mod:`cardenvs.core.deckgen`)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..core.errors import BadArgumentError, CardenvsError, DeckError
from ..core.escaping import terminal
from ..core.registry import available_games, get_game
from .args import (EXIT_USAGE, PROG, add_trust_pickle, positive_int, seed_type, trust_pickled, usage_error,
                   warn_slow_pilots)

__all__ = ["add_parser", "run_list", "run_optimize", "run_random", "run_validate"]


def add_parser(sub: Any) -> None:
    """``cardenvs decks`` and its actions: added to the command line's subcommands."""
    dk = sub.add_parser("decks",
                        help="list starter decks, validate deck files, make random legal decks, search for better decks",
                        description="Deck files: list a game's starter decks or check files against its rules.")
    dsub = dk.add_subparsers(dest="decks_command", metavar="ACTION")
    dk.set_defaults(func=_missing_action)
    ls = dsub.add_parser("list", help="the starter decks of a game")
    ls.add_argument("game")
    ls.set_defaults(func=run_list)
    va = dsub.add_parser("validate", help="check deck files against a game's deck-building rules")
    va.add_argument("files", nargs="+", metavar="FILE",
                    help="deck files (every problem of a file is reported, one line each, with its line number); "
                         "a game's name alone stands for all of its starter decks, and a game's name before files "
                         "is the game they are for")
    va.add_argument("--game", help="the game the decks are for (default: the game whose decks/ folder holds the "
                                   "file, else the game whose pool names most of its cards)")
    va.set_defaults(func=run_validate)

    p = dsub.add_parser(
        "random", help="random legal decks of a game (a starter after many random legal one-card moves)",
        description="Write N random legal decks of GAME: each is a starter deck (drawn at random, or --start) after "
                    "many random one-card moves (swaps, and adds/removals where the deck size may vary), each kept "
                    "only if the game's deck-building rules accept it. The same --seed gives the same decks.")
    p.add_argument("game", help="game name (see 'cardenvs games')")
    p.add_argument("-n", "--number", type=int, default=1, help="how many decks (default: %(default)s)")
    p.add_argument("--seed", type=seed_type, default=0, help="seed, any integer (default: %(default)s)")
    p.add_argument("--start", metavar="DECK", help="start from this deck (starter name or file) instead of a random "
                                                   "starter")
    p.add_argument("--moves", type=int, default=None, help="random moves per deck (default: 2 per card, at least 20)")
    p.add_argument("--out", metavar="DIR", help="write random-SEED-I.toml files into DIR (default: print the deck "
                                                 "files to stdout)")
    p.set_defaults(func=run_random)

    p = dsub.add_parser(
        "optimize", help="search for a better deck: hill climbing over legal one-card swaps, raced against the field",
        description="Start from a deck and repeatedly try legal one-card swaps, racing each batch of candidates "
                    "against the current best deck on the same games against the field (common random numbers, a "
                    "sequential test per candidate); keep a swap when the test says it is better. Writes the best deck "
                    "as a deck file and a report (JSON and text): the score against the field at each accepted step "
                    "with 95% intervals, the cards added and removed. The same --seed and a game --budget give the "
                    "same search.")
    p.add_argument("game", help="game name (see 'cardenvs games')")
    p.add_argument("--start", required=True, metavar="DECK", help="the deck to improve (starter name or deck file)")
    p.add_argument("--field", nargs="+", metavar="DECK", help="the decks to beat (default: the game's starter decks)")
    p.add_argument("--budget", default="20000",
                   help="games (20000) or time (90s, 15m, 2h) the search may spend (default: %(default)s games)")
    p.add_argument("--pilot", default=None, help="who plays every deck: heuristic, random, ppo or ppo:PATH (an SB3 "
                                                  ".zip needs --trust-pickle) (default: the strongest available, as in "
                                                  "eval and balance)")
    add_trust_pickle(p)
    p.add_argument("--seed", type=seed_type, default=0, help="seed, any integer (default: %(default)s)")
    p.add_argument("--out", metavar="FILE", help="best deck file (default: GAME-optimized.toml); the report goes "
                                                 "beside it as FILE.search.json / .txt unless --report")
    p.add_argument("--report", metavar="BASE", help="report path without extension (writes BASE.json, BASE.txt)")
    p.add_argument("--pool", nargs="+", metavar="FILE", help="card pool files (default: the game's pool)")
    p.add_argument("--candidates", type=int, default=16, help="swaps raced together (default: %(default)s)")
    p.add_argument("--round-pairs", type=int, default=8,
                   help="games per field deck and seat per race round (default: %(default)s)")
    p.add_argument("--elo1", type=float, default=30.0,
                   help="a swap is kept when the test says it is this much better (paired Elo, a finite number above "
                        "0; default %(default)s)")
    p.add_argument("--resize", action="store_true",
                   help="also try adding or removing one card where the deck size may change")
    p.add_argument("--confirm", type=int, default=100, metavar="PAIRS",
                   help="after the search, replay start and best deck on fresh seeds, PAIRS games per field deck and "
                        "seat (0: skip; default %(default)s)")
    p.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="where games run: this process, or Ray workers (same results for the same seed and budget)")
    p.add_argument("--address", help="Ray cluster address (default: start a local Ray)")
    p.add_argument("--workers", type=positive_int, help="Ray workers (default: one per CPU)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar and no report on the terminal")
    p.set_defaults(func=run_optimize)


def _missing_action(args: argparse.Namespace) -> int:
    raise usage_error(f"{PROG} decks", "choose an action: list, validate, random or optimize")


def run_list(args: argparse.Namespace) -> int:
    """``cardenvs decks list GAME``: each starter deck's name, size and description."""
    spec = get_game(args.game)
    pool = spec.load_pool(None)
    for name in spec.starter_decks():
        deck = spec.load_deck(name, pool)
        print(f"{name:14} {len(deck):3d} cards  {deck.name}: {deck.description}")
    return 0


def _pool_names(game: str) -> set[str] | None:
    """The card names of a game's own pool read from its ``cards.toml`` without importing the game (importing one
    loads its kernels: seconds), or None where the game keeps its pool elsewhere."""
    from ..core.cards import read_toml
    from ..core.decks import MAX_DECK_FILE_BYTES
    from ..core.registry import game_dir

    try:
        data = read_toml(game_dir(game) / "cards.toml", error=DeckError)
    except (CardenvsError, OSError):
        return None
    cards = data.get("card")
    if not isinstance(cards, list):
        return None
    return {c["name"] for c in cards if isinstance(c, dict) and isinstance(c.get("name"), str)}


def _games_for(path: Path, games: list[str]) -> tuple[list[str], str]:
    """The games a deck file without --game is checked against, and why: the game whose decks/ folder holds it,
    else the games whose pool names the most of its cards (read from the files, no game imported), else all."""
    from ..core.cards import read_toml
    from ..core.decks import MAX_DECK_FILE_BYTES
    from ..core.registry import game_dir

    for game in games:
        if (game_dir(game) / "decks").resolve() == path.resolve().parent:
            return [game], ""
    try:
        cards = read_toml(path, error=DeckError, max_bytes=MAX_DECK_FILE_BYTES).get("cards")
    except DeckError:
        return games[:1], ""  # unreadable: every game says the same, so one says it
    names = set(cards) if isinstance(cards, dict) else set()
    known = {g: _pool_names(g) for g in games}
    if any(v is None for v in known.values()) or not names:
        return games, ""
    score = {g: len(names & pool) for g, pool in known.items()}
    best = max(score.values())
    if best == 0:
        return games[:1], (f"no game's pool has any of its cards; checked against {games[0]} "
                           f"(--game GAME to choose)")
    chosen = [g for g in games if score[g] == best]
    why = "" if len(chosen) == len(games) else (
        f"checked against {', '.join(chosen)}, whose pool names the most of its cards (--game GAME to choose)")
    return chosen, why


def _problem_lines(file: str, exc: DeckError) -> list[str]:
    """One line per problem of a deck file: ``FILE:LINE: card 'X': problem [rule]`` (LINE where the file names it)."""
    from ..core.decks import deck_problems  # here, not at the top: it imports NumPy, which --help never needs

    out = []
    for e in deck_problems(exc):
        line = getattr(e, "line", None)
        where = f"{file}:{line}" if line else file
        card = f": card {e.card!r}" if e.card else ""
        out.append(f"{where}{card}: {e.problem}" + (f" [{e.rule}]" if e.rule else ""))
    return out


def run_validate(args: argparse.Namespace) -> int:
    """``cardenvs decks validate [GAME] FILE...``: every problem of each file, one line each, against the game the
    file is for (``--game``, a leading game name, the ``decks/`` folder it sits in, or the pool its cards come
    from); only that game is imported."""
    games = available_games()
    files = list(args.files)
    game = args.game
    if game is None and len(files) > 1 and files[0].lower() in games and not Path(files[0]).is_file():
        game = files.pop(0).lower()  # `validate levelneo bad.toml`: the game, then its deck files
    if game is not None:
        game = get_game(game).name  # an unknown game is one line before any file is read
    entries: list[tuple[str, list[str] | None]] = []
    for file in files:  # a registered game's name (not a file) stands for its starter decks
        named = None if Path(file).is_file() else file.lower()
        if named in games and game in (None, named):
            spec = get_game(named)
            entries += [(str(spec.deck_dir / f"{n}.toml"), [named]) for n in spec.starter_decks()]
        else:
            entries.append((file, [game] if game else None))
    failed = 0
    pools: dict[str, Any] = {}
    for file, candidates in entries:
        path = Path(file)
        if not path.is_file():
            print(terminal(f"{PROG}: error: {file}: no such deck file"), file=sys.stderr)
            failed += 1
            continue
        why = ""
        if candidates is None:
            candidates, why = _games_for(path, games)
        ok, errors = [], []
        for name in candidates:
            spec = get_game(name)
            if name not in pools:
                pools[name] = spec.load_pool(None)
            try:
                deck = spec.load_deck(path, pools[name])
                ok.append(f"{spec.name} ({len(deck)} cards, {deck.name!r})")
            except DeckError as exc:
                errors.append((spec.name, exc))
            except CardenvsError as exc:
                errors.append((spec.name, DeckError(file, str(exc))))
        if ok:
            print(terminal(f"ok {file}: valid for {', '.join(ok)}"))
            continue
        failed += 1
        by_game = [(name, _problem_lines(file, exc)) for name, exc in errors]
        if all(lines == by_game[0][1] for _, lines in by_game):  # the same for every game (bad TOML): said once
            by_game = [("", by_game[0][1])]
        for name, lines in by_game:
            for line in lines:
                print(terminal(f"{PROG}: error: {name + ': ' if name else ''}{line}"), file=sys.stderr)
        if why:
            print(terminal(f"{PROG}: note: {file}: {why}"), file=sys.stderr)
    return EXIT_USAGE if failed else 0


def run_random(args: argparse.Namespace) -> int:
    """``cardenvs decks random``: the decks as files, or as deck files on stdout."""
    from ..core import deckgen

    spec = get_game(args.game)
    if not 1 <= args.number <= 100_000:
        raise BadArgumentError(f"-n must be between 1 and 100000, got {args.number}")
    if args.moves is not None and args.moves < 0:
        raise BadArgumentError(f"--moves must be 0 or more, got {args.moves}")
    if args.out:
        from ..core.outputs import check_folder

        check_folder(args.out, "--out")
    pool = spec.load_pool(None)
    start = spec.load_deck(args.start, pool) if args.start else None
    decks = deckgen.random_decks(spec, args.number, seed=args.seed, pool=pool, start=start, swaps=args.moves)
    folder = Path(args.out) if args.out else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    for i, deck in enumerate(decks):
        if folder is None:
            from ..core.decks import deck_toml

            sys.stdout.write(("\n" if i else "") + deck_toml(deck, pool))
        else:
            path = deckgen.write_deck(deck, pool, folder / f"random-{args.seed}-{i}.toml")
            print(terminal(f"{path}  ({len(deck)} cards)"))
    return 0


def run_optimize(args: argparse.Namespace) -> int:
    """``cardenvs decks optimize``: the search, its deck file and report, and the report on the terminal."""
    from rich.console import Console

    from ..core.deckgen import load_game_pool
    from ..eval.optimize import (
        check_elo1, format_optimize, load_decks, optimize_deck, parse_budget, write_optimize_report,
    )
    from ..eval.report import RichProgress

    spec = get_game(args.game)
    budget_games, budget_seconds = parse_budget(args.budget)
    if args.candidates < 1 or args.round_pairs < 1 or args.confirm < 0:
        raise BadArgumentError("--candidates and --round-pairs must be positive, --confirm 0 or more")
    check_elo1(args.elo1, "--elo1")
    from ..agents import default_pilot, describe_pilot

    chosen = args.pilot is None  # eval's and balance's default pilot too (issue 38 step 7)
    pilot = default_pilot(spec.name) if chosen else args.pilot
    trust_pickled(args, pilot)
    if pilot != "random":
        from ..agents import make_agent

        make_agent(spec.name, pilot)  # an unknown pilot is reported before any game
    if args.backend == "ray" and args.pool:
        # Ray workers load a game's own pool by name; a custom pool would silently be replaced there
        raise BadArgumentError("--pool works with the local backend only (Ray workers load the game's own pool)")
    pool = load_game_pool(spec, args.pool)
    start = spec.load_deck(args.start, pool)
    fields = load_decks(spec, pool, args.field)
    from ..eval.tournament import make_backend

    if not args.quiet:  # who plays, before the games: the first line, as eval's
        from ..eval.report import pilot_line

        note = ", ".join(x for x in (describe_pilot(spec.name, pilot),
                                     "default: the strongest available" if chosen else "") if x)
        print(terminal(f"{spec.name}: " + pilot_line({"config": {"pilots": [pilot]}, "pilot_notes": {pilot: note}})),
              flush=True)
        warn_slow_pilots("decks optimize", [pilot])
    backend = make_backend(args.backend, address=args.address, workers=args.workers) if args.backend == "ray" else None
    try:
        with RichProgress(f"{spec.name} deck search", console=Console(stderr=True), disable=args.quiet) as bar:
            result = optimize_deck(spec, start, fields, None if chosen else pilot, budget_games, budget_seconds, args.seed, pool,
                                   candidates=args.candidates, round_pairs=args.round_pairs, elo1=args.elo1,
                                   resize=args.resize, confirm_pairs=args.confirm, backend=backend, progress=bar)
    finally:
        if backend is not None:
            backend.close()
    out = args.out or f"{spec.name}-optimized.toml"
    paths = write_optimize_report(result, out, args.report)
    if not args.quiet:
        # names from files reach a terminal as text; the report's first line (the pilot) came first
        print(terminal(format_optimize(result).split("\n", 1)[1], newlines=True))
        print(terminal(f"\nbest deck: {paths[0]}\nreport: " + ", ".join(str(p) for p in paths[1:]), newlines=True))
    return 0
