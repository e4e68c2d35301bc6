#!/usr/bin/env python3
"""Helpers of scripts/bench-graph: a quintet graph file as Graphviz DOT for sfdp, and sfdp's
answer back as one "x y" line per node (the format `quintet library graph layout` writes).

    python3 scripts/bench_graph.py dot GRAPH OUT.dot
    python3 scripts/bench_graph.py positions GRAPH SFDP.plain OUT.pos

The DOT graph names nodes by their index, draws them as points and asks for no overlap removal
and straight edges (the layout only: Quintet removes no overlaps either); repeated edges and
loops are left out as Quintet's layout leaves them out.
"""
import sys


def read_graph(path):
    with open(path) as f:
        assert f.readline().split() == ["quintet-graph", "1"], f"{path}: not a quintet graph file"
        n, e = map(int, f.readline().split())
        for _ in range(n):
            f.readline()
        edges = set()
        for _ in range(e):
            a, b, _kind = map(int, f.readline().split())
            if a != b:
                edges.add((min(a, b), max(a, b)))
    return n, sorted(edges)


def dot(graph, out):
    n, edges = read_graph(graph)
    with open(out, "w") as f:
        f.write("graph G {\n  graph [overlap=true, splines=false, outputorder=edgesfirst];\n"
                "  node [shape=point, width=0.05, label=\"\"];\n")
        f.writelines(f"  {i};\n" for i in range(n))
        f.writelines(f"  {a} -- {b};\n" for a, b in edges)
        f.write("}\n")


def positions(graph, plain, out):
    n, _ = read_graph(graph)
    xy = [None] * n
    with open(plain) as f:
        for line in f:
            if line.startswith("node "):
                parts = line.split()
                xy[int(parts[1])] = (parts[2], parts[3])
    missing = sum(p is None for p in xy)
    if missing:
        sys.exit(f"{plain}: {missing} of {n} nodes have no position")
    with open(out, "w") as f:
        f.writelines(f"{x} {y}\n" for x, y in xy)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "dot":
        dot(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "positions":
        positions(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
