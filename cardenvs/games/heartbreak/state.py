"""The heartbreak state row: one int32 row per game, declared once as a :class:`Layout`.

Card instances: instance ``i`` of player ``p`` is the card ``deck_list[p, i]``. Zones hold instance ids, compact
(-1 after the last entry). Stacks whose top matters (deck, heart) keep their top as the *last* entry, so a draw or a
break is a pop. Per-instance data (damage, rest, modifiers, the fighter a stock card lies under) lives in
``(2, MAX_DECK)`` fields indexed by instance id, so it moves with the card.
"""
from __future__ import annotations

from cardenvs.core.header import HEADER
from cardenvs.core.layout import Layout, card_zones, fields, per_instance

# ---- sizes and caps (documented in RULES.md) ---------------------------------------------------------------------
# No limit below is a rule of the game: the rulebook prints no deck maximum, no hand limit and no heart limit, so
# every zone holds every card a player owns (HB-D9, HB-E3, HB-H10). The widths follow from the deck rules:
MIN_DECK = 50  # HB-D1
MAX_COPIES = 4  # HB-D2
MAX_TITLES = 60  # a card pool holds at most this many titles (cards.load_pool; see HAND_SLOTS for why)
MAX_DECK = MAX_COPIES * MAX_TITLES  # HB-D9: 4 copies of every title (HB-D2) is the largest legal deck: 240
OPENING_HAND_SIZE = 5  # HB-S4
START_HEART_SIZE = 5  # HB-S5 / HB-H1
HAND_CAP = MAX_DECK  # HB-E3: no hand limit: every card of the deck fits (the engine never discards from a full hand)
HEART_CAP = MAX_DECK  # HB-H10: no heart limit: add_heart (High Tide) always adds while the deck has cards
# The observation and the action space address fewer places than the state holds (their layout is what the shipped
# policies read, and it is unchanged): 60 hand slots, 60 setup choices, the top 10 heart cards. None of them limits
# play: a pool has at most 60 titles, so ``board.hand_window`` keeps one copy of every distinct hand card in the
# first 60 hand slots (copies are interchangeable), and ``reset_row`` puts the first copy of every distinct deck
# card among the first 60 deck instances (setup offers one action per distinct card). Heart cards below the top
# 10 are face down (hidden from both players) or counted in ``public_cards``.
HAND_SLOTS = MAX_TITLES  # hand cards the observation shows and the hand / onto actions address
LEAD_SLOTS = MAX_TITLES  # deck instances the choose_lead actions and lead_options address
HEART_SLOTS = 10  # heart cards the observation shows per player: the top 10, bottom first
BACKUP_CAP = 3  # HB-F4: 1 Lead + 3 Back-Up
FIELD_CAP = 1 + BACKUP_CAP
STOCK_CAP = MAX_DECK  # stock cards of one player over all fighters: every card of the deck fits (no engine limit)
RESOLVING_CAP = 4  # support / climax cards of one player on the response stack
STACK_CAP = 4  # the play + the opponent's Turbo + the turn player's answer (HB-R6), one spare
NUM_STACK_COLS = 6
TRIG_CAP = 8  # simultaneous triggered abilities waiting for an order (4 fighters per player)
MAX_SKILLS = 2
MAX_ACTIONS = 2
TURN_CAP = 120  # HB-V6: the game ends as a draw (status 1, winner 2) when turn 121 would start
POOL_CAP = 64  # card ids the observation's public per-card counts cover (4 more than MAX_TITLES: layout kept)
DECISION_CAP = 4000  # truncate after this many agent decisions (a backstop; random games take ~200)

# ---- steps -------------------------------------------------------------------------------------------------------
(
    ST_SETUP_LEAD,  # setup_player chooses a Lead from the deck (HB-S1)
    ST_START,  # forced: deck-out check, turn counter, start-of-turn triggers collected (HB-P1)
    ST_TRIGGERS,  # pending triggered abilities: the owner picks the order (HB-L5/L6)
    ST_DRAW,  # forced: draw step (HB-P2)
    ST_CHARGE,  # the turn player may charge a hand card, then draws (HB-P3)
    ST_RISE,  # forced: the turn player's fighters rise (HB-P4)
    ST_REFILL,  # the turn player moves a Back-Up fighter into an empty Lead (HB-P5)
    ST_MAIN,  # main phase decisions (HB-M*)
    ST_ACTION_START,  # forced: empty-field heartbreaks (HB-A2/A3)
    ST_ACTION,  # declare an action, play a Turbo, or go to the climax phase
    ST_TARGET,  # a [Bypass] attacker picks its target
    ST_CLIMAX,  # play a Climax card, a Turbo, or end the turn
    ST_END,  # forced: end-of-turn triggers collected (HB-E1)
    ST_CLEANUP,  # forced: deck-out check, end of turn, next turn (HB-E2)
    ST_WINDOW,  # a response window: the responder plays a Turbo or passes (HB-R*)
    ST_START_OPEN,  # the turn player may play Turbos at the end of the start phase, then goes to the main phase (HB-R3)
    ST_END_OPEN,  # the turn player may play Turbos after the end-phase triggers, then ends the turn (HB-R3)
    ST_CHOOSE,  # an effect being resolved needs its player's choice (swap_lead: which Back-Up; evolve: what onto what)
) = range(18)
NUM_STEPS = 18
STEP_NAMES = (
    "choose Lead", "start phase", "order triggers", "draw step", "charge step", "rise", "refill Lead", "main phase",
    "action phase start", "action phase", "attack target", "climax phase", "end phase", "end of turn",
    "response window", "start phase (Turbo)", "end phase (Turbo)", "effect choice",
)

# stack entry kinds
K_PHASE, K_CARD, K_CALL, K_PLAYED, K_SKILL, K_ACTION, K_TRIGGER = range(7)
KIND_NAMES = ("phase change", "card", "call", "card play", "skill", "action", "trigger")
# stack entry columns
SK_KIND, SK_PLAYER, SK_INST, SK_INDEX, SK_TARGET, SK_CANCEL = range(NUM_STACK_COLS)
# waiting trigger columns
NUM_TRIG_COLS = 2
TQ_PLAYER, TQ_INST = range(NUM_TRIG_COLS)

_D = MAX_DECK
_STATE_FIELDS = card_zones(
    _D,
    ("deck", _D),
    ("hand", HAND_CAP),
    ("heart", HEART_CAP, "heart stack, instance ids, top = last entry (face-up flag in face_up)",
     "cards in each heart"),
    ("charge", _D, "charge zone, instance ids, oldest first", "cards in each charge zone"),
    ("discard", _D),
    ("lead", 1, "Lead fighter instance", None),
    ("backup", BACKUP_CAP, "Back-Up fighters, instance ids (unordered slots, kept compact)",
     "Back-Up fighters of each player"),
    ("stock", STOCK_CAP, "stock cards of all fighters of a player (the host in stock_host)",
     "stock cards of each player"),
    ("resolving", RESOLVING_CAP, "support / climax cards on the response stack", "cards of each player on the stack"),
) + per_instance(
    _D,
    ("damage", "damage on a fighter"),
    ("rested", "1 while rested"),
    ("face_up", "1 when face up (field, public heart and stock cards, discard)"),
    ("since_turn", "turn in which the fighter entered the field (call or evolve)"),
    ("acted", "actions declared this turn"),
    ("skills_used", "bit k set once skill k was used this turn"),
    ("stock_host", "the fighter this stock card lies under, -1 otherwise"),
    # "until end of turn" modifiers, cleared when the card leaves the field (board.clear_instance)
    ("mod_armor", "Armor until end of turn"),
    ("mod_ward", "Ward until end of turn"),
    ("mod_counter", "Counter until end of turn"),
    ("mod_hp", "HP change until end of turn"),
    ("mod_attack", "attack damage bonus until end of turn"),
    ("mod_strike", "X Strike granted until end of turn (0 none)"),
    ("mod_bypass", "Bypass granted until end of turn"),
    ("silenced", "abilities and skills inactive until end of turn"),
    "drawn",
    "played",
) + fields(
    ("step", (), "ST_* step"),
    ("turn_player", (), "player whose turn it is"),
    ("first_player", (), "player who went first"),
    ("setup_player", (), "player choosing a Lead at setup"),
    ("swap_used", (), "1 once the turn player swapped this turn (HB-M4)"),
    ("climax_used", (), "1 once the turn player played a Climax card this turn (HB-X3)"),
    ("pending_action", (), "action index waiting for a [Bypass] target (ST_TARGET)"),
    ("ret_step", (), "step to return to when the response window closes and the stack resolves"),
    ("win_actor", (), "player whose play opened the response window"),
    ("win_stage", (), "Turbos played in this window (the responder alternates, the actor's opponent first); "
                      "WIN_RESOLVING (9) once the stack resolves"),
    ("stack", (STACK_CAP, NUM_STACK_COLS), "response stack (kind, player, instance, index, target, cancelled)"),
    ("stack_count", (), "entries on the stack"),
    ("trig", (TRIG_CAP, NUM_TRIG_COLS), "triggered abilities waiting: (player, instance)"),
    ("trig_count", (), "entries in trig"),
    ("trig_kind", (), "trigger of the waiting abilities (TR_* in tables.py)"),
    ("trig_next", (), "step after the waiting abilities have resolved"),
    ("lost", (2,), "1: this player met a loss condition (resolved into winner/draw at once)"),
    ("choice_kind", (), "ST_CHOOSE: 1 swap_lead (pick a standing Back-Up), 2 evolve (pick hand card and fighter)"),
    ("choice_player", (), "ST_CHOOSE: the player who chooses"),
    ("choice_value", (), "the choice made for the paused effect (-1 none yet; -2 nothing eligible)"),
    ("resume_effect", (), "effect index at which the top stack entry resumes after a choice (0 from the start)"),
    ("kw_counter", (), "the attacked fighter whose [Counter] triggers once the action's [X Strike] entry has "
                       "resolved (-1 none; HB-R2)"),
    ("kw_attacker", (), "the attacker that waiting [Counter] hits (-1 none)"),
)
STATE = Layout("heartbreak_state", HEADER + _STATE_FIELDS)
STATE_SIZE = STATE.size

STATE.export(globals())  # every field's offset is its name upper-cased (hand_count -> HAND_COUNT), + FIELD_END
CH_NONE, CH_SWAP, CH_EVOLVE = 0, 1, 2  # choice_kind: no effect choice pending / which Back-Up / what onto what
CHOICE_NONE, CHOICE_NOTHING = -1, -2  # choice_value: no choice made yet / nothing eligible (the player passed)
WIN_RESOLVING = 9  # win_stage once the window has closed and the stack is resolving

#: zone fields and their widths, in the order reset_row clears them
ZONE_NAMES = ("deck", "hand", "heart", "charge", "discard", "lead", "backup", "stock", "resolving")
