"""`quintet physics run` on scenes written here in the shared `physics-scene/1` format: the
runner contract's keys, a small pyramid that stands, a sensor count, and bad scenes refused."""

from __future__ import annotations

import json
import subprocess

from conftest import quintet_binary

CONTRACT = ["engine", "engine_version", "scene", "bodies", "steps", "warmup_steps", "dt", "velocity_iterations",
            "position_iterations", "solver", "build_ms", "total_wall_ms", "ms_per_step", "cpu_ms_per_step_mean",
            "stability"]


def scene(name, bodies, metrics, steps=300, gravity=(0, -10)):
    return {"format": "physics-scene/1", "name": name, "description": "e2e", "world": {"gravity": list(gravity)},
            "step": {"dt": 1 / 60, "velocity_iterations": 8, "position_iterations": 3, "steps": steps,
                     "warmup_steps": 30},
            "metrics": metrics, "bodies": bodies}


def run(path, *args):
    return subprocess.run([str(quintet_binary()), "physics", "run", str(path), *args],
                          capture_output=True, text=True, timeout=120)


def pyramid(rows):
    bodies = [{"type": "static", "position": [0, -0.5], "shape": {"type": "box", "half_extents": [40, 0.5]}}]
    for row in range(rows):
        for i in range(rows - row):
            x = -0.5625 * (rows - row - 1) + 1.125 * i
            bodies.append({"type": "dynamic", "position": [x, 0.5 + row], "shape": {"type": "box", "half_extents": [0.5, 0.5]},
                           "density": 1, "friction": 0.6, "tag": "box"})
    return bodies


def test_a_small_pyramid_stands_and_every_contract_key_is_printed(tmp_path):
    path = tmp_path / "pyramid5.json"
    path.write_text(json.dumps(scene("pyramid5", pyramid(5), {"kind": "stack", "settle_steps": 120, "fall_threshold": 0.5})))
    result = run(path, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    for key in CONTRACT:
        assert key in report, key
    assert report["scene"] == "pyramid5" and report["bodies"] == 16 and report["steps"] == 300
    assert report["ms_per_step"]["n"] == 270
    stability = report["stability"]
    assert stability["kind"] == "stack" and stability["finite"] and not stability["fell"]
    assert stability["max_horizontal_displacement_m"] < 0.1 and stability["tracked"] == 15
    # Deterministic: the same scene twice gives the same figures.
    again = json.loads(run(path, "--json").stdout.strip().splitlines()[-1])
    assert again["stability"] == stability
    # --steps and --warmup override the scene's.
    short = json.loads(run(path, "--json", "--steps", "100", "--warmup", "10").stdout.strip().splitlines()[-1])
    assert short["steps"] == 100 and short["ms_per_step"]["n"] == 90
    # No measured steps: the timing figures are null, not NaN (which is not JSON).
    empty = json.loads(run(path, "--json", "--steps", "0").stdout.strip().splitlines()[-1])
    assert empty["ms_per_step"]["n"] == 0 and empty["ms_per_step"]["mean"] is None
    assert empty["cpu_ms_per_step_mean"] is None and empty["stability"]["max_displacement_m"] == 0
    # Without --json, a short report for people.
    human = run(path)
    assert human.returncode == 0 and "pyramid5" in human.stdout


def test_a_ball_through_a_sensor_begins_once(tmp_path):
    bodies = [
        {"type": "static", "position": [5, 0], "shape": {"type": "box", "half_extents": [0.5, 2]}, "sensor": True, "tag": "zone"},
        {"type": "dynamic", "position": [0, 0], "linear_velocity": [4, 0], "shape": {"type": "circle", "radius": 0.25}, "tag": "car"},
    ]
    path = tmp_path / "sensor.json"
    path.write_text(json.dumps(scene("sensor", bodies, {"kind": "sensor", "count_contact_begins": True,
                                                        "expected_contact_begins": 1}, steps=240, gravity=(0, 0))))
    result = run(path, "--json")
    assert result.returncode == 0, result.stderr
    stability = json.loads(result.stdout.strip().splitlines()[-1])["stability"]
    assert stability["contact_begins"] == 1 and stability["begins_match"] is True


def test_bad_scenes_are_refused_with_a_reason(tmp_path):
    cases = {
        "format.json": {**scene("x", pyramid(1), {"kind": "none"}), "format": "physics-scene/9"},
        "concave.json": scene("x", [{"type": "dynamic", "position": [0, 0], "shape": {"type": "polygon",
                              "vertices": [[0, 0], [2, 0], [1, 0.2], [2, 2], [0, 2]]}}], {"kind": "none"}),
        "notjson.json": None,
        "negative_steps.json": {**scene("x", pyramid(1), {"kind": "none"}), "step": {"dt": 1 / 60, "steps": -1}},
        "bad_radius.json": scene("x", [{"type": "dynamic", "position": [0, 0], "shape": {"type": "circle",
                                 "radius": "big"}}], {"kind": "none"}),
    }
    reasons = {"negative_steps.json": "step.steps must be >= 0", "bad_radius.json": "bodies[0].shape.radius must be a number",
               "notjson.json": "not valid JSON", "format.json": "physics-scene/9"}
    for name, content in cases.items():
        path = tmp_path / name
        path.write_text("{ not json" if content is None else json.dumps(content))
        result = run(path, "--json")
        assert result.returncode != 0, name
        assert result.stderr.strip(), name
        assert "Fatal error" not in result.stderr and "Traceback" not in result.stderr, result.stderr
        if name in reasons:
            assert reasons[name] in result.stderr, result.stderr
    missing = run(tmp_path / "absent.json", "--json")
    assert missing.returncode != 0 and missing.stderr.strip()


def test_the_soft_step_is_the_default_the_legacy_solver_is_selectable_and_bad_choices_are_refused(tmp_path):
    path = tmp_path / "pyramid5.json"
    path.write_text(json.dumps(scene("pyramid5", pyramid(5), {"kind": "stack", "settle_steps": 120, "fall_threshold": 0.5})))
    legacy = json.loads(run(path, "--json", "--solver", "legacy").stdout.strip().splitlines()[-1])
    soft = run(path, "--json", "--solver", "soft-step", "--substeps", "4")
    assert soft.returncode == 0, soft.stderr
    report = json.loads(soft.stdout.strip().splitlines()[-1])
    assert report["solver"].startswith("Box2D v3 structure (soft step): 1 thread, 4 sub-steps")
    assert legacy["solver"].startswith("Box2D 2.x structure")
    # Without --solver: the soft step, 4 sub-steps (issue 25).
    default = json.loads(run(path, "--json").stdout.strip().splitlines()[-1])
    assert default["solver"] == report["solver"] and default["stability"] == report["stability"]
    stability = report["stability"]
    assert stability["finite"] and not stability["fell"] and stability["max_horizontal_displacement_m"] < 0.1
    # A different solver gives different trajectories (it really ran).
    assert stability != legacy["stability"]
    for args, needle in ((["--solver", "box2d"], "solver"), (["--solver", "soft-step", "--substeps", "0"], "substeps"),
                         (["--solver", "soft-step", "--workers", "0"], "workers"),
                         (["--solver", "soft-step", "--workers", "65"], "workers"),
                         (["--solver", "legacy", "--workers", "2"], "--workers needs the soft-step solver")):
        bad = run(path, *args)
        assert bad.returncode != 0 and needle in bad.stderr


def test_workers_give_the_same_figures_as_one_thread(tmp_path):
    # A pyramid big enough that its colours are split between the threads (64 bundles of four
    # constraints or more: about 300 constraints in a colour).
    path = tmp_path / "pyramid36.json"
    path.write_text(json.dumps(scene("pyramid36", pyramid(36), {"kind": "stack", "settle_steps": 30, "fall_threshold": 0.5})))
    reports = []
    for workers in ("1", "2", "3"):
        result = run(path, "--json", "--solver", "soft-step", "--workers", workers, "--steps", "40")
        assert result.returncode == 0, result.stderr
        reports.append(json.loads(result.stdout.strip().splitlines()[-1]))
    assert reports[1]["solver"].startswith("Box2D v3 structure (soft step): 2 threads")
    # Same bits, so the same stability figures, whatever the thread count.
    assert reports[0]["stability"] == reports[1]["stability"] == reports[2]["stability"]
    assert not reports[0]["stability"]["fell"]


def test_a_column_of_masses_one_to_a_hundred_stands_with_stiffer_contacts(tmp_path):
    # Issue 25's column: 20 boxes, densities alternating 1 and 100. At the defaults (4 sub-steps,
    # 30 Hz) the light boxes' soft contacts cannot carry the heavy ones: it stays upright but
    # sinks into itself. With 16 sub-steps and 120 Hz contacts it stands (docs/physics.md).
    bodies = [{"type": "static", "position": [0, -0.5], "shape": {"type": "box", "half_extents": [40, 0.5]}, "friction": 0.6}]
    for i in range(20):
        bodies.append({"type": "dynamic", "position": [0, 0.5 + i], "shape": {"type": "box", "half_extents": [0.5, 0.5]},
                       "density": 1 if i % 2 == 0 else 100, "friction": 0.6, "tag": "box"})
    path = tmp_path / "column100.json"
    path.write_text(json.dumps(scene("column100", bodies, {"kind": "stack", "settle_steps": 300, "fall_threshold": 0.5},
                                     steps=600)))
    default = json.loads(run(path, "--json").stdout.strip().splitlines()[-1])
    stiff = run(path, "--json", "--substeps", "16", "--contact-hertz", "120")
    assert stiff.returncode == 0, stiff.stderr
    report = json.loads(stiff.stdout.strip().splitlines()[-1])
    assert "16 sub-steps of soft contacts (120 Hz" in report["solver"]
    assert default["stability"]["max_drop_m"] > 1
    assert report["stability"]["max_drop_m"] < 0.1
    assert report["stability"]["max_horizontal_displacement_m"] < 0.01 and not report["stability"]["fell"]
    # Capped at a quarter of the sub-step rate: 4 sub-steps at 60 Hz steps allow 60 Hz.
    capped = json.loads(run(path, "--json", "--contact-hertz", "500", "--steps", "10").stdout.strip().splitlines()[-1])
    assert "(60 Hz" in capped["solver"]
    for value in ("0", "-5", "nan", "20000"):
        bad = run(path, "--contact-hertz", value)
        assert bad.returncode != 0 and "contact-hertz" in bad.stderr
