"""Fixtures of the e2e suite: a real `quintet serve` and a real headless Chromium.

The server runs the binary named by QUINTET_BIN (default .build/debug/quintet) on a free
loopback port with a fresh data folder; its output goes to e2e/artifacts/server.log.
The browser is Debian's chromium driven by Debian's chromedriver through Selenium; the
driver path is given explicitly, so Selenium Manager never tries to download anything.
Every test waits through `wait()` below: for a condition, with a deadline, never a fixed sleep.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "e2e" / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
START_TIMEOUT = 30  # seconds until /healthz must answer 200
ADMIN_PASSWORD = os.environ.get("QUINTET_ADMIN_PASSWORD", "e2e-admin-password")  # the first start creates `admin`
STOP_TIMEOUT = 15  # seconds between SIGTERM and exit
WAIT = 30  # seconds: wait()'s default deadline (only a failing test ever waits that long)


def wait(subject, condition, message, timeout: float = WAIT, interval: float = 0.05):
    """Waits until `condition(subject)` gives something truthy and returns it: the one way the
    suite waits for a page, a server or a process to reach a state (never a fixed sleep).

    `subject` is what the condition looks at (a WebDriver, a Server, anything; the signature of
    Selenium's waits). An element that is not there yet or was replaced meanwhile (a view
    re-rendered) counts as "not yet". After `timeout` seconds the test fails with `message`, a
    string or a function giving one (called then, so it can show the state at the deadline):

        wait(browser, lambda d: d.find_element(By.ID, "result").is_displayed(), "no result")
        status = wait(server, lambda s: scan_done(s), lambda: f"no scan: {scan_status(server)}")
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition(subject)
            if value:
                return value
        except (NoSuchElementException, StaleElementReferenceException):
            pass
        if time.monotonic() >= deadline:
            text = message() if callable(message) else message
            pytest.fail(f"{text} (waited {timeout:g} s)")
        time.sleep(interval)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "bug(text): a known bug of Quintet the test exposes; the test fails until it is fixed")
    config.addinivalue_line(
        "markers", "long: runs in `make e2e-long` only (`make test` deselects it with -m 'not long'): the "
        "same ground is covered more briefly in make test")


def pytest_sessionstart(session):
    """Builds Web/'s generated files (the apps' PNG icons, the service worker's precache.json)
    that are out of date, as `make e2e` does, so pytest started directly serves them too."""
    result = subprocess.run(["bash", str(REPO / "scripts" / "web-assets.sh")], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.exit(f"scripts/web-assets.sh failed:\n{result.stdout}{result.stderr}", returncode=2)


@dataclass
class Server:
    """A running `quintet serve`: where it listens, where it keeps data and logs."""

    base_url: str
    data_dir: Path
    log_path: Path
    process: subprocess.Popen

    def url(self, path: str) -> str:
        return self.base_url + path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    @property
    def admin(self) -> tuple[str, str]:
        """Basic-auth credentials of the `admin` user the first start created."""
        return ("admin", ADMIN_PASSWORD)

    def wait_for_library(self, timeout: float = 180) -> dict:
        """Waits until the library's first scan has finished (the demo library is written by
        ffmpeg first); returns GET /api/library/scan."""
        last = {}

        def scanned(server):
            nonlocal last
            last = requests.get(server.url("/api/library/scan"), auth=server.admin, timeout=5).json()
            if last.get("failure"):
                pytest.fail(f"the library scan failed: {last['failure']}")
            return last if last.get("state") == "idle" and last.get("last_scan") else None

        return wait(self, scanned, lambda: f"the library was not scanned: {last}", timeout=timeout, interval=0.25)


def free_port() -> int:
    """A loopback TCP port that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def quintet_binary() -> Path:
    path = Path(os.environ.get("QUINTET_BIN", REPO / ".build" / "debug" / "quintet")).resolve()
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.exit(
            f"quintet binary not found at {path}: build it with `swift build` "
            "(or `make build`) or point QUINTET_BIN at it",
            returncode=2,
        )
    return path


def tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.splitlines()[-lines:])


def start_server(data_dir: Path, log_path: Path, extra_args: tuple[str, ...] = ()) -> Server:
    """Starts `quintet serve` on a free loopback port with `data_dir` and waits for /healthz.

    `extra_args` are added to the command line, e.g. ("--library", "/some/folder") to serve
    that folder instead of the demo library. MusicBrainz lookups are off (no test reaches the
    internet) unless `extra_args` names `--musicbrainz`, e.g. a stand-in server's URL."""
    binary = quintet_binary()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    port = free_port()
    command = [
        str(binary), "serve",
        "--host", "127.0.0.1", "--port", str(port),
        "--data", str(data_dir), "--web", str(REPO / "Web"),
        "--log-level", "info",
        *(() if "--musicbrainz" in extra_args else ("--musicbrainz", "off")),
        *extra_args,
    ]
    env = dict(os.environ, QUINTET_ADMIN_PASSWORD=ADMIN_PASSWORD)
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    running = Server(f"http://127.0.0.1:{port}", data_dir, log_path, process)

    def healthy(server):
        if process.poll() is not None:
            pytest.fail(f"quintet serve exited with {process.returncode} before answering:\n{tail(server.log())}")
        try:
            return requests.get(server.url("/healthz"), timeout=1).status_code == 200
        except requests.RequestException:
            return False

    try:
        wait(running, healthy, lambda: f"/healthz did not answer 200:\n{tail(running.log())}", timeout=START_TIMEOUT)
    except pytest.fail.Exception:
        if process.poll() is None:
            process.kill()
            process.wait()
        raise
    return running


def stop_server(running: Server) -> None:
    """Stops a server with SIGTERM and checks a clean exit (code 0, database closed cleanly)."""
    process = running.process
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail(f"quintet serve did not stop within {STOP_TIMEOUT} s of SIGTERM:\n{tail(running.log())}")
    log_text = running.log()
    assert code == 0, f"quintet serve exited with {code} after SIGTERM:\n{tail(log_text)}"
    assert "database closed cleanly" in log_text, f"no clean database close in the log:\n{tail(log_text)}"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory):
    """Starts `quintet serve` once for the session and stops it with SIGTERM at the end."""
    running = start_server(tmp_path_factory.mktemp("quintet-data"), ARTIFACTS / "server.log")
    yield running
    stop_server(running)


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole session (desktop size 1280×900)."""
    yield from launch_browser()


def launch_browser():
    """A headless Chromium (desktop size 1280×900), quit when the generator is closed. Test files
    that drive touch through CDP take one of their own (a module fixture named `browser`): after
    other files' pages, Chromium delivered no CDP touch events to a later page of the session."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            pytest.exit(f"{path} is missing: run `bash scripts/bootstrap.sh` (apt-get install chromium chromium-driver)",
                        returncode=2)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--lang=en-US"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=CHROMEDRIVER, log_output=str(ARTIFACTS / "chromedriver.log"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def device_browser(width: int, height: int, *, ratio: int = 1, mobile: bool = False, touch: bool = False,
                   arguments: tuple[str, ...] = ()):
    """A headless Chromium whose window and viewport are width × height CSS pixels of `ratio`
    device pixels each (a phone when `mobile`, with touch emulation when `touch`): the scripts
    that take the docs' pictures or time pages (scripts/*-screenshots.py, bench-explorer) use it;
    the caller quits it."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--lang=en-US",
                     f"--window-size={width},{height}", "--hide-scrollbars", *arguments):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": ratio, "mobile": mobile})
    if touch:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    return driver


def severe_console_entries(driver) -> list[dict]:
    """SEVERE entries of the browser console since the last call (reading empties the buffer)."""
    return [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def open_page(driver, url: str) -> None:
    """Loads url and waits until the shared page script has run (the server status is shown)."""
    severe_console_entries(driver)  # forget what earlier pages logged
    driver.get(url)
    wait_until_ready(driver)


def wait_until_ready(driver, timeout: float = 10) -> None:
    """Waits for the document to load and for page.js to fill in the server status."""
    wait(driver, lambda d: d.execute_script(
        "return document.readyState === 'complete'"
        " && document.querySelector('#server-status[data-state]') !== null"),
        "the page did not finish loading (no #server-status[data-state])", timeout=timeout)


def scroll_to(driver, top_expression: str) -> None:
    """Scrolls the window instantly to the JavaScript expression `top_expression` (clamped as the
    browser clamps it) and waits until the window is there, e.g. before a screenshot."""
    target = driver.execute_script(
        f"const top = Math.max(0, Math.min({top_expression},"
        " document.documentElement.scrollHeight - innerHeight));"
        " scrollTo({top, behavior: 'instant'}); return top")
    wait(driver, lambda d: abs(d.execute_script("return scrollY") - target) < 1,
         lambda: f"the window did not scroll to {target} (at {driver.execute_script('return scrollY')})")
