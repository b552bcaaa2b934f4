"""The shipped checker: random play over a ruleset with every invariant cardenvs promises.

``check_game("levelneo")`` plays random legal games on the batch core and asserts: every card instance is in
exactly one zone after every decision (conservation), the player to act always has a legal action while the game is
live and the other player has none (sequential games), every game ends within the cap, observations are finite and
in bounds, a seed replays the same game exactly, the single AEC env plays the same game as the batch core for the
same seed and actions, and a player's observation does not change when everything hidden from that player is
re-dealt. Users can run it on their own card pools: ``check_game("levelneo", decks=("my.toml", "my.toml"))``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .core.aec import OBS_BOUND, CardGameEnv
from .core.batch import BatchGame, get_spec
from .core.header import H_STATUS, LIVE
from .core.invariants import conservation_errors
from .core.spec import GameSpec


class InvariantError(AssertionError):
    pass


@dataclass
class CheckReport:
    game: str
    games: int = 0
    decisions: int = 0
    terminated: int = 0
    truncated: int = 0
    hidden_checks: int = 0
    hidden_changed: int = 0
    aligned_games: int = 0
    notes: list[str] = field(default_factory=list)


def zone_geometry(spec: GameSpec) -> tuple[np.ndarray, np.ndarray]:
    layout = spec.state_layout
    starts = np.array([layout.offset(f.name) for f in layout.zones], dtype=np.int64)
    widths = np.array([f.shape[1] for f in layout.zones], dtype=np.int64)
    return starts, widths


def check_conservation(spec: GameSpec, states: np.ndarray) -> np.ndarray:
    """Per-row error codes (0 = fine); see :func:`conservation_errors`."""
    starts, widths = zone_geometry(spec)
    out = np.zeros(states.shape[0], dtype=np.int32)
    conservation_errors(states, spec.state_layout.offset("deck_list"), spec.max_deck, starts, widths, out)
    return out


def play_random(
    game: BatchGame, seed: int, agent_seed: int, max_steps: int, record_rows: int = 0, check: bool = True,
    report: CheckReport | None = None, hidden_every: int = 0,
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Random legal play of every row to the end; returns the final states and the actions of the first rows."""
    from agents.base import masked_uniform

    spec = game.spec
    rng = np.random.default_rng(agent_seed)
    hide_rng = np.random.default_rng(agent_seed + 1)
    game.reset(seed)
    recorded: list[np.ndarray] = []
    n = game.num_games
    for step in range(max_steps):
        live = game.status == LIVE
        if not live.any():
            break
        players = np.where(live, game.to_act, -1).astype(np.int32)
        mask = game.legal_mask(players)
        if check:
            _check_masks(game, live, mask, players)
            obs = game.observe(players)
            if not np.isfinite(obs).all() or np.abs(obs).max(initial=0) > OBS_BOUND:
                raise InvariantError(f"{spec.name}: observation not finite or outside +-{OBS_BOUND}")
            if hidden_every and step % hidden_every == 0:
                _check_hidden(game, live, hide_rng, report)
        actions = masked_uniform(mask, rng)
        if record_rows:
            recorded.append(np.where(live[:record_rows], actions[:record_rows], -1))
        game.step(actions, players=players)
        if report is not None:
            report.decisions += int(live.sum())
        if check:
            bad = check_conservation(spec, game.states)
            if bad.any():
                row = int(np.flatnonzero(bad)[0])
                raise InvariantError(f"{spec.name}: card conservation broken (code {bad[row]}) in game {row} "
                                     f"after decision {game.decisions[row]}:\n{game.render(row)}")
    if (game.status == LIVE).any():
        raise InvariantError(f"{spec.name}: {int((game.status == LIVE).sum())} of {n} games still live after "
                             f"{max_steps} decisions: the cap does not end them")
    return game.states.copy(), recorded


def _check_masks(game: BatchGame, live: np.ndarray, mask: np.ndarray, players: np.ndarray) -> None:
    spec = game.spec
    empty = live & (mask.sum(axis=1) == 0)
    if empty.any():
        row = int(np.flatnonzero(empty)[0])
        raise InvariantError(f"{spec.name}: empty action mask for player_{players[row]} in live game {row}:\n"
                             f"{game.render(row)}")
    needs = game.needs
    if not (needs[live] & (1 << game.to_act[live])).all():
        raise InvariantError(f"{spec.name}: to_act has no pending decision (needs bit clear)")
    others = np.where(live, 1 - game.to_act, -1).astype(np.int32)
    other_mask = game.legal_mask(others, out=np.zeros_like(mask))
    idle = live & ((needs & (1 << np.clip(others, 0, 1))) == 0)
    if (other_mask[idle].sum(axis=1) > 0).any():
        raise InvariantError(f"{spec.name}: a player with no pending decision has legal actions")


def _check_hidden(game: BatchGame, live: np.ndarray, rng: np.random.Generator, report: CheckReport | None) -> None:
    spec = game.spec
    rows = np.flatnonzero(live)[:8]
    for r in rows:
        for viewer in (0, 1):
            original = game.states[r].copy()
            variant = spec.hide(original, viewer, rng, game.pool)
            if not np.array_equal(original, game.states[r]):
                raise InvariantError(f"{spec.name}: hide() modified its input row")
            pair = np.stack([original, variant])
            obs = np.zeros((2, spec.obs_dim), dtype=np.float32)
            game.kernels.batch_observe(pair, game.pool.tables, np.array([viewer, viewer], np.int32), obs)
            if not np.array_equal(obs[0], obs[1]):
                diff = np.flatnonzero(obs[0] != obs[1])
                names = {_slice_name(spec, int(d)) for d in diff}
                raise InvariantError(f"{spec.name}: player_{viewer}'s observation depends on hidden information "
                                     f"(slices {sorted(names)}) in game {r}")
            bad = check_conservation(spec, pair)
            if bad.any():
                raise InvariantError(f"{spec.name}: hide() produced an invalid state (code {bad.max()})")
            if report is not None:
                report.hidden_checks += 1
                report.hidden_changed += int(not np.array_equal(original, variant))


def _slice_name(spec: GameSpec, index: int) -> str:
    for f in spec.obs_layout.fields:
        s = spec.obs_layout.slice(f.name)
        if s.start <= index < s.stop:
            return f.name
    return str(index)


def check_alignment(spec: GameSpec, decks: Any, seed: int, actions: list[np.ndarray], final: np.ndarray,
                    rows: int) -> int:
    """Replay the recorded batch actions of the first rows in the single AEC env; states must match."""
    env = CardGameEnv(spec, decks=decks)
    for r in range(rows):
        env.reset(seed=seed + r)
        for step_actions in actions:
            a = int(step_actions[r])
            if a < 0:
                break
            env.step(a)
        if not np.array_equal(env.row, final[r]):
            diff = np.flatnonzero(env.row != final[r])
            fields = sorted({_state_field(spec, int(d)) for d in diff})
            raise InvariantError(f"{spec.name}: single env and batch core disagree on game {r} (fields {fields})")
    return rows


def _state_field(spec: GameSpec, index: int) -> str:
    layout = spec.state_layout
    for f in layout.fields:
        s = layout.slice(f.name)
        if s.start <= index < s.stop:
            return f.name
    return str(index)


def check_game(
    game: str | GameSpec,
    num_games: int = 1000,
    seed: int = 0,
    decks: Any = None,
    batch_size: int = 2000,
    max_steps: int | None = None,
    align_games: int = 4,
    hidden_every: int = 7,
) -> CheckReport:
    """Run every invariant over ``num_games`` random games (in batches); raises InvariantError on the first breach."""
    spec = get_spec(game)
    report = CheckReport(spec.name)
    max_steps = max_steps or 100_000
    done = 0
    chunk = 0
    while done < num_games:
        n = min(batch_size, num_games - done)
        base_seed = seed + done
        batch = BatchGame(spec, n, decks=decks, seed=base_seed)
        final, recorded = play_random(batch, base_seed, agent_seed=seed * 7919 + chunk, max_steps=max_steps,
                                      record_rows=align_games if chunk == 0 else 0, report=report,
                                      hidden_every=hidden_every if chunk == 0 else 0)
        report.games += n
        report.terminated += int((final[:, H_STATUS] == 1).sum())
        report.truncated += int((final[:, H_STATUS] == 2).sum())
        if chunk == 0:
            replay = BatchGame(spec, n, decks=decks, seed=base_seed)
            again, _ = play_random(replay, base_seed, agent_seed=seed * 7919 + chunk, max_steps=max_steps,
                                   check=False)
            if not np.array_equal(final, again):
                raise InvariantError(f"{spec.name}: the same seeds and actions did not replay the same games")
            report.aligned_games = check_alignment(spec, decks, base_seed, recorded, final, min(align_games, n))
        done += n
        chunk += 1
    if report.hidden_checks and not report.hidden_changed:
        raise InvariantError(f"{spec.name}: hide() never changed a state, so the hidden-information check is vacuous")
    return report
