"""The playground's WebAssembly module (`make wasm`, Web/playground/playground.wasm) as the server
serves it and Chromium runs it: served as application/wasm, instantiated with no imports, every
export of the host protocol present, and Physics2D bit-identical to the native build: pyramid20
stepped 300 times by the module's bench exports hashes the same as `quintet playground bench`;
and the module's allocator reuses freed memory."""

from __future__ import annotations

import json
import subprocess

import requests

from conftest import REPO, quintet_binary

MODULE = REPO / "Web" / "playground" / "playground.wasm"
PROTOCOL = ["pg_start", "pg_stage_width", "pg_stage_height", "pg_input", "pg_frame", "pg_draw_list",
            "pg_draw_list_size", "pg_events", "pg_events_count"]
BENCH = ["pg_bench_start", "pg_bench_step", "pg_bench_hash"]

# Runs in the page: instantiates the served module (instantiateStreaming itself refuses any
# Content-Type but application/wasm), steps pyramid20 to each count in `marks` and returns the
# hashes as 16 hex digits (pg_bench_hash's i64 arrives as a signed BigInt).
RUN_MODULE = """
const [marks, done] = [arguments[0], arguments[arguments.length - 1]];
(async () => {
  const { module, instance } = await WebAssembly.instantiateStreaming(fetch('/playground/playground.wasm'), {});
  const e = instance.exports;
  const exports = WebAssembly.Module.exports(module).map(x => x.name + ':' + x.kind);
  const imports = WebAssembly.Module.imports(module).map(x => x.module + '.' + x.name);
  const unknown = e.pg_bench_start(7);
  const bodies = e.pg_bench_start(0);
  const hashes = {};
  let stepped = 0;
  for (const mark of marks) {
    e.pg_bench_step(mark - stepped);
    stepped = mark;
    hashes[mark] = BigInt.asUintN(64, e.pg_bench_hash()).toString(16).padStart(16, '0');
  }
  // The allocator gives freed memory back to later allocations: building and stepping the
  // 821-body pyramid40 ten more times (each replacing the last) must not grow the memory ten times.
  e.pg_bench_start(1); e.pg_bench_step(5);
  const memoryAfterOne = e.memory.buffer.byteLength;
  for (let i = 0; i < 10; i++) { e.pg_bench_start(1); e.pg_bench_step(5); }
  const memoryAfterEleven = e.memory.buffer.byteLength;
  return { exports, imports, unknown, bodies, hashes, memoryAfterOne, memoryAfterEleven };
})().then(done, error => done({ error: String(error) }));
"""


def native_hash(steps: int) -> str:
    result = subprocess.run([str(quintet_binary()), "playground", "bench", "pyramid20", "--steps", str(steps), "--json"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["scene"] == "pyramid20" and report["bodies"] == 211 and report["steps"] == steps
    return report["hash"]


def test_the_module_is_served_as_wasm_and_steps_pyramid20_bit_identically(server, browser):
    assert MODULE.is_file(), f"{MODULE} is missing: build it with `make wasm`"
    response = requests.get(server.url("/playground/playground.wasm"), timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/wasm"
    assert response.content == MODULE.read_bytes()

    browser.get(server.url("/playground/"))
    browser.set_script_timeout(120)
    marks = [1, 300]
    result = browser.execute_async_script(RUN_MODULE, marks)
    assert "error" not in result, result.get("error")
    assert result["imports"] == [], "the module must need nothing from the page"
    for name in PROTOCOL + BENCH:
        assert f"{name}:function" in result["exports"], name
    assert "memory:memory" in result["exports"]
    assert result["unknown"] == -1 and result["bodies"] == 211

    for mark in marks:
        assert result["hashes"][str(mark)] == native_hash(mark), f"native and wasm differ after {mark} steps"
    assert result["hashes"]["1"] != result["hashes"]["300"]
    # One pyramid40 world takes megabytes; ten more without reuse would take ten times that.
    assert result["memoryAfterEleven"] <= 1.5 * result["memoryAfterOne"], (result["memoryAfterOne"], result["memoryAfterEleven"])
