"""Names in sentences: a name the user wrote goes in quotes that never nest with its own."""

from __future__ import annotations

from typing import Final

_DOUBLE: Final = ("“", "”", '"', "„")


def quoted(name: str) -> str:
    """``name`` in curly double quotes, or in single ones when it holds double quotes itself:
    ``Scarlet Sign “Red Mist”`` → ‘Scarlet Sign “Red Mist”’, never “Scarlet Sign “Red Mist””."""
    if any(mark in name for mark in _DOUBLE):
        return f"‘{name}’"
    return f"“{name}”"
