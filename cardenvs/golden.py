"""Golden playthroughs: seeded random games rendered to text, stored in each game's folder (``golden/seed<N>.txt``)
and compared by a test.

A rules change shows up as a readable diff. Regenerate after an intended change with
``python -m cardenvs.golden --write`` and review the diff like code.

Beside the text, :func:`stream_digest` hashes everything the batch core hands out over seeded games played by
random and by heuristic pilots: every state row, both players' observations and legal masks before every
decision, the actions, rewards and final states. The text shows *what* changed in a rules change; the digests
(the game's ``golden/streams.json``) prove that a speed change changed nothing at all, observations included (a
policy trained on today's observations stays valid only if they stay byte-identical). Observations are hashed as
their float32 view (``spec.float_observation``), so a game that moves to a compact layout whose float view equals its
old float32 observation value for value keeps its digests: the test that the conversion is exact (a value the
compact dtype cannot hold changes the float view, so the digest also catches a wrapped value on these games).
"""
from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np

from . import available_games, make_env
from .core.registry import game_dir
from .core.seat_view import agent_states

__all__ = ["SEEDS", "STREAM_PILOTS", "golden_dir", "golden_path", "playthrough", "stream_digest", "stream_digests",
           "stream_pilots", "streams_path"]

SEEDS = (1, 2)
MAX_DECISIONS = 120


def playthrough(game: str, seed: int, max_decisions: int = MAX_DECISIONS) -> str:
    """The omniscient board before each decision, the decision taken, and the result."""
    env = make_env(game, raw=True, render_mode="ansi")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    lines = [f"# {env.metadata['name']} seed {seed}: random legal play, first {max_decisions} decisions"]
    for n in range(max_decisions):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        legal = env.legal_actions()
        action = int(rng.choice(legal))
        lines += ["", f"## decision {n}: {agent} to act", env.render(), f"-> {action}: {env.action_name(action)}"]
        env.step(action)
    lines += ["", "## result", f"rewards: {env.rewards}", f"terminations: {env.terminations}",
              f"truncations: {env.truncations}"]
    return "\n".join(lines) + "\n"


def golden_dir(game: str) -> Path:
    """A game's golden files live in its folder, beside the rules they pin (and install with it)."""
    return game_dir(game) / "golden"


def golden_path(game: str, seed: int) -> Path:
    return golden_dir(game) / f"seed{seed}.txt"


def streams_path(game: str) -> Path:
    """The game's stream digests: ``{pilot: digest}``."""
    return golden_dir(game) / "streams.json"

STREAM_PILOTS = ("random", "heuristic")
STREAM_GAMES = 24
STREAM_SEED = 7


def stream_digest(game: str, pilot: str, num_games: int = STREAM_GAMES, seed: int = STREAM_SEED) -> str:
    """sha256 (first 24 hex digits) of ``num_games`` seeded games of ``game`` played to the end by ``pilot`` in both
    seats through the fused :meth:`~cardenvs.core.batch.BatchGame.play`: before every decision the state rows, the
    observation (its float32 view) and legal mask of *both* players; then the actions, rewards and final states."""
    from .agents import make_agent
    from .core.batch import BatchGame

    batch = BatchGame(game, num_games=num_games, seed=seed, parallel=False)
    agent = make_agent(game, pilot, seed=seed)
    spec = batch.spec
    h = hashlib.sha256()
    seats = [np.full(num_games, p, dtype=np.int32) for p in (0, 1)]
    for _ in range(100_000):
        who = batch.to_act.copy()
        if not (who >= 0).any():
            break
        h.update(batch.states.tobytes())
        for seat in seats:
            h.update(spec.float_observation(batch.observe(seat)).tobytes())
            h.update(batch.legal_mask(seat).tobytes())
        obs = batch.observe(who).copy()
        mask = batch.legal_mask(who).copy()
        actions = np.asarray(agent.act(obs, mask, agent_states(agent, batch.spec, batch.states, who), who),
                             dtype=np.int64)
        actions = np.where(who >= 0, actions, 0)
        h.update(actions.tobytes())
        result, obs_next, mask_next = batch.play(actions, players=who)
        h.update(result.rewards.astype(np.float64).tobytes())
        h.update(spec.float_observation(obs_next).tobytes())
        h.update(mask_next.tobytes())
    h.update(batch.states.tobytes())
    return h.hexdigest()[:24]


def stream_pilots(game: str) -> tuple[str, ...]:
    """The pilots of :data:`STREAM_PILOTS` the game has: a heuristic is found by the game's name
    (``cardenvs.agents.heuristic_<game>``), so a new game's goldens can be written before it has one."""
    import importlib.util

    has_heuristic = importlib.util.find_spec(f"cardenvs.agents.heuristic_{game}") is not None
    return tuple(p for p in STREAM_PILOTS if p != "heuristic" or has_heuristic)


def stream_digests(games: list[str] | None = None) -> dict[str, dict[str, str]]:
    return {g: {p: stream_digest(g, p) for p in stream_pilots(g)} for g in (games or available_games())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare with the stored files (the default); exit 1 if "
                                                            "any differs")
    mode.add_argument("--write", action="store_true", help="rewrite the golden files")
    parser.add_argument("games", nargs="*", default=None)
    parser.add_argument("--streams", action="store_true",
                        help="only the stream digests (states, both views' observations and masks; random and heuristic pilots)")
    args = parser.parse_args(argv)
    differs = False
    for game in args.games or available_games():
        streams = streams_path(game)
        stored = json.loads(streams.read_text()) if streams.is_file() else {}
        for pilot in stream_pilots(game):
            digest = stream_digest(game, pilot)
            if args.write:
                stored[pilot] = digest
            else:
                same = stored.get(pilot) == digest
                differs |= not same
                print(f"{game} {pilot} stream {digest}: {'ok' if same else 'DIFFERS'}")
        if args.write:
            streams.parent.mkdir(parents=True, exist_ok=True)
            streams.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n")
            print(f"wrote {streams}")
        if args.streams:
            continue
        for seed in SEEDS:
            text = playthrough(game, seed)
            path = golden_path(game, seed)
            if args.write:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
                print(f"wrote {path}")
            else:
                same = path.is_file() and path.read_text() == text
                differs |= not same
                print(f"{path}: {'ok' if same else 'DIFFERS'}")
    return 1 if differs else 0


if __name__ == "__main__":
    raise SystemExit(main())
