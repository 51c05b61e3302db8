"""The app import graph (docs/architecture.md "Apps and how they depend on each other").

Built from every import in every module of the apps and engines, including imports inside
functions and under ``TYPE_CHECKING`` (an import hidden in a function is still a dependency).
It fails on:

* a cycle between apps;
* an import that points up the layers (the campaign core below characters and spellcards,
  campaign features above them, the game apps above those, ``config`` on top);
* an engine (``westernroses``, ``minigames/engines``) importing any app;
* an app importing a private name (``_x``) from an engine module, or anything of the battle
  engine but its package's public names (``westernroses.battle.__all__``).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Layers, lowest first: a node may import only from its own layer or lower ones.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("apibase",),
    ("accounts",),
    ("campaign.core",),
    ("notifications",),
    ("tables",),
    ("characters",),
    ("spellcards", "decks"),
    ("campaign",),
    ("battles", "minigames"),
    ("config",),
)
APPS = (
    "apibase",
    "accounts",
    "campaign",
    "notifications",
    "tables",
    "characters",
    "spellcards",
    "decks",
    "battles",
    "minigames",
    "config",
)
ENGINES = ("westernroses", "minigames.engines")
#: The campaign core: campaigns, memberships and roles, the permission layer, the roll log and
#: the dice roller's services, and the registry later apps plug into.
CAMPAIGN_CORE = (
    "campaign",
    "campaign.models",
    "campaign.permissions",
    "campaign.selectors",
    "campaign.services",
    "campaign.charts",
    "campaign.registry",
    "campaign.form_errors",
    "campaign.migrations",
)


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


def node_of(module: str) -> str | None:
    """The graph node a module belongs to (None: outside the project, or an engine)."""
    if module.startswith(ENGINES):
        return None
    if module.split(".")[0] == "campaign":
        if (
            any(module == c or module.startswith(c + ".") for c in CAMPAIGN_CORE if c != "campaign")
            or module == "campaign"
        ):
            return "campaign.core"
        return "campaign"
    top = module.split(".")[0]
    return top if top in APPS else None


def layer(node: str) -> int:
    return next(i for i, names in enumerate(LAYERS) if node in names)


def project_files(root: Path = ROOT) -> list[Path]:
    out = []
    for top in sorted({*APPS, "westernroses"}):
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


def check(root: Path = ROOT) -> list[str]:
    """Every breach of the rules above, as sentences (empty: the graph is sound)."""
    problems: list[str] = []
    edges: dict[str, set[str]] = defaultdict(set)
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
                continue
            if target_node is None or target_node == source:
                continue
            edges[source].add(target_node)
            if layer(target_node) > layer(source):
                problems.append(
                    f"{where}:{line}: {source} imports {target} ({target_node}), a higher layer"
                )
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


def test_the_app_graph_has_no_cycle_and_points_one_way():
    assert check() == []


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for top in {*APPS, "westernroses"}:
        (tmp_path / top).mkdir(exist_ok=True)
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
    assert any("campaign.core imports characters.services" in p for p in problems), problems
    assert any(p.startswith("cycle:") for p in problems), problems


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
