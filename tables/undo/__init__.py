"""Undo requests at every game table (issue 39, "Undo requests"; docs/undo.md)."""
