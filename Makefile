# Quintet's everyday commands. The README names two: `make run` and `make test`.
# Server settings come from the environment: QUINTET_HOST, QUINTET_PORT, QUINTET_DATA,
# QUINTET_WEB, QUINTET_LOG_LEVEL, e.g. `QUINTET_PORT=9000 make run` or
# `make run QUINTET_PORT=9000`; default http://127.0.0.1:8080/, data in ./quintet-data.

.PHONY: run build test e2e wasm bench-playground e2e-long bench-graph web-assets screenshots sanitize bootstrap bench bench-fft bench-tempo bench-tempo-corpus bench-scan bench-cadence bench-cadence-accuracy bench-cadence-corpus bench-physics bench-radio bench-studio bench-crowd bench-explorer bench-check fuzz fuzz-api clean

# The e2e suite runs against this binary; `swift test` builds it along with the tests.
QUINTET_BIN ?= $(CURDIR)/.build/debug/quintet
PYTEST = e2e/.venv/bin/python -m pytest e2e -q -m "not long" --durations=30

# Release builds link the Swift runtime statically: a third of the start-up time, which
# counts when `quintet tempo` runs once per file.
RELEASE_BUILD = swift build -c release --product quintet --static-swift-stdlib

# Build in release and start the server (Ctrl-C stops it cleanly).
run: web-assets
	$(RELEASE_BUILD)
	.build/release/quintet serve

# Debug build of everything, tests included.
build:
	swift build --build-tests

# Everything CI checks: system packages and venv, the Swift tests, then the e2e suite
# against the binary that `swift test` just built (one compile, not two).
test: bootstrap web-assets
	swift test
	QUINTET_BIN="$(QUINTET_BIN)" $(PYTEST)

# Only the e2e suite (real server, real Chromium), against an existing debug build.
e2e: bootstrap web-assets
	QUINTET_BIN="$(QUINTET_BIN)" $(PYTEST)

# The e2e checks too slow for `make test`: the 100,000-song whole-library map's first frame
# in headless Chromium (e2e/long_graph_map.py), thirty minutes of CarWorld (e2e/long_playground.py)
# and issue 22's studio acceptance scenario as written (e2e/long_radio_studio.py: 20 s on air, a
# deck, a listener, chat, a 5 s cut), and issue 23's story in Italian, English and French with a
# screenshot and the frame rate of every page (e2e/long_playground_story.py), then the e2e tests marked
# `long` (ShipWorld and FishWorld won on the game page at real speed), against an existing debug build.
e2e-long: bootstrap web-assets
	QUINTET_BIN="$(QUINTET_BIN)" e2e/.venv/bin/python -m pytest e2e/long_graph_map.py e2e/long_playground.py e2e/long_radio_studio.py e2e/long_playground_story.py -q -s
	QUINTET_BIN="$(QUINTET_BIN)" e2e/.venv/bin/python -m pytest e2e -q -s -m long

# docs/phone.md's pictures: each app on a 390×844 phone viewport, against the debug build
# (docs/images/phone-*.png; by hand when pages change, never part of `make test`), then the graph
# explorer on a phone and a tablet (docs/images/graph-phone.png, graph-tablet.png).
screenshots: bootstrap web-assets
	QUINTET_BIN="$(QUINTET_BIN)" e2e/.venv/bin/python scripts/phone-screenshots.py
	QUINTET_BIN="$(QUINTET_BIN)" e2e/.venv/bin/python scripts/graph-screenshots.py

# The server, crowd, radio and library Swift tests under ThreadSanitizer, then AddressSanitizer
# (scratch folders .build-tsan and .build-asan; never part of `make test`). SANITIZERS=thread or
# address for one; SANITIZE_FILTER for other tests. A recorded run: docs/sanitize.md.
sanitize: bootstrap
	bash scripts/sanitize.sh

# The generated files of Web/ (gitignored): the apps' PNG icons, drawn from Web/icons/src/*.svg,
# and Web/precache.json, the files the service worker keeps offline (the playground's module and
# atlases among them: `make wasm` comes first). Only what is out of date.
web-assets: wasm
	bash scripts/web-assets.sh

# The playground's WebAssembly module, Web/playground/playground.wasm (gitignored): Physics2D,
# Stage, Playground and Wasm/ as Embedded Swift, linked by wasm-ld; only when a source is newer
# (docs/playground.md, "Building the module"), and the games' texture atlases (scripts/build-atlas,
# Web/playground/atlas/, drawn from Web/playground/art/GAME/*.svg), the story's narrator
# (scripts/build-voice: Web/playground/voice/<lang>/<ID>.mp3 spoken by espeak-ng from
# Web/playground/story/lines.json) and its drawing to print (Web/playground/story/drawing.png).
wasm:
	bash scripts/build-wasm
	python3 scripts/build-atlas
	bash scripts/build-voice

# Install missing system packages (ffmpeg, chromium, chromedriver, ezstream) and the e2e venv.
bootstrap:
	bash scripts/bootstrap.sh

# Benchmarks, never part of `make test`: the real FFT next to numpy's rfft, tempo
# estimation next to aubio and librosa on the held-out synthesised set, and the library scan
# next to mutagen and tinytag, and a 60-minute accelerometer log through `quintet cadence`.
# Every bench-* writes its raw results to Benchmarks/results/<bench>-<UTC time>.json
# (scripts/bench_result.py); docs/benchmarks.md describes them.
bench: bench-fft bench-tempo bench-scan bench-cadence bench-physics bench-radio bench-crowd bench-graph bench-playground

bench-fft:
	bash scripts/bench-fft.sh

# Tempo accuracy and CPU against aubio and librosa. Default: the metrical-level sets of
# issue 21, the tuned and the unseen part reported separately (one result file,
# tempo-levels-*.json); SET=smoke|dev|test|levels-tuned|levels-unseen for one set alone.
bench-tempo:
	bash scripts/bench-tempo --set $(or $(SET),levels) --by-style

# Tempo on the score corpus (real scores from music21's corpus, never tuned on): Acc1/Acc2 and CPU
# next to aubio and librosa (docs/tempo-bench-notes.md, "The score corpus").
bench-tempo-corpus:
	bash scripts/bench-tempo-corpus --result

# Library scan files/s next to mutagen and tinytag on ../shared/library-bench (LIBRARY_BENCH=DIR
# to use another copy); FILES (default 20000) and RUNS (default 3).
bench-scan:
	bash scripts/bench-scan.sh --files $(or $(FILES),20000) --runs $(or $(RUNS),3)

# The whole-library map's layout next to Graphviz sfdp on the 20,000-file library-bench catalog
# and a synthetic 100,000-song catalog: wall, CPU, max RSS, neighbourhood preservation; RUNS
# (default 3), SONGS (default 100000).
bench-graph:
	bash scripts/bench-graph --runs $(or $(RUNS),3) --songs $(or $(SONGS),100000)

# `quintet cadence` on a 60-minute 100 Hz log, whole process (bound: 0.2 s); RUNS (default 10).
bench-cadence:
	bash scripts/bench-cadence.sh

# Issue 21: cadence coverage / median / p95 / false cadence when still on generator C's tuned and
# unseen parts, by placement and gait, and the estimator's CPU against BASE (default main).
bench-cadence-accuracy:
	BASE=$(or $(BASE),de835ea) bash scripts/bench-cadence-accuracy.sh

# Cadence on gait model D (scripts/cadence_corpus.py: numpy, written apart from the Swift
# generators, never tuned on), through the release `quintet cadence --json`.
bench-cadence-corpus:
	swift build -c release --product quintet --static-swift-stdlib
	bash scripts/bench-tempo --set smoke --only-build >/dev/null
	test -f .bench/cadence-corpus/truth.json -a .bench/cadence-corpus/truth.json -nt scripts/cadence_corpus.py || .bench/venv/bin/python scripts/cadence_corpus.py build
	.bench/venv/bin/python scripts/cadence_corpus.py eval --result

# Physics2D next to Box2D 2.4.1, Box2D 3.1.1 and pymunk on ../shared/physics-bench's scenes
# and issue 25's pyramid100/pile5000 (scripts/physics_scenes.py), plus Box2D 3.1.1's wall
# time on 2 workers (REPEAT=3; PHYSICS_BENCH=DIR for another copy of the harness).
bench-physics:
	bash scripts/bench-physics.sh

# Live radio: icecast2 and `quintet serve` side by side (same ffmpeg source, same ICY listener
# client from ../shared/radio-bench); N listeners (default 5000) for T seconds (default 60), RUNS.
# TLS=1: both servers serve the listeners over TLS on the same certificate (stunnel4 in front of
# the listener client), next to the plain pair of the same run (results radio-tls-<UTC>.json).
bench-radio:
	bash scripts/bench-radio -n $(or $(N),5000) -t $(or $(T),60) --runs $(or $(RUNS),1)$(if $(TLS), --tls)

# The radio studio (issue 22): mouth-to-ear latency of a headless Chromium's fake microphone
# through /radio/studio/ to an MP3 listener, next to the same beeps sent by ffmpeg over the Icecast
# PUT path, and the studio page's CPU (idle, live, live with both decks playing) over SECONDS
# (default 30). The release build unless QUINTET_BIN names another; docs/radio.md, "Measured".
bench-studio: bootstrap
	bash scripts/bench-studio --seconds $(or $(SECONDS),30)

# Crowd with a city-sized state (DEVICES, default 1000000, by the simulator): wrk against
# `quintet serve` on SQLite and on PostGIS, pgbench on the PL/pgSQL functions, kill -9 durability;
# SECONDS per measurement (default 20), CONNECTIONS (default 64); QUICK=1 for 50,000 devices, 5 s.
# TLS=1 instead: the 200 m search over HTTPS next to HTTP on the same state (scripts/bench-crowd-tls:
# plain and TLS servers on one data folder in alternating order, ROUNDS default 2; results
# crowd-tls-<UTC>.json); no PostGIS, no reports.
bench-crowd:
ifdef TLS
	bash scripts/bench-crowd-tls --devices $(or $(DEVICES),$(if $(QUICK),50000,1000000)) --seconds $(or $(SECONDS),$(if $(QUICK),5,20)) --connections $(or $(CONNECTIONS),64) --rounds $(or $(ROUNDS),2)
else
	bash scripts/bench-crowd --devices $(or $(DEVICES),$(if $(QUICK),50000,1000000)) --seconds $(or $(SECONDS),$(if $(QUICK),5,20)) --connections $(or $(CONNECTIONS),64)
endif

# The graph explorer's frame rate in headless Chromium: NODES (default 2000) generated nodes in
# view, one dragged with the mouse for SECONDS (default 5); BOTH=1 also times the 2D-canvas-only
# fallback. Against the debug build; docs/graph.md, "The explorer".
bench-explorer: bootstrap web-assets
	QUINTET_BIN="$(QUINTET_BIN)" e2e/.venv/bin/python scripts/bench-explorer.py --nodes $(or $(NODES),2000) --seconds $(or $(SECONDS),5)$(if $(BOTH), --both)

# The playground in the browser (docs/playground.md, "Figures"): pyramid20 and CarWorld with 50+
# cars (carworld-crowded) stepped natively (release `quintet playground bench`) and as the wasm
# module in headless Chromium, same machine, same run: CPU and wall ms per step or frame each and
# the ratios wasm / native; then the page's frame rate with 50 cars. STEPS (default 600), RUNS
# (default 3).
bench-playground: bootstrap wasm
	bash scripts/bench-playground --steps $(or $(STEPS),600) --runs $(or $(RUNS),3)

# The newest result of each bench against the committed ratio thresholds
# (Benchmarks/thresholds.json): prints every comparison, names each regression, fails on any.
bench-check:
	python3 scripts/bench_check.py

# Fuzz targets for parsers of untrusted bytes (Fuzz/, libFuzzer), never part of `make test`;
# FUZZ_SECONDS per target (default 60). Then the whole HTTP API with schemathesis against a
# live server (/api/openapi.json, all checks) for FUZZ_API_SECONDS (default 600).
fuzz:
	bash scripts/fuzz.sh
	QUINTET_BIN="$(QUINTET_BIN)" bash scripts/fuzz-api.sh

# Only the API fuzzing (schemathesis), against an existing debug build.
fuzz-api:
	QUINTET_BIN="$(QUINTET_BIN)" bash scripts/fuzz-api.sh

# Remove build products and e2e artifacts (the e2e venv stays; bootstrap keeps it current).
clean:
	swift package clean
	rm -rf e2e/artifacts e2e/.pytest_cache .pytest_cache
