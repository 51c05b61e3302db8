"""Is a production SECRET_KEY strong enough? (Length alone is not: fifty copies of one word
pass a length check and are guessed at once.)

A key signs sessions, password-reset links and CSRF tokens; anyone who guesses it can sign in as
anyone. We refuse keys that are short, drawn from few distinct characters, made of one repeated
chunk, or known (the development default, Django's "insecure" generator prefix).
"""

from __future__ import annotations

MIN_LENGTH = 50
MIN_DISTINCT = 20
KNOWN_WEAK = ("dev-only-insecure-key", "django-insecure-", "changeme", "secret")


def secret_key_problems(key: str) -> list[str]:
    """Why ``key`` is too weak for production, in words; empty when it is fine."""
    problems: list[str] = []
    if len(key) < MIN_LENGTH:
        problems.append(f"it has {len(key)} characters; use at least {MIN_LENGTH}")
    if len(set(key)) < MIN_DISTINCT:
        problems.append(
            f"it uses only {len(set(key))} different characters; use at least {MIN_DISTINCT}"
        )
    for size in range(1, len(key) // 2 + 1):
        if len(key) % size == 0 and key[:size] * (len(key) // size) == key:
            problems.append("it is one short piece repeated")
            break
    lowered = key.lower()
    if any(weak in lowered for weak in KNOWN_WEAK):
        problems.append("it contains a well-known placeholder")
    return problems
