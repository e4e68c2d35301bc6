"""HTTPS in `quintet serve` (issue 18, section 1), against the real binary:

- `--tls-self-signed --http-port`: a private CA made in the data folder; pages and API over
  HTTPS verified against that CA (by IP address and by `localhost`); the plain port redirects
  pages and serves the trust page and the CA; the fingerprint printed, shown and served agree.
- A client offering only TLS 1.0 is refused (a hand-made ClientHello, with the same hello at
  TLS 1.2 as the control that gets a ServerHello).
- `--tls-cert/--tls-key`: bad files refused at start naming the file and the problem; SIGHUP
  with a new certificate changes what new connections see while an open HTTPS listener of a
  live broadcast keeps receiving; ffmpeg sends (icecast:// with -tls 1) and receives (https://)
  the broadcast.
- Chromium with the server's key trusted for the run (`--ignore-certificate-errors-spki-list`):
  `window.isSecureContext` on every page, the runner's live socket over wss, a radio listener
  over https.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import signal
import socket
import ssl
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from conftest import (ADMIN_PASSWORD, ARTIFACTS, CHROMEDRIVER, CHROMIUM, REPO, START_TIMEOUT, STOP_TIMEOUT,
                      free_port, open_page, quintet_binary, severe_console_entries, tail, wait)
from test_radio_live import create_show, make_mp3, need_ffmpeg

PAGES = ["/", "/library/", "/runner/", "/radio/", "/crowd/", "/playground/"]


@dataclass
class TLSServer:
    port: int
    http_port: int | None
    data_dir: Path
    log_path: Path
    process: subprocess.Popen
    verify: str | bool

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"https://{host}:{self.port}{path}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    @property
    def admin(self) -> tuple[str, str]:
        return ("admin", ADMIN_PASSWORD)


def serve_command(data_dir: Path, port: int, *extra: str) -> list[str]:
    return [str(quintet_binary()), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data_dir),
            "--web", str(REPO / "Web"), "--log-level", "info", "--musicbrainz", "off", *extra]


def start_tls_server(data_dir: Path, log_path: Path, *extra: str, http_port: int | None = None,
                     verify: str | None = None) -> TLSServer:
    """Starts `quintet serve` with TLS and waits until /healthz answers over HTTPS, verified
    against `verify` (a CA or certificate file; default: the private CA in the data folder)."""
    port = free_port()
    args = list(extra) + (["--http-port", str(http_port)] if http_port else [])
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        process = subprocess.Popen(serve_command(data_dir, port, *args), stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, env=dict(os.environ, QUINTET_ADMIN_PASSWORD=ADMIN_PASSWORD))
    running = TLSServer(port, http_port, data_dir, log_path, process, verify or str(data_dir / "tls" / "ca.pem"))

    def healthy(server):
        if process.poll() is not None:
            pytest.fail(f"quintet serve exited with {process.returncode}:\n{tail(server.log())}")
        try:
            return requests.get(server.url("/healthz"), timeout=2, verify=server.verify).status_code == 200
        except (requests.RequestException, OSError):
            return False

    try:
        wait(running, healthy, lambda: f"/healthz did not answer over HTTPS:\n{tail(running.log())}", timeout=START_TIMEOUT)
    except pytest.fail.Exception:
        process.kill()
        process.wait()
        raise
    return running


def stop(server: TLSServer) -> None:
    server.process.send_signal(signal.SIGTERM)
    try:
        code = server.process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
        pytest.fail(f"quintet serve did not stop after SIGTERM:\n{tail(server.log())}")
    assert code == 0, f"quintet serve exited with {code}:\n{tail(server.log())}"


def der_of(pem_text: str) -> bytes:
    body = re.search(r"-----BEGIN CERTIFICATE-----(.+?)-----END CERTIFICATE-----", pem_text, re.S).group(1)
    return base64.b64decode("".join(body.split()))


def colon_hex(digest: bytes) -> str:
    return ":".join(f"{b:02X}" for b in digest)


def spki_hash(pem_path: Path) -> str:
    """base64(SHA-256(SubjectPublicKeyInfo)) of the first certificate in `pem_path`, as Chromium's
    --ignore-certificate-errors-spki-list wants it (openssl does the DER work)."""
    public = subprocess.run(["openssl", "x509", "-in", str(pem_path), "-pubkey", "-noout"],
                            check=True, capture_output=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=public,
                         check=True, capture_output=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def make_certificate(folder: Path, name: str, days: int = 2) -> tuple[Path, Path]:
    """A self-signed EC certificate for 127.0.0.1 and localhost, made by openssl."""
    certificate, key = folder / f"{name}.pem", folder / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", str(key), "-out", str(certificate), "-days", str(days), "-subj", f"/CN={name}",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True, timeout=30)
    return certificate, key


def make_expired_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate valid in January 2020 only (`openssl ca` sets past dates;
    OpenSSL 3.0's `req` cannot)."""
    work = folder / "expired-ca"
    work.mkdir()
    key, request, certificate = work / "old.key", work / "old.csr", work / "old.pem"
    subprocess.run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", str(key), "-out", str(request), "-subj", "/CN=old"], check=True, capture_output=True)
    (work / "index.txt").write_text("")
    (work / "serial").write_text("01\n")
    (work / "ca.cnf").write_text("[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\nnew_certs_dir = .\n"
                                 "serial = serial\ndefault_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n")
    subprocess.run(["openssl", "ca", "-batch", "-config", "ca.cnf", "-selfsign", "-keyfile", str(key), "-in", str(request),
                    "-startdate", "20200101000000Z", "-enddate", "20200201000000Z", "-out", str(certificate), "-notext"],
                   check=True, capture_output=True, cwd=work)
    return certificate, key


# MARK: the private CA and the plain port

@pytest.fixture(scope="module")
def private(tmp_path_factory):
    server = start_tls_server(tmp_path_factory.mktemp("tls-private"), ARTIFACTS / "tls-private.log",
                              "--tls-self-signed", http_port=free_port())
    yield server
    stop(server)


def test_pages_and_api_over_https_verified_against_the_private_ca(private):
    for host in ("127.0.0.1", "localhost"):
        page = requests.get(private.url("/", host), timeout=10, verify=private.verify)
        assert page.status_code == 200 and "<html" in page.text.lower()
    api = requests.get(private.url("/api/library/scan"), auth=private.admin, timeout=10, verify=private.verify)
    assert api.status_code == 200 and "state" in api.json()
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(private.url("/healthz"), timeout=10)  # the system's trust store does not know the CA
    # The session cookie of an HTTPS server is Secure: a browser never sends it over plain HTTP.
    name, password = private.admin
    signed = requests.post(private.url("/api/session"), json={"name": name, "password": password}, timeout=10,
                           verify=private.verify)
    assert signed.status_code == 200, signed.text
    cookie = signed.headers["Set-Cookie"]
    assert cookie.startswith("quintet_session=") and "secure" in cookie.lower() and "httponly" in cookie.lower(), cookie


def test_the_printed_shown_and_served_fingerprints_agree(private):
    ca_pem = (private.data_dir / "tls" / "ca.pem").read_text()
    fingerprint = colon_hex(hashlib.sha256(der_of(ca_pem)).digest())
    assert f"Private CA SHA-256 fingerprint {fingerprint}" in private.log()
    assert f"/tls/" in private.log() and f"Open https://127.0.0.1:{private.port}/" in private.log()
    for base in (f"http://127.0.0.1:{private.http_port}", f"https://127.0.0.1:{private.port}"):
        page = requests.get(base + "/tls/", timeout=10, verify=private.verify)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert fingerprint in page.text and "{{" not in page.text
        pem = requests.get(base + "/tls/ca.pem", timeout=10, verify=private.verify)
        assert pem.status_code == 200 and der_of(pem.text) == der_of(ca_pem)
        crt = requests.get(base + "/tls/ca.crt", timeout=10, verify=private.verify)
        assert crt.headers["content-type"] == "application/x-x509-ca-cert" and crt.content == der_of(ca_pem)
    # The server certificate names this machine: localhost, loopback, the interfaces' addresses.
    served = ssl.get_server_certificate(("127.0.0.1", private.port))
    text = subprocess.run(["openssl", "x509", "-noout", "-ext", "subjectAltName,basicConstraints,extendedKeyUsage"],
                          input=served.encode(), capture_output=True, check=True).stdout.decode()
    assert "DNS:localhost" in text and "IP Address:127.0.0.1" in text and "CA:FALSE" in text and "TLS Web Server" in text


def test_the_plain_port_redirects_pages_to_https(private):
    plain = f"http://127.0.0.1:{private.http_port}"
    page = requests.get(plain + "/library/?view=albums", allow_redirects=False, timeout=10)
    assert page.status_code == 301
    assert page.headers["location"] == f"https://127.0.0.1:{private.port}/library/?view=albums"
    posted = requests.post(plain + "/api/crowd/reports", data=b"{}", allow_redirects=False, timeout=10)
    assert posted.status_code == 308 and posted.headers["location"].startswith("https://127.0.0.1:")
    hostile = requests.get(plain + "/", headers={"Host": "evil.example/x?"}, allow_redirects=False, timeout=10)
    assert hostile.status_code in (301, 400)
    if hostile.status_code == 301:
        assert hostile.headers["location"].startswith("https://localhost:")
    followed = requests.get(plain + "/radio/", timeout=10, verify=private.verify)
    assert followed.status_code == 200 and followed.url == private.url("/radio/")


def client_hello(version: int) -> bytes:
    """A minimal TLS ClientHello offering `version` (0x0301 = TLS 1.0, 0x0303 = TLS 1.2) with
    ECDHE-ECDSA suites (the server's key is P-256), written out by hand so that the test does not
    depend on what the local OpenSSL is still willing to send."""
    def extension(kind: int, data: bytes) -> bytes:
        return struct.pack(">HH", kind, len(data)) + data
    suites = [0xC02B, 0xC02C, 0xC009, 0xC00A]  # AES-GCM (1.2) and AES-CBC-SHA (1.0) with ECDSA
    extensions = (extension(0x000A, struct.pack(">HH", 2, 0x0017))          # supported_groups: P-256
                  + extension(0x000B, b"\x01\x00")                          # ec_point_formats: uncompressed
                  + extension(0x000D, struct.pack(">HHH", 4, 0x0403, 0x0203)))  # signature_algorithms
    body = (struct.pack(">H", version) + os.urandom(32) + b"\x00"
            + struct.pack(">H", 2 * len(suites)) + b"".join(struct.pack(">H", s) for s in suites)
            + b"\x01\x00" + struct.pack(">H", len(extensions)) + extensions)
    handshake = b"\x01" + len(body).to_bytes(3, "big") + body
    return b"\x16" + struct.pack(">HH", 0x0301, len(handshake)) + handshake


def first_record(port: int, hello: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(hello)
        answer = b""
        while len(answer) < 7:
            piece = sock.recv(7 - len(answer))
            if not piece:
                break
            answer += piece
        return answer


def test_a_client_offering_only_tls_1_0_is_refused(private):
    control = first_record(private.port, client_hello(0x0303))
    assert control[:1] == b"\x16" and control[5:6] == b"\x02", f"TLS 1.2 hello not answered with a ServerHello: {control!r}"
    refused = first_record(private.port, client_hello(0x0301))
    # An alert (protocol_version, 70) or a closed connection; never a ServerHello.
    assert refused == b"" or (refused[:1] == b"\x15" and refused[6:7] in (b"\x46", b"\x28")), refused


# MARK: given certificate files

def test_bad_certificate_files_are_refused_at_start_naming_the_file(tmp_path):
    good_certificate, good_key = make_certificate(tmp_path, "good")
    _, other_key = make_certificate(tmp_path, "other")
    expired_certificate, expired_key = make_expired_certificate(tmp_path)
    garbage = tmp_path / "garbage.pem"
    garbage.write_bytes(b"\x00\x01not a certificate\n")
    cases = [
        (["--tls-cert", str(garbage), "--tls-key", str(good_key)], [str(garbage), "no PEM certificate"]),
        (["--tls-cert", str(tmp_path / "missing.pem"), "--tls-key", str(good_key)], ["missing.pem", "cannot read"]),
        (["--tls-cert", str(good_certificate), "--tls-key", str(garbage)], [str(garbage), "not a PEM private key"]),
        (["--tls-cert", str(good_certificate), "--tls-key", str(other_key)], [str(other_key), "does not belong"]),
        (["--tls-cert", str(expired_certificate), "--tls-key", str(expired_key)], [str(expired_certificate), "expired"]),
        (["--tls-cert", str(good_certificate)], ["--tls-cert needs --tls-key"]),
        (["--http-port", "0"], ["--http-port", "HTTPS"]),
    ]
    for number, (flags, wanted) in enumerate(cases):
        ran = subprocess.run(serve_command(tmp_path / f"data{number}", free_port(), *flags),
                             capture_output=True, text=True, timeout=60)
        assert ran.returncode != 0, flags
        for piece in wanted:
            assert piece in ran.stderr, f"{flags}: {piece!r} not in {ran.stderr!r}"


def test_sighup_changes_the_certificate_without_dropping_a_listener_ffmpeg_over_tls(tmp_path):
    need_ffmpeg()
    first, first_key = make_certificate(tmp_path, "first")
    second, second_key = make_certificate(tmp_path, "second")
    live_certificate, live_key = tmp_path / "live.pem", tmp_path / "live.key"
    live_certificate.write_bytes(first.read_bytes())
    live_key.write_bytes(first_key.read_bytes())
    server = start_tls_server(tmp_path / "data", ARTIFACTS / "tls-files.log", "--tls-cert", str(live_certificate),
                              "--tls-key", str(live_key), verify=str(first))
    source = None
    try:
        show = create_show(server, "TLS Live")
        mp3 = make_mp3(tmp_path / "tone.mp3", 30)
        # ffmpeg as the Icecast source over TLS.
        source = subprocess.Popen(
            ["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-i", str(mp3), "-c:a", "copy",
             "-content_type", "audio/mpeg", "-tls", "1", "-f", "mp3",
             f"icecast://source:{show['key']}@127.0.0.1:{server.port}{show['mount']}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)

        def listening(s):
            try:
                answer = requests.get(s.url(show["mount"]), stream=True, timeout=10, verify=str(first))
            except requests.RequestException:
                return None
            if answer.status_code == 200:
                return answer
            answer.close()
            return None
        listener = wait(server, listening, lambda: f"the mount did not go live over TLS:\n{tail(server.log())}", timeout=20)
        chunks = listener.iter_content(chunk_size=4096)
        received = sum(len(next(chunks)) for _ in range(4))
        assert received > 0
        assert der_of(ssl.get_server_certificate(("127.0.0.1", server.port))) == der_of(first.read_text())

        live_certificate.write_bytes(second.read_bytes())
        live_key.write_bytes(second_key.read_bytes())
        server.process.send_signal(signal.SIGHUP)
        wait(server, lambda s: der_of(ssl.get_server_certificate(("127.0.0.1", s.port))) == der_of(second.read_text()),
             lambda: f"SIGHUP did not change the certificate:\n{tail(server.log())}", timeout=10)
        # The log line follows the swap (the context is replaced first): wait for it, under load it lags.
        wait(server, lambda s: "certificate re-read" in s.log(), lambda: f"no re-read logged:\n{tail(server.log())}",
             timeout=10)
        assert server.process.poll() is None
        # The listener that connected before the change still receives the broadcast.
        before = received
        while received < before + 48_000:
            received += len(next(chunks))
        listener.close()
        # ffmpeg as a listener over https decodes the broadcast.
        decoded = subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-i", server.url(show["mount"]),
                                  "-t", "2", "-f", "wav", "-"], capture_output=True, timeout=60)
        assert decoded.returncode == 0, decoded.stderr.decode(errors="replace")
        assert len(decoded.stdout) > 2 * 44_100 * 2  # more than a second of 16-bit stereo
        # A bad file on SIGHUP keeps the certificate in use.
        live_key.write_text("not a key\n")
        server.process.send_signal(signal.SIGHUP)
        wait(server, lambda s: "the certificate was not changed" in s.log(), "a bad key on SIGHUP was not reported")
        assert der_of(ssl.get_server_certificate(("127.0.0.1", server.port))) == der_of(second.read_text())
    finally:
        if source is not None:
            source.kill()
            source.wait()
        stop(server)


# MARK: Chromium

@pytest.fixture(scope="module")
def tls_browser(private):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    trusted = spki_hash(private.data_dir / "tls" / "server.pem")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=390,844",
                     "--lang=en-US", "--autoplay-policy=no-user-gesture-required",
                     f"--ignore-certificate-errors-spki-list={trusted}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER,
                                              log_output=str(ARTIFACTS / "chromedriver-tls.log")), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def test_every_page_is_a_secure_context(private, tls_browser):
    for path in PAGES:
        open_page(tls_browser, private.url(path))
        assert tls_browser.execute_script("return location.protocol") == "https:", path
        assert tls_browser.execute_script("return window.isSecureContext") is True, path
        assert severe_console_entries(tls_browser) == [], path


def test_runner_live_socket_over_wss(private, tls_browser):
    wait(private, lambda s: requests.get(s.url("/api/library/scan"), auth=s.admin, timeout=5,
                                         verify=s.verify).json().get("last_scan"), "the library was not scanned", timeout=180)
    d = tls_browser
    open_page(d, private.url("/runner/"))

    def shown(selector):
        found = d.find_elements(By.CSS_SELECTOR, selector)
        return bool(found) and found[0].is_displayed()
    wait(d, lambda _: shown("#run-signin") or shown("#run-app"), "neither sign-in nor the run shown")
    if shown("#run-signin"):
        d.find_element(By.CSS_SELECTOR, "#run-signin-name").send_keys("admin")
        d.find_element(By.CSS_SELECTOR, "#run-signin-password").send_keys(ADMIN_PASSWORD)
        d.find_element(By.CSS_SELECTOR, "#run-signin-submit").click()
    wait(d, lambda _: shown("#run-app"), "the run did not appear after signing in")
    d.execute_script("""
        const source = document.querySelector('#run-source'); source.value = 'simulate';
        source.dispatchEvent(new Event('change'));
        const slider = document.querySelector('#run-simulate-spm'); slider.value = '164';
        slider.dispatchEvent(new Event('input'));""")
    d.find_element(By.CSS_SELECTOR, "#run-start").click()

    def cadence(_):
        try:
            return float(d.find_element(By.CSS_SELECTOR, "#run-spm").text)
        except ValueError:
            return None
    value = wait(d, cadence, "no cadence came back over the wss socket", timeout=30)
    assert 150 <= value <= 178
    d.find_element(By.CSS_SELECTOR, "#run-stop").click()


def test_radio_listener_over_https_in_the_browser(private, tls_browser, tmp_path):
    need_ffmpeg()
    show = create_show(private, "Browser TLS")
    mp3 = make_mp3(tmp_path / "tone.mp3", 20)
    source = subprocess.Popen(
        ["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-i", str(mp3), "-c:a", "copy",
         "-content_type", "audio/mpeg", "-tls", "1", "-f", "mp3",
         f"icecast://source:{show['key']}@127.0.0.1:{private.port}{show['mount']}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        def live(s):
            with requests.get(s.url(show["mount"]), stream=True, timeout=5, verify=s.verify) as answer:
                return answer.status_code == 200
        wait(private, live, "the mount did not go live", timeout=20)
        open_page(tls_browser, private.url("/radio/"))
        tls_browser.execute_script(
            "window.__listener = new Audio(arguments[0]); window.__listener.play()", show["mount"])
        wait(tls_browser, lambda d: d.execute_script("return window.__listener.currentTime") > 1.0,
             "the browser did not play the broadcast over https", timeout=20)
        tls_browser.execute_script("window.__listener.pause()")
    finally:
        source.kill()
        source.wait()
