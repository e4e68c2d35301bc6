#!/usr/bin/env python3
"""Write issue 25's two large physics-scene/1 scenes into a folder.

    python3 scripts/physics_scenes.py OUTDIR          # writes OUTDIR/pyramid100.json, OUTDIR/pile5000.json
    python3 scripts/physics_scenes.py OUTDIR --check  # the files in OUTDIR are what this script writes

The format is SCENES.md's (../shared/physics-bench); this file is our own generator and
imports nothing from the harness. Output is deterministic (fixed seed, every random number
rounded to 6 decimals), so two runs write byte-identical files.

pyramid100 — the shipped pyramid20/pyramid40 scenes with 100 rows (5,050 boxes):
  * 1 x 1 m boxes (half-extents 0.5), density 1, friction 0.6, restitution 0; row r (0 at
    the bottom) has 100 - r boxes at a 1.125 m pitch centred on x = 0, its centres at
    y = 0.5 + r: boxes start resting exactly on each other with 0.125 m gaps in a row, as in
    pyramid20/40 (so any displacement is the solver's doing).
  * ground: one static box with its top at y = 0, half-extents 60 x 0.5 — pyramid20/40 use
    40 x 0.5 (80 m), which is shorter than this base row (99 * 1.125 + 1 = 112.4 m); 120 m
    leaves 3.8 m on each side.
  * metrics "stack", settle_steps 120 and fall_threshold 0.5 (half a box), warm-up 60
    steps: all three as in pyramid20/40.
  * steps 600 (the smaller pyramids run 1000): 10 s of simulated time, still 480 steps
    after the settle snapshot for the drift figure. Measured on this 2-core machine while a
    release build ran beside (2026-11-27): thread CPU 24-30 ms a step for Box2D 2.4.1,
    23-35 ms for pymunk, 6 ms for Box2D 3.1.1 (the stack slides and compresses, so contacts
    stay many). 600 steps keep the slowest engine at about 20 s of CPU (1000 would be ~35 s,
    and about twice that in wall time under load), so a repeat of all engines stays within a
    couple of minutes.
  * the fall threshold stays at half a box although no engine keeps a 100-row stack within
    it: in the first full run (2026-11-27 20:08 UTC) Box2D 3.1.1's soft contacts let the
    top sink 0.78 m (1,560 boxes past the threshold, sideways 0.22 m), Box2D 2.4.1 and
    Physics2D kept the drop to 0.29 / 0.12 m but their lower rows slid 1.41 / 1.39 m
    sideways (671 / 570 boxes), and pymunk at 8 iterations collapsed (drop 5.1 m, 4,402).
    The scene keeps the harness's conventions rather than a threshold tuned to let someone
    pass; moved_count and the max sideways/drop figures say how far each engine went.

pile5000 — many_circles' mix at five times the count (5,000 dynamic bodies):
  * 2,250 circles (radius 0.25-0.5 m), 2,250 boxes (half-extents 0.25-0.45 m each), 500
    convex polygons (triangles, pentagons, hexagons; circumradius 0.35-0.55 m): the same
    45/45/10 split and size ranges as many_circles; random angles; density 1, friction 0.6,
    restitution 0.1 on everything (one restitution for every shape, so pymunk's mapping is
    exact, see SCENES.md).
  * start: a 100 x 50 grid at a 1.3 m pitch (many_circles' pitch; the largest body,
    a 0.55 m polygon, is 1.1 m across, so nothing overlaps at the start), the kinds
    shuffled over the grid cells, each centre jittered by up to 0.05 m, lowest row at
    y = 1.5; grid top at y = 65.2.
  * container: a static U, inside 134 m wide (x -67..67) and 75 m high, floor top at y = 0,
    walls and floor 1 m thick — higher than the top of the grid, so nothing leaves over a
    wall. The settled pile is about 23 m deep.
  * metrics "pile", region = the inside [-67, 0, 67, 75], region_margin 0.5 (as in
    many_circles).
  * steps 600, warm-up 60 (as many_circles): the top row needs about 3.6 s (216 steps) to
    fall its 65 m; Box2D 3.1.1 has the pile at rest by step 600 (kinetic energy 0.001 J,
    top speed 0.04 m/s, pile top 23.2 m; the same at 900 steps), so 10 s cover the fall,
    the impact and the settling. Full 600-step runs under load (a release build beside):
    thread CPU 43 ms a step for Box2D 2.4.1 (39 s wall), 36 ms for pymunk (60 s wall),
    8 ms for Box2D 3.1.1; both slower engines end nearly at rest too (0.75 and 1.1 J, top
    speed 0.3 and 0.7 m/s), none loses a body. The slowest engine thus needs under a minute
    for one run.

Both scenes keep allow_sleep false, dt 1/60 and Box2D 2.x's 8 velocity / 3 position
iterations, like every shipped scene.
"""
import json
import math
import os
import random
import re
import sys

SEED = 20261127  # pile5000's layout; fixed so the file never changes


def num(x):
    """Rounded to 6 decimals and never -0.0, so that the JSON text is stable."""
    v = round(float(x), 6)
    return 0.0 if v == 0 else v


def make_body(kind, position, shape, *, angle=0.0, density=1.0, friction=0.6,
              restitution=0.0, tag):
    return {"type": kind, "position": [num(position[0]), num(position[1])],
            "angle": num(angle), "shape": shape, "density": density,
            "friction": friction, "restitution": restitution, "tag": tag}


def box_shape(hx, hy):
    return {"type": "box", "half_extents": [num(hx), num(hy)]}


def header(name, description, steps, warmup, metrics):
    return {
        "format": "physics-scene/1",
        "name": name,
        "description": description,
        "world": {"gravity": [0.0, -10.0], "allow_sleep": False},
        "step": {"dt": 1.0 / 60.0, "velocity_iterations": 8, "position_iterations": 3,
                 "steps": steps, "warmup_steps": warmup},
        "metrics": metrics,
    }


def pyramid100():
    rows, pitch = 100, 1.125
    bodies = [make_body("static", (0.0, -0.5), box_shape(60.0, 0.5), density=0.0,
                        tag="ground")]
    for r in range(rows):
        n = rows - r
        for i in range(n):
            x = (i - (n - 1) / 2.0) * pitch
            bodies.append(make_body("dynamic", (x, 0.5 + r), box_shape(0.5, 0.5), tag="box"))
    count = rows * (rows + 1) // 2
    scene = header(
        "pyramid100",
        "Pyramid of %d 1x1 m boxes (%d in the base row) resting on a static ground box; "
        "boxes start touching vertically with 0.125 m horizontal gaps. A stable solver "
        "keeps every box in place." % (count, rows),
        600, 60, {"kind": "stack", "settle_steps": 120, "fall_threshold": 0.5})
    scene["bodies"] = bodies
    return scene


def regular_polygon(sides, radius):
    return [[num(radius * math.cos(2 * math.pi * k / sides)),
             num(radius * math.sin(2 * math.pi * k / sides))] for k in range(sides)]


def pile5000():
    rng = random.Random(SEED)
    cols, rows, pitch = 100, 50, 1.3
    inner_half_width, wall_height, restitution = 67.0, 75.0, 0.1
    kinds = ["circle"] * 2250 + ["box"] * 2250 + ["polygon"] * 500
    rng.shuffle(kinds)
    bodies = [
        make_body("static", (0.0, -0.5), box_shape(inner_half_width + 1.0, 0.5),
                  density=0.0, restitution=restitution, tag="floor"),
        make_body("static", (-inner_half_width - 0.5, wall_height / 2), box_shape(0.5, wall_height / 2),
                  density=0.0, restitution=restitution, tag="wall"),
        make_body("static", (inner_half_width + 0.5, wall_height / 2), box_shape(0.5, wall_height / 2),
                  density=0.0, restitution=restitution, tag="wall"),
    ]
    x0 = -(cols - 1) / 2.0 * pitch
    for k, kind in enumerate(kinds):
        row, col = divmod(k, cols)
        x = x0 + col * pitch + rng.uniform(-0.05, 0.05)
        y = 1.5 + row * pitch + rng.uniform(-0.05, 0.05)
        angle = rng.uniform(-math.pi, math.pi)
        if kind == "circle":
            shape, angle = {"type": "circle", "radius": num(rng.uniform(0.25, 0.5))}, 0.0
        elif kind == "box":
            shape = box_shape(rng.uniform(0.25, 0.45), rng.uniform(0.25, 0.45))
        else:
            shape = {"type": "polygon",
                     "vertices": regular_polygon(rng.choice((3, 5, 6)), rng.uniform(0.35, 0.55))}
        bodies.append(make_body("dynamic", (x, y), shape, angle=angle,
                                restitution=restitution, tag=kind))
    scene = header(
        "pile5000",
        "5000 dynamic bodies (2250 circles, 2250 boxes, 500 convex 3/5/6-gons) on a 100x50 "
        "grid fall into a static U-shaped container (134 m inner width, 75 m walls) and "
        "settle. Uniform restitution 0.1.",
        600, 60, {"kind": "pile", "region": [-inner_half_width, 0.0, inner_half_width, wall_height],
                  "region_margin": 0.5})
    scene["bodies"] = bodies
    return scene


def text(scene):
    """Header indented, one body per line (the layout of the shipped scenes)."""
    head = {k: v for k, v in scene.items() if k != "bodies"}
    out = compact_pairs(json.dumps(head, indent=2))
    bodies = ",\n".join("    " + json.dumps(b, separators=(", ", ": ")) for b in scene["bodies"])
    return out[:-2] + ',\n  "bodies": [\n' + bodies + "\n  ]\n}\n"


def compact_pairs(s):
    """Turns json.dumps(indent=2)'s multi-line number arrays into [a, b, ...] on one line."""
    return re.sub(r"\[\s*((?:-?[0-9.eE+-]+,\s*)*-?[0-9.eE+-]+)\s*\]",
                  lambda m: "[" + ", ".join(p.strip() for p in m.group(1).split(",")) + "]", s)


SCENES = {"pyramid100": pyramid100, "pile5000": pile5000}


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__.split("\n\n")[1])
    outdir = args[0]
    check = "--check" in argv
    os.makedirs(outdir, exist_ok=True)
    bad = 0
    for name, make in SCENES.items():
        body = text(make())
        json.loads(body)  # sanity: what we write parses
        path = os.path.join(outdir, name + ".json")
        if check:
            same = os.path.exists(path) and open(path).read() == body
            print("%s: %s" % (path, "same" if same else "DIFFERS"))
            bad += not same
        else:
            with open(path, "w") as f:
                f.write(body)
            print("wrote %s (%d bodies)" % (path, len(make()["bodies"])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
