"""The relics observation layout: the observation row and the blocks repeated inside it (declared once).

Every block is a :class:`Layout` exported with its prefix (``CARD_ATT``, ``SLOT_DOWN``, ``CELL_SLOT``,
``SIDE_IN_PLAY``, ``CTX_KEPT``, ``O_HAND``): the kernels in ``observe.py`` read them as ``L.CARD_ATT`` (``from . import
obs_layout as L``), so a reordered or resized field moves every use with it.

Compact (issue 41): every layout stores int16 (:data:`OBS_DTYPE`); a field whose float32 value was scaled stores the
integer and says so with ``divide_by`` (ATT 4 is stored as 4, ``divide_by`` 10, and reads 0.4 in the float view,
``OBS.float_view(rows)``, exactly the float32 value it had). Why int16 and not int8: ``context.battle_turns`` counts
the battle-phase turns of a battle, which can reach ``BATTLE_TURN_CAP`` (2,000; RULES.md "Caps" bounds a battle at
1,500), and every other entry is far inside int8 (card ids + 1 up to ``POOL_CAP`` = 128 would need uint8 already;
stats, pile sizes and counts by card id are at most 76). No entry is negative or fractional.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.layout import Layout, fields

from . import state as S
from .cards import MAX_CLASSES, MAX_DESCRIPTORS, NUM_OPS, NUM_SKILLS, OP_NAMES, SC_BLACK, SCHOOLS, SKILLS, TYPES

#: the dtype every relics observation layout stores (see the module docstring)
OBS_DTYPE = np.int16


def _names(layout: Layout) -> str:
    return ", ".join(f"{f.name}[{f.size}]" if f.size > 1 else f.name for f in layout.fields)


# A card described by features (hand, line-up, reserves, grid, piles, pending card): one block, read by name.
CARD = Layout(
    "relics_card",
    fields(
        ("present", (), "1 when the slot holds a card (an opposing face-down character: present and nothing else)"),
        ("card_id", (), "the card's pool index + 1 (0: no card, or a card the viewer cannot see)"),
        ("type", (len(TYPES),), "one-hot card type: " + ", ".join(TYPES)),
        ("rare", (), "1 for a rare card"),
        ("att", (), "printed ATT / 10", {"divide_by": 10}),
        ("def", (), "printed DEF / 10", {"divide_by": 10}),
        ("class", (MAX_CLASSES,), "one-hot class (pool order)"),
        ("descriptor", (MAX_DESCRIPTORS,), "descriptor bits (pool order)"),
        ("skill", (NUM_SKILLS,), "printed skills (a location: its relic's skills): " + ", ".join(SKILLS)),
        ("school", (len(SCHOOLS) - 1,), "one-hot spell school: " + ", ".join(SCHOOLS[SC_BLACK:])),
        ("cost_down", (), "1 when using it downs the user"),
        ("has_act", (), "1 when the card has an [Act] ability"),
        ("act_needs_leader", (), "1 when the [Act] ability needs the leader"),
        ("has_cont", (), "1 with a [Cont] effect"),
        ("has_enter", (), "1 with an [Enter] effect"),
        ("has_defeat", (), "1 with a [Defeat] effect"),
        ("targets_own", (), "1 when its effect targets one own character"),
        ("targets_opp", (), "1 when its effect targets one opposing character"),
        ("op", (NUM_OPS,), "1 per effect op its text uses: " + ", ".join(OP_NAMES[k] for k in range(NUM_OPS))),
        ("relic_att", (), "relic ATT bonus / 10 (a location card)", {"divide_by": 10}),
        ("relic_def", (), "relic DEF bonus / 10 (a location card)", {"divide_by": 10}),
        ("qualifies_class", (MAX_CLASSES,), "leader qualification: class bits"),
        ("qualifies_descriptor", (MAX_DESCRIPTORS,), "leader qualification: descriptor bits"),
        ("has_requirement", (), "1 when equipping / using it has a requirement"),
        ("requires_class", (MAX_CLASSES,), "required class bits"),
    ),
    OBS_DTYPE,
)
CARD.export(globals(), "CARD_")
CARD_SIZE = CARD.size
# What a grid slot adds after its card features.
SLOT = Layout(
    "relics_slot",
    fields(
        ("face_down", (), "1 while face down"),
        ("down", (), "1 while Down"),
        ("leader", (), "1 when it carries the leader card"),
        ("att_now", (), "ATT now (modifiers, equipment, relic, [Cont] boosts) / 10", {"divide_by": 10}),
        ("def_now", (), "DEF now / 10", {"divide_by": 10}),
        ("skill", (NUM_SKILLS,), "skills now (printed and granted): " + ", ".join(SKILLS)),
        ("has_attachment", (), "1 when it carries equipment or a relic"),
        ("attachment_is_relic", (), "1 when the attachment is a relic"),
        ("attachment_att", (), "the attachment's ATT bonus / 10", {"divide_by": 10}),
        ("attachment_def", (), "the attachment's DEF bonus / 10", {"divide_by": 10}),
        ("ability_ready", (), "1 when its [Act] ability may be used now"),
        ("attachment_id", (), "the attachment's card id: pool index + 1 (0: none); which equipment or relic it is"),
        ("entered", (), "the character's place in its party's order of entering play, 1-6 (public: every "
                        "placement is seen, face down too); a Retreat and a discarded party leave in this order"),
    ),
    OBS_DTYPE,
)
SLOT.export(globals(), "SLOT_")
SLOT_SIZE = SLOT.size
# One grid cell: card features, then slot features.
CELL = Layout("relics_grid_cell", fields(("card", (CARD_SIZE,), "", {"block": CARD}),
                                         ("slot", (SLOT_SIZE,), "", {"block": SLOT})), OBS_DTYPE)
CELL.export(globals(), "CELL_")
CELL_SIZE = CELL.size
# One sideboard entry: the relic's card features, then whether it is in play.
SIDE_ENTRY = Layout("relics_sideboard_entry", fields(("card", (CARD_SIZE,), "", {"block": CARD}), ("in_play", ())),
                    OBS_DTYPE)
SIDE_ENTRY.export(globals(), "SIDE_")
SIDE_ENTRY_SIZE = SIDE_ENTRY.size
CONTEXT = Layout(
    "relics_context",
    fields(
        ("my_decision", ()), ("i_am_1p", ()), ("passes", ()), ("round", (), "/ 10", {"divide_by": 10}),
        ("battle", (), "/ 10", {"divide_by": 10}), ("relics", (2,), "own, opp"), ("leader_qualifies", (2,), "own, opp"),
        ("char_deck", (2,), "own, opp; / 10", {"divide_by": 10}),
        ("item_deck", (2,), "own, opp; / 10", {"divide_by": 10}),
        ("hand", (2,), "own, opp"), ("reserves", (2,), "own, opp"), ("party", (2,), "own, opp"),
        ("discard", (2,), "own, opp; / 10", {"divide_by": 10}), ("doom", (2,), "own, opp; / 10", {"divide_by": 10}),
        ("lineup", (2,), "own, opp"), ("discards_owed", ()), ("steal_owed_own", ()), ("kept", ()),
        ("location_pile", (), "/ 10", {"divide_by": 10}), ("battle_turns", (), "/ 10", {"divide_by": 10}),
        ("steal_owed_opp", (), "Steal discards the opponent still owes"),
        ("battlefield_mine", (), "1 when the battlefield location card is one of mine"),
        ("battle_won", (2,), "own, opp: 1 for the winner of the battle that just ended (a draw: both 0)"),
        ("retreated", (), "1 when the battle just ended by a Retreat"),
    ),
    OBS_DTYPE,
)
CONTEXT.export(globals(), "CTX_")
CONTEXT_SIZE = CONTEXT.size
PILES = ("discard", "doom", "relics")  # public by the rules: both discard and doom piles, every relic's controller
PILE_DISCARD, PILE_DOOM, PILE_RELICS = (PILES.index(n) for n in ("discard", "doom", "relics"))
NUM_PILES = len(PILES)
# Cards in a hidden zone whose identity the other player saw arrive (``known``: back from play, the discard or the
# doom pile): the viewer's own that the opponent saw, and the opponent's that the viewer saw (hide() keeps them)
KNOWN_ZONES = ("hand", "reserves")
KNOWN_HAND, KNOWN_RESERVES = (KNOWN_ZONES.index(n) for n in KNOWN_ZONES)
NUM_KNOWN = len(KNOWN_ZONES)

OBS = Layout(
    "relics_obs",
    fields(
        ("step", (S.NUM_STEPS,), "one-hot pending step (ST_* in state.py)"),
        ("context", (CONTEXT_SIZE,), "numbers: " + _names(CONTEXT), {"block": CONTEXT}),
        ("pending", (S.NUM_PENDING,), "one-hot pending action kind (PK_* in state.py) when it is mine"),
        ("pending_card", (CARD_SIZE,), "card features of my pending card / ability source", {"block": CARD}),
        ("pending_caster", (S.PARTY_SIZE,), "one-hot grid slot of my pending caster / thrower"),
        ("battlefield", (CARD_SIZE,), "card features of the current location (with its relic side)",
         {"block": CARD}),
        ("leader_cards", (2, CARD_SIZE), "leader cards (own, opp)", {"block": CARD}),
        ("location_pile", (2 * S.NUM_LOCATIONS, CARD_SIZE),
         "location pile: own entries 0-4, opponent's 5-9 (action order)", {"block": CARD}),
        ("grid", (2, S.PARTY_SIZE, CELL_SIZE), "grid slots 0-5 (own, opp): card features + " + _names(SLOT),
         {"block": CELL}),
        ("hand", (S.HAND_CAP, CARD_SIZE), "own hand, card features: " + _names(CARD), {"block": CARD}),
        ("lineup", (S.LINEUP_SIZE, CARD_SIZE), "own drawn characters waiting to be placed", {"block": CARD}),
        ("reserves", (S.RES_VIEW, CARD_SIZE), "own reserves (the first 24 entries: every different character, "
                                              "RL-P6; the count is in context)", {"block": CARD}),
        ("sideboard", (2 * S.SIDE_CAP, SIDE_ENTRY_SIZE), "relics I control, in relic-action order: card features + "
                                                         "in_play", {"block": SIDE_ENTRY}),
        ("public_cards", (2, NUM_PILES, S.POOL_CAP), "public cards counted by card id (pool order), per player (own, "
                                                     "opp) and pile: discard pile, doom pile, relics it controls "
                                                     "(location card id; in the sideboard or in play)"),
        ("known_cards", (2, NUM_KNOWN, S.POOL_CAP), "cards in a hand or reserves seen arriving by the other player "
                                                    "(retreated, kept, raised, reclaimed, exhumed), counted by card id "
                                                    "(pool order), per player (own, opp) and zone (hand, reserves); a "
                                                    "card set aside in a simultaneous step (RL-G14) counts in its zone"),
        ("opp_known_reserves", (S.RES_VIEW,), "the opponent's reserves in order: card id (pool index + 1) of each "
                                              "entry whose card the viewer saw arrive (known), 0 for a face-down one; "
                                              "written while the opponent holds at most 24 (RL-P6 reorders more by "
                                              "identity) and until the opponent begins its reserve trim (RL-G14: a "
                                              "set-aside entry's place is hidden)"),
        ("opp_relics", (2 * S.SIDE_CAP, 2), "the relics the opponent controls, in its relic-action order (entries "
                                            "0-4: its own won location cards, 5-9: the viewer's): location card id "
                                            "(pool index + 1) and 1 while in play; public: who won each location "
                                            "and which relic is played are seen"),
        ("own_aside", (S.POOL_CAP,), "own cards set aside face down in the current simultaneous step (RL-G14: "
                                     "the Resolution discards or the reserve trim chosen so far), by card id"),
        ("own_library", (S.POOL_CAP,), "own cards still in the character and item decks, counted by card id (pool "
                                       "order): the own deck list less every card drawn; deck order stays hidden"),
    ),
    dtype_scalar=OBS_DTYPE,
)
OBS_SIZE = OBS.size
OBS.export(globals(), "O_")


def _card_id_indices() -> tuple[int, ...]:
    """Every flat observation index that holds a card id (``SPEC.obs_card_ids``), from the layouts: each card block
    of the fields below (a grid cell and a sideboard entry hold theirs at ``CELL_CARD`` / ``SIDE_CARD``), and each
    grid cell's attachment (``SLOT_ATTACHMENT_ID``)."""
    out = []
    card_id = CARD.offset("card_id")
    for name, stride, at in (
        ("pending_card", CARD_SIZE, card_id), ("battlefield", CARD_SIZE, card_id),
        ("leader_cards", CARD_SIZE, card_id), ("location_pile", CARD_SIZE, card_id),
        ("grid", CELL_SIZE, CELL.offset("card") + card_id), ("grid", CELL_SIZE, CELL.offset("slot")
                                                             + SLOT.offset("attachment_id")),
        ("hand", CARD_SIZE, card_id), ("lineup", CARD_SIZE, card_id), ("reserves", CARD_SIZE, card_id),
        ("sideboard", SIDE_ENTRY_SIZE, SIDE_ENTRY.offset("card") + card_id), ("opp_known_reserves", 1, 0),
        ("opp_relics", 2, 0),
    ):
        start, size = OBS.offset(name), OBS[name].size
        out.extend(range(start + at, start + size, stride))
    return tuple(sorted(out))


#: every flat observation index that holds a card id: the pending card, the battlefield, both leader cards, the
#: location pile, both grids (each character and its attachment), the own hand, line-up and reserves, the sideboard,
#: the opponent's known reserve characters and relics
CARD_ID_INDICES = _card_id_indices()
