"""Cards in words: the one place that turns vocabulary data into sentences for people.

Card pages, the deck builder and the engine's events all read cards through these functions,
so no page ever shows a vocabulary key (``own_battle_spell``) to a player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from westernroses.words import N_, Words, listing

STAT_WORDS: Final = {"av": "AV", "iv": "IV", "hv": "HV", "ev": "EV", "bv": "BV"}
BASIC_WORDS: Final = {
    "focused": N_("Focused Movement"),
    "unfocused": N_("Unfocused Movement"),
    "protection": N_("Protection"),
    "faith": N_("Faith"),
    "guided": N_("Guided Bullets"),
    "penetration": N_("Penetration"),
}
PHASE_WORDS: Final = {
    "replenish": "Replenish",
    "battle": "Battle",
    "preparation": "Preparation",
}
ROLE_WORDS: Final = {"attack": "/Attack", "intercept": "/Intercept", "any": ""}
TARGET_WORDS: Final = {
    "any_leader": "a leader of your choice",
    "own_spell": "one of your Active spells",
    "opposing_spell": "one of your opponent's Active spells",
    "any_spell": "an Active spell of your choice",
    "any_support": "a Support in play of your choice",
    "own_leader": "your leader",
    "opponent_leader": "your opponent's leader",
    "both_leaders": "both leaders",
    "own_battle_spell": "your spell in this battle",
    "opposing_battle_spell": "the opposing spell in this battle",
    "own_spells": "each of your Active spells",
    "opposing_spells": "each of your opponent's Active spells",
    "all_spells": "every Active spell",
}
TRIGGER_WORDS: Final = {
    "replenish_start": "At the start of the Replenish phase",
    "battle_start": "At the start of the Battle phase",
    "preparation_start": "At the start of the Preparation phase",
    "replenish_end": "At the end of the Replenish phase",
    "battle_end": "At the end of the Battle phase",
    "preparation_end": "At the end of the Preparation phase",
    "hit": "When this spell hits the opposing leader",
}
SHOT_WORDS: Final = {"spread": "Spread", "concentration": "Concentration", "normal": "Normal"}
KIND_WORDS: Final = {
    "character": "Character",
    "spell": "Spell",
    "support": "Support",
    "event": "Event",
}


def _this_words(card: Mapping[str, Any]) -> str:
    if card.get("kind") == "character":
        return "this leader"
    if card.get("kind") == "spell":
        return "this spell"
    if card.get("support") == "leader":
        return "the leader this is equipped to"
    return "the spell this is equipped to"


def target_words(target: str | None, card: Mapping[str, Any]) -> str:
    if target == "this":
        return _this_words(card)
    return TARGET_WORDS.get(str(target), "")


def basic_words(name: str, power: object) -> str:
    """``Faith (2)``, ``Guided Bullets``."""
    label = BASIC_WORDS[name]
    return label if power is True or power is None else f"{label} ({power})"


def basic_phrase(name: str, power: object) -> Words:
    """:func:`basic_words` as the engine's words, for a log line read in any language."""
    label = Words(BASIC_WORDS[name])
    if power is True or power is None:
        return label
    return Words(N_("%(ability)s (%(power)s)"), {"ability": label, "power": power})


#: One part of a cost in words, by its kind: (one, more than one).
COST_PARTS: Final = {
    "sp": (N_("%(count)s SP"), N_("%(count)s SP")),
    "hand": (
        N_("discard %(count)s card from your hand"),
        N_("discard %(count)s cards from your hand"),
    ),
    "deck": (
        N_("put the top %(count)s card of your deck in your discard pile"),
        N_("put the top %(count)s cards of your deck in your discard pile"),
    ),
    "field": (
        N_("send %(count)s of your Supports in play to your discard pile"),
        N_("send %(count)s of your Supports in play to your discard pile"),
    ),
    "doctrine": (N_("Doctrine (%(count)s)"), N_("Doctrine (%(count)s)")),
}


def cost_phrase(costs: Sequence[Mapping[str, Any]] | None) -> Words | str:
    """A cost as the engine's words (a Special's cost in a move's label, read in the reader's
    language): ``2 SP, discard 1 card from your hand``; empty for no cost."""
    parts: list[Words | str] = []
    for item in costs or ():
        ((kind, n),) = item.items()
        one, more = COST_PARTS.get(kind, COST_PARTS["doctrine"])
        parts.append(Words(one if n == 1 else more, {"count": n}))
    return listing(parts, last="comma")


def cost_words(costs: Sequence[Mapping[str, Any]] | None) -> str:
    """``2 SP, discard 1 card from your hand``; empty for no cost."""
    return str(cost_phrase(costs))


def effect_words(effect: Mapping[str, Any], target: str) -> str:
    """One effect as a clause: ``your spell in this battle gets AV +2``."""
    word = effect["do"]
    amount = int(effect.get("amount") or 0)
    if word == "modify":
        sign = "+" if amount > 0 else "−"
        return f"{target} gets {STAT_WORDS[effect['stat']]} {sign}{abs(amount)}"
    if word == "grant":
        return f"{target} gains {basic_words(effect['ability'], effect.get('amount'))}"
    if word == "gain_sp":
        return f"you gain {amount} SP"
    if word == "drain_sp":
        return f"your opponent loses {amount} SP"
    if word == "draw":
        return f"you draw {amount} card{'s' if amount != 1 else ''}"
    if word == "heal":
        return f"{target} recovers {amount} HP"
    if word == "damage":
        return f"{target} loses {amount} HP"
    if word == "remove_support":
        return f"{target} goes to its owner's discard pile"
    return f"{target} returns to its Reserve"


def condition_words(condition: Mapping[str, Any] | None) -> str:
    parts: list[str] = []
    for key, value in (condition or {}).items():
        if key == "your_leader":
            parts.append(f"your leader is {value}")
        elif key == "opponent_leader":
            parts.append(f"your opponent's leader is {value}")
        elif key == "your_hp_at_most":
            parts.append(f"your HP is {value} or less")
        else:
            parts.append(f"the opposing spell in battle is {SHOT_WORDS[value]}")
    return " and ".join(parts)


def _effects_sentence(effects: Sequence[Mapping[str, Any]], target: str) -> str:
    clauses = [effect_words(e, target) for e in effects]
    text = "; ".join(clauses)
    return text[:1].upper() + text[1:] + "."


def ability_words(ability: Mapping[str, Any], card: Mapping[str, Any]) -> str:
    """One ability as a sentence a player reads on the card."""
    target = target_words(ability.get("target"), card)
    when = condition_words(ability.get("condition"))
    if_clause = f" If {when}:" if when else ""
    kind = ability["kind"]
    if kind == "passive":
        if "keyword" in ability:
            if ability["keyword"] == "untargetable":
                text = f"Your opponent's Events and Specials cannot target {target}."
            else:
                text = (
                    f"{target[:1].upper() + target[1:]} is unaffected by your opponent's "
                    "Events and Specials."
                )
        else:
            text = _effects_sentence(ability["effects"], target)
        return f"Passive:{if_clause} {text}"
    if kind == "trigger":
        role = ROLE_WORDS[ability.get("role", "any")]
        lead = TRIGGER_WORDS[ability["when"]]
        if role:
            lead += " (attacking)" if role == "/Attack" else " (intercepting)"
        return f"{lead}:{if_clause} {_effects_sentence(ability['effects'], target)}"
    phase = PHASE_WORDS[ability["phase"]] + ROLE_WORDS[ability.get("role", "any")]
    cost = cost_words(ability.get("cost"))
    head = f"Special [{phase}{', ' + cost if cost else ', no cost'}]:{if_clause}"
    text = f"{head} {_effects_sentence(ability['effects'], target)}"
    awakening = ability.get("awakening")
    if awakening:
        text += (
            f" Awakening ({cost_words(awakening['cost'])}): also "
            + _effects_sentence(awakening["effects"], target)[0].lower()
            + _effects_sentence(awakening["effects"], target)[1:]
        )
    return text


def requirement_words(requires: Mapping[str, int] | None) -> str:
    if not requires:
        return "General (anyone may use it)"
    parts = [f"{name} level {level}" for name, level in requires.items()]
    team = " (Team)" if len(parts) > 1 else ""
    return "Needs " + " and ".join(parts) + team


def card_lines(card: Mapping[str, Any], card_set: Mapping[str, Any] | None = None) -> list[str]:
    """Everything on ``card`` in words, one line each: kind, requirement, values, abilities.
    (``card_set`` is unused: an RSO card names no other card; both card games take it.)"""
    kind = card["kind"]
    lines: list[str] = []
    if kind == "character":
        lines.append(
            f"Character: {card['character']}" + (f", {card['title']}" if card.get("title") else "")
        )
        lines.append(f"HP {card['hp']}, EV {card['ev']}, Border Value {card['bv']}")
    else:
        label = KIND_WORDS[kind]
        if kind == "support":
            label = f"{card['support'].capitalize()} Support"
            if card.get("class"):
                label += f" ({card['class']})"
        lines.append(f"{label}, {card['cost']} SP. {requirement_words(card.get('requires'))}.")
        extra = cost_words(card.get("extra_cost"))
        if extra:
            lines.append(f"Extra cost: {extra}.")
    if kind == "spell":
        lines.append(
            f"{SHOT_WORDS[card['shot']]} shot: AV {card['av']}, IV {card['iv']}, HV {card['hv']}"
        )
        basics = [basic_words(k, v) for k, v in (card.get("basic") or {}).items()]
        if basics:
            lines.append("Basic abilities: " + ", ".join(basics) + ".")
        if card.get("activate_cost"):
            lines.append(f"(Activate) cost: {cost_words(card['activate_cost'])}.")
        if card.get("battle_cost"):
            lines.append(f"(Battle) cost: {cost_words(card['battle_cost'])}.")
    if kind == "event":
        phases = ", ".join(PHASE_WORDS[p] for p in card["phases"])
        lines.append(f"Played in: {phases}{ROLE_WORDS[card.get('role', 'any')]}.")
        when = condition_words(card.get("condition"))
        target = target_words(card.get("target"), card)
        lines.append(
            ("If " + when + ": " if when else "") + _effects_sentence(card["effects"], target)
        )
        awakening = card.get("awakening")
        if awakening:
            sentence = _effects_sentence(awakening["effects"], target)
            lines.append(
                f"Awakening ({cost_words(awakening['cost'])}): "
                f"also {sentence[0].lower()}{sentence[1:]}"
            )
    lines.extend(ability_words(a, card) for a in card.get("abilities") or ())
    return lines
