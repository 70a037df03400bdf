"""The package's import graph: no cycle, and no module takes a private name from another."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "logir"


def _module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, here: str) -> list[tuple[str, list[str], int]]:
    """(module imported, names taken from it, line) for every import of module ``here`` (file
    ``path``) that runs, at any depth of the file except under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[tuple[str, list[str], int]] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                todo.extend(child.orelse)
                continue
            if isinstance(child, ast.Import):
                found += [(a.name, [], child.lineno) for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - child.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                found.append((base, [a.name for a in child.names], child.lineno))
            todo.append(child)
    return found


def _graph(root: Path = PACKAGE) -> tuple[dict[str, set[str]], list[str]]:
    modules = {_module_name(p, root): p for p in root.rglob("*.py")}
    edges: dict[str, set[str]] = {m: set() for m in modules}
    private: list[str] = []
    for name, path in modules.items():
        for target, names, line in _imports(path, name):
            if not target.startswith("logir"):
                continue
            for imported in names:
                sub = f"{target}.{imported}"
                if sub in modules:
                    edges[name].add(sub)
                    continue
                if imported.startswith("_") and not imported.startswith("__"):
                    private.append(f"{path.relative_to(root.parent)}:{line} {target}.{imported}")
            if target in modules and target != name:
                edges[name].add(target)
    return edges, private


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, or None (iterative depth-first search, three colours)."""
    colour = dict.fromkeys(edges, 0)
    for start in sorted(edges):
        if colour[start]:
            continue
        stack = [(start, iter(sorted(edges[start])))]
        path = [start]
        colour[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                colour[node] = 2
                stack.pop()
                path.pop()
            elif colour[nxt] == 1:
                return [*path[path.index(nxt) :], nxt]
            elif colour[nxt] == 0:
                colour[nxt] = 1
                stack.append((nxt, iter(sorted(edges[nxt]))))
                path.append(nxt)
    return None


def _package_of(module: str) -> str:
    """Parent modules are imported with a child: ``logir.a.b`` runs ``logir.a`` first."""
    return module.rpartition(".")[0]


def _find_cycle(root: Path) -> list[str] | None:
    edges, _ = _graph(root)
    # a package's __init__ importing its own children re-exports them, and a child importing
    # its package's __init__ is how re-exports are read: neither is counted as a cycle
    pruned = {
        m: {t for t in ts if t != m and not m.startswith(t + ".") and _package_of(t) != m}
        for m, ts in edges.items()
    }
    return _cycle(pruned)


def test_no_import_cycle() -> None:
    cycle = _find_cycle(PACKAGE)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_no_private_names_across_modules() -> None:
    _, private = _graph()
    assert private == [], "private names imported from other modules:\n" + "\n".join(private)


def test_the_checker_sees_a_cycle_and_a_private_import(tmp_path: Path) -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
    pkg = tmp_path / "logir"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from logir.sub import one\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "one.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from logir import three\n"
        "def f():\n    from .two import _hidden\n"
    )
    (pkg / "sub" / "two.py").write_text("from logir.sub import one\n_hidden = 1\n")
    (pkg / "three.py").write_text("from logir.sub import one\n")
    edges, private = _graph(pkg)
    assert edges["logir.sub.one"] == {"logir.sub.two"}  # the TYPE_CHECKING import is not counted
    assert private == ["logir/sub/one.py:5 logir.sub.two._hidden"]
    assert _find_cycle(pkg) == ["logir.sub.one", "logir.sub.two", "logir.sub.one"]
