"""divinecross card text in words, from the game's own vocabulary (vocab.py): what ``cardenvs cards`` and the ``? N``
help of ``cardenvs play`` show instead of raw ops (``skill Flare Pounce: energy=2 damage=200 [bonus_damaged
amount=100]`` reads "Skill Flare Pounce (2 Energy): 200 damage, +100 if the opposing Main Unit already has damage.").

A card is worded whole (:func:`card_clauses`): each skill with its Energy, damage and effects, then the card's own
effects (passive, EX-Power, play). Every trigger, target and op of the vocabulary has its phrase here; a new one
without a phrase fails at import, so the words never fall behind the rules.
"""
from __future__ import annotations

from .vocab import OP_NAMES, TARGETS, TRIGGERS

__all__ = ["TRIGGER_WORDS", "TARGET_WORDS", "OP_PHRASES", "card_clauses", "effect_text"]

TRIGGER_WORDS = {"passive": "[Passive]", "ex_power": "EX-Power (once per game)", "play": "When played",
                 "skill": "Skill"}
#: (words, whether they name several Units: "take" or "takes")
TARGET_WORDS = {
    "self": ("this Unit", False), "own_main": ("your Main Unit", False),
    "own_standby": ("your Standby Units", True), "own_all": ("all your Units", True),
    "opp_main": ("the opposing Main Unit", False), "opp_standby": ("the opposing Standby Units", True),
    "opp_all": ("all opposing Units", True),
}
OP_PHRASES = {
    "damage": "deal {amount} damage to {target}", "heal": "remove up to {amount} damage from {target}",
    "draw": "draw {cards}", "stun": "stun {target}", "poison": "poison {target}",
    "cure": "remove stun and poison from {target}",
    "charge": "attach the {top} of your deck to {target} as Energy",
    "strip_energy": "discard {energy} from {each}",
    "boost": "this turn, the skills of {target} deal {more}",
    "guard": "until the start of its owner's next turn, {target} {takes} {amount} less skill damage",
    "dmg_up": "the skills of {holder} deal {more}", "dmg_down": "{holder} {takes} {less} skill damage",
    "halve": "skill damage to {holder} is halved (rounded up to 100)",
    "hp_up": "{holder} has +{amount} HP", "retreat_down": "the retreat cost of {holder} is {n} lower",
    "bonus_energy": "+{amount} for each Energy attached beyond the skill's requirement",
    "bonus_damaged": "+{amount} if the opposing Main Unit already has damage",
    "bonus_condition": "+{amount} if the opposing Main Unit is Stunned or Poisoned",
}
for _name, _words, _vocabulary in (("trigger", TRIGGER_WORDS, TRIGGERS), ("target", TARGET_WORDS, TARGETS),
                                   ("op", OP_PHRASES, OP_NAMES)):
    if set(_words) != set(_vocabulary):
        raise ImportError(f"divinecross card_text: a {_name} without words: {set(_vocabulary) ^ set(_words)}")

#: a strip's targets as "each ..." (each of them loses that much Energy)
_EACH = {"your Standby Units": "each of your Standby Units", "all your Units": "each of your Units",
         "the opposing Standby Units": "each opposing Standby Unit", "all opposing Units": "each opposing Unit"}


def _body(effect: dict, holder: str = "this Unit") -> str:
    """What one effect does, as a clause; ``holder`` is who a passive acts on (a Unit itself, an Assist's host)."""
    op = str(effect.get("op", ""))
    target, several = TARGET_WORDS.get(str(effect.get("target", "opp_main")), (str(effect.get("target")), False))
    amount = int(effect.get("amount") or 0)
    n = int(effect.get("n") or 1)
    return OP_PHRASES.get(op, op).format(
        target=target, amount=abs(amount), n=n, holder=holder, each=_EACH.get(target, target),
        takes="take" if several else "takes", cards="a card" if n == 1 else f"{n} cards",
        top="top card" if n == 1 else f"top {n} cards", energy="1 Energy" if n == 1 else f"{n} Energy",
        more=f"{amount} more" if amount >= 0 else f"{-amount} less",
        less=f"{amount} less" if amount >= 0 else f"{-amount} more")


def _sentence(head: str, bodies: list[str], joiner: str = ", then ") -> str:
    body = joiner.join(bodies)
    return f"{head}: {body[:1].upper()}{body[1:]}." if body else f"{head}."


def effect_text(effect: dict, holder: str = "this Unit") -> str:
    """One effect entry of a card (its trigger and op with arguments) as a sentence; ``holder`` is who a passive acts
    on (an Assist's is its host)."""
    trigger = str(effect.get("trigger", "skill"))
    return _sentence(TRIGGER_WORDS.get(trigger, trigger), [_body(effect, holder)])


def _skill(skill: dict) -> str:
    energy = int(skill.get("energy") or 0)
    head = f"Skill {skill.get('name', '')} ({energy} Energy)" if energy else f"Skill {skill.get('name', '')}"
    damage = [f"{int(skill['damage'])} damage"] if int(skill.get("damage") or 0) else []
    bonuses = [_body(e) for e in skill.get("effects") or [] if isinstance(e, dict) and str(e.get("op")).startswith(
        "bonus_")]
    others = [_body(e) for e in skill.get("effects") or [] if isinstance(e, dict) and not str(e.get("op")).startswith(
        "bonus_")]
    first = ", ".join(damage + bonuses)  # the bonus is part of the skill's damage (damage step 1)
    return _sentence(head, ([first] if first else []) + others)


def card_clauses(card: dict) -> list[str]:
    """A card's skills and effects in words, one sentence each (``cards_table`` puts its printed text first)."""
    holder = "the Unit it is attached to" if card.get("type") == "assist" else "this Unit"
    out = [_skill(s) for s in card.get("skills") or [] if isinstance(s, dict)]
    groups: list[list[dict]] = []  # effects of the same trigger one after another: one sentence
    for e in card.get("effects") or []:
        if not isinstance(e, dict):
            continue
        if groups and groups[-1][0].get("trigger") == e.get("trigger"):
            groups[-1].append(e)
        else:
            groups.append([e])
    for group in groups:
        trigger = str(group[0].get("trigger"))
        # passives hold together; the effects of an EX-Power or a played card happen one after another
        out.append(_sentence(TRIGGER_WORDS.get(trigger, trigger), [_body(e, holder) for e in group],
                             "; " if trigger == "passive" else ", then "))
    return out
