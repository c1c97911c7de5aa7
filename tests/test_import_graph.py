"""The package's modules import one another one way: no circle.

The graph is read from the source (``ast``): every ``import`` of a
``loveletter`` module, at the top of a module or inside a function (a
deferred import is a dependency all the same), but not those under ``if
TYPE_CHECKING:``, which never run. A subpackage (``loveletter.cards``,
``loveletter.conformance``, ...) is one node: its card modules import the
events, so the events must not import the package back, even for the card
kinds (:mod:`loveletter.kinds` holds those).

A few deferred imports call up on purpose, from a value to what presents or
proves it; each is listed in :data:`UPWARD` with its reason, must stay
deferred, and must still exist (a listed edge that is gone is taken off
the list).

The fast path (:mod:`loveletter.fastpath`) is speed work apart from the
rules: only the engine's public verbs may use it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import loveletter

PACKAGE = Path(loveletter.__file__).resolve().parent

#: deferred imports that call up the graph on purpose: (from, to) -> why
UPWARD: dict[tuple[str, str], str] = {
    ("loveletter.state", "loveletter.display"): (
        "str(state) is display's text of the state (GameState.__str__)"
    ),
    ("loveletter.positions", "loveletter.conformance"): (
        "from_position(check='reachable') proves a position with the suite's search,"
        " which plays the engine"
    ),
    ("loveletter.simulation", "loveletter.fast"): (
        "simulate(engine='fast') hands its games to the compiled simulator, an optional"
        " extra built on the package"
    ),
    ("loveletter.cli_records", "loveletter.cli"): (
        "a usage error is the command line's (cli.UsageError): to untie, give it a"
        " module of its own"
    ),
}

#: circles not untied yet, each cut at one edge: (from, to) -> why, and how
#: to untie it. The rest of the graph is checked; an edge that is gone must
#: be taken off.
NOT_YET_UNTIED: dict[tuple[str, str], str] = {
    ("loveletter.conformance", "loveletter.reference"): (
        "conformance.html_report names topics and rulebook sections with the"
        " reference pages' catalog, which reads the suite's cases: to untie, move"
        " those names below both"
    ),
    ("loveletter.simulation", "loveletter.distributed"): (
        "simulate(ray=...) hands its batches to the Ray layer, which builds on"
        " simulation: to untie, choose the layer in the caller (or defer it as an"
        " upward call)"
    ),
}

#: the only modules of the package that may import the fast path
FAST_PATH_USERS = frozenset({"loveletter.engine"})


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """The dotted name of the module at ``path`` in the package at ``root``."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def node(module: str) -> str:
    """The graph's node for ``module``: a subpackage's modules are one node."""
    return ".".join(module.split(".")[:2])


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(path: Path, known: frozenset[str], root: Path = PACKAGE) -> Iterator[tuple[str, bool]]:
    """The package's modules that the module at ``path`` imports, each with
    whether the import is deferred (inside a function or a class)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def targets(statement: ast.Import | ast.ImportFrom) -> Iterator[str]:
        if isinstance(statement, ast.Import):
            yield from (alias.name for alias in statement.names if alias.name in known)
            return
        base = statement.module or ""
        if statement.level:
            up = package.split(".")[: len(package.split(".")) - statement.level + 1]
            base = ".".join([*up, *([base] if base else [])])
        for alias in statement.names:
            full = f"{base}.{alias.name}"
            if full in known:
                yield full
            elif base in known:
                yield base

    def walk(at: ast.AST, deferred: bool) -> Iterator[tuple[str, bool]]:
        for child in ast.iter_child_nodes(at):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for statement in child.orelse:
                    yield from walk_one(statement, deferred)
            else:
                yield from walk_one(child, deferred)

    def walk_one(child: ast.AST, deferred: bool) -> Iterator[tuple[str, bool]]:
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield from ((target, deferred) for target in targets(child))
        else:
            # a function's body runs when it is called; a class body at load time
            later = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            yield from walk(child, deferred or later)

    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    yield from walk(tree, False)


def import_edges(root: Path = PACKAGE) -> dict[tuple[str, str], bool]:
    """Every import between two nodes of the package at ``root``: (from, to)
    -> whether every such import is deferred."""
    paths = sorted(root.rglob("*.py"))
    known = frozenset(module_name(p, root) for p in paths)
    edges: dict[tuple[str, str], bool] = {}
    for path in paths:
        source = node(module_name(path, root))
        for target, deferred in imports(path, known, root):
            edge = (source, node(target))
            if edge[0] != edge[1]:
                edges[edge] = edges.get(edge, True) and deferred
    return edges


def find_cycle(edges: set[tuple[str, str]]) -> list[str] | None:
    """A cycle of the graph (its nodes, the first repeated last), or ``None``."""
    graph: dict[str, list[str]] = {}
    for source, target in sorted(edges):
        graph.setdefault(source, []).append(target)
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(at: str) -> list[str] | None:
        state[at] = 1
        path.append(at)
        for nxt in graph.get(at, ()):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[at] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_the_modules_import_one_another_one_way() -> None:
    edges = import_edges()
    kept = {edge for edge in edges if edge not in UPWARD and edge not in NOT_YET_UNTIED}
    cycle = find_cycle(kept)
    assert cycle is None, "an import circle: " + " -> ".join(cycle or ())


def test_each_upward_import_is_deferred_and_still_there() -> None:
    edges = import_edges()
    for edge, why in UPWARD.items():
        assert edge in edges, f"{edge} is gone: take it off UPWARD ({why})"
        assert edges[edge], f"{edge} is imported at load time: {why}"
    for edge, why in NOT_YET_UNTIED.items():
        assert edge in edges, f"{edge} is gone: take it off NOT_YET_UNTIED ({why})"


def test_no_import_circle_even_at_load_time() -> None:
    """Without the deferred imports too: loading any module never needs one
    that is still loading."""
    edges = import_edges()
    loaded = {edge for edge, deferred in edges.items() if not deferred}
    assert find_cycle(loaded - set(NOT_YET_UNTIED)) is None


def test_only_the_public_verbs_use_the_fast_path() -> None:
    users = {source for source, target in import_edges() if target == "loveletter.fastpath"}
    assert users <= FAST_PATH_USERS, sorted(users - FAST_PATH_USERS)


def test_a_circle_and_a_type_checking_import_are_told_apart(tmp_path: Path) -> None:
    """The reading can fail: a circle through a deferred import is found, one
    through an import under ``if TYPE_CHECKING:`` is not, and a subpackage
    is one node."""
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "leaf.py").write_text("from pkg import low\n")
    (root / "low.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import high\n"
    )
    (root / "high.py").write_text("from pkg import low\n\ndef f():\n    from pkg.sub import leaf\n")
    edges = import_edges(root)
    assert edges == {
        ("pkg.sub", "pkg.low"): False,
        ("pkg.high", "pkg.low"): False,
        ("pkg.high", "pkg.sub"): True,
    }
    assert find_cycle(set(edges)) is None
    (root / "low.py").write_text("def g():\n    from pkg import high\n")
    edges = import_edges(root)
    assert edges[("pkg.low", "pkg.high")] is True
    assert find_cycle(set(edges)) == ["pkg.high", "pkg.low", "pkg.high"]
    (root / "low.py").write_text("import pkg.sub.leaf\n")
    assert find_cycle(set(import_edges(root))) == ["pkg.low", "pkg.sub", "pkg.low"]
