"""Replays (record, save, load, re-simulate), the terminal and HTML viewers, and ``cardenvs play`` driven by a script."""
from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest
from rich.console import Console

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import H_STATUS, LIVE
from cardenvs.play import PlaySession, card_text, find_cards
from cardenvs.core.replay import Replay, ReplayError, ReplayRecorder, record_match, simulate
from cardenvs.viewer import HIDDEN_ACTION, TerminalViewer, html_page, public_action_name

REPLAY_GAMES = 40  # per game in CI; tests/core/test_replay.py::test_many_random_games_replay_exactly[slow] plays 1,000


def random_batch_replays(game_name: str, games: int, seed: int) -> tuple[BatchGame, list[Replay]]:
    rng = np.random.default_rng(seed)
    batch = BatchGame(game_name, games, seed=seed)
    recorder = ReplayRecorder(batch, meta={"pilots": ["random", "random"]})

    def decide(who, obs, mask):
        noise = rng.random(mask.shape) * mask
        return noise.argmax(axis=1).astype(np.int32)

    batch.play_out(recorder.wrap(decide), observe=False)
    return batch, [recorder.replay(r) for r in range(games)]


def check_replays(game_name: str, games: int, seed: int, tmp_path) -> None:
    batch, replays = random_batch_replays(game_name, games, seed)
    for r, replay in enumerate(replays):
        path = replay.save(tmp_path / f"{game_name}-{r}.json")
        run = simulate(Replay.load(path))
        assert np.array_equal(run.states[-1], batch.states[r]), f"{game_name} game {r} replays differently"
        assert len(run.states) == len(replay.decisions) + 1


def test_random_games_replay_exactly(game_name, tmp_path):
    """Every decision of a batch row, saved as JSON and loaded again, re-simulates to the same final state."""
    check_replays(game_name, REPLAY_GAMES, seed=11, tmp_path=tmp_path)


@pytest.mark.slow
def test_many_random_games_replay_exactly(game_name, tmp_path):
    check_replays(game_name, 1000, seed=12, tmp_path=tmp_path)


def test_a_replay_from_another_rules_version_is_refused_with_one_line(tmp_path):
    replay = record_match("levelneo", seed=3)
    data = replay.to_dict()
    data["rules_version"] += 1
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ReplayError, match="rules version") as err:
        simulate(Replay.load(path))
    assert "\n" not in str(err.value)


def test_a_replay_whose_result_no_longer_matches_is_refused(tmp_path):
    replay = record_match("levelneo", seed=4)
    replay.result["winner"] = 1 - replay.result["winner"]
    with pytest.raises(ReplayError, match="recorded as"):
        simulate(replay)


def test_a_replay_with_an_illegal_decision_is_refused():
    replay = record_match("levelneo", seed=5)
    batch = BatchGame("levelneo", 1, seed=replay.seed)
    illegal = int(np.flatnonzero(batch.legal_mask(batch.to_act)[0] == 0)[0])
    replay.decisions[0]["action"] = illegal
    with pytest.raises(ReplayError, match="decision 0: action"):
        simulate(replay)


@pytest.mark.parametrize("content", [b"\xff\xfe garbage", b"[1, 2]", b'{"format": 1}', b"{" * 100000, b""])
def test_malformed_replay_files_give_one_clear_error(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ReplayError) as err:
        Replay.load(path)
    assert str(path) in str(err.value)


def test_resignation_is_recorded_and_replays():
    replay = record_match("divinecross", seed=2)
    cut = Replay.from_dict(replay.to_dict())
    cut.decisions = cut.decisions[:5] + [{"seat": cut.decisions[5]["seat"], "action": -1, "name": "resign"}]
    cut.result = {"status": "terminated", "winner": 1 - cut.decisions[-1]["seat"]}
    run = simulate(cut)
    assert run.states[-1][H_STATUS] != LIVE
    assert TerminalViewer(run, viewer=0).log()[-1].endswith("resign")  # the viewers name a resignation


def test_terminal_viewer_steps_jumps_and_switches_view():
    run = simulate(record_match("levelneo", seed=6))
    out = io.StringIO()
    viewer = TerminalViewer(run, viewer=None, out=out)
    viewer.loop(io.StringIO("n\nn\nb\ng 30\nv 1\nt 4\ne\nbogus\nv 9\nq\n"))
    text = out.getvalue()
    assert "decision 1/" in text and "decision 30/" in text
    assert "player_1's view" in text and "unknown view '9'" in text
    assert f"decision {viewer.last}/{viewer.last}" in text and "end: terminated" in text or "end: truncated" in text
    assert viewer.step == viewer.last and viewer.viewer == 1


def test_html_page_carries_every_frame_and_escapes_card_names():
    run = simulate(record_match("relics", seed=7))
    page = html_page(run)
    data = json.loads(page.split('type="application/json">', 1)[1].split("</script>", 1)[0])
    assert len(data["frames"]) == len(run.states)
    assert set(data["boards"]) == {"all", "0", "1"}
    assert data["boards"]["0"][0] == run.render(0, 0)
    assert "<script" not in page.split('type="application/json">', 1)[1].split("</script>", 1)[0]


def test_an_action_name_that_depends_on_hidden_cards_is_not_shown_to_the_other_player():
    """The opponent's decision is named only if its name survives every re-deal of what the viewer cannot see."""
    batch = BatchGame("levelneo", 1, seed=0)
    spec, pool, row = batch.spec, batch.pool, batch.states[0]

    class LeakySpec:
        simultaneous = False
        hide = staticmethod(lambda r, viewer, rng, p: r + rng.integers(1, 5))

        @staticmethod
        def action_name(r, p, actor, action):
            return f"secret {int(r.sum())}"

    assert public_action_name(LeakySpec, row, pool, actor=1, action=0, viewer=0) == HIDDEN_ACTION
    assert public_action_name(LeakySpec, row, pool, actor=1, action=0, viewer=1).startswith("secret")
    assert public_action_name(LeakySpec, row, pool, actor=1, action=0, viewer=None).startswith("secret")
    # a real public action (choosing the turn order) keeps its name for the other player
    actor = int(batch.to_act[0])
    legal = int(np.flatnonzero(batch.legal_mask(actor)[0])[0])
    assert public_action_name(spec, row, pool, actor, legal, 1 - actor) == spec.action_name(row, pool, actor, legal)


class ScriptedPerson:
    """Types help commands and one bad line first, then always the first legal action."""

    def __init__(self, opening: list[str]) -> None:
        self.opening = list(opening)
        self.session: PlaySession | None = None

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        if self.opening:
            return self.opening.pop(0) + "\n"
        mask = self.session.game.legal_mask(self.session.seat)[0]
        return f"{int(np.flatnonzero(mask)[0])}\n"


def test_play_a_whole_game_from_a_script(game_name, tmp_path):
    """A person's session for every game: help, card text, why, a bad line, an illegal id, then play to the end."""
    person = ScriptedPerson(["help", "? 0", f"? {game_name[:3]}", "why 0", "no such command", "99999", "legend",
                             "log", "board"])
    console = Console(file=io.StringIO(), width=140)
    session = PlaySession(game_name, opponent="random", seat=1, seed=3, console=console, inp=person)
    person.session = session
    replay = session.run()
    shown = console.file.getvalue()
    assert "unknown command 'no such command'" in shown
    assert "there is no action 99999" in shown
    assert "game over:" in shown
    path = replay.save(tmp_path / "game.json")
    run = simulate(Replay.load(path))
    assert np.array_equal(run.states[-1], session.game.states[0])


def test_quitting_resigns_and_the_replay_still_replays(tmp_path):
    person = ScriptedPerson(["quit"])
    session = PlaySession("levelneo", opponent="heuristic", seat=0, seed=1,
                          console=Console(file=io.StringIO()), inp=person)
    person.session = session
    replay = session.run()
    assert replay.decisions[-1]["action"] == -1 and replay.result["winner"] == 1
    simulate(replay)


def test_card_text_and_lookup():
    batch = BatchGame("levelneo", 1, seed=0)
    found = find_cards(batch.pool, "ember squire")
    assert [c["name"] for c in found] == ["Ember Squire"]
    assert find_cards(batch.pool, "Embr Squire")[0]["name"] == "Ember Squire"  # close match
    text = card_text(found[0])
    assert text.startswith("Ember Squire") and "on_attack" in text


def test_board_marks_in_brackets_reach_the_screen():
    """rich must not read a board's ``[stunned]`` or ``[R]`` as markup and drop it."""
    console = Console(file=io.StringIO(), width=200)
    session = PlaySession("levelneo", opponent="random", seat=0, seed=2, console=console, inp=ScriptedPerson([]))
    session.show_board()
    board = session.spec.render(session.game.states[0], session.game.pool, 0)
    marks = set(re.findall(r"\[[^\]]+\]", board))
    shown = console.file.getvalue()
    assert all(m in shown for m in marks), marks


def test_an_opponent_card_played_from_hand_is_named_once_it_is_on_the_board():
    """The name mentions a hidden hand card before the play, but the play reveals it: name it from the state after."""
    rng = np.random.default_rng(0)
    batch = BatchGame("levelneo", 1, seed=9)
    named = hidden = 0
    for _ in range(400):
        if batch.status[0] != LIVE:
            break
        actor = int(batch.to_act[0])
        mask = batch.legal_mask(actor)[0]
        action = int(rng.choice(np.flatnonzero(mask)))
        before = batch.states[0].copy()
        full = batch.action_name(action, 0, actor)
        batch.step(np.array([action], np.int32), players=np.array([actor], np.int32))
        shown = public_action_name(batch.spec, before, batch.pool, actor, action, 1 - actor, after=batch.states[0])
        if full.startswith("play support"):
            assert shown == full  # a support played from hand is on the board afterwards
            named += 1
        if shown == HIDDEN_ACTION:
            hidden += 1
    assert named > 0


def test_simultaneous_play_does_not_show_how_many_decisions_the_agent_made(simultaneous_game):
    """One line per opponent plan, and the actions table counts the person's own decisions only."""
    person = ScriptedPerson([])
    console = Console(file=io.StringIO(), width=160)
    session = PlaySession(simultaneous_game, opponent="heuristic", seat=1, seed=4, console=console, inp=person)
    person.session = session
    session.run()
    history = session.history
    assert not any(a == b and a[0] != session.seat for a, b in zip(history, history[1:]))
    shown = console.file.getvalue()
    own = sum(1 for s, _ in history if s == session.seat)
    assert f"your legal actions (decision {own - 1})" in shown


def test_human_render_never_prints_the_all_seeing_board(capsys):
    """Issue 12 #24: "human" mode shows the player to act's view (AEC) or the shared view (ParallelEnv)."""
    import cardenvs

    env = cardenvs.make_env("levelneo", render_mode="human")
    env.reset(seed=3)
    for _ in range(12):  # into the main phase, with cards in both hands
        env.step(int(np.flatnonzero(env.unwrapped.action_mask())[0]))
    capsys.readouterr()
    env.render()
    shown = capsys.readouterr().out
    seat = int(env.unwrapped.row[1])
    assert shown.strip() == env.unwrapped.spec.render(env.unwrapped.row, env.unwrapped.game.pool, seat).strip()
    assert shown.strip() != env.unwrapped.spec.render(env.unwrapped.row, env.unwrapped.game.pool, None).strip()

    par = cardenvs.make_parallel_env("simulfight", render_mode="human")
    par.reset(seed=1)
    capsys.readouterr()
    par.render()
    game = par.unwrapped.game if hasattr(par, "unwrapped") else par.game
    assert capsys.readouterr().out.strip() == game.spec.render(game.states[0], game.pool, -1).strip()


def test_an_env_gives_its_game_as_a_replay(game_name, tmp_path):
    """The AEC env (and the ParallelEnv of a simultaneous game) writes its game on request."""
    import cardenvs

    env = cardenvs.make_env(game_name)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    path = env.unwrapped.replay(meta={"pilots": ["random", "random"]}).save(tmp_path / "env.json")
    run = simulate(Replay.load(path))
    assert np.array_equal(run.states[-1], env.unwrapped.row)
    if game_name in cardenvs.SIMULTANEOUS_GAMES:
        par = cardenvs.make_parallel_env(game_name)
        obs, _ = par.reset(seed=6)
        while par.agents:
            acts = {}
            for a in par.agents:
                legal = np.flatnonzero(obs[a]["action_mask"])
                acts[a] = int(rng.choice(legal)) if legal.size else 0
            obs, *_ = par.step(acts)
        run = simulate(par.replay())
        assert np.array_equal(run.states[-1], par.game.states[0])


def test_eval_saves_games_as_replays_with_upsets_first(tmp_path):
    """``cardenvs eval --save-replays DIR --replays N``: N games, the upsets (lower-rated winner) among them,
    each re-simulating to its recorded result."""
    from cardenvs.cli import main

    out = tmp_path / "replays"
    assert main(["eval", "levelneo", "--decks", "aggro", "weak", "control", "--games", "20", "--save-replays",
                 str(out), "--replays", "6", "-q", "--json", str(tmp_path / "r.json")]) == 0
    saved = sorted(out.glob("levelneo-*.json"))
    assert len(saved) == 6
    metas = [Replay.load(p).meta for p in saved]
    upsets = [m["upset"] for m in metas]
    assert upsets == sorted(upsets, reverse=True)  # upsets come first
    assert all((m["rating_gap"] > 0) == m["upset"] for m in metas)
    for p in saved:
        simulate(Replay.load(p))
    assert main(["eval", "levelneo", "--games", "2", "--save-replays", str(out), "--backend", "ray"]) == 2
