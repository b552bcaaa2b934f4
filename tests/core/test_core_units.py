"""Units of the shared core: counter RNG, layouts, card-pool and deck validation errors."""
from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.cards import FieldSpec, load_card_pool
from cardenvs.core.errors import CardPoolError
from cardenvs.core.header import HEADER, HEADER_SIZE, H_RNG_COUNTER
from cardenvs.core.layout import Layout, fields
from cardenvs.core.rng import rng_below, rng_seed, shuffle_slice


def test_header_offsets_match_the_declared_fields() -> None:
    layout = Layout("h", HEADER)
    assert layout.size == HEADER_SIZE
    assert layout.offset("rng_counter") == H_RNG_COUNTER


def test_rng_is_a_function_of_the_row() -> None:
    row = np.zeros(HEADER_SIZE + 10, dtype=np.int32)
    rng_seed(row, 42)
    snapshot = row.copy()
    first = [rng_below(row, 1000) for _ in range(20)]
    row[:] = snapshot
    assert [rng_below(row, 1000) for _ in range(20)] == first
    rng_seed(row, 43)
    assert [rng_below(row, 1000) for _ in range(20)] != first


def test_rng_below_is_roughly_uniform() -> None:
    row = np.zeros(HEADER_SIZE, dtype=np.int32)
    rng_seed(row, 1)
    counts = np.bincount([rng_below(row, 6) for _ in range(60_000)], minlength=6)
    assert counts.min() > 9_400 and counts.max() < 10_600


def test_shuffle_is_a_permutation() -> None:
    row = np.zeros(HEADER_SIZE + 40, dtype=np.int32)
    rng_seed(row, 5)
    row[HEADER_SIZE:] = np.arange(40)
    shuffle_slice(row, HEADER_SIZE, 40)
    assert sorted(row[HEADER_SIZE:].tolist()) == list(range(40))
    assert row[HEADER_SIZE:].tolist() != list(range(40))


def test_layout_views_and_markdown() -> None:
    layout = Layout("t", fields(("a", (), "scalar"), ("hand", (2, 3), "hands", True)))
    rows = np.arange(2 * layout.size, dtype=np.int32).reshape(2, layout.size)
    assert layout.get(rows, "hand").shape == (2, 2, 3)
    assert layout.records(rows)["hand"].shape == (2, 2, 3)
    assert [f.name for f in layout.zones] == ["hand"]
    assert "| `hand` | 1 | 6 | 2x3 | hands |" in layout.markdown()


def test_compact_layout_float_view_divides_each_field_and_block_entry() -> None:
    """A compact row's float view divides each entry by its field's divide_by, repeated blocks by the block's."""
    card = Layout("card", fields(("ap", (), "AP / 1000", {"divide_by": 10}), ("id", ())), np.int16)
    obs = Layout("obs", fields(("turn", (), "turn / 10", {"divide_by": 10}),
                               ("hand", (2, card.size), "hand", {"block": card}), ("flag", ())), np.int16)
    assert obs.compact and not Layout("f", fields(("a", ())), np.float32).compact
    assert obs.divisors().tolist() == [10, 10, 1, 10, 1, 1]
    rows = np.array([[7, 55, 3, -5, 4, 1]], dtype=np.int16)
    assert obs.float_view(rows)[0].tolist() == [np.float32(v).item() for v in (0.7, 5.5, 3, -0.5, 4, 1)]
    assert "(stored x10)" in obs.markdown()
    floats = np.ones((1, 3), np.float32)
    assert Layout("f", fields(("a", (3,))), np.float32).float_view(floats) is floats
    with pytest.raises(ValueError, match="last dimension of 2"):
        fields(("hand", (2, 4), "hand", {"block": card}))
    with pytest.raises(ValueError, match="positive integer"):
        fields(("ap", (), "", {"divide_by": 0}))


SCHEMA = {"name": FieldSpec("str", required=True), "cost": FieldSpec("int", min=0, max=9, default=0)}


def test_card_pool_errors_name_file_card_and_field(tmp_path) -> None:
    bad = tmp_path / "pool.toml"
    bad.write_text('[[card]]\nname = "Ember"\ncost = "three"\n')
    with pytest.raises(CardPoolError, match=r"pool.toml: card 'Ember': field 'cost': expected an integer"):
        load_card_pool([bad], SCHEMA)
    bad.write_text('[[card]]\nname = "Ember"\ncolour = "red"\n')
    with pytest.raises(CardPoolError, match=r"card 'Ember': unknown field 'colour'"):
        load_card_pool([bad], SCHEMA)
    bad.write_text('[[card]]\nname = "Ember"\ncost = 12\n')
    with pytest.raises(CardPoolError, match="above the maximum 9"):
        load_card_pool([bad], SCHEMA)
    bad.write_text('[[card]\nname = "Ember"\n')
    with pytest.raises(CardPoolError, match="malformed TOML"):
        load_card_pool([bad], SCHEMA)
    with pytest.raises(CardPoolError, match="file not found"):
        load_card_pool([tmp_path / "missing.toml"], SCHEMA)


def test_a_spec_observation_is_float32_or_a_compact_integer_dtype() -> None:
    """Issue 41: the envs, the checker and the policies handle float32 and int8/uint8/int16 rows; any other dtype
    (int32 rows would lose their float view's exactness past 2**24, float64 doubles the bytes) is refused where the
    spec is declared."""
    import dataclasses

    import cardenvs

    spec = cardenvs.get_game("simulfight")
    lay = spec.obs_layout
    for dtype in (np.int8, np.uint8, np.int16, np.float32):
        compact = dataclasses.replace(spec, obs_layout=Layout(lay.name, lay.fields, dtype_scalar=dtype))
        assert compact.obs_dtype == dtype and compact.obs_divisors.shape == (spec.obs_dim,)
    for dtype in (np.int32, np.float64):
        with pytest.raises(ValueError, match="dtype_scalar must be one of float32, int8, uint8, int16"):
            dataclasses.replace(spec, obs_layout=Layout(lay.name, lay.fields, dtype_scalar=dtype))


def test_the_seat_view_fields_are_checked_where_the_game_is_declared() -> None:
    """Issue 38: ``view_own_unseen_zones`` and ``view_known_field`` name parts of the state; a name that is not there
    (or a deck or hand, which the view never treats by zone) is refused when the spec is built, not at an agent's
    first view. The shipped declarations pass."""
    import dataclasses

    import cardenvs

    level = cardenvs.get_game("levelneo")
    assert dataclasses.replace(level, view_own_unseen_zones=("level",)).view_own_unseen_zones == ("level",)
    for bad, message in ((("levle",), "names no zone of its state: \\['levle'\\]"),
                         ("level", "must be a tuple of zone names"),
                         (("deck",), "decks and hands are never known")):
        with pytest.raises(ValueError, match=message):
            dataclasses.replace(level, view_own_unseen_zones=bad)
    simul = cardenvs.get_game("simulfight")
    assert dataclasses.replace(simul, view_known_field="shown").view_known_field == "shown"
    with pytest.raises(ValueError, match="view_known_field 'shwon' is no field"):
        dataclasses.replace(simul, view_known_field="shwon")
