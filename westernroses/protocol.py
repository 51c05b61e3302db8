"""The one protocol every game engine implements: grid battles and the four tavern games.

Why one protocol: the Django side stores, locks, polls, notifies and replays every game the same
way (the table core), and the bots search every game the same way (OpenSpiel's ISMCTS over one
adapter). Both only work if each engine answers the same questions in the same shapes. The
models are OpenSpiel's ``State`` (``current_player``, ``legal_actions``, ``apply_action``,
``is_terminal``, ``returns``) and boardgame.io's ``playerView`` (one function decides what a
seat receives; nothing else serialises state for a client).

The shapes, all plain JSON:

* **state**: an engine-specific value that round-trips through ``to_json``/``from_json``. It
  carries its own seeded random source (:class:`westernroses.rng.RandomSource`) so a game is a
  pure function of its initial state and its action log.
* **seat**: who acts. Tavern games number their seats ``0 .. n-1``; the battle engine's seats
  are its controllers (``"gm"`` or a player key).
* **action**: a JSON object with a ``"type"`` key and small, bounded parameters. Legal actions
  are listed in a deterministic order that depends only on what the acting seat can see.
  ``action_shapes()`` declares, as pure data (:mod:`westernroses.action_shapes`), the keys
  each action type may carry and their bounds; the table core refuses an action that does
  not fit before the engine sees it, so nothing unknown or oversized reaches the log.
* **event**: a JSON object with ``"type"``, ``"text"`` (a sentence for people, never an
  identifier) and ``"visible_to"``: ``None`` for everyone, or the list of seats that may see it.
  An engine that must tell one seat a secret ("you draw the Roar token") emits a private event
  for her and a public one for the others ("Marisa draws a token"), with ``"hidden_from"``
  naming her: she reads her own line only, while spectators and every other seat read the
  public one (an event without ``"hidden_from"`` hides from no one).

The rules every engine keeps (a shared conformance test checks them over random games):

* ``apply`` never mutates its input and never half-applies: an illegal action raises
  :class:`IllegalAction` with a reason in words, and the input state is unchanged.
* ``view(state, seat)`` holds nothing that seat may not see (``hidden_from(state, seat)`` names
  every hidden item id; none of them may appear in the view), and never the random seed.
  ``seat=None`` is a spectator, who sees only public information.
* ``waiting_on(state)`` depends only on public information, so whether the game pauses for
  someone reveals nothing about what she holds.
* Hidden *choices* stay hidden, not only hidden cards: ``public_action(state, seat, action)``
  is what everyone else learns from ``seat`` playing ``action`` now (its *public face*). Two of
  her legal actions with the same public face leave every other seat's view and legal
  actions, a spectator's view, ``waiting_on`` and the events each of them sees byte-identical.
  Which card goes face down has one face for all cards, a card everyone has already seen in
  her hand included (so knowledge of a hand shrinks only by what is public); a card or none,
  chosen at the same time as someone else's choice, has one face for all of them; an action
  the others see in full (or that reveals what was hidden) is its own face.
* ``determinize(state, seat, seed)`` deals everything hidden from ``seat`` anew, consistently
  with what she has seen: her view, ``waiting_on`` and her legal actions are unchanged. This is
  what OpenSpiel's ``resample_from_infostate`` calls for the search bot.
* Every legal action fits its type's shape in ``action_shapes()``, and a key its type does
  not declare does not.
* Replaying the action log from the initial state gives the same state, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, TypeVar

from westernroses.action_shapes import ActionShape
from westernroses.words import Words

Json: TypeAlias = dict[str, Any]
Seat: TypeAlias = int | str
Action: TypeAlias = Json
Event: TypeAlias = Json
#: Words for people: a message id with parameters (:class:`westernroses.words.Words`), which
#: the app renders in the reader's language, or a plain string (a name, or English).
Text: TypeAlias = str | Words

S = TypeVar("S")


class IllegalAction(ValueError):
    """An action the rules refuse; ``str(exc)`` is the reason, in words, for the player.
    Raised with :class:`~westernroses.words.Words` (``IllegalAction(Words(N_("…")))``), the
    reason reaches the player in her language (``apibase.engine_words.reason_in_language``)."""


@dataclass(frozen=True)
class HouseRule:
    """One ruling a host may change per table: a number or a choice, with its default.

    ``choices`` lists ``(value, label)`` pairs for a choice; numbers give ``minimum``/``maximum``.
    ``label``, ``help`` and the choices' labels are words for people (shown on the new-table
    form and the table page), :class:`~westernroses.words.Words` to be read in every language.
    """

    key: str
    label: Text
    default: Any
    help: Text = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[tuple[Any, Text], ...] = field(default_factory=tuple)

    def to_json(self, say: Callable[[Text], str] = str) -> Json:
        """The rule as JSON, its words rendered by ``say`` (English by default; the app passes
        ``apibase.engine_words.in_language``)."""
        return {
            "key": self.key,
            "label": say(self.label),
            "default": self.default,
            "help": say(self.help),
            "minimum": self.minimum,
            "maximum": self.maximum,
            "choices": [[value, say(label)] for value, label in self.choices],
        }


class GameEngine(Protocol[S]):
    """What every game engine module exposes (as a module-level ``ENGINE`` object)."""

    #: Short stable name used in URLs and storage (``"raigo"``); never shown to people.
    slug: str
    #: The game's name for people (``"RAIGO"``).
    title: str
    min_seats: int
    max_seats: int

    def house_rules(self) -> Sequence[HouseRule]:
        """Every ruling of this game a host may change, with its default."""
        ...

    def action_shapes(self) -> Mapping[str, ActionShape]:
        """What each action type may carry, by type (:mod:`westernroses.action_shapes`):
        every legal action fits its type's shape, with bounds taken from the game's own data.
        The same mapping on every call."""
        ...

    def new_game(
        self,
        *,
        seats: int,
        seed: int,
        options: Mapping[str, Any] | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> S:
        """A game ready for its first action. ``options`` are house-rule values (missing keys
        take their defaults; unknown keys or out-of-range values raise ``ValueError`` in words);
        ``config`` is game-specific set-up data (chosen decks, seat names)."""
        ...

    def waiting_on(self, state: S) -> tuple[Seat, ...]:
        """The seats that must act now (several at once for simultaneous choices); empty when
        the game is over. Depends only on public information."""
        ...

    def legal_actions(self, state: S, seat: Seat) -> list[Action]:
        """What ``seat`` may do now, in a deterministic order; empty if she is not asked."""
        ...

    def apply(self, state: S, seat: Seat, action: Mapping[str, Any]) -> tuple[S, list[Event]]:
        """The state after ``seat`` plays ``action``, and what happened. Raises
        :class:`IllegalAction` (input untouched) when the rules refuse it."""
        ...

    def view(self, state: S, seat: Seat | None) -> Json:
        """Everything ``seat`` may see (``None``: a spectator), as JSON for pages and the API."""
        ...

    def hidden_from(self, state: S, seat: Seat | None) -> set[str]:
        """Ids of the items ``seat`` may not see now (others' hands, face-down tokens, the deck
        order). Ids are unique strings that appear in no view unless the item is visible."""
        ...

    def determinize(self, state: S, seat: Seat, seed: int) -> S:
        """``state`` with everything hidden from ``seat`` dealt anew (and a fresh random source
        seeded by ``seed``), consistent with everything ``seat`` has seen."""
        ...

    def is_terminal(self, state: S) -> bool: ...

    def returns(self, state: S) -> list[float]:
        """Per seat (tavern seats in order): +1 a win, -1 a loss, 0 a draw or shared result;
        all zeros while the game runs."""
        ...

    def result(self, state: S) -> Json:
        """The public final result: winners, scores and each scoring breakdown in words."""
        ...

    def summary(self, state: S) -> Text:
        """A short public sentence for lists and the dashboard ("Round 3: Reimu to play")."""
        ...

    def timeout_action(self, state: S, seat: Seat) -> Action | None:
        """What ``seat`` does when her time to react runs out (declining a reaction), or None
        where nothing may be done for her."""
        ...

    def describe_action(self, state: S, seat: Seat, action: Mapping[str, Any]) -> Text:
        """The action in words, for buttons and the move log."""
        ...

    def public_action(self, state: S, seat: Seat, action: Mapping[str, Any]) -> Json:
        """What every other seat and spectator learns from ``seat`` playing the legal
        ``action`` now: the action with its hidden part left out (``{"type": "summon"}`` for a
        face-down summon of any card), or the action itself when nothing of it is hidden.
        Legal actions with the same public face must leave everyone else's view, legal
        actions, ``waiting_on`` and visible events byte-identical (the conformance test
        applies each and compares); an engine that cannot promise it for two actions gives
        them different faces."""
        ...

    def to_json(self, state: S) -> Json: ...

    def from_json(self, data: Mapping[str, Any]) -> S: ...


def event(
    text: Text,
    *,
    type: str,
    visible_to: Sequence[Seat] | None = None,
    hidden_from: Sequence[Seat] | None = None,
    **data: Any,
) -> Event:
    """An event in the protocol's shape (``visible_to=None``: everyone sees it).
    ``hidden_from``: the seats that read a private event of their own instead (the public half
    of a pair; spectators still see it). ``text`` as :class:`~westernroses.words.Words` is
    kept twice: ``text`` in English and ``words`` (its JSON), which the app renders in the
    reader's language when she reads the log (``apibase.engine_words.events_in_language``)."""
    ev: Event = {
        "type": type,
        "text": str(text),
        "visible_to": None if visible_to is None else list(visible_to),
        **data,
    }
    if isinstance(text, Words):
        ev["words"] = text.to_json()
    if hidden_from:
        ev["hidden_from"] = list(hidden_from)
    return ev


def event_visible(ev: Mapping[str, Any], seat: Seat | None) -> bool:
    """Whether ``seat`` (``None``: a spectator) may see ``ev``."""
    if seat is not None and seat in ev.get("hidden_from", ()):
        return False
    visible_to = ev.get("visible_to")
    return visible_to is None or (seat is not None and seat in visible_to)


def replay(engine: GameEngine[S], initial: S, log: Sequence[tuple[Seat, Mapping[str, Any]]]) -> S:
    """Apply the logged ``(seat, action)`` pairs in order to ``initial`` (left unchanged)."""
    state = initial
    for seat, action in log:
        state, _ = engine.apply(state, seat, action)
    return state
