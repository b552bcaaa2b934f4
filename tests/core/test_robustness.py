"""Issue 13: bad input to the public API is a clear error that changes nothing; copies continue the same game.

Every reproduction of the issue is a test here (the crashes run in a subprocess in ``test_fuzz.py`` too). A rejected
call is checked to leave the states exactly as they were.
"""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import cardenvs
from cardenvs.core.batch import BatchGame, seed_array
from cardenvs.core.decks import MAX_DECK_CARDS, Deck
from cardenvs.core.errors import BadArgumentError, CardenvsError, CardPoolError, DeckError, IllegalActionError
from cardenvs.core.header import H_DECISIONS, H_STATUS, LIVE

GAME = "levelneo"  # the batch-level probes need one compiled game; the env-level ones run for every game


@pytest.fixture(scope="module")
def batch() -> BatchGame:
    return BatchGame(GAME, 8, seed=0)


def unchanged(game: BatchGame, call, error=CardenvsError) -> str:
    """``call()`` raises ``error`` and leaves every row, seed and buffer-independent state as it was."""
    before, seeds = game.states.copy(), game.seeds.copy()
    with pytest.raises(error) as info:
        call()
    assert (game.states == before).all() and (game.seeds == seeds).all()
    return str(info.value)


def legal_actions(game: BatchGame) -> np.ndarray:
    return np.argmax(game.legal_mask(out=np.zeros_like(game.legal_mask())), axis=1).astype(np.int32)


# ----- crashes: every array reaching a kernel is checked ------------------------------------------------------------
@pytest.mark.parametrize("out", [np.zeros((2, 3), np.float32), np.zeros((8, 10**3), np.float64), [[0.0]],
                                 np.zeros((16, 4000), np.float32)[::2], np.zeros((8, 1), np.float32)])
def test_observe_out_of_the_wrong_shape_or_dtype_is_refused(batch, out) -> None:
    msg = unchanged(batch, lambda: batch.observe(out=out), BadArgumentError)
    assert "out=" in msg


def test_observe_and_mask_out_buffers_that_fit_are_written(batch) -> None:
    out = np.zeros((8, batch.spec.obs_dim), batch.spec.obs_dtype)
    assert batch.observe(out=out) is out and np.array_equal(out, batch.observe().copy())
    mask = np.zeros((8, batch.spec.num_actions), np.int8)
    assert batch.legal_mask(out=mask) is mask and mask.any()
    unchanged(batch, lambda: batch.legal_mask(out=np.zeros((8, batch.spec.num_actions), np.float32)), BadArgumentError)
    readonly = np.zeros((8, batch.spec.num_actions), np.int8)
    readonly.flags.writeable = False
    unchanged(batch, lambda: batch.legal_mask(out=readonly), BadArgumentError)


@pytest.mark.parametrize("players", [[0, 1], np.zeros(20000, np.int32), np.full(8, 2), np.full(8, -2), 7, [0.5] * 8,
                                     "0", np.full(8, 2**40)])
def test_players_and_viewers_of_the_wrong_length_or_value_are_refused(batch, players) -> None:
    unchanged(batch, lambda: batch.observe(players), BadArgumentError)
    unchanged(batch, lambda: batch.legal_mask(players), BadArgumentError)
    unchanged(batch, lambda: batch.step(legal_actions(batch), players=players), BadArgumentError)
    unchanged(batch, lambda: batch.play(legal_actions(batch), viewers=players), BadArgumentError)


def test_deck_ids_outside_the_pool_are_refused() -> None:
    """Issue 13: a Deck with id 10**8 segfaulted in reset; id 5000 played garbage games silently."""
    for bad in (10**8, 5000, -1):
        ids = np.full(40, bad, np.int32)
        with pytest.raises(DeckError, match="not in the card pool"):
            BatchGame(GAME, 2, decks=(Deck("bad", "bad.toml", ids), "aggro"), check_decks=False)
    for ids in (np.zeros(10**4, np.int32), np.zeros(0, np.int32), np.zeros((40, 1), np.int32), np.zeros(40, float)):
        with pytest.raises(DeckError):
            BatchGame(GAME, 2, decks=(Deck("bad", "bad.toml", ids), "aggro"), check_decks=False)


def test_a_deck_remembers_its_pool_and_another_pool_refuses_it(tmp_path) -> None:
    """Issue 13: a deck loaded against a larger custom pool, then used without ``pool=``, segfaulted."""
    spec = cardenvs.get_game(GAME)
    first = spec.card_pool_path.read_text().split("[[card]]")[1]
    name = first.split('name = "')[1].split('"')[0]
    extra = tmp_path / "extra.toml"
    extra.write_text("[[card]]" + first.replace(f'name = "{name}"', 'name = "Extra Card"'))
    big = spec.load_pool([spec.card_pool_path, extra])
    assert len(big) == len(spec.load_pool(None)) + 1
    deck_file = tmp_path / "deck.toml"
    deck_file.write_text(spec.deck_dir.joinpath("aggro.toml").read_text().replace(f'"{name}"', '"Extra Card"')
                         .replace(f"{name} =", '"Extra Card" ='))
    deck = spec.load_deck(deck_file, big)
    assert deck.pool_key == big.fingerprint != spec.load_pool(None).fingerprint and deck.checked
    BatchGame(GAME, 1, decks=(deck, deck), pool=big)
    with pytest.raises(DeckError, match="card pool"):  # its Extra Card is not in the default pool
        BatchGame(GAME, 1, decks=(deck, deck))
    starter = spec.load_deck("aggro", spec.load_pool(None))
    BatchGame(GAME, 1, decks=(starter, starter))  # the same pool loaded again has the same fingerprint
    with pytest.raises(DeckError, match="another card pool"):  # ids in range, but resolved against another pool
        BatchGame(GAME, 1, decks=(starter, starter), pool=big)


def test_a_pool_of_another_game_is_refused() -> None:
    other = cardenvs.get_game("simulfight").load_pool(None) if "simulfight" in cardenvs.available_games() else None
    with pytest.raises(BadArgumentError):
        BatchGame(GAME, 1, pool=object())
    if other is not None:
        with pytest.raises(BadArgumentError, match="not a levelneo card pool"):
            BatchGame(GAME, 1, pool=other)


def test_a_hand_built_deck_is_checked_against_the_deck_rules_unless_named_unchecked() -> None:
    """Issue 12 defect 21: a Deck object skipped the deck-building rules (LN-D1..D3)."""
    spec = cardenvs.get_game(GAME)
    pool = spec.load_pool(None)
    good = spec.load_deck("aggro", pool)
    hand = Deck("hand", "<hand-built>", good.card_ids.copy())  # legal: accepted after the check
    BatchGame(GAME, 1, decks=(hand, hand))
    short = Deck("short", "<short>", good.card_ids[:39].copy())
    with pytest.raises(DeckError, match="LN-D1"):
        BatchGame(GAME, 1, decks=(short, good))
    many = Deck("many", "<many>", np.full(40, good.card_ids[0], np.int32))
    with pytest.raises(DeckError, match="LN-D2"):
        BatchGame(GAME, 1, decks=(many, good))
    BatchGame(GAME, 1, decks=(many, good), check_decks=False)  # the explicit unchecked path


# ----- silent wrong results -------------------------------------------------------------------------------------
@pytest.mark.parametrize("actions", [np.full(8, 2**32 + 1, np.int64), np.full(8, 1.0), np.full(8, 1.9), [True] * 8,
                                     ["1"] * 8, np.zeros(7, np.int32), np.zeros((8, 2), np.int32), None, 1.0, True,
                                     [2**70] * 8])
def test_actions_must_be_real_integers(batch, actions) -> None:
    """Issue 13: int64 2**32+1 ran as action 1, floats were truncated, True was treated as 1."""
    unchanged(batch, lambda: batch.step(actions), BadArgumentError)
    unchanged(batch, lambda: batch.play(actions), BadArgumentError)


def test_an_out_of_range_action_is_an_illegal_action_and_the_row_is_untouched() -> None:
    g = BatchGame(GAME, 4, seed=1)
    acts = legal_actions(g)
    acts[2] = g.spec.num_actions + 5
    before = g.states[2].copy()
    with pytest.raises(IllegalActionError, match=r"game 2: illegal action \d+ \(out of range\)"):
        g.step(acts)
    assert (g.states[2] == before).all()
    acts = legal_actions(g)
    acts[1] = -3
    g.step(acts, errors="ignore")
    assert g.last_errors.tolist() == [0, 1, 0, 0]


def test_errors_must_be_raise_or_ignore(batch) -> None:
    """Issue 13: ``errors="bogus"`` acted like ignore."""
    unchanged(batch, lambda: batch.step(legal_actions(batch), errors="bogus"), BadArgumentError)
    unchanged(batch, lambda: batch.play(legal_actions(batch), errors=None), BadArgumentError)


def test_integer_rows_are_indices_and_boolean_rows_a_mask() -> None:
    """Issue 13: ``rows=[0, 1]`` was read as a boolean mask (rows 1.. reset, row 0 not)."""
    g = BatchGame(GAME, 4, seed=0)
    start = g.states.copy()
    for _ in range(3):
        g.step(legal_actions(g))
    moved = g.states.copy()
    g.reset(0, rows=[0, 1])
    assert (g.states[:2] == start[:2]).all() and (g.states[2:] == moved[2:]).all()
    g.reset(0, rows=np.array([False, False, True, False]))
    assert (g.states[2] == start[2]).all() and (g.states[3] == moved[3]).all()
    g.reset(0, rows=[-1])
    assert (g.states[3] == start[3]).all()
    for rows in ([4], [0.0, 1.0], np.ones(3, bool), "0", [[0]]):
        unchanged(g, lambda: g.reset(0, rows=rows), BadArgumentError)


@pytest.mark.parametrize("seed", [1.9, "12", True, [1.5] * 4, object(), np.float64(3)])
def test_seeds_must_be_integers(seed) -> None:
    """Issue 13: seeds 1.9 and "12" were accepted."""
    g = BatchGame(GAME, 4, seed=0)
    unchanged(g, lambda: g.reset(seed), BadArgumentError)
    with pytest.raises(BadArgumentError):
        BatchGame(GAME, 4, seed=seed)


def test_any_python_int_is_a_seed_and_big_ones_do_not_wrap() -> None:
    """Issue 13: seeds >= 2**63 raised OverflowError; ``--seed 2**64`` gave the games of seed 0."""
    g = BatchGame(GAME, 2, seed=0)
    zero = g.states.copy()
    for seed in (2**63, 2**64, 2**64 + 1, 10**40, -(2**63) - 1, -1, 2**63 - 2):
        g.reset(seed)
        assert not (g.states == zero).all(), seed
        again = g.states.copy()
        g.reset(seed)
        assert (g.states == again).all()  # deterministic
    assert not (seed_array(2**64, 1) == seed_array(0, 1)).all()
    assert seed_array(np.array([2**63, 5], np.uint64), 2)[1] == 5


def test_a_starter_deck_name_is_not_shadowed_by_a_folder_in_the_working_directory(tmp_path, monkeypatch) -> None:
    """Issue 13: a folder named ``aggro`` in the working directory made ``levelneo.env()`` fail."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "aggro").mkdir()
    (tmp_path / "control").write_text("not a deck")
    spec = cardenvs.get_game(GAME)
    pool = spec.load_pool(None)
    assert spec.load_deck("aggro", pool).path.endswith("aggro.toml")
    assert spec.load_deck("control", pool).path.endswith("control.toml")
    with pytest.raises(DeckError, match="folder"):
        spec.load_deck("./aggro", pool)  # a path stays a path
    BatchGame(GAME, 1, decks=("aggro", "control"))


# ----- deck files and card pools: one clear error, bounded work -------------------------------------------------------
DECK_PROBES = {
    "binary": b"\x00\xff\xfe\x80garbage\x01" * 20,
    "latin1": 'name = "caf\xe9"\n[cards]\n'.encode("latin-1"),
    "nested": b"a = " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "huge count": b'[cards]\n"Ember Squire" = 1000000000000\n',
    "huger count": b'[cards]\n"Ember Squire" = 1000000000000000000000000000000\n',
    "count 1e8": b'[cards]\n"Ember Squire" = 100000000\n',
    "float count": b'[cards]\n"Ember Squire" = 3.0\n',
    "cards array": b'cards = [1, 2]\n',
    "name table": b'name = {a = 1}\n[cards]\n"Ember Squire" = 3\n',
    "empty": b"",
}


@pytest.mark.parametrize("probe", sorted(DECK_PROBES))
def test_bad_deck_files_are_one_deck_error(tmp_path, probe) -> None:
    spec = cardenvs.get_game(GAME)
    path = tmp_path / "deck.toml"
    path.write_bytes(DECK_PROBES[probe])
    with pytest.raises(DeckError) as info:
        spec.load_deck(path, spec.load_pool(None))
    assert "\n" not in str(info.value).strip() and str(path) in str(info.value)


def test_a_huge_deck_file_is_refused_before_it_is_parsed(tmp_path) -> None:
    spec = cardenvs.get_game(GAME)
    path = tmp_path / "big.toml"
    with open(path, "wb") as fh:
        fh.write(b"# padding\n" * 5_000_000)  # 50 MB
    with pytest.raises(DeckError, match="too large"):
        spec.load_deck(path, spec.load_pool(None))
    assert MAX_DECK_CARDS >= max(cardenvs.get_game(g).max_deck for g in cardenvs.available_games())


POOL_PROBES = {
    "card is a list": "card = [1, 2]\n",
    "card is a table": "[card]\nname = 'x'\n",
    "effects is an int": None,  # filled in from the real pool below
    "op is a list": None,
}


@pytest.mark.parametrize("probe", sorted(POOL_PROBES))
def test_bad_card_pools_are_one_card_pool_error(tmp_path, probe) -> None:
    """Issue 13: ``card = [1, 2]``, ``effects = 5``, ``op = [...]`` gave AttributeError/TypeError tracebacks."""
    spec = cardenvs.get_game(GAME)
    real = spec.card_pool_path.read_text()
    text = POOL_PROBES[probe]
    if probe == "effects is an int":
        text = real.replace("[[card]]", "[[card]]\neffects = 5", 1)
    elif probe == "op is a list":
        text = real.replace('op = "', 'op = ["x"]\nunused_op = "', 1)
    path = tmp_path / "cards.toml"
    path.write_text(text)
    with pytest.raises(CardPoolError) as info:
        spec.load_pool([path])
    assert str(path) in str(info.value)


# ----- errors that change state, or wedge ----------------------------------------------------------------------------
def test_parallel_env_checks_both_actions_before_applying_either() -> None:
    """Issue 13: player_1's illegal action came after player_0's was applied (decisions 0 -> 1, retry failed)."""
    if "simulfight" not in cardenvs.available_games():
        pytest.skip("no simultaneous game")
    env = cardenvs.make_parallel_env("simulfight")
    with pytest.raises(BadArgumentError, match="before reset"):
        env.step({"player_0": 0, "player_1": 0})
    obs, _ = env.reset(seed=3)
    row = env.game.states[0].copy()
    ok0 = int(np.flatnonzero(obs["player_0"]["action_mask"])[0])
    bad1 = int(np.flatnonzero(obs["player_1"]["action_mask"] == 0)[0])
    for bad in (bad1, 10**6, 1.0, True, "0", None):
        with pytest.raises(CardenvsError):
            env.step({"player_0": ok0, "player_1": bad})
        assert (env.game.states[0] == row).all()
    ok1 = int(np.flatnonzero(obs["player_1"]["action_mask"])[0])
    env.step({"player_0": ok0, "player_1": ok1})  # the retry works
    assert int(env.game.states[0, H_DECISIONS]) > int(row[H_DECISIONS])
    lose = cardenvs.make_parallel_env("simulfight", illegal_action="lose")
    obs, _ = lose.reset(seed=3)
    _, rew, term, _, infos = lose.step({"player_0": ok0, "player_1": bad1})
    assert rew == {"player_0": 1.0, "player_1": -1.0} and all(term.values())
    assert infos["player_0"]["illegal_action"] == "player_1"


def test_vector_env_checks_every_row_before_stepping_any() -> None:
    """Issue 13: one illegal row raised after the other rows were stepped; the env then wedged until reset()."""
    env = cardenvs.make_vec(GAME, 4, opponent="random", seed=0)
    env.reset()
    masks = env.action_masks()
    before = env.game.states.copy()
    acts = masks.argmax(1)
    acts[2] = int(np.flatnonzero(~masks[2])[0])
    with pytest.raises(IllegalActionError, match="row 2"):
        env.step(acts)
    assert (env.game.states == before).all()
    for bad in (masks.argmax(1).astype(float), np.zeros(3, int), [True] * 4):
        with pytest.raises(BadArgumentError):
            env.step(bad)
        assert (env.game.states == before).all()
    env.step(masks.argmax(1))  # not wedged
    assert env.action_masks().any(axis=1).all()
    lose = cardenvs.make_vec(GAME, 4, opponent="random", seed=0, illegal_action="lose")
    lose.reset()
    acts = lose.action_masks().argmax(1)
    acts[1] = int(np.flatnonzero(~lose.action_masks()[1])[0])
    _, rewards, dones, infos = lose.step(acts)
    assert rewards[1] == -1 and dones[1] and infos[1]["illegal_action"] and lose.action_masks().any(axis=1).all()


def play_on(env, steps: int, rng: np.random.Generator) -> list:
    """Play ``steps`` legal random moves (resetting unseeded at the end of a game); the trace of what was seen."""
    trace = []
    for _ in range(steps):
        if not env.agents:
            env.reset()
        agent = env.agent_selection
        obs, reward, term, trunc, _ = env.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, float(reward), obs["observation"].tobytes()))
        env.step(action)
    return trace


@pytest.mark.parametrize("how", ["deepcopy", "pickle", "copy"])
def test_a_copied_aec_env_continues_the_same_game(game_name, how) -> None:
    """Issue 13: deepcopy, pickle and copy of a mid-game env returned a fresh seed-0 game."""
    env = cardenvs.make_env(game_name)
    env.reset(seed=11)
    play_on(env, 15, np.random.default_rng(0))
    twin = {"deepcopy": copy.deepcopy, "copy": copy.copy, "pickle": lambda e: pickle.loads(pickle.dumps(e))}[how](env)
    assert (twin.unwrapped.state() == env.unwrapped.state()).all()
    a = play_on(env, 300, np.random.default_rng(5))  # long enough to cross a game end and an unseeded reset
    b = play_on(twin, 300, np.random.default_rng(5))
    assert a == b


def test_a_copied_parallel_env_continues_the_same_game() -> None:
    if "simulfight" not in cardenvs.available_games():
        pytest.skip("no simultaneous game")
    env = cardenvs.make_parallel_env("simulfight")
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(0)

    def run(e, o, n, r):
        seen = []
        for _ in range(n):
            if not e.agents:
                o, _ = e.reset()
            acts = {a: int(r.choice(np.flatnonzero(o[a]["action_mask"]))) for a in e.agents}
            o, rew, *_ = e.step(acts)
            seen.append((acts, rew))
        return seen, o

    _, obs = run(env, obs, 5, rng)
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env)), copy.copy(env)):
        assert (twin.state() == env.state()).all()
        assert run(copy.deepcopy(env), obs, 60, np.random.default_rng(1))[0] == run(twin, obs, 60, np.random.default_rng(1))[0]


def test_aec_env_rejects_bad_seeds_and_actions_without_changing_the_game() -> None:
    env = cardenvs.make_env(GAME)
    env.reset(seed=0)
    for seed in (1.9, "12", True):
        with pytest.raises(BadArgumentError):
            env.reset(seed=seed)
    env.reset(seed=2**70)
    env.reset(seed=-1)
    row = env.unwrapped.state()
    legal = int(np.flatnonzero(env.last()[0]["action_mask"])[0])
    for action in (float(legal), True, np.int64(2**32 + legal), "1", [legal], 10**30):
        with pytest.raises(IllegalActionError):
            env.step(action)
        assert (env.unwrapped.state() == row).all()
    env.step(np.int64(legal))
    assert int(env.unwrapped.state()[H_DECISIONS]) == int(row[H_DECISIONS]) + 1 or row[H_STATUS] != LIVE


def test_deck_errors_suggest_the_closest_names(tmp_path):
    """A misspelt card or starter deck name gets a "did you mean" (case-insensitive, close matches)."""
    from cardenvs.core.errors import DeckError
    from cardenvs.games import levelneo

    pool = levelneo.SPEC.load_pool(None)
    deck = tmp_path / "typo.toml"
    deck.write_text('name = "typo"\n[cards]\n"ember squire" = 3\n')
    with pytest.raises(DeckError, match="did you mean 'Ember Squire'"):
        levelneo.SPEC.load_deck(deck, pool)
    with pytest.raises(DeckError, match="did you mean 'aggro'"):
        levelneo.SPEC.load_deck("agro", pool)
    deck.write_text('name = "typo"\n[cards]\n"Zzzzzz" = 3\n')
    with pytest.raises(DeckError) as err:
        levelneo.SPEC.load_deck(deck, pool)
    assert "did you mean" not in str(err.value)
