from django.apps import AppConfig


class TableRatingsConfig(AppConfig):
    """Ratings of rated tables: a rating per player (or bot strength), game and scope, and a
    history row per rated game (docs/decisions/rating-scale.md)."""

    name = "tables.ratings"
    label = "table_ratings"
