"""Watching games: a replay stepped through in the terminal, or written as one self-contained HTML page.

Both show the board before each decision from a chosen seat (``player_0``, ``player_1``) or the full view, the
decision taken and the game's log. From a player's seat nothing hidden from that player is shown: the board is
the game's own render for that viewer, and the other player's decisions are named only when the name carries
nothing that player cannot see (:func:`public_action_name`).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import IO, Any

import numpy as np

from .core.escaping import html_text, script_json, terminal
from .core.header import H_TURN
from .core.replay import RESIGN, ReplayRun

VIEWS = {"all": None, "0": 0, "1": 1, "p0": 0, "p1": 1, "player_0": 0, "player_1": 1}
HIDDEN_ACTION = "an action you cannot see the details of"
QUOTED = re.compile(r"'([^']+)'")


def parse_view(text: str) -> int | None:
    key = str(text).strip().lower()
    if key not in VIEWS:
        raise ValueError(f"unknown view {text!r}: use all, 0 or 1")
    return VIEWS[key]


def view_label(viewer: int | None) -> str:
    return "full view" if viewer is None else f"player_{viewer}'s view"


def public_action_name(spec: Any, row: np.ndarray, pool: Any, actor: int, action: int, viewer: int | None,
                       samples: int = 8, seed: int = 0, after: np.ndarray | None = None) -> str:
    """The name of ``actor``'s ``action`` (taken in ``row``) as ``viewer`` may see it.

    A player sees the names of their own decisions. Another player's decision is named only if its name is the
    same in ``samples`` re-deals of everything ``viewer`` cannot see (the game's ``hide``): a name that mentions a
    hidden card changes when that card is re-dealt. With ``after`` (the state after the action), a name that
    changes in re-deals is still named when the action revealed every card it quotes: each quoted card shows once
    more on the viewer's board after the action than before (an opponent playing a card from hand; the rest of such
    a name, like "play support" or the hand slot, describes that card or is public). In a simultaneous game the
    other player's plan is hidden until it resolves, so its decisions are never named.
    """
    if action == RESIGN:
        return "resign"
    name = spec.action_name(row, pool, actor, action)
    if viewer is None or viewer == actor:
        return name
    if spec.simultaneous:
        return HIDDEN_ACTION
    rng = np.random.default_rng(seed)
    variants = [spec.action_name(spec.hide(row, viewer, rng, pool), pool, actor, action) for _ in range(samples)]
    if all(v == name for v in variants):
        return name
    cards = set(QUOTED.findall(name))
    if after is None or not cards:
        return HIDDEN_ACTION
    before_board = spec.render(row, pool, viewer)
    after_board = spec.render(after, pool, viewer)
    for card in cards:
        if after_board.count(card) <= before_board.count(card):
            return HIDDEN_ACTION
    return name


def decision_lines(run: ReplayRun, viewer: int | None) -> list[str]:
    """One log line per decision, as ``viewer`` may see it."""
    lines = []
    for k, d in enumerate(run.replay.decisions):
        name = public_action_name(run.spec, run.states[k], run.game.pool, d["seat"], d["action"], viewer, seed=k,
                                  after=run.states[k + 1])
        lines.append(f"{k:>4}  turn {int(run.states[k][H_TURN]):>3}  player_{d['seat']}: {name}")
    return lines


def result_line(run: ReplayRun) -> str:
    res = run.replay.result
    winner = res.get("winner", -1)
    who = {0: "player_0 wins", 1: "player_1 wins", 2: "a draw"}.get(winner, "no winner")
    return f"{res.get('status', '?')}: {who} after {len(run.replay.decisions)} decisions"


# ----- terminal ----------------------------------------------------------------------------------------------
HELP = ("commands: Enter or n = next decision, b = back, g N = go to decision N, t N = go to turn N, "
        "s = start, e = end, v all|0|1 = choose the view, l = log, q = quit")


class TerminalViewer:
    """Step through a replay; reads commands line by line (a terminal or a script on stdin)."""

    def __init__(self, run: ReplayRun, viewer: int | None = None, out: IO[str] | None = None) -> None:
        self.run = run
        self.viewer = viewer
        self.step = 0
        self.out = out or sys.stdout
        self._logs: dict[int | None, list[str]] = {}

    def write(self, text: str) -> None:
        """Everything the viewer prints: names from the replay file are shown, never obeyed by the terminal."""
        self.out.write(terminal(text, newlines=True))

    @property
    def last(self) -> int:
        return len(self.run.states) - 1

    def log(self) -> list[str]:
        if self.viewer not in self._logs:
            self._logs[self.viewer] = decision_lines(self.run, self.viewer)
        return self._logs[self.viewer]

    def frame(self) -> str:
        run, k = self.run, self.step
        head = (f"{run.spec.name} replay  decision {k}/{self.last}  turn {int(run.states[k][H_TURN])}  "
                f"{view_label(self.viewer)}  ({run.replay.decks[0].get('name', '?')} vs "
                f"{run.replay.decks[1].get('name', '?')})")
        body = run.render(k, self.viewer)
        if k < self.last:
            nxt = f"next: player_{run.replay.decisions[k]['seat']} -> {self.log()[k].split(': ', 1)[-1]}"
        else:
            nxt = f"end: {result_line(run)}"
        return "\n".join([head, "-" * len(head), body, "", nxt])

    def command(self, text: str) -> bool:
        """Apply one command; False when the viewer should stop."""
        words = text.strip().split()
        verb = words[0].lower() if words else "n"
        arg = words[1] if len(words) > 1 else None
        try:
            if verb in ("q", "quit", "exit"):
                return False
            if verb in ("n", "next"):
                self.step = min(self.step + 1, self.last)
            elif verb in ("b", "back", "p", "prev"):
                self.step = max(self.step - 1, 0)
            elif verb in ("s", "start"):
                self.step = 0
            elif verb in ("e", "end"):
                self.step = self.last
            elif verb in ("g", "go") and arg is not None:
                self.step = min(max(int(arg), 0), self.last)
            elif verb in ("t", "turn") and arg is not None:
                turns = self.run.turns
                target = int(arg)
                self.step = next((k for k, t in enumerate(turns) if t >= target), self.last)
            elif verb in ("v", "view") and arg is not None:
                self.viewer = parse_view(arg)
            elif verb in ("l", "log"):
                self.write("\n".join(self.log()) + "\n")
                return True
            else:
                self.write(HELP + "\n")
                return True
        except ValueError as err:
            self.write(f"{str(err)[:200]}\n{HELP}\n")
            return True
        self.write(self.frame() + "\n")
        return True

    def loop(self, lines: IO[str] | None = None) -> None:
        lines = lines or sys.stdin
        self.write(self.frame() + "\n" + HELP + "\n")
        while True:
            if lines.isatty():
                self.write("> ")
                self.out.flush()
            text = lines.readline()
            if not text:  # end of input
                return
            if not self.command(text):
                return


# ----- HTML --------------------------------------------------------------------------------------------------
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
/* a column as tall as the window: the log takes whatever height the board leaves (it showed 12 lines above
   half a page of nothing), and scrolls inside itself */
html, body { height: 100%; }
body { font-family: system-ui, sans-serif; margin: 0; padding: 1.2em; box-sizing: border-box; background: #fafafa;
       color: #222; display: flex; flex-direction: column; min-height: 100vh; height: auto; }
h1 { font-size: 1.2em; margin: 0 0 .4em; }
.bar { display: flex; gap: .6em; align-items: center; flex-wrap: wrap; margin: .4em 0 .8em; }
#slider { flex: 1; min-width: 16em; }
pre { background: #fff; border: 1px solid #ccc; padding: .8em; overflow-x: auto; font-size: 13px; line-height: 1.3; }
#action { font-weight: 600; margin: .4em 0; }
#log { flex: 1 0 16em; height: 16em; overflow-y: auto; border: 1px solid #ccc; background: #fff;
       font: 12px monospace; }
#log div { padding: 1px .4em; cursor: pointer; white-space: pre; }
#log div.now { background: #ffe9a8; }
.muted { color: #666; }
</style></head><body>
<h1>__TITLE__</h1>
<div class="muted">__SUBTITLE__</div>
<div class="bar">
  <button id="first" title="start">|&#x25C0;</button><button id="prev" title="back">&#x25C0;</button>
  <input id="slider" type="range" min="0" max="0" value="0" aria-label="decision">
  <button id="next" title="next">&#x25B6;</button><button id="last" title="end">&#x25B6;|</button>
  <span id="pos"></span>
  <label>view <select id="view"><option value="all">full view</option><option value="0">player_0</option>
  <option value="1">player_1</option></select></label>
</div>
<div id="action"></div>
<pre id="board"></pre>
<div class="muted">game log (click a line to jump)</div>
<div id="log"></div>
<script id="replay-data" type="application/json">__DATA__</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("replay-data").textContent);
const slider = document.getElementById("slider"), view = document.getElementById("view");
const board = document.getElementById("board"), action = document.getElementById("action");
const pos = document.getElementById("pos"), log = document.getElementById("log");
slider.max = data.frames.length - 1;
function show() {
  const k = Number(slider.value), v = view.value, f = data.frames[k];
  board.textContent = data.boards[v][f.board];
  action.textContent = k < data.frames.length - 1 ? "next: player_" + f.seat + " \\u2192 " + data.names[v][k]
                                                  : "end: " + data.result;
  pos.textContent = "decision " + k + " / " + (data.frames.length - 1) + ", turn " + f.turn;
  log.innerHTML = "";
  data.names[v].forEach((name, i) => {
    const line = document.createElement("div");
    line.textContent = String(i).padStart(4) + "  turn " + String(data.frames[i].turn).padStart(3) +
                       "  player_" + data.frames[i].seat + ": " + name;
    if (i === k) line.className = "now";
    line.onclick = () => { slider.value = i; show(); };
    log.appendChild(line);
  });
  const now = log.querySelector(".now");
  if (now) now.scrollIntoView({block: "nearest"});
}
slider.oninput = show; view.onchange = show;
document.getElementById("first").onclick = () => { slider.value = 0; show(); };
document.getElementById("last").onclick = () => { slider.value = slider.max; show(); };
document.getElementById("prev").onclick = () => { slider.value = Math.max(0, Number(slider.value) - 1); show(); };
document.getElementById("next").onclick = () => { slider.value = Math.min(Number(slider.max), Number(slider.value) + 1); show(); };
document.addEventListener("keydown", e => {
  if (e.key === "ArrowRight") document.getElementById("next").click();
  if (e.key === "ArrowLeft") document.getElementById("prev").click();
});
// a link can open a given decision and view: page.html#step=12&view=0
const wanted = new URLSearchParams(location.hash.slice(1));
if (wanted.has("view") && ["all", "0", "1"].includes(wanted.get("view"))) view.value = wanted.get("view");
if (wanted.has("step")) { slider.value = wanted.get("step"); slider.dispatchEvent(new Event("input")); }
show();
</script></body></html>
"""


def html_page(run: ReplayRun) -> str:
    """One self-contained page: a slider over the decisions, the board from a chosen seat, the action, the log."""
    boards: dict[str, list[str]] = {}
    names: dict[str, list[str]] = {}
    for key, viewer in (("all", None), ("0", 0), ("1", 1)):
        boards[key] = [run.render(k, viewer) for k in range(len(run.states))]
        names[key] = [line.split(": ", 1)[1] for line in decision_lines(run, viewer)]
    frames = [{"board": k, "turn": int(s[H_TURN]),
               "seat": run.replay.decisions[k]["seat"] if k < len(run.replay.decisions) else -1}
              for k, s in enumerate(run.states)]
    data = {"frames": frames, "boards": boards, "names": names, "result": result_line(run)}
    # no "<" in the payload at all: a card name can neither close the script element nor open a "<!--<script>"
    # that would make the browser swallow the rest of the page
    payload = script_json(data)
    decks = run.replay.decks
    title = f"{run.spec.name} replay: {decks[0].get('name', '?')} vs {decks[1].get('name', '?')}"
    subtitle = (f"rules version {run.replay.rules_version}, seed {run.replay.seed}; {result_line(run)}; "
                f"pilots: {pilots_text(run.replay.meta)}")
    return (PAGE.replace("__TITLE__", html_text(title)).replace("__SUBTITLE__", html_text(subtitle))
            .replace("__DATA__", payload))


def pilots_text(meta: Any) -> str:
    """The pilots a replay's free-form ``meta`` names, as one line ("not recorded" when it names none)."""
    pilots = meta.get("pilots") if isinstance(meta, dict) else None
    if not isinstance(pilots, list) or not pilots:
        return "not recorded"
    return ", ".join(str(p)[:200] for p in pilots[:2])


def write_html(run: ReplayRun, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(html_page(run), encoding="utf-8")
    tmp.replace(path)
    return path


__all__ = [
    "decision_lines", "HELP", "HIDDEN_ACTION", "html_page", "PAGE", "parse_view", "pilots_text", "public_action_name",
    "QUOTED", "result_line", "TerminalViewer", "view_label", "VIEWS", "write_html"
]
