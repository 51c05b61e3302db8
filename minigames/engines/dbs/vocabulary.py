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

from westernroses.words import N_, Words, capitalized, listing

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
#
# Each sentence and each piece of one is a message id with its numbers as parameters
# (westernroses/words.py), so a card reads in the reader's language where it is shown;
# ``str()`` of the words is the English line. "Your" and "your opponent's" and one or many are
# separate ids, so that a translation never has to build a phrase from English pieces.

#: condition word -> (about you, about your opponent)
_CONDITION_WORDS: Final = {
    "chain_count_at_least": (
        N_("your Spell Chain holds at least %(amount)s cards"),
        N_("your opponent's Spell Chain holds at least %(amount)s cards"),
    ),
    "chain_level_at_least": (
        N_("the Levels in your Spell Chain add up to at least %(amount)s"),
        N_("the Levels in your opponent's Spell Chain add up to at least %(amount)s"),
    ),
    "lp_below": (N_("your LP are below %(amount)s"), N_("your opponent's LP are below %(amount)s")),
    "lp_at_least": (
        N_("your LP are at least %(amount)s"),
        N_("your opponent's LP are at least %(amount)s"),
    ),
    "hand_at_most": (
        N_("your hand holds at most %(amount)s cards"),
        N_("your opponent's hand holds at most %(amount)s cards"),
    ),
}


def condition_words(cond: Mapping[str, Any]) -> Words:
    """One condition in words ("your Spell Chain holds at least 3 cards")."""
    mine, theirs = _CONDITION_WORDS.get(cond["check"], _CONDITION_WORDS["hand_at_most"])
    text = mine if cond.get("whose", "self") == "self" else theirs
    return Words(text, {"amount": cond.get("amount")})


def conditions_words(conds: Sequence[Mapping[str, Any]]) -> Words | str:
    """Conditions joined by "and" (all must hold: "かつ", "且"), each in words."""
    head: Words | str = ""
    for cond in conds:
        words = condition_words(cond)
        head = (
            words
            if not head
            else Words(N_("%(condition)s and %(more)s"), {"condition": head, "more": words})
        )
    return head


def describe_condition(cond: Mapping[str, Any]) -> str:
    return str(condition_words(cond))


def describe_conditions(conds: Sequence[Mapping[str, Any]]) -> str:
    return str(conditions_words(conds))


#: effect word -> (targeting you, targeting your opponent), each (one, many) when it counts
#: cards; "boost" speaks of your own Spellcard or the opposing one
_EFFECT_WORDS: Final[dict[str, tuple[str, str]]] = {
    "damage": (
        N_("deal %(amount)s damage to yourself"),
        N_("deal %(amount)s damage to your opponent"),
    ),
    "heal": (N_("restore %(amount)s LP to yourself"), N_("restore %(amount)s LP to your opponent")),
    "recover_beads": (
        N_("refill %(amount)s of your empty SP beads"),
        N_("refill %(amount)s of your opponent's empty SP beads"),
    ),
    "break_beads": (
        N_("break %(amount)s of your SP beads"),
        N_("break %(amount)s of your opponent's SP beads"),
    ),
    "boost": (
        N_("your Spellcard in this clash gets %(amount)s attack"),
        N_("the opposing Spellcard gets %(amount)s attack"),
    ),
    "destroy_item": (
        N_("send the oldest item in your Item Area to the grave"),
        N_("send the oldest item in your opponent's Item Area to the grave"),
    ),
    "chain_pop": (
        N_("send the top card of your Spell Chain to the grave"),
        N_("send the top card of your opponent's Spell Chain to the grave"),
    ),
}
#: effects that count cards: (you, one), (you, many), (opponent, one), (opponent, many)
_COUNTED_WORDS: Final[dict[str, tuple[str, str, str, str]]] = {
    "draw": (
        N_("draw %(amount)s card"),
        N_("draw %(amount)s cards"),
        N_("your opponent draws %(amount)s card"),
        N_("your opponent draws %(amount)s cards"),
    ),
    "discard_random": (
        N_("you discard %(amount)s card at random"),
        N_("you discard %(amount)s cards at random"),
        N_("your opponent discards %(amount)s card at random"),
        N_("your opponent discards %(amount)s cards at random"),
    ),
}


def effect_words(eff: Mapping[str, Any]) -> Words:
    """One effect in words ("deal 500 damage to your opponent")."""
    verb = eff["do"]
    target = eff.get("target", EFFECTS[verb][0])
    amount = eff.get("amount", 0)
    words: Words
    if verb in _COUNTED_WORDS:
        forms = _COUNTED_WORDS[verb]
        index = (0 if target == "self" else 2) + (0 if amount == 1 else 1)
        words = Words(forms[index], {"amount": amount})
    elif verb in _EFFECT_WORDS:
        mine, theirs = _EFFECT_WORDS[verb]
        text = mine if target in ("self", "own") else theirs
        shown = f"{amount:+d}" if verb == "boost" else amount
        words = Words(text, {"amount": shown})
    elif verb == "negate":
        words = Words(N_("send the attacking Spellcard to the grave before it resolves"))
    else:
        words = Words(N_("you win the game"))
    if eff.get("if"):
        words = Words(
            N_("if %(condition)s, %(effect)s"),
            {"condition": conditions_words(eff["if"]), "effect": words},
        )
    return words


def describe_effect(eff: Mapping[str, Any]) -> str:
    return str(effect_words(eff))


def _sentence(words: Words | str) -> Words:
    """``words`` as a sentence: a capital first letter (in English) and a full stop."""
    return capitalized(Words(N_("%(sentence)s."), {"sentence": words}))


def _effects_joined(effects: Sequence[Mapping[str, Any]]) -> Words | str:
    return listing([effect_words(e) for e in effects], last="semicolon")


def effects_words(effects: Sequence[Mapping[str, Any]]) -> Words:
    """Effects as one sentence, joined by semicolons."""
    return _sentence(_effects_joined(effects))


def describe_effects(effects: Sequence[Mapping[str, Any]]) -> str:
    return str(effects_words(effects))


_ATTACK_BONUS: Final = {
    # (in a skill, when) -> words
    (True, "always"): N_("her Spellcards get +%(amount)s attack"),
    (True, "attacking"): N_("her Spellcards get +%(amount)s attack when attacking"),
    (True, "defending"): N_("her Spellcards get +%(amount)s attack when counter-attacking"),
    (False, "always"): N_("your Battle Spellcards get +%(amount)s attack"),
    (False, "attacking"): N_("your Battle Spellcards get +%(amount)s attack when attacking"),
    (False, "defending"): N_(
        "your Battle Spellcards get +%(amount)s attack when counter-attacking"
    ),
}


def static_words(st: Mapping[str, Any], *, skill: bool = False) -> Words:
    """A lasting effect in words; in a character's skill it speaks of her own Spellcards."""
    kind = st["static"]
    amount = st.get("amount", 0)
    if kind == "attack_bonus":
        text = _ATTACK_BONUS[(skill, st.get("when", "always"))]
    elif kind == "damage_reduction":
        text = N_("damage you take from hits is reduced by %(amount)s")
    elif kind == "hand_limit":
        text = N_("your hand limit is %(amount)s higher")
    elif kind == "pick_bonus":
        text = (
            N_("you draw %(amount)s more card in your Pick phase")
            if amount == 1
            else N_("you draw %(amount)s more cards in your Pick phase")
        )
    elif kind == "cost_reduction":
        text = (
            N_("her Spellcards cost %(amount)s SP less (never below 0)")
            if skill
            else N_("your Battle Spellcards cost %(amount)s SP less (never below 0)")
        )
    else:
        return Words(
            N_("You win the game as soon as %(condition)s."),
            {"condition": conditions_words(st["if"])},
        )
    words = Words(text, {"amount": amount})
    if st.get("if"):
        words = Words(
            N_("while %(condition)s, %(effect)s"),
            {"condition": conditions_words(st["if"]), "effect": words},
        )
    return _sentence(words)


def describe_static(st: Mapping[str, Any], *, skill: bool = False) -> str:
    return str(static_words(st, skill=skill))


TRIGGER_WORDS: Final = {
    "pick_start": N_("At the start of your Pick phase: %(effects)s."),
    "opponent_pick_start": N_("At the start of your opponent's Pick phase: %(effects)s."),
    "hit": N_("Whenever your Battle Spellcard hits: %(effects)s."),
    "hit_taken": N_("Whenever you are hit: %(effects)s."),
}
_TRIGGER_IF_WORDS: Final = {
    "pick_start": N_("At the start of your Pick phase, if %(condition)s: %(effects)s."),
    "opponent_pick_start": N_(
        "At the start of your opponent's Pick phase, if %(condition)s: %(effects)s."
    ),
    "hit": N_("Whenever your Battle Spellcard hits, if %(condition)s: %(effects)s."),
    "hit_taken": N_("Whenever you are hit, if %(condition)s: %(effects)s."),
}


def trigger_words(trig: Mapping[str, Any]) -> Words:
    effects = _effects_joined(trig["effects"])
    if trig.get("if"):
        return Words(
            _TRIGGER_IF_WORDS[trig["at"]],
            {"condition": conditions_words(trig["if"]), "effects": effects},
        )
    return Words(TRIGGER_WORDS[trig["at"]], {"effects": effects})


def describe_trigger(trig: Mapping[str, Any]) -> str:
    return str(trigger_words(trig))


def sentences(parts: Sequence[Words | str]) -> Words | str:
    """Sentences one after another (a space between them in English, none in Japanese)."""
    head: Words | str = ""
    for part in parts:
        head = part if not head else Words(N_("%(first)s %(next)s"), {"first": head, "next": part})
    return head


def ability_set_words(abilities: Mapping[str, Any], *, skill: bool = False) -> Words | str:
    parts: list[Words | str] = [static_words(s, skill=skill) for s in abilities.get("statics", [])]
    parts += [trigger_words(t) for t in abilities.get("triggers", [])]
    return sentences(parts)


def describe_ability_set(abilities: Mapping[str, Any], *, skill: bool = False) -> str:
    return str(ability_set_words(abilities, skill=skill))


_SKILL_WORDS: Final = {
    "support": N_("Support skill: %(skill)s"),
    "center": N_("Center skill: %(skill)s"),
    "hyper": N_("Hyper skill: %(skill)s"),
}
_LIMIT_WORDS: Final = {
    "center": N_("Only while she is in Center status."),
    "hyper": N_("Only while she is in Hyper status."),
}


def card_line_words(
    card: Mapping[str, Any], card_set: Mapping[str, Card] | None = None
) -> list[Words]:
    """Everything on ``card`` in words, a sentence or a skill a line (its name, number and kind
    are the card's title, not a line): stats, limits, needs and effects; each line's ``str()``
    is its English, the app renders it in the reader's language."""
    kind = card["kind"]
    parts: list[Words] = []
    if kind == "character":
        for level in SKILL_LEVELS:
            if card.get(level):
                skill = ability_set_words(card[level], skill=True)
                parts.append(Words(_SKILL_WORDS[level], {"skill": skill}))
        return parts
    stats: list[Words | str] = []
    if kind == "battle":
        stats += [
            Words(N_("Level %(level)s"), {"level": card["level"]}),
            Words(N_("attack %(attack)s"), {"attack": card["attack"]}),
        ]
    stats.append(Words(N_("costs %(cost)s SP"), {"cost": card["cost"]}))
    if kind == "instant":
        stats.append(
            Words(N_("used in your Battle phase"))
            if card["timing"] == "attack"
            else Words(N_("used when you are attacked"))
        )
    if kind == "trap":
        stats.append(Words(N_("set face down, sprung when you are attacked")))
    parts.append(_sentence(listing(stats, last="comma")))
    limit = card.get("limit", "none")
    if limit in _LIMIT_WORDS:
        parts.append(Words(_LIMIT_WORDS[limit]))
    if card.get("requires"):
        parts.append(
            Words(N_("Needs: %(condition)s."), {"condition": conditions_words(card["requires"])})
        )
    if card.get("on_declare"):
        parts.append(
            Words(N_("When declared: %(effects)s"), {"effects": effects_words(card["on_declare"])})
        )
    if card.get("on_hit"):
        parts.append(Words(N_("On a hit: %(effects)s"), {"effects": effects_words(card["on_hit"])}))
    if card.get("effects"):
        parts.append(effects_words(card["effects"]))
    if card.get("this_turn"):
        rest = sentences([static_words(s) for s in card["this_turn"]])
        parts.append(Words(N_("For the rest of this turn: %(effects)s"), {"effects": rest}))
    if kind == "constant":
        constant = ability_set_words(card)
        if constant:
            parts.append(constant if isinstance(constant, Words) else Words(constant))
    return parts


def card_lines(card: Mapping[str, Any], card_set: Mapping[str, Card] | None = None) -> list[str]:
    """:func:`card_line_words` in English."""
    return [text for text in (str(words) for words in card_line_words(card, card_set)) if text]


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
