"""The relics state row: one int32 row per game, declared once as a :class:`Layout`.

Card instances: instance ``i`` of player ``p`` is the card ``deck_list[p, i]`` (the deck file lists the character
deck, the item deck, the 5 location/relic cards and the leader card together; the kernel sorts them into zones at
reset). Zones hold instance ids, compact (-1 after the last card). Decks are stacks whose top is the *last* entry.

The party is a compact zone too; where each member stands is the per-instance ``pos`` field (grid slot 0..5: 0-2 the
front row, 3-5 the back row). Attachments are per-instance links: a character's ``attached`` holds
``owner * MAX_DECK + instance`` of its equipment or relic (or -1), and the attached card's ``host`` holds the
character instance. A won location card stays in its *owner's* ``won`` zone (so card conservation holds) and its
``controller`` field says whose sideboard (relic) it is.
"""
from __future__ import annotations

import numpy as np

from cardenvs.core.header import H_STATUS, H_TO_ACT, HEADER, LIVE
from cardenvs.core.layout import Layout, card_zones, fields, per_instance

# ---- sizes and caps (documented in RULES.md) ---------------------------------------------------------------------
CHAR_DECK_SIZE = 40  # RL-D6 (gap): character deck, exactly 40
ITEM_DECK_SIZE = 30  # RL-D6 (gap): item deck, exactly 30
NUM_LOCATIONS = 5  # RL-D2: five location/relic cards
NUM_LEADER_CARDS = 1  # RL-D2: one leader card
MAX_DECK = CHAR_DECK_SIZE + ITEM_DECK_SIZE + NUM_LOCATIONS + NUM_LEADER_CARDS  # 76 card instances per player
MAX_COMMON_COPIES = 6  # RL-D4
MAX_RARE_COPIES = 1  # RL-D5
OPENING_HAND_SIZE = 3  # RL-S2, RL-B7
LINEUP_SIZE = 6  # RL-G3: characters drawn at each Relic phase
PARTY_SIZE = 6  # RL-P1
ROW_SIZE = 3  # RL-P2
RESERVE_TARGET = 3  # RL-G8
HAND_CAP = ITEM_DECK_SIZE  # a hand can hold every item-deck card of its owner: no engine hand limit (RL-B7)
RES_CAP = CHAR_DECK_SIZE  # RL-P4: the reserves have no limit in battle; they can hold every character a player owns
RES_VIEW = 24  # reserve entries observed and named by the ``reserve`` actions (RL-P6: the first 24 hold one copy of
# every different character in the reserves; a deck has at most RES_VIEW different characters, RL-D14)
ASIDE_CAP = max(HAND_CAP, RES_CAP)  # RL-G14: cards set aside face down in a simultaneous step (a hand or reserves)
SIDE_CAP = NUM_LOCATIONS  # won location cards per owner
APPOINT_COST = 3  # RL-A7
RECRUIT_COST = 3  # RL-A6
RELICS_TO_WIN = 4  # RL-V1
ROUND_CAP = 12  # RL-G13 (gap): a battle that would start round 13 ends as a draw
BATTLE_TURN_CAP = 2000  # RL-G13: unreachable with this pool (RULES.md "Caps": a battle phase has at most 1,500 turns)
BATTLE_CAP = 16  # RL-V5 (gap): the game is truncated when battle 17 would start (unreachable: at most 7 battles)
DECISION_CAP = 50_000  # truncate after this many agent decisions (unreachable backstop: RULES.md "Caps" bounds a game)
POOL_CAP = 128  # at most this many cards in a pool: the observation counts public cards by card id
TURN_CAP = BATTLE_CAP

# ---- steps (where the game is; the pending decision follows from it) ---------------------------------------------
(
    ST_LOCATION,  # 1P picks the battlefield from the location pile
    ST_LEADER,  # setup_player picks the leader among the drawn characters
    ST_LEADER_SLOT,  # setup_player puts the leader on a grid slot
    ST_PLACE,  # setup_player places the next drawn character face down (slot) or sends it to the reserves (pass)
    ST_TRIM,  # setup_player discards reserve characters beyond 3
    ST_BATTLE,  # the actor takes an action or passes
    ST_SLOT,  # the actor picks one of its own grid slots for the pending action
    ST_TARGET,  # the actor picks an opposing grid slot for the pending action
    ST_DISCARD,  # a player discards a card from hand for the pending action (cost, Throw, Steal)
    ST_JUMP,  # the actor may Jump-attack with the character it just reinforced
    ST_KEEP,  # the battle winner picks characters to keep in the reserves
    ST_HAND,  # Resolution: setup_player discards any number of cards from hand
    ST_PILE,  # a player picks the card a raise / reclaim / exhume takes back from its discard or doom pile
    ST_OVER,  # the game is over
) = range(14)
NUM_STEPS = 14
STEP_NAMES = (
    "choose location", "choose leader", "place leader", "place characters", "trim reserves", "battle",
    "choose own character", "choose opposing character", "discard", "jump", "keep characters", "resolution discard",
    "take back", "game over",
)

# pending action kinds (what ST_SLOT / ST_TARGET / ST_DISCARD are choosing for)
(
    PK_NONE,
    PK_EQUIP,  # hand equipment -> host slot
    PK_RELIC,  # sideboard relic -> host slot
    PK_REINFORCE,  # reserve character -> empty slot
    PK_CASTER,  # item/spell -> caster / user slot
    PK_OWN_TARGET,  # effect target among own characters
    PK_OPP_TARGET,  # effect target among opposing characters
    PK_RECRUIT,  # Recruit: discards
    PK_APPOINT,  # Appoint: discards, then the new leader's slot
    PK_THROW,  # Throw: which equipment card to discard
    PK_STEAL,  # Steal: the victim discards a card of its choice
    PK_PILE,  # raise / reclaim / exhume: the card to take back (pend_src = the op, pend_target = excluded instance)
) = range(12)
NUM_PENDING = 12
# pend_next of a take-back (PK_PILE): >= 0 the player whose battle action then ends; or the location step to resume
NEXT_LOCATION_OTHER, NEXT_LOCATION_DONE = -10, -11

# sources of an effect being resolved (pend_src)
SRC_CARD, SRC_ABILITY, SRC_LEADER = 0, 1, 2
# ``kept`` once the battle winner passed in ST_KEEP (keeps no more characters); below it, the characters kept so far
KEPT_DONE = 99
# ``battle_winner`` of a battle that ended as a draw (RL-G13); -1 while the battle runs, 0/1 the winner
BATTLE_DRAW = 2

_STATE_FIELDS = card_zones(
    MAX_DECK,
    ("char_deck", CHAR_DECK_SIZE, "character deck stack, instance ids, top = last entry",
     "cards in each character deck"),
    ("item_deck", ITEM_DECK_SIZE, "item deck stack (equipment, items, spells), top = last entry",
     "cards in each item deck"),
    ("hand", HAND_CAP),
    ("lineup", LINEUP_SIZE, "characters drawn this Relic phase, not yet placed (face down)",
     "drawn characters waiting to be placed"),
    ("reserves", RES_CAP, "reserves, face down (their owner may look)", "characters in each reserve"),
    ("hand_aside", ASIDE_CAP, "cards set aside face down for a simultaneous discard (Resolution hand discards, the "
                              "reserve trim), hidden from the opponent until both players chose (RL-G14)",
     "cards each player set aside in the current simultaneous step"),
    ("party", PARTY_SIZE, "characters in play (grid slot in pos)", "characters in each party"),
    ("gear", PARTY_SIZE, "equipment attached to characters in play (host in host)", "attached equipment"),
    ("discard", MAX_DECK),
    ("doom", MAX_DECK, "doom pile, instance ids in order", "cards in each doom pile"),
    ("loc_pile", NUM_LOCATIONS, "this player's location cards still in the shared location pile",
     "location cards in the pile per owner"),
    ("battlefield", 1, "the location card of the current battle (in its owner's slot)",
     "1 for the owner of the battlefield location"),
    ("won", SIDE_CAP, "this player's location cards won by someone (relic controller in controller)",
     "won location cards per owner"),
    ("leader_card", 1, "the leader card", None),
) + per_instance(
    MAX_DECK,
    ("pos", "grid slot 0..5 while in the party, else -1"),
    ("down", "1 while Down"),
    ("face_down", "1 while face down in the party before the reveal"),
    ("att_mod", "ATT modifier until the next Up"),
    ("def_mod", "DEF modifier until the next Up"),
) + fields(
    ("attached", (2, MAX_DECK), "per character: owner*MAX_DECK+instance of its equipment or relic, or -1"),
    ("host", (2, MAX_DECK), "per equipment/relic: the character instance carrying it (controller's party), or -1"),
    ("controller", (2, MAX_DECK), "per won location card: the player whose sideboard holds its relic"),
    ("drawn", (2, MAX_DECK), "per instance: reached the hand or the reserves/line-up at least once (statistics)"),
    ("played", (2, MAX_DECK), "per instance: put into play or used at least once (statistics)"),
    ("known", (2, MAX_DECK), "per instance: 1 while in a hidden zone (hand, reserves) with an identity the opponent "
                             "saw (it came back from play, the discard or the doom pile); hide() keeps it"),
    ("leader", (2,), "party instance carrying the leader card, or -1 (RL-L3)"),
    ("leader_shown", (2,), "1 once this player's leader card was attached face up (RL-G4); before, it is hidden"),
    ("step", (), "ST_* step"),
    ("lead", (), "1P of the current battle"),
    ("first_player", (), "1P of the first battle"),
    ("setup_player", (), "player making the current Relic-phase / Resolution decision"),
    ("actor", (), "player whose battle-phase action it is"),
    ("passes", (), "consecutive passes in the battle phase"),
    ("round", (), "round of the battle phase (Up to Up), from 1"),
    ("battle_turns", (), "battle-phase turns (actions and passes) taken in this battle, for BATTLE_TURN_CAP"),
    ("battle_winner", (), "-1 while the battle runs, 0/1 the winner, 2 a draw"),
    ("retreated", (), "1 when the battle ended by a Retreat"),
    ("kept", (), "characters the winner has kept so far"),
    ("pend_kind", (), "PK_* pending action kind"),
    ("pend_player", (), "player deciding the pending action"),
    ("pend_src", (), "SRC_* source of the pending effect"),
    ("pend_card", (), "pending card instance (hand card, sideboard relic owner*MAX_DECK+inst, reserve character)"),
    ("pend_caster", (), "caster / user / thrower / ability character instance, or -1"),
    ("pend_target", (), "target instance chosen, or -1"),
    ("pend_left", (), "discards still owed for the pending action"),
    ("pend_next", (), "player to act after the pending action (alternation)"),
    ("steal_owed", (2,), "Steal discards each player still owes"),
    ("jumper", (), "character that may Jump, or -1"),
    ("last_event", (), "code of the last notable event (for render)"),
)
STATE = Layout("relics_state", HEADER + _STATE_FIELDS)
STATE_SIZE = STATE.size

STATE.export(globals())  # every field's offset is its name upper-cased (hand_count -> HAND_COUNT, HAND_COUNT_END)

# zone (offset, count offset, width) triples, for generic zone helpers and reset (the leader card has no count: -1)
_C = STATE.constants()
ZONES = tuple((_C[z.upper()], _C.get(z.upper() + "_COUNT", -1), STATE[z].shape[1]) for z in (
    "char_deck", "item_deck", "hand", "lineup", "reserves", "hand_aside", "party", "gear", "discard", "doom",
    "loc_pile", "battlefield", "won", "leader_card"))
del _C


# ---- the row check of the pending choice (``SPEC.extra["check_rows"]``, see cardenvs/core/rows.py) ---------------
# The pending fields are pointers the mask and step kernels follow without bounds checks: ``pend_card`` is a hand,
# reserve or party instance, a leader card, or ``owner * MAX_DECK + instance`` of a relic, depending on ``pend_kind``
# and ``pend_src``. The generic row check cannot know that, so a row written from outside (a restored save, a
# scenario test, check_game's completeness check, which changes one field of a real row) passes here first: the
# pending fields must describe a choice the kernels can reach at the row's step.
_PENDING_AT = {  # step -> the pending kinds it can hold (every other step holds none)
    ST_SLOT: (PK_EQUIP, PK_RELIC, PK_REINFORCE, PK_CASTER, PK_OWN_TARGET, PK_APPOINT),
    ST_TARGET: (PK_OPP_TARGET,),
    ST_DISCARD: (PK_RECRUIT, PK_APPOINT, PK_THROW, PK_STEAL),
    ST_PILE: (PK_PILE,),
}


def _holds(rows: np.ndarray, zone: str, width: int, p: np.ndarray, inst: np.ndarray) -> np.ndarray:
    """``bool[k]``: player ``p[j]``'s ``zone`` of row ``j`` holds instance ``inst[j]`` (-1 is never held)."""
    cols = STATE.offset(zone) + p[:, None] * width + np.arange(width)[None, :]
    return (np.take_along_axis(rows, cols, axis=1) == inst[:, None]).any(axis=1) & (inst >= 0)


def check_rows(rows: np.ndarray, pool_size: int, every: bool = False) -> tuple[int, str] | np.ndarray | None:
    """The first live row of ``rows`` (int32 ``[k, STATE_SIZE]``) whose pending choice no kernel could have left
    (``(row, message)``), or None; with ``every``, ``bool[k]``: every such row. Runs after the generic check (header,
    deck lists, zones are sound)."""
    del pool_size  # pending fields hold instances, not card ids
    rows = np.asarray(rows)
    k = np.arange(rows.shape[0])
    live = rows[:, H_STATUS] == LIVE
    step, kind, src = rows[:, STEP], rows[:, PEND_KIND], rows[:, PEND_SRC]
    player, card = rows[:, PEND_PLAYER], rows[:, PEND_CARD]
    caster, target, jumper = rows[:, PEND_CASTER], rows[:, PEND_TARGET], rows[:, JUMPER]
    problems: list[tuple[np.ndarray, str]] = []

    def bad(mask: np.ndarray, text: str) -> None:
        problems.append((live & mask, text))

    bad((step < 0) | (step >= NUM_STEPS), f"step is no ST_* value (0 to {NUM_STEPS - 1})")
    allowed = np.zeros(rows.shape[0], dtype=bool)
    for st, kinds in _PENDING_AT.items():
        allowed |= (step == st) & np.isin(kind, kinds)
    allowed |= ~np.isin(step, list(_PENDING_AT)) & (kind == PK_NONE)
    bad(~allowed, "pend_kind is not a pending choice of the row's step")
    deciding = np.isin(step, (*_PENDING_AT, ST_JUMP))
    bad(deciding & (player != rows[:, H_TO_ACT]), "pend_player is not the player to act on a pending choice")
    bad(~deciding & (player != -1), "pend_player is set outside a pending choice")
    p = np.clip(player, 0, 1)
    # what pend_card points at, by kind and source
    from_hand = np.isin(kind, (PK_EQUIP,)) | (np.isin(kind, (PK_CASTER, PK_OWN_TARGET, PK_OPP_TARGET))
                                               & (src == SRC_CARD))
    from_party = np.isin(kind, (PK_CASTER, PK_OWN_TARGET, PK_OPP_TARGET)) & (src == SRC_ABILITY)
    from_leader = np.isin(kind, (PK_CASTER, PK_OWN_TARGET, PK_OPP_TARGET)) & (src == SRC_LEADER)
    caster_kinds = np.isin(kind, (PK_CASTER, PK_OWN_TARGET, PK_OPP_TARGET))
    bad(caster_kinds & ~np.isin(src, (SRC_CARD, SRC_ABILITY, SRC_LEADER)), "pend_src is no SRC_* source")
    bad(np.isin(kind, (PK_EQUIP, PK_RELIC, PK_REINFORCE)) & (src != SRC_CARD), "pend_src is not SRC_CARD for a card "
                                                                                "from a hand, sideboard or reserves")
    bad(from_hand & ~_holds(rows, "hand", HAND_CAP, p, card), "pend_card is not in the deciding player's hand")
    bad(from_party & ~_holds(rows, "party", PARTY_SIZE, p, card), "pend_card is not in the deciding player's party")
    bad(from_leader & (card != rows[k, LEADER_CARD + p]), "pend_card is not the deciding player's leader card")
    bad((kind == PK_REINFORCE) & ~_holds(rows, "reserves", RES_CAP, p, card),
        "pend_card is not in the deciding player's reserves")
    owner, inst = np.clip(card // MAX_DECK, 0, 1), np.clip(card % MAX_DECK, 0, MAX_DECK - 1)
    relic = ((card >= 0) & (card < 2 * MAX_DECK) & _holds(rows, "won", SIDE_CAP, owner, inst)
             & (rows[k, CONTROLLER + owner * MAX_DECK + inst] == player)
             & (rows[k, HOST + owner * MAX_DECK + inst] < 0))
    bad((kind == PK_RELIC) & ~relic, "pend_card is no relic in the deciding player's sideboard (owner * MAX_DECK + "
                                     "instance of a won location card it controls, not in play)")
    lineup = (step == ST_LEADER_SLOT) & (kind == PK_NONE)
    setup = np.clip(rows[:, SETUP_PLAYER], 0, 1)
    bad(lineup & ~_holds(rows, "lineup", LINEUP_SIZE, setup, card), "pend_card is not in the line-up of the player "
                                                                     "placing its leader")
    points = from_hand | from_party | from_leader | np.isin(kind, (PK_REINFORCE, PK_RELIC)) | lineup
    bad(~points & (card != -1), "pend_card is set where the pending choice has no card")
    # the characters the pending choice acts with and on
    in_party = _holds(rows, "party", PARTY_SIZE, p, caster)
    bad(((kind == PK_THROW) | (caster_kinds & (src != SRC_CARD))) & ~in_party,
        "pend_caster is not in the deciding player's party")
    bad(caster_kinds & (src == SRC_CARD) & (caster != -1) & ~in_party,
        "pend_caster is neither -1 nor in the deciding player's party")
    bad((kind == PK_THROW) & ~_holds(rows, "party", PARTY_SIZE, 1 - p, target),
        "pend_target is not in the opponent's party")
    bad((step == ST_JUMP) & ~_holds(rows, "party", PARTY_SIZE, p, jumper), "jumper is not in the deciding player's "
                                                                           "party")
    # who decides and the battle's result, by step: the kernels read setup_player and battle_winner, not H_TO_ACT,
    # to pick the next decider, and a battle_winner set during the battle ends it at the next decision (RL-B1..B4)
    to_act, winner, sp = rows[:, H_TO_ACT], rows[:, BATTLE_WINNER], rows[:, SETUP_PLAYER]
    by_setup = np.isin(step, (ST_LOCATION, ST_LEADER, ST_LEADER_SLOT, ST_PLACE, ST_TRIM, ST_KEEP, ST_HAND))
    bad(by_setup & (sp != to_act), "setup_player is not the player to act at a Relic-phase or Resolution step")
    bad(((step < ST_KEEP) | (step == ST_PILE)) & (winner != -1),
        "battle_winner is set before the battle ended (-1 until the Resolution)")
    bad((step == ST_KEEP) & (winner != to_act), "battle_winner is not the player keeping characters (RL-B6)")
    # RL-L3: the leader is a character of its owner's party, or -1
    for q in (0, 1):
        lead_inst = rows[:, LEADER + q]
        bad((lead_inst != -1) & ~_holds(rows, "party", PARTY_SIZE, np.full_like(lead_inst, q), lead_inst),
            f"leader[{q}] is neither -1 nor a character of player {q}'s party")
    # RL-E1..E3: attached and host link a character in play and its one equipment or relic, both ways
    att = rows[:, ATTACHED:ATTACHED + 2 * MAX_DECK]
    host = rows[:, HOST:HOST + 2 * MAX_DECK]
    bad(((att < -1) | (att >= 2 * MAX_DECK)).any(axis=1), "attached is neither -1 nor owner * MAX_DECK + instance")
    bad(((host < -1) | (host >= MAX_DECK)).any(axis=1), "host is neither -1 nor an instance")
    back = np.take_along_axis(host, np.clip(att, 0, 2 * MAX_DECK - 1), axis=1)
    chars = np.tile(np.arange(MAX_DECK), 2)[None, :]
    bad(((att >= 0) & (back != chars)).any(axis=1), "attached names a card whose host is not that character")
    for q in (0, 1):
        party = rows[:, PARTY + q * PARTY_SIZE:PARTY + (q + 1) * PARTY_SIZE]
        in_party = (party[:, :, None] == np.arange(MAX_DECK)[None, None, :]).any(axis=1)
        bad(((att[:, q * MAX_DECK:(q + 1) * MAX_DECK] >= 0) & ~in_party).any(axis=1),
            f"attached is set for a character not in player {q}'s party")
    code = np.arange(2 * MAX_DECK)[None, :]
    hc = np.clip(host, 0, MAX_DECK - 1)
    linked = ((np.take_along_axis(att[:, :MAX_DECK], hc, axis=1) == code)
              | (np.take_along_axis(att[:, MAX_DECK:], hc, axis=1) == code))
    bad(((host >= 0) & ~linked).any(axis=1), "host names a character that does not carry the card (attached)")
    # RL-E1: an equipment in play is in its owner's gear, carried by a character; a card in a deck, a hand, the
    # reserves, the line-up, set aside or in a pile carries nothing and is carried by nothing
    for q in (0, 1):
        gear = rows[:, GEAR + q * PARTY_SIZE:GEAR + (q + 1) * PARTY_SIZE]
        bad(((gear >= 0) & (np.take_along_axis(host[:, q * MAX_DECK:(q + 1) * MAX_DECK], np.clip(gear, 0, MAX_DECK - 1),
                                               axis=1) < 0)).any(axis=1), f"a card in player {q}'s gear has no host")
        for zone in ("char_deck", "item_deck", "hand", "lineup", "reserves", "hand_aside", "discard", "doom"):
            width = STATE[zone].shape[1]
            held = rows[:, STATE.offset(zone) + q * width:STATE.offset(zone) + (q + 1) * width]
            ci = np.clip(held, 0, MAX_DECK - 1)
            carried = (np.take_along_axis(host[:, q * MAX_DECK:(q + 1) * MAX_DECK], ci, axis=1) >= 0)
            carries = (np.take_along_axis(att[:, q * MAX_DECK:(q + 1) * MAX_DECK], ci, axis=1) >= 0)
            bad(((held >= 0) & (carried | carries)).any(axis=1),
                f"a card in player {q}'s {zone} has a host or an attachment (only cards in play do)")
    # RL-G5/G6, RL-U7: a face-down character entered play Up with no modifier, and no effect reaches it before the
    # reveal (board.enter_party; the battle starts after it), so it is neither Down nor boosted
    face_down = rows[:, FACE_DOWN:FACE_DOWN + 2 * MAX_DECK] != 0
    for name, start in (("down", DOWN), ("att_mod", ATT_MOD), ("def_mod", DEF_MOD)):
        bad((face_down & (rows[:, start:start + 2 * MAX_DECK] != 0)).any(axis=1),
            f"{name} is set for a face-down character (nothing acts on it before the reveal)")
    if every:
        return np.logical_or.reduce([mask for mask, _ in problems])
    for mask, text in problems:
        if mask.any():
            j = int(np.flatnonzero(mask)[0])
            return j, (f"state fields step {rows[j, STEP]}, pend_kind {rows[j, PEND_KIND]}, pend_src "
                       f"{rows[j, PEND_SRC]}, pend_player {rows[j, PEND_PLAYER]}, pend_card {rows[j, PEND_CARD]}, pend_caster "
                       f"{rows[j, PEND_CASTER]}, pend_target {rows[j, PEND_TARGET]}, jumper {rows[j, JUMPER]}: {text} "
                       f"(no kernel leaves such a row)")
    return None
