"""Turn clocks for every game table (issue 39, "Turn clocks"): a table's time control, each
waited seat's deadline and what happens when it runs out (docs/clocks.md)."""
