"""``cardenvs play GAME``: a person against an agent in the terminal, saved as a replay at the end.

The person sees the board from their own seat only (the game's render for that viewer), the last decisions of
both players (the agent's named only when the name shows nothing hidden from the person), and the legal actions
by id and name. Commands: an action id to take it, ``? N`` / ``? name`` for card text, ``why N`` for why an action
is not legal now, ``legend`` for the board's flags, ``log``, ``board``, ``help`` and ``quit`` (resigns; the replay
is still saved). Input is read line by line, so a script can drive it on stdin.

Between the person's decisions the session narrates: each action as the person may see it, and under it what it
changed on the person's own view of the board (a battle begun, a level gained or lost, a card revealed, a hand that
grew), so nothing hidden from them is told. A decision with one legal action is taken for them and said
(``auto_advance``; ``cardenvs play --no-auto`` to type every one).
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
from .core.seat_view import agent_states
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


def card_text(card: dict, spec: Any = None) -> str:
    """A card of any game's pool as text: its name and cost, its printed fields on one line, and one line per effect
    (in words where ``spec``'s game has a card-text renderer, else its op and the arguments that differ from the
    defaults). Without ``spec``: every field, as the file writes it."""
    if spec is not None:
        from . import cards_table as table

        defaults = table.schema_defaults(spec)
        row = table.card_row(0, card, defaults)
        cost = f" ({row['cost_field'].replace('_', ' ')} {row['cost']})" if row["cost"] is not None else ""
        lines = [f"{card['name']}{cost}"]
        if row["stats"]:
            lines.append("  " + table.stats_text(row["stats"]))
        lines += ["  " + c for c in table.card_clauses(card, defaults, table.card_words(spec))]
        return "\n".join(lines)
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


_PLAYER_LINE = re.compile(r"^(?:P([01])\b|player_([01])\b)")
_STAT = re.compile(r"([A-Za-z][A-Za-z ]*?) (-?\d+)(?=\s|$|,|;|:)")


def board_fields(board: str, seat: int) -> dict[str, str]:
    """A rendered board (any game's, from one seat) as ``{field: text}``: the lines after the headline, keyed by the
    player section they sit in ("you" / "opponent") and their label (``main``, ``hand``; a player's own line is its
    ``stats``), continuation lines joined to the field above."""
    fields: dict[str, str] = {}
    owner, last = "", ""
    for line in board.splitlines()[1:]:
        if not line.strip():
            continue
        head = _PLAYER_LINE.match(line)
        if head:
            owner = "you" if int(head.group(1) or head.group(2)) == seat else "opponent"
            last = f"{owner}|stats"
            fields[last] = line.split(":", 1)[1].strip() if ":" in line else line
            continue
        indented = line[:1].isspace()
        label, sep, rest = line.strip().partition(":")
        if indented and not sep and last:
            fields[last] += " " + line.strip()  # a wrapped list
            continue
        last = f"{owner if indented else ''}|{label.strip()}"
        fields[last] = rest.strip() if sep else ""
    return fields


def _items(text: str) -> list[str]:
    return [t.strip() for t in re.split(r" \| |, ", text) if t.strip() and t.strip() not in ("-", ".")]


def narrate(before: str, after: str, seat: int) -> list[str]:
    """What changed between two renders of the board from ``seat``, in short lines ("opponent: level 1 -> 2",
    "your hand: + Scorch Hound"): only what that seat's own view shows, so nothing hidden is told."""
    old, new = board_fields(before, seat), board_fields(after, seat)
    lines = []
    for key in list(dict.fromkeys([*old, *new])):
        was, now = old.get(key), new.get(key)
        if was == now:
            continue
        owner, label = key.split("|", 1)
        whose = {"you": "your ", "opponent": "opponent's "}.get(owner, "")
        if label == "stats" and was is not None and now is not None:
            a, b = dict(_STAT.findall(was)), dict(_STAT.findall(now))
            moved = [f"{k} {a[k]} -> {b[k]}" for k in b if k in a and a[k] != b[k]]
            if moved:
                lines.append(f"{'you' if owner == 'you' else 'opponent'}: " + ", ".join(moved))
                continue
        if was is None:
            lines.append(f"{whose}{label}: {now}" if now else f"{whose}{label}")
        elif now is None:
            lines.append(f"{whose}{label}: gone ({was})" if was else f"{whose}{label}: gone")
        else:
            gone, came = _items(was), _items(now)
            for item in list(gone):
                if item in came:
                    gone.remove(item)
                    came.remove(item)
            if (len(_items(was)) > 1 or len(_items(now)) > 1) and (gone or came) and len(gone) + len(came) < 6:
                lines.append(f"{whose}{label}: " + ", ".join([f"+ {c}" for c in came] + [f"- {g}" for g in gone]))
            else:
                lines.append(f"{whose}{label}: {was or '-'} -> {now or '-'}")
    return lines


class PlaySession:
    """One game between a person (reading ``inp``) and an agent, shown on ``console``. ``auto_advance``: a decision
    with a single legal action is taken for the person (and said), instead of waiting for them to type it."""

    def __init__(self, game: str, opponent: Any = "heuristic", deck: Any = None, opp_deck: Any = None,
                 seat: int = 0, seed: int | None = None, console: Console | None = None,
                 inp: IO[str] | None = None, auto_advance: bool = True, narrate: bool = True) -> None:
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
        self.auto_advance = auto_advance
        self.narrating = narrate

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
    def view(self) -> str:
        """The board as the person sees it (the game's render from their seat)."""
        return self.spec.render(self.game.states[0], self.game.pool, self.seat)

    def step(self, player: int, action: int, auto: bool = False) -> None:
        before = self.game.states[0].copy()
        seen = self.view() if self.narrating else ""
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
        elif auto:
            self.say(f"you (your only legal action, taken for you): {shown}")
        if self.narrating:
            # what the action changed, as the person's own view shows it: a battle's result, a level lost, a card
            # revealed (the board showed it changed without a word)
            for line in narrate(seen, self.view(), self.seat):
                self.say(f"    {line}")

    def forced_action(self) -> int | None:
        """The person's only legal action now, or None when they have a choice."""
        legal = np.flatnonzero(self.game.legal_mask(self.seat)[0])
        return int(legal[0]) if len(legal) == 1 else None

    def agent_turn(self) -> None:
        player = int(self.game.states[0, H_TO_ACT])
        obs = self.game.observe(player).copy()
        mask = self.game.legal_mask(player).copy()
        seats = np.array([player], np.int32)
        action = int(np.asarray(self.opponent.act(obs, mask, agent_states(self.opponent, self.game.spec, self.game.states,
                                                                          seats), seats))[0])
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
            self.say(card_text(card, self.spec))

    def run(self) -> Replay:
        self.say(f"{self.spec.name}: you are player_{self.seat} "
                 f"({self.game.deck_pairs[0][self.seat].name}) against {self.opponent_name} "
                 f"({self.game.deck_pairs[0][1 - self.seat].name}), seed {self.seed}. Type help for commands.")
        while self.game.states[0, H_STATUS] == LIVE:
            if int(self.game.states[0, H_TO_ACT]) != self.seat:
                self.agent_turn()
            elif self.auto_advance and (forced := self.forced_action()) is not None:
                self.step(self.seat, forced, auto=True)
            elif not self.person_turn():
                self.recorder.resign(0, self.seat)
                forfeit_game(self.game.states[0], self.seat)
                break
        row = self.game.states[0]
        winner = int(row[H_WINNER])
        outcome = {self.seat: "you win", 1 - self.seat: "you lose", 2: "a draw"}.get(winner, "no winner (truncated)")
        self.show_board()
        replay = self.recorder.replay(0)
        # the replay's count (a resignation is a decision there), so the screen and the saved game agree
        self.say(f"game over: {outcome} after {replay.result['decisions']} decisions")
        return replay


def default_replay_path(replay: Replay, folder: str | Path = "replays") -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(folder) / f"{replay.game}-{stamp}-seed{replay.seed}.json"


__all__ = [
    "ACTION_ID", "board_fields", "card_text", "default_replay_path", "explain", "find_cards", "HELP", "legend",
    "narrate", "PLANNED", "PlaySession", "QUOTED"
]
