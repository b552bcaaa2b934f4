"""Issue 43 #11: observation values stay inside the declared Box (``core.aec.OBS_BOUND``) for every pool the loader
accepts. Health, resources and queued amounts have no cap in the rules, so a schema-valid custom pool at the schema's
extremes (gold 0, health 30, +20 heals, +10 gains, three entries an ability, 40 copies) grew them past 1000 within a
few rounds (14,646 measured); the observation clips them (``observe.bounded``), and a pool holds at most
``MAX_POOL_CARDS`` cards so that a card id (pool index + 1) stays inside too.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cardenvs.core.aec import OBS_BOUND
from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import CardPoolError
from cardenvs.games.simulfight import SPEC
from cardenvs.games.simulfight.cards import CARD_ID, MAX_POOL_CARDS
from cardenvs.games.simulfight.obs_layout import OBS_LIMIT

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
    assert OBS_LIMIT == OBS_BOUND  # the clip and the declared Box are one number
    pool_path, deck = _extreme_pool(tmp_path)
    pool = SPEC.load_pool([pool_path])
    n = 8
    g = BatchGame(SPEC, n, decks=(deck, deck), seed=1, pool=pool)
    rng = np.random.default_rng(0)
    top = 0.0
    for _ in range(6000):
        who = g.to_act.copy()
        if not (who >= 0).any():
            break
        for p in (0, 1):
            obs = g.observe(np.full(n, p, dtype=np.int32))
            assert np.isfinite(obs).all()
            top = max(top, float(np.abs(obs).max()))
            assert top <= OBS_BOUND, f"an observation value {top} leaves the declared Box +-{OBS_BOUND}"
        mask = g.legal_mask(who)
        score = np.where(mask > 0, rng.random(mask.shape), -1.0)
        score[:, 0] *= 0.05  # "done" rarely: the plans play and use every card, as a greedy pilot would
        g.step(score.argmax(axis=1), players=who)
    health = SPEC.state_layout.get(g.states[0], "health")
    assert top == OBS_BOUND and int(np.abs(health).max()) > 10 * OBS_BOUND  # the pool did reach past the Box


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
