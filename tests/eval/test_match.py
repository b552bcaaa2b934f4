"""``cardenvs match GAME A B`` (issue 42 item 5): one pilot against another on every deck pairing, both seats, with
Wilson and bootstrap intervals, per-seat results, a progress bar on stderr and --json; one-line errors."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import cardenvs
from cardenvs.cli import main

# simulfight: short games (the tests play a few hundred); levelneo where simulfight is missing
GAME = "simulfight" if "simulfight" in cardenvs.available_games() else "levelneo"


def _run(capsys: pytest.CaptureFixture, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def heuristic_vs_random(tmp_path_factory) -> dict:
    from cardenvs.eval.head_to_head import run_match

    return run_match(GAME, "heuristic", "random", games=72, seed=5, bootstrap=500)


def test_the_result_holds_the_score_intervals_seats_and_every_deck_pairing(heuristic_vs_random: dict) -> None:
    s = heuristic_vs_random
    decks = cardenvs.get_game(GAME).starter_decks()
    assert s["decks"] == list(decks) and s["deck_pairings"] == len(decks) ** 2
    # every ordered pairing (A's deck, B's deck), mirrors included, the same even number of games each
    assert {(r["a_deck"], r["b_deck"]) for r in s["pairings"]} == {(a, b) for a in decks for b in decks}
    assert all(r["games"] == s["games_per_pairing"] for r in s["pairings"]) and s["games_per_pairing"] % 2 == 0
    assert s["games"] == s["games_per_pairing"] * s["deck_pairings"] >= 72
    assert s["wins"] + s["draws"] + s["losses"] == s["games"]
    assert s["score"] == pytest.approx((s["wins"] + 0.5 * s["draws"]) / s["games"])
    for key in ("ci_wilson", "ci_bootstrap"):
        lo, hi = s[key]
        assert 0 <= lo <= s["score"] <= hi <= 1, (key, s[key])
    # the seats: A sits in each for half of the games, and the seats' counts add up to the total
    seats = [s["by_seat"][f"a_in_seat{k}"] for k in (0, 1)]
    assert [r["games"] for r in seats] == [s["games"] // 2] * 2
    assert sum(r["wins"] for r in seats) == s["wins"] and sum(r["losses"] for r in seats) == s["losses"]
    assert s["score"] > 0.5  # the heuristic beats random pilots (by far, in every shipped game)
    assert s["elo"] > 0


def test_a_pilot_against_itself_scores_one_half(capsys) -> None:
    """Seat swapping with common random numbers: between two copies of the seeded random pilot, game k of (A's deck
    i, B's deck j) in one seating is game k of (j, i) in the other with the names swapped, so the score is exactly
    0.5; a mirror of the heuristic sits near 0.5 (its interval holds it)."""
    from cardenvs.eval.head_to_head import run_match

    s = run_match(GAME, "random", "random", games=36, seed=2, bootstrap=200)
    assert s["score"] == 0.5 and s["wins"] == s["losses"]
    h = run_match(GAME, "heuristic", "heuristic", games=72, seed=2, bootstrap=200)
    assert h["ci_wilson"][0] <= 0.5 <= h["ci_wilson"][1], h["ci_wilson"]


def test_the_bootstrap_resamples_deck_pairings_and_seat_swapped_pairs() -> None:
    """Two pairings, one always won and one always lost by A: games are not independent within a pairing, so the
    interval over pairings spans (almost) all of [0, 1], while the Wilson interval of 40 games stays narrow."""
    from cardenvs.eval.head_to_head import cluster_bootstrap

    k = np.repeat(np.arange(10), 2)
    ids = np.concatenate([(np.int64(p) << 40) | (k << 1) | np.tile([0, 1], 10) for p in (0, 1)])
    pairing = ids >> 40
    points = np.where(pairing == 0, 1.0, 0.0)
    lo, hi = cluster_bootstrap(points, pairing, ids, 2000, seed=0)
    assert lo == 0.0 and hi == 1.0
    lo, hi = cluster_bootstrap(np.full(ids.size, 0.5), pairing, ids, 100)
    assert lo == hi == 0.5
    assert cluster_bootstrap(points, pairing, ids, 0) is None


def test_the_bootstrap_draws_a_deck_pairing_with_its_reverse_so_deck_strength_cancels() -> None:
    """A wins every game with deck 0 against deck 1 and loses every game with deck 1 against deck 0 (the deck
    decides, not the pilot): drawn as one cluster, the pairings (0, 1) and (1, 0) say A and B are even, with no
    spread; drawn apart they looked like anything from 0 to 1. A mirror pairing is a cluster of its own, weighing
    half as much, and ``summarize_match`` clusters a match's pairings that way (``deck_pair_clusters``)."""
    from cardenvs.eval.head_to_head import bootstrap_means, cluster_bootstrap, deck_pair_clusters

    k = np.repeat(np.arange(10), 2)
    ids = np.concatenate([(np.int64(p) << 40) | (k << 1) | np.tile([0, 1], 10) for p in range(4)])
    pairing = ids >> 40
    pairs = [(0, 2), (0, 3), (1, 2), (1, 3)]  # A's deck i against B's entry 2 + j: 00, 01, 10, 11
    clusters = deck_pair_clusters(pairs, 2)
    assert clusters[1] == clusters[2] and len({clusters[0], clusters[1], clusters[3]}) == 3
    points = np.select([pairing == 1, pairing == 2], [1.0, 0.0], 0.5)
    assert cluster_bootstrap(points, pairing, ids, 500, seed=0, clusters=clusters) == (0.5, 0.5)
    lo, hi = cluster_bootstrap(points, pairing, ids, 500, seed=0)
    assert lo < 0.3 and hi > 0.7
    # mirrors won by A at 1.0 and the pair at 0.5 (the mean of every game: 0.75). A replicate that draws the pair X
    # times of 3 weighs it 2X against 3 - X mirrors: 3 / (3 + X), X ~ Binomial(3, 1/3), so the replicates average
    # 21.1 / 27 = 0.781; with equal weights they would average 2 / 3 + 1 / 6 = 0.833
    points = np.where((pairing == 1) | (pairing == 2), 0.5, 1.0)
    means = bootstrap_means(points, pairing, ids, 4000, seed=0, clusters=clusters)
    assert abs(means.mean() - 21.1 / 27) < 0.01, means.mean()


def test_match_command_prints_results_on_stdout_progress_on_stderr_and_writes_json(tmp_path: Path, capsys) -> None:
    out_file = tmp_path / "m.json"
    code, out, err = _run(capsys, ["match", GAME, "heuristic", "random", "--games", "18", "--seed", "1",
                                   "--decks", "aggro", "--json", str(out_file)])
    assert code == 0, err
    data = json.loads(out_file.read_text())
    assert data["a"] == "heuristic" and data["b"] == "random" and data["seed"] == 1 and data["games"] == 18
    assert data["deck_pairings"] == 1 and data["pairings"][0]["a_deck"] == "aggro"
    assert "A's score" in out and "A in seat 0" in out and "A in seat 1" in out and "95% Wilson" in out
    assert "games" in err  # the progress bar (rich, on stderr): stdout holds the results only
    assert "━" not in out


@pytest.mark.parametrize("argv, needle", [
    (["match", GAME, "nonsense", "random"], "pilot A ('nonsense')"),
    (["match", GAME, "random", "ppo:/no/such/policy.npz"], "pilot B"),
    (["match", GAME, "random", "heuristic", "--decks", "nosuchdeck"], "nosuchdeck"),
    (["match", GAME, "random", "heuristic", "--games", "0"], "--games"),
    (["match", GAME, "random", "heuristic", "--bootstrap", "-1"], "--bootstrap"),
    (["match", GAME, "random", "heuristic", "--seed", "x"], "--seed"),
    (["match", GAME, "random"], "B"),
    (["match", "nosuchgame", "random", "random"], "unknown game"),
])
def test_bad_pilots_decks_and_flags_are_one_line(capsys, argv: list[str], needle: str) -> None:
    code, out, err = _run(capsys, argv)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, (code, err)
    assert needle in lines[0], lines[0]


def test_a_zip_pilot_needs_the_trust_flag(tmp_path: Path, capsys) -> None:
    zipped = tmp_path / "model.zip"
    zipped.write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip: refused before anything is read
    code, out, err = _run(capsys, ["match", GAME, f"ppo:{zipped}", "random"])
    assert code == 2 and "--trust-pickle" in err and len(err.strip().splitlines()) == 1


def test_deck_labels_are_unique_and_name_their_files(tmp_path: Path) -> None:
    """`a.toml`, `x/a.toml` and `a#2.toml` once made two `a#2` labels (issue 43 finding 10): match uses eval's labels
    (checked failing with match's own position-suffix labelling)."""
    from cardenvs.eval.head_to_head import match_entries

    import cardenvs

    spec = cardenvs.get_game("simulfight")
    aggro = (spec.deck_dir / "aggro.toml").read_text(encoding="utf-8")
    (tmp_path / "x").mkdir()
    files = [tmp_path / "a.toml", tmp_path / "x" / "a.toml", tmp_path / "a#2.toml"]
    for f in files:
        f.write_text(aggro, encoding="utf-8")
    labels = match_entries("simulfight", "random", "random", [str(f) for f in files])[2]
    assert len(set(labels)) == 3, labels
