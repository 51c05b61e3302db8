"""The app import graph (docs/architecture.md, "How the apps depend on each other").

Every top-level folder of the project that is a Python package (an app, ``apibase``,
``config``) is one node. The graph is built from every import in every module, including
imports inside functions and under ``TYPE_CHECKING`` (an import hidden in a function is still
a dependency: it fails at run time exactly where a cycle would). It fails on:

* a top-level package that is in no layer (a new app must be placed);
* an import that does not point down the layers: an app imports only from lower layers, never
  from its own layer's other apps nor from a higher one (the rule that makes the graph acyclic);
* a cycle between folders (reported on its own, should the layers ever be loosened);
* an engine (``westernroses``, ``minigames/engines``) importing any app;
* an app importing a private name (``_x``) from an engine module, or anything of the battle
  engine but its package's public names (``westernroses.battle.__all__``).

Where a lower app must reach a higher one it goes through a registry the higher app fills in
its ``AppConfig.ready()`` (``campaign.registry``, ``tables.registry``) or a Django signal.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Layers, lowest first. A folder may import only from lower layers; folders of one layer
#: know nothing of each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("apibase",),
    ("accounts",),
    ("campaign",),
    ("notifications",),
    ("tables",),
    ("characters",),
    ("spellcards", "decks", "gmtools", "wiki"),
    ("battles", "minigames", "threads"),
    ("config",),
)
#: Pure engines: below every app, importing none (apps may import their public names).
ENGINES = ("westernroses", "minigames.engines")
#: Top-level packages that are not part of the graph: the test suite imports everything.
NOT_NODES = ("tests",)
#: Folder edges allowed against the layers, each with the reason and who removes it. Empty:
#: every import points down.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[str, tuple[str, ...], int]]:
    """(module, imported names, line) for every import in ``path``, relative ones resolved."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, (), node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((target, tuple(a.name for a in node.names), node.lineno))
    return found


def top_level_packages(root: Path = ROOT) -> list[str]:
    """Every top-level folder that is a Python package, but the test suite."""
    return sorted(
        p.name
        for p in root.iterdir()
        if p.is_dir() and (p / "__init__.py").exists() and p.name not in NOT_NODES
    )


def apps() -> tuple[str, ...]:
    return tuple(name for names in LAYERS for name in names)


def node_of(module: str) -> str | None:
    """The folder a module belongs to (None: outside the project, or an engine)."""
    if module.startswith(ENGINES):
        return None
    top = module.split(".")[0]
    return top if top in apps() else None


def layer(node: str) -> int:
    return next(i for i, names in enumerate(LAYERS) if node in names)


def project_files(root: Path = ROOT) -> list[Path]:
    out = []
    for top in sorted({*apps(), "westernroses"}):
        out += sorted((root / top).rglob("*.py"))
    return out


def battle_public_names(root: Path = ROOT) -> set[str]:
    """``westernroses.battle.__all__``, read from its source (the package's public names)."""
    path = root / "westernroses" / "battle" / "__init__.py"
    if not path.exists():
        return set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return {ast.literal_eval(e) for e in node.value.elts}  # type: ignore[attr-defined]
    return set()


def _engine_problems(
    where: str, line: int, target: str, names: tuple[str, ...], root: Path
) -> list[str]:
    problems = []
    private = [n for n in names if n.startswith("_")]
    if private or target.split(".")[-1].startswith("_"):
        problems.append(f"{where}:{line}: private engine name from {target}: {private}")
    public = battle_public_names(root)
    if target == "westernroses.battle" and set(names) - public:
        problems.append(
            f"{where}:{line}: {sorted(set(names) - public)} are not public names of "
            "westernroses.battle (its __all__)"
        )
    if target.startswith("westernroses.battle."):
        problems.append(
            f"{where}:{line}: {target} is inside the battle engine; import its "
            "public names from westernroses.battle"
        )
    return problems


def folder_edges(root: Path = ROOT) -> dict[str, dict[str, list[str]]]:
    """``{folder: {folder it imports: ["path:line module", ...]}}`` over every app module."""
    edges: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in project_files(root):
        module = module_name(path, root)
        source = node_of(module)
        if source is None:
            continue
        for target, _names, line in imports_of(path, root):
            target_node = node_of(target)
            if target_node is not None and target_node != source:
                edges[source][target_node].append(f"{path.relative_to(root)}:{line} {target}")
    return edges


def check(root: Path = ROOT) -> list[str]:
    """Every breach of the rules above, as sentences (empty: the graph is sound)."""
    problems: list[str] = [
        f"{name}/ is a top-level package in no layer of LAYERS: place it"
        for name in top_level_packages(root)
        if name not in apps() and name not in ENGINES
    ]
    for path in project_files(root):
        module = module_name(path, root)
        where = f"{path.relative_to(root)}"
        is_engine = module.startswith(ENGINES)
        source = None if is_engine else node_of(module)
        for target, names, line in imports_of(path, root):
            target_node = node_of(target)
            if is_engine:
                if target_node is not None:
                    problems.append(f"{where}:{line}: the engine imports the app module {target}")
                continue
            if source is None:
                continue
            if target.startswith(ENGINES):
                problems += _engine_problems(where, line, target, names, root)
                continue
            if target_node is None or target_node == source:
                continue
            if (source, target_node) in KNOWN_EXCEPTIONS:
                continue
            if layer(target_node) > layer(source):
                problems.append(
                    f"{where}:{line}: {source} imports {target} ({target_node}), a higher layer"
                )
            elif layer(target_node) == layer(source):
                problems.append(
                    f"{where}:{line}: {source} imports {target} ({target_node}), an app of its "
                    "own layer"
                )
    edges = {a: set(b) for a, b in folder_edges(root).items()}
    problems += [f"cycle: {' -> '.join(c)}" for c in cycles(edges)]
    return problems


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_the_folder_graph_has_no_cycle_and_points_down_the_layers():
    assert check() == []


def test_every_app_folder_is_a_node():
    """An app added to settings or as a folder must be placed in a layer (else its imports
    would go unchecked)."""
    from django.conf import settings

    ours = {name.split(".")[0] for name in settings.INSTALLED_APPS} & set(top_level_packages())
    assert ours <= set(apps())
    assert set(top_level_packages()) - set(ENGINES) <= set(apps())


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for top in {*apps(), "westernroses"}:
        (tmp_path / top).mkdir(exist_ok=True)
        (tmp_path / top / "__init__.py").touch()
    return tmp_path


def test_the_check_catches_a_cycle_hidden_in_a_function(tmp_path):
    root = _tree(
        tmp_path,
        {
            "characters/services.py": "from campaign.models import Campaign\n",
            "campaign/models.py": "def f():\n    from characters.services import x\n",
        },
    )
    problems = check(root)
    assert (
        "campaign/models.py:2: campaign imports characters.services (characters), a higher layer"
        in problems
    )
    assert "cycle: campaign -> characters -> campaign" in problems


def test_the_check_catches_a_cycle_through_three_folders_under_type_checking(tmp_path):
    """campaign -> tables -> notifications -> campaign: no two folders import each other."""
    root = _tree(
        tmp_path,
        {
            "campaign/apps.py": "def ready():\n    from tables.heads import membership_changed\n",
            "tables/services.py": "from notifications import notify\n",
            "notifications/services.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from campaign.models import Campaign\n"
            ),
        },
    )
    problems = check(root)
    assert "cycle: campaign -> tables -> notifications -> campaign" in problems
    assert any(p.startswith("campaign/apps.py:2: campaign imports tables.heads") for p in problems)


def test_the_check_refuses_an_import_within_a_layer(tmp_path):
    root = _tree(tmp_path, {"battles/x.py": "from minigames.services import seat\n"})
    assert check(root) == [
        "battles/x.py:1: battles imports minigames.services (minigames), an app of its own layer"
    ]


def test_the_check_catches_a_folder_in_no_layer(tmp_path):
    root = _tree(tmp_path, {"newapp/__init__.py": "", "newapp/models.py": "import campaign\n"})
    assert check(root) == ["newapp/ is a top-level package in no layer of LAYERS: place it"]


def test_the_check_catches_an_engine_importing_an_app(tmp_path):
    root = _tree(tmp_path, {"westernroses/bad.py": "def f():\n    import battles.models\n"})
    assert check(root) == [
        "westernroses/bad.py:2: the engine imports the app module battles.models"
    ]


def test_the_check_catches_private_and_inner_engine_names(tmp_path):
    root = _tree(
        tmp_path,
        {
            "battles/x.py": "from westernroses.battle import _preview\n"
            "from westernroses.battle.reactions import open_choices\n",
            "westernroses/battle/__init__.py": '__all__ = ["ENGINE", "view"]\n',
            "tables/y.py": "def f():\n    from westernroses.battle import ENGINE, reactions\n",
        },
    )
    problems = check(root)
    assert len(problems) == 4, problems
    assert any("battles/x.py:1: private engine name" in p for p in problems)
    assert any("battles/x.py:1: ['_preview'] are not public names" in p for p in problems)
    assert any("westernroses.battle.reactions is inside the battle engine" in p for p in problems)
    assert any(
        "tables/y.py:2: ['reactions'] are not public names of westernroses.battle" in p
        for p in problems
    )


@pytest.mark.parametrize("name", sorted({"campaign.models", "campaign.permissions"}))
def test_the_core_modules_exist(name):
    assert (ROOT / (name.replace(".", "/") + ".py")).exists()
