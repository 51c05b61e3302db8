"""Ratings of rated tables (OpenSkill), per game and per scope: across the site, or one
campaign. Generic over games: a game's app tells :func:`tables.ratings.services.rate_result`
who sat in which team and how the teams placed; this app keeps the numbers, their history and
the leaderboards (docs/tavern.md, "Ratings"; docs/decisions/rating-scale.md).
"""
