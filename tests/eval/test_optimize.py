"""Deck search (issue 17, cardenvs.eval.optimize) against synthetic ground truth: the skewed simulfight pool in
tests/eval/data has one deliberately overpowered card ("Titan of Testing") and one never worth playing ("Dud
Scarecrow"). Started from the aggro starter deck with the Dud in place of a card and no Titan, the search must end
with the Titan and without the Dud within its game budget; the same seed must give the same search."""
from __future__ import annotations

import json

import pytest

from cardenvs.core import deckgen
from cardenvs.core.errors import BadArgumentError

from skewed_pool import GAME, POOL, STRONG, USELESS, skewed_spec


@pytest.fixture(scope="module")
def spec():
    return skewed_spec()


@pytest.fixture(scope="module")
def pool(spec):
    return spec.load_pool([POOL])


@pytest.fixture(scope="module")
def start(spec, pool):
    cards = deckgen.deck_counts(spec.load_deck("aggro", pool), pool)
    cards.pop("Hedge Archer")
    cards[USELESS] = 1
    return deckgen.deck_from_names(cards, pool, name="aggro-dud", game=spec)


def test_search_finds_the_strong_card_and_drops_the_useless_one(spec, pool, start, tmp_path):
    from cardenvs.eval.optimize import format_optimize, optimize_deck, write_optimize_report

    assert STRONG not in deckgen.deck_counts(start, pool)
    result = optimize_deck(spec, start, None, "heuristic", budget_games=25_000, seed=1, pool=pool)
    best = deckgen.deck_counts(result.best, pool)
    text = format_optimize(result)
    assert STRONG in best, text
    assert USELESS not in best, text
    assert result.games <= 25_000
    # every accepted step is a legal one-card swap that beat the incumbent on the same games
    assert result.steps and all(s.diff[0] > 0 and s.llr > 0 for s in result.steps)
    assert result.steps[-1].score["score"] > result.steps[0].incumbent_score["score"]
    added, removed = result.added_removed()
    assert STRONG in added and USELESS in removed
    paths = write_optimize_report(result, tmp_path / "best.toml")
    again = spec.load_deck(paths[0], pool)  # the deck file reads back, legal, with the same cards
    assert deckgen.deck_key(again) == deckgen.deck_key(result.best)
    assert (tmp_path / "best.search.json").exists() and "added:" in (tmp_path / "best.search.txt").read_text()
    assert "Titan of Testing" in (tmp_path / "best.search.html").read_text()


def test_same_seed_same_search(spec, pool, start):
    """Twice in-process and once through a tournament backend object (the protocol the Ray backend shares)."""
    from cardenvs.eval.optimize import optimize_deck
    from cardenvs.eval.tournament import LocalBackend

    runs = [optimize_deck(spec, start, ["aggro", "guard"], "heuristic", budget_games=2_000, seed=5, pool=pool,
                          candidates=6, round_pairs=4, confirm_pairs=8, backend=backend).to_dict()
            for backend in (None, None, LocalBackend())]
    for r in runs:
        r.pop("seconds")
        r["config"].pop("backend")
        for s in r["steps"]:
            s.pop("seconds")
    assert runs[0] == runs[1] == runs[2]
    assert runs[0]["games"] <= 2_000 and runs[0]["confirm"]["games_per_deck"] == 2 * 2 * 8


def test_budget_parsing():
    from cardenvs.eval.optimize import parse_budget

    assert parse_budget("15m") == (None, 900.0)
    assert parse_budget("90s") == (None, 90.0)
    assert parse_budget("20000") == (20000, None)
    assert parse_budget("500g") == (500, None)
    for bad in ("", "0", "-5m", "fast"):
        with pytest.raises(BadArgumentError):
            parse_budget(bad)


def test_cli_writes_the_best_deck_and_the_report(spec, tmp_path, capsys):
    from cardenvs.cli import main

    out = tmp_path / "best.toml"
    code = main(["decks", "optimize", GAME, "--start", "aggro", "--field", "guard", "--pool", str(POOL),
                 "--budget", "600", "--seed", "2", "--candidates", "4", "--round-pairs", "4", "--confirm", "4",
                 "--out", str(out), "--quiet"])
    assert code == 0, capsys.readouterr().err
    pool = spec.load_pool([POOL])
    spec.load_deck(out, pool)  # a legal deck file of the game
    report = json.loads((tmp_path / "best.search.json").read_text())
    assert report["games"] <= 600 and report["confirm"]["games_per_deck"] == 8 and report["field"] == ["guard"]


@pytest.mark.parametrize("argv, needle", [
    (["decks", "optimize", GAME, "--start", "nosuchdeck"], "nosuchdeck"),
    (["decks", "optimize", GAME, "--start", "aggro", "--budget", "soon"], "--budget"),
    (["decks", "optimize", GAME], "--start"),
    (["balance", GAME, "--strong", "missing-report.json"], "missing-report.json"),
    (["balance", GAME, "--decks", "1"], "--decks"),
])
def test_cli_errors_are_one_line(spec, capsys, argv, needle):
    from cardenvs.cli import main

    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and needle in err, err


def test_ray_backend_gives_the_local_search(spec):
    """Issue 17: the search on a 2-worker local Ray equals the local backend's for the same seed and game budget."""
    pytest.importorskip("ray", reason="ray is not installed (pip install 'cardenvs[ray]'); CI installs it")
    from cardenvs.eval.optimize import optimize_deck
    from cardenvs.eval.tournament import make_backend

    def search(backend):
        r = optimize_deck(spec, "aggro", ["guard", "aggro"], "heuristic", budget_games=1_200, seed=2, candidates=4,
                          round_pairs=4, confirm_pairs=4, backend=backend).to_dict()
        r.pop("seconds")
        r["config"].pop("backend")
        for s in r["steps"]:
            s.pop("seconds")
        return r

    ray = make_backend("ray", workers=2)
    try:
        remote = search(ray)
    finally:
        ray.close()
    assert remote == search(None)


def test_cli_refuses_a_custom_pool_on_ray(capsys):
    from cardenvs.cli import main

    code = main(["decks", "optimize", GAME, "--start", "aggro", "--backend", "ray", "--pool", "x.toml"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--pool" in err


def test_cli_refuses_a_non_positive_worker_count(capsys):
    from cardenvs.cli import main

    code = main(["decks", "optimize", GAME, "--start", "aggro", "--backend", "ray", "--workers", "0"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--workers" in err


def test_a_search_that_accepts_no_swap_still_reports_what_it_measured(spec, pool, start, tmp_path):
    """With no accepted swap the HTML page was a header with no rows and no plot (issue 42 item 9): it must show the
    start deck's measured score, every swap tried with its result, and a plot of them."""
    from cardenvs.eval.optimize import optimize_deck, swaps_tried, write_optimize_report

    result = optimize_deck(spec, start, ["guard"], "heuristic", budget_games=200, seed=3, pool=pool, candidates=4,
                           round_pairs=2, confirm_pairs=2)
    assert result.steps == [] and result.stop_reason == "budget spent"
    paths = write_optimize_report(result, tmp_path / "best.toml")
    data = json.loads((tmp_path / "best.search.json").read_text())
    swaps = swaps_tried(data)
    assert len(swaps) == 4 and all(sw["games"] > 0 and sw["verdict"] for sw in swaps)
    assert data["races"][0]["incumbent"]["games"] > 0
    page = (tmp_path / "best.search.html").read_text()
    assert "start deck vs field: " in page and "on fresh seeds" in page
    assert page.count("<tr><td>1</td>") == 4  # one row per swap tried, race 1
    assert all(sw["move"].replace("+", "") in page.replace("+", "") for sw in swaps)
    png = tmp_path / "best.search.swaps.png"
    if png in paths:  # matplotlib present
        assert "best.search.swaps.png" in page
    text = (tmp_path / "best.search.txt").read_text()
    assert text.splitlines()[0].startswith("simulfight: pilot: heuristic") and "swaps tried: 4" in text


def test_the_search_page_shows_its_rows_in_a_browser(spec, pool, start, tmp_path):
    """A Chromium screenshot of the no-swap page (skipped without chromium): content reaches well below the header."""
    import shutil
    import subprocess

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("no chromium to take a screenshot with")
    PIL = pytest.importorskip("PIL.Image")
    from cardenvs.eval.optimize import optimize_deck, write_optimize_report

    result = optimize_deck(spec, start, ["guard"], "heuristic", budget_games=200, seed=3, pool=pool, candidates=4,
                           round_pairs=2)
    write_optimize_report(result, tmp_path / "best.toml")
    shot = tmp_path / "page.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1000,1400", f"--screenshot={shot}", str(tmp_path / "best.search.html")],
                   capture_output=True, timeout=120)
    if not shot.exists():
        pytest.skip("chromium did not write a screenshot here")
    import numpy as np

    img = np.asarray(PIL.open(shot).convert("L"))
    inked = np.flatnonzero((img < 200).any(axis=1))  # rows with dark pixels: text, table lines, the plot
    assert inked.size and inked.max() > 700, "the page ends near its header"
