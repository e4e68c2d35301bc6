// The runner page's run: accelerometer samples (the phone's, or simulated steps) go to the
// /api/runner/live WebSocket; its cadence readings and song choices come back and play.
// During a run the screen is kept on (phone.js), the song shows on the lock screen with its
// buttons, the run's time counts and its songs are listed (songs.js).
import { api, APIError, socket } from "/common/api.js";
import { $ } from "/common/dom.js";
import { duration } from "/common/format.js";
import { t } from "/common/i18n.js";
import { keepAwake, letSleep, mediaControls, playbackState, showSong } from "/runner/phone.js";
import { loadSongs, newRun, songHooks, songPlayed } from "/runner/songs.js";

const ui = {
  signin: $("#run-signin"), signinName: $("#run-signin-name"), signinPassword: $("#run-signin-password"),
  signinSubmit: $("#run-signin-submit"), app: $("#run-app"),
  source: $("#run-source"), simulateRow: $("#run-simulate-row"), simulateSPM: $("#run-simulate-spm"),
  simulateValue: $("#run-simulate-value"), mode: $("#run-mode"), sprint: $("#run-sprint"), auto: $("#run-auto"),
  start: $("#run-start"), pause: $("#run-pause"), next: $("#run-next"), stop: $("#run-stop"),
  status: $("#run-status"), spm: $("#run-spm"), state: $("#run-state"), steps: $("#run-steps"),
  song: $("#run-song"), songTitle: $("#run-song-title"), songArtist: $("#run-song-artist"),
  songTempo: $("#run-song-tempo"), songReason: $("#run-song-reason"), audio: $("#run-audio"),
  elapsed: $("#run-elapsed"), sensorHelp: $("#run-sensor-help"), library: $("#run-library"),
  insecure: $("#run-insecure"),
};

const SEND_EVERY_MS = 500;      // samples go out twice a second
const START_AFTER_MS = 6000;    // start without a cadence if none has come by then

let run = null; // { ws, state, buffer, sensor, timer, startTimer }

// --- Elapsed time: the time spent running (pauses excluded), m:ss then h:mm:ss --------------

const clock = { total: 0, since: null, timer: null };

function clockRunning(on) {
  const now = performance.now();
  if (on && clock.since === null) clock.since = now;
  if (!on && clock.since !== null) { clock.total += now - clock.since; clock.since = null; }
  showElapsed();
}

function elapsedSeconds() {
  return (clock.total + (clock.since === null ? 0 : performance.now() - clock.since)) / 1000;
}

function showElapsed() {
  ui.elapsed.textContent = duration(Math.floor(elapsedSeconds()));
}

function resetClock() {
  clock.total = 0;
  clock.since = null;
  clearInterval(clock.timer);
  clock.timer = setInterval(showElapsed, 250);
  showElapsed();
}

function say(text, kind = "") {
  ui.status.textContent = text;
  ui.status.dataset.state = kind;
}

function setButtons(state) {
  const active = state === "running" || state === "paused" || state === "connecting" || state === "idle";
  ui.start.disabled = active;
  ui.pause.disabled = !(state === "running" || state === "paused");
  ui.pause.textContent = t(state === "paused" ? "run.resume" : "run.pause");
  ui.next.disabled = state !== "running";
  ui.stop.disabled = !active;
  for (const el of [ui.source, ui.mode]) el.disabled = active;
}

// --- Sign-in ------------------------------------------------------------------------------

async function boot() {
  ui.source.value = ("DeviceMotionEvent" in window && matchMedia("(pointer: coarse)").matches) ? "motion" : "simulate";
  showSource();
  try {
    const session = await api("/api/session");
    if (session.user) signedIn(); else showSignIn();
  } catch (err) {
    say(t("run.failed", { message: err.message }), "error");
  }
}

function showSignIn() {
  ui.app.hidden = true;
  ui.signin.hidden = false;
}

function signedIn() {
  ui.signin.hidden = true;
  ui.app.hidden = false;
  setButtons("none");
}

ui.signin.addEventListener("submit", async (event) => {
  event.preventDefault();
  ui.signinSubmit.disabled = true;
  try {
    await api("/api/session", { method: "POST",
      body: { name: ui.signinName.value.trim(), password: ui.signinPassword.value } });
    ui.signinPassword.value = "";
    say("");
    signedIn();
  } catch (err) {
    say(t("library.signin.failed", { message: err.message }), "error");
  } finally {
    ui.signinSubmit.disabled = false;
  }
});

// --- Sensors ------------------------------------------------------------------------------

function showSource() {
  ui.simulateRow.hidden = ui.source.value !== "simulate";
  // Browsers give motion events only to secure pages (HTTPS, or localhost).
  ui.insecure.hidden = !(ui.source.value === "motion" && !window.isSecureContext);
}
ui.source.addEventListener("change", () => { showSource(); ui.sensorHelp.hidden = true; });
ui.simulateSPM.addEventListener("input", () => { ui.simulateValue.textContent = ui.simulateSPM.value; });

/** Asks for the motion sensor where the browser wants it asked (iOS Safari 13+): must be
 *  called in the click itself, before anything is awaited. Resolves to true when allowed. */
async function motionPermission() {
  if (typeof DeviceMotionEvent === "undefined" || typeof DeviceMotionEvent.requestPermission !== "function") return true;
  try {
    return (await DeviceMotionEvent.requestPermission()) === "granted";
  } catch (_) {
    return false; // called outside a gesture, or refused before
  }
}

/** The phone's accelerometer (with gravity, m/s²), sample times in seconds. */
function motionSensor(push) {
  if (typeof DeviceMotionEvent === "undefined") throw new Error(t("run.noSensor"));
  const listener = (event) => {
    const a = event.accelerationIncludingGravity;
    if (!a || a.x === null) return;
    push([event.timeStamp / 1000, a.x, a.y, a.z]);
  };
  window.addEventListener("devicemotion", listener);
  return { stop() { window.removeEventListener("devicemotion", listener); } };
}

/** Steps at the slider's cadence: a heel strike and a bounce per step, 50 Hz, m/s², gravity
 *  along a tilted axis, with a little noise and step-to-step variation. */
function simulatedSensor(push) {
  const rate = 50, g = 9.80665;
  let clock = performance.now() / 1000, nextStep = clock, lastStep = clock, period = 60 / Number(ui.simulateSPM.value);
  const tick = () => {
    const now = performance.now() / 1000;
    while (clock + 1 / rate <= now) {
      clock += 1 / rate;
      if (clock >= nextStep) {
        lastStep = nextStep;
        period = 60 / Number(ui.simulateSPM.value);
        nextStep += period * (1 + 0.03 * (Math.random() * 2 - 1));
      }
      const tau = clock - lastStep;
      const vertical = 1.2 * Math.exp(-0.5 * ((tau - 0.03) / 0.02) ** 2) + 0.4 * Math.cos(2 * Math.PI * tau / period);
      const a = (1 + vertical) * g;
      const noise = () => 0.1 * (Math.random() * 2 - 1);
      push([clock, 0.3 * a + noise(), 0.5 * a + noise(), 0.812 * a + noise()]);
    }
  };
  const timer = setInterval(tick, 100);
  return { stop() { clearInterval(timer); } };
}

// --- The run ------------------------------------------------------------------------------

function send(message) {
  if (run && run.ws) run.ws.send(message);
}

function flush() {
  if (!run || run.buffer.length === 0) return;
  const samples = run.buffer.splice(0, 4000);
  send({ type: "samples", samples });
}

function startSensor() {
  const push = (sample) => { if (run && run.state !== "paused") run.buffer.push(sample); };
  run.sensor = ui.source.value === "motion" ? motionSensor(push) : simulatedSensor(push);
  run.timer = setInterval(flush, SEND_EVERY_MS);
}

function stopSensor() {
  if (!run) return;
  run.sensor?.stop();
  clearInterval(run.timer);
  run.buffer = [];
}

ui.start.addEventListener("click", async () => {
  if (run) return;
  const motion = ui.source.value === "motion";
  // Both need the click itself: iOS's sensor question, and playback on phones.
  const allowed = motion ? motionPermission() : Promise.resolve(true);
  ui.audio.play().catch(() => {});
  const current = run = { state: "asking", buffer: [], started: false };
  setButtons("connecting");
  ui.sensorHelp.hidden = true;
  const granted = await allowed;
  if (run !== current) return; // stopped while the question was open
  if (!granted) {
    run = null;
    setButtons("none");
    say(t("run.sensorDenied"), "error");
    ui.sensorHelp.hidden = false;
    return;
  }
  run.state = "connecting";
  say(t("run.connecting"));
  try {
    startSensor();
  } catch (err) {
    say(t("run.failed", { message: err.message }), "error");
    run = null;
    setButtons("none");
    return;
  }
  newRun();
  resetClock();
  keepAwake();
  // One socket per run: a closed socket ends the run (no reconnect).
  const ws = socket("/api/runner/live", {
    reconnect: false,
    onOpen: () => {
      if (!run || run.ws !== ws) { ws.close(); return; } // stopped while connecting
      send({ type: "settings", mode: ui.mode.value, sprint: ui.sprint.checked, auto_switch: ui.auto.checked });
      say(t("run.measuring"));
      run.startTimer = setTimeout(() => begin(), START_AFTER_MS);
    },
    onMessage: (message) => {
      if (message && typeof message === "object" && run && run.ws === ws) receive(message); // JSON only
    },
    onClose: () => {
      if (!run || run.ws !== ws) return; // this run was stopped here already
      const wasActive = run.state !== "stopped";
      finish();
      if (wasActive) say(t("run.closed"), "error");
    },
  });
  run.ws = ws;
});

/** Sends "start" once: at the first cadence, or after START_AFTER_MS without one. */
function begin() {
  if (!run || run.started) return;
  run.started = true;
  clearTimeout(run.startTimer);
  send({ type: "start" });
}

function receive(message) {
  if (!run) return; // a message of a run already stopped here
  switch (message.type) {
    case "ready":
      run.state = "idle";
      setButtons("idle");
      if (message.songs === 0) say(t("run.noSongs"), "error");
      break;
    case "cadence":
      ui.spm.textContent = message.spm === null ? "–" : message.spm.toFixed(0);
      ui.state.textContent = t(`run.state.${message.state}`);
      ui.steps.textContent = String(message.steps);
      if (message.spm !== null) begin();
      break;
    case "state":
      run.state = message.state;
      setButtons(message.state);
      clockRunning(message.state === "running");
      if (message.state === "running") say(t("run.running"));
      if (message.state === "paused") say(t("run.paused"));
      if (message.state === "stopped") say(t("run.stopped"));
      break;
    case "song":
      play(message);
      break;
    case "error":
      say(t("run.failed", { message: message.message }), "error");
      break;
  }
}

function play(choice) {
  ui.song.hidden = false;
  songPlayed(choice, elapsedSeconds());
  showSong(choice.song);
  if (!choice.song) {
    ui.songTitle.textContent = "—";
    ui.songArtist.textContent = "";
    ui.songTempo.textContent = "";
    ui.songReason.textContent = choice.reason || "";
    ui.audio.removeAttribute("src");
    return;
  }
  ui.songTitle.textContent = choice.song.title;
  ui.songArtist.textContent = choice.song.artist;
  ui.songTempo.textContent = choice.cadence === null
    ? t("run.tempo.random", { bpm: choice.song.bpm.toFixed(0) })
    : t("run.tempo", { bpm: choice.song.bpm.toFixed(0), heard: choice.effective_bpm.toFixed(0), target: choice.target_bpm.toFixed(0) });
  ui.songReason.textContent = choice.reason || "";
  ui.audio.src = choice.song.stream_url;
  ui.audio.dataset.songId = String(choice.song.id);
  ui.audio.play().catch(() => say(t("run.tapToPlay")));
}

// Sprint and auto-switch may change during a run; the server applies them to the next choice.
for (const box of [ui.sprint, ui.auto]) {
  box.addEventListener("change", () => send({ type: "settings", sprint: ui.sprint.checked, auto_switch: ui.auto.checked }));
}

ui.audio.addEventListener("ended", () => { if (run && run.state === "running") send({ type: "song_ended" }); });
ui.audio.addEventListener("play", () => playbackState("playing"));
ui.audio.addEventListener("pause", () => { if (run && !ui.audio.ended) playbackState("paused"); });

function next() {
  if (run && run.state === "running") send({ type: "next" });
}

function pause() {
  if (!run || run.state !== "running") return;
  send({ type: "pause" });
  run.buffer = [];
  ui.audio.pause();
}

function resume() {
  if (!run || run.state !== "paused") return;
  send({ type: "resume" });
  ui.audio.play().catch(() => {});
}

function stop() {
  if (!run) return;
  send({ type: "stop" });
  ui.audio.pause();
  finish();
  say(t("run.stopped"));
}

ui.next.addEventListener("click", next);
ui.pause.addEventListener("click", () => { if (run && run.state === "paused") resume(); else pause(); });
ui.stop.addEventListener("click", stop);
// The lock screen's and headphones' buttons.
mediaControls({
  play: () => { if (run && run.state === "paused") resume(); else if (run) ui.audio.play().catch(() => {}); },
  pause, nexttrack: next, stop,
});
// A song marked "never while running" while it plays is skipped at once.
songHooks({ onNever: (id) => { if (ui.audio.dataset.songId === String(id)) next(); } });
ui.library.addEventListener("toggle", () => { if (ui.library.open) loadSongs(); });

function finish() {
  if (!run) return;
  stopSensor();
  clearTimeout(run.startTimer);
  const ws = run.ws;
  run = null;
  setButtons("none");
  clockRunning(false);
  clearInterval(clock.timer);
  letSleep();
  playbackState("none");
  if (ws && ws.open) setTimeout(() => ws.close(), 1000);
}

ui.audio.addEventListener("error", () => {
  if (ui.audio.getAttribute("src")) say(t("run.failed", { message: t("run.playFailed") }), "error");
});

boot().catch((err) => {
  if (!(err instanceof APIError)) say(t("run.failed", { message: err.message }), "error");
});
