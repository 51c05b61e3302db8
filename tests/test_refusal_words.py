"""Every refusal the apps raise speaks the reader's language: a sentence given to
``ValidationError`` or ``PermissionDenied`` goes through ``gettext`` (docs/i18n.md). The API's
400s and 403s carry these words to the deck builder, the battle panel and the table panels as
they come, and dozens were English on Japanese and Chinese pages.

The check reads the apps' source (not the pure engines, which mark their words with ``N_``
and are put in the reader's language on their way out, nor migrations) and fails on a string
or f-string inside such a call that no ``gettext`` wraps.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Every package of the project but the tests and the pure engines (``westernroses``).
APPS = sorted(
    p.parent.name
    for p in ROOT.glob("*/__init__.py")
    if p.parent.name not in {"tests", "westernroses"}
)
REFUSALS = {"ValidationError", "PermissionDenied"}
WORDING = {"gettext", "ngettext", "pgettext", "gettext_lazy", "_", "N_"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _sentences(node: ast.AST) -> list[ast.expr]:
    """The sentences under ``node`` that no wording call wraps (dict keys are field names)."""
    if isinstance(node, ast.Call) and _name(node.func) in WORDING:
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node] if node.value[:1].isupper() and " " in node.value else []
    if isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        return [node] if " " in text.strip() and re.search("[A-Za-z]{2,}", text) else []
    found: list[ast.expr] = []
    for field, value in ast.iter_fields(node):
        if isinstance(node, ast.Dict) and field == "keys":
            continue
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.AST):
                found += _sentences(child)
    return found


def unworded_refusals(source: str) -> list[tuple[int, str]]:
    """Each refusal's sentence in ``source`` that is not put in the reader's language."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _name(node.func) in REFUSALS:
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                found += [(s.lineno, ast.unparse(s)) for s in _sentences(arg)]
    return found


def test_every_refusal_of_the_apps_is_worded_through_the_catalog():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for app in APPS
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
        for line, text in unworded_refusals(path.read_text(encoding="utf-8"))
    ]
    assert not found, "refusals outside gettext:\n" + "\n".join(found)


def test_the_check_finds_a_bare_sentence_and_passes_worded_ones_and_field_names():
    source = """
raise ValidationError({"name": ["Give the deck a name."]})
raise PermissionDenied(f"You do not control {name}.")
raise ValidationError({"wiki_entry": [f"{title} has no stat block."]})
raise ValidationError({"name": [gettext("Give the deck a name.")]})
raise ValidationError({"step": [gettext("No step %(n)s.") % {"n": n}]})
raise ValidationError({"action": [reason_in_language(exc)]})
raise ValidationError({"undo": [why]})
"""
    found = [text for _, text in unworded_refusals(source)]
    assert found == [
        "'Give the deck a name.'",
        "f'You do not control {name}.'",
        "f'{title} has no stat block.'",
    ]
