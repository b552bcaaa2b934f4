"""``cardenvs play GAME``: you against an agent in the terminal (the session is :mod:`cardenvs.play`'s)."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .args import add_trust_pickle, seed_type, trust_pickled

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    """``cardenvs play``: added to the command line's subcommands."""
    p = sub.add_parser(
        "play", help="play a game yourself against an agent in the terminal; saves the game as a replay",
        description="Play GAME against an agent (random, heuristic or ppo:PATH). You see the board from your seat "
                    "only. Type an action id to act; '? N' or '? NAME' shows card text, 'why N' says why an action "
                    "is not legal now, 'legend' explains the board's marks, 'quit' resigns. The finished game is "
                    "saved as a replay ('cardenvs replay FILE' to watch it).")
    p.add_argument("game", help="game name (see 'cardenvs games')")
    p.add_argument("--opponent", "--agent", dest="opponent", default="heuristic", metavar="PILOT",
                   help="the agent you play against: random, heuristic or ppo:PATH (a pickle-free .npz; an SB3 .zip "
                        "needs --trust-pickle) (default: %(default)s)")
    add_trust_pickle(p)
    p.add_argument("--deck", help="your deck: a starter deck name or a deck file (default: the game's first default)")
    p.add_argument("--opp-deck", help="the agent's deck (default: the game's second default deck)")
    p.add_argument("--seat", type=int, choices=(0, 1), default=0, help="your seat, 0 or 1 (default: %(default)s)")
    p.add_argument("--seed", type=seed_type, default=None, help="game seed, any integer (default: random)")
    p.add_argument("--replay-dir", default="replays", metavar="DIR",
                   help="where the finished game is saved (default: %(default)s)")
    p.add_argument("--no-save", action="store_true", help="do not save a replay")
    p.add_argument("--no-auto", action="store_true",
                   help="wait for you to type a decision even when it has one legal action (default: such a "
                        "decision is taken for you and said)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """``cardenvs play``: one game at the terminal, saved as a replay unless --no-save."""
    # imported here: the session loads the engine, which `cardenvs --help` does not need
    from ..core.header import H_STATUS, LIVE
    from ..core.rows import forfeit_game
    from ..play import PlaySession, default_replay_path

    if not args.no_save:  # a folder that cannot be written is reported before the game, not after it
        from ..core.outputs import check_folder

        check_folder(args.replay_dir, "--replay-dir")
        Path(args.replay_dir).mkdir(parents=True, exist_ok=True)
    trust_pickled(args, args.opponent)
    session = PlaySession(args.game, opponent=args.opponent, deck=args.deck, opp_deck=args.opp_deck,
                          seat=args.seat, seed=args.seed, auto_advance=not args.no_auto)
    try:
        replay = session.run()
    except KeyboardInterrupt:  # Ctrl-C resigns; the game so far is still saved
        session.say("interrupted: resigning")
        if session.game.states[0, H_STATUS] == LIVE:
            session.recorder.resign(0, session.seat)
            forfeit_game(session.game.states[0], session.seat)
        replay = session.recorder.replay(0)
    if not args.no_save:
        path = replay.save(default_replay_path(replay, args.replay_dir))
        session.say(f"replay saved: {path}  (watch it: cardenvs replay {path})")
    return 0
