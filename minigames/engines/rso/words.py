"""Cards in words: the one place that turns vocabulary data into sentences for people.

Card pages, the deck builder and the engine's events all read cards through these functions,
so no page ever shows a vocabulary key (``own_battle_spell``) to a player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from westernroses.words import N_, NP_, Words, capitalized, data, listing

STAT_WORDS: Final = {"av": "AV", "iv": "IV", "hv": "HV", "ev": "EV", "bv": "BV"}
BASIC_WORDS: Final = {
    "focused": N_("Focused Movement"),
    "unfocused": N_("Unfocused Movement"),
    "protection": N_("Protection"),
    "faith": N_("Faith"),
    "guided": N_("Guided Bullets"),
    "penetration": N_("Penetration"),
}
#: The message context (written out in each ``NP_`` for makemessages) of the card terms whose
#: English words mean something else elsewhere
#: on the site ("Battle", "Event"): their translations are the rulebook's.
TERM: Final = "RSO card"
PHASE_WORDS: Final = {
    "replenish": NP_("RSO card", "Replenish"),
    "battle": NP_("RSO card", "Battle"),
    "preparation": NP_("RSO card", "Preparation"),
}
ROLE_WORDS: Final = {"attack": "/Attack", "intercept": "/Intercept", "any": ""}
#: A phase with its role, as a Special's or an Event's timing reads: "Battle/Attack".
ROLE_PHASE: Final = {"attack": N_("%(phase)s/Attack"), "intercept": N_("%(phase)s/Intercept")}
TARGET_WORDS: Final = {
    "any_leader": N_("a leader of your choice"),
    "own_spell": N_("one of your Active spells"),
    "opposing_spell": N_("one of your opponent's Active spells"),
    "any_spell": N_("an Active spell of your choice"),
    "any_support": N_("a Support in play of your choice"),
    "own_leader": N_("your leader"),
    "opponent_leader": N_("your opponent's leader"),
    "both_leaders": N_("both leaders"),
    "own_battle_spell": N_("your spell in this battle"),
    "opposing_battle_spell": N_("the opposing spell in this battle"),
    "own_spells": N_("each of your Active spells"),
    "opposing_spells": N_("each of your opponent's Active spells"),
    "all_spells": N_("every Active spell"),
}
TRIGGER_WORDS: Final = {
    "replenish_start": N_("At the start of the Replenish phase"),
    "battle_start": N_("At the start of the Battle phase"),
    "preparation_start": N_("At the start of the Preparation phase"),
    "replenish_end": N_("At the end of the Replenish phase"),
    "battle_end": N_("At the end of the Battle phase"),
    "preparation_end": N_("At the end of the Preparation phase"),
    "hit": N_("When this spell hits the opposing leader"),
}
SHOT_WORDS: Final = {
    "spread": NP_("RSO card", "Spread"),
    "concentration": NP_("RSO card", "Concentration"),
    "normal": NP_("RSO card", "Normal"),
}
#: A card's kind as its first line reads it ("Spell, 2 SP. ...").
LINE_KIND_WORDS: Final = {"spell": NP_("RSO card", "Spell"), "event": NP_("RSO card", "Event")}
KIND_WORDS: Final = {
    "character": "Character",
    "spell": "Spell",
    "support": "Support",
    "event": "Event",
}
#: The kinds as the table names them: RSO's own terms (:data:`TERM` context), so "Event" reads
#: as the glossary's RSO Event, not as the shared data word (:data:`KIND_WORDS` stays the
#: deck builder's label).
KIND_TERMS: Final = {
    "character": NP_("RSO card", "Character"),
    "spell": NP_("RSO card", "Spell"),
    "support": NP_("RSO card", "Support"),
    "event": NP_("RSO card", "Event"),
}
#: A Support's label by what it is equipped to (the kind's word on a card's first line).
SUPPORT_WORDS: Final = {
    "leader": N_("Leader Support"),
    "spell": N_("Spell Support"),
    "scene": N_("Scene Support"),
}


def _term(text: str) -> Words:
    """A card term as the engine's words, with its context (:data:`TERM`)."""
    return Words(text, context=TERM)


def _this_words(card: Mapping[str, Any]) -> Words:
    if card.get("kind") == "character":
        return Words(N_("this leader"))
    if card.get("kind") == "spell":
        return Words(N_("this spell"))
    if card.get("support") == "leader":
        return Words(N_("the leader this is equipped to"))
    return Words(N_("the spell this is equipped to"))


def target_phrase(target: str | None, card: Mapping[str, Any]) -> Words | str:
    """Whom an effect acts on, as the engine's words ("your leader")."""
    if target == "this":
        return _this_words(card)
    word = TARGET_WORDS.get(str(target))
    return Words(word) if word else ""


def target_words(target: str | None, card: Mapping[str, Any]) -> str:
    return str(target_phrase(target, card))


def _and(parts: Sequence[Words | str]) -> Words | str:
    """``parts`` joined by "and" each time ("A and B and C"), as a card's conditions and
    requirements read."""
    if not parts:
        return ""
    head = parts[0]
    for part in parts[1:]:
        head = Words(N_("%(first)s and %(next)s"), {"first": head, "next": part})
    return head


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


#: An effect's clause by its ``do`` (one, more than one where the count makes a plural).
EFFECT_WORDS: Final = {
    "gain_sp": (N_("you gain %(count)s SP"), N_("you gain %(count)s SP")),
    "drain_sp": (N_("your opponent loses %(count)s SP"), N_("your opponent loses %(count)s SP")),
    "draw": (N_("you draw %(count)s card"), N_("you draw %(count)s cards")),
    "heal": (N_("%(target)s recovers %(count)s HP"), N_("%(target)s recovers %(count)s HP")),
    "damage": (N_("%(target)s loses %(count)s HP"), N_("%(target)s loses %(count)s HP")),
}


def effect_phrase(effect: Mapping[str, Any], target: Words | str) -> Words:
    """One effect as a clause in the engine's words: ``your spell in this battle gets AV +2``."""
    word = effect["do"]
    amount = int(effect.get("amount") or 0)
    if word == "modify":
        sign = "+" if amount > 0 else "−"
        return Words(
            N_("%(target)s gets %(stat)s %(amount)s"),
            {
                "target": target,
                "stat": STAT_WORDS[effect["stat"]],
                "amount": f"{sign}{abs(amount)}",
            },
        )
    if word == "grant":
        return Words(
            N_("%(target)s gains %(ability)s"),
            {"target": target, "ability": basic_phrase(effect["ability"], effect.get("amount"))},
        )
    if word in EFFECT_WORDS:
        one, more = EFFECT_WORDS[word]
        params: dict[str, Any] = {"count": amount}
        if "%(target)s" in one:
            params["target"] = target
        return Words(one if amount == 1 else more, params)
    if word == "remove_support":
        return Words(N_("%(target)s goes to its owner's discard pile"), {"target": target})
    return Words(N_("%(target)s returns to its Reserve"), {"target": target})


def effect_words(effect: Mapping[str, Any], target: str) -> str:
    """One effect as a clause: ``your spell in this battle gets AV +2``."""
    return str(effect_phrase(effect, target))


def condition_phrase(condition: Mapping[str, Any] | None) -> Words | str:
    """When an ability applies, in the engine's words; empty for always."""
    parts: list[Words | str] = []
    for key, value in (condition or {}).items():
        if key == "your_leader":
            parts.append(Words(N_("your leader is %(character)s"), {"character": data(str(value))}))
        elif key == "opponent_leader":
            parts.append(
                Words(
                    N_("your opponent's leader is %(character)s"), {"character": data(str(value))}
                )
            )
        elif key == "your_hp_at_most":
            parts.append(Words(N_("your HP is %(count)s or less"), {"count": value}))
        else:
            parts.append(
                Words(
                    N_("the opposing spell in battle is %(shot)s"),
                    {"shot": _term(SHOT_WORDS[value])},
                )
            )
    return _and(parts)


def condition_words(condition: Mapping[str, Any] | None) -> str:
    return str(condition_phrase(condition))


def _effects(effects: Sequence[Mapping[str, Any]], target: Words | str) -> Words:
    """The effects as one sentence as it continues ("also your leader recovers 1 HP.")."""
    clauses: list[Words | str] = [effect_phrase(e, target) for e in effects]
    return Words(N_("%(effects)s."), {"effects": listing(clauses, last="semicolon")})


def _effects_sentence(effects: Sequence[Mapping[str, Any]], target: Words | str) -> Words:
    """The effects as a sentence of their own, its first letter a capital."""
    clauses: list[Words | str] = [effect_phrase(e, target) for e in effects]
    return Words(N_("%(effects)s."), {"effects": capitalized(listing(clauses, last="semicolon"))})


def _if(condition: Words | str, with_it: str, without: str, params: dict[str, Any]) -> Words:
    """A line with its condition ("If ...:") when it has one."""
    if condition:
        return Words(with_it, {**params, "condition": condition})
    return Words(without, params)


def _phase(phase: str, role: str) -> Words:
    """A phase with its role, as a Special's timing reads: "Battle/Attack"."""
    word = _term(PHASE_WORDS[phase])
    return Words(ROLE_PHASE[role], {"phase": word}) if role in ROLE_PHASE else word


def ability_phrase(ability: Mapping[str, Any], card: Mapping[str, Any]) -> Words:
    """One ability as a sentence a player reads on the card, in the engine's words."""
    target = target_phrase(ability.get("target"), card)
    when = condition_phrase(ability.get("condition"))
    kind = ability["kind"]
    text: Words
    if kind == "passive":
        if "keyword" in ability:
            if ability["keyword"] == "untargetable":
                text = Words(
                    N_("Your opponent's Events and Specials cannot target %(target)s."),
                    {"target": target},
                )
            else:
                text = Words(
                    N_("%(target)s is unaffected by your opponent's Events and Specials."),
                    {"target": capitalized(target)},
                )
        else:
            text = _effects_sentence(ability["effects"], target)
        return _if(
            when,
            N_("Passive: If %(condition)s: %(text)s"),
            N_("Passive: %(text)s"),
            {"text": text},
        )
    if kind == "trigger":
        role = ability.get("role", "any")
        lead: Words = Words(TRIGGER_WORDS[ability["when"]])
        if role == "attack":
            lead = Words(N_("%(moment)s (attacking)"), {"moment": lead})
        elif role == "intercept":
            lead = Words(N_("%(moment)s (intercepting)"), {"moment": lead})
        return _if(
            when,
            N_("%(moment)s: If %(condition)s: %(text)s"),
            N_("%(moment)s: %(text)s"),
            {"moment": lead, "text": _effects_sentence(ability["effects"], target)},
        )
    phase = _phase(ability["phase"], ability.get("role", "any"))
    cost = cost_phrase(ability.get("cost"))
    params: dict[str, Any] = {
        "phase": phase,
        "text": _effects_sentence(ability["effects"], target),
    }
    if cost:
        params["cost"] = cost
        special = _if(
            when,
            N_("Special [%(phase)s, %(cost)s]: If %(condition)s: %(text)s"),
            N_("Special [%(phase)s, %(cost)s]: %(text)s"),
            params,
        )
    else:
        special = _if(
            when,
            N_("Special [%(phase)s, no cost]: If %(condition)s: %(text)s"),
            N_("Special [%(phase)s, no cost]: %(text)s"),
            params,
        )
    awakening = ability.get("awakening")
    if awakening:
        return Words(
            N_("%(special)s Awakening (%(cost)s): also %(effects)s"),
            {
                "special": special,
                "cost": cost_phrase(awakening["cost"]),
                "effects": _effects(awakening["effects"], target),
            },
        )
    return special


def ability_words(ability: Mapping[str, Any], card: Mapping[str, Any]) -> str:
    """One ability as a sentence a player reads on the card."""
    return str(ability_phrase(ability, card))


def requirement_phrase(requires: Mapping[str, int] | None) -> Words:
    """Who may use a card, in the engine's words: "Needs Reimu level 2"."""
    if not requires:
        return Words(N_("General (anyone may use it)"))
    parts: list[Words | str] = [
        Words(N_("%(character)s level %(level)s"), {"character": data(name), "level": level})
        for name, level in requires.items()
    ]
    if len(parts) > 1:
        return Words(N_("Needs %(levels)s (Team)"), {"levels": _and(parts)})
    return Words(N_("Needs %(levels)s"), {"levels": _and(parts)})


def requirement_words(requires: Mapping[str, int] | None) -> str:
    return str(requirement_phrase(requires))


def card_line_words(
    card: Mapping[str, Any], card_set: Mapping[str, Any] | None = None
) -> list[Words]:
    """Everything on ``card`` in the engine's words, one line each: kind, requirement, values,
    abilities; the app renders them in the reader's language, ``str()`` of each is the English
    line. (``card_set`` is unused: an RSO card names no other card; both card games take it.)"""
    kind = card["kind"]
    lines: list[Words] = []
    if kind == "character":
        if card.get("title"):
            lines.append(
                Words(
                    N_("Character: %(character)s, %(title)s"),
                    {"character": data(card["character"]), "title": data(card["title"])},
                )
            )
        else:
            lines.append(
                Words(N_("Character: %(character)s"), {"character": data(card["character"])})
            )
        lines.append(
            Words(
                N_("HP %(hp)s, EV %(ev)s, Border Value %(bv)s"),
                {"hp": card["hp"], "ev": card["ev"], "bv": card["bv"]},
            )
        )
    else:
        label: Words = _term(LINE_KIND_WORDS.get(kind, KIND_WORDS[kind]))
        if kind == "support":
            label = Words(SUPPORT_WORDS[card["support"]])
            if card.get("class"):
                label = Words(
                    N_("%(support)s (%(class)s)"), {"support": label, "class": data(card["class"])}
                )
        lines.append(
            Words(
                N_("%(kind)s, %(cost)s SP. %(requirement)s."),
                {
                    "kind": label,
                    "cost": card["cost"],
                    "requirement": requirement_phrase(card.get("requires")),
                },
            )
        )
        extra = cost_phrase(card.get("extra_cost"))
        if extra:
            lines.append(Words(N_("Extra cost: %(cost)s."), {"cost": extra}))
    if kind == "spell":
        lines.append(
            Words(
                N_("%(shot)s shot: AV %(av)s, IV %(iv)s, HV %(hv)s"),
                {
                    "shot": _term(SHOT_WORDS[card["shot"]]),
                    "av": card["av"],
                    "iv": card["iv"],
                    "hv": card["hv"],
                },
            )
        )
        basics: list[Words | str] = [
            basic_phrase(k, v) for k, v in (card.get("basic") or {}).items()
        ]
        if basics:
            lines.append(
                Words(
                    N_("Basic abilities: %(abilities)s."),
                    {"abilities": listing(basics, last="comma")},
                )
            )
        if card.get("activate_cost"):
            lines.append(
                Words(
                    N_("(Activate) cost: %(cost)s."), {"cost": cost_phrase(card["activate_cost"])}
                )
            )
        if card.get("battle_cost"):
            lines.append(
                Words(N_("(Battle) cost: %(cost)s."), {"cost": cost_phrase(card["battle_cost"])})
            )
    if kind == "event":
        phases = listing([_term(PHASE_WORDS[p]) for p in card["phases"]], last="comma")
        role = card.get("role", "any")
        played = {
            "attack": N_("Played in: %(phases)s/Attack."),
            "intercept": N_("Played in: %(phases)s/Intercept."),
        }.get(role, N_("Played in: %(phases)s."))
        lines.append(Words(played, {"phases": phases}))
        when = condition_phrase(card.get("condition"))
        target = target_phrase(card.get("target"), card)
        sentence = _effects_sentence(card["effects"], target)
        lines.append(
            Words(N_("If %(condition)s: %(text)s"), {"condition": when, "text": sentence})
            if when
            else sentence
        )
        awakening = card.get("awakening")
        if awakening:
            lines.append(
                Words(
                    N_("Awakening (%(cost)s): also %(effects)s"),
                    {
                        "cost": cost_phrase(awakening["cost"]),
                        "effects": _effects(awakening["effects"], target),
                    },
                )
            )
    lines.extend(ability_phrase(a, card) for a in card.get("abilities") or ())
    return lines


def card_lines(card: Mapping[str, Any], card_set: Mapping[str, Any] | None = None) -> list[str]:
    """Everything on ``card`` in words, one line each: kind, requirement, values, abilities
    (the English of :func:`card_line_words`)."""
    return [str(line) for line in card_line_words(card, card_set)]
