"""``cardenvs play GAME``: a person against an agent in the terminal, saved as a replay at the end.

The person sees the board from their own seat only (the game's render for that viewer), the last decisions of
both players (the agent's named only when the name shows nothing hidden from the person), and the legal actions
by id and name. Commands: an action id to take it, ``? N`` / ``? name`` for card text, ``why N`` for why an action
is not legal now, ``legend`` for the board's flags, ``log``, ``board``, ``help`` and ``quit`` (resigns; the replay
is still saved). Input is read line by line, so a script can drive it on stdin.
"""
from __future__ import annotations

import difflib
import re
import sys
import time
from pathlib import Path
from typing import IO, Any

import numpy as np
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .core.batch import BatchGame, get_spec
from .core.escaping import terminal
from .core.header import H_STATUS, H_TO_ACT, H_TURN, H_WINNER, LIVE
from .core.replay import Replay, ReplayRecorder, seeded_agent
from .core.rows import forfeit_game
from .viewer import public_action_name

HELP = ("Type an action id to take it.  ? N: text of the cards in action N   ? NAME: a card's text   "
        "why N: why action N is not legal now   legend: what the board's marks mean   log: every decision so far   "
        "board: show the board again   quit: resign and save the replay")
QUOTED = re.compile(r"'([^']+)'")
#: an action id as typed: ASCII digits only (str.isdigit() also accepts "²", which int() refuses)
ACTION_ID = re.compile(r"-?[0-9]{1,9}")
PLANNED = "planned (the plan shows when the phase resolves)"


def _shown(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def card_text(card: dict) -> str:
    """A card of any game's pool as text: its name, its printed fields and one line per effect."""
    def printed(key: str, value: Any) -> bool:
        return not key.startswith("_") and value not in ("", None, [], ()) and not isinstance(value, dict)

    fields = [f"{k}: {_shown(v)}" for k, v in card.items()
              if k not in ("name", "effects", "skills", "abilities") and printed(k, v)]
    lines = [card["name"], "  " + "; ".join(fields)] if fields else [card["name"]]
    for key in ("effects", "skills", "abilities"):
        for effect in card.get(key, []) or []:
            if isinstance(effect, dict):
                parts = [f"{k}={_shown(v)}" for k, v in effect.items() if k != "opcode" and printed(k, v)]
                lines.append(f"  {key[:-1]}: " + ", ".join(parts))
    return "\n".join(lines)


def find_cards(pool: Any, text: str) -> list[dict]:
    """Cards named ``text`` (case-insensitive), else those whose name contains it, else close matches."""
    names = [c["name"] for c in pool.cards]
    low = text.strip().lower()
    exact = [n for n in names if n.lower() == low]
    if not exact:
        exact = [n for n in names if low and low in n.lower()]
    if not exact:
        lowered = {n.lower(): n for n in names}
        exact = [lowered[m] for m in difflib.get_close_matches(low, list(lowered), n=3, cutoff=0.6)]
    return [pool.cards[pool.by_name[n]] for n in exact]


def legend(spec: Any) -> str:
    text = spec.legend
    return text or f"{spec.name} has no board legend yet; its RULES.md describes every field."


def explain(game: BatchGame, player: int, action: int) -> str:
    """Why ``action`` is not legal for ``player`` now, in the game's own terms where the game explains it."""
    spec = game.spec
    if not 0 <= action < spec.num_actions:
        return f"there is no action {action}: action ids run from 0 to {spec.num_actions - 1}"
    mask = game.legal_mask(player, out=np.zeros((1, spec.num_actions), np.int8))[0]
    name = game.action_name(action, 0, player)
    if mask[action]:
        return f"action {action} ({name}) is legal now"
    if int(game.states[0, H_TO_ACT]) != player:
        return f"it is not your decision now: player_{int(game.states[0, H_TO_ACT])} decides"
    explainer = spec.explain_illegal
    if explainer is not None:
        reason = explainer(game.states[0], game.pool, player, action)
        if reason:
            return f"action {action} ({name}) is not legal now: {reason}"
    return (f"action {action} ({name}) is not legal in this decision; the legal actions are listed above "
            f"({int(mask.sum())} of them)")


class PlaySession:
    """One game between a person (reading ``inp``) and an agent, shown on ``console``."""

    def __init__(self, game: str, opponent: Any = "heuristic", deck: Any = None, opp_deck: Any = None,
                 seat: int = 0, seed: int | None = None, console: Console | None = None,
                 inp: IO[str] | None = None) -> None:
        self.spec = get_spec(game)
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        defaults = self.spec.default_decks
        mine = deck if deck is not None else defaults[0]
        theirs = opp_deck if opp_deck is not None else defaults[1]
        decks = (mine, theirs) if seat == 0 else (theirs, mine)
        self.seed = int(seed) if seed is not None else int(np.random.SeedSequence().generate_state(1)[0] >> 2)
        self.game = BatchGame(self.spec, 1, decks=decks, seed=self.seed, parallel=False)
        self.seat = seat
        self.opponent_name = str(opponent)
        self.opponent = seeded_agent(self.spec, opponent, self.seed + 1)
        self.console = console or Console()
        self.inp = inp or sys.stdin
        self.recorder = ReplayRecorder(self.game, [0], meta={
            "pilots": ["person", self.opponent_name] if seat == 0 else [self.opponent_name, "person"],
            "recorded_by": "cardenvs play", "time": time.strftime("%Y-%m-%dT%H:%M:%S")})
        self.history: list[tuple[int, str]] = []  # (seat, name as the person may see it)

    # ----- output ------------------------------------------------------------------------------------------
    def show_board(self) -> None:
        row = self.game.states[0]
        title = Text(f"{self.spec.name}  turn {int(row[H_TURN])}  you are player_{self.seat}")
        # plain text ("[stunned]" is not markup), and a card or deck name's control characters shown, not obeyed
        board = Text(terminal(self.spec.render(row, self.game.pool, self.seat), newlines=True))
        self.console.print(Panel(board, title=title, expand=False))
        if self.history:
            recent = self.history[-6:]
            self.say("last decisions: " + "  |  ".join(
                f"{'you' if s == self.seat else 'opponent'}: {n}" for s, n in recent))

    def show_actions(self) -> None:
        mask = self.game.legal_mask(self.seat)[0]
        # count the person's own decisions: the game's counter would tell how often the agent decided in between
        mine = sum(1 for s, _ in self.history if s == self.seat)
        table = Table(title=f"your legal actions (decision {mine})", show_header=True, header_style="bold")
        table.add_column("id", justify="right")
        table.add_column("action")
        for a in np.flatnonzero(mask):
            table.add_row(str(int(a)), Text(terminal(self.game.action_name(int(a), 0, self.seat))))
        self.console.print(table)

    def say(self, text: str) -> None:
        """Print ``text`` as it is: no markup, and control characters (from card and deck names) escaped."""
        self.console.print(terminal(text, newlines=True), markup=False, highlight=False)

    # ----- the loop ----------------------------------------------------------------------------------------
    def step(self, player: int, action: int) -> None:
        before = self.game.states[0].copy()
        actions = np.array([action], dtype=np.int32)
        players = np.array([player], dtype=np.int32)
        self.recorder.record(actions, players)
        self.game.step(actions, players=players)
        shown = public_action_name(self.spec, before, self.game.pool, player, action, self.seat,
                                   seed=int(before[H_TURN]), after=self.game.states[0])
        if self.spec.simultaneous and player != self.seat:
            # a plan stays hidden until it resolves, and so does its length: one line per phase, not per decision
            if self.history and self.history[-1] == (player, PLANNED):
                return
            shown = PLANNED
        self.history.append((player, shown))
        if player != self.seat:
            self.say(f"opponent ({self.opponent_name}): {shown}")

    def agent_turn(self) -> None:
        player = int(self.game.states[0, H_TO_ACT])
        obs = self.game.observe(player).copy()
        mask = self.game.legal_mask(player).copy()
        action = int(np.asarray(self.opponent.act(obs, mask, self.game.states, np.array([player], np.int32)))[0])
        self.step(player, action)

    def person_turn(self) -> bool:
        """Read commands until the person acts; False when they quit (or the input ends)."""
        self.show_board()
        self.show_actions()
        while True:
            if self.inp.isatty():
                self.console.print("> ", end="")
            line = self.inp.readline()
            if not line:
                self.say("input ended: resigning")
                return False
            text = line.strip()
            if not text:
                continue
            low = text.lower()
            if low in ("quit", "q", "resign", "exit"):
                return False
            if low in ("help", "h"):
                self.say(HELP)
            elif low == "legend":
                self.say(legend(self.spec))
            elif low == "board":
                self.show_board()
                self.show_actions()
            elif low == "log":
                for k, (s, n) in enumerate(self.history):
                    self.say(f"{k:>4}  {'you' if s == self.seat else 'opponent'}: {n}")
            elif low.startswith("why"):
                arg = text[3:].strip()
                if not ACTION_ID.fullmatch(arg):
                    self.say("usage: why N (N an action id)")
                else:
                    self.say(explain(self.game, self.seat, int(arg)))
            elif text.startswith("?"):
                self.card_help(text[1:].strip())
            elif ACTION_ID.fullmatch(text):
                action = int(text)
                mask = self.game.legal_mask(self.seat)[0]
                if 0 <= action < self.spec.num_actions and mask[action]:
                    self.step(self.seat, action)
                    return True
                self.say(explain(self.game, self.seat, action))
            else:
                self.say(f"unknown command {text!r}. {HELP}")

    def card_help(self, arg: str) -> None:
        pool = self.game.pool
        if ACTION_ID.fullmatch(arg):
            action = int(arg)
            if not 0 <= action < self.spec.num_actions:
                self.say(f"there is no action {action}")
                return
            names = [n for n in QUOTED.findall(self.game.action_name(action, 0, self.seat)) if n in pool.by_name]
            cards = [pool.cards[pool.by_name[n]] for n in dict.fromkeys(names)]
            if not cards:
                self.say(f"action {action} names no card")
        elif arg:
            cards = find_cards(pool, arg)
            if not cards:
                self.say(f"no card called {arg!r} in the {self.spec.name} pool")
        else:
            self.say("usage: ? N (an action id) or ? NAME (a card name)")
            return
        for card in cards:
            self.say(card_text(card))

    def run(self) -> Replay:
        self.say(f"{self.spec.name}: you are player_{self.seat} "
                 f"({self.game.deck_pairs[0][self.seat].name}) against {self.opponent_name} "
                 f"({self.game.deck_pairs[0][1 - self.seat].name}), seed {self.seed}. Type help for commands.")
        while self.game.states[0, H_STATUS] == LIVE:
            if int(self.game.states[0, H_TO_ACT]) != self.seat:
                self.agent_turn()
            elif not self.person_turn():
                self.recorder.resign(0, self.seat)
                forfeit_game(self.game.states[0], self.seat)
                break
        row = self.game.states[0]
        winner = int(row[H_WINNER])
        outcome = {self.seat: "you win", 1 - self.seat: "you lose", 2: "a draw"}.get(winner, "no winner (truncated)")
        self.show_board()
        self.say(f"game over: {outcome} after {len(self.history)} decisions")
        return self.recorder.replay(0)


def default_replay_path(replay: Replay, folder: str | Path = "replays") -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(folder) / f"{replay.game}-{stamp}-seed{replay.seed}.json"


__all__ = [
    "ACTION_ID", "card_text", "default_replay_path", "explain", "find_cards", "HELP", "legend", "PLANNED",
    "PlaySession", "QUOTED"
]
