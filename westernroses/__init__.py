"""The Western Roses rules engine: pure Python, no Django.

Everything under this package takes and returns plain data (dataclasses, dicts, ints,
fractions) so it can be tested without a database and reused by the web app, the API,
Celery tasks and the benchmarks alike. A test fails if anything here imports Django.
"""

from westernroses import native as _native

_native.enable(__path__, __name__)
