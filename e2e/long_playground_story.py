"""The story's acceptance path as issue 23 writes it (`make e2e-long`): the child's path through
the whole story in Italian, English and French at the games' real speed, a screenshot of every
page on a 1024 × 768 tablet viewport (e2e/artifacts/story/), and the frame rate of each page in
headless Chromium (median of requestAnimationFrame over 3 s; the target is ≥ 55 fps)."""

from __future__ import annotations

import json

import pytest

from conftest import ARTIFACTS
from story_path import LANGUAGES, PAGES, child_path, story_browser


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_whole_story_in_each_language(server, lang):
    shots = ARTIFACTS / "story"
    shots.mkdir(parents=True, exist_ok=True)
    driver = story_browser()
    try:
        fps: dict[str, float] = {}
        progress = child_path(driver, server.url("").rstrip("/"), lang, speed=1, shots=shots, fps=fps, timeout=240)
        assert progress["lang"] == lang
        print(f"\n{lang}: median fps per page " + json.dumps({page: round(fps[page], 1) for page in PAGES}))
        (ARTIFACTS / f"story-fps-{lang}.json").write_text(json.dumps(fps, indent=2))
        slow = {page: round(value, 1) for page, value in fps.items() if value < 55}
        assert not slow, f"pages under 55 fps: {slow}"
    finally:
        driver.quit()
