"""Trained MaskablePPO policies as batched agents: SB3 ``.zip`` files (needs torch) and shipped ``.npz`` files (numpy only).

``load("runs/x/final.zip", game="levelneo", trust_pickle=True)`` wraps an SB3 model: ``act`` is ``model.predict(obs,
action_masks=mask, deterministic=True)`` over many games at once. SB3 unpickles parts of a ``.zip``, so a crafted one
runs code: a ``.zip`` loads only when the caller says it trusts it (``trust_pickle=True``, ``--trust-pickle``) or this
process wrote it; the shipped ``.npz`` format is numbers only and needs no trust. Loaded models are cached by (resolved path, modification time): a
league that samples the same frozen checkpoint for thousands of episodes reads it from disk once.

The shipped format (``agents/policies/<game>.npz``, written by :func:`export`) holds the policy network only, no value
network and no optimizer state: for each hidden layer ``pi_w{k}`` (float32 ``[in, out]``) and ``pi_b{k}``, then
``action_w`` / ``action_b``, and ``meta``, a JSON string with ``format``, ``game``, ``rules_version``,
``obs_digest`` (:func:`observation_digest`), ``obs_dim``, ``num_actions``, ``activation``, ``config``, ``seed``,
``steps``, ``commit`` and ``date``; a policy for a compact observation (issue 41) also holds ``obs_divisors``, what
each stored observation value is divided by (``spec.obs_divisors``), and ``meta["obs_dtype"]``. The weights are those
of the float view the network learned on (train/features.py divides by the divisors); :class:`NumpyPolicy` folds the
divisors into the first layer at load (weight row / divisor) and reads the compact rows as they are. It runs the
forward pass with numpy (batched, masked argmax or sampling) and gives the same action probabilities as the torch
policy. :func:`load` refuses a file made for another
game, another rules version, another observation layout or another action count, and says which.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
import zipfile
import zlib
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from cardenvs.core.errors import BadArgumentError
from cardenvs.core.threads import split_rows

_BLAS: Any = None  # numpy's BLAS libraries (threadpoolctl), found at the first forward pass

#: models kept in memory, least recently used evicted first (a league pool is far smaller than this)
CACHE_SIZE = 32
_CACHE: "OrderedDict[tuple[str, int], Any]" = OrderedDict()
#: the shipped-policy file format; bump when the arrays or the metadata change meaning
FORMAT = "cardenvs-policy-1"
#: the value a masked-out logit takes (as sb3_contrib's MaskableCategorical does)
MASKED_LOGIT = -1e8
ACTIVATIONS = ("tanh", "relu")
#: environment variable naming a folder that holds ``<game>.npz`` files (searched before the shipped folder)
POLICY_DIR_ENV = "CARDENVS_POLICY_DIR"


# ----- where shipped policies live --------------------------------------------------------------------------------
def policy_dirs() -> list[Path]:
    """Folders searched for ``<game>.npz``: ``$CARDENVS_POLICY_DIR`` if set, then the repository's ``agents/policies/``."""
    dirs = []
    if os.environ.get(POLICY_DIR_ENV):
        dirs.append(Path(os.environ[POLICY_DIR_ENV]).expanduser())
    dirs.append(Path(__file__).resolve().parent / "policies")  # agents/policies, shipped as package data
    return dirs


def shipped_path(game: str) -> Path | None:
    """The shipped policy file for ``game``, or None when none ships yet."""
    for d in policy_dirs():
        p = d / f"{game}.npz"
        if p.exists():
            return p
    return None


def observation_digest(spec: Any) -> str:
    """A short fingerprint of a game's observation layout (field names and shapes, the stored dtype and every
    entry's divisor, card-id entries) and action count: a policy trained on another layout reads its inputs wrongly,
    so the loader compares this."""
    return _digest(spec, [f"dtype:{np.dtype(spec.obs_layout.dtype_scalar).name}",
                          f"divisors:{hashlib.sha256(spec.obs_layout.divisors().tobytes()).hexdigest()[:16]}"])


def _digest(spec: Any, stored: list[str]) -> str:
    """The layout's fingerprint: field names and shapes, then ``stored`` (how the rows are stored), card-id entries
    and the action count."""
    parts = [f"{f.name}:{tuple(f.shape)}" for f in spec.obs_layout.fields] + stored
    parts.append(f"card_ids:{tuple(getattr(spec, 'obs_card_ids', ()) or ())}")
    parts.append(f"actions:{spec.num_actions}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def float_view_digest(spec: Any) -> str:
    """The fingerprint a policy trained before the compact observation (issue 41) carries: the layout's field names
    and shapes, card-id entries and action count, without a dtype or divisors, for it read float32 rows. Such a policy
    reads a compact observation's float view (``spec.float_observation``, equal to the float32 observation value for
    value) unchanged when its fields are the same: the loader folds the divisors in (:func:`load_npz`)."""
    return _digest(spec, [])


def reads_float_view(meta: dict, spec: Any) -> bool:
    """Whether ``meta`` is a pre-issue-41 policy's (float32 rows, no divisors) of the same fields as ``spec``'s compact
    observation: its weights then read that observation's float view."""
    return (spec.obs_dtype != np.float32 and "obs_divisors" not in meta and meta.get("obs_dim") == spec.obs_dim
            and meta.get("obs_digest") == float_view_digest(spec))


def _rules_version(game: str) -> int | None:
    from cardenvs.core.registry import RULES_VERSIONS

    return RULES_VERSIONS.get(game)


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent, capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    commit = out.stdout.strip()
    try:
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=Path(__file__).resolve().parent, capture_output=True, text=True, timeout=10)
        if dirty.returncode == 0 and dirty.stdout.strip():
            commit += "+dirty"
    except (OSError, subprocess.SubprocessError):
        pass
    return commit


# ----- the numpy policy -------------------------------------------------------------------------------------------
def one_blas_thread() -> Any:
    """A context in which numpy's BLAS runs on one thread, as it was before on leaving it (threadpoolctl).

    A forward pass's products are small ([live games, 64-256] by [64-256, 256]): OpenBLAS's threads gain little on
    them and, spinning after each call, take the cores from the game kernel and the first layer's threads. levelneo's
    pilot ran 480 -> 750 games/s on the 2-core machine, and 2-6x faster again beside another busy process
    (docs/benchmarks). The limit is process-wide while it lasts, as BLAS's thread count is."""
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController

        _BLAS = ThreadpoolController().select(user_api="blas")
    return _BLAS.limit(limits=1)


@njit(cache=True, nogil=True)
def sparse_first_layer(rows, out, obs, bits, rest_row, rest_w, card_idx, slot_tables, bias):  # pragma: no cover
    """``out[i] = bias + sum over non-zero plain values v at observation position j of v * rest_w[rest_row[j]] + sum
    over card slots s of slot_tables[s, card id in slot s]`` (``rows``: the observation rows to read, so a
    tournament's live rows need no copy; ``rows`` and ``out`` first, the arrays cut into row slices for threads).

    The first layer over the observation as it is, without building the network's input: observations are sparse
    (2-6% of the values non-zero), so adding the weight row of each non-zero value does a few percent of a dense
    product's work; and a card-id entry's embedding goes through the linear first layer to a fixed vector per
    (slot, card) (``slot_tables``, made once at load), so an id costs one row addition instead of ``dim`` products.
    The row is scanned in observation order (``rest_row[j]``: position j's weight row, -1 for a card-id entry)
    rather than through a list of positions, eight values at a time: ``bits`` is a float32 ``obs`` seen as uint32
    (a compact integer ``obs`` is its own ``bits``), and a block whose eight words OR to 0 is all zeros and skipped
    without a branch per value (the scan is most of a narrow layer's time: 2.26 -> 1.87 us per levelneo row at 64
    wide, the same sums in the same order). Compact rows are read as stored: their divisors are folded into
    ``rest_w`` and ``slot_tables`` (card ids are stored unscaled); Numba compiles one version per row dtype. A slot
    that holds no card (id 0) adds nothing: ``NumpyPolicy`` passes ``slot_tables`` less each slot's id-0 row and adds
    those rows to ``bias`` once at load (relics' first layer 25% faster; the sums agree to float rounding).
    """
    n_ids = slot_tables.shape[1]
    hidden = bias.shape[0]
    width = rest_row.shape[0]
    # a fresh accumulator row: LLVM knows it aliases no weight row, so the adds vectorise (1.6x over adding into
    # out[i] directly, same sums in the same order)
    acc = np.empty(hidden, dtype=np.float32)
    blocks = width // 8
    for i in range(rows.shape[0]):
        row = obs[rows[i]]
        rb = bits[rows[i]]
        for k in range(hidden):
            acc[k] = bias[k]
        for blk in range(blocks + 1):
            lo = blk * 8
            hi = min(lo + 8, width)
            if blk < blocks and (rb[lo] | rb[lo + 1] | rb[lo + 2] | rb[lo + 3] | rb[lo + 4] | rb[lo + 5] | rb[lo + 6]
                                 | rb[lo + 7]) == 0:
                continue
            for j in range(lo, hi):
                v = np.float32(row[j])
                if v != 0.0:
                    r = rest_row[j]
                    if r >= 0:
                        for k in range(hidden):
                            acc[k] += v * rest_w[r, k]
        for s in range(card_idx.shape[0]):
            c = min(max(int(np.rint(np.float64(row[card_idx[s]]))), 0), n_ids - 1)
            if c == 0:  # no card: its row is in ``bias`` (most slots of a row are empty: relics 116 of 142)
                continue
            for k in range(hidden):
                acc[k] += slot_tables[s, c, k]
        for k in range(hidden):
            out[i, k] = acc[k]


@njit(cache=True, nogil=True, error_model="numpy")
def tanh_rows(x):  # pragma: no cover
    """``np.tanh(x, out=x)`` for a C-contiguous float32 matrix, 1.9x faster and at least as accurate: tanh(v) =
    v P(v^2) / Q(v^2), P of degree 6 and Q of degree 3 in v^2, fitted on [0, 9] for relative error (linearised least
    squares reweighted by the last denominator, then Lawson weights; 7e-9 relative in float64) and evaluated in
    float64, so each value is within 1 ulp of the exact tanh (0.61 ulp measured over 6M values; numpy's float32 tanh,
    1.37). Past |v| = 9 tanh rounds to +-1 (1 ulp from the exact value at 9 <= |v| < 9.01). NaN stays NaN.
    ``error_model="numpy"``: a float division that may not raise ZeroDivisionError vectorises (Q >= 1 anyway);
    numpy's tanh does not, on this AVX2 machine (214 us against 111 us for 256 x 256 values)."""
    for r in range(x.shape[0]):
        a = x[r]
        for i in range(a.shape[0]):
            v = np.float64(a[i])
            v = 9.0 if v > 9.0 else v
            v = -9.0 if v < -9.0 else v
            u = v * v
            p = 0.999999993394205 + u * (0.13084036576532065 + u * (0.0031039858058610477 + u * (
                1.1154618501218878e-05 + u * (-2.0226489865775125e-08 + u * (5.278560556303229e-11
                                                                              + u * -8.490291903767142e-14)))))
            q = 1.0 + u * (0.46417363683772356 + u * (0.02449529618633911 + u * 0.00025461883502941754))
            y = v * p / q
            y = 1.0 if v >= 9.0 else y
            y = -1.0 if v <= -9.0 else y
            a[i] = np.float32(y)


@njit(cache=True, nogil=True)
def instance_scores(src, inst, hrow, out, obs, pos, block_w, id_pos, id_tables, hs):  # pragma: no cover
    """``out[p] = hs[hrow[p]] + sum over l of v_l * block_w[l] + sum over j of id_tables[j, id_j]``, the instance
    head's hidden values before tanh, for each scored pair p: instance ``inst[p]`` of observation row ``src[p]``,
    whose block values are ``v_l = obs[src[p], pos[inst[p], l]]`` and whose card ids sit at ``id_pos[inst[p], j]``
    (the pairs' arrays first, cut into slices for threads).

    numpy gathered a [pairs, block] copy of the blocks by fancy indexing before its product; here each pair reads
    its block in place and skips its zeros (most of a block). tanh and the score stay in numpy, vectorised: a scalar
    tanh per value here made the kernel 5x slower (relics' head 3.5 -> 2.2 s of a 900-game profile).
    """
    width = block_w.shape[1]
    n_ids = id_tables.shape[1]
    acc = np.empty(width, dtype=np.float32)
    for p in range(src.shape[0]):
        row = obs[src[p]]
        i = inst[p]
        for k in range(width):
            acc[k] = hs[hrow[p], k]
        for l in range(pos.shape[1]):
            v = np.float32(row[pos[i, l]])
            if v != 0.0:
                for k in range(width):
                    acc[k] += v * block_w[l, k]
        for j in range(id_pos.shape[1]):
            c = min(max(int(np.rint(np.float64(row[id_pos[i, j]]))), 0), n_ids - 1)
            for k in range(width):
                acc[k] += id_tables[j, c, k]
        for k in range(width):
            out[p, k] = acc[k]


def _checked_rows(rows: Any, num_rows: int) -> np.ndarray | None:
    """``rows`` as a 1-D integer array of indices below ``num_rows`` (None stays None): checked before a kernel
    reads ``obs[rows[i]]``."""
    if rows is None:
        return None
    rows = np.asarray(rows)
    in_range = rows.size == 0 or (rows.dtype.kind in "iu" and 0 <= rows.min() <= rows.max() < num_rows)
    if rows.ndim != 1 or rows.dtype.kind not in "iu" or not in_range:
        raise BadArgumentError(f"rows must be integer indices of the {num_rows} observation rows")
    return rows


class NumpyPolicy:
    """The MaskablePPO policy network as numpy arrays: ``logits(obs)``, ``probs(obs, mask)``, ``act(...)``.

    ``deterministic=True`` takes the masked argmax (SB3's ``predict(deterministic=True)``); otherwise each row samples
    from its masked softmax with the agent's own generator (seeded by ``seed``).

    ``divisors`` (``float32[obs_dim]``, a compact observation's ``spec.obs_divisors``) and ``obs_dtype``: the policy
    reads rows stored in ``obs_dtype`` whose float view (stored / divisor) its weights were trained on; the divisors
    are folded into the first layer (and the instance head's block weights) once, here. Without them the rows are
    the float observation itself.
    """

    inputs_read_only = True  # act() never writes to obs or mask: tournaments may pass their buffers uncopied
    # decides from the observation and mask alone: callers build no seat view of the states for it (heartbreak's
    # round robin spent a tenth of its time viewing rows the policy never read)
    reads_state = False

    def __init__(self, hidden: list[tuple[np.ndarray, np.ndarray]], action: tuple[np.ndarray, np.ndarray],
                 activation: str = "tanh", meta: dict | None = None, name: str = "ppo", deterministic: bool = True,
                 seed: int | None = None, embed: dict | None = None, instance: list[dict] | None = None,
                 divisors: np.ndarray | None = None, obs_dtype: Any = np.float32) -> None:
        if activation not in ACTIVATIONS:
            raise BadArgumentError(f"unsupported activation {activation!r}; one of {', '.join(ACTIVATIONS)}")
        # arrays handed in directly get the file loader's checks too: the kernels below index by them unchecked
        _check_network("policy arrays", [(np.asarray(w), np.asarray(b)) for w, b in hidden],
                       (np.asarray(action[0]), np.asarray(action[1])),
                       None if not embed else {k: np.asarray(v) for k, v in embed.items()})
        self.hidden = [(np.ascontiguousarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in hidden]
        self.action = (np.ascontiguousarray(action[0], dtype=np.float32), np.asarray(action[1], dtype=np.float32))
        self.activation = activation
        # card-identity embedding (train/features.py): {"table": [n_cards + 1, dim], "card_idx", "rest_idx"}
        self.embed = None if not embed else {
            "table": np.ascontiguousarray(embed["table"], dtype=np.float32),
            "card_idx": np.asarray(embed["card_idx"], dtype=np.int64),
            "rest_idx": np.asarray(embed["rest_idx"], dtype=np.int64)}
        # per-card action ranges scored from their cards' observation blocks (train/instance_head.py)
        self.instance = [{k: (np.asarray(v, dtype=np.int64) if k in ("rest_pos", "id_pos") else
                              np.asarray(v, dtype=np.float32) if isinstance(v, np.ndarray) else v)
                          for k, v in g.items()} for g in (instance or [])]
        try:
            self.obs_dtype = np.dtype(obs_dtype)
        except TypeError:
            raise BadArgumentError(f"obs_dtype must be float32, int8, uint8 or int16, got {obs_dtype!r}") from None
        self.divisors = self._checked_divisors(divisors)
        self._first = self._first_layer_arrays() if self.hidden else None
        self._instance = self._instance_arrays()
        self.meta = dict(meta or {})
        self.name = name
        self.deterministic = deterministic
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def _checked_divisors(self, divisors: Any) -> np.ndarray | None:
        """The compact observation's divisors (None: float rows), checked: one positive finite value per position,
        1 at every card-id position (ids are stored unscaled), and only with an integer ``obs_dtype``."""
        if self.obs_dtype.name not in ("float32", "int8", "uint8", "int16"):
            raise BadArgumentError(f"obs_dtype must be float32, int8, uint8 or int16, got {self.obs_dtype.name}")
        if divisors is None:
            if self.obs_dtype != np.float32:
                raise BadArgumentError(f"a policy reading {self.obs_dtype.name} rows needs their divisors")
            return None
        d = np.asarray(divisors)
        if d.dtype.kind != "f" or d.shape != (self.obs_dim,) or not (np.isfinite(d) & (d > 0)).all():
            raise BadArgumentError(f"divisors must be {self.obs_dim} positive finite numbers, got "
                                   f"{d.dtype}{list(d.shape)}")
        if self.obs_dtype == np.float32:
            raise BadArgumentError("divisors belong to a compact (integer) observation; float32 rows have none")
        ids = [] if self.embed is None else self.embed["card_idx"]
        ids = np.concatenate([np.asarray(ids, np.int64).ravel()] + [np.asarray(g["id_pos"], np.int64).ravel()
                                                                    for g in self.instance])
        if ids.size and (d[ids] != 1).any():
            raise BadArgumentError("card-id positions must have divisor 1 (ids are stored unscaled)")
        return d.astype(np.float32)

    def _first_layer_arrays(self) -> tuple[np.ndarray, ...]:
        """``sparse_first_layer``'s arguments after the rows: the first layer split into the rows of plain
        observation values and, per card-id slot, the embedding table pushed through that slot's rows, then the bias;
        a compact observation's divisors folded into the plain rows (weight row j / divisor of position j); each
        slot's "no card" row (id 0) taken out of its table and added to the bias, so an empty slot adds nothing."""
        w, bias = self.hidden[0]
        if self.embed is None:
            if self.divisors is not None:
                w = np.ascontiguousarray(w / self.divisors[:, None], dtype=np.float32)
            return (np.arange(w.shape[0], dtype=np.int64), w, np.zeros(0, np.int64),
                    np.zeros((0, 1, w.shape[1]), np.float32), bias)
        rest_idx, card_idx, table = self.embed["rest_idx"], self.embed["card_idx"], self.embed["table"]
        n_rest, dim = len(rest_idx), table.shape[1]
        slot_w = w[n_rest:].reshape(len(card_idx), dim, w.shape[1])
        slot_tables = np.einsum("cd,sdh->sch", table, slot_w)
        bias = (bias + slot_tables[:, 0, :].sum(axis=0)).astype(np.float32)
        slot_tables = np.ascontiguousarray(slot_tables - slot_tables[:, :1, :], dtype=np.float32)
        # position -> weight row; rest_idx ascends (train.features.plain_indices), so the adds keep their order
        rest_row = np.full(n_rest + len(card_idx), -1, dtype=np.int64)
        rest_row[rest_idx] = np.arange(n_rest)
        rest_w = w[:n_rest] if self.divisors is None else w[:n_rest] / self.divisors[rest_idx][:, None]
        return rest_row, np.ascontiguousarray(rest_w, dtype=np.float32), card_idx, slot_tables, bias

    @property
    def obs_dim(self) -> int:
        if self.embed is not None:
            return int(len(self.embed["card_idx"]) + len(self.embed["rest_idx"]))
        return int((self.hidden[0][0] if self.hidden else self.action[0]).shape[0])

    @property
    def num_actions(self) -> int:
        return int(self.action[0].shape[1])

    def features(self, obs: np.ndarray) -> np.ndarray:
        """The network's input: the observation (its float view), with card ids replaced by their embeddings when it
        has any."""
        x = np.asarray(obs, dtype=np.float32).reshape(len(obs), -1)
        if self.divisors is not None:
            x = x / self.divisors
        if self.embed is None:
            return x
        table = self.embed["table"]
        ids = np.clip(np.rint(x[:, self.embed["card_idx"]]), 0, len(table) - 1).astype(np.int64)
        return np.concatenate([x[:, self.embed["rest_idx"]], table[ids].reshape(len(x), -1)], axis=1)

    def logits(self, obs: np.ndarray, rows: np.ndarray | None = None, legal: np.ndarray | None = None) -> np.ndarray:
        """Action logits [M, num_actions] of the observations ``obs`` (or of ``obs[rows]``, read in place).

        With ``legal`` ([M, num_actions] bool) the instance head scores only the legal actions of its ranges; the
        others keep the linear output's value, which a caller that masks them never reads. numpy's BLAS runs on one
        thread meanwhile (:func:`one_blas_thread`)."""
        with one_blas_thread():
            return self._logits(obs, rows, legal)

    def _logits(self, obs: np.ndarray, rows: np.ndarray | None, legal: np.ndarray | None) -> np.ndarray:
        rows = _checked_rows(rows, len(obs))
        if legal is not None:
            legal = np.asarray(legal)
            want = (len(obs) if rows is None else len(rows), self.num_actions)
            if legal.shape != want:
                raise BadArgumentError(f"legal must be a [{want[0]}, {want[1]}] array (one row per observation row "
                                       f"read), got shape {legal.shape}")
            legal = legal != 0
        obs = self._rows_in(obs)
        if obs.ndim != 2:
            obs = obs.reshape(len(obs), -1)
        # one check for every path: the first-layer and instance kernels read positions of a row of obs_dim values
        if obs.shape[1] != self.obs_dim:
            raise BadArgumentError(f"observations of size {obs.shape[1]} given to a policy for size {self.obs_dim}")
        if self._first is None:
            x = self.features(obs if rows is None else obs[rows])
        else:
            rows = np.arange(len(obs), dtype=np.int64) if rows is None else rows.astype(np.int64, copy=False)
            x = np.empty((len(rows), self.hidden[0][1].shape[0]), dtype=np.float32)
            # row slices on the batch core's threads (cardenvs.core.threads): the first layer is most of the pilot
            bits = obs.view(np.uint32) if obs.dtype == np.float32 else obs  # an integer value is its own bits
            split_rows(sparse_first_layer, (rows, x), (obs, bits, *self._first))
        # the dense layers on the same row slices: one BLAS thread each, the GIL released in every product and
        # activation (divinecross's 256-wide layers were a third of its pilot's time on one core)
        layers = [x] + [np.empty((len(x), w.shape[1]), dtype=np.float32) for w, _ in self.hidden[1:]]
        out = np.empty((len(x), self.num_actions), dtype=np.float32)
        split_rows(self._dense_rows, (*layers, out))
        x = layers[-1]
        if self.instance:
            self._instance_logits(obs, rows, x, out, legal)
        return out

    def _dense_rows(self, *layers: np.ndarray) -> None:
        """The network after the first layer's sums, for one slice of rows: ``layers[0]`` holds those sums (the
        input itself when there is no hidden layer), ``layers[k]`` receives hidden layer k and ``layers[-1]`` the
        action logits; each hidden layer is activated in place."""
        *hidden, out = layers
        for k, (w, b) in enumerate(self.hidden):
            if k > 0:
                np.matmul(hidden[k - 1], w, out=hidden[k])
                hidden[k] += b
            if self.activation == "tanh":
                tanh_rows(hidden[k])  # numpy's tanh was 2 of the 3 products' time (divinecross)
            else:
                np.maximum(hidden[k], 0.0, out=hidden[k])
        np.matmul(hidden[-1], self.action[0], out=out)
        out += self.action[1]

    def _rows_in(self, obs: Any) -> np.ndarray:
        """``obs`` as the C-contiguous rows the kernels read: a compact policy takes the stored rows only (float rows
        would be the float view, divided twice), a float policy any numbers (as float32)."""
        if self.divisors is None:
            return np.ascontiguousarray(obs, dtype=np.float32)
        obs = np.asarray(obs)
        if obs.dtype != self.obs_dtype:
            raise BadArgumentError(f"this policy reads the game's stored {self.obs_dtype.name} observation rows, got "
                                   f"{obs.dtype.name} (pass BatchGame.observe's rows, not their float view)")
        return np.ascontiguousarray(obs)

    def _instance_arrays(self) -> list[dict]:
        """The instance head folded for one BLAS product per range: the block weights split into the rows of plain
        values and, per card-id slot, the embedding table pushed through that slot's rows (a lookup then replaces
        gathering embeddings and multiplying them)."""
        folded = []
        for k, g in enumerate(self.instance):
            self._check_instance_range(k, g)
            n, L = g["rest_pos"].shape
            block_w, pos, id_tables = g["block_w"], g["rest_pos"], []
            if g["id_pos"].shape[1] and self.embed is None:
                pos = np.concatenate([g["rest_pos"], g["id_pos"]], axis=1)  # raw id values: plain inputs
            elif g["id_pos"].shape[1]:
                table = self.embed["table"]
                dim = table.shape[1]
                id_tables = [np.ascontiguousarray(table @ block_w[L + j * dim:L + (j + 1) * dim], dtype=np.float32)
                             for j in range(g["id_pos"].shape[1])]
                block_w = block_w[:L]
            width = block_w.shape[1]
            if self.divisors is not None:  # one divisor per block entry: the same in every instance's block
                d = self.divisors[pos]
                if (d != d[:1]).any():
                    raise BadArgumentError(f"instance head range {k}: its blocks' entries have different divisors "
                                           f"from instance to instance")
                block_w = block_w / d[0][:, None]
            folded.append({"a0": g["a0"], "n": n, "pos": np.ascontiguousarray(pos),
                           "block_w": np.ascontiguousarray(block_w, dtype=np.float32),
                           "id_pos": np.ascontiguousarray(g["id_pos"][:, :len(id_tables)]),
                           "id_tables": (np.stack(id_tables) if id_tables else np.zeros((0, 1, width), np.float32)),
                           "block_b": np.asarray(g["block_b"], np.float32),
                           "state_w": np.ascontiguousarray(g["state_w"], dtype=np.float32),
                           "score_w": np.ascontiguousarray(g["score_w"], dtype=np.float32),
                           "score_b": float(g["score_b"])})
        return folded

    def _check_instance_range(self, k: int, g: dict) -> None:
        """One clear error for an instance-head range whose arrays a kernel would read out of bounds (a damaged or
        hand-made file): its action range, its block positions and its weights' shapes."""
        where = f"instance head range {k}"
        a0, n = int(g["a0"]), int(g["n"])
        if a0 < 0 or n < 1 or a0 + n > self.num_actions:
            raise BadArgumentError(f"{where}: actions {a0}..{a0 + n - 1} lie outside the policy's {self.num_actions}")
        rest, ids = np.asarray(g["rest_pos"]), np.asarray(g["id_pos"])
        if rest.ndim != 2 or ids.ndim != 2 or rest.shape[0] != n or ids.shape[0] != n:
            raise BadArgumentError(f"{where}: block positions must be [{n}, values] arrays, got {rest.shape} and "
                                   f"{ids.shape}")
        for name, pos in (("block", rest), ("card-id", ids)):
            if pos.size and (pos.min() < 0 or pos.max() >= self.obs_dim):
                raise BadArgumentError(f"{where}: {name} positions outside the {self.obs_dim}-value observation")
        dim = self.embed["table"].shape[1] if self.embed is not None else 1
        want = rest.shape[1] + ids.shape[1] * dim
        bw, sw = np.asarray(g["block_w"]), np.asarray(g["state_w"])
        width = bw.shape[1] if bw.ndim == 2 else -1
        if self.hidden:
            last = self.hidden[-1][0].shape[1]
        else:  # the head reads the network's input: embedded card ids are dim values each
            last = (len(self.embed["rest_idx"]) + len(self.embed["card_idx"]) * dim) if self.embed is not None \
                else self.obs_dim
        if (bw.ndim != 2 or bw.shape[0] != want or np.shape(g["block_b"]) != (width,) or sw.shape != (last, width)
                or np.shape(g["score_w"]) != (width,)):
            raise BadArgumentError(f"{where}: weight shapes do not fit its {want} block values and the last hidden "
                                   f"layer's {last}")

    def _instance_logits(self, obs: np.ndarray, rows: np.ndarray | None, h: np.ndarray, out: np.ndarray,
                         legal: np.ndarray | None = None) -> None:
        """The instance head: each range's logit i from block i of the observation and the last hidden layer ``h``
        (one set of weights per range, shared by every i), written over the linear output's logits of the range.

        Only the (row, i) pairs it scores are computed (:func:`instance_scores`, on the batch core's threads): all
        pairs without ``legal``, else the legal ones (heartbreak: about 1 in 10)."""
        m = len(h)  # obs: float32 [*, obs_dim], checked by _logits
        for g in self._instance:
            n, a0 = g["n"], g["a0"]
            if legal is None:
                r, i = np.repeat(np.arange(m), n), np.tile(np.arange(n), m)
            else:
                r, i = np.nonzero(legal[:, a0:a0 + n])
                if len(r) == 0:
                    continue
            src = r if rows is None else rows[r]  # the pairs' rows of obs, read in place
            hs = h @ g["state_w"]
            hs += g["block_b"]
            u = np.empty((len(r), hs.shape[1]), dtype=np.float32)
            split_rows(instance_scores, (src.astype(np.int64, copy=False), i.astype(np.int64, copy=False),
                                         r.astype(np.int64, copy=False), u),
                       (obs, g["pos"], g["block_w"], g["id_pos"], g["id_tables"], hs))
            tanh_rows(u)
            out[r, a0 + i] = u @ g["score_w"] + g["score_b"]

    def probs(self, obs: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """Action probabilities [M, num_actions] (float64), illegal actions 0 where a mask is given."""
        legal = None if mask is None else np.broadcast_to(np.asarray(mask) != 0, (len(obs), self.num_actions))
        z = self.logits(obs, None, legal).astype(np.float64)
        if legal is not None:
            z = np.where(legal, z, MASKED_LOGIT)
        z -= z.max(axis=1, keepdims=True)
        np.exp(z, out=z)
        z /= z.sum(axis=1, keepdims=True)
        return z

    def act(self, obs: np.ndarray, mask: np.ndarray, states: np.ndarray | None = None,
            players: np.ndarray | None = None) -> np.ndarray:
        return self.act_rows(obs, mask, None)

    def act_rows(self, obs: np.ndarray, mask: np.ndarray, rows: np.ndarray | None,
                 players: np.ndarray | None = None) -> np.ndarray:
        """:meth:`act` for the rows ``rows`` of ``obs`` and ``mask`` (all rows when None), read in place: a
        tournament's live games without copying their observations."""
        rows = _checked_rows(rows, len(obs))
        n = len(obs) if rows is None else len(rows)
        if n == 0:
            return np.zeros(0, dtype=np.int32)
        legal = (np.asarray(mask) if rows is None else np.asarray(mask)[rows]) != 0
        if legal.shape != (n, self.num_actions):
            raise BadArgumentError(f"mask must be a [{n}, {self.num_actions}] array (one row per observation row "
                                   f"read), got shape {legal.shape}")
        # the sampler's draws are made for every row, so skipping the network below leaves the stream as it was
        u = None if self.deterministic else self.rng.random((n, 1))
        # a decision with one legal action has that action as its answer whatever the network says: it skips the
        # network (a quarter of heartbreak's decisions, 3% of divinecross's)
        single = np.count_nonzero(legal, axis=1) == 1
        if not single.any():
            return self._pick(obs, rows, legal, u)
        picks = np.argmax(legal, axis=1).astype(np.int32)
        ask = np.flatnonzero(~single)
        if ask.size:
            picks[ask] = self._pick(obs, ask if rows is None else rows[ask], legal[ask], None if u is None else u[ask])
        return picks

    def _pick(self, obs: np.ndarray, rows: np.ndarray | None, legal: np.ndarray, u: np.ndarray | None) -> np.ndarray:
        """The masked argmax (``u`` None) or the sample at uniforms ``u`` of the rows ``rows`` of ``obs``."""
        if u is None:
            z = self.logits(obs, rows, legal)
            z[~legal] = -np.inf
            return np.argmax(z, axis=1).astype(np.int32)
        p = self.probs(obs if rows is None else obs[rows], legal)
        cdf = np.cumsum(p, axis=1)
        picks = (cdf < u * cdf[:, -1:]).sum(axis=1)
        picks = np.minimum(picks, p.shape[1] - 1)
        # a rounding step can land on an illegal action of probability 0: take the most likely legal one instead
        bad = ~legal[np.arange(len(picks)), picks]
        if bad.any():
            picks[bad] = np.argmax(np.where(legal[bad], p[bad], -1.0), axis=1)
        return picks.astype(np.int32)


def _torch_policy_arrays(model: Any) -> tuple[list[tuple[np.ndarray, np.ndarray]], tuple[np.ndarray, np.ndarray], str,
                                              dict | None]:
    """The policy network of an SB3 MaskablePPO model (or its ``.policy``) as numpy arrays, and its card embedding."""
    import torch

    policy = getattr(model, "policy", model)
    fe = getattr(policy, "pi_features_extractor", policy.features_extractor)
    extractor = type(fe).__name__
    embed = None
    if extractor == "CardEmbeddingExtractor":
        embed = {"table": fe.embedding.weight.detach().cpu().numpy().copy(),
                 "card_idx": fe.card_idx.cpu().numpy().copy(), "rest_idx": fe.rest_idx.cpu().numpy().copy()}
    elif extractor not in ("FlattenExtractor", "ScaledFlattenExtractor"):
        raise BadArgumentError(f"only the MlpPolicy (FlattenExtractor, ScaledFlattenExtractor or "
                               f"CardEmbeddingExtractor) can be exported, not {extractor}")
    hidden = []
    activation = None
    mlp = getattr(policy.mlp_extractor, "inner", policy.mlp_extractor)  # the instance head wraps the extractor
    for layer in mlp.policy_net:
        if isinstance(layer, torch.nn.Linear):
            hidden.append((layer.weight.detach().cpu().numpy().T.copy(), layer.bias.detach().cpu().numpy().copy()))
        elif isinstance(layer, torch.nn.Tanh):
            activation = "tanh"
        elif isinstance(layer, torch.nn.ReLU):
            activation = "relu"
        else:
            raise BadArgumentError(f"cannot export a policy layer {type(layer).__name__}")
    a = policy.action_net
    a = getattr(a, "base", a)  # the instance head's linear output
    action = (a.weight.detach().cpu().numpy().T.copy(), a.bias.detach().cpu().numpy().copy())
    return hidden, action, activation or "tanh", embed


def _torch_divisors(model: Any) -> np.ndarray | None:
    """The compact-observation divisors the model's features extractor divides by (train/features.py), or None."""
    policy = getattr(model, "policy", model)
    fe = getattr(policy, "pi_features_extractor", policy.features_extractor)
    d = getattr(fe, "divisors", None)
    return None if d is None else d.detach().cpu().numpy().astype(np.float32)


def _torch_instance_head(model: Any) -> list[dict] | None:
    """The instance head of a model with ``train.instance_head.InstanceHeadPolicy`` as numpy arrays (None without)."""
    policy = getattr(model, "policy", model)
    head = policy.action_net
    if not hasattr(head, "block"):
        return None

    def arr(t: Any) -> np.ndarray:
        return t.detach().cpu().numpy().copy()

    return [{"a0": int(g["a0"]), "n": int(g["n"]), "rest_pos": np.asarray(g["rest_pos"], np.int64),
             "id_pos": np.asarray(g["id_pos"], np.int64).reshape(int(g["n"]), -1),
             "block_w": arr(head.block[k].weight).T, "block_b": arr(head.block[k].bias),
             "state_w": arr(head.state[k].weight).T, "score_w": arr(head.score[k].weight)[0],
             "score_b": arr(head.score[k].bias)[0]}
            for k, g in enumerate(policy.instance_groups)]


def export(model: Any, out: str | Path, game: str, config: dict | None = None, seed: int | None = None,
           steps: int | None = None, extra: dict | None = None, weights_dtype: str = "float32",
           trust_pickle: bool = False) -> Path:
    """Write the policy network of ``model`` (a MaskablePPO, or the path of its ``.zip``: loaded only when trusted,
    see :func:`check_pickle_trust`) to ``out`` (``.npz``) with the metadata the loader checks. Returns the path
    written.

    ``weights_dtype="float16"`` halves the file (relics' 9,036-value observation makes a [256, 256] network 9 MB in
    float32); the forward pass still computes in float32, and probabilities move by about 1e-3."""
    if weights_dtype not in ("float32", "float16"):
        raise BadArgumentError(f"weights_dtype must be float32 or float16, got {weights_dtype!r}")
    from cardenvs.core.batch import get_spec

    if isinstance(model, (str, Path)):
        model = load_model(model, trust_pickle=trust_pickle)
    spec = get_spec(game)
    hidden, action, activation, embed = _torch_policy_arrays(model)
    instance = _torch_instance_head(model)
    obs_dim = (len(embed["card_idx"]) + len(embed["rest_idx"])) if embed else (hidden[0][0] if hidden else action[0]).shape[0]
    if obs_dim != spec.obs_dim or action[0].shape[1] != spec.num_actions:
        raise BadArgumentError(f"the model reads {obs_dim} observation values and has {action[0].shape[1]} actions; "
                               f"{spec.name} has {spec.obs_dim} and {spec.num_actions}")
    trained = _torch_divisors(model)
    compact = spec.obs_dtype != np.float32
    if (trained is not None) != compact or (compact and not np.array_equal(trained, spec.obs_divisors)):
        raise BadArgumentError(f"the model was trained on {'a compact' if trained is not None else 'a float32'} "
                               f"observation with other divisors than {spec.name}'s {spec.obs_dtype.name} observation "
                               f"(train/features.py divides by spec.obs_divisors): retrain it on the current one")
    meta = {
        "format": FORMAT, "game": spec.name, "rules_version": _rules_version(spec.name),
        "obs_digest": observation_digest(spec), "obs_dim": int(spec.obs_dim), "num_actions": int(spec.num_actions),
        "activation": activation, "hidden": [int(w.shape[1]) for w, _ in hidden],
        "card_embedding": int(embed["table"].shape[1]) if embed else 0,
        "instance_head": int(instance[0]["block_w"].shape[1]) if instance else 0,
        "config": config, "seed": seed,
        "steps": int(steps if steps is not None else getattr(model, "num_timesteps", 0) or 0),
        "commit": _git_commit(), "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "weights_dtype": weights_dtype, "obs_dtype": spec.obs_dtype.name,
    }
    if extra:
        meta.update(extra)
    arrays: dict[str, np.ndarray] = {}
    for k, (w, b) in enumerate(hidden):
        arrays[f"pi_w{k}"] = w.astype(weights_dtype)
        arrays[f"pi_b{k}"] = b.astype(weights_dtype)
    arrays["action_w"] = action[0].astype(weights_dtype)
    arrays["action_b"] = action[1].astype(weights_dtype)
    if embed:
        arrays["emb_table"] = embed["table"].astype(weights_dtype)
        arrays["emb_card_idx"] = embed["card_idx"].astype(np.int32)
        arrays["emb_rest_idx"] = embed["rest_idx"].astype(np.int32)
    for k, g in enumerate(instance or []):
        for key in ("block_w", "block_b", "state_w", "score_w"):
            arrays[f"inst{k}_{key}"] = np.asarray(g[key]).astype(weights_dtype)
        arrays[f"inst{k}_score_b"] = np.asarray([g["score_b"]], dtype=weights_dtype)
        arrays[f"inst{k}_range"] = np.asarray([g["a0"], g["n"]], dtype=np.int32)
        arrays[f"inst{k}_rest_pos"] = g["rest_pos"].astype(np.int32)
        arrays[f"inst{k}_id_pos"] = g["id_pos"].astype(np.int32)
    if spec.obs_dtype != np.float32:  # the weights read the float view: the loader folds these in
        arrays["obs_divisors"] = np.asarray(spec.obs_divisors, dtype=np.float32)
    arrays["meta"] = np.array(json.dumps(meta, default=str))
    out = Path(out)
    return _write_npz(arrays, out if out.suffix == ".npz" else out.with_suffix(".npz"))


def _write_npz(arrays: dict[str, np.ndarray], out: Path) -> Path:
    """Write a policy file whole or not at all (a temporary file renamed over ``out``)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, out)
    return out


def certify(src: str | Path, game: Any, out: str | Path, bars: dict) -> Path:
    """Write ``src``, a policy of this game's observation fields trained on an older rules version (or on the float32
    observation before issue 41), as a policy of the current rules and observation, with the strength ``bars`` it
    measured on them (:mod:`train.bars`; only a summary whose every bar is met is taken). The weights are unchanged;
    the metadata keeps what it was trained on (``certified``: the rules version, observation digest, and the bars).
    A policy the current game measured is what the default pilot needs; where it was trained is history."""
    from cardenvs.core.batch import get_spec

    spec = get_spec(game)
    p = _resolve(src)
    load_npz(p, game=spec.name, older_rules=True)  # the fields and actions fit: only the rules version may differ
    if not bars.get("passed") or bars.get("game") != spec.name:
        raise BadArgumentError(f"{p}: a policy is certified only with a bars summary of {spec.name} whose every bar "
                               f"is met (python -m cardenvs.train.bars)")
    with np.load(p, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    old = {"rules_version": meta.get("rules_version"), "obs_digest": meta.get("obs_digest")}
    if "obs_divisors" not in arrays and spec.obs_dtype != np.float32:  # it read the float view: fold as export does
        arrays["obs_divisors"] = np.asarray(spec.obs_divisors, dtype=np.float32)
    meta.update({"rules_version": _rules_version(spec.name), "obs_digest": observation_digest(spec),
                 "obs_dtype": spec.obs_dtype.name})
    meta["certified"] = {
        "trained_on": old, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "commit": _git_commit(),
        "bars": {k: bars[k] for k in ("games", "seed", "deck_bank", "train_seed", "test_pairs") if k in bars},
        "checks": [{k: r[k] for k in ("opponent", "check", "win_rate", "ci95", "seat_win_rates", "pair_ci95")
                    if k in r} for r in bars.get("checks", [])]}
    arrays["meta"] = np.array(json.dumps(meta, default=str))
    out = _write_npz(arrays, Path(out))
    load_npz(out, game=spec.name)  # now a policy of the current game
    return out


#: the most bytes one member of a policy file may hold once decompressed, and all members together (relics' 256-wide
#: float32 first layer is 9.5 MB): a small compressed file cannot make the loader allocate gigabytes
MAX_MEMBER_BYTES = 64 * 2**20
MAX_POLICY_BYTES = 256 * 2**20


def _check_members(p: Path, path: str | Path) -> None:
    """Refuse, before any member is read, a policy file whose members would decompress past the caps, declare more
    data than they hold, or hold Python objects (read from the zip directory and each member's ``.npy`` header)."""
    try:
        with zipfile.ZipFile(p) as zf:
            total = 0
            for info in zf.infolist():
                total += info.file_size
                if info.file_size > MAX_MEMBER_BYTES or total > MAX_POLICY_BYTES:
                    raise BadArgumentError(
                        f"{path!s}: member {info.filename!r} decompresses to {info.file_size:,} bytes ({total:,} so "
                        f"far); a policy file may hold at most {MAX_MEMBER_BYTES:,} bytes a member and "
                        f"{MAX_POLICY_BYTES:,} in all")
                if not info.filename.endswith(".npy"):
                    continue
                with zf.open(info) as fh:
                    version = np.lib.format.read_magic(fh)
                    read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                            else np.lib.format.read_array_header_2_0)
                    shape, _, dtype = read(fh)
                if dtype.hasobject:
                    raise BadArgumentError(f"{path!s}: member {info.filename!r} holds Python objects; a policy "
                                           f"file holds numbers only")
                if int(np.prod(shape, dtype=object)) * dtype.itemsize > info.file_size:
                    raise BadArgumentError(f"{path!s}: member {info.filename!r} declares a {dtype} array of shape "
                                           f"{shape}, more data than its {info.file_size:,} bytes")
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, zlib.error) as exc:
        if isinstance(exc, BadArgumentError):
            raise
        raise BadArgumentError(f"{path!s} is not a cardenvs policy file (a damaged or foreign .npz: {exc})") from None


def _weights(path: str | Path, name: str, a: np.ndarray, ndim: int) -> np.ndarray:
    """A weight array of a policy file: float16/32/64, ``ndim`` dimensions, every value finite."""
    if a.dtype.kind != "f" or a.dtype.itemsize not in (2, 4, 8):
        raise BadArgumentError(f"{path!s}: {name} must hold float weights, got {a.dtype}")
    if a.ndim != ndim or 0 in a.shape[:1]:
        raise BadArgumentError(f"{path!s}: {name} must be a {ndim}-D array, got shape {a.shape}")
    if not np.isfinite(a).all():
        raise BadArgumentError(f"{path!s}: {name} holds NaN or infinite weights (a float16 overflow?): this "
                               f"policy cannot play")
    return a


def _indices(path: str | Path, name: str, a: np.ndarray, ndim: int) -> np.ndarray:
    """An index array of a policy file: integers, ``ndim`` dimensions."""
    if a.dtype.kind not in "iu" or a.ndim != ndim:
        raise BadArgumentError(f"{path!s}: {name} must be a {ndim}-D integer array, got {a.dtype}{list(a.shape)}")
    return a.astype(np.int64)


def _check_network(path: str | Path, hidden: list, action: tuple, embed: dict | None) -> None:
    """Every weight and index of a policy file fits the others (no game needed): layer widths chain, the card
    embedding's positions are each observation position exactly once, so no kernel reads outside a row."""
    for k, (w, b) in enumerate(hidden):
        _weights(path, f"pi_w{k}", w, 2)
        _weights(path, f"pi_b{k}", b, 1)
        if b.shape[0] != w.shape[1]:
            raise BadArgumentError(f"{path!s}: pi_b{k} has {b.shape[0]} values for the {w.shape[1]} outputs of pi_w{k}")
        if k and w.shape[0] != hidden[k - 1][0].shape[1]:
            raise BadArgumentError(f"{path!s}: pi_w{k} reads {w.shape[0]} values; pi_w{k - 1} gives "
                                   f"{hidden[k - 1][0].shape[1]}")
    aw, ab = _weights(path, "action_w", action[0], 2), _weights(path, "action_b", action[1], 1)
    if ab.shape[0] != aw.shape[1]:
        raise BadArgumentError(f"{path!s}: action_b has {ab.shape[0]} values for the {aw.shape[1]} actions of action_w")
    if hidden and aw.shape[0] != hidden[-1][0].shape[1]:
        raise BadArgumentError(f"{path!s}: action_w reads {aw.shape[0]} values; the last hidden layer gives "
                               f"{hidden[-1][0].shape[1]}")
    first = hidden[0][0] if hidden else aw
    if embed is None:
        return
    table = _weights(path, "emb_table", embed["table"], 2)
    card, rest = (_indices(path, f"emb_{key}", embed[key], 1) for key in ("card_idx", "rest_idx"))
    obs_dim = len(card) + len(rest)
    # each observation position read once: as a plain value (rest) or as a card id (card); positions past the row
    # were the SIGSEGV of issue 43
    if not np.array_equal(np.sort(np.concatenate([card, rest])), np.arange(obs_dim)):
        raise BadArgumentError(f"{path!s}: emb_card_idx and emb_rest_idx must name each of the {obs_dim} observation "
                               f"positions once (an index outside the observation or repeated)")
    width = len(rest) + len(card) * table.shape[1]
    if first.shape[0] != width:
        name = "pi_w0" if hidden else "action_w"
        raise BadArgumentError(f"{path!s}: {name} reads {first.shape[0]} values; the card embedding gives {width}")


def read_npz(path: str | Path) -> tuple[dict, list[tuple[np.ndarray, np.ndarray]], tuple[np.ndarray, np.ndarray],
                                        dict | None, list[dict] | None]:
    """``(meta, hidden layers, action layer, card embedding or None, instance head or None)`` of a shipped-policy
    file, checked on its own (no game): member sizes capped before reading, dtypes, shapes that chain, index arrays
    within the observation, finite weights. A damaged or hostile file is one :class:`BadArgumentError` naming the
    file and the field. A compact-observation policy's divisors are ``meta["obs_divisors"]`` (an array, popped by
    :func:`load_npz`)."""
    p = _resolve(path)
    _check_members(p, path)
    try:
        with np.load(p, allow_pickle=False) as data:
            try:
                meta = json.loads(str(data["meta"]))
            except ValueError as exc:
                raise BadArgumentError(f"{path!s}: meta is not JSON ({exc})") from None
            if not isinstance(meta, dict):
                raise BadArgumentError(f"{path!s}: meta must be a JSON object, got {type(meta).__name__}")
            if meta.get("format") != FORMAT:
                raise BadArgumentError(f"{path!s}: unknown policy format {meta.get('format')!r} (this cardenvs reads "
                                       f"{FORMAT})")
            hidden = []
            k = 0
            while f"pi_w{k}" in data.files:
                hidden.append((data[f"pi_w{k}"], data[f"pi_b{k}"]))
                k += 1
            action = (data["action_w"], data["action_b"])
            embed = None
            if "emb_table" in data.files:
                embed = {"table": data["emb_table"], "card_idx": data["emb_card_idx"],
                         "rest_idx": data["emb_rest_idx"]}
            _check_network(path, hidden, action, embed)
            if "obs_divisors" in data.files:
                meta["obs_divisors"] = _weights(path, "obs_divisors", data["obs_divisors"], 1)
            instance = []
            while f"inst{len(instance)}_range" in data.files:
                k = len(instance)
                rng = _indices(path, f"inst{k}_range", data[f"inst{k}_range"], 1)
                if rng.shape != (2,) or rng[1] < 1:
                    raise BadArgumentError(f"{path!s}: inst{k}_range must be [first action, count >= 1], got {rng}")
                a0, n = (int(v) for v in rng)
                id_pos = _indices(path, f"inst{k}_id_pos", data[f"inst{k}_id_pos"], data[f"inst{k}_id_pos"].ndim)
                if id_pos.size % n:
                    raise BadArgumentError(f"{path!s}: inst{k}_id_pos holds {id_pos.size} positions, not a multiple "
                                           f"of its {n} instances")
                score_b = _weights(path, f"inst{k}_score_b", data[f"inst{k}_score_b"], 1)
                if score_b.shape != (1,):
                    raise BadArgumentError(f"{path!s}: inst{k}_score_b must hold one value, got {score_b.shape}")
                instance.append({"a0": a0, "n": n,
                                 "rest_pos": _indices(path, f"inst{k}_rest_pos", data[f"inst{k}_rest_pos"], 2),
                                 "id_pos": id_pos.reshape(n, -1), "score_b": float(score_b[0]),
                                 **{key: _weights(path, f"inst{k}_{key}", data[f"inst{k}_{key}"],
                                                  2 if key in ("block_w", "state_w") else 1)
                                    for key in ("block_w", "block_b", "state_w", "score_w")}})
    except KeyError as exc:
        raise BadArgumentError(f"{path!s}: member {exc} is missing (not a complete cardenvs policy file)") from None
    except (OSError, ValueError, IndexError, TypeError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        if isinstance(exc, BadArgumentError):
            raise
        raise BadArgumentError(f"{path!s} is not a cardenvs policy file ({exc})") from None
    return meta, hidden, action, embed, instance or None


def stale_rules(meta: dict, game: Any) -> int | None:
    """The older rules version a policy was trained on, or None when it matches the game's current version."""
    from cardenvs.core.batch import get_spec

    trained, version = meta.get("rules_version"), _rules_version(get_spec(game).name)
    return trained if trained != version else None


def check_meta(meta: dict, game: Any, path: str | Path, older_rules: bool = False) -> None:
    """Refuse a policy made for another game, rules version, observation layout or action count. ``older_rules``
    admits a policy trained on an older rules version of the same observation layout and actions: it still reads
    every observation right, but its measured strength predates the rule changes (a pilot asked for by name; the
    default pilot never takes one, see ``cardenvs.agents.default_pilot``)."""
    from cardenvs.core.batch import get_spec

    spec = get_spec(game)
    retrain = f"retrain it with `cardenvs train {spec.name}` and export it again"
    if meta.get("game") != spec.name:
        raise BadArgumentError(f"{path!s} is a policy for {meta.get('game')!r}, not {spec.name}")
    version = _rules_version(spec.name)
    trained = meta.get("rules_version")
    admitted = (older_rules and isinstance(trained, int) and not isinstance(trained, bool) and version is not None
                and 0 <= trained < version)
    if trained != version and not admitted:
        raise BadArgumentError(f"{path!s} was trained on {spec.name} rules version {meta.get('rules_version')}; this "
                               f"cardenvs plays version {version}: {retrain}")
    if (meta.get("obs_dim") != spec.obs_dim or meta.get("obs_digest") != observation_digest(spec)) \
            and not reads_float_view(meta, spec):
        raise BadArgumentError(f"{path!s} was trained on another {spec.name} observation layout (size "
                               f"{meta.get('obs_dim')}, digest {meta.get('obs_digest')}; now size {spec.obs_dim}, "
                               f"digest {observation_digest(spec)}): {retrain}")
    if meta.get("num_actions") != spec.num_actions:
        raise BadArgumentError(f"{path!s} has {meta.get('num_actions')} actions; {spec.name} has {spec.num_actions}: "
                               f"{retrain}")


def load_npz(path: str | Path, game: Any = None, seed: int | None = None, deterministic: bool = True,
             name: str | None = None, older_rules: bool = False) -> NumpyPolicy:
    """A shipped-policy file as a numpy agent; with ``game``, checked against that game first (``older_rules``: see
    :func:`check_meta`)."""
    p = _resolve(path)
    meta, hidden, action, embed, instance = read_npz(p)
    if game is not None:
        check_meta(meta, game, p, older_rules=older_rules)
    divisors = meta.pop("obs_divisors", None)
    if game is not None and divisors is None:
        from cardenvs.core.batch import get_spec

        spec = get_spec(game)
        if reads_float_view(meta, spec):  # trained on the float32 rows, which are the compact rows' float view
            divisors, meta["obs_dtype"] = spec.obs_divisors, np.dtype(spec.obs_dtype).name
    try:
        agent = NumpyPolicy(hidden, action, meta.get("activation", "tanh"), meta=meta,
                            name=name or f"ppo:{p.stem}", deterministic=deterministic, seed=seed, embed=embed,
                            instance=instance, divisors=divisors,
                            obs_dtype=str(meta.get("obs_dtype", "float32")) if divisors is not None else np.float32)
    except BadArgumentError as exc:  # the instance head's ranges and shapes, the activation: name the file
        raise BadArgumentError(f"{p}: {exc}") from None
    if game is not None:  # the arrays themselves, not only the metadata, must fit the game
        from cardenvs.core.batch import get_spec

        spec = get_spec(game)
        if agent.obs_dim != spec.obs_dim or agent.num_actions != spec.num_actions:
            raise BadArgumentError(f"{p}: its arrays read {agent.obs_dim} observation values and score "
                                   f"{agent.num_actions} actions; {spec.name} has {spec.obs_dim} and "
                                   f"{spec.num_actions} (the metadata says otherwise: a damaged or hand-made file)")
    return agent


# ----- SB3 models -------------------------------------------------------------------------------------------------
class PolicyAgent:
    """Batched agent over a MaskablePPO model; ``deterministic=False`` samples from the policy instead."""

    reads_state = False  # the model reads the observation and mask only

    def __init__(self, model: Any, name: str = "ppo", deterministic: bool = True, seed: int | None = None) -> None:
        self.model = model
        self.name = name
        self.deterministic = deterministic
        self.seed = seed
        if seed is not None and not deterministic:
            import torch

            # sampling draws from torch's generator; seeding it keeps a sampled evaluation reproducible
            torch.manual_seed(int(seed))

    @property
    def obs_dim(self) -> int:
        return int(np.prod(self.model.observation_space.shape))

    def act(self, obs: np.ndarray, mask: np.ndarray, states: np.ndarray | None = None,
            players: np.ndarray | None = None) -> np.ndarray:
        if obs.shape[0] == 0:
            return np.zeros(0, dtype=np.int32)
        actions, _ = self.model.predict(obs, action_masks=np.asarray(mask).astype(bool),
                                        deterministic=self.deterministic)
        return np.asarray(actions, dtype=np.int32).reshape(obs.shape[0])


def _resolve(path: str | Path) -> Path:
    """A policy file's path: as given (from the current folder), else, for a relative path, from the repository
    root, where the shipped configs' paths start (``[bc] teacher = "ppo:agents/policies/teachers/levelneo.npz"``)."""
    given = Path(path).expanduser()
    root = Path(__file__).resolve().parents[1]
    for p in [given] if given.is_absolute() else [given, root / given]:
        if not p.exists() and p.suffix not in (".zip", ".npz") and p.with_suffix(".zip").exists():
            p = p.with_suffix(".zip")  # SB3 saves "name" as "name.zip"; accept both spellings
        if p.exists():
            return p.resolve()
    where = "" if given.is_absolute() else f" (looked in {Path.cwd()} and in {root})"
    raise BadArgumentError(f"no saved policy at {path!s}{where}")


#: SB3 ``.zip`` files this process may unpickle: the ones it wrote itself (a training run's checkpoints) and the ones
#: the user named with ``--trust-pickle`` (or ``trust_pickle=True``)
_TRUSTED_ZIPS: set[str] = set()
PICKLE_WARNING = ("an SB3 .zip holds pickled Python objects, and loading one runs whatever code its author put in "
                  "it")


def trust_pickle_file(path: str | Path) -> Path:
    """Allow this process to load the SB3 ``.zip`` at ``path`` (see :func:`check_pickle_trust`). For files this process
    wrote, and for files the user vouched for with ``--trust-pickle``; never on a configuration file's word."""
    p = _resolve(path)
    _TRUSTED_ZIPS.add(str(p))
    return p


_TRUST_EVERY_ZIP = [False]  # inside trusting_every_zip(): a command whose user vouched for all the zips it names


class trusting_every_zip:  # noqa: N801 (used as a context manager, like a function)
    """``with trusting_every_zip(flag):`` every SB3 ``.zip`` loaded meanwhile is trusted (and recorded as trusted) when
    ``flag`` is true: ``cardenvs train --trust-pickle``, whose configuration files name teacher and league zips that
    are checked while they are read. Without the flag it changes nothing."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = bool(enabled)

    def __enter__(self) -> "trusting_every_zip":
        self.before = _TRUST_EVERY_ZIP[0]
        _TRUST_EVERY_ZIP[0] = self.before or self.enabled
        return self

    def __exit__(self, *exc: Any) -> None:
        _TRUST_EVERY_ZIP[0] = self.before


def trusted_zips() -> list[str]:
    """The SB3 ``.zip`` files this process may load (for worker processes: Ray tasks trust the same files)."""
    return sorted(_TRUSTED_ZIPS)


def check_pickle_trust(path: str | Path, trust_pickle: bool = False) -> Path:
    """The resolved path of an SB3 ``.zip`` that may be loaded, or a :class:`BadArgumentError` that says why not: such
    a file is unpickled, so a crafted one runs code (issue 43). The pickle-free ``.npz`` export needs no trust."""
    p = _resolve(path)
    if trust_pickle or _TRUST_EVERY_ZIP[0]:
        _TRUSTED_ZIPS.add(str(p))
    elif str(p) not in _TRUSTED_ZIPS:
        raise BadArgumentError(
            f"{p}: refusing to load an SB3 .zip that was not marked as trusted: {PICKLE_WARNING}. Load it only "
            f"if you made it or trust whoever did: add --trust-pickle on the command line (Python: trust_pickle=True), "
            f"or use its pickle-free export (python -m cardenvs.agents.policy MODEL.zip GAME OUT.npz --trust-pickle, "
            f"then ppo:OUT.npz)")
    return p


#: the help text of every command's ``--trust-pickle``
TRUST_HELP = ("load ppo:FILE.zip pilots although SB3 unpickles them (a crafted .zip runs code): only for models you "
              "made or trust; prefer the pickle-free .npz (python -m cardenvs.agents.policy)")


def trust_pilots(pilots: Any, trusted: bool) -> None:
    """With ``trusted`` (a command's ``--trust-pickle``), allow the SB3 ``.zip`` files among the pilot names
    (``ppo:FILE.zip``, ``ppo:FILE`` saved as FILE.zip) to load; a missing file is left to the loader to report."""
    if not trusted:
        return
    for kind in [pilots] if isinstance(pilots, str) else list(pilots or ()):
        if isinstance(kind, str) and kind.startswith("ppo:") and Path(kind[4:]).suffix != ".npz":
            try:
                trust_pickle_file(kind[4:])
            except BadArgumentError:
                pass  # no such file: make_agent says so, with the places it looked


def load_model(path: str | Path, device: str = "cpu", trust_pickle: bool = False) -> Any:
    """The MaskablePPO model saved at ``path`` (cached; a rewritten file is read again). SB3 unpickles parts of the
    file, so it is loaded only when trusted (:func:`check_pickle_trust`)."""
    p = check_pickle_trust(path, trust_pickle)
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise BadArgumentError(f"{path!s} is an SB3 model: loading it needs the training extras "
                               f"(pip install 'cardenvs[train]'); a shipped .npz policy needs only numpy") from None

    key = (str(p), p.stat().st_mtime_ns)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    model = MaskablePPO.load(str(p), device=device)
    _CACHE[key] = model
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return model


def clear_cache() -> None:
    _CACHE.clear()


def load(path: str | Path, game: Any = None, seed: int | None = None, deterministic: bool = True,
         device: str = "cpu", older_rules: bool = False, trust_pickle: bool = False) -> Any:
    """Wrap the policy saved at ``path`` (SB3 ``.zip`` or shipped ``.npz``) as a batched agent; with ``game``, check
    that it was made for that game's current rules, observation layout and action count. A ``.zip`` is unpickled by
    SB3 and loads only with ``trust_pickle=True`` (or once :func:`trust_pickle_file` named it); ``.npz`` is numbers."""
    if Path(path).suffix == ".npz":
        return load_npz(path, game=game, seed=seed, deterministic=deterministic, older_rules=older_rules)
    model = load_model(path, device=device, trust_pickle=trust_pickle)
    if game is not None:
        from cardenvs.core.batch import get_spec

        spec = get_spec(game)
        obs_dim = int(np.prod(model.observation_space.shape))
        n_actions = int(model.action_space.n)
        if obs_dim != spec.obs_dim or n_actions != spec.num_actions:
            raise BadArgumentError(
                f"{path!s} was trained on observations of size {obs_dim} with {n_actions} actions; "
                f"{spec.name} has {spec.obs_dim} and {spec.num_actions} (another game, or an older version)")
    return PolicyAgent(model, name=f"ppo:{Path(path).stem}", deterministic=deterministic, seed=seed)


def load_shipped(game: Any, seed: int | None = None, deterministic: bool = True,
                 older_rules: bool = False) -> NumpyPolicy:
    """The policy shipped for ``game`` (``agents/policies/<game>.npz``), checked against the game."""
    from cardenvs.core.batch import get_spec

    name = get_spec(game).name
    path = shipped_path(name)
    if path is None:
        raise BadArgumentError(f"no shipped policy for {name}; train one with `cardenvs train {name}` "
                               f"(or use heuristic, random or ppo:PATH)")
    return load_npz(path, game=name, seed=seed, deterministic=deterministic, name="ppo", older_rules=older_rules)


def main(argv: Any = None) -> Path:
    """``python -m cardenvs.agents.policy MODEL.zip GAME OUT.npz [--float16]``: export a MaskablePPO zip."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m cardenvs.agents.policy",
                                 description="export a MaskablePPO model's policy network as a shipped-policy .npz")
    ap.add_argument("model", help="an SB3 MaskablePPO .zip (unpickled: it runs code a crafted file holds; needs "
                                  "--trust-pickle)")
    ap.add_argument("--trust-pickle", action="store_true",
                    help="load the .zip although SB3 unpickles it: only for a model you made or trust")
    ap.add_argument("game")
    ap.add_argument("out", help="the .npz to write (e.g. agents/policies/<game>.npz)")
    ap.add_argument("--float16", action="store_true", help="store the weights in float16 (half the size)")
    ap.add_argument("--seed", type=int, default=None, help="the training seed, for the metadata")
    args = ap.parse_args(argv)
    out = export(args.model, args.out, args.game, seed=args.seed,
                 weights_dtype="float16" if args.float16 else "float32", trust_pickle=args.trust_pickle)
    print(f"{out} ({out.stat().st_size / 1e6:.2f} MB)")
    return out


__all__ = [
    "CACHE_SIZE", "certify", "check_meta", "check_pickle_trust", "clear_cache", "export", "float_view_digest",
    "FORMAT", "load", "load_model", "load_npz", "load_shipped", "main", "NumpyPolicy", "observation_digest", "PICKLE_WARNING",
    "PolicyAgent", "policy_dirs", "read_npz", "reads_float_view", "shipped_path", "stale_rules", "TRUST_HELP",
    "trust_pickle_file", "trust_pilots", "trusted_zips", "trusting_every_zip",
]


if __name__ == "__main__":
    main()
