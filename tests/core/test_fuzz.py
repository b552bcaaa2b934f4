"""Issue 13's fuzz suite: deck files, card pool files and API calls with random types, shapes, dtypes and ranges.

Parsing is pure Python, so deck and pool files are fuzzed in this process: the only acceptable failure is the
documented one-line error (:class:`DeckError`, :class:`CardPoolError`). Calls that reach Numba kernels could kill
the interpreter, so they run in one subprocess per Hypothesis example (many probes each); the test fails on any
exit by signal, on any exception that is not a :class:`CardenvsError`, and on any rejected call that changed a
game. Cheap on purpose (small ``max_examples``, the kernels of one game): about half a minute in all.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import cardenvs
from cardenvs.core.errors import CardPoolError, DeckError

GAME = "levelneo"
FAST = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@pytest.fixture(scope="module")
def spec():
    return cardenvs.get_game(GAME)


@pytest.fixture(scope="module")
def pool(spec):
    return spec.load_pool(None)


# ----- deck files ---------------------------------------------------------------------------------------------------
toml_scalars = st.one_of(st.integers(min_value=-(10**40), max_value=10**40), st.floats(allow_nan=True),
                         st.booleans(), st.text(max_size=20), st.just(10**12), st.just(10**8))
toml_values = st.recursive(toml_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                                 st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                           max_leaves=12)


def toml_text(data: dict) -> str:
    """A TOML document for a dict of JSON-ish values (inline tables and arrays; nan/inf as TOML spells them)."""

    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float):
            return "nan" if v != v else ("inf" if v == float("inf") else "-inf" if v == float("-inf") else repr(v))
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return "{" + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + "}"

    return "\n".join(f"{json.dumps(k)} = {value(v)}" for k, v in data.items()) + "\n"


@FAST
@given(raw=st.binary(max_size=400))
def test_random_bytes_as_a_deck_file(tmp_path_factory, spec, pool, raw) -> None:
    path = tmp_path_factory.mktemp("deck") / "deck.toml"
    path.write_bytes(raw)
    with pytest.raises(DeckError):
        spec.load_deck(path, pool)


@FAST
@given(data=st.dictionaries(st.sampled_from(["name", "description", "cards", "format", "x"]), toml_values, max_size=4))
def test_random_toml_structures_as_a_deck_file(tmp_path_factory, spec, pool, data) -> None:
    path = tmp_path_factory.mktemp("deck") / "deck.toml"
    path.write_text(toml_text(data))
    with pytest.raises(DeckError):  # never a valid 40-card deck
        spec.load_deck(path, pool)


@FAST
@given(counts=st.lists(st.integers(min_value=-5, max_value=10**30), min_size=1, max_size=6))
def test_random_counts_in_a_deck_file(tmp_path_factory, spec, pool, counts) -> None:
    names = [c["name"] for c in pool.cards][: len(counts)]
    path = tmp_path_factory.mktemp("deck") / "deck.toml"
    path.write_text("[cards]\n" + "".join(f"{json.dumps(n)} = {c}\n" for n, c in zip(names, counts)))
    try:
        deck = spec.load_deck(path, pool)
    except DeckError:
        return
    assert len(deck) == spec.max_deck


# ----- card pool files ----------------------------------------------------------------------------------------------
@FAST
@given(data=st.dictionaries(st.sampled_from(["card", "x"]), toml_values, max_size=2))
def test_random_toml_structures_as_a_card_pool(tmp_path_factory, spec, data) -> None:
    path = tmp_path_factory.mktemp("pool") / "cards.toml"
    path.write_text(toml_text(data))
    with pytest.raises(CardPoolError):
        spec.load_pool([path])


@FAST
@given(field=st.sampled_from(["name", "effects", "op", "cost", "power", "type", "x"]), value=toml_values,
       which=st.integers(min_value=0, max_value=5))
def test_a_random_value_in_a_real_card_pool(tmp_path_factory, spec, field, value, which) -> None:
    """One field of one card of the shipped pool replaced by a random value: a CardPoolError or a valid pool."""
    import tomllib

    data = tomllib.loads(spec.card_pool_path.read_text())
    card = data["card"][which % len(data["card"])]
    if field == "op" and card.get("effects"):
        card["effects"][0]["op"] = value
    else:
        card[field] = value
    path = tmp_path_factory.mktemp("pool") / "cards.toml"
    path.write_text("".join("[[card]]\n" + toml_text(c) for c in data["card"]))
    try:
        spec.load_pool([path])
    except CardPoolError:
        pass


# ----- API calls, in a subprocess ---------------------------------------------------------------------------------
RUNNER = textwrap.dedent(r'''
    import json, sys
    import numpy as np
    from cardenvs.core.batch import BatchGame
    from cardenvs.core.errors import CardenvsError

    import cardenvs

    N = 6
    game = BatchGame(sys.argv[1], N, seed=0)
    spec = game.spec
    env = cardenvs.make_env(sys.argv[1])
    env.reset(seed=0)

    def build(v):
        kind = v["kind"]
        if kind == "none":
            return None
        if kind == "scalar":
            return v["value"]
        if kind == "big":
            return int(v["value"])
        if kind == "array":
            shape = [N if s == "N" else spec.obs_dim if s == "O" else spec.num_actions if s == "A" else s
                     for s in v["shape"]]
            try:
                arr = np.full(shape, v["fill"], dtype=v["dtype"])
            except (OverflowError, ValueError, TypeError):  # a fill the dtype cannot hold
                arr = np.full(shape, 1, dtype=v["dtype"])
            if v.get("strided") and arr.ndim:
                arr = np.repeat(arr, 2, axis=-1)[..., ::2]
            return arr
        if kind == "list":
            return [v["fill"]] * (N if v["n"] == "N" else v["n"])
        if kind == "text":
            return v["value"]
        raise AssertionError(kind)

    results = []
    for probe in json.loads(sys.stdin.read()):
        before, seeds, env_row = game.states.copy(), game.seeds.copy(), env.unwrapped.state()
        args = {k: build(v) for k, v in probe["args"].items()}
        method = probe["method"]
        try:
            if method == "step":
                game.step(args["actions"], players=args["players"], errors=args["errors"])
            elif method == "play":
                game.play(args["actions"], players=args["players"], viewers=args["viewers"], errors=args["errors"])
            elif method == "observe":
                game.observe(args["players"], out=args["out"])
            elif method == "legal_mask":
                game.legal_mask(args["players"], out=args["out"])
            elif method == "reset":
                game.reset(args["seed"], rows=args["rows"])
            elif method == "new":
                BatchGame(sys.argv[1], args["n"], seed=args["seed"])
            elif method == "aec_step":
                if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                    env.reset()
                    env_row = env.unwrapped.state()
                env.step(args["action"])
            elif method == "aec_reset":
                env.reset(seed=args["seed"])
            elif method == "aec_observe":
                env.observe(args["agent"])
            outcome = "ok"
        except CardenvsError as exc:
            outcome = "rejected"
            if not (env.unwrapped.state() == env_row).all():
                outcome = "CHANGED env " + str(exc)[:200]
            elif not ((game.states == before).all() and (game.seeds == seeds).all()):
                # an illegal action in a batch is reported after the legal rows moved (documented); the bad rows
                # themselves must not have moved
                bad = np.flatnonzero(game.last_errors)
                if method in ("step", "play") and bad.size and (game.states[bad] == before[bad]).all():
                    outcome = "rejected-rows"
                else:
                    outcome = "CHANGED " + str(exc)[:200]
        except Exception as exc:
            outcome = f"RAISED {type(exc).__name__}: {str(exc)[:200]}"
        results.append(outcome)
        if game.status.min() != 0 or np.random.default_rng(len(results)).random() < 0.1:
            game.reset(len(results))
    print(json.dumps(results))
''')

dtypes = st.sampled_from(["int8", "int32", "int64", "uint64", "float32", "float64", "bool", "object"])
fills = st.one_of(st.integers(min_value=-3, max_value=3), st.integers(min_value=-(2**63), max_value=2**64 - 1),
                  st.sampled_from([0.5, 1.0, 2**31, -(2**31) - 1, 88]))
shapes = st.one_of(st.just(["N"]), st.just(["N", 1]), st.just([3]), st.just([]), st.just(["N", "O"]),
                   st.just(["N", "A"]), st.just([2, 3]), st.just([0]), st.just([20000]))


def arrays(shape=shapes):
    return st.fixed_dictionaries({"kind": st.just("array"), "dtype": dtypes, "shape": shape, "fill": fills,
                                  "strided": st.booleans()})


values = st.one_of(
    st.just({"kind": "none"}),
    st.fixed_dictionaries({"kind": st.just("scalar"), "value": st.one_of(st.integers(-3, 3), st.floats(), st.booleans())}),
    st.fixed_dictionaries({"kind": st.just("big"), "value": st.sampled_from([str(2**63), str(2**64 + 1), str(-(2**70))])}),
    st.fixed_dictionaries({"kind": st.just("list"), "fill": st.one_of(st.integers(-2, 90), st.floats(), st.booleans()),
                           "n": st.sampled_from(["N", 2, 0])}),
    st.fixed_dictionaries({"kind": st.just("text"), "value": st.sampled_from(["", "0", "raise", "bogus"])}),
    arrays(),
)
errors_values = st.one_of(st.just({"kind": "text", "value": "raise"}), st.just({"kind": "text", "value": "ignore"}),
                          values)
probes = st.one_of(
    st.fixed_dictionaries({"method": st.sampled_from(["step", "play"]),
                           "args": st.fixed_dictionaries({"actions": values, "players": values, "viewers": values,
                                                          "errors": errors_values})}),
    st.fixed_dictionaries({"method": st.sampled_from(["observe", "legal_mask"]),
                           "args": st.fixed_dictionaries({"players": values, "out": values})}),
    st.fixed_dictionaries({"method": st.just("reset"), "args": st.fixed_dictionaries({"seed": values, "rows": values})}),
    st.fixed_dictionaries({"method": st.just("new"), "args": st.fixed_dictionaries({"n": values, "seed": values})}),
    st.fixed_dictionaries({"method": st.just("aec_step"), "args": st.fixed_dictionaries({"action": values})}),
    st.fixed_dictionaries({"method": st.just("aec_reset"), "args": st.fixed_dictionaries({"seed": values})}),
    st.fixed_dictionaries({"method": st.just("aec_observe"), "args": st.fixed_dictionaries({"agent": values})}),
)


def run_probes(batch: list[dict]) -> list[str]:
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-c", RUNNER, GAME], input=json.dumps(batch), capture_output=True,
                          text=True, timeout=600, env=env)
    assert proc.returncode >= 0, f"the probes killed the interpreter (signal {-proc.returncode}): {proc.stderr[-2000:]}"
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
          phases=[Phase.explicit, Phase.generate])  # no shrinking: each example is a subprocess
@given(batch=st.lists(probes, min_size=60, max_size=60))
def test_random_api_calls_never_crash_raise_a_traceback_or_change_a_rejected_game(batch) -> None:
    results = run_probes(batch)
    bad = [(r, p) for p, r in zip(batch, results) if r.startswith(("CHANGED", "RAISED"))]
    assert not bad, "\n".join(f"{r}  <-  {p}" for r, p in bad[:5])
    assert {"ok", "rejected"} <= set(results) | {"ok"}


def test_the_issue_reproductions_in_a_subprocess() -> None:
    """The crashes of issue 13, each now a clear error: wrong out= buffers, wrong player lengths."""
    n_obs = {"kind": "array", "dtype": "float32", "shape": [2, 3], "fill": 0, "strided": False}
    probes_ = [
        {"method": "observe", "args": {"players": {"kind": "none"}, "out": n_obs}},
        {"method": "legal_mask", "args": {"players": {"kind": "none"},
                                          "out": {"kind": "array", "dtype": "int8", "shape": [2, 3], "fill": 0}}},
        {"method": "observe", "args": {"players": {"kind": "array", "dtype": "int32", "shape": [20000], "fill": 1},
                                       "out": {"kind": "none"}}},
        {"method": "step", "args": {"actions": {"kind": "array", "dtype": "int64", "shape": ["N"], "fill": 2**32 + 1},
                                    "players": {"kind": "none"}, "viewers": {"kind": "none"},
                                    "errors": {"kind": "text", "value": "raise"}}},
    ]
    assert run_probes(probes_) == ["rejected"] * 4
