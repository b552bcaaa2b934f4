"""The divinecross state row: one int32 row per game, declared once as a :class:`Layout`.

Card instances: instance ``i`` of player ``p`` is the card ``deck_list[p, i]``. Zones hold instance ids, compact
(-1 after the last card). The deck is a stack whose top is the *last* entry, so a draw is a pop. Energy and Assists
attached to a Unit sit in the ``energy`` / ``assist`` zones; ``host[p, i]`` names the Unit instance card ``i`` is
attached to, so attachments move with their Unit between the Main and Standby Areas (DC-C6). Per-instance data
(damage, temporary modifiers, face-up flags) lives in ``(2, DECK_SIZE)`` fields indexed by instance id.
"""
from __future__ import annotations

from cardenvs.core.header import HEADER
from cardenvs.core.layout import Layout, card_zones, fields, per_instance

# ---- sizes and caps (documented in RULES.md) ---------------------------------------------------------------------
DECK_SIZE = 30  # DC-D1
MAX_COPIES = 2  # DC-D3
POOL_CAP = 64  # card ids the per-card-id counts (observation, ``shown``) cover (the loader rejects larger pools)
HAND_CAP = DECK_SIZE  # DC-T9: no hand limit; a hand can hold the whole deck
OPENING_HAND_SIZE = 5  # DC-S3
STANDBY_CAP = 3  # DC-U3
AREA_SIZE = 1 + STANDBY_CAP  # unit positions: 0 = Main Area, 1..3 = Standby slots
POS_MAIN = 0  # the unit position of the Main Area (Standby slot s is position s + 1)
KO_LIMIT = 3  # DC-V1: the third card in your KO Zone loses
KO_CAP = 8  # physical KO zone size: at most 2 + 4 cards can be there when the loss is checked
DECKOUT_DAMAGE = 100  # DC-T3
POISON_DAMAGE = 100  # DC-N4
TURN_CAP = 100  # DC-V3: truncate (status 2) when turn 101 would start
DECISION_CAP = 3000  # truncate after this many agent decisions (a backstop; random games take far fewer)
REDEAL_CAP = 200  # truncate if setup is redone this often (a deck with 1 Unit redeals ~6 times on average)

# ---- steps (where the game is; the pending decision follows from it) ---------------------------------------------
(
    ST_SETUP_PLACE,  # both hands checked (forced redeals), then setup_player puts a Unit face down as Main Unit
    ST_EXTRA_DRAW,  # after the redeals, each player may draw 1 extra card per opponent redeal
    ST_START,  # forced: rock-paper-scissors, Main Units turn face up
    ST_DRAW,  # forced: Draw Phase
    ST_MAIN,  # Main Phase: the turn player's actions
    ST_ASSIST_HOST,  # the turn player chooses the Unit the Assist being played attaches to
    ST_BATTLE,  # Battle Phase: use 1 skill of the Main Unit or end the phase
    ST_END,  # forced: End Phase stages
) = range(8)
NUM_STEPS = 8
STEP_NAMES = (
    "setup: place main unit", "setup: extra draw", "start of game", "draw phase", "main phase",
    "choose assist host", "battle phase", "end phase",
)
# End Phase stages (``end_stage``), run in this order by rules.advance: DC-N4 poison, DC-N2 stun wears off, then
# the turn passes (temporary modifiers cleared)
ES_POISON, ES_STUN, ES_PASS_TURN = range(3)

_STATE_FIELDS = card_zones(
    DECK_SIZE,
    ("deck", DECK_SIZE),
    ("hand", HAND_CAP),
    ("main", 1, "Main Area unit instance (-1 only while a KO'd Main Unit awaits its replacement)", None),
    ("standby", STANDBY_CAP, "Standby Area units, instance ids in slot order", "units in each Standby Area"),
    ("energy", DECK_SIZE, "Energy attached to units (host in host)", "entries in each energy zone"),
    ("assist", DECK_SIZE, "Assists attached to units (host in host)", "entries in each assist zone"),
    ("ko", KO_CAP, "KO Zone, instance ids in order (face up)", "cards in each KO Zone"),
    ("discard", DECK_SIZE, "discard pile, instance ids in order (face up)", "cards in each discard pile"),
) + per_instance(
    DECK_SIZE,
    ("host", "the unit instance an Energy/Assist card is attached to, else -1"),
    ("damage", "damage on a unit (DC-U6)"),
    ("boost", "skill damage +/- until end of turn (step 2 modifier)"),
    ("guard", "skill damage taken -X until its owner's next turn (step 3 modifier)"),
    ("face_up", "1 when face up (Main Unit after the reveal, area, KO, discard)"),
    "drawn",
    "played",
) + fields(
    ("stunned", (2,), "1 while the player's Main Unit has a stun marker"),
    ("poisoned", (2,), "1 while the player's Main Unit is Poisoned"),
    ("charged", (2,), "1 once the player charged this turn (DC-C1)"),
    ("retreated", (2,), "1 once the player retreated this turn (DC-R1)"),
    ("event_played", (2,), "1 once the player played an Event this turn (DC-E2)"),
    ("ex_used", (2,), "1 once the player used their EX-Power (DC-K5, once per game)"),
    ("redeals", (2,), "times the player redid setup for lack of a Unit (DC-S5)"),
    ("extra_left", (2,), "extra setup draws still on offer to the player, one per opponent redeal (DC-S6)"),
    ("shown", (2, POOL_CAP), "per card id: the most copies of it one of the player's redeal reveals showed (DC-S5)"),
    ("promote", (), "bit p set while player p must move a Standby Unit up (DC-O5)"),
    ("step", (), "ST_* step"),
    ("turn_player", (), "player whose turn it is"),
    ("first_player", (), "player who went first (DC-S7)"),
    ("setup_player", (), "player whose setup placement is pending (-1 while the hands are being checked)"),
    ("extra_player", (), "player offered the extra draw after the opponent's redeal"),
    ("pending_card", (), "hand instance of the Assist waiting for its host, else -1"),
    ("end_stage", (), "End Phase stage (ES_* in state.py)"),
    ("last_damage", (), "damage dealt by the last skill (for the text view and tests)"),
)
STATE = Layout("divinecross_state", HEADER + _STATE_FIELDS)
STATE_SIZE = STATE.size

# every field's offset, named after the field upper-cased (hand_count -> HAND_COUNT); a field read as a range
# also has one past its end (HAND_END). The kernels read them as S.HAND (``from . import state as S``).
(
    DECK_LIST, DECK, HAND, MAIN, STANDBY, ENERGY, ASSIST, KO, DISCARD, DECK_COUNT, HAND_COUNT, STANDBY_COUNT,
    ENERGY_COUNT, ASSIST_COUNT, KO_COUNT, DISCARD_COUNT, HOST, DAMAGE, BOOST, GUARD, FACE_UP, DRAWN, PLAYED, STUNNED,
    POISONED, CHARGED, RETREATED, EVENT_PLAYED, EX_USED, REDEALS, EXTRA_LEFT, SHOWN, PROMOTE, STEP, TURN_PLAYER,
    FIRST_PLAYER, SETUP_PLAYER, EXTRA_PLAYER, PENDING_CARD, END_STAGE, LAST_DAMAGE,
) = STATE.offsets(
    "deck_list", "deck", "hand", "main", "standby", "energy", "assist", "ko", "discard", "deck_count", "hand_count",
    "standby_count", "energy_count", "assist_count", "ko_count", "discard_count", "host", "damage", "boost", "guard",
    "face_up", "drawn", "played", "stunned", "poisoned", "charged", "retreated", "event_played", "ex_used", "redeals",
    "extra_left", "shown", "promote", "step", "turn_player", "first_player", "setup_player", "extra_player",
    "pending_card", "end_stage", "last_damage",
)
(
    DECK_LIST_END, DECK_END, HAND_END, MAIN_END, STANDBY_END, ENERGY_END, ASSIST_END, KO_END, DISCARD_END, HOST_END,
    BOOST_END,
) = (STATE.slice(name).stop for name in (
    "deck_list", "deck", "hand", "main", "standby", "energy", "assist", "ko", "discard", "host", "boost",
))
