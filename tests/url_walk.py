"""Every URL pattern the project serves, with its full route: the one walk the URL tests share
(which views are served, which routes the permission matrix covers, what lives under /api/)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from django.urls import URLPattern, URLResolver, get_resolver


class Served(NamedTuple):
    #: the route as Django joins it (a regular expression's ``^`` kept)
    route: str
    #: the namespaces around it, joined with ``:`` ("" for none)
    namespace: str
    pattern: URLPattern

    @property
    def path(self) -> str:
        """The route as a request's path reads it (without a regular expression's ``^``)."""
        return self.route.replace("^", "")

    @property
    def view_class(self) -> Any:
        """The class-based view that answers it, or None."""
        return getattr(self.pattern.callback, "view_class", None)


def walk(patterns: Any = None, prefix: str = "", namespace: str = "") -> Iterator[Served]:
    """Each pattern under ``patterns`` (the root URLconf's when None), includes opened."""
    for p in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(p, URLResolver):
            ns = namespace
            if p.namespace:
                ns = f"{namespace}:{p.namespace}" if namespace else p.namespace
            yield from walk(p.url_patterns, prefix + str(p.pattern), ns)
        elif isinstance(p, URLPattern):
            yield Served(prefix + str(p.pattern), namespace, p)
