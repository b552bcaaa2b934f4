"""Issue 14 item 2, for every game: the observation carries card identities at ``SPEC.obs_card_ids``.

Each game's own test checks the ids against a built position; this one checks the contract the training code relies
on (train/features.py embeds these entries): indices are unique and inside the observation, and over random play
every entry reads a whole number from 0 (no card, or a card the viewer cannot see) to the pool size.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.batch import BatchGame
from cardenvs.core.header import LIVE


def test_obs_card_ids_hold_card_identities(game_name: str) -> None:
    g = BatchGame(game_name, 16, seed=5)
    ids = np.asarray(g.spec.obs_card_ids)
    assert ids.size > 0, f"{game_name}: SPEC.obs_card_ids is empty"
    assert len(set(ids.tolist())) == ids.size and ids.min() >= 0 and ids.max() < g.spec.obs_dim
    rng = np.random.default_rng(0)
    seen = np.zeros(0, np.float32)
    for _ in range(60):
        who = np.where(g.status == LIVE, g.to_act, -1).astype(np.int32)
        obs = g.observe(np.where(who >= 0, who, 0))
        seen = np.concatenate([seen, obs[:, ids].ravel()])
        mask = g.legal_mask(np.where(who >= 0, who, 0))
        acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], np.int32)
        if (who < 0).all():
            break
        g.step(acts, players=who)
    assert np.all(seen == np.round(seen)) and seen.min() >= 0 and seen.max() <= len(g.pool)
    assert seen.max() > 0, f"{game_name}: no card id was ever observed"
