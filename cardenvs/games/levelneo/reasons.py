"""Why an action is illegal: levelneo's reason codes, each with its message template, declared once.

``rules.legal_row`` (the body of ``mask_row``) writes one of these codes for every action it refuses, from the very
branch that refuses it, when asked to record (``rules.why_row``); ``text.explain_illegal`` fills the template with
names and counts from the row. ``NONE`` (0) marks a legal action. The ``IDLE_*`` codes say why one effect would change
nothing (``effects.effect_idle``); ``NOTHING_TO_DO``'s text lists them for the card's effects.

Templates are ``str.format`` strings; the fields they name are filled by ``text.py`` (``{card}`` is a quoted card name,
or "it" after the "event 'X': " / "the [Use] skill of 'X': " prefix that ``USE_REASONS`` get). Codes fit the int8
array ``why_row`` writes.
"""
from __future__ import annotations

from .tables import Numbered

REASONS = Numbered("levelneo_reasons")
NONE = REASONS.add("none", "")
GAME_OVER = REASONS.add("game_over", "the game is over: nobody has a decision")
NOT_YOUR_DECISION = REASONS.add("not_your_decision", "it is not your decision: P{to_act} decides now (step: {step})")
WRONG_STEP = REASONS.add("wrong_step", "the step is '{step}'; this action is allowed only {where}")
MUST_CHOOSE = REASONS.add("must_choose", "you cannot pass in the '{step}' step: one of the listed choices must be made")
NO_CHOICE = REASONS.add("no_choice", "no effect waits for a choice of support now; it is used {where}")
# a one-support effect waits for its owner's choice (issue 12 item 14)
CHOICE_PENDING = REASONS.add("choice_pending", "the effect of '{source}' waits for you to choose the support it "
                                               "applies to: only the 'effect target' actions are open now")
CHOICE_SLOT_EMPTY = REASONS.add("choice_slot_empty", "{whose} support {slot} is empty ({whose} support zone holds "
                                                     "{count})")
CHOICE_ITSELF = REASONS.add("choice_itself", "'{source}' cannot choose itself with its own effect")
CHOICE_TRAIT = REASONS.add("choice_trait", "{card} lacks the trait the effect asks for")
CHOICE_RESTING = REASONS.add("choice_resting", "the effect needs an Active support and {card} is resting")
CHOICE_ACTIVE = REASONS.add("choice_active", "the effect needs a resting support and {card} is Active")
# hand cards: supports (LN-T2/T6/T9/T10, LN-D4) and events
HAND_EMPTY = REASONS.add("hand_empty", "hand slot {i} is empty (you hold {held})")
SUPPORT_NOT_NOW = REASONS.add("support_not_now", "{card} is a character: supports are played only in your own main "
                                                 "phase and {now}; only events can be played here")
SUPPORT_PLAYED = REASONS.add("support_played", "you already played a support this main phase (one support per main "
                                               "phase)")
SUPPORT_ZONE_FULL = REASONS.add("support_zone_full", "your support zone is full ({cap} supports)")
TURN_COST = REASONS.add("turn_cost", "{card} costs turn cost {cost} and you have {markers}")
COLOUR = REASONS.add("colour", "{card} has a colour cost: it needs a {color} character on your field (main or "
                               "support) and you have none")
# events and [Use] skills (LN-K3/K4/K5, LN-T3)
TIMING_TAG = REASONS.add("timing_tag", "its timing tag allows it {allows}; now it is the {phase} phase of "
                                       "{whose_turn} turn")
REST_COST = REASONS.add("rest_cost", "its cost is to rest this character, and it is already resting")
SKILL_USED = REASONS.add("skill_used", "the skill '{skill}' was already used this turn (each skill once per turn)")
LEVEL_REQUIREMENT = REASONS.add("level_requirement", "it needs your main character at level {need} (Lv {need}) and "
                                                     "it is level {level}")
CONDITION = REASONS.add("condition", "its condition '{cond}' is not met: {cond_words}")
NOTHING_TO_DO = REASONS.add("nothing_to_do", "it would do nothing now: {idle}")
NO_USE_SKILL = REASONS.add("no_use_skill", "{card} has no [Use] skill")
# the field: attacks (LN-A*), combis, targets, cover (LN-C*)
SUPPORT_EMPTY = REASONS.add("support_empty", "your support {slot} is empty (you have {supports})")
RESTING = REASONS.add("resting", "{card} is resting [R]: {active_need}")
ALREADY_ATTACKED = REASONS.add("already_attacked", "{card} already attacked this turn (marked *)")
NO_RESTING_TARGET = REASONS.add("no_resting_target", "a support can attack only a resting character, and none of the "
                                                     "opponent's characters is resting")
NEO_NO_COMBI = REASONS.add("neo_no_combi", "your main character is Level Neo: a Level Neo main attacks alone (no "
                                           "combi)")
IS_ATTACKER = REASONS.add("is_attacker", "{card} is the attacker itself")
MAIN_TARGETS_MAIN = REASONS.add("main_targets_main", "an attack by your main character (alone or in a combi) must "
                                                     "target the opponent's main")
OPP_SUPPORT_EMPTY = REASONS.add("opp_support_empty", "the opponent's support {slot} is empty (it has "
                                                     "{opp_supports})")
TARGET_ACTIVE = REASONS.add("target_active", "{card} is Active [A]: a support's attack can target only a resting "
                                             "character")
NEO_NO_COVER = REASONS.add("neo_no_cover", "the attacker is a Level Neo main character: its attack cannot be covered")
IS_TARGET = REASONS.add("is_target", "{card} is the attack's target itself")
# Level Burst (LN-B*) and the level zone
NOT_IN_BATTLE = REASONS.add("not_in_battle", "your main character is not in this battle: only a battling main can "
                                             "Level Burst")
BURST_FAILED = REASONS.add("burst_failed", "your Level Burst already failed this battle")
NO_FACE_DOWN = REASONS.add("no_face_down", "you have no face-down level card to reveal")
ONLY_KNOWN = REASONS.add("only_known", "every face-down level card of yours is one you once held: burst with it by "
                                       "its slot ('Level Burst revealing level card k')")
NO_LEVEL_CARD = REASONS.add("no_level_card", "level card {i} does not exist (your level zone holds {levels})")
FACE_UP = REASONS.add("face_up", "level card {i} is already face up")
UNSEEN = REASONS.add("unseen", "you never saw that face-down level card: use the plain 'Level Burst' action (unseen "
                               "cards are indistinguishable)")
# setup: the main character (LN-S2)
NO_DECK_CARD = REASONS.add("no_deck_card", "deck card {i} does not exist (your deck list is shorter)")
NOT_MAIN_CAPABLE = REASONS.add("not_main_capable", "{card} cannot be a main character: only a character with turn "
                                                   "cost 1 can")
COPY = REASONS.add("copy", "{card} is a copy: choose deck card {first}, its first copy (copies are interchangeable)")
# why one effect would change nothing now (effects.effect_idle; LN-T3, issue 39 item 6)
IDLE_INACTIVE = REASONS.add("idle_inactive", "its {op} effect's level requirement (LN-K5) or condition is not met")
IDLE_DECK_EMPTY = REASONS.add("idle_deck_empty", "your deck is empty")
IDLE_OPP_HAND_EMPTY = REASONS.add("idle_opp_hand_empty", "the opponent's hand is empty")
IDLE_LEVEL_NEO = REASONS.add("idle_level_neo", "your main character is at level 5 (Level Neo)")
IDLE_NO_LEVEL_DOWN = REASONS.add("idle_no_level_down", "your main character is not the target of an attack with a "
                                                       "level to lose (only a defending main levels down, LN-J5; not "
                                                       "at level 1, LN-L6), or it is already protected this battle")
IDLE_REST_STATE = REASONS.add("idle_rest_state", "every character it could {op} ({target}) is already {state}, or is "
                                                 "the opponent's and no battle can involve it before its turn starts")
IDLE_NO_BATTLE = REASONS.add("idle_no_battle", "no character it changes ({target}) can still be in a battle this "
                                               "turn, and the change ends with the turn (LN-T8)")
NUM_REASONS = REASONS.size
assert NUM_REASONS < 128, "reason codes are written to an int8 array"

#: the message template of each code
TEMPLATES = tuple(doc for _, _, doc in REASONS.entries)
#: reasons said of an event or a [Use] skill: the text names the card first ("event 'X': it costs ...")
USE_REASONS = frozenset({TURN_COST, COLOUR, TIMING_TAG, REST_COST, SKILL_USED, LEVEL_REQUIREMENT, CONDITION,
                         NOTHING_TO_DO})
#: the per-effect codes (never recorded for an action: ``NOTHING_TO_DO`` lists them)
IDLE_REASONS = frozenset({IDLE_INACTIVE, IDLE_DECK_EMPTY, IDLE_OPP_HAND_EMPTY, IDLE_LEVEL_NEO, IDLE_NO_LEVEL_DOWN,
                          IDLE_REST_STATE, IDLE_NO_BATTLE})
