"""Issue 43 #11 and issue 41: observation values stay inside the declared Box (``core.aec.OBS_BOUND``, the float view's
bound) and inside the compact observation's int16 for every pool the loader accepts. Health, resources and queued
amounts have no cap in the rules, so a schema-valid custom pool at the schema's extremes (gold 0, health 30, +20
heals, +10 gains, three entries an ability, 40 copies) grew them past 1000 within a few rounds (14,646 measured); the
observation clips them (``observe.bounded``: to 1000 in the float view, 10,000 or 5,000 as stored), and a pool holds
at most ``MAX_POOL_CARDS`` cards so that a card id (pool index + 1) stays inside too.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cardenvs.core.aec import OBS_BOUND
from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import CardPoolError
from cardenvs.core.header import H_TURN
from cardenvs.games.simulfight import SPEC
from cardenvs.games.simulfight import obs_layout as L
from cardenvs.games.simulfight.cards import (
    CARD_HEALTH, CARD_ID, CARD_PLANNED_DAMAGE, CARD_SIZE, CARD_START_HEALTH, MAX_POOL_CARDS, OBS_DTYPE,
)
from cardenvs.games.simulfight.obs_layout import OBS, OBS_LIMIT
from cardenvs.games.simulfight.state import LOC_PLAY, MAX_DECK, ROUND_CAP
from cardenvs.testing import check_observation_range

_GAIN = '{{ trigger = "{t}", op = "gain", target = "{who}", resource = "{r}", amount = {n}{when} }}'
_HEAL = '{{ trigger = "{t}", op = "heal", target = "{who}", amount = 20 }}'


def _extreme_pool(tmp_path: Path) -> tuple[Path, Path]:
    """Every number at the schema's limit, in the direction that grows the observation's unbounded values."""
    effects = [_GAIN.format(t="play", who="you", r="gold", n=10, when="")] * 3
    effects += [_HEAL.format(t="defend", who="all_allies")] * 3
    effects += [_HEAL.format(t="attack", who="you"),
                _GAIN.format(t="attack", who="you", r="shields", n=10, when=', when = "next_round"'),
                _GAIN.format(t="attack", who="opponent", r="swords", n=-10, when=', when = "next_round"')]
    pool = tmp_path / "extreme.toml"
    pool.write_text('[[card]]\nname = "Hoard"\ngold = 0\nhealth = 30\neffects = [\n  '
                    + ",\n  ".join(effects) + ",\n]\n")
    deck = tmp_path / "extreme_deck.toml"
    deck.write_text('name = "extreme"\n[cards]\n"Hoard" = 40\n')
    return pool, deck


def test_issue43_11_observation_stays_in_its_box_on_a_pool_at_the_schemas_extremes(tmp_path: Path) -> None:
    """Played to the clip: every float view within the Box, and every stored row what the same kernel writes into
    float64 (check_game's range guard: an int16 wrap fails it)."""
    assert OBS_LIMIT == OBS_BOUND  # the clip and the declared Box are one number
    pool_path, deck = _extreme_pool(tmp_path)
    pool = SPEC.load_pool([pool_path])
    n = 8
    g = BatchGame(SPEC, n, decks=(deck, deck), seed=1, pool=pool)
    rng = np.random.default_rng(0)
    top = 0.0
    stored_top = 0
    for _ in range(6000):
        who = g.to_act.copy()
        if not (who >= 0).any():
            break
        for p in (0, 1):
            players = np.full(n, p, dtype=np.int32)
            obs = g.observe(players).copy()
            assert obs.dtype == OBS_DTYPE
            check_observation_range(g, g.states.view(np.ndarray), players, obs)
            view = SPEC.float_observation(obs)
            assert np.isfinite(view).all()
            top = max(top, float(np.abs(view).max()))
            stored_top = max(stored_top, int(np.abs(obs.astype(np.int64)).max()))
            assert top <= OBS_BOUND, f"an observation value {top} leaves the declared Box +-{OBS_BOUND}"
        mask = g.legal_mask(who)
        score = np.where(mask > 0, rng.random(mask.shape), -1.0)
        score[:, 0] *= 0.05  # "done" rarely: the plans play and use every card, as a greedy pilot would
        g.step(score.argmax(axis=1), players=who)
    health = SPEC.state_layout.get(g.states[0], "health")
    assert top == OBS_BOUND and int(np.abs(health).max()) > 10 * OBS_BOUND  # the pool did reach past the Box
    assert stored_top == 10 * OBS_LIMIT  # health stored x10 at the clip: 10,000, inside int16


def test_SF_R2_the_compact_observation_holds_the_extremes_of_every_pool_the_loader_accepts(tmp_path: Path) -> None:
    """Issue 41: a built row at the extremes the loader and the rules allow, for both viewers: a 1000-card pool (card
    id 1000), 40-card decks, the last round (ROUND_CAP), and every unbounded counter far past the clip in both
    directions (health, resources, next-round changes, unit health, queued damage and resources at +-10^6). Each
    stored value is what the kernel writes into float64 (the range guard), the clipped ones sit at the Box's edge
    exactly in the float view, and nothing wraps int16."""
    pool = SPEC.load_pool([_pool_of(tmp_path, MAX_POOL_CARDS)])
    last = MAX_POOL_CARDS - 1
    deck_path = tmp_path / "last.toml"
    deck_path.write_text(f'name = "last"\n[cards]\n"Card {last}" = {MAX_DECK}\n')
    g = BatchGame(SPEC, 2, decks=(deck_path, deck_path), seed=3, pool=pool)
    big = 10 ** 6
    rows = g.states.view(np.ndarray).copy()
    for i, sign in enumerate((1, -1)):
        row = rows[i]
        get = lambda name: SPEC.state_layout.get(row, name)  # noqa: E731 (views of the row)
        row[H_TURN] = ROUND_CAP
        for name in ("health", "in_player_damage"):
            get(name)[:] = sign * big
        for name in ("resources", "next_round", "in_resources", "in_next_round", "unit_health", "snap_health",
                     "in_damage"):
            get(name)[...] = sign * big
        get("snap_player")[:, :] = sign * big
        get("snap_player")[:, 4] = 7  # the hand size at the phase start (a count, not clipped)
        every = np.arange(MAX_DECK)  # the longest pile: every instance of both decks in play since the phase start
        for zone in ("deck", "hand", "discard"):
            get(zone)[...] = -1
            get(f"{zone}_count")[:] = 0
        for zone in ("play", "snap_play"):
            get(zone)[...] = every
        get("play_count")[:] = get("snap_play_count")[:] = MAX_DECK
        get("loc")[...] = LOC_PLAY
    g.states[:] = rows  # through the checked view: the row check admits these rows
    for p in (0, 1):
        players = np.full(2, p, dtype=np.int32)
        obs = g.observe(players).copy()
        check_observation_range(g, g.states.view(np.ndarray), players, obs)
        view = OBS.float_view(obs)
        assert np.abs(view).max() == OBS_BOUND
        for i, sign in enumerate((1, -1)):
            assert obs[i, L.O_ME + L.PLAYER_HEALTH] == sign * 10 * OBS_LIMIT  # stored x10, at the clip
            assert view[i, L.O_ME + L.PLAYER_HEALTH] == sign * OBS_BOUND
            assert view[i, L.O_ME_START + L.PLAYER_RESOURCES] == sign * OBS_BOUND
            assert view[i, L.O_PLANNED + L.PLANNED_DAMAGE] == sign * OBS_BOUND
            assert obs[i, L.O_ROUND] == ROUND_CAP
            assert view[i, L.O_ME_START + L.PLAYER_HAND] == np.float32(7 / 5)
            ids = obs[i, list(SPEC.obs_card_ids)]
            assert (ids == MAX_POOL_CARDS).all()  # 40 instances of card id 1000 on both sides
            mine = obs[i, L.O_MY_CARDS:L.O_MY_CARDS_END].reshape(MAX_DECK, CARD_SIZE)
            theirs = obs[i, L.O_OPP_CARDS:L.O_OPP_CARDS_END].reshape(MAX_DECK, CARD_SIZE)
            assert (theirs[:, CARD_PLANNED_DAMAGE] == sign * 5 * OBS_LIMIT).all()  # stored x5, at the clip
            for column in (CARD_HEALTH, CARD_START_HEALTH):  # stored x5, at the clip
                assert (mine[:, column] == sign * 5 * OBS_LIMIT).all()
            assert (theirs[:, CARD_HEALTH] == sign * 5 * OBS_LIMIT).all()
            assert obs[i, L.O_OPP + L.PLAYER_UNITS] == MAX_DECK and view[i, L.O_OPP + L.PLAYER_UNITS] == 8


def _pool_of(tmp_path: Path, count: int) -> Path:
    path = tmp_path / f"pool_{count}.toml"
    path.write_text("".join(f'[[card]]\nname = "Card {i}"\ngold = 1\nhealth = 1\n\n' for i in range(count)))
    return path


def test_issue43_11_a_pool_holds_at_most_max_pool_cards_so_card_ids_stay_in_the_box(tmp_path: Path) -> None:
    """At the limit the pool loads and its last card's id is exactly the bound; one more card is one clear error."""
    assert MAX_POOL_CARDS == OBS_BOUND
    pool = SPEC.load_pool([_pool_of(tmp_path, MAX_POOL_CARDS)])
    assert len(pool) == MAX_POOL_CARDS and pool.tables.features[:, CARD_ID].max() == OBS_BOUND  # CARD.id: index + 1
    with pytest.raises(CardPoolError, match=f"{MAX_POOL_CARDS + 1} cards; a simulfight pool holds at most "
                                            f"{MAX_POOL_CARDS}"):
        SPEC.load_pool([_pool_of(tmp_path, MAX_POOL_CARDS + 1)])
