"""No import cycle anywhere in ``sheepshead`` (``bots/frozen/`` aside: earlier bots,
kept as they were). Every import counts: at the top, inside a function, and under
``TYPE_CHECKING``, since a cycle in any of them ties two modules into one room."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

FROZEN = "sheepshead.bots.frozen"


def import_graph(package: str = "sheepshead") -> dict[str, set[str]]:
    graph = grimp.build_graph(package, cache_dir=None)
    modules = {m for m in graph.modules if not m.startswith(FROZEN)}
    return {
        m: {d for d in graph.find_modules_directly_imported_by(m) if d in modules and d != m}
        for m in modules
    }


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(edges) == [["a", "b", "c"]]


def test_the_graph_counts_imports_inside_functions_and_for_type_checking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "cycle_demo"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cycle_demo import b\n"
    )
    (package / "b.py").write_text("def f() -> None:\n    from cycle_demo import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cycles(import_graph("cycle_demo")) == [["cycle_demo.a", "cycle_demo.b"]]


def test_no_module_of_sheepshead_imports_itself_round_a_cycle() -> None:
    assert cycles(import_graph()) == []
