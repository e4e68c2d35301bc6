"""Fixtures of the e2e suite: a real `quintet serve` and a real headless Chromium.

The server runs the binary named by QUINTET_BIN (default .build/debug/quintet) on a free
loopback port with a fresh data folder; its output goes to e2e/artifacts/server.log.
The browser is Debian's chromium driven by Debian's chromedriver through Selenium; the
driver path is given explicitly, so Selenium Manager never tries to download anything.
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
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "e2e" / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
START_TIMEOUT = 30  # seconds until /healthz must answer 200
ADMIN_PASSWORD = os.environ.get("QUINTET_ADMIN_PASSWORD", "e2e-admin-password")  # the first start creates `admin`
STOP_TIMEOUT = 15  # seconds between SIGTERM and exit


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "bug(text): a known bug of Quintet the test exposes; the test fails until it is fixed")


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
        deadline = time.monotonic() + timeout
        while True:
            status = requests.get(self.url("/api/library/scan"), auth=self.admin, timeout=5).json()
            if status.get("state") == "idle" and status.get("last_scan"):
                return status
            if status.get("failure"):
                pytest.fail(f"the library scan failed: {status['failure']}")
            if time.monotonic() > deadline:
                pytest.fail(f"the library was not scanned within {timeout} s: {status}")
            time.sleep(0.25)


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
    that folder instead of the demo library."""
    binary = quintet_binary()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    port = free_port()
    command = [
        str(binary), "serve",
        "--host", "127.0.0.1", "--port", str(port),
        "--data", str(data_dir), "--web", str(REPO / "Web"),
        "--log-level", "info",
        *extra_args,
    ]
    env = dict(os.environ, QUINTET_ADMIN_PASSWORD=ADMIN_PASSWORD)
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    running = Server(f"http://127.0.0.1:{port}", data_dir, log_path, process)

    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            pytest.fail(f"quintet serve exited with {process.returncode} before answering:\n{tail(running.log())}")
        try:
            if requests.get(running.url("/healthz"), timeout=1).status_code == 200:
                break
        except requests.RequestException:
            pass
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            pytest.fail(f"/healthz did not answer 200 within {START_TIMEOUT} s:\n{tail(running.log())}")
        time.sleep(0.1)
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
    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script(
            "return document.readyState === 'complete'"
            " && document.querySelector('#server-status[data-state]') !== null"
        ),
        message="the page did not finish loading (no #server-status[data-state])",
    )
