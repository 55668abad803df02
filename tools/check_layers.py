#!/usr/bin/env python3
"""Check that the modules of a folder of the crate import one another without a circle.

    python3 tools/check_layers.py src/abi [src/abi_std ...]

A module's imports are the sibling modules it names (`super::m`, `crate::<folder>::m`,
`use super::{m, ...}`). Exits 1, printing each circle (a strongly connected set of
modules) with the imports inside it, if there is one. DESIGN §abi: the shims call the base
modules (tables, arguments, errors) and the core; only the generated entry points sit on top.
"""
import os
import re
import sys


def imports(folder):
    mods = {f[:-3] for f in os.listdir(folder) if f.endswith(".rs")} - {"mod"}
    parts = os.path.abspath(folder).split(os.sep)
    prefix = "crate::" + "::".join(parts[len(parts) - parts[::-1].index("src"):])
    graph = {}
    for m in mods:
        text = open(os.path.join(folder, m + ".rs")).read()
        names = set(re.findall(r"(?:super|" + re.escape(prefix) + r")::([a-z_0-9]+)", text))
        for group in re.findall(r"use (?:super|" + re.escape(prefix) + r")::\{([^}]*)\}", text):
            names |= {x.strip().split("::")[0] for x in group.split(",") if x.strip()}
        graph[m] = (names & mods) - {m}
    return graph


def circles(graph):
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    bad = False
    for folder in sys.argv[1:]:
        graph = imports(folder)
        for comp in circles(graph):
            bad = True
            print(f"{folder}: import circle of {len(comp)} modules:")
            for m in comp:
                print(f"  {m} -> {', '.join(sorted(graph[m] & set(comp)))}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
