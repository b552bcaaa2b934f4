"""relics card text in words, from the game's own vocabulary (cards.py): what ``cardenvs cards`` and the ``? N`` help
of ``cardenvs play`` show instead of raw ops (``act: boost target=own_one def=2`` reads "[Act] Down this character:
one of your characters gets +2 DEF until its next Up.").

Every trigger, condition, target, skill and op of the vocabulary has its phrase here; a new one without a phrase
fails at import, so the words never fall behind the rules.
"""
from __future__ import annotations

from .cards import CONDITIONS, OP_WORDS, SKILLS, TARGETS, TRIGGERS

__all__ = ["TRIGGER_WORDS", "CONDITION_WORDS", "TARGET_WORDS", "SKILL_WORDS", "OP_PHRASES", "card_clauses",
           "effect_text"]

TRIGGER_WORDS = {
    "cont": "[Cont]", "enter": "When it enters play from the reserves", "act": "[Act] Down this character",
    "defeat": "When it defeats a character", "cast": "Cast", "location": "Location (once, after both reveals)",
}
CONDITION_WORDS = {"none": "", "leader_match": "if your leader qualifies for this location"}
#: (words, whether they name several characters: "get" or "gets")
TARGET_WORDS = {
    "none": ("", False), "self": ("this character", False), "own_one": ("one of your characters", False),
    "own_all": ("all your characters", True), "opp_one": ("one opposing character", False),
    "opp_all": ("all opposing characters", True),
}
#: a strike's target as "each ..." (every one of them whose DEF is low enough is defeated)
EACH = {"all your characters": "each of your characters", "all opposing characters": "each opposing character"}
SKILL_WORDS = {s: s.capitalize() for s in SKILLS}
OP_PHRASES = {
    "draw": "draw {cards} from your item deck",
    "recruit": "draw {characters} from your character deck into your reserves",
    "up": "Up {target}", "down": "Down {target}",
    "boost": "{target} {gets} {change} {lasting}",
    "strike": "defeat {each} whose DEF is {power} or less",
    "raise": "return {characters} of your choice from your discard pile to your reserves",
    "reclaim": "return {items} of your choice from your discard pile to your hand",
    "exhume": "bring back {cards} of your choice from your doom pile (a character to your reserves, any other card to "
              "your hand)",
    "opp_discard": "your opponent discards {random}",
}
for _name, _words, _vocabulary in (("trigger", TRIGGER_WORDS, TRIGGERS), ("condition", CONDITION_WORDS, CONDITIONS),
                                   ("target", TARGET_WORDS, TARGETS), ("skill", SKILL_WORDS, SKILLS),
                                   ("op", OP_PHRASES, OP_WORDS)):
    if set(_words) != set(_vocabulary):
        raise ImportError(f"relics card_text: a {_name} without words: {set(_vocabulary) ^ set(_words)}")


def _count(n: object, what: str) -> str:
    n = int(n or 1)
    return f"{n} {what}" + ("s" if n != 1 else "")


def _head(effect: dict, card: dict | None) -> str:
    """How the effect is started: its trigger, worded for the card type that carries it."""
    trigger = str(effect.get("trigger", ""))
    kind = str((card or {}).get("type", ""))
    if trigger == "act" and kind == "leader":
        head = "[Act] Down your leader"
    elif trigger == "cast" and kind == "spell":
        school = str(card.get("school", "none")).capitalize()
        down = "" if card.get("cost") == "none" else " (who goes Down)"
        head = f"Cast by a {school} character{down}"
    elif trigger == "cast" and kind == "item":
        head = "Use (an Up character of yours uses it and goes Down)" if card.get("cost") == "down" else "Use"
    else:
        head = TRIGGER_WORDS.get(trigger, trigger)
    if effect.get("leader"):
        head = f"Leader skill (only while it leads your party), {head[:1].lower()}{head[1:]}"
    return head


def effect_text(effect: dict, card: dict | None = None) -> str:
    """One effect entry of a card (its trigger, condition and op with arguments) as a sentence; ``card`` (the card
    that carries it) words a cast or an ability for its type (a spell's caster, an item's user, a leader card)."""
    op = str(effect.get("op", ""))
    trigger = str(effect.get("trigger", ""))
    target, several = TARGET_WORDS.get(str(effect.get("target") or "none"), (str(effect.get("target")), False))
    att, dfn = int(effect.get("att") or 0), int(effect.get("def") or 0)
    change = " and ".join(f"{v:+d} {stat}" for v, stat in ((att, "ATT"), (dfn, "DEF")) if v) or "no change"
    lasting = ("while this card is in play" if trigger == "cont" else
               "until their next Up" if several else "until its next Up")
    n = effect.get("n")
    body = OP_PHRASES.get(op, op).format(
        target=target, gets="get" if several else "gets", change=change, lasting=lasting,
        each=EACH.get(target, target), power=effect.get("power", ""),
        cards=_count(n, "card"), characters=_count(n, "character"), items=_count(n, "item-deck card"),
        random=_count(n, "random card"))
    head = _head(effect, card)
    condition = CONDITION_WORDS.get(str(effect.get("condition", "none")), str(effect.get("condition")))
    if condition:
        head += ", " + condition
    return f"{head}: {body[:1].upper()}{body[1:]}."


def card_clauses(card: dict) -> list[str]:
    """A card's skills and effects in words, one sentence each (``cards_table`` puts its printed text first)."""
    out = []
    skills = [SKILL_WORDS.get(str(s), str(s)) for s in card.get("skills") or ()]
    if skills and card.get("type") == "equipment":  # equipment grants its skills to the character it is attached to
        out.append(f"The character it is attached to has {' and '.join(skills)}.")
    elif skills:
        out.append(f"{'Skills' if len(skills) > 1 else 'Skill'}: {', '.join(skills)}.")
    out += [effect_text(e, card) for e in card.get("effects") or [] if isinstance(e, dict)]
    return out
