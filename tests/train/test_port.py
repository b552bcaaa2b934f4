"""``train.port``: a policy moved to a newer observation layout computes what it did on the entries both layouts share,
gives new entries zero weight, follows renames, and refuses an old entry it cannot place."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from cardenvs.agents.policy import NumpyPolicy
from cardenvs.core.batch import get_spec
from cardenvs.core.errors import BadArgumentError
from cardenvs.testing import recorded_observations
from cardenvs.train.port import BIAS, block_names, layout_names, port_arrays, port_policy, read_renames

GAME = "levelneo"
ROOT = Path(__file__).resolve().parents[2]
DIM, HIDDEN, ACTIONS = 3, 7, get_spec(GAME).num_actions


@pytest.fixture(scope="module")
def new() -> dict:
    return layout_names(GAME)


def _old_layout(new: dict) -> dict:
    """An older layout: today's without the deck list, the queue and every partner flag, in another order (fields
    reversed), with the main characters' attacker and partner flags as one old entry ``attacking`` each."""
    keep = [n for n in new["names"] if not re.match(r"(deck_list|queue|held)", n) and not n.endswith(".partner")]
    keep = [n.replace(".attacker", ".attacking") if n.startswith(("main", "supports")) else n for n in keep]
    groups: dict[str, list[str]] = {}
    for n in keep:
        groups.setdefault(n.split("[")[0].split(".")[0], []).append(n)
    names = [n for g in reversed(list(groups)) for n in groups[g]]
    ids = {new["names"][i] for i in new["card_ids"]}
    return {"names": names, "card_ids": [i for i, n in enumerate(names) if n in ids]}


def _policy_arrays(old: dict, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    ids = np.asarray(old["card_ids"])
    rest = np.array([i for i in range(len(old["names"])) if i not in set(ids.tolist())])
    return {"pi_w0": rng.normal(size=(len(rest) + len(ids) * DIM, HIDDEN)).astype(np.float32),
            "pi_b0": rng.normal(size=HIDDEN).astype(np.float32),
            "action_w": rng.normal(size=(HIDDEN, ACTIONS)).astype(np.float32),
            "action_b": rng.normal(size=ACTIONS).astype(np.float32),
            "emb_table": rng.normal(size=(200, DIM)).astype(np.float32),
            "emb_card_idx": ids.astype(np.int32), "emb_rest_idx": rest.astype(np.int32)}


def _agent(arrays: dict) -> NumpyPolicy:
    return NumpyPolicy([(arrays["pi_w0"], arrays["pi_b0"])], (arrays["action_w"], arrays["action_b"]),
                       embed={"table": arrays["emb_table"], "card_idx": arrays["emb_card_idx"],
                              "rest_idx": arrays["emb_rest_idx"]})


def _old_rows(rows: np.ndarray, old: dict, new: dict, renames: dict) -> np.ndarray:
    """What the old layout's observation held in each of today's ``rows`` (float view)."""
    where = {n: i for i, n in enumerate(new["names"])}
    out = np.zeros((rows.shape[0], len(old["names"])), np.float32)
    for k, name in enumerate(old["names"]):
        for target, factor in renames.get(name, [(name, 1.0)]):
            out[:, k] += factor * (1.0 if target == BIAS else rows[:, where[target]])
    return out


def test_entry_names_follow_the_blocks_of_todays_layout(new: dict) -> None:
    """Every entry has one name; block fields are named by their block's fields, so a hand slot's AP and a field
    character's attacker flag can be found by name in any layout that has them."""
    names = new["names"]
    assert len(names) == len(set(names)) == get_spec(GAME).obs_dim
    assert "hand[3].card_id" in names and "main[1].attacker" in names and "supports[0][2].card.ap" in names
    assert "context.battle" in names and "deck_list[39]" in names
    assert all(names[i].endswith("card_id") or names[i].startswith(("deck_list", "deck_bottom", "choice_card",
                                                                   "queue"))
               for i in new["card_ids"])
    assert block_names(get_spec(GAME).obs_layout)["hand"] == "levelneo_card"


def test_ported_policy_computes_what_the_old_one_did_on_the_shared_entries(new: dict) -> None:
    """The old network on the old layout's view of a position and the ported one on today's view give the same
    logits, over recorded positions from random play; entries new today get zero weight."""
    old = _old_layout(new)
    renames = {n: [(n.replace(".attacking", ".attacker"), 1.0), (n.replace(".attacking", ".partner"), 1.0)]
               for n in old["names"] if n.endswith(".attacking")}
    arrays = _policy_arrays(old)
    ported, summary = port_arrays(arrays, old, new, renames)
    spec = get_spec(GAME)
    rows = spec.float_observation(recorded_observations(GAME, 6, 60)[0])
    assert (rows[:, [i for i, n in enumerate(new["names"]) if n.startswith("deck_list")]] != 0).any()
    before = _agent(arrays).logits(_old_rows(rows, old, new, renames))
    after = _agent(ported).logits(rows)
    np.testing.assert_allclose(after, before, rtol=1e-4, atol=1e-4)
    assert "deck_list" in summary["new_entries"] and "main.partner" in summary["new_entries"]
    w = ported["pi_w0"]
    rest = ported["emb_rest_idx"]
    new_rows = [k for k, p in enumerate(rest) if new["names"][p].startswith("held")]
    assert new_rows and not w[new_rows].any()


def test_a_rename_with_the_bias_term_moves_into_the_first_layers_bias(new: dict) -> None:
    """``main_phase_2`` (a flag) = ``main_phase`` - 1 + the setup steps' flags: the ported network matches the old
    one wherever that identity holds, the constant going into the first layer's bias."""
    old = {"names": [n for n in new["names"] if n != "context.main_phase"] + ["context.main_phase_2"],
           "card_ids": []}
    old["card_ids"] = [old["names"].index(new["names"][i]) for i in new["card_ids"]]
    renames = read_renames(ROOT / "train" / "warm_starts" / "levelneo_renames.toml")
    arrays = _policy_arrays(old, seed=1)
    ported, _ = port_arrays(arrays, old, new, renames)
    assert not np.array_equal(ported["pi_b0"], arrays["pi_b0"])
    spec = get_spec(GAME)
    rows = spec.float_observation(recorded_observations(GAME, 4, 40)[0])
    flag = _old_rows(rows, old, new, renames)[:, -1]
    assert set(np.unique(flag)) <= {0.0, 1.0} and flag.max() == 1.0  # the identity holds on real positions
    np.testing.assert_allclose(_agent(ported).logits(rows), _agent(arrays).logits(_old_rows(rows, old, new, renames)),
                               rtol=1e-4, atol=1e-4)


def test_an_old_entry_without_a_place_today_is_refused_by_name(new: dict) -> None:
    old = {"names": new["names"] + ["context.retired_flag"], "card_ids": new["card_ids"]}
    with pytest.raises(BadArgumentError, match="context.retired_flag"):
        port_arrays(_policy_arrays(old), old, new)


def test_instance_head_positions_are_renamed_too(new: dict) -> None:
    old = _old_layout(new)
    arrays = _policy_arrays(old)
    hand = [old["names"].index(f"hand[{i}].ap") for i in range(3)]
    arrays["inst0_rest_pos"] = np.array([[p] for p in hand], np.int32)
    arrays["inst0_id_pos"] = np.array([[old["names"].index(f"hand[{i}].card_id")] for i in range(3)], np.int32)
    renames = {n: [(n.replace(".attacking", ".attacker"), 1.0)] for n in old["names"] if n.endswith(".attacking")}
    ported, _ = port_arrays(arrays, old, new, renames)
    assert [new["names"][p] for p in ported["inst0_rest_pos"][:, 0]] == [f"hand[{i}].ap" for i in range(3)]
    assert [new["names"][p] for p in ported["inst0_id_pos"][:, 0]] == [f"hand[{i}].card_id" for i in range(3)]


def test_read_renames_refuses_a_malformed_file(tmp_path: Path) -> None:
    bad = tmp_path / "r.toml"
    bad.write_text('[renames]\n"a" = [["b"]]\n')
    with pytest.raises(BadArgumentError, match="renames.'a'"):
        read_renames(bad)


def _has_commit(rev: str) -> bool:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{rev}^{{commit}}"],
                              capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


#: a commit whose agents/policies/levelneo.npz is the 64x64 pilot of before issue 38 (1,440 observation entries)
OLD_PILOT_COMMIT = "70831d2"


@pytest.mark.skipif(not (_has_commit("f65ea96") and _has_commit(OLD_PILOT_COMMIT)),
                    reason="needs the repository's history (commits f65ea96 and 70831d2)")
def test_levelneos_pre_issue_38_policy_ports_from_the_commit_it_names(tmp_path: Path) -> None:
    """The levelneo pilot of before issue 38 (1,440 entries, commit f65ea96 in its metadata) ports to today's layout
    with the committed renames, and the result is what train/warm_starts/levelneo_ported.npz holds."""
    src = tmp_path / "old.npz"
    src.write_bytes(subprocess.run(["git", "-C", str(ROOT), "show", f"{OLD_PILOT_COMMIT}:agents/policies/levelneo.npz"],
                                   capture_output=True, check=True, timeout=60).stdout)
    out, summary = port_policy(src, GAME, tmp_path / "ported.npz",
                               renames=ROOT / "train" / "warm_starts" / "levelneo_renames.toml")
    assert summary["old_obs_dim"] == 1440 and summary["new_obs_dim"] == get_spec(GAME).obs_dim
    with np.load(out) as a, np.load(ROOT / "train" / "warm_starts" / "levelneo_ported.npz") as b:
        for k in ("pi_w0", "pi_b0", "emb_card_idx", "emb_rest_idx", "action_w"):
            np.testing.assert_array_equal(a[k], b[k])
