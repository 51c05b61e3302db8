"""The demo battle's map: a meadow by the lake drawn with Pillow when the demo is seeded.

Why drawn rather than shipped: the demo must show a newcomer what a battle on a map looks like,
and a drawn picture is our own (no downloaded or copied art) and needs no binary in the repo.
It is drawn to the grid, one ``square_px`` square per arena square, so the alignment is exact
(no offset), and what the arena says is drawn where it is: boulders on the blocking squares,
reeds and mud on the difficult ones, and nothing that the rules do not know of (no water a
piece could not cross). The drawing is the same for the same arguments (its speckles come from
a seeded generator).
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterable

from PIL import Image, ImageDraw

Square = tuple[int, int]
RGB = tuple[int, int, int]

GRASS: RGB = (104, 142, 74)
GRASS_DARK: RGB = (86, 124, 62)
GRASS_LIGHT: RGB = (128, 162, 90)
PATH: RGB = (176, 150, 104)
ROCK: RGB = (120, 116, 112)
ROCK_DARK: RGB = (78, 74, 72)
MUD: RGB = (112, 92, 60)
REED: RGB = (60, 92, 40)
GRID: RGB = (56, 80, 44)


def _meadow(
    draw: ImageDraw.ImageDraw, width: int, height: int, square: int, rng: random.Random
) -> None:
    draw.rectangle([0, 0, width, height], fill=GRASS)
    for _ in range(width * height // (square * 6)):  # tufts of lighter and darker grass
        x, y = rng.randrange(width), rng.randrange(height)
        r = rng.randrange(2, max(3, square // 10))
        draw.ellipse([x - r, y - r, x + r, y + r], fill=rng.choice((GRASS_DARK, GRASS_LIGHT)))


def draw_demo_map(
    *,
    cols: int,
    rows: int,
    square_px: int,
    blocked: Iterable[Square] = (),
    difficult: Iterable[Square] = (),
    seed: int = 1,
) -> bytes:
    """A PNG of ``cols`` × ``rows`` squares of ``square_px`` pixels from the top-left corner
    (the grid's alignment is offset 0, square ``square_px``): a meadow with a path along the
    middle row; ``blocked`` squares carry a boulder, ``difficult`` ones mud and reeds."""
    rng = random.Random(seed)
    grid_w, grid_h = cols * square_px, rows * square_px
    image = Image.new("RGB", (grid_w, grid_h), GRASS)
    draw = ImageDraw.Draw(image)
    _meadow(draw, grid_w, grid_h, square_px, rng)

    # a worn path along the middle row, down to the lake off the map
    mid = (rows // 2) * square_px + square_px // 2
    for x in range(0, grid_w, 4):
        wobble = rng.randrange(-3, 4)
        draw.ellipse([x - 9, mid + wobble - 9, x + 9, mid + wobble + 9], fill=PATH)

    s = square_px
    for x, y in difficult:  # mud with reeds
        left, top = x * s, y * s
        draw.ellipse([left + s // 10, top + s // 6, left + s - s // 10, top + s - s // 8], fill=MUD)
        for _ in range(7):
            rx = left + rng.randrange(s // 5, s - s // 5)
            ry = top + rng.randrange(s // 3, s - s // 5)
            draw.line([rx, ry, rx + rng.randrange(-3, 4), ry - s // 4], fill=REED, width=2)
    for x, y in blocked:  # a boulder filling the square
        left, top = x * s, y * s
        pad = s // 8
        draw.ellipse([left + pad, top + pad + 4, left + s - pad, top + s - pad], fill=ROCK_DARK)
        draw.ellipse([left + pad, top + pad, left + s - pad - 4, top + s - pad - 6], fill=ROCK)

    for i in range(cols + 1):  # the grid, faint, as a printed battle map draws it
        draw.line([i * s, 0, i * s, grid_h], fill=GRID, width=1)
    for j in range(rows + 1):
        draw.line([0, j * s, grid_w, j * s], fill=GRID, width=1)

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
