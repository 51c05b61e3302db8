"""The declarative effect vocabulary DBS cards are written in, its validation and its words.

Why a vocabulary: the rulebook prints rules but no cards, and a GM adds cards later as data
(through a page or the API). A card is therefore a mapping of fields; its abilities are small
records built from a closed list of words the engine interprets (``engine`` never runs code
that belongs to one card). :func:`validate_card` refuses anything outside the vocabulary with
an error that names the field; :func:`describe_card` renders a card in plain words.

The pieces (docs/games/dbs.md shows them with examples):

* **conditions** ``{"check": ..., "amount": n, "whose": "self" | "opponent"}``;
* **effects** ``{"do": ..., "amount": n, "target": "self" | "opponent", "if": [conditions]}``;
* **statics** (lasting modifiers) ``{"static": ..., "amount": n, "when": ..., "if": [...]}``;
* **triggers** ``{"at": ..., "effects": [effects], "if": [conditions]}``
  (``at``, not ``on``: YAML reads a bare ``on`` as true``;
* an **ability set** ``{"statics": [...], "triggers": [...]}`` (constants and each of a
  character's Support, Center and Hyper skills).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

Card = dict[str, Any]

KINDS: Final = ("character", "battle", "buff", "trap", "instant", "constant")
KIND_WORDS: Final = {
    "character": "Character",
    "battle": "Battle Spellcard",
    "buff": "Buff",
    "trap": "Trap",
    "instant": "Instant item",
    "constant": "Constant item",
}
NUMBER_PATTERN: Final = re.compile(r"^[A-Z]{2,6}-[0-9]{3}$")
MAX_AMOUNT: Final = 20000
MAX_COST: Final = 10
MAX_LEVEL: Final = 5

#: condition word → (needs an amount, amount minimum)
CONDITIONS: Final = {
    "chain_count_at_least": 1,
    "chain_level_at_least": 1,
    "lp_below": -MAX_AMOUNT,
    "lp_at_least": -MAX_AMOUNT,
    "hand_at_most": 0,
}
#: effect word → (default target, whether it takes an amount, allowed targets)
EFFECTS: Final[dict[str, tuple[str, bool, tuple[str, ...]]]] = {
    "damage": ("opponent", True, ("self", "opponent")),
    "heal": ("self", True, ("self", "opponent")),
    "draw": ("self", True, ("self", "opponent")),
    "recover_beads": ("self", True, ("self", "opponent")),
    "break_beads": ("opponent", True, ("self", "opponent")),
    "boost": ("own", True, ("own", "opposing")),
    "negate": ("opposing", False, ("opposing",)),
    "destroy_item": ("opponent", False, ("self", "opponent")),
    "discard_random": ("opponent", True, ("self", "opponent")),
    "chain_pop": ("opponent", False, ("self", "opponent")),
    "win": ("self", False, ("self",)),
}
#: effects that only make sense while a clash is under way (traps, instants used in defence,
#: a Battle Spellcard's own declaration)
CLASH_EFFECTS: Final = ("boost", "negate")
STATICS: Final = (
    "attack_bonus",
    "damage_reduction",
    "hand_limit",
    "pick_bonus",
    "cost_reduction",
    "win_when",
)
WHEN: Final = ("always", "attacking", "defending")
TRIGGERS: Final = ("pick_start", "opponent_pick_start", "hit", "hit_taken")
LIMITS: Final = ("none", "center", "hyper")
TIMINGS: Final = ("attack", "defend")
SKILL_LEVELS: Final = ("support", "center", "hyper")

_COMMON: Final = {"number", "name", "kind", "flavor"}
_FIELDS: Final[dict[str, set[str]]] = {
    "character": _COMMON | {"title", "support", "center", "hyper"},
    "battle": _COMMON
    | {"character", "cost", "attack", "level", "limit", "requires", "on_declare", "on_hit"},
    "buff": _COMMON | {"character", "cost", "requires", "effects", "this_turn"},
    "trap": _COMMON | {"cost", "requires", "effects"},
    "instant": _COMMON | {"cost", "timing", "requires", "effects"},
    "constant": _COMMON | {"cost", "statics", "triggers"},
}
_REQUIRED: Final[dict[str, tuple[str, ...]]] = {
    "character": (),
    "battle": ("character", "cost", "attack", "level"),
    "buff": ("cost", "effects"),
    "trap": ("cost", "effects"),
    "instant": ("cost", "timing", "effects"),
    "constant": ("cost",),
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_error(path: str, value: object, low: int, high: int) -> list[str]:
    if not _is_int(value) or not low <= value <= high:  # type: ignore[operator]
        return [f"{path}: must be a whole number from {low} to {high}."]
    return []


def _check_conditions(path: str, value: object) -> list[str]:
    if not isinstance(value, list):
        return [f"{path}: must be a list of conditions."]
    errors: list[str] = []
    for i, cond in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(cond, Mapping):
            errors.append(f"{where}: must be a condition with a 'check'.")
            continue
        unknown = set(cond) - {"check", "amount", "whose"}
        errors += [f"{where}.{key}: is not a field of a condition." for key in sorted(unknown)]
        check = cond.get("check")
        if not isinstance(check, str) or check not in CONDITIONS:
            errors.append(f"{where}.check: must be one of {', '.join(CONDITIONS)}.")
            continue
        errors += _int_error(f"{where}.amount", cond.get("amount"), CONDITIONS[check], MAX_AMOUNT)
        if cond.get("whose", "self") not in ("self", "opponent"):
            errors.append(f"{where}.whose: must be self or opponent.")
    return errors


#: Cards played from the hand: while their ``requires`` are checked the card is still there.
FROM_HAND: Final = ("battle", "buff", "instant")


def _never_playable(kind: str, requires: object) -> list[str]:
    """Needs no game position can meet, so the card could never be played: LP below 0 or less
    (a Knock Out has ended the game, rulebook 二 B), LP both below A and at least B >= A, or a
    hand of at most 0 cards for a card played from that hand."""
    if not isinstance(requires, list) or not all(isinstance(c, Mapping) for c in requires):
        return []
    errors: list[str] = []
    below: dict[str, int] = {}
    at_least: dict[str, tuple[int, int]] = {}
    for i, cond in enumerate(requires):
        amount, whose = cond.get("amount"), cond.get("whose", "self")
        if not _is_int(amount) or whose not in ("self", "opponent"):
            continue
        check = cond.get("check")
        lp = "your" if whose == "self" else "your opponent's"
        if check == "lp_below":
            if amount <= 0:
                errors.append(
                    f"requires[{i}].amount: {lp} LP below {amount} means below 0, which ends the "
                    "game by Knock Out, so this card could never be played."
                )
            below[whose] = min(amount, below.get(whose, amount))
        elif check == "lp_at_least":
            at_least[whose] = max((amount, i), at_least.get(whose, (amount, i)))
        elif check == "hand_at_most" and amount == 0 and whose == "self" and kind in FROM_HAND:
            errors.append(
                f"requires[{i}].amount: the card is in your hand while you play it, so your "
                "hand never holds at most 0 cards and this card could never be played."
            )
    for whose, (amount, i) in sorted(at_least.items()):
        if whose in below and amount >= below[whose]:
            lp = "your" if whose == "self" else "your opponent's"
            errors.append(
                f"requires[{i}].amount: {lp} LP cannot be at least {amount} and below "
                f"{below[whose]} at once, so this card could never be played."
            )
    return errors


def _check_effects(path: str, value: object, *, clash: bool) -> list[str]:
    if not isinstance(value, list) or not value:
        return [f"{path}: must be a non-empty list of effects."]
    errors: list[str] = []
    for i, eff in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(eff, Mapping):
            errors.append(f"{where}: must be an effect with a 'do'.")
            continue
        unknown = set(eff) - {"do", "amount", "target", "if"}
        errors += [f"{where}.{key}: is not a field of an effect." for key in sorted(unknown)]
        verb = eff.get("do")
        if not isinstance(verb, str) or verb not in EFFECTS:
            errors.append(f"{where}.do: must be one of {', '.join(EFFECTS)}.")
            continue
        _, takes_amount, targets = EFFECTS[verb]
        if verb in CLASH_EFFECTS and not clash:
            errors.append(f"{where}.do: {verb} only works during a clash, not here.")
        if takes_amount:
            low = -MAX_AMOUNT if verb == "boost" else 1
            errors += _int_error(f"{where}.amount", eff.get("amount"), low, MAX_AMOUNT)
        elif "amount" in eff:
            errors.append(f"{where}.amount: {verb} takes no amount.")
        if "target" in eff and eff["target"] not in targets:
            errors.append(f"{where}.target: must be one of {', '.join(targets)}.")
        if "if" in eff:
            errors += _check_conditions(f"{where}.if", eff["if"])
    return errors


def _check_statics(path: str, value: object) -> list[str]:
    if not isinstance(value, list):
        return [f"{path}: must be a list of lasting effects."]
    errors: list[str] = []
    for i, st in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(st, Mapping):
            errors.append(f"{where}: must be a lasting effect with a 'static'.")
            continue
        unknown = set(st) - {"static", "amount", "when", "if"}
        errors += [f"{where}.{key}: is not a field of a lasting effect." for key in sorted(unknown)]
        kind = st.get("static")
        if kind not in STATICS:
            errors.append(f"{where}.static: must be one of {', '.join(STATICS)}.")
            continue
        if kind == "win_when":
            if "if" not in st or not st["if"]:
                errors.append(f"{where}.if: win_when needs at least one condition.")
            if "amount" in st:
                errors.append(f"{where}.amount: win_when takes no amount.")
        else:
            high = (
                MAX_COST if kind in ("hand_limit", "pick_bonus", "cost_reduction") else MAX_AMOUNT
            )
            errors += _int_error(f"{where}.amount", st.get("amount"), 1, high)
        if "when" in st and (kind != "attack_bonus" or st["when"] not in WHEN):
            errors.append(f"{where}.when: only attack_bonus takes one of {', '.join(WHEN)}.")
        if "if" in st:
            errors += _check_conditions(f"{where}.if", st["if"])
    return errors


def _check_triggers(path: str, value: object) -> list[str]:
    if not isinstance(value, list):
        return [f"{path}: must be a list of triggers."]
    errors: list[str] = []
    for i, trig in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(trig, Mapping):
            errors.append(f"{where}: must be a trigger with an 'at'.")
            continue
        unknown = set(trig) - {"at", "effects", "if"}
        errors += [f"{where}.{key}: is not a field of a trigger." for key in sorted(unknown)]
        if trig.get("at") not in TRIGGERS:
            errors.append(f"{where}.at: must be one of {', '.join(TRIGGERS)}.")
        errors += _check_effects(f"{where}.effects", trig.get("effects"), clash=False)
        if "if" in trig:
            errors += _check_conditions(f"{where}.if", trig["if"])
    return errors


def _check_ability_set(path: str, value: object) -> list[str]:
    if not isinstance(value, Mapping):
        return [f"{path}: must hold 'statics' and/or 'triggers'."]
    errors = [
        f"{path}.{key}: is not a field of a skill."
        for key in sorted(set(value) - {"statics", "triggers"})
    ]
    if "statics" in value:
        errors += _check_statics(f"{path}.statics", value["statics"])
    if "triggers" in value:
        errors += _check_triggers(f"{path}.triggers", value["triggers"])
    return errors


def validate_card(data: object) -> list[str]:
    """Every way ``data`` breaks the card vocabulary, each naming its field; ``[]`` if valid.

    Only the card itself is checked; that a Battle Spellcard's ``character`` exists is checked
    by :func:`minigames.engines.dbs.cards.validate_card_set`.
    """
    if not isinstance(data, Mapping):
        return ["card: must be a mapping of fields."]
    errors: list[str] = []
    number = data.get("number")
    if not isinstance(number, str) or not NUMBER_PATTERN.match(number):
        errors.append("number: must look like DBS-001 (capital letters, a dash, three digits).")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 60:
        errors.append("name: must be text of 1 to 60 characters.")
    if "flavor" in data and not isinstance(data["flavor"], str):
        errors.append("flavor: must be text.")
    kind = data.get("kind")
    if kind not in KINDS:
        errors.append(f"kind: must be one of {', '.join(KINDS)}.")
        return errors
    errors += [
        f"{key}: is not a field of a {KIND_WORDS[kind]}."
        for key in sorted(set(data) - _FIELDS[kind])
    ]
    errors += [
        f"{key}: is required for a {KIND_WORDS[kind]}."
        for key in _REQUIRED[kind]
        if key not in data
    ]
    if "cost" in data:
        errors += _int_error("cost", data["cost"], 0, MAX_COST)
    if "character" in data and (
        not isinstance(data["character"], str) or not NUMBER_PATTERN.match(data["character"])
    ):
        errors.append("character: must be the number of a character card, like DBS-001.")
    if "requires" in data:
        requires_errors = _check_conditions("requires", data["requires"])
        errors += requires_errors or _never_playable(str(kind), data["requires"])
    if kind == "character":
        if "title" in data and not isinstance(data["title"], str):
            errors.append("title: must be text.")
        for level in SKILL_LEVELS:
            if level in data:
                errors += _check_ability_set(level, data[level])
    elif kind == "battle":
        if "attack" in data:
            errors += _int_error("attack", data["attack"], 0, MAX_AMOUNT)
        if "level" in data:
            errors += _int_error("level", data["level"], 1, MAX_LEVEL)
        if data.get("limit", "none") not in LIMITS:
            errors.append(f"limit: must be one of {', '.join(LIMITS)}.")
        for key in ("on_declare", "on_hit"):
            if key in data:
                errors += _check_effects(key, data[key], clash=key == "on_declare")
    elif kind in ("buff", "trap", "instant"):
        if "effects" in data:
            clash = kind == "trap" or (kind == "instant" and data.get("timing") == "defend")
            errors += _check_effects("effects", data["effects"], clash=clash)
        if kind == "instant" and "timing" in data and data["timing"] not in TIMINGS:
            errors.append(f"timing: must be one of {', '.join(TIMINGS)}.")
        if kind == "buff" and "this_turn" in data:
            errors += _check_statics("this_turn", data["this_turn"])
    elif kind == "constant":
        if "statics" in data:
            errors += _check_statics("statics", data["statics"])
        if "triggers" in data:
            errors += _check_triggers("triggers", data["triggers"])
        if not data.get("statics") and not data.get("triggers"):
            errors.append("statics: a Constant needs at least one lasting effect or trigger.")
    return errors


# --- words -------------------------------------------------------------------------------


def _whose(whose: str) -> str:
    return "your" if whose == "self" else "your opponent's"


def describe_condition(cond: Mapping[str, Any]) -> str:
    """One condition in words ("your Spell Chain holds at least 3 cards")."""
    whose = _whose(cond.get("whose", "self"))
    amount = cond.get("amount")
    check = cond["check"]
    if check == "chain_count_at_least":
        return f"{whose} Spell Chain holds at least {amount} cards"
    if check == "chain_level_at_least":
        return f"the Levels in {whose} Spell Chain add up to at least {amount}"
    if check == "lp_below":
        return f"{whose} LP are below {amount}"
    if check == "lp_at_least":
        return f"{whose} LP are at least {amount}"
    return f"{whose} hand holds at most {amount} cards"


def describe_conditions(conds: Sequence[Mapping[str, Any]]) -> str:
    return " and ".join(describe_condition(c) for c in conds)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe_effect(eff: Mapping[str, Any]) -> str:
    """One effect in words ("deal 500 damage to your opponent")."""
    verb = eff["do"]
    target = eff.get("target", EFFECTS[verb][0])
    amount = eff.get("amount", 0)
    who = "yourself" if target == "self" else "your opponent"
    whose = "your" if target == "self" else "your opponent's"
    if verb == "damage":
        text = f"deal {amount} damage to {who}"
    elif verb == "heal":
        text = f"restore {amount} LP to {who}"
    elif verb == "draw":
        text = (
            f"draw {_plural(amount, 'card')}"
            if target == "self"
            else f"your opponent draws {_plural(amount, 'card')}"
        )
    elif verb == "recover_beads":
        text = f"refill {amount} of {whose} empty SP beads"
    elif verb == "break_beads":
        text = f"break {amount} of {whose} SP beads"
    elif verb == "boost":
        side = "your Spellcard in this clash" if target == "own" else "the opposing Spellcard"
        text = f"{side} gets {amount:+d} attack"
    elif verb == "negate":
        text = "send the attacking Spellcard to the grave before it resolves"
    elif verb == "destroy_item":
        text = f"send the oldest item in {whose} Item Area to the grave"
    elif verb == "discard_random":
        subject = "you discard" if target == "self" else "your opponent discards"
        text = f"{subject} {_plural(amount, 'card')} at random"
    elif verb == "chain_pop":
        text = f"send the top card of {whose} Spell Chain to the grave"
    else:
        text = "you win the game"
    if eff.get("if"):
        text = f"if {describe_conditions(eff['if'])}, {text}"
    return text


def describe_effects(effects: Sequence[Mapping[str, Any]]) -> str:
    text = "; ".join(describe_effect(e) for e in effects)
    return text[:1].upper() + text[1:] + "."


def describe_static(st: Mapping[str, Any], *, skill: bool = False) -> str:
    """A lasting effect in words; in a character's skill it speaks of her own Spellcards."""
    kind = st["static"]
    amount = st.get("amount", 0)
    cards = "her Spellcards" if skill else "your Battle Spellcards"
    if kind == "attack_bonus":
        when = {
            "always": "",
            "attacking": " when attacking",
            "defending": " when counter-attacking",
        }
        text = f"{cards} get +{amount} attack{when[st.get('when', 'always')]}"
    elif kind == "damage_reduction":
        text = f"damage you take from hits is reduced by {amount}"
    elif kind == "hand_limit":
        text = f"your hand limit is {amount} higher"
    elif kind == "pick_bonus":
        text = f"you draw {_plural(amount, 'more card')} in your Pick phase"
    elif kind == "cost_reduction":
        text = f"{cards} cost {amount} SP less (never below 0)"
    else:
        return f"You win the game as soon as {describe_conditions(st['if'])}."
    if st.get("if"):
        text = f"while {describe_conditions(st['if'])}, {text}"
    return text[:1].upper() + text[1:] + "."


TRIGGER_WORDS: Final = {
    "pick_start": "At the start of your Pick phase",
    "opponent_pick_start": "At the start of your opponent's Pick phase",
    "hit": "Whenever your Battle Spellcard hits",
    "hit_taken": "Whenever you are hit",
}


def describe_trigger(trig: Mapping[str, Any]) -> str:
    head = TRIGGER_WORDS[trig["at"]]
    if trig.get("if"):
        head += f", if {describe_conditions(trig['if'])}"
    body = describe_effects(trig["effects"])
    return f"{head}: {body[:1].lower()}{body[1:]}"


def describe_ability_set(abilities: Mapping[str, Any], *, skill: bool = False) -> str:
    parts = [describe_static(s, skill=skill) for s in abilities.get("statics", [])]
    parts += [describe_trigger(t) for t in abilities.get("triggers", [])]
    return " ".join(parts)


def card_lines(card: Mapping[str, Any], card_set: Mapping[str, Card] | None = None) -> list[str]:
    """Everything on ``card`` in words, a sentence or a skill a line (its name, number and kind
    are the card's title, not a line): stats, limits, needs and effects."""
    kind = card["kind"]
    parts: list[str] = []
    if kind == "character":
        for level in SKILL_LEVELS:
            if card.get(level):
                label = level.capitalize()
                parts.append(f"{label} skill: {describe_ability_set(card[level], skill=True)}")
    else:
        stats = []
        if kind == "battle":
            stats += [f"Level {card['level']}", f"attack {card['attack']}"]
        stats.append(f"costs {card['cost']} SP")
        if kind == "instant":
            stats.append(
                "used in your Battle phase"
                if card["timing"] == "attack"
                else "used when you are attacked"
            )
        if kind == "trap":
            stats.append("set face down, sprung when you are attacked")
        parts.append(", ".join(stats)[:1].upper() + ", ".join(stats)[1:] + ".")
        limit = card.get("limit", "none")
        if limit != "none":
            parts.append(f"Only while she is in {limit.capitalize()} status.")
        if card.get("requires"):
            parts.append(f"Needs: {describe_conditions(card['requires'])}.")
        if card.get("on_declare"):
            parts.append(f"When declared: {describe_effects(card['on_declare'])}")
        if card.get("on_hit"):
            parts.append(f"On a hit: {describe_effects(card['on_hit'])}")
        if card.get("effects"):
            parts.append(describe_effects(card["effects"]))
        if card.get("this_turn"):
            parts.append(
                "For the rest of this turn: "
                + " ".join(describe_static(s) for s in card["this_turn"])
            )
        if kind == "constant":
            parts.append(describe_ability_set(card))
    return [part for part in parts if part]


def describe_card(card: Mapping[str, Any], card_set: Mapping[str, Card] | None = None) -> str:
    """The whole card in words as one paragraph, its title first (a tooltip, the worked
    examples): name, number, kind, title or owner, then :func:`card_lines`."""
    kind = card["kind"]
    head = f"{card['name']} ({card['number']}), {KIND_WORDS[kind]}"
    if kind == "character" and card.get("title"):
        head += f", {card['title']}"
    owner = card.get("character")
    if kind != "character" and owner:
        owner_name = card_set[owner]["name"] if card_set and owner in card_set else owner
        head += f" of {owner_name}"
    return f"{head}. " + " ".join(card_lines(card, card_set))
