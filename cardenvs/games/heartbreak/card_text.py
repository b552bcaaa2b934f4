"""heartbreak card text in words, from the game's own vocabulary (tables.py): what ``cardenvs cards`` and the ``? N``
help of ``cardenvs play`` show instead of raw ops (``action Stoke the Furnace; action: charge_top index=2`` reads
"Action Stoke the Furnace: charge the top card of your deck.").

An effect whose trigger is ``action`` or ``skill`` belongs to the card's action or skill of its ``index``, so a card
is worded whole (:func:`card_clauses`): each action with its damage, cost and effects, each skill with its cost and
effects, then the other effects. Every trigger, condition, target, side, stat and op of the vocabulary has its phrase
here; a new one without a phrase fails at import, so the words never fall behind the rules.
"""
from __future__ import annotations

from .tables import CONDITIONS, LOW_HEART, OP_NAMES, SIDES, STATS, TARGETS, TRIGGERS

__all__ = ["TRIGGER_WORDS", "CONDITION_WORDS", "TARGET_WORDS", "SIDE_WORDS", "STAT_WORDS", "OP_PHRASES",
           "card_clauses", "effect_text"]

TRIGGER_WORDS = {
    "call": "When called", "start_turn": "At the start of each turn", "end_turn": "At the end of each turn",
    "skill": "Skill", "action": "Action", "play": "When played",
}
CONDITION_WORDS = {
    "none": "", "own_turn": "during your turn", "opp_turn": "during your opponent's turn",
    "is_lead": "if it is your Lead", "low_heart": f"if your heart holds {LOW_HEART} cards or fewer",
}
#: (words, whether they name several fighters: "rise" or "rises")
TARGET_WORDS = {
    "self": ("this fighter", False), "own_lead": ("your Lead", False), "own_backup": ("your Back-Up fighters", True),
    "own_all": ("all your fighters", True), "opp_lead": ("the opposing Lead", False),
    "opp_backup": ("the opposing Back-Up fighters", True), "opp_all": ("all opposing fighters", True),
    "action_target": ("the action's target", False),
}
SIDE_WORDS = {"own": "your", "opp": "your opponent's"}
STAT_WORDS = {"armor": "[Armor {amount}]", "ward": "[Ward {amount}]", "counter": "[Counter {amount}]",
              "hp": "+{amount} HP", "attack": "+{amount} attack damage", "strike": "[{strike} Strike]",
              "bypass": "[Bypass]"}
OP_PHRASES = {
    "damage": "deal {amount} damage to {target}", "heal": "remove up to {amount} damage from {target}",
    "draw": "draw {cards}", "charge_top": "charge the {top} of your deck",
    "overdrive": "Overdrive {side} heart {times} (flip its top face-down card face up)",
    "heartbreak": "break {side} heart {times}", "buff": "{target} {gets} {stat} until end of turn",
    "rise": "{target} {rises}", "rest": "rest {target}",
    "swap_lead": "swap your Lead with a standing Back-Up fighter of your choice",
    "evolve": "evolve a fighter of yours with a card from your hand, at no cost",
    "stock_top": "put the {top} of your deck face down into the stock of {target}",
    "negate": "what this card answers does nothing",
    "silence": "the abilities and skills of {target} do nothing until end of turn",
    "add_heart": "put the {top} of your deck face down on top of your heart",
}
for _name, _words, _vocabulary in (("trigger", TRIGGER_WORDS, TRIGGERS), ("condition", CONDITION_WORDS, CONDITIONS),
                                   ("target", TARGET_WORDS, TARGETS), ("side", SIDE_WORDS, SIDES),
                                   ("stat", STAT_WORDS, STATS), ("op", OP_PHRASES, OP_NAMES)):
    if set(_words) != set(_vocabulary):
        raise ImportError(f"heartbreak card_text: a {_name} without words: {set(_vocabulary) ^ set(_words)}")

_STRIKES = {1: "Single", 2: "Dual", 3: "Tri"}


def _body(effect: dict) -> str:
    """What one effect does, as a clause (no trigger, no condition)."""
    op = str(effect.get("op", ""))
    target, several = TARGET_WORDS.get(str(effect.get("target", "self")), (str(effect.get("target")), False))
    amount = int(effect.get("amount") or 0)
    n = int(effect.get("n") or 1)
    stat = STAT_WORDS.get(str(effect.get("stat", "")), str(effect.get("stat"))).format(
        amount=amount, strike=_STRIKES.get(amount, amount))
    side = SIDE_WORDS.get(str(effect.get("side", "opp" if op == "heartbreak" else "own")), str(effect.get("side")))
    return OP_PHRASES.get(op, op).format(
        target=target, amount=amount, stat=stat, side=side, gets="get" if several else "gets",
        rises="rise" if several else "rises", times="once" if n == 1 else f"{n} times",
        cards="a card" if n == 1 else f"{n} cards", top="top card" if n == 1 else f"top {n} cards")


def _condition(effect: dict) -> str:
    return CONDITION_WORDS.get(str(effect.get("condition", "none")), str(effect.get("condition")))


def _sentence(head: str, bodies: list[str]) -> str:
    body = ", then ".join(bodies)
    return f"{head}: {body[:1].upper()}{body[1:]}." if body else f"{head}."


def effect_text(effect: dict) -> str:
    """One effect entry of a card (its trigger, condition and op with arguments) as a sentence; an ``action`` or
    ``skill`` effect is named by its number (:func:`card_clauses` words it with its action or skill)."""
    trigger = str(effect.get("trigger", ""))
    head = TRIGGER_WORDS.get(trigger, trigger)
    if trigger in ("action", "skill"):
        head += f" {int(effect.get('index') or 1)}"
    condition = _condition(effect)
    return _sentence(f"{head}, {condition}" if condition else head, [_body(effect)])


def _cost(entry: dict) -> str:
    parts = [f"Discharge {int(entry['cost'])}"] if int(entry.get("cost") or 0) else []
    if entry.get("overdrive"):
        parts.append("Overdrive once")
    return f" ({', '.join(parts)})" if parts else ""


def card_clauses(card: dict) -> list[str]:
    """A card's actions, skills and effects in words, one sentence each (``cards_table`` puts its printed text
    first): an action or skill takes the effects of its ``index``."""
    effects = [e for e in card.get("effects") or [] if isinstance(e, dict)]
    out = []
    for kind in ("action", "skill"):
        for i, entry in enumerate(card.get(f"{kind}s") or [], start=1):
            if not isinstance(entry, dict):
                continue
            mine = [e for e in effects if e.get("trigger") == kind and int(e.get("index") or 1) == i]
            bodies = [f"deal {int(entry['damage'])} damage"] if int(entry.get("damage") or 0) else []
            for e in mine:
                body = _body(e)
                bodies.append(f"{body} {_condition(e)}" if _condition(e) else body)
            out.append(_sentence(f"{kind.capitalize()} {entry.get('name', i)}{_cost(entry)}", bodies))
    # the other effects, those with the same trigger and condition one after another in one sentence
    groups: list[list[dict]] = []
    for e in effects:
        if e.get("trigger") in ("action", "skill"):
            continue
        if groups and all(groups[-1][0].get(k) == e.get(k) for k in ("trigger", "condition")):
            groups[-1].append(e)
        else:
            groups.append([e])
    for group in groups:
        head = TRIGGER_WORDS.get(str(group[0].get("trigger")), str(group[0].get("trigger")))
        condition = _condition(group[0])
        out.append(_sentence(f"{head}, {condition}" if condition else head, [_body(e) for e in group]))
    return out
