"""Why an action is illegal: the reason codes the mask kernel records, each with its message template.

``rules.legal_row`` (the body of ``mask_row``) writes, for every action it refuses, the bit ``1 << code`` of every
reason it found into ``why[action]`` (an int64 set of codes; 0 for a legal action): the very branch that clears an
action records why. ``text.explain_illegal`` formats the templates below with names and counts read from the row
(``text._words``); nothing in Python decides legality. A code is the reason's place in ``REASONS`` (at most 63).
"""
from __future__ import annotations

import numpy as np
from numba import njit

#: reason name -> message template (the ``{fields}`` come from ``text._words``); the order is the message order
REASONS: dict[str, str] = {
    "unknown": "not legal in this step (no finer reason known)",  # never recorded: why_row's mark of a gap
    "game_over": "the game is over{truncated}",
    "not_yours": "it is not your decision: P{to_act} decides now (step: {step})",
    "wrong_step": "{kind_words} is not possible in the {step} step{step_extra}; it is allowed {allowed}",
    "no_deck_card": "your deck has no card {i}: deck cards are numbered 0..{last_deck_card}",
    "not_lead_capable": "'{name}' cannot be the Lead: a Lead is a fighter with no call cost and no call condition "
                        "(HB-S1)",
    "other_copy": "deck card {i} is another copy of '{name}': choose it as deck card {first_copy} (copies are "
                  "interchangeable, so there is one action per distinct card)",
    "no_trigger": "no triggered ability waits in place {i}: {trig_count} wait (places 0..{last_trig})",
    "others_trigger": "ability {i} is P{trig_owner}'s ('{trig_name}'): you order only your own, and the turn "
                      "player's abilities go first (HB-L5/L6)",
    "no_hand_card": "hand slot {hand_slot} is empty: {hand_holds}",
    "no_backup": "you have no Back-Up {backup_slot}: {backups} Back-Up fighter{backups_s}",
    "fighter_not_main": "'{name}' is a fighter: fighters are called only in your main phase (it is the {step} now)",
    "item_from_hand": "'{name}' is an item: it is equipped onto a fighter with an 'onto' action (equip), in your "
                      "main phase",
    "climax_not_climax_phase": "'{name}' is a Climax card: it is played only in your climax phase (it is the {step} "
                               "now)",
    "not_turbo": "'{name}' is a support card without [Turbo]: it is played only in your main phase (it is the "
                 "{step} now)",
    "negate_not_window": "'{name}' negates: it is played only in a response window, as an answer to something it "
                         "can negate (it is the {step} now)",
    "stack_full": "the response stack is full",
    "stack_empty": "'{name}' negates, and the stack is empty",
    "top_negated": "'{name}' negates, and the top of the stack is already negated",
    "top_phase": "'{name}' negates, and the top of the stack is a phase change, which a negation does not change",
    "top_played": "'{name}' negates, and the top of the stack is an evolve or equip: the card is already on the field",
    "top_call": "'{name}' negates, and the top of the stack is the call of '{top_name}', which has no call ability",
    "field_full": "your field is full: a Lead and 3 Back-Up fighters (HB-F4)",
    "cond_ally": "'{name}' may be called only while you have another fighter on the field (its condition)",
    "cond_low_heart": "'{name}' may be called only while your heart holds {low_heart} cards or fewer (yours holds "
                      "{heart})",
    "climax_used": "you already played a Climax card this turn (once per turn, HB-X3)",
    "empty_place": "{where} is empty: nothing to put '{name}' onto",
    "not_onto": "'{name}' is a {kind} card: only a fighter (evolve) or an item (equip) goes onto a fighter",
    "effect_not_fighter": "'{name}' is not a fighter: the effect evolves a fighter with a fighter card from your hand",
    "entered_this_turn": "{where} '{base}' entered the field this turn: a fighter evolves only from the turn after "
                         "it entered (HB-I4)",
    "evolve_name": "'{name}' does not evolve from {where} '{base}': an evolution needs the same fighter name (HB-I1)",
    "evolve_level": "'{name}' is Lv{level} and {where} '{base}' is Lv{base_level}: an evolution is exactly one level "
                    "higher (HB-I2)",
    "has_item": "{where} '{base}' already has an item (one item per fighter, HB-I13)",
    "stock_full": "your stock cards are at the engine's limit",
    "skill_no_fighter": "{where} is empty: no skill to use",
    "no_skill": "{where} '{fighter}' has {skills_words}",
    "silenced": "{where} '{fighter}' is silenced until the end of the turn: its skills are inactive (HB-L4)",
    "skill_used": "'{skill}' was already used this turn (once per turn per skill, HB-L2)",
    "swap_used": "you already swapped this turn (once per turn, HB-M4)",
    "swap_no_lead": "your Lead is empty: there is nothing to swap",
    "backup_rested": "Back-Up {backup_slot} '{fighter}' is rested: the effect swaps in a standing Back-Up",
    "must_evolve": "an eligible evolve exists and the effect must use it: pass only says that nothing is eligible",
    "act_no_lead": "your Lead is empty: only the Lead acts",
    "no_action": "your Lead '{fighter}' has only {actions} action{actions_s}",
    "lead_rested": "your Lead '{fighter}' is rested (it has acted, or was rested): a rested Lead cannot act until it "
                   "rises in your next start phase (HB-A5)",
    "discharge": "{what} costs Discharge {cost} and you have {charge} charged card{charge_s}",
    "overdrive": "{what}'s cost includes Overdrive (flip a face-down heart card face up) and your heart has no "
                 "face-down card left",
    "no_bypass_target": "'{act}' is an attack and the opponent has no fighter it may target",
    "no_lead_target": "'{act}' is an attack and the opponent has no Lead to attack (without [Bypass] only the Lead is "
                      "a target, HB-B4)",
    "no_target_here": "the opponent has no fighter in the {place} place",
}
CODES: dict[str, int] = {name: code for code, name in enumerate(REASONS)}
assert len(CODES) <= 63, "why[action] is an int64 set of codes"

R_UNKNOWN = CODES["unknown"]
R_GAME_OVER = CODES["game_over"]
R_NOT_YOURS = CODES["not_yours"]
R_WRONG_STEP = CODES["wrong_step"]
R_NO_DECK_CARD = CODES["no_deck_card"]
R_NOT_LEAD_CAPABLE = CODES["not_lead_capable"]
R_OTHER_COPY = CODES["other_copy"]
R_NO_TRIGGER = CODES["no_trigger"]
R_OTHERS_TRIGGER = CODES["others_trigger"]
R_NO_HAND_CARD = CODES["no_hand_card"]
R_NO_BACKUP = CODES["no_backup"]
R_FIGHTER_NOT_MAIN = CODES["fighter_not_main"]
R_ITEM_FROM_HAND = CODES["item_from_hand"]
R_CLIMAX_NOT_CLIMAX_PHASE = CODES["climax_not_climax_phase"]
R_NOT_TURBO = CODES["not_turbo"]
R_NEGATE_NOT_WINDOW = CODES["negate_not_window"]
R_STACK_FULL = CODES["stack_full"]
R_STACK_EMPTY = CODES["stack_empty"]
R_TOP_NEGATED = CODES["top_negated"]
R_TOP_PHASE = CODES["top_phase"]
R_TOP_PLAYED = CODES["top_played"]
R_TOP_CALL = CODES["top_call"]
R_FIELD_FULL = CODES["field_full"]
R_COND_ALLY = CODES["cond_ally"]
R_COND_LOW_HEART = CODES["cond_low_heart"]
R_CLIMAX_USED = CODES["climax_used"]
R_EMPTY_PLACE = CODES["empty_place"]
R_NOT_ONTO = CODES["not_onto"]
R_EFFECT_NOT_FIGHTER = CODES["effect_not_fighter"]
R_ENTERED_THIS_TURN = CODES["entered_this_turn"]
R_EVOLVE_NAME = CODES["evolve_name"]
R_EVOLVE_LEVEL = CODES["evolve_level"]
R_HAS_ITEM = CODES["has_item"]
R_STOCK_FULL = CODES["stock_full"]
R_SKILL_NO_FIGHTER = CODES["skill_no_fighter"]
R_NO_SKILL = CODES["no_skill"]
R_SILENCED = CODES["silenced"]
R_SKILL_USED = CODES["skill_used"]
R_SWAP_USED = CODES["swap_used"]
R_SWAP_NO_LEAD = CODES["swap_no_lead"]
R_BACKUP_RESTED = CODES["backup_rested"]
R_MUST_EVOLVE = CODES["must_evolve"]
R_ACT_NO_LEAD = CODES["act_no_lead"]
R_NO_ACTION = CODES["no_action"]
R_LEAD_RESTED = CODES["lead_rested"]
R_DISCHARGE = CODES["discharge"]
R_OVERDRIVE = CODES["overdrive"]
R_NO_BYPASS_TARGET = CODES["no_bypass_target"]
R_NO_LEAD_TARGET = CODES["no_lead_target"]
R_NO_TARGET_HERE = CODES["no_target_here"]


@njit(cache=True, inline="always")
def refuse(why: np.ndarray, a: int, code: int, record: bool) -> bool:
    """Action ``a`` is refused for reason ``code``: recorded in ``why[a]`` when ``record``; returns the verdict, False.
    ``record`` is a constant at every call site, so in ``mask_row`` the store compiles away."""
    if record:
        why[a] |= np.int64(1) << code
    return False
