"""Why an action is illegal: the reason codes ``rules.legal_row`` records, each with its message, declared once.

Each reason is one bit (``R_*`` = ``1 << code``, the code being its position in ``REASONS``), so ``why[a]`` holds
every reason that refuses action ``a`` at once (a retreat can be both repeated and unaffordable). The branch of
``legal_row`` that refuses an action sets the bit; ``text.explain_illegal`` formats the templates with names and
counts read from the row (only what the asking player can see), so nothing in Python decides legality again.
"""
from __future__ import annotations

from typing import NamedTuple


class Reason(NamedTuple):
    name: str
    #: ``str.format`` template; the fields are filled by ``text._reason_fields``
    template: str


REASONS = (
    Reason("game_over", "the game is over{truncated}"),
    Reason("not_your_decision", "it is not your decision: P{to_act} decides now (step '{step}')"),
    Reason("promote_first", "your Main Unit was KO'd: before anything else you must move a Standby Unit up to the "
                            "Main Area (DC-O5); {field} is allowed {when}"),
    Reason("opponent_promotes", "your opponent must first move a Standby Unit up to the Main Area (DC-O5)"),
    Reason("wrong_step", "{what} is allowed {when}; the step now is '{step}'{step_note}"),
    Reason("no_hand_card", "there is no hand card {i}: your hand holds {hand} (numbered from 0)"),
    Reason("not_a_unit", "'{card}' is {a_type} card: only a Unit can be placed face down as your Main Unit (DC-S4)"),
    Reason("standby_full", "'{card}' is a Unit and your Standby Area is full ({standby_cap} Units, DC-U3)"),
    Reason("event_played", "'{card}' is an Event and you already played an Event this turn (one per turn, DC-E2)"),
    Reason("no_main_unit", "you have no Main Unit now"),
    Reason("empty_slot", "there is no Unit in standby slot {slot}: you have {standby}"),
    Reason("charged", "you already charged a Unit this turn (once per turn, DC-C1)"),
    Reason("ex_used", "you already used your EX-Power this game (once per game, DC-K5)"),
    Reason("no_ex_power", "{where} '{unit}' has no EX-Power"),
    Reason("retreated", "you already retreated this turn (once per turn, DC-R1)"),
    Reason("retreat_cost", "retreating '{main}' costs {retreat_cost} Energy and it has {main_energy} attached (DC-R2)"),
    Reason("no_such_skill", "'{main}' has {skills}: there is no skill {i}"),
    Reason("first_turn", "the first player cannot use a skill on the first turn of the game (DC-K2)"),
    Reason("stunned", "your Main Unit '{main}' is Stunned and cannot use a skill (DC-N3)"),
    Reason("skill_energy", "skill '{skill}' needs {skill_energy} Energy attached to '{main}' and it has {main_energy} "
                           "(DC-C4)"),
    Reason("no_target", "the opponent has no Main Unit to hit"),
    # set by why_row on a refused action that no branch gave a reason: a test checks it never shows
    Reason("unknown", "not legal in this decision"),
)
CODES = {r.name: code for code, r in enumerate(REASONS)}
assert len(CODES) == len(REASONS) <= 31, "one bit per reason in an int32"

R_GAME_OVER = 1 << CODES["game_over"]
R_NOT_YOUR_DECISION = 1 << CODES["not_your_decision"]
R_PROMOTE_FIRST = 1 << CODES["promote_first"]
R_OPPONENT_PROMOTES = 1 << CODES["opponent_promotes"]
R_WRONG_STEP = 1 << CODES["wrong_step"]
R_NO_HAND_CARD = 1 << CODES["no_hand_card"]
R_NOT_A_UNIT = 1 << CODES["not_a_unit"]
R_STANDBY_FULL = 1 << CODES["standby_full"]
R_EVENT_PLAYED = 1 << CODES["event_played"]
R_NO_MAIN_UNIT = 1 << CODES["no_main_unit"]
R_EMPTY_SLOT = 1 << CODES["empty_slot"]
R_CHARGED = 1 << CODES["charged"]
R_EX_USED = 1 << CODES["ex_used"]
R_NO_EX_POWER = 1 << CODES["no_ex_power"]
R_RETREATED = 1 << CODES["retreated"]
R_RETREAT_COST = 1 << CODES["retreat_cost"]
R_NO_SUCH_SKILL = 1 << CODES["no_such_skill"]
R_FIRST_TURN = 1 << CODES["first_turn"]
R_STUNNED = 1 << CODES["stunned"]
R_SKILL_ENERGY = 1 << CODES["skill_energy"]
R_NO_TARGET = 1 << CODES["no_target"]
R_UNKNOWN = 1 << CODES["unknown"]


def reasons_in(bits: int) -> list[Reason]:
    """The reasons whose bits are set, in ``REASONS`` order."""
    return [r for code, r in enumerate(REASONS) if bits >> code & 1]
