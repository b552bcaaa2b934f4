"""The heartbreak observation layout (table in RULES.md) and the blocks it repeats per card, fighter, entry.

Kernels (observe.py) read every position by its generated name: ``L.O_<FIELD>`` for an observation field,
``L.<BLOCK>_<FIELD>`` inside a block (``out[at + L.CARD_HP]``), never a hand-counted offset.

Compact (issue 41): every entry is an integer stored as **int16**; a field's ``divide_by`` (a block's, for the fields
of repeated blocks) says what the float view (``SPEC.float_observation``) divides it by, and that view equals the
float32 observation of before value for value. HP, damage and keyword numbers are counted in tens (the pool loader
refuses anything else, ``cards._tens``), so HP / 100 is stored as HP / 10 with ``divide_by`` 10 and a keyword number
/ 10 (Armor 20 read as 2.0) is stored as that integer; counts shown / 10 (deck, discard) and the turn / 100 are
stored as they are with ``divide_by`` 10 and 100.

Why int16 and not a byte: the loader's extremes do not fit one. No deck, hand, heart or stock limit (HB-D9, E3,
H10): a 240-card deck (``MAX_DECK``) shows counts up to 240 (int8 holds 127); and buffs add up within a turn: a
fighter's HP now is its printed HP (<= 300) + its item's (<= 300) + every HP buff of the turn (<= 200 each, one per
card of a 240-card deck, its skills and triggers), about 4,900 tens, and Armor, Ward, Counter and attack bonus the
same (a byte holds 255 at most). int16 holds +-32,767: every value these kernels can write, negative ones included
(HP left of a fighter a last blow KO'd as the game ended). ``tests/games/heartbreak/test_heartbreak_compact.py``
builds that extreme and checks it with ``check_game``'s range guard.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.layout import Layout, fields

from . import state as S
from .tables import (
    C_ACT_COST,
    C_ACT_DMG,
    C_ALLIANCE,
    C_ARMOR,
    C_ATTACK,
    C_BANEFUL,
    C_BYPASS,
    C_COST,
    C_COUNTER,
    C_HAS_CALL,
    C_HAS_END,
    C_HAS_START,
    C_HP,
    C_LEAD_OK,
    C_LEVEL,
    C_N_SKILLS,
    C_NEGATE,
    C_OD,
    C_STRIKE,
    C_TURBO,
    C_TYPE,
    C_WARD,
    MAX_ALLIANCES,
    NUM_ACT_COLS,
    TYPES,
)


#: the observation's dtype (the module docstring says why int16)
OBS_DTYPE = np.int16
TENS = {"divide_by": 10}  # HP and damage / 100, stored in tens; a count / 10, stored as it is


def _block(name: str, *specs) -> Layout:
    """A block repeated per card / fighter / entry; its fields' docs name the encoding (float value, one-hot)."""
    return Layout(name, fields(*specs), OBS_DTYPE)


def _names(block: Layout) -> str:
    def name(f) -> str:
        doc = ", ".join(d for d in (f.doc, f"stored x{f.divide_by}" if f.divide_by != 1 else "") if d)
        return f"{f.name} ({doc})" if doc else f.name
    return ", ".join(name(f) for f in block.fields)


#: one card described by its printed features (``CARD_<FIELD>`` offsets inside the block)
CARD = _block(
    "heartbreak_card",
    ("present", ()), ("type", (len(TYPES),), "one-hot " + ", ".join(TYPES)), ("level", ()),
    ("hp", (), "/100", TENS), ("cost", ()), ("overdrive_cost", ()), ("armor", (), "/10"), ("ward", (), "/10"),
    ("counter", (), "/10"), ("baneful", (), "/10"), ("strike", ()), ("bypass", ()), ("attack", (), "/10"),
    ("turbo", ()), ("negate", ()), ("skills", ()), ("has_call", ()), ("has_start", ()), ("has_end", ()),
    ("action1_damage", (), "/100", TENS), ("action1_cost", ()), ("action2_damage", (), "/100", TENS),
    ("action2_cost", ()),
    ("lead_capable", ()), ("alliance", (MAX_ALLIANCES,), "one-hot"),
    ("card_id", (), "pool index + 1; 0 none"),
)
CARD.export(globals(), "CARD_")
#: a fighter on the field: its card, its state now, the equipped item's card
FIGHTER = _block(
    "heartbreak_fighter",
    ("card", (CARD.size,), "card features", {"block": CARD}), ("hp_now", (), "/100", TENS),
    ("damage", (), "/100", TENS), ("hp_left", (), "/100", TENS), ("rested", ()), ("acted", ()),
    ("skill_used", (S.MAX_SKILLS,), "per skill"),
    ("silenced", ()), ("armor_now", (), "/10"), ("ward_now", (), "/10"), ("counter_now", (), "/10"),
    ("strike_now", ()), ("bypass_now", ()), ("attack_bonus", (), "/10"), ("stock", ()), ("stock_face_down", ()),
    ("may_evolve", ()), ("has_item", ()), ("item", (CARD.size,), "the equipped item's card features", {"block": CARD}),
)
FIGHTER.export(globals(), "FIGHTER_")
#: one heart card (the features only while face up)
HEART_SLOT = _block("heartbreak_heart_slot", ("present", ()), ("face_up", ()),
                    ("card", (CARD.size,), "if face up", {"block": CARD}))
HEART_SLOT.export(globals(), "HEART_SLOT_")
#: one response-stack entry
STACK_ENTRY = _block(
    "heartbreak_stack_entry",
    ("present", ()), ("kind", (len(S.KIND_NAMES),), "one-hot " + ", ".join(S.KIND_NAMES)), ("mine", ()),
    ("cancelled", ()), ("index", ()), ("target", (S.FIELD_CAP,), "the target's field position, one-hot"),
    ("card", (CARD.size,), "source card features", {"block": CARD}),
)
STACK_ENTRY.export(globals(), "STACK_ENTRY_")
#: one waiting triggered ability
TRIGGER = _block("heartbreak_trigger", ("present", ()), ("mine", ()),
                 ("card", (CARD.size,), "card features", {"block": CARD}))
TRIGGER.export(globals(), "TRIGGER_")
#: context flags
CONTEXT = _block(
    "heartbreak_context",
    ("my_decision", ()), ("my_turn", ()), ("first_turn", ()), ("swap_used", ()), ("climax_used", ()),
    ("window_answer_stage", (), "Turbos played in the open response window: win_stage below 9"),
    ("stack_resolving", (), "1 once the window has closed and its stack resolves: win_stage 9, at an effect choice"),
    ("window_mine", ()), ("trig_call", ()), ("trig_start", ()), ("trig_end", ()),
    ("turn", (), "/100", {"divide_by": 100}), ("bypass_target_pending", ()),
    ("choice_swap", (), "the pending effect choice is swap_lead's"),
    ("choice_evolve", (), "the pending effect choice is evolve's"), ("choice_mine", ()),
    ("pending_action", (S.MAX_ACTIONS,), "one-hot: the Lead's declared action waiting for its [Bypass] target"),
    ("window_return", (S.NUM_STEPS,), "one-hot, in a response window or an effect choice: the step the turn goes "
                                      "on with once the stack has resolved"),
    ("resume_effect", (), "the effect index at which the top stack entry resumes: at an effect choice the paused "
                          "effect's index in its card's text, 0 elsewhere"),
    ("triggers_return", (S.NUM_STEPS,), "one-hot, while triggered abilities are being ordered and resolved: the "
                                        "step the turn goes on with after the last one"),
    ("counter_waiting", (S.FIELD_CAP,), "one-hot: the field position of the attacked fighter, the turn player's "
                                        "opponent's, whose [Counter] triggers once the action's [X Strike] entry has "
                                        "resolved (HB-R2); all 0 while none waits or either fighter left the field "
                                        "(it then does not trigger)"),
    ("counter_attacker", (S.FIELD_CAP,), "one-hot: the field position of the attacker, the turn player's, that "
                                         "the waiting [Counter] hits"),
)
CONTEXT.export(globals(), "CTX_")
#: per player counts
COUNTS = _block(
    "heartbreak_counts",
    ("deck", (), "/10", TENS), ("hand", ()), ("heart", ()), ("heart_face_down", ()), ("charge", ()),
    ("discard", (), "/10", TENS), ("backup", ()), ("stock", ()), ("on_stack", ()),
)
COUNTS.export(globals(), "COUNT_")
#: setup: one offered Lead (a deck instance)
LEAD_OPTION = _block(
    "heartbreak_lead_option",
    ("offered", ()), ("level", ()), ("hp", (), "/100", TENS), ("armor", (), "/10"), ("ward", (), "/10"),
    ("counter", (), "/10"), ("strike", ()), ("bypass", ()), ("action1_damage", (), "/100", TENS),
    ("card_id", (), "pool index + 1"),
)
LEAD_OPTION.export(globals(), "LEAD_OPT_")
PUBLIC_PILES = ("discard pile (KO'd fighters, used cards, discharged and broken face-up cards)",
                "face-up stock (evolution bases and items)", "face-up heart cards")
NUM_PILES = len(PUBLIC_PILES)
PILE_DISCARD, PILE_STOCK, PILE_HEART = range(NUM_PILES)
# block sizes as plain ints (the kernels cannot read a Layout object)
CARD_SIZE, FIGHTER_SIZE, HEART_SLOT_SIZE = CARD.size, FIGHTER.size, HEART_SLOT.size
STACK_ENTRY_SIZE, TRIGGER_SIZE, COUNTS_SIZE, LEAD_OPTION_SIZE = (STACK_ENTRY.size, TRIGGER.size, COUNTS.size,
                                                                 LEAD_OPTION.size)

OBS = Layout(
    "heartbreak_obs",
    fields(
        ("step", (S.NUM_STEPS,), "one-hot pending step (ST_* in state.py)"),
        ("context", (CONTEXT.size,), "flags: " + _names(CONTEXT), {"block": CONTEXT}),
        ("counts", (2, COUNTS.size), "per player (own, opp): " + _names(COUNTS), {"block": COUNTS}),
        ("hand", (S.HAND_SLOTS, CARD.size), "own hand (the first 60 slots: every distinct card in hand has one), "
                                              "card features: " + _names(CARD), {"block": CARD}),
        ("field", (2, S.FIELD_CAP, FIGHTER.size), ("fighters (own, opp) at positions Lead, Back-Up 1..3: "
                                                    + _names(FIGHTER)), {"block": FIGHTER}),
        ("heart", (2, S.HEART_SLOTS, HEART_SLOT.size), ("heart stacks (own, opp), the top 10 cards, bottom first: "
                                                       + _names(HEART_SLOT)), {"block": HEART_SLOT}),
        ("stack", (S.STACK_CAP, STACK_ENTRY.size), "response stack, bottom first: " + _names(STACK_ENTRY),
         {"block": STACK_ENTRY}),
        ("triggers", (S.TRIG_CAP, TRIGGER.size), "waiting triggered abilities: " + _names(TRIGGER),
         {"block": TRIGGER}),
        ("lead_options", (S.LEAD_SLOTS, LEAD_OPTION.size),
         ("setup, while choosing the own Lead: for each deck instance i (the choose_lead action i): "
          + _names(LEAD_OPTION)), {"block": LEAD_OPTION}),
        ("public_cards", (2, len(PUBLIC_PILES), S.POOL_CAP),
         ("per player (own, opp), every public card counted by card id (the pool's order): "
          + "; ".join(PUBLIC_PILES))),
        ("stock_cards", (2, S.FIELD_CAP, S.POOL_CAP),
         ("per player (own, opp) and field position (Lead, Back-Up 1..3): the stock cards under that fighter the "
          "viewer can see, counted by card id: face-up ones for both players, face-down ones for their owner only "
          "(HB-I15)")),
        ("charged_cards", (S.POOL_CAP,), "own charged cards counted by card id (HB-C8: the owner knows them)"),
        ("unseen_cards", (2, S.POOL_CAP),
         ("per player (own, opp), that player's cards the viewer cannot see, counted by card id: the deck and the "
          "face-down heart cards; for the opponent also its hand, charged and face-down stock cards and its "
          "face-down Lead at setup (both deck lists are known to both players: `hide` keeps each one)")),
    ),
    dtype_scalar=OBS_DTYPE,
)
OBS_SIZE = OBS.size
OBS.export(globals(), "O_")


def _card_id_indices() -> tuple[int, ...]:
    """Every flat observation index that holds a card id: the ``card_id`` of each CARD block (hand, fighters and their
    items, heart slots, stack entries, triggers) and of each lead option."""
    card_id = CARD.offset("card_id")
    out = []
    for name, block, cards in (("hand", CARD, (0,)), ("field", FIGHTER, FIGHTER.offsets("card", "item")),
                               ("heart", HEART_SLOT, (HEART_SLOT.offset("card"),)),
                               ("stack", STACK_ENTRY, (STACK_ENTRY.offset("card"),)),
                               ("triggers", TRIGGER, (TRIGGER.offset("card"),))):
        start = OBS.offset(name)
        for k in range(OBS[name].size // block.size):
            out.extend(start + k * block.size + c + card_id for c in cards)
    start = OBS.offset("lead_options")
    out.extend(start + k * LEAD_OPTION.size + LEAD_OPTION.offset("card_id") for k in range(S.LEAD_SLOTS))
    return tuple(sorted(out))


#: ``GameSpec.obs_card_ids``
OBS_CARD_IDS = _card_id_indices()


def card_features(ctab: np.ndarray) -> np.ndarray:
    """Each pool card's CARD block, int16, exactly as the observation stores it (``tables.features``): the observe
    kernel copies a row instead of converting ~28 table entries per card it shows. HP and damage are stored in tens
    (``divide_by`` 10: the float view reads HP / 100), keyword numbers as their tens (Armor 20 -> 2, the float32 Armor /
    10 it was); a pool whose HP or damage is not counted in tens cannot be stored (``cards.load_pool`` refuses it)."""
    o = CARD.offset  # a field's offset in the block (the kernels read the same as L.CARD_<FIELD>)
    n = ctab.shape[0]
    ids = np.arange(n)
    f = np.zeros((n, CARD_SIZE), OBS_DTYPE)
    f[:, o("present")] = 1
    f[ids, o("type") + ctab[:, C_TYPE]] = 1
    f[ids, o("alliance") + ctab[:, C_ALLIANCE]] = 1
    for at, col, tens in (
        (o("level"), C_LEVEL, False), (o("hp"), C_HP, True), (o("cost"), C_COST, False),
        (o("overdrive_cost"), C_OD, False), (o("armor"), C_ARMOR, True), (o("ward"), C_WARD, True),
        (o("counter"), C_COUNTER, True), (o("baneful"), C_BANEFUL, True), (o("strike"), C_STRIKE, False),
        (o("bypass"), C_BYPASS, False), (o("attack"), C_ATTACK, True), (o("turbo"), C_TURBO, False),
        (o("negate"), C_NEGATE, False), (o("skills"), C_N_SKILLS, False), (o("has_call"), C_HAS_CALL, False),
        (o("has_start"), C_HAS_START, False), (o("has_end"), C_HAS_END, False),
        (o("action1_damage"), C_ACT_DMG, True), (o("action1_cost"), C_ACT_COST, False),
        (o("action2_damage"), C_ACT_DMG + NUM_ACT_COLS, True), (o("action2_cost"), C_ACT_COST + NUM_ACT_COLS, False),
        (o("lead_capable"), C_LEAD_OK, False),
    ):
        values = ctab[:, col]
        if tens and (values % 10).any():
            raise ValueError(f"card table column {col}: {values[values % 10 != 0][0]} is not counted in tens "
                             "(HP, damage and keyword numbers are; cards.load_pool checks it)")
        f[:, at] = values // 10 if tens else values
    f[:, o("card_id")] = ids + 1
    return f
