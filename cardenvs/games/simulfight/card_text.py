"""simulfight card text in words, from the game's own vocabulary (cards.py): what ``cardenvs cards`` and the ``? N``
help of ``cardenvs play`` show instead of raw ops (``play: gain target=you resource=swords amount=1`` reads "When
played: you gain 1 swords.").

Every trigger, condition, cost, target, timing and op of the vocabulary has its phrase here; a new one without a
phrase fails at import, so the words never fall behind the rules.
"""
from __future__ import annotations

from .cards import CONDITIONS, COSTS, OP_WORDS, TARGETS, TRIGGERS, WHENS

__all__ = ["TRIGGER_WORDS", "CONDITION_WORDS", "COST_WORDS", "TARGET_WORDS", "WHEN_WORDS", "OP_PHRASES",
           "effect_text"]

TRIGGER_WORDS = {"play": "When played", "defend": "[Defend]", "attack": "[Attack]"}
CONDITION_WORDS = {
    "none": "", "health_le": "(only units with {t} health or less)", "health_ge": "(only units with {t} health or more)",
    "you_health_le": "if you have {t} health or less", "opponent_health_le": "if your opponent has {t} health or less",
    "allies_ge": "if you have {t} or more units in play", "foes_ge": "if your opponent has {t} or more units in play",
}
COST_WORDS = {"none": "", "shields": "pay {n} shields", "swords": "pay {n} swords", "gold": "pay {n} gold",
              "unit_health": "this unit loses {n} health"}
TARGET_WORDS = {
    "self": "this unit", "one_ally": "one of your units", "all_allies": "all your units",
    "other_allies": "your other units", "one_foe": "one enemy unit", "all_foes": "all enemy units", "you": "you",
    "opponent": "your opponent",
}
WHEN_WORDS = {"now": "", "next_round": "at the start of the next round"}
OP_PHRASES = {
    "damage": "deal {amount} damage to {target}", "heal": "heal {target} by {amount}",
    "protect": "protect {target} until the end of the round", "stun": "stun {target} until the end of the round",
    "gain": "{target} {gains} {count} {resource}",
}
for _name, _words, _vocabulary in (("trigger", TRIGGER_WORDS, TRIGGERS), ("condition", CONDITION_WORDS, CONDITIONS),
                                   ("cost", COST_WORDS, COSTS), ("target", TARGET_WORDS, TARGETS),
                                   ("timing", WHEN_WORDS, WHENS), ("op", OP_PHRASES, OP_WORDS)):
    assert set(_words) == set(_vocabulary), f"simulfight card_text: a {_name} without words: {set(_vocabulary) ^ set(_words)}"


def effect_text(effect: dict) -> str:
    """One effect entry of a card (its trigger, cost, condition and op with arguments) as a sentence."""
    trigger = str(effect.get("trigger", ""))
    op = str(effect.get("op", ""))
    target = TARGET_WORDS.get(str(effect.get("target", "")), str(effect.get("target", "")))
    amount = int(effect.get("amount") or 0)
    plural = target not in ("you", "your opponent", "this unit", "one of your units", "one enemy unit")
    gains = ("gain" if plural or target == "you" else "gains") if amount >= 0 else (
        "lose" if plural or target == "you" else "loses")
    body = OP_PHRASES.get(op, op).format(target=target, amount=amount, gains=gains, count=abs(amount),
                                         resource=effect.get("resource", ""))
    when = WHEN_WORDS.get(str(effect.get("when", "now")), "")
    if when:
        body += " " + when
    condition = CONDITION_WORDS.get(str(effect.get("condition", "none")), "").format(t=effect.get("threshold", 0))
    if condition:
        body += " " + condition
    cost = COST_WORDS.get(str(effect.get("cost", "none")), "").format(n=effect.get("cost_amount", 0))
    if cost:
        body = f"{cost}: {body}"
    return f"{TRIGGER_WORDS.get(trigger, trigger)}: {body[:1].upper()}{body[1:]}."
