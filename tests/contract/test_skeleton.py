"""The skeleton game (``docs/games/skeleton/``, the template of a new game) copied out of the repository, registered
by its folder, and held to the same contract as the shipped games: the generated kernels match the core's template,
the shipped checker passes, the contract suite passes, and its RULES.md rules (SK-*) hold.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.core.batch import BatchGame
from cardenvs.core.errors import DeckError
from cardenvs.core.header import H_STATUS, H_TO_ACT, H_WINNER, LIVE
from cardenvs.core.registry import GAMES_DIR, game_dir, get_game, register_game
from cardenvs.testing import check_game

import test_game_contract as contract  # the contract suite, beside this file

# the skeleton's _kernels.py is rendered from the core's kernel template and imports its run-time module
pytest.importorskip("cardenvs.core.kernels")

TEMPLATE = Path(__file__).resolve().parents[2] / "docs" / "games" / "skeleton"
NAME = "skeleton"


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The template copied as a user would copy it (out of the repository), registered by its folder."""
    folder = tmp_path_factory.mktemp("elsewhere") / NAME
    shutil.copytree(TEMPLATE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    assert register_game(folder) == NAME
    assert register_game(folder) == NAME  # again: a no-op
    return NAME


def test_the_generated_kernels_are_the_templates() -> None:
    kernel_template = pytest.importorskip("cardenvs.core.kernel_template")
    assert not kernel_template.stale(TEMPLATE), "python -m cardenvs.core.kernel_template --write docs/games/skeleton"


def test_the_registered_game_is_known_everywhere(skeleton: str) -> None:
    spec = get_game(skeleton)
    assert spec.name == skeleton and spec.package_dir == game_dir(skeleton) != GAMES_DIR / skeleton
    assert skeleton in cardenvs.available_games() and skeleton not in cardenvs.SIMULTANEOUS_GAMES
    assert cardenvs.get_game(f"{skeleton}_v{spec.version}") is spec
    env = cardenvs.make_env(skeleton)
    env.reset(seed=1)
    assert env.metadata["name"] == spec.env_name


def test_the_registered_game_passes_the_checker(skeleton: str) -> None:
    # the skeleton's observation is the smallest worked example (its own deck list is left out): the completeness
    # check is for real games (docs/CHECKS.md)
    report = check_game(skeleton, num_games=200, pilots=("random",), replay_games=16, completeness=False)
    assert report.games >= 200 and report.truncated == 0


def test_the_registered_game_keeps_the_contract(skeleton: str, tmp_path: Path) -> None:
    contract.test_malformed_toml_names_the_file(skeleton, tmp_path)
    contract.test_unknown_card_name_is_named(skeleton, tmp_path)
    contract.test_unknown_starter_deck_lists_the_starters(skeleton)
    contract.test_text_helpers_describe_actions_and_board(skeleton)
    contract.test_rules_md_tables_are_generated_from_the_layouts(skeleton)
    contract.test_aec_env_plays_a_game(skeleton)


def _deck(tmp_path: Path, cards: dict[str, int]) -> Path:
    path = tmp_path / "deck.toml"
    path.write_text("[cards]\n" + "".join(f'"{k}" = {v}\n' for k, v in cards.items()))
    return path


def test_SK_D1_SK_D2_deck_rules(skeleton: str, tmp_path: Path) -> None:
    spec = get_game(skeleton)
    pool = spec.load_pool(None)
    with pytest.raises(DeckError) as err:
        spec.load_deck(_deck(tmp_path, {"Stone": 3, "Oak": 3, "Cliff": 3, "Storm": 2}), pool)
    assert err.value.rule == "SK-D1"
    with pytest.raises(DeckError) as err:
        spec.load_deck(_deck(tmp_path, {"Stone": 4, "Oak": 3, "Cliff": 3, "Storm": 2}), pool)
    assert err.value.rule == "SK-D2" and err.value.card == "Stone"


def test_SK_S1_SK_S2_SK_S3_setup(skeleton: str) -> None:
    from skeleton import state as S

    g = BatchGame(get_game(skeleton), 64, seed=0)
    st = g.states
    assert (st[:, S.HAND_COUNT:S.HAND_COUNT + 2] == 3).all() and (st[:, S.DECK_COUNT:S.DECK_COUNT + 2] == 9).all()
    assert set(st[:, S.LEADER]) == {0, 1} and (st[:, H_TO_ACT] == st[:, S.LEADER]).all()
    assert len({tuple(r[S.DECK:S.DECK + S.MAX_DECK]) for r in st}) > 1  # the decks are shuffled per game


def test_SK_T1_to_SK_T4_SK_E1_SK_E2_tricks_against_a_python_reference(skeleton: str) -> None:
    """Random games, each trick checked against the rules written out here in Python."""
    from skeleton import state as S

    spec = get_game(skeleton)
    g = BatchGame(spec, 1, decks=("sly", "tall"), seed=3)
    pool, rng = g.pool, np.random.default_rng(0)
    power = {i: c["power"] for i, c in enumerate(pool.cards)}
    bonus = {i: sum(e["amount"] for e in c["effects"]) for i, c in enumerate(pool.cards)}
    for _ in range(200):
        row = g.states[0]
        if row[H_STATUS] != LIVE:
            g.reset(seed=int(rng.integers(1 << 30)))
            continue
        p, leader = int(row[H_TO_ACT]), int(row[S.LEADER])
        mask = g.legal_mask()[0].copy()
        assert mask.sum() == row[S.HAND_COUNT + p]  # SK-T1: any card in hand, on your decision only
        assert g.legal_mask(np.array([1 - p]))[0].sum() == 0
        a = int(rng.choice(np.flatnonzero(mask)))
        card = int(row[S.DECK_LIST + p * S.MAX_DECK + row[S.HAND + p * S.MAX_DECK + a]])
        before = row.copy()
        g.step([a])
        after = g.states[0]
        if p == leader:
            assert after[S.TABLE_COUNT + p] == 1 and after[H_TO_ACT] == 1 - p
            continue
        led = int(before[S.DECK_LIST + leader * S.MAX_DECK + before[S.TABLE + leader * S.MAX_DECK]])
        points = before[S.POINTS:S.POINTS + 2].copy()
        cards = {leader: led, p: card}
        if power[cards[0]] != power[cards[1]]:  # SK-T2
            w = 0 if power[cards[0]] > power[cards[1]] else 1
            points[w] += 1 + bonus[cards[w]]
            assert after[S.LEADER] == w
        else:  # SK-T3
            assert after[S.LEADER] == leader
        assert (after[S.POINTS:S.POINTS + 2] == points).all()
        assert (after[S.DISCARD_COUNT:S.DISCARD_COUNT + 2] == before[S.DISCARD_COUNT:S.DISCARD_COUNT + 2] + 1).all()
        drawn = np.minimum(before[S.DECK_COUNT:S.DECK_COUNT + 2], 1)  # SK-T4
        assert (after[S.DECK_COUNT:S.DECK_COUNT + 2] == before[S.DECK_COUNT:S.DECK_COUNT + 2] - drawn).all()
        hands_empty = (after[S.HAND_COUNT:S.HAND_COUNT + 2] == 0).all()
        if points.max() >= S.TARGET_POINTS:  # SK-E1
            assert after[H_STATUS] != LIVE and after[H_WINNER] == int(np.argmax(points))
        elif hands_empty:  # SK-E2
            assert after[H_WINNER] == (2 if points[0] == points[1] else int(np.argmax(points)))
        else:
            assert after[H_STATUS] == LIVE


# ----- the compact observation (issue 41): the skeleton is the worked example -------------------------------------
#: stream_digest(skeleton, "random") of the float32 skeleton observation before it became int8 (commit bb19f4a): the
#: golden digest hashes the float view, so the compact rows' float view equals the old observation value for value
FLOAT32_STREAM_DIGEST = "db22b02a1e8ff3d40e69e7ea"


def test_compact_float_view_equals_the_float32_observation(skeleton: str) -> None:
    from cardenvs.golden import stream_digest

    spec = get_game(skeleton)
    assert spec.obs_dtype == np.int8 and spec.obs_layout.compact
    assert stream_digest(skeleton, "random") == FLOAT32_STREAM_DIGEST


def test_float_observation_divides_by_each_fields_scale(skeleton: str) -> None:
    spec = get_game(skeleton)
    game = BatchGame(skeleton, 2, seed=5)
    stored = game.observe(np.array([0, 1], np.int32)).copy()
    view = spec.float_observation(stored)
    assert view.dtype == np.float32 and np.array_equal(view, stored / spec.obs_divisors)
    lay = spec.obs_layout
    assert lay.get(spec.obs_divisors, "my_hand").tolist() == [[1, 9, 3]] * 3 and lay.get(spec.obs_divisors, "decks")[0] == 12
    with pytest.raises(ValueError, match=r"int8\[\.\.\., 24\]"):  # already a float view: refused, not divided twice
        spec.float_observation(view)
    with pytest.raises(ValueError, match="int8"):
        game.observe(out=np.zeros(stored.shape, np.float32))


def test_envs_give_the_stored_rows_or_the_float_view(skeleton: str) -> None:
    from pettingzoo.test import api_test, seed_test

    spec = get_game(skeleton)
    env = cardenvs.make_env(skeleton)
    box = env.observation_space("player_0")["observation"]
    assert box.dtype == np.int8 and box.low.min() == -128 and box.high.max() == 127
    env.reset(seed=2)
    obs = env.observe(env.agent_selection)["observation"]
    assert obs.dtype == np.int8 and box.contains(obs)
    flt = cardenvs.make_env(skeleton, obs_format="float32")
    assert flt.observation_space("player_0")["observation"].dtype == np.float32
    flt.reset(seed=2)
    assert np.array_equal(flt.observe(flt.agent_selection)["observation"], spec.float_observation(obs))
    with pytest.raises(ValueError, match="obs_format"):
        cardenvs.make_env(skeleton, obs_format="float16")
    for fmt in ("stored", "float32"):
        api_test(cardenvs.make_env(skeleton, obs_format=fmt), num_cycles=300)
        seed_test(lambda: cardenvs.make_env(skeleton, obs_format=fmt), num_cycles=100)
    stored, _ = cardenvs.make_vector_env(skeleton, 4, seed=1).reset()
    vec32 = cardenvs.make_vector_env(skeleton, 4, seed=1, obs_format="float32")
    assert stored.dtype == np.int8 and vec32.single_observation_space.dtype == np.float32
    assert np.array_equal(vec32.reset()[0], spec.float_observation(stored))


def test_the_checkers_range_guard_catches_a_value_int8_cannot_hold(skeleton: str) -> None:
    """A planted overflow: a pool whose card has power 200, which the int8 observation stores as -56 (Numba wraps it
    silently; 200/9 would be in the float bounds). The float-view bound check alone passes it; the range guard
    (observing the same rows into float64) names the field."""
    from cardenvs.core.batch import check_pool  # noqa: F401 (the pool keeps the game's table shapes)
    from cardenvs.testing import InvariantError

    spec = get_game(skeleton)
    pool = spec.load_pool(None)
    pool.tables.cards[:, 0] = 200  # every card: power 200
    with pytest.raises(InvariantError, match=r"my_hand.* is 200, which int8 stores as -56"):
        check_game(skeleton, num_games=8, pilots=("random",), replay_games=2, completeness=False, pool=pool,
                   decks=("tall", "tall"), timing=False)


def test_maskable_ppo_trains_on_the_compact_observation_and_the_export_reads_it(skeleton: str, tmp_path: Path) -> None:
    """MaskablePPO learns from the int8 rows through a features extractor that divides them into the float view
    (train/features.py); the exported numpy policy folds the divisors into its first layer and, on the stored rows,
    gives the torch policy's probabilities."""
    torch = pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from cardenvs.agents import policy as policy_mod
    from cardenvs.train.features import ScaledFlattenExtractor, card_embedding_kwargs

    spec = get_game(skeleton)
    kwargs = card_embedding_kwargs(skeleton, 0)
    assert kwargs["features_extractor_class"] is ScaledFlattenExtractor
    env = cardenvs.make_vec(skeleton, 4, opponent="random", seed=0)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
                                    policy_kwargs={"net_arch": [16, 16], **kwargs})
    model.learn(128)
    game = BatchGame(skeleton, 32, seed=9)
    who = game.to_act.copy()
    stored, masks = game.observe(who).copy(), game.legal_mask(who).copy()
    live = who >= 0
    stored, masks = stored[live], masks[live]
    assert stored.dtype == np.int8
    with torch.no_grad():
        want = model.policy.get_distribution(torch.as_tensor(stored), action_masks=masks.astype(bool))
        want = want.distribution.probs.numpy()
        # the extractor hands the network the float view
        feats = model.policy.extract_features(torch.as_tensor(stored), model.policy.pi_features_extractor).numpy()
    np.testing.assert_array_equal(feats, spec.float_observation(stored))
    path = policy_mod.export(model, tmp_path / f"{skeleton}.npz", skeleton)
    agent = policy_mod.load_npz(path, game=skeleton)
    assert agent.meta["obs_dtype"] == "int8" and agent.divisors is not None
    np.testing.assert_allclose(agent.probs(stored, masks), want, rtol=1e-4, atol=1e-6)
