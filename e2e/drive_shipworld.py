"""Wins ShipWorld in a page that runs it, by tilt only: `win_shipworld(driver, timeout_s)`.

The page may be `/playground/?game=shipworld` or the story page: both expose the running game as
`window.quintetPlayground` (`events()`: the module's last 500 events) and read the device's
tilt from `deviceorientation` (Web/playground/input.js). The driver runs a closed loop inside
the page: every 50 ms it reads the boat's latest position (ShipWorld's event kind 6, sent every
250 ms of game time, x and y in stage points), finds the nearest point of the river's centre line
(the waypoints below, ShipRiver.waypoints in Sources/Playground/ShipWorldMap.swift, joined by
straight lines) and dispatches a `DeviceOrientationEvent` tipping the device 0.6 g toward the
point 110 points further down the river. It first dispatches a level reading (beta = gamma = 0),
which the game takes as level. It stops at the first "won" event (kind 3, at the dock)."""

from __future__ import annotations

# ShipRiver.waypoints (stage points), start to harbour; the last target is the dock.
WAYPOINTS = [(20, 110), (260, 118), (520, 108), (770, 136), (900, 236), (830, 352), (570, 384), (300, 372),
             (140, 452), (150, 584), (330, 652), (600, 652), (830, 628), (990, 625)]
DOCK = (915, 626)

DRIVE = """
const [waypoints, dock, timeoutMs, done] = arguments;
const game = window.quintetPlayground;
const tip = (beta, gamma) => dispatchEvent(new DeviceOrientationEvent("deviceorientation", { alpha: 0, beta, gamma }));
// The polyline's lengths, for "110 points further along".
const along = [0];
for (let i = 1; i < waypoints.length; i++) {
  along.push(along[i - 1] + Math.hypot(waypoints[i][0] - waypoints[i - 1][0], waypoints[i][1] - waypoints[i - 1][1]));
}
const total = along[along.length - 1];
function progress(x, y) {
  let best = Infinity, s = 0;
  for (let i = 0; i + 1 < waypoints.length; i++) {
    const [ax, ay] = waypoints[i], [bx, by] = waypoints[i + 1];
    const dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
    const d = Math.hypot(x - ax - t * dx, y - ay - t * dy);
    if (d < best) { best = d; s = along[i] + t * (along[i + 1] - along[i]); }
  }
  return s;
}
function pointAt(s) {
  if (s >= total - 60) return dock;
  let i = 0;
  while (i + 2 < along.length && along[i + 1] < s) i++;
  const t = (s - along[i]) / (along[i + 1] - along[i]);
  return [waypoints[i][0] + t * (waypoints[i + 1][0] - waypoints[i][0]), waypoints[i][1] + t * (waypoints[i + 1][1] - waypoints[i][1])];
}
const started = performance.now();
let tips = 0;
tip(0, 0);  // level first
const timer = setInterval(() => {
  const events = game.events();
  // ShipWorld's "won" is at the dock (another game's kind 3 left in the buffer is not).
  const won = events.find((e) => e.kind === 3 && Math.abs(e.x - dock[0]) < 1 && Math.abs(e.y - dock[1]) < 1);
  if (won) { clearInterval(timer); done({ won, tips, ms: performance.now() - started }); return; }
  if (performance.now() - started > timeoutMs) {
    clearInterval(timer);
    done({ error: `not in the harbour after ${timeoutMs} ms`, last: events.filter((e) => e.kind === 6).slice(-1)[0] });
    return;
  }
  const boat = events.filter((e) => e.kind === 6).slice(-1)[0];
  if (!boat || performance.now() - started < 300) return;
  const [tx, ty] = pointAt(progress(boat.x, boat.y) + 110);
  const dx = tx - boat.x, dy = ty - boat.y, len = Math.hypot(dx, dy) || 1;
  // The page turns (beta, gamma) into x = -cos(beta) sin(gamma), y = sin(beta): the game pushes
  // the boat along (-x, y), so tip toward (dx, dy) by 0.6 g.
  const g = 0.6, wantX = -g * dx / len, wantY = g * dy / len;
  const beta = Math.asin(wantY), gamma = Math.asin(-wantX / Math.cos(beta));
  tip((beta * 180) / Math.PI, (gamma * 180) / Math.PI);
  tips += 1;
}, 50);
"""


def win_shipworld(driver, timeout_s: float = 40) -> dict:
    """Steers the running ShipWorld to the harbour by DeviceOrientation events; returns
    {"won": the won event, "tips": orientation events sent, "ms": how long it took}, or raises
    AssertionError with the boat's last position."""
    driver.set_script_timeout(timeout_s + 10)
    answer = driver.execute_async_script(DRIVE, [list(p) for p in WAYPOINTS], list(DOCK), int(timeout_s * 1000))
    assert "error" not in answer, answer
    return answer
