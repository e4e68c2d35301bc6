#!/usr/bin/env python3
"""Takes docs/playground.md's pictures of /playground/: a 1024×768 tablet and a 390×844 phone.

Run it with the e2e venv after `make wasm` (it needs Web/playground/playground.wasm and the
atlases), against the debug build (QUINTET_BIN for another binary):

    e2e/.venv/bin/python scripts/playground-screenshots.py [--web DIR] [--seed N]

It starts its own `quintet serve` with an empty library and a fresh data folder, opens
/playground/?seed=N on each viewport (the phone at device pixel ratio 2), lets the game run
two seconds and saves docs/images/playground-tablet.png and docs/images/playground-phone.png.
Not part of `make test`: the pictures are documentation, refreshed by hand when the game
changes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "e2e"))


import conftest  # noqa: E402
from conftest import wait  # noqa: E402

# name, CSS width and height, mobile, device pixel ratio (the tablet's at 1: the meadow's texture
# makes a 2048×1536 PNG weigh over a megabyte).
VIEWPORTS = [("tablet", 1024, 768, False, 1), ("phone", 390, 844, True, 2)]
RUN_SECONDS = 2.0


def device(width: int, height: int, mobile: bool, ratio: int):
    return conftest.device_browser(width, height, ratio=ratio, mobile=mobile)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--web", type=Path, default=REPO / "Web", help="the Web folder to serve")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "images")
    args = parser.parse_args()
    if not (args.web / "playground" / "playground.wasm").is_file():
        print(f"no {args.web / 'playground' / 'playground.wasm'}: run `make wasm` first", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        library = Path(tmp) / "music"
        library.mkdir()
        server = conftest.start_server(Path(tmp) / "data", Path(tmp) / "server.log",
                                       ("--library", str(library), "--web", str(args.web.resolve())))
        try:
            for name, width, height, mobile, ratio in VIEWPORTS:
                driver = device(width, height, mobile, ratio)
                try:
                    driver.get(server.url(f"/playground/?seed={args.seed}"))
                    state = lambda d: d.execute_script(  # noqa: E731
                        "return document.querySelector('main.playground')?.dataset.state")
                    wait(driver, lambda d: state(d) in ("running", "error"), "the page did not load the game")
                    if state(driver) != "running":
                        said = driver.execute_script("return document.querySelector('#pg-state').innerText")
                        print(f"{name}: the page says: {said}", file=sys.stderr)
                        return 1
                    time.sleep(RUN_SECONDS)  # the game runs for the picture, not a wait for a state
                    path = args.out / f"playground-{name}.png"
                    driver.save_screenshot(str(path))
                    print(f"wrote {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")
                finally:
                    driver.quit()
        finally:
            conftest.stop_server(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
