"""``manage.py rate_bots --game rso --games 30``: rated bot-against-bot games that seed the
bots' ratings at the site's open tables (:mod:`minigames.bot_ratings`; docs/bots.md)."""

from __future__ import annotations

import secrets
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from minigames.bot_ratings import CHEAP, Played, seed_bot_ratings
from minigames.bots import SearchSettings
from minigames.engines.registry import ENGINE_MODULES


class Command(BaseCommand):
    help = "Play rated games between the bots to seed their ratings (cheap search settings)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", choices=[*ENGINE_MODULES, "all"], default="all")
        parser.add_argument("--games", type=int, default=30, help="Games per game (1 to 1000).")
        parser.add_argument(
            "--simulations",
            type=int,
            default=CHEAP.simulations,
            help="The search bot's simulations a move (a table's plays 1,000).",
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--run", default="", help="Names the run: the same run again counts nothing twice."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = int(options["games"])
        if not 1 <= games <= 1000:
            raise CommandError("Give from 1 to 1000 games.")
        simulations = int(options["simulations"])
        if not 2 <= simulations <= 10_000:
            raise CommandError("Give the search from 2 to 10,000 simulations.")
        run = str(options["run"]) or secrets.token_hex(6)
        slugs = list(ENGINE_MODULES) if options["game"] == "all" else [options["game"]]
        settings = SearchSettings(simulations=simulations)

        def progress(n: int, played: Played) -> None:
            result = "drew" if len(set(played.ranks)) == 1 else (
                f"{played.strengths[played.ranks.index(0)]} won"
            )  # fmt: skip
            counted = "" if played.counted else " (counted before)"
            self.stdout.write(f"  {n + 1}. {' v '.join(played.strengths)}: {result}{counted}")

        from tables.ratings.models import Rating
        from tables.ratings.scale import shown

        for slug in slugs:
            self.stdout.write(f"{slug}: {games} games (run {run})")
            seed_bot_ratings(
                slug, games, run=f"{run}:{slug}", seed=int(options["seed"]),
                settings=settings, progress=progress,
            )  # fmt: skip
            for rating in Rating.objects.filter(game=slug, campaign__isnull=True, user=None):
                self.stdout.write(f"  {rating.name}: {shown(rating.mu)} ({rating.games} games)")
