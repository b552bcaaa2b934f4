"""The levelneo observation layout: the observation row and the blocks repeated inside it (declared once).

Every block is a compact :class:`Layout` exported with its prefix (``CARD_COLOR``, ``CHAR_AP_NOW``, ``CONTEXT_BATTLE``,
``O_HAND``): the kernels in ``observe.py`` read them as ``L.CARD_COLOR`` (``from . import obs_layout as L``), so a
reordered or resized field moves every use with it.

**Compact rows (issue 41).** The kernels write small integers, ``int16``; the float32 observation policies read is
``OBS.float_view(rows)`` (``SPEC.float_observation``): each value divided by its field's ``divide_by``, value for
value the float32 row the kernels wrote before (the golden stream digests, hashed on the float view, are unchanged).
AP is stored in hundreds (``AP_UNIT``) and read as AP / 1000 (``divide_by`` 10): the pool format requires every AP
and AP amount to be a multiple of 100 (``cards._check_card_rules``), so no AP is rounded. Deck and discard counts and
turn markers are stored as counts and read / 10. Why ``int16``: ``int8`` cannot hold a card id (up to
``MAX_POOL`` = 128) nor an AP in hundreds past 127 (a 5000 AP card at Level Neo with +2000 from effects is 90, a combi
of two such 180), and ``uint8`` no negative AP modifier (``ap_down``). AP entries are clamped to
+-``AP_STORED_MAX`` hundreds (3,276,700 AP, far beyond any deck the pool rules allow to reach: see RULES.md
"Caps"), so no value wraps; every other entry is a flag, a small count (at most 40) or a code.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.layout import Layout, fields

from . import state as S
from .tables import (
    C_AP, C_COLOR, C_HAS_BURST, C_HAS_CONT, C_HAS_START, C_MAIN_OK, C_TRAITS, C_TURN_COST, C_TYPE, C_USE_EFFECT, COLORS,
    MAX_POOL, TYPES,
)

NUM_TRAIT_BITS = 8  # the first 8 traits of the pool get a feature bit each
#: the stored dtype of every observation entry (why int16: the module docstring)
OBS_DTYPE = np.int16
AP_UNIT = 100  # AP is stored in hundreds: every AP and AP amount of a pool is a multiple of this
AP_DIVIDE = 1000 // AP_UNIT  # the float view reads AP / 1000 (the scale the float32 observation had)
AP_STORED_MAX = int(np.iinfo(OBS_DTYPE).max)  # AP entries are clamped to +-this many hundreds (never reached)
COUNT_DIVIDE = 10  # deck and discard counts and turn markers: the float view reads count / 10
_AP = {"divide_by": AP_DIVIDE}
_COUNT = {"divide_by": COUNT_DIVIDE}

#: one card described by its features (hand slots, characters on the field, face-up level cards)
CARD = Layout("levelneo_card", fields(
    ("present", (), "1: a card the viewer may see is here"),
    ("type", (len(TYPES),), "one-hot: " + ", ".join(TYPES)),
    ("color", (len(COLORS),), "one-hot: " + ", ".join(COLORS)),
    ("turn_cost", (), "turn cost"),
    ("ap", (), "printed AP / 1000", _AP),
    ("traits", (NUM_TRAIT_BITS,), f"1 per trait among the pool's first {NUM_TRAIT_BITS} traits"),
    ("has_use", (), "has a [Use] skill"),
    ("has_cont", (), "has a [Cont] skill"),
    ("has_start", (), "has a [Start] skill"),
    ("has_burst", (), "has Level Burst text"),
    ("main_capable", (), "may be chosen as main character (turn cost 1 character)"),
    ("card_id", (), "the card's identity: its pool index + 1 (0: no card, or a card the viewer cannot see)"),
), OBS_DTYPE)
CARD.export(globals(), "CARD_")
CARD_SIZE = CARD.size
#: a character on the field: its card, then its state in play
CHAR = Layout("levelneo_character", fields(
    ("card", (CARD.size,), "card features (CARD block)", {"block": CARD}),
    ("ap_now", (), "current AP / 1000 (modifiers, [Cont] skills, the turn player's main's level bonus)", _AP),
    ("rested", (), "1 while Rest"),
    ("attacked", (), "attacked this turn"),
    ("attacker", (), "the declared attacker (from the attack declaration on: also at the partner and target steps)"),
    ("partner", (), "the declared combi partner (from the partner step on)"),
    ("defending", (), "the current battle's defender (after cover: the covering support)"),
    ("declared_target", (), "the target declared before any cover"),
    ("face_up", (), "face up"),
    ("ap_turn", (), "AP modifier until end of turn / 1000 (included in ap_now)", _AP),
    ("ap_next", (), "AP modifier until the end of its next battle / 1000 (included in ap_now)", _AP),
    ("ap_battle", (), "AP modifier until the end of this battle (bursts) / 1000 (included in ap_now)", _AP),
    ("queued", (), "its effects waiting to resolve behind the pending choice (queue entries)"),
), OBS_DTYPE)
CHAR.export(globals(), "CHAR_")
CHAR_SIZE = CHAR.size
#: one level-zone slot
LEVEL_SLOT = Layout("levelneo_level_slot", fields(
    ("present", (), "a level card is here"),
    ("face_up", (), "revealed by a Level Burst"),
    ("card", (CARD.size,), "card features if face up (or, own zone, a face-down card the viewer once held)",
     {"block": CARD}),
), OBS_DTYPE)
LEVEL_SLOT.export(globals(), "LEVEL_SLOT_")
LEVEL_SLOT_SIZE = LEVEL_SLOT.size
#: one player's zone sizes
COUNT = Layout("levelneo_counts", fields(
    ("deck", (), "deck / 10", _COUNT), ("hand", (), "hand"), ("supports", (), "supports"),
    ("face_down_level", (), "face-down level cards"), ("discard", (), "discard / 10", _COUNT),
), OBS_DTYPE)
COUNT.export(globals(), "COUNT_")
COUNT_SIZE = COUNT.size
#: the current battle's two sides
BATTLE_AP = Layout("levelneo_battle_ap", fields(
    ("attacker", (), "attacking side AP / 1000 (combi APs added)", _AP),
    ("defender", (), "defending side AP / 1000", _AP),
), OBS_DTYPE)
BATTLE_AP.export(globals(), "BATTLE_AP_")
#: context flags (0/1 unless said)
CONTEXT = Layout("levelneo_context", fields(
    ("my_decision", (), "the viewer decides now"),
    ("my_turn", (), "the viewer is the turn player"),
    ("first_turn", (), "turn 1"),
    ("main_phase", (), "the main phase the turn is in: 1 or 2 (0 before the first turn)"),
    ("end_stage", (), "at the end of turn, its stage: 1 end-of-turn skills, 2 the turn player discards, 3 the "
                      "opponent discards, 4 cleanup (ES_* + 1; 0 at every other step)"),
    ("went_first", (), "the viewer is the first player (set at the turn-order choice)"),
    ("setup_own", (), "the viewer makes the current setup decision (turn order, main, mulligan)"),
    ("queued", (), "effects waiting to resolve (queue entries; more than 0 only behind a pending choice)"),
    ("level_down_own", (), "the viewer's main must level down (the judged battle's pending level down)"),
    ("level_down_opp", (), "the opponent's main must level down"),
    ("combi_loss_own", (), "the viewer chooses which combi attacker is discarded (from the judgement on)"),
    ("combi_loss_opp", (), "the opponent chooses which combi attacker is discarded"),
    ("window_opponent_stage", (), "the open window's initiative is the opponent of the turn player"),
    ("support_played", (), "the turn player played a support this main phase"),
    ("battle", (), "a battle is declared"),
    ("covered", (), "the defender covered"),
    ("combi", (), "the attack is a combi (from the partner's choice on: the target step too)"),
    ("own_neo", (), "own main is Level Neo"),
    ("opp_neo", (), "the opponent's main is Level Neo"),
    ("burst_failed_own", (), "own burst failed this battle"),
    ("burst_failed_opp", (), "the opponent's burst failed this battle"),
    ("no_level_down_own", (), "own main cannot level down this battle"),
    ("no_level_down_opp", (), "the opponent's main cannot level down this battle"),
    ("mulligan_used_own", (), "own mulligan decision made"),
    ("mulligan_used_opp", (), "the opponent's mulligan decision made"),
    ("window_one_pass", (), "one player passed in the open window"),
    ("burst_one_pass", (), "the last Level Burst decision was a pass (a second pass ends the alternation)"),
    ("result_attacker", (), "the judged battle: the attacking side won"),
    ("result_defender", (), "the judged battle: the defending side won"),
    ("result_tie", (), "the judged battle: a tie (a loss for both)"),
    ("choice_own", (), "a one-support effect waits for the viewer's choice"),
    ("choice_opp", (), "a one-support effect waits for the opponent's choice"),
    ("choice_on_opp_supports", (), "that effect applies to its owner's opponent's supports"),
    ("choice_rest", (), "that effect rests"),
    ("choice_activate", (), "that effect activates"),
    ("choice_ap_up", (), "that effect raises AP"),
    ("choice_ap_down", (), "that effect lowers AP"),
    ("choice_amount", (), "that effect's AP amount / 1000", _AP),
    ("choice_effect", (), "that effect's index on its card (its card: the choice_card entry)"),
), OBS_DTYPE)
CONTEXT.export(globals(), "CONTEXT_")
#: one effect source waiting to resolve behind the pending choice (a ``queue`` entry of the state, all public: the
#: sources are characters on the field, events played and revealed level cards)
QUEUED = Layout("levelneo_queued_effect", fields(
    ("own", (), "1: the viewer's source"),
    ("opp", (), "1: the opponent's source"),
    ("card_id", (), "the source's card id (pool index + 1)"),
    ("where", (), "the source's place: 1 its owner's main, 2..5 its owner's support slot 0..3, 0 off the field"),
    ("trigger", (), "TR_* code of the trigger whose effects resolve"),
    ("next_effect", (), "index on its card of the first effect still to resolve"),
), OBS_DTYPE)
QUEUED.export(globals(), "QUEUED_")
QUEUED_SIZE = QUEUED.size


def _names(block: Layout) -> str:
    return ", ".join(f.name for f in block.fields)


OBS = Layout(
    "levelneo_obs",
    fields(
        ("step", (S.NUM_STEPS,), "one-hot pending step (ST_* in state.py)"),
        ("context", (CONTEXT.size,), "flags: " + _names(CONTEXT), {"block": CONTEXT}),
        ("markers", (2,), "turn markers / 10 (own, opp)", _COUNT),
        ("levels", (2,), "main character levels 1..5 (own, opp)"),
        ("counts", (2, COUNT.size), "per player (own, opp): " + _names(COUNT), {"block": COUNT}),
        ("battle_ap", (BATTLE_AP.size,), "current battle: " + _names(BATTLE_AP), {"block": BATTLE_AP}),
        ("hand", (S.HAND_CAP, CARD.size), "own hand, card features: " + _names(CARD), {"block": CARD}),
        ("deck_list", (S.DECK_SIZE,), "own deck list, known all game: card id (pool index + 1) of card instance i "
                                      "(choose_main's action i picks instance i; 0: no card)"),
        ("deck_bottom", (S.OPENING_HAND_SIZE,), "own deck from the bottom: card id of a card the viewer put there "
                                                "at the mulligan (it knows them and their order; 0: unknown)"),
        ("choice_card", (), "card id of the source whose one-support effect waits for a choice (0: none)"),
        ("queue", (S.QUEUE_CAP, QUEUED.size), "effects waiting to resolve behind that choice, first in first out: "
                                              + _names(QUEUED), {"block": QUEUED}),
        ("held", (MAX_POOL,), "own cards that have been in the viewer's hand: copies of each card id (pool order; by "
                              "card, not instance: which copy was drawn is no knowledge)"),
        ("main", (2, CHAR.size), "main characters (own, opp): card features + " + _names(CHAR)[len("card, "):],
         {"block": CHAR}),
        ("supports", (2, S.SUPPORT_CAP, CHAR.size), "support slots (own, opp): card features + character state",
         {"block": CHAR}),
        ("level", (2, S.LEVEL_CAP, LEVEL_SLOT.size), "level zones (own, opp): present, face_up, card features if "
                                                     "face up (or, own zone, a face-down card the viewer once held)",
         {"block": LEVEL_SLOT}),
        ("discard", (2, MAX_POOL), "discard piles (own, opp), public: copies of each card id (pool order)"),
        ("used_skills", (2, MAX_POOL), "skills used this turn (own, opp), public (LN-K4): 1 per skill id (pool "
                                       "order of first use)"),
    ),
    dtype_scalar=OBS_DTYPE,
)
OBS_SIZE = OBS.size
OBS.export(globals(), "O_")  # O_HAND, O_HAND_END ...

#: every flat observation index holding a card id (``GameSpec.obs_card_ids``): own hand slots, own deck list and known
#: deck bottom, the pending choice's source, the queued effects' sources, both mains, both support zones, both level
#: zones (pool index + 1; 0 for an empty slot or a card the viewer cannot see)
OBS_CARD_IDS = tuple(
    [OBS.offset("hand") + i * CARD_SIZE + CARD.offset("card_id") for i in range(S.HAND_CAP)]
    + [OBS.offset("deck_list") + i for i in range(S.DECK_SIZE)]
    + [OBS.offset("deck_bottom") + i for i in range(S.OPENING_HAND_SIZE)]
    + [OBS.offset("choice_card")]
    + [OBS.offset("queue") + k * QUEUED_SIZE + QUEUED.offset("card_id") for k in range(S.QUEUE_CAP)]
    + [OBS.offset("main") + k * CHAR_SIZE + CHAR.offset("card") + CARD.offset("card_id") for k in range(2)]
    + [OBS.offset("supports") + k * CHAR_SIZE + CHAR.offset("card") + CARD.offset("card_id")
       for k in range(2 * S.SUPPORT_CAP)]
    + [OBS.offset("level") + k * LEVEL_SLOT_SIZE + LEVEL_SLOT.offset("card") + CARD.offset("card_id")
       for k in range(2 * S.LEVEL_CAP)]
)


def card_features(ctab: np.ndarray) -> np.ndarray:
    """The CARD block of every card in the pool as stored (``OBS_DTYPE [n, CARD_SIZE]``), built once at pool load and
    kept as ``tables.features`` (``tables.py``): the observation copies a card's block instead of re-encoding it for
    every slot of every view. Reads the card table's ``C_*`` columns."""
    feat = np.zeros((ctab.shape[0], CARD_SIZE), dtype=OBS_DTYPE)
    for card in range(ctab.shape[0]):
        f = feat[card]
        f[CARD_PRESENT] = 1
        f[CARD_TYPE + ctab[card, C_TYPE]] = 1
        f[CARD_COLOR + ctab[card, C_COLOR]] = 1
        f[CARD_TURN_COST] = ctab[card, C_TURN_COST]
        f[CARD_AP] = ctab[card, C_AP] // AP_UNIT  # a multiple of AP_UNIT (the pool rules): exact
        for b in range(NUM_TRAIT_BITS):
            if ctab[card, C_TRAITS] & (1 << b):
                f[CARD_TRAITS + b] = 1
        f[CARD_HAS_USE] = 1 if ctab[card, C_USE_EFFECT] >= 0 else 0
        f[CARD_HAS_CONT] = ctab[card, C_HAS_CONT]
        f[CARD_HAS_START] = ctab[card, C_HAS_START]
        f[CARD_HAS_BURST] = ctab[card, C_HAS_BURST]
        f[CARD_MAIN_CAPABLE] = ctab[card, C_MAIN_OK]
        f[CARD_CARD_ID] = card + 1  # issue 14: the card's identity, for policies that embed card ids
    return feat
