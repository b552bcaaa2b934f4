"""Issue 43: files and arrays from strangers (policy files, restored state rows, interrupts) cannot crash the process,
run code or eat memory: each is one clear error that names the file and the field, and changes nothing.

Findings 1-3, 5 and 6 are tested here (4 and 10 in ``test_hostile_cli.py``). Each test was seen failing without its
fix.
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from cardenvs.agents import make_agent
from cardenvs.agents import policy as policy_mod
from cardenvs.core.batch import get_spec
from cardenvs.core.errors import BadArgumentError

GAME = "levelneo"


def policy_arrays(game: str = GAME, width: int = 8, dim: int = 3, seed: int = 0) -> dict[str, np.ndarray]:
    """A small, valid card-embedding policy for ``game`` (the shipped format), as the arrays of its ``.npz``."""
    spec = get_spec(game)
    rng = np.random.default_rng(seed)
    card = np.asarray(spec.obs_card_ids, dtype=np.int32)
    rest = np.setdiff1d(np.arange(spec.obs_dim), card).astype(np.int32)
    n_ids = len(spec.load_pool(None)) + 1
    meta = {"format": policy_mod.FORMAT, "game": spec.name, "rules_version": policy_mod._rules_version(spec.name),
            "obs_digest": policy_mod.observation_digest(spec), "obs_dim": spec.obs_dim,
            "num_actions": spec.num_actions, "activation": "tanh", "hidden": [width], "seed": seed, "steps": 1}
    return {"pi_w0": rng.normal(size=(len(rest) + len(card) * dim, width)).astype(np.float32),
            "pi_b0": np.zeros(width, np.float32),
            "action_w": rng.normal(size=(width, spec.num_actions)).astype(np.float32),
            "action_b": np.zeros(spec.num_actions, np.float32),
            "emb_table": rng.normal(size=(n_ids, dim)).astype(np.float32), "emb_card_idx": card,
            "emb_rest_idx": rest, "meta": np.array(json.dumps(meta))}


def write(path: Path, arrays: dict[str, np.ndarray]) -> Path:
    np.savez_compressed(path, **arrays)
    return path


def refused(path: Path, *words: str) -> str:
    """Loading ``path`` by every route is one BadArgumentError naming the file and ``words``."""
    for load in (lambda: policy_mod.load_npz(path, game=GAME), lambda: make_agent(GAME, f"ppo:{path}")):
        with pytest.raises(BadArgumentError) as info:
            load()
        message = str(info.value)
        assert str(path.name) in message, message
        for word in words:
            assert word in message, message
    return message


def test_a_valid_hand_made_policy_loads_and_plays(tmp_path: Path) -> None:
    from cardenvs.core.batch import BatchGame

    agent = policy_mod.load_npz(write(tmp_path / "ok.npz", policy_arrays()), game=GAME)
    game = BatchGame(GAME, 4, seed=0)
    actions = agent.act(game.observe(), game.legal_mask())
    assert game.legal_mask()[np.arange(4), actions].all()


# ----- finding 1: an index past the observation (SIGSEGV at the first act) --------------------------------------
@pytest.mark.parametrize("field, change", [
    ("emb_card_idx", lambda a: np.where(np.arange(len(a)) == 0, 10**6, a)),  # past the row: the segfault
    ("emb_card_idx", lambda a: np.where(np.arange(len(a)) == 0, -5, a)),
    ("emb_rest_idx", lambda a: np.concatenate([a[:-1], a[:1]])),  # a position read twice, one never
    ("emb_rest_idx", lambda a: a.astype(np.float32)),  # wrong dtype
])
def test_finding1_policy_index_arrays_are_checked_at_load(tmp_path: Path, field, change) -> None:
    arrays = policy_arrays()
    arrays[field] = change(arrays[field])
    refused(write(tmp_path / "bad.npz", arrays), field.split("_")[0])


@pytest.mark.parametrize("field, shape_change, word", [
    ("pi_w0", lambda a: a[:-1], "pi_w0"),
    ("pi_b0", lambda a: a[:-1], "pi_b0"),
    ("action_w", lambda a: a[:, :-1], "action"),
    ("action_b", lambda a: a[:-1], "action_b"),
    ("emb_table", lambda a: a[:, :-1], "pi_w0"),
])
def test_finding1_policy_shapes_must_chain_and_fit_the_game(tmp_path: Path, field, shape_change, word) -> None:
    arrays = policy_arrays()
    arrays[field] = shape_change(arrays[field])
    refused(write(tmp_path / "bad.npz", arrays), word)


def test_finding1_arrays_that_disagree_with_the_metadata_are_refused(tmp_path: Path) -> None:
    """A consistent network for another observation size behind metadata that claims this game's."""
    arrays = policy_arrays()
    arrays["emb_rest_idx"] = arrays["emb_rest_idx"][:-1]
    arrays["pi_w0"] = arrays["pi_w0"][:-1]
    refused(write(tmp_path / "bad.npz", arrays), "observation values")


# ----- finding 5: decompression bombs ----------------------------------------------------------------------------
def test_finding5_a_policy_member_past_the_size_cap_is_refused_before_reading(tmp_path: Path, monkeypatch) -> None:
    arrays = policy_arrays()
    arrays["pi_w1"] = np.zeros((4096, 4096), np.float32)  # 64 MiB of zeros: compresses to about 65 KB
    arrays["pi_b1"] = np.zeros(4096, np.float32)
    path = write(tmp_path / "bomb.npz", arrays)
    assert path.stat().st_size < 1_000_000
    read = []
    monkeypatch.setattr(np.lib.format, "read_array", lambda *a, **k: read.append(1))  # nothing may be read
    refused(path, "pi_w1", "at most")
    assert not read


def test_finding5_a_member_that_declares_more_data_than_it_holds_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "liar.npz", policy_arrays())
    with zipfile.ZipFile(path) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    import io

    header = {"descr": "<f4", "fortran_order": False, "shape": (2**20, 2**20)}

    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, header)
    members["pi_b0.npy"] = buf.getvalue()  # a 4 TB array announced, no data
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    refused(path, "pi_b0")


# ----- finding 6: damaged files and non-finite weights ------------------------------------------------------------
@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("field", ["pi_w0", "action_b", "emb_table"])
def test_finding6_nan_or_infinite_weights_are_refused(tmp_path: Path, field, value) -> None:
    arrays = policy_arrays()
    arrays[field] = arrays[field].astype(np.float16)
    arrays[field].reshape(-1)[3] = value
    refused(write(tmp_path / "nan.npz", arrays), field, "NaN or infinite")


def test_finding6_float16_overflow_is_refused(tmp_path: Path) -> None:
    arrays = policy_arrays()
    with np.errstate(over="ignore"):
        arrays["pi_w0"] = (arrays["pi_w0"] * 1e5).astype(np.float16)  # past float16's 65504: inf
    refused(write(tmp_path / "overflow.npz", arrays), "pi_w0", "NaN or infinite")


def _truncated(tmp_path: Path) -> Path:
    good = write(tmp_path / "good.npz", policy_arrays())
    data = good.read_bytes()
    path = tmp_path / "truncated.npz"
    path.write_bytes(data[: len(data) // 2])
    return path


def _member_dropped(tmp_path: Path) -> Path:
    arrays = policy_arrays()
    del arrays["action_b"]
    return write(tmp_path / "dropped.npz", arrays)


def _bad_meta(tmp_path: Path, text: str) -> Path:
    arrays = policy_arrays()
    arrays["meta"] = np.array(text)
    return write(tmp_path / "meta.npz", arrays)


def _written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _corrupt_member(tmp_path: Path) -> Path:
    """A member whose compressed bytes are damaged (CRC or inflate error at read)."""
    good = write(tmp_path / "good.npz", policy_arrays())
    data = bytearray(good.read_bytes())
    with zipfile.ZipFile(good) as zf:
        info = zf.getinfo("pi_w0.npy")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra) + 200
    data[start:start + 64] = bytes(64)
    path = tmp_path / "corrupt.npz"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("make, words", [
    (_truncated, ("not a cardenvs policy file",)),
    (_member_dropped, ("action_b", "missing")),
    (lambda t: _bad_meta(t, "{not json"), ("meta", "JSON")),
    (lambda t: _bad_meta(t, "[1, 2]"), ("meta", "JSON object")),
    (_corrupt_member, ("not a cardenvs policy file",)),
    (lambda t: _written(t / "plain.npz", b"hello"), ("not a cardenvs policy file",)),
])
def test_finding6_damaged_policy_files_are_one_clear_error(tmp_path: Path, make, words) -> None:
    refused(make(tmp_path), *words)


def test_finding6_a_pickled_member_is_refused_without_unpickling(tmp_path: Path) -> None:
    import pickle

    class Boom:
        def __reduce__(self):
            return (Path(tmp_path / "ran").write_text, ("code ran",))

    arrays = policy_arrays()
    path = write(tmp_path / "pickled.npz", arrays)
    with zipfile.ZipFile(path, "a") as zf:
        import io

        buf = io.BytesIO()
        np.lib.format.write_array(buf, np.array([Boom()], dtype=object), allow_pickle=True)
        zf.writestr("pi_w1.npy", buf.getvalue())
    del pickle
    refused(path, "Python objects")
    assert not (tmp_path / "ran").exists()


# ----- finding 3: no worker slice writes after an interrupted call returned ---------------------------------------
def test_finding3_an_interrupt_while_waiting_still_waits_for_every_running_slice() -> None:
    """Ctrl-C (a real SIGINT to the main thread) while the caller waits for a worker's slice: the call raises
    KeyboardInterrupt only once that slice is done, so nothing writes after it returned."""
    import signal
    import threading
    import time

    from cardenvs.core import threads

    if threads._get_workers().count < 1:  # pragma: no cover (always one worker at least)
        pytest.skip("no worker thread")
    out = np.zeros(2, np.int64)
    started = threading.Event()

    def kernel(k: int) -> None:
        if k == 0:  # the caller's slice: interrupt the caller once the worker's slice runs
            started.wait(5)
            main = threading.main_thread().ident
            threading.Timer(0.05, signal.pthread_kill, (main, signal.SIGINT)).start()
            return
        started.set()
        time.sleep(0.5)
        out[1] = 1  # the worker's write, late

    with pytest.raises(KeyboardInterrupt):
        threads._run_calls(kernel, [(0,), (1,)])
    at_return = out.copy()
    time.sleep(0.8)
    assert (out == at_return).all(), "a worker slice wrote after the interrupted call returned"
    assert at_return[1] == 1


def test_finding3_threaded_calls_still_run_every_slice() -> None:
    from cardenvs.core import threads

    seen = np.zeros(1000, np.int64)

    def kernel(states, tables) -> None:
        states[:] += 1

    threads.threaded(kernel, min_rows=2, threads=4)(seen, None)
    assert (seen == 1).all()


# ----- finding 2: state rows written from outside are checked before a kernel reads them --------------------------
@pytest.fixture(scope="module")
def batch():
    from cardenvs.core.batch import BatchGame

    return BatchGame(GAME, 6, seed=0)


def _field(name: str) -> int:
    return get_spec(GAME).state_layout.offset(name)


def _refused_unchanged(game, call, *words: str) -> None:
    before = game.states.copy()
    with pytest.raises(BadArgumentError) as info:
        call()
    assert (np.asarray(game.states) == before).all()
    for word in words:
        assert word in str(info.value), str(info.value)


@pytest.mark.parametrize("field, value, word", [
    ("hand_count", 10**6, "hand_count"),  # a loop far past the row: the segfault
    ("hand", 10**6, "hand"),
    ("deck_list", 10**6, "deck_list"),  # a card id past the pool's tables
    ("deck_list", -7, "deck_list"),
    ("status", 9, "status"),
    ("to_act", 5, "to_act"),
])
def test_finding2_a_damaged_restored_row_is_refused_before_any_kernel(batch, field, value, word) -> None:
    """README: ``saved = game.states[i].copy()`` and ``game.states[i] = saved``; here the copy was damaged."""
    game = batch.clone()
    saved = game.states[2].copy()
    saved[_field(field)] = value
    game.states[2] = saved
    for call in (lambda: game.step(np.zeros(6, np.int32)), lambda: game.observe(), lambda: game.legal_mask(),
                 lambda: game.play(np.zeros(6, np.int32)), lambda: game.render(2), lambda: game.check_states()):
        _refused_unchanged(game, call, "game 2", word)
    game.states[2] = batch.states[2]  # a good row again: the batch plays on
    game.observe()


def _replace_all(game) -> None:
    rows = np.asarray(game.states).copy()
    rows[3, _field("hand_count")] = 99
    game.states = rows  # a whole new array: every row is checked


def test_finding2_writes_by_every_numpy_route_are_seen(batch) -> None:
    bad_count = _field("hand_count")
    routes = [
        lambda g: g.states.__setitem__((3, bad_count), 99),
        lambda g: g.states[3].__setitem__(bad_count, 99),
        lambda g: g.states[3, bad_count:bad_count + 1].__iadd__(99),
        lambda g: np.copyto(g.states[3], np.where(np.arange(g.states.shape[1]) == bad_count, 99, g.states[3])),
        lambda g: g.records()["hand_count"].__setitem__((3, 0), 99),
        lambda g: g.states[3:4, bad_count:bad_count + 1].fill(99),
        lambda g: np.add.at(g.states[3], [bad_count], 99),
        _replace_all,
    ]
    for route in routes:
        game = batch.clone()
        route(game)
        _refused_unchanged(game, game.observe, "game 3", "hand_count")


def test_finding2_a_row_of_a_larger_custom_pool_is_refused_on_a_smaller_one(tmp_path: Path) -> None:
    """Pool identity as far as a row can prove it: its card ids must exist in the pool in use."""
    from cardenvs.core.batch import BatchGame

    spec = get_spec(GAME)
    game = BatchGame(GAME, 2, seed=0)
    row = game.states[0].copy()
    decks = row[_field("deck_list"):_field("deck_list") + 2 * spec.state_layout["deck_list"].shape[1]]
    decks[decks >= 0] = len(game.pool) + 3  # ids a larger pool has, this one does not
    game.states[1] = row
    _refused_unchanged(game, lambda: game.step(np.zeros(2, np.int32)), "game 1", "deck_list",
                       f"0 to {len(game.pool) - 1}")


def test_finding2_kernel_rows_and_good_restores_pass_and_cost_nothing_when_clean(batch) -> None:
    from cardenvs.agents import RandomAgent

    game = batch.clone()
    agent = RandomAgent(seed=0)
    snapshots = []
    for _ in range(30):
        snapshots.append(game.states.copy())
        game.play(agent.act(game.observe(), game.legal_mask()))
        assert not game._dirty.any  # the kernels' own writes mark nothing
    game.states[:] = snapshots[10]  # a whole earlier position restored: checked, accepted
    game.check_states()
    game.observe()
    assert not game._dirty.any
    copy = game.states[0].copy()
    copy[_field("hand_count")] = 10**6  # a copy is not the batch's memory
    assert not game._dirty.any


def test_finding2_a_heuristic_reading_damaged_rows_is_refused_first(batch) -> None:
    game = batch.clone()
    agent = make_agent(GAME, "heuristic")
    game.states[1, _field("hand_count")] = 10**6
    with pytest.raises(BadArgumentError, match="game 1: state field hand_count"):
        agent.act(None, np.ones((6, game.spec.num_actions), np.int8), game.states, np.zeros(6, np.int32))


@pytest.mark.parametrize("which", ["levelneo", "simulfight", "heartbreak", "divinecross", "relics"])
def test_finding2_every_row_the_kernels_write_passes_the_check(which: str) -> None:
    """No false refusal: rows of random games (resets, steps, ends) of every game pass the check."""
    from cardenvs.agents import RandomAgent
    from cardenvs.core.batch import BatchGame

    game = BatchGame(which, 64, seed=1, autoreset=True, fused=True)
    agent = RandomAgent(seed=1)
    _, obs, mask = game.play(np.zeros(64, np.int32), players=-1)
    for _ in range(150):
        game.check_states()
        _, obs, mask = game.play(agent.act(obs, mask))


def test_finding6_odd_metadata_values_never_give_a_traceback_after_the_games(tmp_path: Path) -> None:
    """describe_pilot runs once every game was played (the report's pilot line): metadata of the wrong types is
    described plainly, not a traceback."""
    from cardenvs.agents import describe_pilot

    arrays = policy_arrays()
    meta = json.loads(str(arrays["meta"]))
    meta.update(steps="many", warm_start={"teacher": {"steps": [1], "hidden": 5}})
    arrays["meta"] = np.array(json.dumps(meta))
    path = write(tmp_path / "odd.npz", arrays)
    policy_mod.load_npz(path, game=GAME)
    assert "odd.npz" in describe_pilot(GAME, f"ppo:{path}")


def test_finding1_arrays_handed_to_numpy_policy_directly_are_checked_too() -> None:
    arrays = policy_arrays()
    embed = {"table": arrays["emb_table"], "card_idx": arrays["emb_card_idx"].copy(), "rest_idx": arrays["emb_rest_idx"]}
    embed["card_idx"][0] = 10**6
    with pytest.raises(BadArgumentError, match="emb_card_idx"):
        policy_mod.NumpyPolicy([(arrays["pi_w0"], arrays["pi_b0"])], (arrays["action_w"], arrays["action_b"]),
                               embed=embed)
