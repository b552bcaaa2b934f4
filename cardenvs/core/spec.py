"""The contract between a ruleset and the generic machinery (batch core, envs, checker, CLI).

A game is a package under ``cardenvs/games/<name>/`` exporting ``SPEC: GameSpec``. Everything generic (BatchGame,
the AEC and parallel envs, the SB3 vector env, the evaluator, the checker) is written against this dataclass only.

Kernel contract (all Numba, one row = one game, ``row`` is ``int32[:]`` starting with the core header). Each kernel is
a plain loop over its rows, ``@njit(cache=True, nogil=True)``: rows are independent, so :mod:`cardenvs.core.threads`
runs a large batch as row slices on several threads (``nogil`` lets them run at once; no ``prange`` copies).
The loops are written once, in the core's template (:mod:`cardenvs.core.kernel_template`), and rendered into a
checked-in ``cardenvs/games/<game>/_kernels.py`` per game: a loop written once that takes the game's row function as
an argument is not cached by Numba (re-measured with Numba 0.68: such a kernel misses the on-disk cache and compiles
again in every new process), and neither is a closure made by a factory. So a game writes only its row functions,
``reset_row``, ``mask_row(row, tables, p, mask) -> int``, ``apply_action``, ``settle`` (or its own ``step_row`` where
its rules really differ, as simulfight's simultaneous plans do) and ``observe_row``, its tables and a
``KERNEL_OPTIONS`` literal in ``rules.py``; the template adds the ``step_row`` wrapper (range and mask check, decision
count, settle, truncation at ``DECISION_CAP``) and the five kernels below. ``tests/core/test_kernel_template.py``
checks that every generated file is what the template renders, ``tests/core/test_numba_cache.py`` that a second
process loads every kernel from the cache; the contract itself is tested once for every game
(``tests/core/test_kernel_contract.py``).

``batch_reset(states, tables, decks, seeds, rows)``
    For every ``i`` with ``rows[i]``: start a new game in ``states[i]`` with ``decks[i, p, :]`` (card ids, -1
    padded) for player ``p`` and RNG seed ``seeds[i]``, then advance to the first decision.
``batch_step(states, tables, players, actions, errors)``
    For every ``i`` with ``players[i] >= 0``: apply ``actions[i]`` for player ``players[i]``. If it is not legal,
    set ``errors[i] = 1`` and leave the row untouched; else ``errors[i] = 0`` and advance through every forced step
    to the next decision or the end (status, winner, ``to_act`` and ``needs`` updated, truncation at the cap).
``batch_observe(states, tables, players, out)``
    Write player ``players[i]``'s view of game ``i`` into ``out[i]``: float32 or compact, the ``obs_layout``'s
    ``dtype_scalar`` (``GameSpec.obs_dtype``; a compact layout stores small integers, see
    :meth:`~cardenvs.core.layout.Layout.float_view`). Numba compiles the kernel for the buffer's dtype, so one
    ``observe_row`` also fills a wider buffer (the checker's range guard observes into int64 and compares).
``batch_mask(states, tables, players, out)``
    Write player ``players[i]``'s legal actions into ``out[i]`` (int8 0/1); all zeros when that player has no
    pending decision or the game is over.
``batch_play(states, tables, decks, seeds, seed_stride, autoreset, players, actions, errors, ended, finals,
viewers, with_obs, obs, mask)`` (optional; BatchGame falls back to the four kernels above without it)
    The RL loop's whole step in one pass over the rows, each row staying in cache: ``batch_step``'s work; then, if
    ``autoreset`` and the game is over, copy the row to ``finals[i]``, set ``ended[i] = 1``, add ``seed_stride`` to
    ``seeds[i]`` and start a new game from it (else ``ended[i] = 0``); then write the observation and the mask of
    ``viewers[i]`` (or of the player to act when ``viewers[i] < 0``; zeros when nobody is to act) into ``obs[i]``
    (skipped when ``with_obs`` is False) and ``mask[i]``. The template copies the mask its step left in the scratch
    (settle's forced-move check) instead of computing it again, when ``step_row`` says it is there.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, NamedTuple

import numpy as np

from .errors import BadArgumentError
from .layout import Layout

__all__ = ["GameSpec", "Kernels", "declare", "CONVENTIONS", "OBS_DTYPES"]

#: the dtypes an observation row may have: float32 (values as the policy reads them) or a compact layout's small
#: integers, which ``GameSpec.float_observation`` divides by the layout's divisors
OBS_DTYPES = (np.dtype(np.float32), np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int16))


class Kernels(NamedTuple):
    batch_reset: Callable
    batch_step: Callable
    batch_observe: Callable
    batch_mask: Callable
    #: step + autoreset + observe + mask fused (see the module docstring); None: BatchGame composes the four
    batch_play: Callable | None = None


@dataclass(frozen=True, repr=False)
class GameSpec:
    """Everything the generic code needs to know about one ruleset, declared once."""

    name: str
    version: int
    description: str
    num_actions: int
    state_layout: Layout
    obs_layout: Layout
    max_deck: int
    turn_cap: int
    simultaneous: bool
    kernels: Kernels
    package_dir: Path
    # Python-side helpers, all pure functions of their arguments.
    load_pool: Callable[..., Any]  # (paths: list[Path] | None) -> CardPool with .tables
    load_deck: Callable[..., Any]  # (path_or_name, pool) -> Deck
    action_name: Callable[[np.ndarray, Any, int, int], str]  # (row, pool, player, action) -> text
    # (row, pool, viewer or None for all) -> text; a simultaneous game also takes viewer -1: the view both players
    # share (what a ParallelEnv in "human" mode prints)
    render: Callable[[np.ndarray, Any, int | None], str]
    hide: Callable[[np.ndarray, int, np.random.Generator, Any], np.ndarray]  # re-deal what `viewer` can't see
    default_decks: tuple[str, str] = ()
    #: the action space as a Layout of named ranges (RULES.md tables, ``why``, viewers); None where the game
    #: decodes actions in Python (simulfight's plan actions)
    action_layout: Layout | None = None
    #: agent decisions after which a game is truncated (a backstop behind ``turn_cap``); None: ``turn_cap`` only
    decision_cap: int | None = None
    #: every mark the text board prints, explained (``cardenvs play``'s ``legend``)
    legend: str = ""
    #: ``(row, pool, player, action) -> str``: why an action is refused, in the game's terms (``why N``); None: the
    #: generic "not legal now" message
    explain_illegal: Callable[[np.ndarray, Any, int, int], str] | None = None
    #: the action a simultaneous game's parallel env fills in for a player with nothing to decide
    noop_action: int = 0
    #: truncation rate competent play may reach, documented by the game (``cardenvs.testing.check_game``); a number
    #: or a mapping by pilot pairing ("heuristic-heuristic"); None: no truncation is allowed
    allow_truncation: float | dict | None = None
    #: flat observation indices that carry a card's identity (card pool index + 1, 0 for no card), for policies that
    #: embed card ids (issue 14); documented in the game's RULES.md
    obs_card_ids: tuple[int, ...] = ()
    #: ``(action field, observation field)`` pairs where action ``i`` of the action range concerns the card that block
    #: ``i`` of the observation field describes (simulfight: ``play i`` and ``my_cards[i]``), for policies that score
    #: such actions from the block with weights shared by every ``i`` (``[ppo] instance_head``, issue 14); a field
    #: written ``"grid[0]"`` is the first entry along that field's first axis (relics' own half of the grid)
    action_obs_blocks: tuple[tuple[str, str], ...] = ()
    #: the seat view (``cardenvs.core.seat_view``): the zones whose face-down cards their owner has not seen, unless
    #: they once reached its hand (levelneo's level cards, heartbreak's heart: both come off the deck unseen); every
    #: other own card outside the decks is known to its owner (a face-down main it chose, charged cards it put
    #: there). None: every zone but the hands and decks (the convention for games that declare nothing)
    view_own_unseen_zones: tuple[str, ...] | None = None
    #: the seat view: deck cards their owner once held stay where they are (levelneo: the mulligan puts them at the
    #: bottom and no deck is shuffled after setup); False where decks are shuffled with such cards in them
    view_keeps_held_deck_cards: bool = False
    #: the seat view: the per-instance flag that marks an opponent's card outside its decks whose identity both
    #: players know (relics' ``known``; simulfight's ``shown``, a hand its deck ran out under)
    view_known_field: str = "known"
    #: how a game can end, for ``eval``'s "how games end" (issue 38 item 2: is a deck winning the way the rules
    #: intend?): ``(rule ID, what happened)`` per ending code, from the game's ``endings.py`` (``ENDINGS``)
    endings: tuple[tuple[str, str], ...] = ()
    #: ``(final states [G, S]) -> int8 [G]``: each game's ending code (an index into ``endings``) from its final
    #: state, -1 for a game still live or truncated (``eval`` counts truncation itself); ``endings.end_reason``
    end_reason: Callable[[np.ndarray], np.ndarray] | None = None
    #: game-specific constants other code may show (relics' battle and round caps); nothing generic reads it
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if np.dtype(self.obs_layout.dtype_scalar) not in OBS_DTYPES:
            raise ValueError(f"{self.name}: the observation layout's dtype_scalar must be one of "
                             f"{', '.join(d.name for d in OBS_DTYPES)}, not {np.dtype(self.obs_layout.dtype_scalar).name}")
        self._check_seat_view_fields()

    def _check_seat_view_fields(self) -> None:
        """The seat view's fields name parts of the state layout: checked here, when the game is declared, so a typo
        fails at import rather than at the first agent's view (or never, where no agent asks for one)."""
        from .seat_view import ZONE_PLAIN, zone_kind  # the view's own zone convention (here: no import circle)

        zones = [z.name for z in self.state_layout.zones]
        declared = self.view_own_unseen_zones
        if declared is not None:
            if isinstance(declared, str) or not all(isinstance(name, str) for name in declared):
                raise ValueError(f"{self.name}: view_own_unseen_zones must be a tuple of zone names, got {declared!r}")
            unknown = sorted(set(declared) - set(zones))
            if unknown:
                raise ValueError(f"{self.name}: view_own_unseen_zones names no zone of its state: {unknown} (its zones: "
                                 f"{', '.join(zones)})")
            not_plain = sorted(n for n in declared if zone_kind(n) != ZONE_PLAIN)
            if not_plain:
                raise ValueError(f"{self.name}: view_own_unseen_zones names {not_plain}: decks and hands are never "
                                 "known to the view by zone (a deck is re-dealt, a hand is its owner's)")
        fields_ = {f.name for f in self.state_layout.fields}
        if self.view_known_field != "known" and self.view_known_field not in fields_:
            raise ValueError(f"{self.name}: view_known_field {self.view_known_field!r} is no field of its state layout")

    def __reduce__(self):
        """Pickled (and deep-copied) by name: a registered game's spec is the registry's one object, kernels
        included, and is never copied."""
        return (_registered_spec, (self.name,))

    def __repr__(self) -> str:
        return f"<GameSpec {self.env_name} from {self.package_dir}>"  # the generated one prints every layout

    @property
    def env_name(self) -> str:
        return f"{self.name}_v{self.version}"

    @property
    def obs_dim(self) -> int:
        return self.obs_layout.size

    @property
    def obs_dtype(self) -> np.dtype:
        """The dtype of an observation row as the kernels write it and the envs return it: float32, or int8 / uint8 /
        int16 for a compact layout."""
        return np.dtype(self.obs_layout.dtype_scalar)

    @property
    def obs_divisors(self) -> np.ndarray:
        """``float32[obs_dim]`` (read-only): the float view of entry ``k`` is the stored value / ``obs_divisors[k]``
        (all ones for a float32 layout)."""
        return self.obs_layout.divisors()

    def float_observation(self, rows: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """The float32 view of observation ``rows`` (``[..., obs_dim]`` in :attr:`obs_dtype`, as ``BatchGame.observe``
        and the envs return them): each stored value divided by its divisor. The one way to ask for it; a float32
        layout's rows come back as they are (no copy) unless ``out`` (``float32``, the same shape) is given."""
        rows = np.asarray(rows)
        if rows.dtype != self.obs_dtype or rows.shape[-1:] != (self.obs_dim,):
            raise BadArgumentError(f"{self.env_name}: observation rows must be {self.obs_dtype.name}[..., {self.obs_dim}], "
                             f"got {rows.dtype.name}{list(rows.shape)}")
        if out is not None and (not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != rows.shape):
            raise BadArgumentError(f"{self.env_name}: float_observation out= must be float32{list(rows.shape)}, got "
                             f"{getattr(out, 'dtype', type(out).__name__)}{list(np.shape(out))}")
        return self.obs_layout.float_view(rows, out)

    @property
    def deck_dir(self) -> Path:
        return self.package_dir / "decks"

    @property
    def card_pool_path(self) -> Path:
        return self.package_dir / "cards.toml"

    def starter_decks(self) -> list[str]:
        return sorted(p.stem for p in self.deck_dir.glob("*.toml"))


#: where :func:`declare` finds a field the game's ``__init__.py`` does not pass: (module of the game's package, name),
#: the first that exists. The shipped games and the skeleton follow it; a game may pass any field itself instead.
CONVENTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "num_actions": (("actions", "NUM_ACTIONS"),),
    "action_layout": (("actions", "ACTIONS"),),
    "state_layout": (("state", "STATE"),),
    "decision_cap": (("state", "DECISION_CAP"),),
    "obs_layout": (("observe", "OBS"),),
    "obs_card_ids": (("obs_layout", "OBS_CARD_IDS"), ("obs_layout", "CARD_ID_INDICES")),
    # MAX_DECK first: a state.py that exports its field offsets may define DECK_SIZE as one (simulfight's deck_size)
    "max_deck": (("state", "MAX_DECK"), ("state", "DECK_SIZE")),
    "turn_cap": (("state", "TURN_CAP"),),
    "load_pool": (("cards", "load_pool"),),
    "load_deck": (("cards", "load_deck"),),
    "action_name": (("text", "action_name"), ("actions", "action_name")),
    "render": (("text", "render"), ("actions", "render")),
    "hide": (("text", "hide"), ("observe", "hide")),
    "legend": (("text", "LEGEND"),),
    "explain_illegal": (("text", "explain_illegal"),),
    "endings": (("endings", "ENDINGS"),),
    "end_reason": (("endings", "end_reason"),),
}


def declare(package: str, **fields: Any) -> GameSpec:
    """A game's SPEC, declared in its ``__init__.py`` as ``SPEC = declare(__name__, description=..., ...)``.

    The name, the rules version and whether play is simultaneous come from the ``game.toml`` in the package's folder
    (the registry reads the same file without importing the game, so the two cannot disagree), and ``package_dir``
    is that folder. A field not in ``fields`` is taken from the game's modules by :data:`CONVENTIONS` (``NUM_ACTIONS``
    from its actions.py, ``load_pool`` from its cards.py, ...), and ``kernels`` from its generated ``_kernels.py``
    (the template's names, :class:`Kernels`' fields), so the declaration lists only what is the game's own.
    """
    import importlib
    import sys

    from .registry import read_metadata

    folder = Path(sys.modules[package].__file__).resolve().parent
    info = read_metadata(folder, package)
    for name, places in CONVENTIONS.items():
        if name in fields:
            continue
        for module, attr in places:
            if (folder / f"{module}.py").is_file() and hasattr(mod := importlib.import_module(f"{package}.{module}"),
                                                               attr):
                fields[name] = getattr(mod, attr)
                break
    if "kernels" not in fields and (folder / "_kernels.py").is_file():
        generated = importlib.import_module(f"{package}._kernels")
        fields["kernels"] = Kernels(**{name: getattr(generated, name) for name in Kernels._fields
                                       if hasattr(generated, name)})
    return GameSpec(name=info.name, version=info.rules_version, simultaneous=info.simultaneous, package_dir=folder,
                    **fields)


def _registered_spec(name: str) -> GameSpec:
    from .registry import get_game

    return get_game(name)
