"""``json_copy`` (westernroses/json_copy.py) gives what the standard library's JSON round trip
gives, for every value a game state may hold: nested dicts with string or integer keys, lists
and tuples, integers of any size, finite floats, strings, booleans and None."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from westernroses.json_copy import json_copy

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=8) | st.integers(-50, 50), inner, max_size=5)
    ),
    max_leaves=40,
)


@given(VALUES)
def test_the_copy_is_the_standard_librarys_round_trip(value: Any) -> None:
    expected = json.loads(json.dumps(value))
    copied = json_copy(value)
    assert copied == expected
    assert json.dumps(copied) == json.dumps(expected)  # the same types too (True is not 1)


def test_an_integer_beyond_64_bits_takes_the_standard_librarys_way() -> None:
    value = {"pot": 2**70, 3: (1, 2)}
    assert json_copy(value) == {"pot": 2**70, "3": [1, 2]}


def test_the_copy_shares_nothing_with_the_original() -> None:
    value = {"hand": ["a", "b"], "players": [{"deck": ["c"]}]}
    copied = json_copy(value)
    copied["hand"].append("x")
    copied["players"][0]["deck"].clear()
    assert value == {"hand": ["a", "b"], "players": [{"deck": ["c"]}]}
