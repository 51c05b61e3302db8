"""The number people see for an OpenSkill rating, and how sure it is
(docs/decisions/rating-scale.md).

A rating is OpenSkill's ``mu`` (the estimate) and ``sigma`` (its uncertainty), starting at 25
and 25/3. People read a familiar scale: 1500 for a newcomer, and 400 points between two
settled players meaning about 10 to 1 odds, as in Elo. So the number shown is
``1500 + SCALE * (mu - 25)``: a win always raises it and a loss always lowers it (a number
built on the conservative ``mu - 3 sigma`` would rise with every game played, won or lost).
Leaderboards rank by the conservative estimate (:func:`ordinal`), so a lucky first game does
not top them, and a rating still uncertain is marked provisional.
"""

from __future__ import annotations

import math
from typing import Final

#: OpenSkill's defaults (Plackett-Luce): a newcomer's mu and sigma, and beta (sigma / 2).
MU: Final = 25.0
SIGMA: Final = 25.0 / 3.0
BETA: Final = SIGMA / 2.0
#: Where a newcomer stands on the shown scale.
START: Final = 1500
#: Shown points per unit of mu: Plackett-Luce gives the stronger of two players
#: ``1 / (1 + exp(-(mu1 - mu2) / c))`` with ``c = sqrt(sigma1² + sigma2² + 2 beta²)``; for two
#: settled players (sigma 2) 400 shown points are then 10 to 1, as in Elo.
SETTLED_SIGMA: Final = 2.0
SCALE: Final = round(400 / (math.log(10) * math.sqrt(2 * SETTLED_SIGMA**2 + 2 * BETA**2)))
#: A rating this uncertain (about its first ten games) is shown as provisional.
PROVISIONAL_SIGMA: Final = 6.0


def shown(mu: float) -> int:
    """The rating as people read it (1500 for a newcomer)."""
    return round(START + SCALE * (mu - MU))


def ordinal(mu: float, sigma: float) -> float:
    """OpenSkill's conservative estimate (``mu - 3 sigma``): what leaderboards rank by."""
    return mu - 3.0 * sigma


def provisional(sigma: float) -> bool:
    """Whether a rating is still too uncertain to read as settled."""
    return sigma > PROVISIONAL_SIGMA
