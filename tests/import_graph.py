"""Circles in a package's imports, read from its source by grimp (import-linter's graph).

Run as a script (``python tests/import_graph.py games``) it prints the circles as JSON, so
that a test can read a planted copy of the package in a process of its own."""

from __future__ import annotations

import json
import sys

import grimp


def circles(package: str) -> list[list[str]]:
    """Each group of modules that import one another round a circle (a strongly connected
    component of more than one module), sorted; imports inside functions count too."""
    graph = grimp.build_graph(package, cache_dir=None)
    imports = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    # Tarjan's algorithm, with an explicit stack: a chain of imports can be long.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(imports):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            module, i = work.pop()
            if i == 0:
                index[module] = low[module] = len(index)
                stack.append(module)
                on_stack.add(module)
            targets = imports[module]
            if i < len(targets):
                work.append((module, i + 1))
                target = targets[i]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
    return sorted(found)


if __name__ == "__main__":
    print(json.dumps(circles(sys.argv[1])))
