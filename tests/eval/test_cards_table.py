"""``cardenvs cards GAME``: the pool as a table and as JSON, searchable; the names are the deck files' names."""
from __future__ import annotations

import json

import pytest

from cardenvs.cards_table import card_rows, search_rows
from cardenvs.cli import main
from cardenvs.core.registry import GAMES, get_game


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", sorted(GAMES))
def test_json_lists_every_card_under_the_name_deck_files_use(capsys, game):
    spec = get_game(game)
    pool = spec.load_pool(None)
    code, out, err = _run(capsys, ["cards", game, "--json"])
    assert code == 0, err
    rows = json.loads(out)
    assert [r["name"] for r in rows] == [c["name"] for c in pool.cards]
    assert [r["id"] for r in rows] == list(range(len(pool)))
    starter = spec.load_deck(spec.starter_decks()[0], pool)
    for card_id in set(starter.card_ids.tolist()):  # every name in a deck file is a row, spelled the same
        assert rows[card_id]["name"] in pool.by_name
    assert all(set(r) >= {"name", "cost", "stats", "text", "fields"} for r in rows)
    assert sum(bool(r["text"]) for r in rows) >= len(rows) // 3  # effects, skills or actions are shown as text


def test_table_shows_name_cost_stats_and_text(capsys):
    code, out, err = _run(capsys, ["cards", "levelneo", "--width", "200"])
    assert code == 0, err
    pool = get_game("levelneo").load_pool(None)
    card = pool.cards[0]
    assert f"levelneo: {len(pool)} cards" in out
    line = next(ln for ln in out.splitlines() if card["name"] in ln)
    assert f" {card['turn_cost']} " in line and str(card["ap"]) in line and card["color"] in line
    from cardenvs.games.levelneo.card_text import effect_text

    assert effect_text(card["effects"][0]) in line  # the text column, in words (the game's card_text.py)


def test_search_is_case_insensitive_in_name_and_text(capsys):
    spec = get_game("levelneo")
    rows = card_rows(spec.load_pool(None), spec)
    name = rows[5]["name"]
    code, out, _ = _run(capsys, ["cards", "levelneo", "--search", name.upper(), "--json"])
    found = json.loads(out)
    assert code == 0 and name in [r["name"] for r in found]
    assert all(name.lower() in (r["name"] + r["text"]).lower() or name.lower() in json.dumps(r["stats"]).lower()
               for r in found)
    by_text = search_rows(rows, "OPP_DISCARD")  # an op (the text says it in words): still found by its name
    assert by_text and all(any(e["op"] == "opp_discard" for e in r["fields"]["effects"]) for r in by_text)
    worded = search_rows(rows, "random card")  # and by the words of the text
    assert worded and all("random card" in r["text"] for r in worded)
    assert len(by_text) < len(rows)
    code, out, _ = _run(capsys, ["cards", "levelneo", "-s", "beast"])
    assert code == 0 and "matching 'beast'" in out


def test_no_match_and_wrong_game_are_one_line(capsys):
    code, out, err = _run(capsys, ["cards", "levelneo", "--search", "zzqqxx"])
    assert code == 1 and "no levelneo card matches 'zzqqxx'" in err and out == ""
    code, out, err = _run(capsys, ["cards", "levelnoe"])
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "unknown game 'levelnoe'" in err and "did you mean 'levelneo'" in err
    code, out, err = _run(capsys, ["cards", "levelneo", "--pool", "no-such-pool.toml"])
    assert code == 2 and "no-such-pool.toml" in err and len(err.strip().splitlines()) == 1


def test_a_custom_pool_file_is_listed(capsys):
    spec = get_game("levelneo")
    code, out, err = _run(capsys, ["cards", "levelneo", "--pool", str(spec.card_pool_path), "--json"])
    assert code == 0, err
    assert len(json.loads(out)) == len(spec.load_pool(None))


def test_decks_random_writes_legal_reproducible_deck_files(capsys, tmp_path):
    spec = get_game("heartbreak")
    pool = spec.load_pool(None)
    code = main(["decks", "random", "heartbreak", "-n", "3", "--seed", "5", "--out", str(tmp_path / "a")])
    assert code == 0, capsys.readouterr().err
    code = main(["decks", "random", "heartbreak", "-n", "3", "--seed", "5", "--out", str(tmp_path / "b")])
    assert code == 0
    files = sorted((tmp_path / "a").glob("*.toml"))
    assert [f.name for f in files] == [f"random-5-{i}.toml" for i in range(3)]
    for f in files:
        spec.load_deck(f, pool)  # legal under the game's own rules
        assert f.read_text() == (tmp_path / "b" / f.name).read_text()
    assert len({f.read_text().split("[cards]")[1] for f in files}) == 3
    capsys.readouterr()
    code = main(["decks", "random", "levelneo", "--start", "aggro", "--moves", "0"])
    out = capsys.readouterr().out
    assert code == 0 and out.count("[cards]") == 1
    code = main(["decks", "random", "levelneo", "-n", "0"])
    assert code == 2 and "-n" in capsys.readouterr().err
