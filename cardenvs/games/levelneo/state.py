"""The levelneo state row: one int32 row per game, declared once as a :class:`Layout`.

Card instances: instance ``i`` of player ``p`` is the card ``deck_list[p, i]``. Zones hold instance ids, compact
(-1 after the last card). Per-instance data (rest, face-up, AP modifiers, stats) lives in ``(2, 40)`` fields indexed
by instance id, so it moves with the card. The deck is an ordered stack whose top is the *last* entry
(``deck[p, deck_count[p] - 1]``), so a draw is a pop.
"""
from __future__ import annotations

from cardenvs.core.header import HEADER
from cardenvs.core.layout import Layout, card_zones, fields, per_instance

# ---- sizes and caps (documented in RULES.md) ---------------------------------------------------------------------
DECK_SIZE = 40  # LN-D1
MAX_COPIES = 3  # LN-D2
HAND_CAP = 16  # LN-D5: hand limit (the action and observation spaces have 16 hand slots); a deck that could draw
#               a 17th card is refused when it is loaded (cards.hand_bound); unchecked decks: the card is discarded
OPENING_HAND_SIZE = 6  # LN-S3
MAX_KEPT_HAND = 6  # LN-T7: the most cards kept at end of turn (discard down to 6 when holding 7 or more)
SUPPORT_CAP = 4  # LN-T10 (gap): support zone capacity
MAX_LEVEL = 5  # LN-L5/L6: level 5 is Level Neo (the highest level)
LEVEL_CAP = MAX_LEVEL - 1  # the level zone holds at most 4 cards (level = cards + 1)
AP_PER_LEVEL = 500  # LN-L4
MAX_POOL = 128  # cards, and distinct skills, in a pool (cards.MAX_POOL): the observation counts per card/skill id
USED_BITS = 16  # skills per word of used_skills (a bit set: every skill of the pool fits, LN-K4 has no cap)
USED_WORDS = MAX_POOL // USED_BITS
TURN_CAP = 80  # LN-V3: truncate (status 2) when turn 81 would start
# triggered effect sources waiting to resolve: one entry per source and trigger, queued only while the queue is
# empty (effects resolve before the next decision and trigger nothing themselves), and the most sources one event
# triggers at once are the turn player's main and supports at end of turn (on_attack/on_win: 2, bursts, plays: 1),
# so no pool can queue more than this (RULES.md "Caps")
QUEUE_CAP = 1 + SUPPORT_CAP
DECISION_CAP = 10_000  # truncate after this many agent decisions (a backstop behind TURN_CAP; games take ~300-800)

# ---- steps (where the game is; the pending decision follows from it) ---------------------------------------------
(
    ST_ORDER,  # the rock-paper-scissors winner chooses to go first or second
    ST_CHOOSE_MAIN,  # setup_player chooses a turn-cost-1 character from the deck as main character
    ST_MULLIGAN,  # setup_player returns cards to the bottom one at a time, or keeps (redraw to 6)
    ST_TURN_START,  # forced: marker +1, draw, activate
    ST_MAIN,  # main phase (1 or 2): sub 0 the turn player, sub 1 the opponent's window
    ST_BATTLE_WINDOW,  # window before an attack declaration
    ST_ATTACK,  # the turn player declares an attacker or ends the battle phase
    ST_PARTNER,  # combi partner or none
    ST_TARGET,  # attack target
    ST_DECL_WINDOW,  # window after the declaration
    ST_COVER,  # the defender may cover
    ST_COVER_WINDOW,  # window after cover
    ST_BURST,  # Level Burst alternation
    ST_JUDGE,  # forced: battle judgement
    ST_LEVEL_DOWN,  # the defending player chooses the level card to discard
    ST_COMBI_LOSS,  # the winning player chooses which of two attacking supports is discarded
    ST_BATTLE_END,  # forced: clear the battle, back to the battle window
    ST_END,  # end of turn: end-of-turn skills, discards down to 6, expiry
    ST_LEVEL_UP,  # the player whose main won the battle chooses whether to level up (LN-L2: "may"; LN-J2)
) = range(19)
NUM_STEPS = 19
STEP_NAMES = (
    "choose turn order", "choose main character", "mulligan", "start of turn", "main phase", "battle phase",
    "attack declaration", "combi partner", "attack target", "after declaration", "cover", "after cover",
    "level burst", "battle judgement", "level down", "combi loss", "battle end", "end of turn", "level up",
)

#: one entry of ``queue`` (``QUEUE + k * QUEUE_ENTRY_SIZE + QUEUE_ENTRY_*``): an effect source waiting to resolve
QUEUE_ENTRY = Layout("levelneo_queue_entry", fields(
    ("player", (), "owner of the effect source"),
    ("inst", (), "the source's card instance"),
    ("trigger", (), "TR_* trigger whose effects resolve"),
    ("next_effect", (), "index of the first of its effects still to resolve (after a choice: the one after it)"),
))
QUEUE_ENTRY_PLAYER, QUEUE_ENTRY_INST, QUEUE_ENTRY_TRIGGER, QUEUE_ENTRY_NEXT_EFFECT = QUEUE_ENTRY.offsets(
    "player", "inst", "trigger", "next_effect")
QUEUE_ENTRY_SIZE = QUEUE_ENTRY.size

# ---- codes of the result and end_stage fields --------------------------------------------------------------------
RES_NONE, RES_ATTACKER, RES_DEFENDER, RES_TIE = range(4)  # LN-J1: a tie is a loss for both
(
    ES_SKILLS,  # end-of-turn skills of the turn player's characters are queued
    ES_DISCARD_TURN_PLAYER,  # the turn player discards down to MAX_KEPT_HAND
    ES_DISCARD_OPPONENT,  # then the opponent
    ES_CLEANUP,  # "until end of turn" effects end, the turn passes
) = range(4)

_STATE_FIELDS = card_zones(
    DECK_SIZE,
    ("deck", DECK_SIZE),
    ("hand", HAND_CAP),
    ("main", 1, "main character instance", None),
    ("support", SUPPORT_CAP, "support zone, instance ids in slot order", "supports on each field"),
    ("level", LEVEL_CAP, "level zone, instance ids (face-up flag in face_up)",
     "cards in each level zone (level = count + 1)"),
    ("discard", DECK_SIZE),
) + per_instance(
    DECK_SIZE,
    ("rested", "1 while Rest"),
    ("face_up", "1 when face up (main after setup, burst-revealed level cards)"),
    ("attacked", "attacked this turn"),
    ("ap_turn", "AP modifier until end of turn"),
    ("ap_next", "AP modifier until the end of its next battle (or end of turn)"),
    ("ap_battle", "AP modifier until the end of the current battle (bursts)"),
    "drawn",
    "played",
) + fields(
    ("marker", (2,), "turn markers (LN-S5, LN-T1)"),
    ("mulligan_used", (2,), "1 once the player has made the once-per-game mulligan decision"),
    ("used_skills", (2, USED_WORDS), "skills used this turn by each player (LN-K4), a bit set: skill id s is bit "
                                     "s % 16 of word s // 16"),
    ("no_level_down", (2,), "1: this player's main cannot level down this battle"),
    ("step", (), "ST_* step"),
    ("sub", (), "window initiative: 0 the turn player, 1 the opponent"),
    ("window_passes", (), "consecutive passes in the open window (it closes at 2: both passed in succession)"),
    ("main_phase", (), "1 or 2"),
    ("turn_player", (), "player whose turn it is"),
    ("first_player", (), "player who went first"),
    ("rps_winner", (), "winner of the rock-paper-scissors draw (chooses the turn order)"),
    ("setup_player", (), "player making the current setup decision"),
    ("support_played", (), "1 once the turn player played a support this main phase"),
    ("battle", (), "1 while a battle is declared and not yet over"),
    ("atk_a", (), "attacking instance (main or support)"),
    ("atk_b", (), "combi partner instance or -1"),
    ("target", (), "defending instance (after cover: the covering support)"),
    ("covered", (), "1 when the defender covered"),
    ("orig_target", (), "target declared before any cover"),
    ("burst_player", (), "player whose Level Burst choice is pending"),
    ("burst_failed", (2,), "1: this player's burst failed this battle (LN-B4)"),
    ("burst_passes", (), "consecutive passes in the burst alternation"),
    ("result", (), "battle result (RES_*): 0 none yet, 1 attacker won, 2 defender won, 3 tie"),
    ("pending_level_down", (), "player who must choose a level card to discard, or -1"),
    ("combi_chooser", (), "player who chooses the discarded combi attacker, or -1"),
    ("end_stage", (), "end-of-turn sub-step (ES_*)"),
    ("queue", (QUEUE_CAP, QUEUE_ENTRY_SIZE), "effects waiting to resolve (entries: queue_entry below), first in first "
                                             "out"),
    ("choice_player", (), "player choosing the support a one-support effect applies to, or -1"),
    ("choice_inst", (), "instance whose effect waits for that choice"),
    ("choice_effect", (), "index of that effect on its card"),
    ("queue_count", (), "entries in queue"),
)
STATE = Layout("levelneo_state", HEADER + _STATE_FIELDS)
STATE_SIZE = STATE.size

STATE.export(globals())  # every field's offset: DECK_LIST, HAND_COUNT, QUEUE ... and one past its end: HAND_END

