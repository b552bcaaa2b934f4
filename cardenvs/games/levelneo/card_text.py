"""levelneo card text in words, from the game's own op vocabulary (tables.py): what ``cardenvs cards`` and the
``? N`` help of ``cardenvs play`` show instead of raw ops (``on_attack: ap_up amount=500 target=self`` reads
"When it attacks: +500 AP to itself until end of turn.").

Every trigger, condition, target, duration and op of the vocabulary has its phrase here; a new one without a phrase
fails ``tests/core/test_cli_newcomer.py``, so the words never fall behind the rules.
"""
from __future__ import annotations

from typing import Any

from .tables import CONDITIONS, DURATIONS, OP_NAMES, TARGETS, TRIGGERS

__all__ = ["TRIGGER_WORDS", "CONDITION_WORDS", "TARGET_WORDS", "DURATION_WORDS", "OP_WORDS", "effect_text"]

TRIGGER_WORDS = {
    "cont": "[Cont]", "on_play": "When played", "on_attack": "When it attacks", "on_win": "When it wins a battle",
    "end_turn": "At the end of your turn", "use": "[Use]", "event": "Event", "burst": "Level Burst",
}
CONDITION_WORDS = {
    "none": "", "own_turn": "during your turn", "opp_turn": "during your opponent's turn",
    "has_trait": "while a {trait} character is on your field", "in_battle": "while it is in a battle",
    "attacking": "while it attacks", "defending": "while it defends",
}
TARGET_WORDS = {
    "self": "itself", "own_main": "your main character", "own_supports": "your {trait}supports",
    "own_all": "all your {trait}characters", "own_battlers": "your battling {trait}characters",
    "own_one_support": "one of your {trait}supports", "opp_main": "the opposing main character",
    "opp_supports": "the opposing {trait}supports", "opp_all": "all opposing {trait}characters",
    "opp_battlers": "the opposing battling {trait}characters", "opp_one_support": "one opposing {trait}support",
}
DURATION_WORDS = {"turn": "until end of turn", "next_battle": "for its next battle", "battle": "for this battle"}
OP_WORDS = {
    "ap_up": "+{amount} AP to {target}", "ap_down": "-{amount} AP to {target}", "draw": "draw {cards}",
    "opp_discard": "your opponent discards {random}", "prevent_level_down": "your main character cannot level down "
    "this battle", "rest": "rest {target}", "activate": "set {target} Active",
    "level_up": "your main character levels up (top card of your deck, face down)",
}
for _name, _words, _vocabulary in (("trigger", TRIGGER_WORDS, TRIGGERS), ("condition", CONDITION_WORDS, CONDITIONS),
                                   ("target", TARGET_WORDS, TARGETS), ("duration", DURATION_WORDS, DURATIONS),
                                   ("op", OP_WORDS, OP_NAMES)):
    assert set(_words) == set(_vocabulary), f"levelneo card_text: a {_name} without words: {set(_vocabulary) ^ set(_words)}"


def _cards(n: Any, what: str = "card") -> str:
    n = int(n or 1)
    return f"{n} {what}" + ("s" if n != 1 else "")


def effect_text(effect: dict) -> str:
    """One effect entry of a card (its trigger, tags, condition and op with arguments) as a sentence."""
    trigger = str(effect.get("trigger", ""))
    head = [TRIGGER_WORDS.get(trigger, trigger)]
    phase, turn = effect.get("phase", "any"), effect.get("turn", "any")
    if phase != "any" or turn != "any":  # the (Phase/Turn) tag of a use or event effect
        head.append("(" + "/".join(x for x in ({"main": "main phase", "battle": "battle phase"}.get(phase, ""),
                                               {"own": "your turn", "opp": "opponent's turn"}.get(turn, "")) if x)
                    + ")")
    level = int(effect.get("level") or 1)
    if level > 1:
        head.append(f"(Lv {level})")
    if effect.get("skill"):
        head.append(f"\u00ab{effect['skill']}\u00bb")
    trait = f"{effect['filter']} " if effect.get("filter") else ""
    op = str(effect.get("op", ""))
    target = TARGET_WORDS.get(str(effect.get("target", "")), str(effect.get("target", ""))).format(trait=trait)
    body = OP_WORDS.get(op, op).format(amount=effect.get("amount", ""), target=target,
                                       cards=_cards(effect.get("n")), random=_cards(effect.get("n"), "random card"))
    if op in ("ap_up", "ap_down") and trigger != "cont":  # a [Cont] skill lasts as long as its condition
        body += " " + DURATION_WORDS.get(str(effect.get("duration", "turn")), str(effect.get("duration")))
    condition = CONDITION_WORDS.get(str(effect.get("condition", "none")), str(effect.get("condition")))
    if condition:
        body += " " + condition.format(trait=effect.get("trait", ""))
    if effect.get("cost_rest"):
        body = "rest this character: " + body
    return f"{' '.join(head)}: {body[:1].upper()}{body[1:]}."
