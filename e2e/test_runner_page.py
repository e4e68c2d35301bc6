"""The runner page in a real Chromium: a run on simulated steps through /api/runner/live
(cadence shown, songs of the demo library chosen and played, next, pause, stop), and a
sensor log's cadence drawn from POST /api/runner/cadence."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from conftest import open_page, severe_console_entries, wait
from test_cadence import write_log



@pytest.fixture(scope="module")
def runner_page(server, browser):
    server.wait_for_library()
    open_page(browser, server.url("/runner/"))
    wait(browser, lambda d: shown(d, "#run-signin") or shown(d, "#run-app"), "neither sign-in nor the run shown")
    if shown(browser, "#run-signin"):
        name, password = server.admin
        browser.find_element(By.CSS_SELECTOR, "#run-signin-name").send_keys(name)
        browser.find_element(By.CSS_SELECTOR, "#run-signin-password").send_keys(password)
        browser.find_element(By.CSS_SELECTOR, "#run-signin-submit").click()
    wait(browser, lambda d: shown(d, "#run-app"), "the run did not appear after signing in")
    return browser


def shown(driver, selector: str) -> bool:
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    return bool(found) and found[0].is_displayed()


def text(driver, selector: str) -> str:
    return driver.find_element(By.CSS_SELECTOR, selector).text


def spm(driver) -> float | None:
    try:
        return float(text(driver, "#run-spm"))
    except ValueError:
        return None


def test_a_run_on_simulated_steps_plays_songs_that_fit(runner_page):
    d = runner_page
    d.execute_script("""
        const source = document.querySelector('#run-source'); source.value = 'simulate';
        source.dispatchEvent(new Event('change'));
        const slider = document.querySelector('#run-simulate-spm'); slider.value = '164';
        slider.dispatchEvent(new Event('input'));""")
    assert text(d, "#run-simulate-value") == "164"
    d.find_element(By.CSS_SELECTOR, "#run-start").click()
    wait(d, lambda d: (spm(d) or 0) > 0, "no cadence shown")
    wait(d, lambda d: abs((spm(d) or 0) - 164) <= 4, f"the cadence shown is not about 164: {text(d, '#run-spm')}")
    assert text(d, "#run-state") == "running"
    wait(d, lambda d: shown(d, "#run-song") and text(d, "#run-song-title"), "no song chosen")
    audio = d.find_element(By.CSS_SELECTOR, "#run-audio")
    first = audio.get_attribute("data-song-id")
    assert audio.get_attribute("src").endswith(f"/api/library/songs/{first}/stream")
    tempo = text(d, "#run-song-tempo")  # "128 BPM, heard at 128 against your 165 steps per minute"
    assert "BPM, heard at" in tempo and "steps per minute" in tempo, tempo

    d.find_element(By.CSS_SELECTOR, "#run-next").click()
    wait(d, lambda d: audio.get_attribute("data-song-id") != first, "Next song did not change the song")

    d.find_element(By.CSS_SELECTOR, "#run-pause").click()
    wait(d, lambda d: text(d, "#run-status") == "Paused.", "pause was not confirmed")
    assert text(d, "#run-pause") == "Resume"
    d.find_element(By.CSS_SELECTOR, "#run-pause").click()
    wait(d, lambda d: text(d, "#run-status") == "Running.", "resume was not confirmed")

    d.find_element(By.CSS_SELECTOR, "#run-stop").click()
    wait(d, lambda d: text(d, "#run-status") == "Stopped.", "stop was not confirmed")
    assert d.find_element(By.CSS_SELECTOR, "#run-start").is_enabled()
    assert not d.find_element(By.CSS_SELECTOR, "#run-next").is_enabled()
    assert severe_console_entries(d) == []


def test_a_sensor_log_gives_its_cadence_and_a_chart(runner_page, tmp_path):
    d = runner_page
    log = tmp_path / "Accelerometer.csv"
    write_log(log, still=10, running=30, spm=172)
    d.find_element(By.CSS_SELECTOR, "#log-file").send_keys(str(log))
    wait(d, lambda d: shown(d, "#log-result"), f"no result: {text(d, '#log-status')}")
    assert abs(float(text(d, "#log-cadence")) - 172) <= 3
    assert "seconds in motion" in text(d, "#log-summary")
    path = d.find_element(By.CSS_SELECTOR, "#log-chart path").get_attribute("d")
    assert path.startswith("M") and path.count("L") > 20

    bad = tmp_path / "broken.csv"
    bad.write_text("time,x,y,z\n0,0,0,1\n0.01,zero,0,1\n")
    d.find_element(By.CSS_SELECTOR, "#log-file").send_keys(str(bad))
    wait(d, lambda d: "line 3" in text(d, "#log-status"), f"no line-numbered error: {text(d, '#log-status')}")
    assert not shown(d, "#log-result")
    # Chromium logs the 400 of the broken log as a failed resource: that one is expected.
    unexpected = [e for e in severe_console_entries(d)
                  if not ("/api/runner/cadence" in e["message"] and "status of 400" in e["message"])]
    assert unexpected == []
