#!/usr/bin/env python3
"""The radio studio measured (issue 22, "Measured and reported"): mouth-to-ear latency of the
studio path next to the Icecast PUT path, and the studio page's CPU in Chromium.

`make bench-studio` runs it with the e2e venv (scripts/bench-studio builds or takes the server
binary). One `quintet serve` (QUINTET_BIN: the release build by default, see bench-studio) on a
fresh data folder with the demo library, two shows, one headless Chromium whose microphone is
Chromium's fake device reading a WAV made here by ffmpeg (`--use-file-for-fake-audio-capture`):
1 kHz beeps of 60 ms at irregular times (1.7–2.8 s apart, so a beep is never mistaken for the
next one whatever the latency), looped by Chromium.

Latency, studio path: the page goes live from /radio/studio/ (Go live: Web Audio, MediaRecorder
WebM/Opus in 250 ms slices, the WebSocket ingest, the server's transcoder to MP3). A probe added
to the page by execute_script (nothing in studio.js changes) reads an AnalyserNode on the
microphone's source node every 5 ms and records each beep's onset on the wall clock:
performance.timeOrigin + performance.now() when it saw it, minus the onset's age within the
analyser's 2048-sample window. A listener — ffmpeg decoding the live MP3 mount to 16 kHz mono
PCM on a pipe — is read by this script, which notes the wall clock (time.time(), the same
machine's clock) when each piece of PCM arrives; a beep's arrival is the arrival of the piece
holding its onset. Latency = arrival − onset in the page. The listener's first 4 s (the
server's burst of recent audio on connect) are left out.

Latency, PUT path: the same WAV, paced here in real time (each 20 ms of samples written to
ffmpeg's stdin when its last sample's time has come: a microphone's timing, on a known clock),
encoded by ffmpeg to 128 kbit/s MP3 and sent to icecast://source:KEY@host/live/x.mp3 (HTTP PUT,
`-flush_packets 1` so ffmpeg's 32 KiB output buffer does not hold 2 s back); the same listener.
A beep entered at the time of its onset sample on that pacing clock.

Both: beeps matched to arrivals by the one offset that pairs most of them (±150 ms), then each
beep with its nearest arrival; median and p95 over every matched beep (≥ 10 wanted).

CPU: Chromium's CPU time (user + system, /proc, every process under chromedriver except
chromedriver itself, also by process type) over SECONDS, as % of one core: idle (signed in, the
console open, not broadcasting), broadcasting the microphone alone (after the studio latency
reading; the probe is stopped first), and broadcasting with the microphone on and both decks playing two
demo songs (looped, crossfader in the middle). The reading taken during the studio latency
reading, probe running, is kept in the result's details (`mic_with_latency_probe`).

Results: Benchmarks/results/studio-<UTC>.json (scripts/bench_result.py). Not part of `make test`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import wave
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "e2e"))
sys.path.insert(0, str(REPO / "scripts"))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

import bench_result  # noqa: E402
from bench_proc import cpu_seconds_by_process  # noqa: E402
import conftest  # noqa: E402

RATE = 48000          # the WAV's sample rate
BEEP_HZ = 1000
BEEP_S = 0.06
AMPLITUDE = 0.5
# Onsets within the 40 s WAV (Chromium loops it): irregular gaps of 1.7–2.8 s.
GAPS = [1.9, 2.6, 1.7, 2.3, 2.8, 1.8, 2.5, 2.0, 2.7, 1.75, 2.4, 2.15, 2.85, 1.95, 2.55, 2.25]
ONSETS = [round(0.5 + sum(GAPS[:i]), 3) for i in range(len(GAPS) + 1)]
WAV_SECONDS = 40.0
LISTEN_RATE = 16000
BURST_SKIP = 4.0      # seconds of the listener's start left out (the burst of recent audio)

PROBE = """
const audio = window.quintetStudio && window.quintetStudio.audio;
if (!audio || !audio.mic) return "no microphone in the graph";
if (window.__beeps) return "ok";
const analyser = audio.context.createAnalyser();
analyser.fftSize = 2048;
audio.mic.connect(analyser);
const samples = new Float32Array(analyser.fftSize);
const rate = audio.context.sampleRate;
window.__beeps = [];
window.__clockSkew = [];
let lastLoud = -1e12;
window.__probe = setInterval(() => {
  const now = performance.timeOrigin + performance.now();
  analyser.getFloatTimeDomainData(samples);
  const n = samples.length;
  let first = -1, last = -1;
  for (let i = 0; i < n; i++) if (Math.abs(samples[i]) > 0.1) { if (first < 0) first = i; last = i; }
  if (first < 0) return;
  const firstAt = now - ((n - first) / rate) * 1000, lastAt = now - ((n - last) / rate) * 1000;
  if (firstAt - lastLoud > 400) window.__beeps.push(firstAt);
  lastLoud = Math.max(lastLoud, lastAt);
  if (window.__clockSkew.length < 50) window.__clockSkew.push(Date.now() - now);
}, 5);
return "ok";
"""


def log(text: str) -> None:
    print(f"bench-studio: {text}", flush=True)


def make_wav(folder: Path) -> Path:
    """The beeps, written by ffmpeg (aevalsrc): 16-bit mono 48 kHz."""
    terms = "+".join(f"between(t,{t:.3f},{t + BEEP_S:.3f})" for t in ONSETS)
    path = folder / "beeps.wav"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    f"aevalsrc='{AMPLITUDE}*sin(2*PI*{BEEP_HZ}*t)*({terms})':s={RATE}:d={WAV_SECONDS}",
                    "-ac", "1", "-c:a", "pcm_s16le", str(path)], check=True, timeout=60)
    return path


class Listener:
    """ffmpeg decoding the mount to 16 kHz mono s16le; every piece read is stamped with time.time()."""

    def __init__(self, url: str):
        self.started = time.time()
        self.process = subprocess.Popen(["ffmpeg", "-hide_banner", "-loglevel", "error", "-fflags", "nobuffer",
                                         "-i", url, "-ac", "1", "-ar", str(LISTEN_RATE), "-flush_packets", "1", "-f", "s16le", "-"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        self.pcm = bytearray()
        self.arrivals: list[tuple[float, int]] = []  # (wall time, samples received so far)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        fd = self.process.stdout.fileno()
        while True:
            piece = os.read(fd, 4096)
            if not piece:
                return
            now = time.time()
            self.pcm += piece
            self.arrivals.append((now, len(self.pcm) // 2))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.thread.join(timeout=5)

    def pieces(self) -> dict:
        """How the PCM came: pieces read, their median size and the median gap between them."""
        times = [t for t, _ in self.arrivals if t - self.started > BURST_SKIP]
        gaps = [b - a for a, b in zip(times, times[1:])]
        return {"bytes": len(self.pcm), "pieces": len(self.arrivals),
                "median_gap_ms": round(1000 * statistics.median(gaps), 1) if gaps else None,
                "max_gap_ms": round(1000 * max(gaps), 1) if gaps else None}

    def onsets(self) -> list[float]:
        """Wall-clock arrival of each beep onset heard (blocks of 5 ms above 0.05 after 400 ms quiet)."""
        count = len(self.pcm) // 2
        samples = memoryview(bytes(self.pcm[:count * 2])).cast("h")
        block = LISTEN_RATE // 200
        out, last_loud, k = [], -1e9, 0
        for start in range(0, count - block + 1, block):
            peak = max(abs(x) for x in samples[start:start + block]) / 32768
            if peak <= 0.05:
                continue
            at = start / LISTEN_RATE
            if at - last_loud > 0.4:
                while k < len(self.arrivals) and self.arrivals[k][1] <= start:
                    k += 1
                if k < len(self.arrivals):
                    arrival = self.arrivals[k][0]
                    if arrival - self.started > BURST_SKIP:
                        out.append(arrival)
            last_loud = at + block / LISTEN_RATE
        return out


def match(sent: list[float], heard: list[float], window: float = 0.3) -> list[float]:
    """Latencies: the offset (0–15 s) pairing most beeps within ±window (the listener's reads come
    in the server's batches, so arrivals spread over a batch interval), the smaller total distance
    breaking ties; then each beep with its nearest arrival within ±0.5 s of the pairs' median."""
    def score(d):
        pairs = [min((abs(y - x - d) for y in heard), default=1e9) for x in sent]
        near = [p for p in pairs if p <= window]
        return len(near), -sum(near)

    candidates = {round(h - s, 3) for s in sent for h in heard if 0 <= h - s <= 15}
    if not candidates:
        return []
    coarse = max(candidates, key=score)
    # the centre of the pairs' spread, not the one candidate that happened to score best
    pairs = [min(heard, key=lambda y: abs(y - x - coarse)) - x for x in sent]
    pairs = [p for p in pairs if abs(p - coarse) <= window]
    best = statistics.median(pairs) if pairs else coarse
    out = []
    for x in sent:
        # ±0.5 s: the spread of one path's latencies (a batch interval plus a recorder slice)
        # stays under it, and the next beep is at least 1.7 s away
        near = [y for y in heard if abs(y - x - best) <= 0.5]
        if near:
            out.append(min(near, key=lambda y: abs(y - x - best)) - x)
    return out


def summary(latencies: list[float]) -> dict:
    if not latencies:
        return {"beeps": 0, "median_ms": None, "p95_ms": None}
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"beeps": len(ordered), "median_ms": round(1000 * statistics.median(ordered), 1),
            "p95_ms": round(1000 * p95, 1), "min_ms": round(1000 * ordered[0], 1),
            "max_ms": round(1000 * ordered[-1], 1), "all_ms": [round(1000 * x, 1) for x in latencies]}


def process_kinds(pids) -> dict[int, str]:
    kinds = {}
    for pid in pids:
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        # Chromium's child processes rewrite their command line as one space-separated string.
        text = [part for a in args for part in a.decode(errors="replace").split(" ") if part]
        kind = next((a.split("=", 1)[1] for a in text if a.startswith("--type=")), None)
        sub = next((a.split("=", 1)[1] for a in text if a.startswith("--utility-sub-type=")), None)
        if "chromedriver" in (text[0] if text else ""):
            kind = "chromedriver"
        elif kind is None:
            kind = "browser"
        elif sub:
            kind = f"utility:{sub.rsplit('.', 1)[0]}"
        kinds[pid] = kind
    return kinds


class CpuReading:
    """Chromium's CPU (chromedriver left out) between start() and stop(), by process type."""

    def __init__(self, driver):
        self.root = driver.service.process.pid

    def start(self) -> None:
        self.before = cpu_seconds_by_process(self.root)
        self.t0 = time.monotonic()

    def stop(self) -> dict:
        after = cpu_seconds_by_process(self.root)
        wall = time.monotonic() - self.t0
        kinds = process_kinds(after)
        by_kind: dict[str, float] = {}
        for pid, t in after.items():
            kind = kinds.get(pid, "gone")
            if kind == "chromedriver":
                continue
            by_kind[kind] = by_kind.get(kind, 0.0) + t - self.before.get(pid, 0.0)
        total = sum(by_kind.values())
        return {"seconds": round(wall, 1), "percent_of_one_core": round(100 * total / wall, 1),
                "by_process_percent": {k: round(100 * v / wall, 1) for k, v in sorted(by_kind.items())}}


def launch(wav: Path):
    options = webdriver.ChromeOptions()
    options.binary_location = conftest.CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                     "--lang=en-US", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                     f"--use-file-for-fake-audio-capture={wav}", "--autoplay-policy=no-user-gesture-required"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=conftest.CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    return driver


def create_show(binary: str, data: Path, title: str) -> dict:
    out = subprocess.run([binary, "radio", "create-show", "--data", str(data), "--title", title, "--json"],
                         capture_output=True, text=True, check=True, timeout=30)
    return json.loads(out.stdout.strip().splitlines()[-1])


def state(driver) -> str:
    return driver.find_element(By.ID, "connection").get_attribute("data-state")


def wait_live(server, mount: str, timeout: float = 15) -> None:
    import requests
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stats = requests.get(server.url("/status-json.xsl"), timeout=5).json()["icestats"]
        sources = stats.get("source", [])
        sources = sources if isinstance(sources, list) else [sources]
        if any(e["listenurl"].endswith(mount) for e in sources):
            return
        time.sleep(0.1)
    raise SystemExit(f"bench-studio: {mount} did not go live")


def studio_latency(driver, server, show, seconds: float, cpu: CpuReading) -> tuple[dict, dict, list]:
    driver.find_element(By.ID, "record").click()
    conftest.wait(driver, lambda d: state(d) == "live", lambda: f"not on air: {state(driver)} "
                  f"{driver.find_element(By.ID, 'console-error').text} {driver.get_log('browser')[-5:]}", timeout=20)
    probe = driver.execute_script(PROBE)
    if probe != "ok":
        raise SystemExit(f"bench-studio: the page probe failed: {probe}")
    wait_live(server, show["mount"])
    listener = Listener(server.url(show["mount"]))
    cpu.start()
    time.sleep(seconds)
    mic_cpu = cpu.stop()
    listener.stop()
    sent = [x / 1000 for x in driver.execute_script("return window.__beeps")]
    skew = driver.execute_script("return window.__clockSkew")
    heard = listener.onsets()
    sent = [x for x in sent if x > listener.started + BURST_SKIP - 1]
    result = summary(match(sent, heard))
    result.update({"sent_s": [round(x - listener.started, 3) for x in sent],
                   "heard_s": [round(x - listener.started, 3) for x in heard],
                   "beeps_seen_in_page": len(sent), "beeps_heard": len(heard),
                   "page_clock_minus_date_now_ms": round(statistics.median(skew), 2) if skew else None,
                   "listener": listener.pieces()})
    return result, mic_cpu, heard


def load_decks(driver, songs) -> None:
    for name, song in zip(("a", "b"), songs):
        deck = driver.find_element(By.ID, f"deck-{name}")
        box = deck.find_element(By.CSS_SELECTOR, "input[type=search]")
        box.clear()
        box.send_keys(song["title"])
        deck.find_element(By.CSS_SELECTOR, ".deck-search button").click()
        conftest.wait(driver, lambda d: deck.find_elements(By.CSS_SELECTOR, ".deck-result"), "the deck search found nothing")
        deck.find_element(By.CSS_SELECTOR, ".deck-result").click()
        conftest.wait(driver, lambda d: deck.get_attribute("data-peaks") == "ready", "the waveform did not load", timeout=30)
    driver.execute_script("for (const d of window.quintetStudio.decks) d.audio.loop = true;"
                          "const f = document.querySelector('#crossfader'); f.value = '50';"
                          " f.dispatchEvent(new Event('input'));")
    for name in ("a", "b"):
        driver.find_element(By.CSS_SELECTOR, f"#deck-{name} .deck-play").click()
    conftest.wait(driver, lambda d: d.execute_script("return window.quintetStudio.decks.every((x) => !x.audio.paused"
                                                     " && x.audio.currentTime > 0.5)"), "the decks did not play", timeout=15)


class PacedSource:
    """The WAV looped and written to ffmpeg's stdin in real time (20 ms pieces); ffmpeg encodes
    MP3 and PUTs it to the mount. t0: the wall time of the first sample."""

    def __init__(self, wav: Path, url: str):
        with wave.open(str(wav)) as w:
            self.frames = w.readframes(w.getnframes())
        self.process = subprocess.Popen(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "s16le", "-ar", str(RATE),
                                         "-ac", "1", "-i", "-", "-c:a", "libmp3lame", "-b:a", "128k",
                                         "-content_type", "audio/mpeg", "-flush_packets", "1", "-f", "mp3", url],
                                        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.running = True
        self.t0 = None
        self.thread = threading.Thread(target=self._pace, daemon=True)
        self.thread.start()

    def _pace(self) -> None:
        piece = RATE // 50
        total = len(self.frames) // 2
        self.t0 = time.time()
        written = 0
        while self.running:
            due = self.t0 + (written + piece) / RATE
            delay = due - time.time()
            if delay > 0:
                time.sleep(delay)
            start = written % total
            chunk = self.frames[start * 2:(start + piece) * 2]
            try:
                self.process.stdin.write(chunk)
                self.process.stdin.flush()
            except (BrokenPipeError, ValueError):
                return
            written += piece

    def onsets_until(self, end: float) -> list[float]:
        out, loop = [], 0
        while True:
            for t in ONSETS:
                at = self.t0 + loop * WAV_SECONDS + t
                if at > end:
                    return out
                out.append(at)
            loop += 1

    def stop(self) -> None:
        self.running = False
        self.thread.join(timeout=5)
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def put_latency(server, show, wav: Path, seconds: float) -> dict:
    host_port = server.base_url.removeprefix("http://")
    source = PacedSource(wav, f"icecast://source:{show['key']}@{host_port}{show['mount']}")
    wait_live(server, show["mount"])
    listener = Listener(server.url(show["mount"]))
    time.sleep(seconds)
    listener.stop()
    end = time.time()
    source.stop()
    heard = listener.onsets()
    sent = [x for x in source.onsets_until(end) if x > listener.started + BURST_SKIP - 1]
    result = summary(match(sent, heard))
    result.update({"sent_s": [round(x - listener.started, 3) for x in sent],
                   "heard_s": [round(x - listener.started, 3) for x in heard],
                   "beeps_sent": len(sent), "beeps_heard": len(heard), "listener": listener.pieces()})
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=30, help="each CPU reading (default 30)")
    parser.add_argument("--listen", type=float, default=36, help="each latency reading (default 36)")
    parser.add_argument("--batch-ms", type=int, default=None,
                        help="the server's listener batch interval (--radio-batch-ms); default: the server's (500)")
    parser.add_argument("--binary-kind", default=os.environ.get("BENCH_BINARY_KIND", "release"))
    args = parser.parse_args()
    os.environ.setdefault("BENCH_LOAD_START", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    binary = str(conftest.quintet_binary())
    import requests
    with tempfile.TemporaryDirectory(prefix="quintet-bench-studio-") as tmp:
        folder = Path(tmp)
        wav = make_wav(folder)
        log(f"server {binary} ({args.binary_kind}); beeps {wav}")
        server = conftest.start_server(folder / "data", folder / "server.log",
                                       ("--radio-batch-ms", str(args.batch_ms)) if args.batch_ms else ())
        driver = None
        try:
            server.wait_for_library()
            songs = requests.get(server.url("/api/library/songs"), params={"limit": 40}, auth=server.admin,
                                 timeout=10).json()["songs"]
            songs = sorted((s for s in songs if s.get("duration")), key=lambda s: -s["duration"])[:2]
            studio_show = create_show(binary, folder / "data", "Bench Studio")
            put_show = create_show(binary, folder / "data", "Bench PUT")
            driver = launch(wav)
            version = driver.capabilities.get("browserVersion", "?")
            conftest.open_page(driver, server.url(f"/radio/studio/?show={studio_show['id']}"))
            conftest.wait(driver, lambda d: d.find_element(By.ID, "signin").is_displayed(), "no sign-in form")
            driver.find_element(By.ID, "signin-name").send_keys("admin")
            driver.find_element(By.ID, "signin-password").send_keys(conftest.ADMIN_PASSWORD)
            driver.find_element(By.ID, "signin-submit").click()
            conftest.wait(driver, lambda d: d.find_element(By.ID, "console").is_displayed()
                          and d.find_element(By.ID, "show").get_attribute("value") == str(studio_show["id"]),
                          "the console did not show")
            cpu = CpuReading(driver)
            time.sleep(2)
            log(f"CPU, idle (console open, not broadcasting), {args.seconds:g} s")
            cpu.start()
            time.sleep(args.seconds)
            idle = cpu.stop()
            log(f"studio latency: going live, listening {args.listen:g} s")
            studio, probed_cpu, _ = studio_latency(driver, server, studio_show, args.listen, cpu)
            # The probe (an analyser read every 5 ms) is the bench's, not the page's: stopped
            # before the CPU readings of the broadcast.
            driver.execute_script("clearInterval(window.__probe)")
            log(f"CPU, broadcasting with the microphone, {args.seconds:g} s")
            time.sleep(1)
            cpu.start()
            time.sleep(args.seconds)
            mic_cpu = cpu.stop()
            log(f"CPU, broadcasting with the microphone and both decks ({songs[0]['title']}, {songs[1]['title']}), "
                f"{args.seconds:g} s")
            load_decks(driver, songs)
            time.sleep(1)
            cpu.start()
            time.sleep(args.seconds)
            decks_cpu = cpu.stop()
            decks_live = driver.execute_script("return window.quintetStudio.decks.map((x) => !x.audio.paused)")
            connection = state(driver)
            driver.find_element(By.ID, "record").click()
            conftest.wait(driver, lambda d: state(d) == "idle", "the broadcast did not stop", timeout=15)
            log(f"PUT latency: ffmpeg → {put_show['mount']}, listening {args.listen:g} s")
            put = put_latency(server, put_show, wav, args.listen)
        finally:
            if driver is not None:
                driver.quit()
            conftest.stop_server(server)

    ratio = (studio["median_ms"] / put["median_ms"]) if studio["median_ms"] and put["median_ms"] else None
    cores = os.cpu_count()
    load_end = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print()
    print(f"Mouth-to-ear latency (server: {args.binary_kind} build, listener batches {args.batch_ms or 500} ms; Chromium {version}; {cores} cores, load "
          f"{os.environ['BENCH_LOAD_START']} → {load_end}):")
    for name, r in (("studio (page → WebSocket → MP3)", studio), ("ffmpeg PUT (MP3)", put)):
        print(f"  {name:34} median {r['median_ms']} ms, p95 {r['p95_ms']} ms over {r['beeps']} beeps"
              f" (min {r.get('min_ms')}, max {r.get('max_ms')})")
    print(f"  studio / PUT (medians): {ratio:.2f}" if ratio else "  studio / PUT: n/a")
    print(f"Chromium CPU, % of one core over {args.seconds:g} s:")
    for name, r in (("idle (console open)", idle), ("broadcasting, microphone", mic_cpu),
                    ("broadcasting, microphone + 2 decks", decks_cpu)):
        print(f"  {name:36} {r['percent_of_one_core']:6.1f} %   {r['by_process_percent']}")
    print(f"  (decks playing at the end: {decks_live}; connection {connection})")
    if studio["beeps"] < 10 or put["beeps"] < 10:
        print("bench-studio: fewer than 10 beeps matched on a path: the latency figures are not reliable", file=sys.stderr)

    bench_result.write(
        "studio",
        figures={
            "studio_latency_median_ms": bench_result.figure(studio["median_ms"], "ms", "quintet studio"),
            "studio_latency_p95_ms": bench_result.figure(studio["p95_ms"], "ms", "quintet studio"),
            "put_latency_median_ms": bench_result.figure(put["median_ms"], "ms", "ffmpeg PUT"),
            "put_latency_p95_ms": bench_result.figure(put["p95_ms"], "ms", "ffmpeg PUT"),
            "page_cpu_idle_percent": bench_result.figure(idle["percent_of_one_core"], "% of one core", "chromium"),
            "page_cpu_mic_percent": bench_result.figure(mic_cpu["percent_of_one_core"], "% of one core", "chromium"),
            "page_cpu_two_decks_percent": bench_result.figure(decks_cpu["percent_of_one_core"], "% of one core", "chromium"),
        },
        ratios={"studio_over_put_latency_median": round(ratio, 3) if ratio else None,
                "studio_over_put_latency_p95": round(studio["p95_ms"] / put["p95_ms"], 3)
                if studio["p95_ms"] and put["p95_ms"] else None},
        parameters={"radio_batch_ms": args.batch_ms or 500, "cpu_seconds": args.seconds, "listen_seconds": args.listen, "server_build": args.binary_kind,
                    "chromium": version, "beep": f"{BEEP_HZ} Hz, {int(BEEP_S * 1000)} ms, amplitude {AMPLITUDE}",
                    "recorder_slice_ms": 250, "put_source": "ffmpeg libmp3lame 128k -flush_packets 1, paced stdin"},
        details={"studio": studio, "put": put, "cpu": {"idle": idle, "mic": mic_cpu, "two_decks": decks_cpu,
                                                          "mic_with_latency_probe": probed_cpu},
                 "decks_playing_at_end": decks_live, "songs": [s["title"] for s in songs]},
    )


if __name__ == "__main__":
    main()
