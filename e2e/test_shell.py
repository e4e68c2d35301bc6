"""The server and the web shell, seen by real clients: HTTP requests and headless Chromium."""

from __future__ import annotations

import struct
from contextlib import contextmanager
from urllib.parse import urlparse

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families
from selenium.webdriver.common.by import By

from conftest import ARTIFACTS, open_page, severe_console_entries, wait, wait_until_ready

SYSTEMS = ["library", "runner", "radio", "crowd", "playground"]
DESKTOP = (1280, 900)  # CSS pixels, the viewport of the desktop screenshot
PHONE = (390, 844)  # CSS pixels, an iPhone 12–15 portrait viewport


# --- HTTP -------------------------------------------------------------------------------


def test_healthz_answers_ok(server):
    response = requests.get(server.url("/healthz"), timeout=5)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("application/json")
    assert response.json()["status"] == "ok"


def test_metrics_is_prometheus_text_with_request_durations(server):
    requests.get(server.url("/healthz"), timeout=5).raise_for_status()
    response = requests.get(server.url("/metrics"), timeout=5)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    families = list(text_string_to_metric_families(response.text))
    names = [family.name for family in families]
    assert any(name.startswith("http_server_request_duration") for name in names), names
    durations = next(f for f in families if f.name.startswith("http_server_request_duration"))
    routes = {sample.labels.get("http_route") for sample in durations.samples}
    assert "/healthz" in routes, routes


def test_unknown_route_is_json_404(server):
    response = requests.get(server.url("/no/such/page"), timeout=5)
    assert response.status_code == 404
    assert response.headers["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == "not_found"
    assert isinstance(error["message"], str) and error["message"]


# --- Home page in Chromium --------------------------------------------------------------


# Where each card leads: the system's page, or for the playground its story (issue 23).
ENTRY = {"playground": "/playground/story/"}


def cards(driver):
    return driver.find_elements(By.CSS_SELECTOR, "li.card[data-system]")


def test_home_page_shows_five_system_cards(server, browser):
    open_page(browser, server.url("/"))
    found = cards(browser)
    assert [card.get_attribute("data-system") for card in found] == SYSTEMS
    for card in found:
        system = card.get_attribute("data-system")
        link = card.find_element(By.TAG_NAME, "a")
        assert urlparse(link.get_attribute("href")).path == ENTRY.get(system, f"/{system}/")
        assert card.find_element(By.TAG_NAME, "h2").text.strip(), f"card {system} has no title"


def test_home_page_has_no_console_errors(server, browser):
    open_page(browser, server.url("/"))
    assert browser.find_element(By.TAG_NAME, "h1").text.strip()
    status = browser.find_element(By.CSS_SELECTOR, "#server-status")
    assert status.get_attribute("data-state") == "ok", status.text
    assert severe_console_entries(browser) == []


@pytest.mark.parametrize("system", SYSTEMS)
def test_card_link_opens_its_page(server, browser, system):
    open_page(browser, server.url("/"))
    link = browser.find_element(By.CSS_SELECTOR, f'li.card[data-system="{system}"] a')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    entry = ENTRY.get(system, f"/{system}/")
    wait(browser, lambda d: urlparse(d.current_url).path == entry,
         f"clicking the {system} card did not open {entry}", timeout=10)
    wait_until_ready(browser)
    assert urlparse(browser.current_url).path == entry
    # textContent: the story's title is in its splash, which is gone after a moment.
    assert browser.find_element(By.TAG_NAME, "h1").get_attribute("textContent").strip(), f"{entry} has an empty h1"
    assert severe_console_entries(browser) == []


def test_home_page_in_italian(server, browser):
    open_page(browser, server.url("/?lang=it"))
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "it"
    title = browser.find_element(By.CSS_SELECTOR, 'li.card[data-system="crowd"] h2')
    assert title.text.strip() == "Folla"
    assert severe_console_entries(browser) == []


# --- Phone viewport and screenshots -----------------------------------------------------


@contextmanager
def viewport(driver, width: int, height: int, mobile: bool):
    """Emulates a viewport of width×height CSS pixels (a phone's when mobile) until the block ends."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5})
    try:
        yield driver
    finally:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.fixture
def phone(browser):
    """The browser as a phone (390×844 viewport, touch, mobile layout) for one test."""
    with viewport(browser, *PHONE, mobile=True) as driver:
        yield driver


def test_home_page_on_a_phone_stacks_cards_without_horizontal_scroll(server, phone):
    open_page(phone, server.url("/"))
    assert phone.execute_script("return window.innerWidth") == PHONE[0]
    lefts = [card.rect["x"] for card in cards(phone)]
    assert len(lefts) == 5
    assert max(lefts) - min(lefts) < 1, f"cards are not in one column: x = {lefts}"
    tops = [card.rect["y"] for card in cards(phone)]
    assert tops == sorted(tops) and len(set(tops)) == 5, f"cards are not stacked: y = {tops}"
    scroll_width, inner_width = phone.execute_script(
        "return [document.scrollingElement.scrollWidth, window.innerWidth]")
    assert scroll_width <= inner_width, f"horizontal scroll: {scroll_width} > {inner_width}"
    assert severe_console_entries(phone) == []


def png_size(path) -> tuple[int, int]:
    """Width and height of a PNG file, read from its IHDR chunk; fails if it is not a PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_screenshot_of_home_page_on_desktop(server, browser):
    path = ARTIFACTS / "home.png"
    path.unlink(missing_ok=True)
    with viewport(browser, *DESKTOP, mobile=False):
        open_page(browser, server.url("/"))
        assert browser.save_screenshot(str(path))
    assert path.stat().st_size > 0
    assert png_size(path) == DESKTOP


def test_screenshot_of_home_page_on_a_phone(server, phone):
    open_page(phone, server.url("/"))
    path = ARTIFACTS / "home-phone.png"
    path.unlink(missing_ok=True)
    assert phone.save_screenshot(str(path))
    assert path.stat().st_size > 0
    assert png_size(path) == PHONE
