"""The gauntlet (``cardenvs eval GAME --decks mine --field ...``): only the decks under test against the field, each
pairing played exactly as the round robin of the same seed plays it."""
from __future__ import annotations

import json

import numpy as np
import pytest

from cardenvs.cli import main
from cardenvs.eval import run_tournament
from cardenvs.eval.gauntlet import gauntlet_entries, gauntlet_stats, run_gauntlet
from cardenvs.eval.tournament import pairing_key, plan_round


def _games(result) -> dict[tuple[str, str, int], int]:
    """Every game as (seat-0 label, seat-1 label, k) -> outcome code."""
    t, pairs, labels = result.tally, result.pairs, result.labels
    out = {}
    for gid, o in zip(t.game_ids.tolist(), t.outcomes.tolist()):
        p, k, swapped = gid >> 40, (gid >> 1) & ((1 << 39) - 1), gid & 1
        a, b = pairs[p]
        s0, s1 = (a, b) if swapped == 0 else (b, a)
        out[(labels[s0], labels[s1], k)] = o
    return out


@pytest.mark.parametrize("crn", [True, False])
def test_gauntlet_numbers_equal_the_same_pairings_of_a_round_robin(spec, crn) -> None:
    """The round robin lists the tested deck in the middle (other pairing positions, other orders within pairs) and
    cuts other chunks: each gauntlet game, its pairing's counts and interval equal the round robin's."""
    rr = run_tournament(spec, ["burst", "weak", "control", "machine"], games=24, seed=11, crn=crn, chunk_size=4096)
    g = run_gauntlet(spec, ["weak"], ["control", "burst"], games=24, seed=11, crn=crn, chunk_size=10)
    assert g.labels == ["weak", "control", "burst"] and g.pairs == [(0, 1), (0, 2)]
    assert g.games == 2 * 24 and g.config["mode"] == "gauntlet" and g.config["field"] == ["control", "burst"]
    rr_games, g_games = _games(rr), _games(g)
    assert len(g_games) == 48 and all(rr_games[key] == o for key, o in g_games.items())
    for a, b in g.pairs:
        ra, rb = rr.labels.index(g.labels[a]), rr.labels.index(g.labels[b])
        assert np.array_equal(g.tally.results[a, b], rr.tally.results[ra, rb])
        assert np.array_equal(g.tally.results[b, a], rr.tally.results[rb, ra])
    rows = {(r["a"], r["b"]): r for r in rr.pairing_stats()}
    for row in g.pairing_stats():
        other = rows.get((row["a"], row["b"]))
        if other is None:  # listed the other way round in the round robin
            other = rows[(row["b"], row["a"])]
            other = {**other, "a": row["a"], "b": row["b"], "a_wins": other["b_wins"], "b_wins": other["a_wins"],
                     "a_score": 1 - other["a_score"], "ci": [1 - other["ci"][1], 1 - other["ci"][0]]}
        assert row["games"] == other["games"] and row["a_wins"] == other["a_wins"] and row["draws"] == other["draws"]
        assert row["a_score"] == pytest.approx(other["a_score"]) and row["ci"] == pytest.approx(other["ci"])
    # nothing but the tested deck's pairings is played
    assert g.tally.results[1:, 1:].sum() == 0


def test_seeds_without_crn_follow_the_pairing_not_its_place_in_the_schedule(spec, pool) -> None:
    entries, _ = gauntlet_entries(spec, ["weak"], ["burst", "control"])
    w, b, c = entries
    keys = [pairing_key(w, b), pairing_key(w, c)]
    assert pairing_key(b, w) >> 1 == keys[0] >> 1 and pairing_key(b, w) & 1 != keys[0] & 1
    one = plan_round(3, [(0, 1), (0, 2)], {0: (0, 4), 1: (0, 4)}, 100, crn=False, pair_keys=keys)[0]
    # the same pairings in the other order and the other way round: the same seed for the same seating and k
    two = plan_round(3, [(2, 0), (1, 0)], {0: (0, 4), 1: (0, 4)}, 100, crn=False,
                     pair_keys=[pairing_key(c, w), pairing_key(b, w)])[0]
    seeds_one = {(s0, s1, gid >> 1 & 0xFF): sd for s0, s1, gid, sd in zip(one.seat0.tolist(), one.seat1.tolist(),
                                                                         one.game_ids.tolist(), one.seeds.tolist())}
    seeds_two = {(s0, s1, gid >> 1 & 0xFF): sd for s0, s1, gid, sd in zip(two.seat0.tolist(), two.seat1.tolist(),
                                                                         two.game_ids.tolist(), two.seeds.tolist())}
    assert seeds_one == seeds_two and len(set(seeds_one.values())) == 16


def test_default_field_is_the_starters_without_the_tested_deck(spec, pool) -> None:
    entries, pairs = gauntlet_entries(spec, ["weak"], None, ["random", "heuristic"])
    starters = spec.starter_decks()
    assert [e.label for e in entries[:2]] == ["weak@random", "weak@heuristic"]
    assert sorted({e.label.split("@")[0] for e in entries[2:]}) == sorted(set(starters) - {"weak"})
    assert len(pairs) == 2 * 2 * (len(starters) - 1) and all(a < 2 <= b for a, b in pairs)


def test_gauntlet_stats_pool_the_field(spec) -> None:
    g = run_gauntlet(spec, ["weak"], ["burst", "control"], games=16, seed=2)
    (row,) = gauntlet_stats(g)
    res = g.tally.results
    wins = int(res[0, 1:, 0].sum() + res[1:, 0, 1].sum())
    assert row["deck"] == "weak" and row["games"] == 32 and row["wins"] == wins
    assert row["ci"][0] <= row["score"] <= row["ci"][1]
    assert [f["deck"] for f in row["field"]] == ["burst", "control"] and sum(f["games"] for f in row["field"]) == 32


def test_cli_gauntlet_writes_the_gauntlet_to_json(capsys, spec, tmp_path) -> None:
    out = tmp_path / "g.json"
    code = main(["eval", "levelneo", "--decks", "weak", "--field", "burst", "control", "--agent", "random",
                 "--games", "8", "--bootstrap", "20", "--json", str(out)])
    text, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out.read_text())
    assert data["config"]["mode"] == "gauntlet" and data["games"] == 16
    assert [(p["a"], p["b"]) for p in data["pairings"]] == [("weak", "burst"), ("weak", "control")]
    assert data["gauntlet"][0]["deck"] == "weak" and "gauntlet:" in text
    code = main(["eval", "levelneo", "--field", "burst"])
    _, err = capsys.readouterr()
    assert code == 2 and "--field" in err and len(err.strip().splitlines()) == 1


def test_cli_gauntlet_report_has_a_gauntlet_section(capsys, spec, tmp_path) -> None:
    code = main(["eval", "levelneo", "--decks", "weak", "--field", "burst", "--agent", "random", "--games", "4",
                 "--bootstrap", "10", "--no-cards", "--report", str(tmp_path / "rep"), "--quiet"])
    assert code == 0, capsys.readouterr().err
    page = (tmp_path / "rep" / "report.html").read_text()
    assert page.count("id='gauntlet'") == 1 and page.index("id='gauntlet'") < page.index("<h2>Ratings</h2>")
    data = json.loads((tmp_path / "rep" / "results.json").read_text())
    assert data["gauntlet"][0]["games"] == 4


def test_gauntlet_on_ray_equals_local(spec) -> None:
    pytest.importorskip("ray", reason="ray is not installed (pip install 'cardenvs[ray]'); CI installs it")
    from cardenvs.eval import make_backend

    local = run_gauntlet(spec, ["weak"], ["burst", "control"], games=20, seed=4, chunk_size=15)
    remote = run_gauntlet(spec, ["weak"], ["burst", "control"], games=20, seed=4, chunk_size=15,
                          backend=make_backend("ray", workers=2))
    assert remote.backend == "ray" and remote.games == local.games == 40
    for f in ("results", "first", "cards", "game_ids", "outcomes", "turns"):
        assert np.array_equal(getattr(local.tally, f), getattr(remote.tally, f)), f
