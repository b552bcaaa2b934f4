"""Why an action is illegal: the reason codes the legal-action kernel records, each declared once with its message.

``rules.legal_row`` computes the mask; with ``record`` true the very branch that refuses an action writes one of
these codes for it (``rules.why_row``), and ``text.explain_illegal`` only turns the code into words, filling the
template's fields (card names, counts, amounts) from the row. So an explanation cannot disagree with the mask:
nothing in Python decides legality again.

A code is the entry's position in ``REASONS`` and each name below reads it from there (the kernels read them as
``R.NOT_IN_HAND`` through ``from . import reasons as R``, frozen at compile time), so adding a reason renumbers
nothing by hand. Code 0 (``NONE``) means "no reason recorded": the action is legal, or (a defect the sweep test
catches) the mask refused it without naming why.

Template fields (text.py fills them): ``unit`` (``#i Name`` of the action's card), ``zone`` (where it is),
``phase`` / ``other_phase`` (this phase, where the plan goes next), ``trigger`` (this phase's ability kind),
``ability`` (a unit's ability, named with its text), ``cost`` / ``have`` / ``resource`` (an unaffordable cost),
``health``, ``amount`` (a health cost), ``payers`` (why each unit in play cannot pay it), ``must`` / ``them``
(the abilities still to use), ``rule``, ``kind`` / ``what`` / ``range`` (an action range), ``whose`` / ``size`` /
``last`` / ``i`` (a deck list and an instance), ``whom`` / ``want`` (what a pending choice needs), ``seen`` / ``need`` /
``filter`` (a target filter), ``note`` / ``truncated`` (optional tails).
"""
from __future__ import annotations

from typing import NamedTuple


class Reason(NamedTuple):
    name: str
    template: str


REASONS: tuple[Reason, ...] = (
    Reason("none", ""),
    Reason("game_over", "the game is over{truncated}"),
    Reason("plan_done", "your {phase} plan is done (you chose 'done', or it closed by itself with nothing left to "
                        "decide); you plan again in the {other_phase}, once both plans of this phase are done"),
    # the plan step (SF-D1..D5, SF-A1, SF-C1..C8)
    Reason("mandatory", "{trigger} abilities are mandatory: you can still use and pay {must}; use {them} first (in "
                        "any order), then 'done' ({rule})"),
    Reason("no_choice_pending", "no choice of {what} is pending: '{kind} N' actions ({range}) answer the choice of "
                                "the unit that pays a health cost or of an effect's target, right after you play or "
                                "use a card that needs one; now you are building your {phase} plan (play, use or "
                                "done)"),
    Reason("no_card", "{whose} deck list has {size} cards, #0 to #{last}: there is no card #{i}"),
    Reason("not_defend_phase", "cards are played only in the Defend phase (SF-D1); this is the {phase} phase: here "
                               "you use ATTACK abilities of your units in play"),
    Reason("not_in_hand", "{unit} is not in your hand: it is {zone}"),
    Reason("gold", "{unit} costs {cost} gold and you have {have} (SF-D1)"),
    Reason("not_in_play", "{unit} is not in play: it is {zone}; only units in play use abilities"),
    Reason("used", "{unit} already used its {trigger} ability this phase (once per phase)"),
    Reason("no_health", "{unit} has {health} health: a unit that lost all its health uses no more abilities (SF-C8); "
                        "it is discarded when the phase ends"),
    Reason("stunned", "{unit} is Stunned: it uses no abilities until the end of the round (SF-C7)"),
    Reason("no_ability", "{unit} has no {trigger} ability, the kind used in the {phase} phase{note}"),
    Reason("cost_resource", "{ability}: it costs {cost} {resource} and you have {have} (an unaffordable ability is "
                            "skipped, SF-D5)"),
    Reason("cost_health", "{ability}: it costs {cost} health paid by one of your units in play with at least {cost} "
                          "health that is not Protected, and none can pay: {payers} (SF-C2, G5)"),
    # choosing the ally that pays a health cost (SF-C2, G5)
    Reason("payer_pending", "you are choosing which of your units pays the {amount} health that {ability} costs: "
                            "only an 'ally N' action ({range}) answers now; finish this choice first"),
    Reason("payer_not_in_play", "{unit} is not in play (it is {zone}): only a unit in play can pay the {amount} "
                                "health"),
    Reason("payer_protected", "{unit} is Protected and cannot lose health, so it cannot pay the {amount} health (G5)"),
    Reason("payer_health", "{unit} has {health} health and the cost is {amount} (SF-C2)"),
    # choosing an effect's target (SF-C9, G3)
    Reason("target_pending", "you are choosing the target of {ability}: it must be {whom}, a '{want} N' action "
                             "({range}); finish this choice first"),
    Reason("target_not_in_play", "{unit} is not in play (it is {zone}): the target must be one of your units in "
                                 "play"),
    Reason("not_a_foe", "{unit} is not a Foe: the targets are the units the opponent had in play at the start of "
                        "this phase (a unit played during the phase is not a Foe until the next phase)"),
    Reason("filter", "{seen}; this effect hits only a unit with {need} health ({filter})"),
)
CODE: dict[str, int] = {reason.name: code for code, reason in enumerate(REASONS)}

NONE = CODE["none"]
GAME_OVER = CODE["game_over"]
PLAN_DONE = CODE["plan_done"]
MANDATORY = CODE["mandatory"]
NO_CHOICE_PENDING = CODE["no_choice_pending"]
NO_CARD = CODE["no_card"]
NOT_DEFEND_PHASE = CODE["not_defend_phase"]
NOT_IN_HAND = CODE["not_in_hand"]
GOLD = CODE["gold"]
NOT_IN_PLAY = CODE["not_in_play"]
USED = CODE["used"]
NO_HEALTH = CODE["no_health"]
STUNNED = CODE["stunned"]
NO_ABILITY = CODE["no_ability"]
COST_RESOURCE = CODE["cost_resource"]
COST_HEALTH = CODE["cost_health"]
PAYER_PENDING = CODE["payer_pending"]
PAYER_NOT_IN_PLAY = CODE["payer_not_in_play"]
PAYER_PROTECTED = CODE["payer_protected"]
PAYER_HEALTH = CODE["payer_health"]
TARGET_PENDING = CODE["target_pending"]
TARGET_NOT_IN_PLAY = CODE["target_not_in_play"]
NOT_A_FOE = CODE["not_a_foe"]
FILTER = CODE["filter"]

assert len(REASONS) == len(CODE) < 128, "codes are names, stored as int8"
