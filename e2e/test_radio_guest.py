"""A hosted guest (issue 22 §3): the host's studio invites, a second Chromium opens the link
and joins with its (fake) microphone; the two connect over WebRTC with the server relaying only
the signalling; the guest's voice reaches the host's guest fader and meter and the mix, and the
guest hears the show. Refusals of the guest socket say why."""

from __future__ import annotations

import json

import pytest
import requests
import websocket
from selenium.webdriver.common.by import By

from conftest import open_page, severe_console_entries, wait
from test_radio_live import create_show, need_ffmpeg
from test_radio_studio import browser, fake_microphone_browser, sign_in_to_studio, visible  # noqa: F401


@pytest.fixture(scope="module")
def guest_browser():
    yield from fake_microphone_browser("chromedriver-guest.log")


def level(driver, meter: str) -> float:
    return float(driver.find_element(By.ID, meter).get_attribute("aria-valuenow"))


def test_a_guest_joins_over_webrtc_and_is_heard_in_the_mix(server, browser, guest_browser):  # noqa: F811
    need_ffmpeg()
    show = create_show(server, "E2E Studio Guest")
    sign_in_to_studio(browser, server, show)
    browser.find_element(By.ID, "mic-on").click()  # the host's microphone off: the guest is what moves the output
    browser.find_element(By.ID, "record").click()
    wait(browser, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "live", "not on air", timeout=15)
    invite = browser.find_element(By.ID, "invite")
    wait(browser, lambda d: invite.is_enabled(), "the invite button stayed disabled")
    invite.click()
    wait(browser, lambda d: visible(d, "#invite-row") and d.find_element(By.ID, "invite-link").get_attribute("value"),
         "no invitation link")
    link = browser.find_element(By.ID, "invite-link").get_attribute("value")
    assert "/radio/guest/?token=" in link
    open_page(guest_browser, link)
    guest_browser.find_element(By.ID, "guest-join").click()
    wait(guest_browser, lambda d: d.find_element(By.ID, "guest-show").text == "E2E Studio Guest", "the guest was not welcomed")
    wait(guest_browser, lambda d: d.find_element(By.ID, "guest-state").get_attribute("data-state") == "connected",
         lambda: f"the guest did not connect: {guest_browser.find_element(By.ID, 'guest-state').text}", timeout=20)
    wait(browser, lambda d: visible(d, "#guest-strip") and d.find_element(By.ID, "guest-state").get_attribute("data-state") == "connected",
         "the host does not show the guest connected", timeout=20)
    # The guest's fake microphone beeps: the host's guest meter and output meter move with it.
    wait(browser, lambda d: level(d, "guest-meter") > -40, "the guest's voice did not reach the guest meter", timeout=15)
    wait(browser, lambda d: level(d, "out-meter") > -40, "the guest's voice did not reach the mix", timeout=15)
    # The guest hears the show: its audio element plays the host's stream.
    wait(guest_browser, lambda d: d.execute_script("const a = document.querySelector('#guest-audio');"
                                                   " return !!a.srcObject && a.currentTime > 0.5"),
         "the guest does not hear the show", timeout=15)
    # The guest leaves: the host's guest strip goes.
    guest_browser.get("about:blank")
    wait(browser, lambda d: not visible(d, "#guest-strip"), "the host still shows the guest", timeout=15)
    browser.find_element(By.ID, "record").click()
    assert severe_console_entries(browser) == []


def test_guest_socket_refusals(server):
    base = server.base_url.replace("http://", "ws://")
    refused = websocket.create_connection(base + "/api/radio/guest?token=nope", timeout=10)
    try:
        message = json.loads(refused.recv())
        assert message["type"] == "error" and message["code"] == "unknown_invite", message
    finally:
        refused.close()
    plain = requests.get(server.url("/api/radio/guest"), timeout=10)
    assert plain.status_code == 426
