"""The tavern's tables: a game of RAIGO, Spirit War, RSO or DBS on the table core.

A :class:`TavernTable` is a :class:`tables.models.GameTable` (engine state, version, status,
summary) plus what the tavern adds: which game, in which campaign (none: an open table anyone
signed in may join with the link), the host, the house-rule options, the stake in yen, the
practice flag (the advisor; never stakes), whether it is rated (the players' ratings move
with its result: :mod:`minigames.rated`) and the table it is a rematch of. Its seats are
:class:`TavernSeat` rows (a user, or a bot of a strength; in a campaign tavern optionally one
of the user's characters; for the card games a deck). Its log is :class:`TavernAction`.

The state is empty until the host starts the game: seats are filled first (``status`` is
``setup``), then :func:`minigames.services.tavern_start` deals the engine's game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy
from django_stubs_ext import StrOrPromise

from apibase import push
from apibase.engine_words import in_language
from tables.models import GameTable, TableAction
from westernroses.words import N_, Words

#: Each bot strength a seat may have (minigames.bots.STRENGTHS) and the bot's name, as its
#: English message id: a seat's name is kept in English wherever it is stored (the engine's
#: ``names``, a result) and read in the reader's language (:func:`shown_seat_names`).
BOT_NAMES: Final = {
    "random": N_("Random bot"),
    "heuristic": N_("Heuristic bot"),
    "search": N_("Search bot"),
}
#: The strengths as choices, their names in the reader's language (forms, the seat menus).
BOT_STRENGTHS: tuple[tuple[str, StrOrPromise], ...] = tuple(
    (key, gettext_lazy(name)) for key, name in BOT_NAMES.items()
)


class TavernTable(GameTable):
    """One game at the tavern (see the module docstring)."""

    game = models.CharField(max_length=20, help_text="The engine's slug (raigo, spirit_war ...).")
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="tavern_tables",
        help_text="The campaign whose tavern it is; empty for an open table.",
    )
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tavern_tables"
    )
    options = models.JSONField(default=dict, blank=True, help_text="House-rule values.")
    stake = models.PositiveIntegerField(default=0, help_text="Yen each character stakes.")
    practice = models.BooleanField(default=False, help_text="A practice table (no stakes).")
    advisor = models.BooleanField(default=False, help_text="Show the advisor (practice only).")
    rated = models.BooleanField(
        default=False, help_text="Its result moves the players' ratings (tables.ratings)."
    )
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    reaction_seconds = models.PositiveIntegerField(
        default=120, help_text="A human seat that may react declines after this long."
    )
    abandoned = models.BooleanField(default=False)
    #: How the game ended outside the engine (a resignation): {"winners": [...], "text": ...}.
    outcome = models.JSONField(default=dict, blank=True)
    #: The stakes' story: {"held": {seat: yen}, "paid": {seat: yen}, "returned": bool}.
    stakes = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-updated_at", "-pk")
        indexes = [models.Index(fields=["campaign", "status"])]

    def __str__(self) -> str:
        return f"{self.game} table {self.pk}"

    def announce_beyond(self) -> None:
        """A campaign tavern's tables show on its GM dashboards (gmtools/consumers.py)."""
        if self.campaign_id is not None:
            push.announce_campaign(self.campaign_id)

    @property
    def is_open_table(self) -> bool:
        return self.campaign_id is None

    @property
    def game_title(self) -> str:
        """The game's name for people ("Spirit War"), for lists."""
        from minigames.engines.registry import get_engine

        try:
            return get_engine(self.game).title
        except KeyError:
            return self.game


class TavernSeat(models.Model):
    """One seat: empty, a user (optionally as one of her characters), or a bot."""

    table = models.ForeignKey(TavernTable, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(help_text="The engine seat (0 .. n-1).")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tavern_seats",
    )
    bot = models.CharField(max_length=10, blank=True, choices=BOT_STRENGTHS)
    character = models.ForeignKey(
        "characters.Character",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tavern_seats",
    )
    deck = models.CharField(max_length=80, blank=True, help_text="RSO/DBS: the chosen deck key.")
    resigned = models.BooleanField(default=False)

    class Meta:
        ordering = ("table", "index")
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="tavern_seat_unique_index")
        ]

    def __str__(self) -> str:
        return f"seat {self.index + 1} of table {self.table_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.bot

    def name(self) -> str:
        """The seat's name at the table in English, as it is stored (:meth:`name_words`)."""
        return str(self.name_words())

    def name_words(self) -> Words | str:
        """The seat's name at the table: the character's or the player's as written (never
        translated), or the bot's and an open seat's as words for the reader's language."""
        if self.character_id is not None and self.character is not None:
            return str(self.character.name)
        if self.user_id is not None and self.user is not None:
            name = str(self.user.shown_name)
            if self.resigned and not self.bot:
                return Words(N_("%(name)s (resigned)"), {"name": name})
            return name
        if self.bot:
            return Words(BOT_NAMES[self.bot])
        return Words(N_("Open seat"))


def seats_of(table: TavernTable) -> list[TavernSeat]:
    """The table's seats in order, with the users and characters their names come from."""
    return list(
        TavernSeat.objects.filter(table=table).select_related("user", "character").order_by("index")
    )


def seat_words(seats: Sequence[TavernSeat]) -> list[Words | str]:
    """Each seat's name (:meth:`TavernSeat.name_words`), in the order given, told apart where
    two would read the same: two random bots are "Random bot (seat 1)" and "Random bot (seat
    2)", so a log line or a result that names one ("Random bot ran out of Yang balls") says
    which."""
    names = [s.name_words() for s in seats]
    twice = {name for name, count in Counter(str(n) for n in names).items() if count > 1}
    return [
        Words(N_("%(name)s (seat %(number)s)"), {"name": name, "number": s.index + 1})
        if str(name) in twice
        else name
        for s, name in zip(seats, names, strict=True)
    ]


def seat_names(seats: Sequence[TavernSeat]) -> list[str]:
    """The seats' names (:func:`seat_words`) in English, as a table stores them: the engine's
    ``names`` when the game starts, a result's text. Pages read :func:`shown_seat_names`."""
    return [str(name) for name in seat_words(seats)]


def shown_seat_names(seats: Sequence[TavernSeat]) -> list[str]:
    """The seats' names (:func:`seat_words`) in the reader's language: a bot's name and an
    open seat's translated, a player's or a character's as written."""
    return [in_language(name) for name in seat_words(seats)]


#: A bot's name as a table stored it ("Random bot", "Search bot (seat 2)"), for
#: :func:`stored_name_in_language`.
_STORED_BOT = {name: key for key, name in BOT_NAMES.items()}


def stored_name_in_language(name: str) -> str:
    """A seat's name as a table stored it in English (its engine's ``names``, written when
    the game started) in the reader's language: a bot's name is translated, with the seat
    number that tells two apart; any other name is a player's or a character's, as written."""
    if name in _STORED_BOT:
        return in_language(Words(name))
    head, sep, tail = name.rpartition(" (seat ")
    if sep and head in _STORED_BOT and tail.endswith(")") and tail[:-1].isdigit():
        return in_language(
            Words(N_("%(name)s (seat %(number)s)"), {"name": Words(head), "number": tail[:-1]})
        )
    return name


class TavernAction(TableAction):
    table = models.ForeignKey(TavernTable, on_delete=models.CASCADE, related_name="actions")

    class Meta:
        ordering = ("table", "seq")
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="tavern_action_unique_seq")
        ]
