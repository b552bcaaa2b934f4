"""Why an action is illegal: the reason codes ``rules.legal_row`` records, each with its message template.

Declared once, numbered in declaration order (``R_X = _reason(...)``: nothing counted by hand). The mask kernel writes
a code from the very branch that refuses an action (``rules.why_row``); ``text.explain_illegal`` fills the template's
``{fields}`` with names and counts read from the row (``text._Details``), and decides nothing itself. Code 0 means no
reason: the action is legal (or the kernel forgot to say why, which the tests check never happens).
"""
from __future__ import annotations

#: message template of each code; entry 0 (no reason) is never shown
TEMPLATES: list[str] = [""]
#: short name of each code (tests and debugging)
NAMES: list[str] = ["none"]


def _reason(name: str, template: str) -> int:
    """Declare the next reason code."""
    if name in NAMES:
        raise ValueError(f"relics reason {name!r} declared twice")
    NAMES.append(name)
    TEMPLATES.append(template)
    return len(TEMPLATES) - 1


# ---- whose decision, which step
R_GAME_OVER = _reason("game_over", "the game is over{over_note}")
R_NOT_YOUR_DECISION = _reason("not_your_decision", "it is not your decision: P{decider} decides now (step '{public_step}')")
R_WRONG_STEP = _reason("wrong_step", "{what} is allowed {when}; the step now is '{step}': {now}{extra}")
# ---- Relic phase
R_NO_OWN_LOCATION = _reason(
    "no_own_location", "there is no location {i} of yours in the pile: you have {my_locations} left (entries "
                       "{my_entries}), the opponent {opp_locations} (entries {opp_entries})")
R_NO_OPP_LOCATION = _reason(
    "no_opp_location", "there is no opposing location {opp_i} in the pile: the opponent has {opp_locations} left "
                       "(entries {opp_entries}), you {my_locations} (entries {my_entries})")
R_NO_DRAWN = _reason("no_drawn", "there is no drawn character {i}: you drew {drawn} (numbered from 0)")
R_SLOT_TAKEN = _reason("slot_taken", "{slot} is taken by {slot_who}: choose an empty slot")
R_NO_RESERVE = _reason("no_reserve", "there is no reserve character {i}: your reserves hold {reserves} (numbered from 0)")
R_NOTHING_TO_KEEP = _reason("nothing_to_keep", "you have no character on {slot} to keep")
R_NO_HAND_CARD = _reason("no_hand_card", "there is no hand card {i}: your hand holds {hand_cards} (numbered from 0)")
# ---- the grid: own and opposing characters
R_NO_OWN_CHAR = _reason("no_own_char", "you have no character on {slot}")
R_NO_OPP_CHAR = _reason("no_opp_char", "the opponent has no character on {opp_slot}")
R_ATTACKER_DOWN = _reason("attacker_down", "{slot_who} is Down: only an Up character can attack (RL-A1, RL-U3)")
R_FIGHT_REACH = _reason("fight_reach", "{opp_who} is {rows} away from {slot_who}: a Fight reaches 1 row, 2 with Ranged "
                                       "(RL-A1)")
R_RANGED_REACH = _reason("ranged_reach", "{opp_who} is {rows} away from {slot_who}: Ranged reaches 2 rows (RL-K4)")
R_THROW_REACH = _reason("throw_reach", "{opp_who} is {rows} away from {slot_who}: a Throw reaches 2 rows (RL-K11)")
R_NO_THROW_SKILL = _reason("no_throw_skill", "{slot_who} lacks the Throw skill (RL-K11)")
R_NO_EQUIPMENT_TO_THROW = _reason("no_equipment_to_throw", "a Throw discards an equipment card from your hand and you "
                                                           "hold none (RL-K11)")
R_MOVER_DOWN = _reason("mover_down", "{slot_who} is Down: a Move downs the character, so it must be Up (RL-A4)")
R_MOVE_SAME_SLOT = _reason("move_same_slot", "a character moves to another, empty slot (RL-A4)")
R_MOVE_SLOT_TAKEN = _reason("move_slot_taken", "{dest} is taken by {dest_who}: a character moves to an empty slot "
                                               "(RL-A4)")
R_MOVE_SAME_ROW = _reason("move_same_row", "a Move goes to the other row: within its row a character's place changes "
                                           "nothing (RL-A4, RL-M4)")
# ---- Cast/Use, Reinforce with equipment or a relic
R_NOT_PLAYABLE = _reason("not_playable", "'{card}' is a {card_type} card and cannot be played from the hand")
R_NO_HOST_IN_PLAY = _reason("no_host_in_play", "you have no character in play to attach {attachable} to (RL-E1)")
R_HOSTS_ALL_ATTACHED = _reason("hosts_all_attached", "every character of yours in play already carries an attachment "
                                                     "(one each, RL-E2): {attachable} has no free host")
R_NO_SUITABLE_HOST = _reason("no_suitable_host", "'{card}' is equipment and none of your characters without an "
                                                 "attachment meets its requirements ({requires}, RL-E1)")
R_NO_OWN_TARGET = _reason("no_own_target", "'{card}' targets one of your characters and you have none in play")
R_NO_OPP_TARGET = _reason("no_opp_target", "'{card}' targets an opposing character and the opponent has none in play")
R_TARGETS_IMMUNE = _reason("targets_immune", "'{card}' targets an opposing character and every one of them is an Up "
                                             "{School} character, immune to your {school} magic (RL-K1/K2)")
R_NO_CASTER_IN_PLAY = _reason("no_caster_in_play", "'{card}' needs a {caster} of yours in play and you have none")
R_NO_VALID_CASTER = _reason("no_valid_caster", "'{card}' needs a {caster} of yours {caster_needs}: none of your "
                                               "characters in play qualifies")
R_USELESS = _reason("useless", "'{card}' would change nothing now (RL-M4): {useless}")
R_PARTY_FULL = _reason("party_full", "your party is full ({party_size} characters): Reinforce with a character only "
                                     "while it has fewer (RL-A5)")
R_NO_RELIC = _reason("no_relic", "there is no relic {i} you control: entries {own_relic_entries} are your own won "
                                 "locations, {opp_relic_entries} the opponent's whose relic you control; you control "
                                 "{relics}")
R_RELIC_IN_PLAY = _reason("relic_in_play", "the relic '{relic}' is already in play, attached to a character")
# ---- abilities
R_NO_ACT_ABILITY = _reason("no_act_ability", "{slot_who} has no act ability")
R_ABILITY_DOWN = _reason("ability_down", "{slot_who} is Down: using its ability downs it, so it must be Up (RL-U1/U3)")
R_LEADER_SKILL = _reason("leader_skill", "the ability of {slot_who} is marked Leader and works only while it is your "
                                         "party leader (RL-K13)")
R_LEADER_CARD_NO_ACT = _reason("leader_card_no_act", "your leader card '{card}' has no act ability")
R_NO_LEADER = _reason("no_leader", "you have no leader in play (the leader card's ability downs the leader)")
R_LEADER_DOWN = _reason("leader_down", "your leader '{leader}' is Down: the leader card's ability downs the leader, so "
                                       "it must be Up (RL-U3)")
R_LEADER_NOT_QUALIFIED = _reason(
    "leader_not_qualified", "your leader '{leader}' does not qualify for the location{location}: the leader card's "
                            "ability works only while the leader's class or a descriptor matches (RL-L2)")
# ---- Recruit, Appoint
R_RECRUIT_COST = _reason("recruit_cost", "Recruit costs {recruit_cost} cards from hand and you hold {hand_n} (RL-A6)")
R_CHAR_DECK_EMPTY = _reason("char_deck_empty", "your character deck is empty: there is no character to draw (RL-A6)")
R_APPOINT_COST = _reason("appoint_cost", "Appoint costs {appoint_cost} cards from hand and you hold {hand_n} (RL-A7)")
R_NO_OTHER_CHARACTER = _reason("no_other_character", "you have no character in play other than your leader to move "
                                                     "the leader card to (RL-A7)")
# ---- the pending choice of one of your slots, an opposing character, a discard
R_REINFORCE_SLOT_TAKEN = _reason("reinforce_slot_taken", "{slot} is taken by {slot_who}: the reinforcing character "
                                                         "needs an empty slot")
R_HOST_HAS_ATTACHMENT = _reason("host_has_attachment", "{slot_who} already carries an attachment (one each, RL-E2)")
R_HOST_REQUIREMENTS = _reason("host_requirements", "{slot_who} does not meet the requirements of '{card}' ({requires}, "
                                                   "RL-E1)")
R_CASTER_DOWN = _reason("caster_down", "'{slot_name}' is Down and '{card}' costs downing its user (RL-U3)")
R_CASTER_LACKS_SCHOOL = _reason("caster_lacks_school", "'{slot_name}' lacks the {School} skill the {school} spell "
                                                       "'{card}' needs in its caster (RL-M2)")
R_ALREADY_LEADER = _reason("already_leader", "{slot_who} is already your leader: Appoint moves the leader card to "
                                             "another character (RL-A7)")
R_SLOT_NOT_ASKED = _reason("slot_not_asked", "the pending action does not ask for one of your characters")
R_TARGET_IMMUNE = _reason("target_immune", "{opp_who} is an Up {School} character: it ignores your {school} magic "
                                           "(RL-K1/K2)")
R_NOT_EQUIPMENT = _reason("not_equipment", "'{card}' is not equipment: a Throw discards an equipment card (RL-K11)")
# ---- take-backs (raise, reclaim, exhume)
R_PILE_NOT_THERE = _reason("pile_not_there", "there is no {pile_card} in your {pile}")
R_PILE_WRONG_KIND = _reason("pile_wrong_kind", "'{pile_name}' is a {pile_type} card: {verb} takes back {verb_takes}")
R_PILE_BEING_RESOLVED = _reason("pile_being_resolved", "'{pile_name}' is the card being resolved: the {verb} cannot "
                                                       "take it back")

NUM_REASONS = len(TEMPLATES)
#: reasons recorded per action at most (a Throw can fail four ways at once: skill, equipment, Down, reach)
MAX_REASONS = 4
