"""The working context of one ``apply``: the cloned state, its dice, the rules and the events.

Every rule function takes a :class:`Ctx` so the random source, house rules and the event list
travel together and nothing reads globals or the clock. Rolls go through :meth:`Ctx.check`,
:meth:`Ctx.versus` and :meth:`Ctx.damage`, which log every die with its modifiers, target,
margin and critical band, so the battle log explains itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from westernroses.battle.state import BattleState, Combatant, Json
from westernroses.checks import CheckResult, Participant, VersusResult, check, versus
from westernroses.dice import DiceExpression, Roll, roll
from westernroses.house_rules import HouseRules
from westernroses.rng import RandomSource
from westernroses.words import Words

#: Target numbers the rulebook names or leaves to the GM. "Base difficulty to dodge an attack
#: is 12"; every other roll the text asks for without a number uses the same 12 ("a 12 is the
#: 'average' for any given stat", ruleset "Target Numbers"). The GM may change each one for the
#: rest of the battle with the ``gm_set_target`` action.
DEFAULT_TARGETS: Final[dict[str, int]] = {
    "dodge": 12,  # danmaku dodge ("Attacking and Dodging")
    "graze": 12,  # graze roll ("Grazing" gives no number; ruling)
    "spellcard_to_hit": 12,  # "Roll against intelligence / power" (ruling)
    "undodged_physical": 12,  # attacker's roll against a defender who cannot dodge (ruling)
    "status_save": 12,  # charisma saves against stun and knockdown (ruling)
    "will": 12,  # mortal wounds, fear, taunt, lunatic gaze (ruling)
    "insight": 12,  # insanity (ruling)
    "thaw": 12,  # freeze: roll power each turn (ruling)
    "wake": 12,  # unconsciousness: charisma from the sixth turn (ruling)
    "consciousness": 12,  # drink: roll charisma to stay conscious (ruling)
}

#: Targets a campaign's house rules set (read with a fallback, should a rule be renamed).
_HOUSE_RULE_TARGETS: Final = {"dodge": "danmaku_dodge_target", "graze": "graze_target"}

Mods = Sequence[tuple[str, int]]


def mods_json(mods: Iterable[Sequence[Any]]) -> list[Json]:
    """``(label, amount)`` pairs as logged; lists too, as a spec read back from JSON holds them."""
    return [{"label": label, "amount": amount} for label, amount in mods if amount]


@dataclass(slots=True)
class Ctx:
    state: BattleState
    rng: RandomSource
    rules: HouseRules
    player: str = "gm"
    at: str | None = None
    events: list[Json] = field(default_factory=list)
    #: True while a reaction (a bomb) resolves: the hits it makes go before waiting ones.
    reacting: bool = False

    def emit(self, event_type: str, /, **fields: Any) -> Json:
        purpose = fields.get("purpose")
        if isinstance(purpose, Words):
            # the English for logs and bots, the words for the reader's language (battles/)
            fields["purpose"] = str(purpose)
            fields["purpose_words"] = purpose.to_json()
        event: Json = {"type": event_type, **fields}
        self.events.append(event)
        return event

    def c(self, cid: str) -> Combatant:
        # The dict's own KeyError(cid), as ``BattleState.combatant`` raises: asked on every
        # step of every rule, so without the extra call.
        return self.state.combatants[cid]

    def target(self, name: str) -> int:
        """The target number ``name``: the GM's setting, else the house rule, else 12."""
        if name in self.state.targets:
            return self.state.targets[name]
        house_rule = _HOUSE_RULE_TARGETS.get(name)
        if house_rule is not None:
            return int(getattr(self.rules, house_rule, DEFAULT_TARGETS[name]))
        return DEFAULT_TARGETS[name]

    # ------------------------------------------------------------------ rolls

    def check(
        self,
        who: str,
        purpose: str | Words,
        dice: int,
        mods: Mods,
        target: int | None,
        *,
        stat: str | None = None,
        value: int | None = None,
    ) -> CheckResult:
        """Roll ``dice`` d6 + the modifiers against ``target`` and log it."""
        modifier = sum(amount for _, amount in mods)
        result = check(dice, modifier, target, self.rng, self.rules, stat=value)
        self.emit(
            "roll",
            combatant=who,
            purpose=purpose,
            stat=stat,
            value=value,
            modifiers=mods_json(mods),
            result=result.to_dict(),
        )
        return result

    def versus(
        self,
        purpose: str | Words,
        sides: Sequence[tuple[str, int, Mods]],
        target: int | None = None,
    ) -> VersusResult:
        """A versus check (ties re-rolled until broken, checks.versus) and its log entry."""
        people = [Participant(pid, dice, sum(a for _, a in mods)) for pid, dice, mods in sides]
        result = versus(people, target, self.rng, self.rules)
        self.emit(
            "versus",
            purpose=purpose,
            modifiers={pid: mods_json(mods) for pid, _, mods in sides},
            result=result.to_dict(),
        )
        return result

    def damage(self, who: str, purpose: str | Words, expr: DiceExpression, parts: Mods) -> Roll:
        """A damage (or healing) roll; logs the dice and where each modifier came from."""
        rolled = roll(expr, self.rng)
        self.emit(
            "damage_roll",
            combatant=who,
            purpose=purpose,
            modifiers=mods_json(parts),
            roll=rolled.to_dict(),
        )
        return rolled

    def die(self, who: str, purpose: str | Words, sides: int) -> int:
        """One uniform pick in 1..sides (a d6 for Short-term Memory, ties for Berserk)."""
        start = self.rng.sequence
        value = 1 + self.rng.randbelow(sides)
        self.emit(
            "die",
            combatant=who,
            purpose=purpose,
            sides=sides,
            value=value,
            seed=self.rng.seed,
            sequence=start,
        )
        return value
