"""Web/common, the pages' one toolbox, in a real Chromium and in the sources: every page talks
to the server through common/api.js (JSON and raw bodies such as a chosen file), builds and
formats with common/dom.js and common/format.js (plurals by Intl.PluralRules), keeps no copy of
them, and announces results instead of making lists or whole views aria-live regions."""

from __future__ import annotations

import re
from pathlib import Path

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import REPO, open_page, severe_console_entries
from test_radio_live import create_show, make_mp3, need_ffmpeg, start_source, wait_live

WEB = REPO / "Web"
WAIT = 15  # seconds


def wait(driver, condition, message, timeout=WAIT):
    return WebDriverWait(driver, timeout).until(condition, message=message)


def page_scripts() -> list[Path]:
    """The pages' own scripts: every .js under Web/ except Web/common/ and the service worker
    (Web/sw.js runs in no page: it answers the pages' requests with fetch() and the cache)."""
    return [p for p in sorted(WEB.rglob("*.js")) if WEB / "common" not in p.parents and p != WEB / "sw.js"]


def run_module(driver, body: str):
    """Runs body (an async function body with `arguments` of its own) in the page; returns its
    value, or fails with the error it threw."""
    answer = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        f"(async () => {{ {body} }})().then((value) => done({{ value }}),"
        " (err) => done({ error: String(err && err.stack || err) }));")
    assert "error" not in answer, answer.get("error")
    return answer["value"]


# --- The sources ----------------------------------------------------------------------------


def test_page_scripts_keep_no_copy_of_the_common_toolbox():
    scripts = page_scripts()
    assert scripts, f"no page scripts under {WEB}"
    copies = {
        "fetch(": r"\bfetch\(",
        "new WebSocket": r"\bnew WebSocket\b",
        "XMLHttpRequest": r"\bXMLHttpRequest\b",
        "a $ helper": r"\bconst \$\s*=",
        "an el() helper": r"\bfunction el\(",
        "a plural() helper": r"\bfunction plural\(",
        "a lang() helper": r"\bfunction lang\(",
        "a number() helper": r"\bfunction number\(",
        "a duration() helper": r"\bfunction duration\(",
        "an SVG namespace": r"http://www\.w3\.org/2000/svg",
        "a plural by count === 1": r"===\s*1\s*\?\s*\"one\"",
    }
    found = [f"{p.relative_to(REPO)}: {name}" for p in scripts for name, pattern in copies.items()
             if re.search(pattern, p.read_text())]
    assert found == []


def test_page_sources_have_no_live_lists_or_views():
    """aria-live only on a short status line (p or span), never on a list, table, section or div."""
    pattern = re.compile(r"<(\w+)[^>]*\baria-live=", re.IGNORECASE)
    found = [f"{p.relative_to(REPO)}: <{m.group(1)}>" for p in sorted(WEB.rglob("*.html"))
             for m in pattern.finditer(p.read_text()) if m.group(1).lower() not in ("p", "span")]
    assert found == []
    scripts = [p for p in sorted(WEB.rglob("*.js"))]
    assert [str(p.relative_to(REPO)) for p in scripts if "aria-live" in p.read_text()] == []


def test_page_css_keeps_one_visually_hidden_rule():
    defining = [str(p.relative_to(REPO)) for p in sorted(WEB.rglob("*.css")) if ".visually-hidden {" in p.read_text()]
    assert defining == ["Web/common/style.css"]


# --- In the browser -------------------------------------------------------------------------


def test_page_plurals_follow_intl_plural_rules(server, browser):
    open_page(browser, server.url("/?lang=it"))
    italian = run_module(browser, """
        const { plural } = await import("/common/format.js");
        return [0, 1, 2, 1000000].map((n) => plural("library.count.songs", n));""")
    # Italian has a "many" form for a million (CLDR); without a string of its own it uses "other".
    assert italian == ["0 brani", "1 brano", "2 brani", "1.000.000 brani"]
    open_page(browser, server.url("/?lang=en"))
    english = run_module(browser, """
        const { plural, duration } = await import("/common/format.js");
        return [[0, 1, 2, 1234].map((n) => plural("crowd.send.own", n, { id: 7 })), duration(3725), duration(null)];""")
    assert english == [["You are in location 7, 0 people.", "You are in location 7, 1 person.",
                        "You are in location 7, 2 people.", "You are in location 7, 1,234 people."], "1:02:05", "—"]
    assert severe_console_entries(browser) == []


def test_page_api_sends_raw_bodies_with_their_type(server, browser):
    open_page(browser, server.url("/runner/"))
    sent = run_module(browser, """
        const { api } = await import("/common/api.js");
        const real = window.fetch, calls = [];
        window.fetch = (path, init) => { calls.push(init); return real(path, init); };
        try {
          const blob = new Blob(["time,x,y,z\\n0,0,0,1\\n0.01,zero,0,1\\n"], { type: "text/csv" });
          let error = null;
          try { await api("/api/runner/cadence", { method: "POST", body: blob }); }
          catch (err) { error = { name: err.name, status: err.status, code: err.code, message: err.message }; }
          await api("/api/runner/cadence", { method: "POST", body: new Uint8Array([1, 2]) }).catch(() => null);
          await api("/api/runner/cadence", { method: "POST", body: blob, headers: { "Content-Type": "text/plain" } }).catch(() => null);
          await api("/healthz");
          return { error, sameBlob: calls[0].body === blob,
                   types: calls.map((c) => c.headers["Content-Type"] || null),
                   requestedWith: calls.map((c) => c.headers["X-Requested-With"]) };
        } finally { window.fetch = real; }""")
    assert sent["sameBlob"], "the Blob was not sent as it is"
    assert sent["types"] == ["text/csv", "application/octet-stream", "text/plain", None]
    assert sent["requestedWith"] == ["quintet"] * 4
    error = sent["error"]
    assert error["name"] == "APIError" and error["status"] == 400 and error["code"] == "invalid_log"
    assert "line 3" in error["message"]
    # Chromium logs the 400s asked for on purpose as failed resources.
    unexpected = [e for e in severe_console_entries(browser)
                  if not ("/api/runner/cadence" in e["message"] and "status of 400" in e["message"])]
    assert unexpected == []


def test_library_page_announces_search_counts_not_the_view(server, browser):
    server.wait_for_library()
    open_page(browser, server.url("/library/"))
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#signin").is_displayed()
         or d.find_element(By.CSS_SELECTOR, "#library-app").is_displayed(), "neither sign-in nor library shown")
    if browser.find_element(By.CSS_SELECTOR, "#signin").is_displayed():
        name, password = server.admin
        browser.find_element(By.CSS_SELECTOR, "#signin-name").send_keys(name)
        browser.find_element(By.CSS_SELECTOR, "#signin-password").send_keys(password)
        browser.find_element(By.CSS_SELECTOR, "#signin-submit").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#artists a"), "no artists listed")
    assert browser.find_element(By.CSS_SELECTOR, "#view").get_attribute("aria-live") is None
    browser.find_element(By.CSS_SELECTOR, "#search").send_keys("Glass River")
    announced = lambda d: d.execute_script("return document.querySelector('#announcer').textContent")  # noqa: E731
    wait(browser, lambda d: announced(d).startswith("Found "), "the search's counts were not announced")
    counts = {kind: len(requests.get(server.url(f"/api/library/{kind}?q=Glass%20River"), auth=server.admin,
                                     timeout=10).json()[kind]) for kind in ("artists", "albums", "songs")}
    words = {kind: f"{n} {kind if n != 1 else kind[:-1]}" for kind, n in counts.items()}
    assert counts["songs"] >= 1
    assert announced(browser) == f"Found {words['artists']}, {words['albums']} and {words['songs']}."
    announcer = browser.find_element(By.CSS_SELECTOR, "#announcer")
    assert announcer.get_attribute("role") == "status"
    assert announcer.size["width"] <= 1 and announcer.size["height"] <= 1, "the announcer is visible"
    assert severe_console_entries(browser) == []


def test_radio_page_announces_a_change_of_what_is_live_not_the_list(server, browser, tmp_path):
    need_ffmpeg()
    show = create_show(server, "Announced Show")
    mp3 = make_mp3(tmp_path / "live.mp3", 40, 550)
    open_page(browser, server.url("/radio/"))
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#live").get_attribute("aria-busy") == "false",
         "the live list did not load")
    assert browser.find_element(By.CSS_SELECTOR, "#live-list").get_attribute("aria-live") is None
    announced = lambda d: d.execute_script("return document.querySelector('#announcer').textContent")  # noqa: E731
    assert announced(browser) == "", "the first answer is what the page shows, not a change to announce"
    source = start_source(server, show, mp3)
    try:
        wait_live(server, show["mount"])
        # The page asks every 10 s.
        wait(browser, lambda d: re.fullmatch(r"\d+ broadcasts? live now\.", announced(d)),
             f"no announcement of the broadcast: {announced(browser)!r}", timeout=25)
        shown = browser.find_elements(By.CSS_SELECTOR, "#live-list li[data-mount]")
        count = int(announced(browser).split()[0])
        assert count == len(shown) >= 1
    finally:
        source.terminate()
        source.wait(timeout=10)
    assert severe_console_entries(browser) == []
