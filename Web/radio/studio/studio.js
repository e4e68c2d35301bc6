// The radio studio (/radio/studio, issue 22): sign in, pick one of your shows, go live.
// The microphone goes through a Web Audio graph (gain, on/off, meters) into a
// MediaStreamDestination; MediaRecorder encodes the mix (WebM/Opus, Ogg/Opus where WebM is
// missing) in 250 ms slices, which go to the server's WebSocket ingest (/api/radio/ingest,
// docs/radio.md). A dropped socket reconnects by itself; what was captured meanwhile is kept
// and sent on the new socket as a valid stream of its own (units.js), so the broadcast and its
// episode continue within the server's grace period.
import { api, rawSocket } from "/common/api.js";
import { $, announce, el } from "/common/dom.js";
import { clock } from "/common/format.js";
import { t } from "/common/i18n.js";
import { Deck } from "/radio/studio/deck.js";
import { EffectPads } from "/radio/studio/effects.js";
import { LocalRecording, recordings, removeRecording, upload } from "/radio/studio/record-here.js";
import { StudioChat } from "/radio/studio/studio-chat.js";
import { GuestLink } from "/radio/studio/studio-guest.js";
import { StreamCutter } from "/radio/studio/units.js";

const SLICE_MS = 250;
const FLOOR_DB = -60;
const HOLD_MS = 1500;

const ui = {
  signin: $("#signin"), signinName: $("#signin-name"), signinPassword: $("#signin-password"),
  signinSubmit: $("#signin-submit"), signinError: $("#signin-error"),
  console: $("#console"), show: $("#show"), noShows: $("#no-shows"),
  record: $("#record"), elapsed: $("#elapsed"), left: $("#left"), connection: $("#connection"),
  network: $("#network"), error: $("#console-error"),
  micOn: $("#mic-on"), micGain: $("#mic-gain"), micGainValue: $("#mic-gain-value"),
  micMeter: $("#mic-meter"), micLevel: $("#mic-level"), outMeter: $("#out-meter"), outLevel: $("#out-level"),
  crossfader: $("#crossfader"), kept: $("#kept"), keptList: $("#kept-list"),
  invite: $("#invite"), inviteLink: $("#invite-link"), inviteRow: $("#invite-row"), guestStrip: $("#guest-strip"),
  guestGain: $("#guest-gain"), guestGainValue: $("#guest-gain-value"), guestState: $("#guest-state"),
  guestMeter: $("#guest-meter"), guestLevel: $("#guest-level"),
};

const state = {
  user: null,
  shows: [],
  audio: null, // the Web Audio graph, made on the first gesture that needs it (browsers want one)
  decks: [],
  broadcast: null, // the running broadcast
};

/** Exposed for the e2e tests and the curious: the running broadcast's counters. */
window.quintetStudio = state;

function showError(text) {
  ui.error.textContent = text || "";
  ui.error.hidden = !text;
}

function setConnection(key) {
  ui.connection.dataset.state = key;
  ui.connection.textContent = t(`studio.connection.${key}`);
}

// --- Signing in ------------------------------------------------------------------------------

async function start() {
  setConnection("idle");
  try {
    const session = await api("/api/session");
    if (session && session.user) await signedIn(session.user); else showSignIn();
  } catch (err) {
    showSignIn();
    ui.signinError.textContent = err.message;
    ui.signinError.hidden = false;
  }
}

function showSignIn() {
  ui.signin.hidden = false;
  ui.console.hidden = true;
}

async function signedIn(user) {
  state.user = user;
  ui.signin.hidden = true;
  ui.console.hidden = false;
  const answer = await api("/api/radio/shows");
  const shows = Array.isArray(answer && answer.shows) ? answer.shows : Array.isArray(answer) ? answer : [];
  state.shows = shows.filter((s) => user.role === "admin" || s.owner === user.name);
  ui.show.replaceChildren(...state.shows.map((s) => el("option", { value: String(s.id) }, s.title)));
  ui.noShows.hidden = state.shows.length > 0;
  ui.record.disabled = state.shows.length === 0;
  state.pads.load();
  showKept();
  const wanted = new URLSearchParams(location.search).get("show");
  if (wanted && state.shows.some((s) => String(s.id) === wanted)) ui.show.value = wanted;
}

ui.signin.addEventListener("submit", async (event) => {
  event.preventDefault();
  ui.signinSubmit.disabled = true;
  ui.signinError.hidden = true;
  try {
    const answer = await api("/api/session", { method: "POST",
      body: { name: ui.signinName.value.trim(), password: ui.signinPassword.value } });
    ui.signinPassword.value = "";
    await signedIn(answer.user);
  } catch (err) {
    ui.signinError.textContent = t("library.signin.failed", { message: err.message });
    ui.signinError.hidden = false;
  } finally {
    ui.signinSubmit.disabled = false;
  }
});

// --- The audio graph and meters ----------------------------------------------------------------

/** dB of a linear amplitude, floored. */
function decibels(x) {
  return x > 0 ? Math.max(FLOOR_DB, 20 * Math.log10(x)) : FLOOR_DB;
}

class Meter {
  constructor(context, node, element, label) {
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 2048;
    node.connect(this.analyser);
    this.samples = new Float32Array(this.analyser.fftSize);
    this.element = element;
    this.label = label;
    this.hold = FLOOR_DB;
    this.holdAt = 0;
    this.peak = FLOOR_DB;
    this.rms = FLOOR_DB;
  }

  update(now) {
    this.analyser.getFloatTimeDomainData(this.samples);
    let peak = 0, sum = 0;
    for (const x of this.samples) {
      const a = Math.abs(x);
      if (a > peak) peak = a;
      sum += x * x;
    }
    this.peak = decibels(peak);
    this.rms = decibels(Math.sqrt(sum / this.samples.length));
    if (this.peak >= this.hold || now - this.holdAt > HOLD_MS) {
      this.hold = this.peak;
      this.holdAt = now;
    }
    const width = (db) => `${((db - FLOOR_DB) / -FLOOR_DB) * 100}%`;
    this.element.querySelector(".rms").style.width = width(this.rms);
    this.element.querySelector(".peak").style.width = width(this.peak);
    this.element.querySelector(".hold").style.left = width(this.hold);
    this.element.setAttribute("aria-valuenow", this.peak.toFixed(0));
    this.label.textContent = this.peak <= FLOOR_DB ? "−∞ dBFS"
      : t("studio.meter.value", { peak: this.peak.toFixed(1), rms: this.rms.toFixed(1) });
  }
}

/** The Web Audio graph, made on the first gesture that needs it (Go live, a deck's first song):
 *  microphone → gain → on/off ┐
 *  deck A → equal-power A gain ├→ master → MediaStreamDestination (what MediaRecorder encodes)
 *  deck B → equal-power B gain ┤
 *  effect pads ───────────────┘
 *  The microphone joins when going live (it asks for permission). Nothing goes to the speakers. */
function graph() {
  if (state.audio) return state.audio;
  const context = new AudioContext();
  const micGain = context.createGain();
  const micSwitch = context.createGain();
  const master = context.createGain();
  const destination = context.createMediaStreamDestination();
  micGain.connect(micSwitch).connect(master).connect(destination);
  const decks = { a: context.createGain(), b: context.createGain() };
  decks.a.connect(master);
  decks.b.connect(master);
  const effects = context.createGain();
  effects.connect(master);
  // What a hosted guest hears: the show without their own voice.
  const minus = context.createMediaStreamDestination();
  for (const node of [micSwitch, decks.a, decks.b, effects]) node.connect(minus);
  const guestGain = context.createGain();
  guestGain.connect(master);
  const audio = {
    context, micGain, micSwitch, master, destination, decks, effects, minus, guestGain, mic: null,
    guestMeter: new Meter(context, guestGain, ui.guestMeter, ui.guestLevel),
    micMeter: new Meter(context, micSwitch, ui.micMeter, ui.micLevel),
    outMeter: new Meter(context, master, ui.outMeter, ui.outLevel),
  };
  state.audio = audio;
  applyMic();
  applyCrossfader();
  applyGuestGain();
  const frame = (now) => {
    audio.micMeter.update(now);
    audio.outMeter.update(now);
    if (!ui.guestStrip.hidden) audio.guestMeter.update(now);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return audio;
}

function applyMic(audio = state.audio) {
  const db = Number(ui.micGain.value);
  ui.micGainValue.textContent = `${db > 0 ? "+" : ""}${db} dB`;
  if (!audio) return;
  audio.micGain.gain.setTargetAtTime(10 ** (db / 20), audio.context.currentTime, 0.02);
  audio.micSwitch.gain.setTargetAtTime(ui.micOn.checked ? 1 : 0, audio.context.currentTime, 0.01);
}
ui.micGain.addEventListener("input", () => applyMic());
ui.micOn.addEventListener("change", () => applyMic());

/** Opens the microphone into the graph (once). */
async function openMicrophone(audio) {
  if (audio.mic) return;
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
  });
  audio.mic = audio.context.createMediaStreamSource(stream);
  audio.mic.connect(audio.micGain);
}

/** Equal-power crossfade: at position x (0 = A, 1 = B) A plays at cos(x·π/2) and B at sin(x·π/2),
 *  so the summed power of two uncorrelated songs stays constant across the fader. */
export function crossfadeGains(x) {
  return { a: Math.cos((x * Math.PI) / 2), b: Math.sin((x * Math.PI) / 2) };
}

function applyGuestGain(audio = state.audio) {
  const db = Number(ui.guestGain.value);
  ui.guestGainValue.textContent = `${db > 0 ? "+" : ""}${db} dB`;
  if (audio) audio.guestGain.gain.setTargetAtTime(10 ** (db / 20), audio.context.currentTime, 0.02);
}
ui.guestGain.addEventListener("input", () => applyGuestGain());

function setGuestState(key) {
  ui.guestState.dataset.state = key;
  ui.guestState.textContent = t(`guest.state.${key}`);
  ui.guestStrip.hidden = key === "left" || key === "idle";
}

function applyCrossfader(audio = state.audio) {
  if (!audio) return;
  const gains = crossfadeGains(Number(ui.crossfader.value) / 100);
  audio.decks.a.gain.setTargetAtTime(gains.a, audio.context.currentTime, 0.02);
  audio.decks.b.gain.setTargetAtTime(gains.b, audio.context.currentTime, 0.02);
}
ui.crossfader.addEventListener("input", () => applyCrossfader());

state.chat = new StudioChat();

ui.invite.addEventListener("click", () => {
  if (state.broadcast && state.broadcast.sendText) state.broadcast.sendText({ type: "invite" });
});
$("#invite-copy").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(ui.inviteLink.value); announce(t("studio.guest.copied")); } catch (_) {
    ui.inviteLink.select();
  }
});

/** The basic console (record, level, times, connection, chat) or the full one (decks, effects,
 *  crossfader, output meter too); the choice is remembered in this browser. */
function setConsole(full) {
  document.querySelector("main.studio").dataset.console = full ? "full" : "basic";
  const button = $("#console-kind");
  button.setAttribute("aria-pressed", String(full));
  try { localStorage.setItem("quintet.studio.console", full ? "full" : "basic"); } catch (_) { /* not kept */ }
}
$("#console-kind").addEventListener("click", () => setConsole(document.querySelector("main.studio").dataset.console !== "full"));
setConsole((() => { try { return localStorage.getItem("quintet.studio.console") !== "basic"; } catch (_) { return true; } })());

state.pads = new EffectPads($("#effects"), () => {
  const audio = graph();
  return { context: audio.context, node: audio.effects };
});

state.decks = ["a", "b"].map((name) => new Deck($(`#deck-${name}`), name, (element) => {
  const audio = graph();
  audio.context.resume();
  audio.context.createMediaElementSource(element).connect(audio.decks[name]);
  return audio.decks[name];
}));

/** The recorder's type: WebM/Opus, else Ogg/Opus. */
function recorderType() {
  for (const type of ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/webm"]) {
    if (window.MediaRecorder && MediaRecorder.isTypeSupported(type)) return type;
  }
  return null;
}

// --- The broadcast -------------------------------------------------------------------------------

/** One broadcast: the recorder, the stream cut into units, and the ingest socket (reopened
 *  when it drops). `sent`/`queued` count units; `bytesSent` bytes handed to sockets. */
class Broadcast {
  constructor(show, audio, type) {
    this.show = show;
    this.type = type;
    this.cutter = new StreamCutter(type);
    this.queue = [];
    this.recent = []; // units handed to the current socket, with their sizes, newest last
    this.sentBytes = 0;
    this.units = 0;
    this.reconnects = 0;
    this.stopping = false;
    this.started = null; // performance.now() of the first ready
    this.maxSeconds = null;
    this.graceSeconds = 10;
    this.droppedAt = null;
    this.socket = null;
    this.ready = false;
    this.episode = null;
    this.recorder = new MediaRecorder(audio.destination.stream, { mimeType: type, audioBitsPerSecond: 128000 });
    this.recorder.addEventListener("dataavailable", (event) => this.captured(event.data));
    this.recorder.addEventListener("stop", () => this.recorderStopped());
    this.recorder.start(SLICE_MS);
    this.guest = new GuestLink(audio, (message) => this.sendText(message), setGuestState);
    this.open();
    this.timer = setInterval(() => this.tick(), 500);
  }

  async captured(blob) {
    if (!blob || blob.size === 0) return;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let units;
    try {
      units = this.cutter.push(bytes);
    } catch (err) {
      showError(t("studio.error.stream", { message: err.message }));
      return;
    }
    this.units += units.length;
    this.queue.push(...units);
    this.flush();
  }

  open() {
    const query = new URLSearchParams({ mount: this.show.mount, type: this.type.split(";")[0] });
    const socket = rawSocket(`/api/radio/ingest?${query}`);
    this.socket = socket;
    this.ready = false;
    this.onSocket = { cluster: null, headerSent: false };
    this.recent = [];
    setConnection(this.started === null ? "connecting" : "reconnecting");
    socket.addEventListener("message", (event) => this.message(event.data));
    socket.addEventListener("close", () => this.closed(socket));
  }

  message(data) {
    let message;
    try { message = JSON.parse(data); } catch (_) { return; }
    if (message.type === "ready") {
      this.ready = true;
      this.episode = message.episode;
      this.maxSeconds = message.maxSeconds || null;
      this.graceSeconds = message.graceSeconds || 10;
      if (this.started === null || !message.resumed) this.started = performance.now();
      this.droppedAt = null;
      setConnection("live");
      ui.invite.disabled = false;
      showError("");
      state.chat.open(this.show.id);
      announce(t(message.resumed ? "studio.announce.resumed" : "studio.announce.live"));
      this.flush();
    } else if (message.type === "stats") {
      const backlog = this.queue.reduce((n, u) => n + u.bytes.length, 0) + (this.socket ? this.socket.bufferedAmount : 0);
      ui.network.textContent = t("studio.network.value", { kbps: Math.round(message.kbps), backlog: Math.round(backlog / 1024) });
      ui.network.dataset.kbps = String(message.kbps);
    } else if (message.type === "invite") {
      ui.inviteLink.value = new URL(message.url, location.href).href;
      ui.inviteRow.hidden = false;
    } else if (message.type === "guest") {
      if (message.event === "joined") this.guest.joined().catch((err) => showError(err.message));
      else this.guest.left();
    } else if (message.type === "signal") {
      this.guest.signal(message.data).catch(() => {});
    } else if (message.type === "error") {
      this.refused = message;
      showError(t("studio.error.refused", { message: message.message }));
    }
  }

  /** A JSON message on the ingest socket (the guest's invitation and signalling). */
  sendText(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  flush() {
    const socket = this.socket;
    if (!socket || !this.ready || socket.readyState !== WebSocket.OPEN || this.cutter.header === null) return;
    if (!this.onSocket.headerSent) {
      socket.send(this.cutter.header);
      this.onSocket.headerSent = true;
    }
    while (this.queue.length) {
      const unit = this.queue.shift();
      const bytes = this.cutter.frame(unit, this.onSocket);
      socket.send(bytes);
      this.sentBytes += bytes.length;
      this.recent.push({ unit, size: bytes.length });
      if (this.recent.length > 400) this.recent.shift();
    }
  }

  closed(socket) {
    if (socket !== this.socket || this.ended) return;
    // Units the socket had not yet put on the wire go back to the front of the queue.
    let unsent = socket.bufferedAmount;
    const back = [];
    while (unsent > 0 && this.recent.length) {
      const last = this.recent.pop();
      back.unshift(last.unit);
      unsent -= last.size;
    }
    this.queue.unshift(...back);
    this.socket = null;
    this.ready = false;
    if (this.stopping && this.queue.length === 0) {
      setConnection("idle");
      return;
    }
    if (this.refused && this.refused.code !== "mount_in_use") {
      // Refused for a reason a retry cannot mend (signed out, not the owner, the time is up).
      this.end();
      setConnection("refused");
      return;
    }
    this.refused = null;
    if (this.droppedAt === null) this.droppedAt = performance.now();
    this.reconnects += 1;
    setConnection("reconnecting");
    const wait = Math.max(1000, (this.downUntil || 0) - performance.now());
    setTimeout(() => { if (!this.ended) this.open(); }, wait);
  }

  /** Drops the socket as a network cut would and keeps it down for `ms` (the e2e test's cut;
   *  what is captured meanwhile waits in the queue). */
  cut(ms) {
    this.downUntil = performance.now() + ms;
    if (this.socket) this.socket.close(4000, "cut");
  }

  tick() {
    if (this.started === null) return;
    const elapsed = (performance.now() - this.started) / 1000;
    ui.elapsed.textContent = clock(elapsed);
    ui.left.textContent = this.maxSeconds ? clock(this.maxSeconds - elapsed) : t("studio.left.unlimited");
    if (this.droppedAt !== null && (performance.now() - this.droppedAt) / 1000 > this.graceSeconds) {
      ui.connection.dataset.late = "true"; // past the grace period: the next socket starts a new episode
    }
  }

  stop() {
    this.stopping = true;
    if (this.recorder.state !== "inactive") this.recorder.stop();
    else this.recorderStopped();
  }

  recorderStopped() {
    // The last slice arrives just before "stop"; give it a moment to be cut and sent.
    const finish = () => {
      const socket = this.socket;
      if (socket && socket.readyState === WebSocket.OPEN && (this.queue.length > 0 || socket.bufferedAmount > 0)) {
        setTimeout(finish, 100);
        return;
      }
      this.end();
      if (socket) socket.close(1000, "stopped");
      setConnection("idle");
    };
    setTimeout(finish, 100);
  }

  end() {
    this.ended = true;
    clearInterval(this.timer);
    this.guest.close();
    setGuestState("idle");
    ui.invite.disabled = true;
    if (this.recorder.state !== "inactive") this.recorder.stop();
    if (state.broadcast === this) {
      state.broadcast = null;
      ui.record.setAttribute("aria-pressed", "false");
      ui.record.textContent = recordLabel();
    }
  }
}

/** "live" (the ingest) or "here" (IndexedDB, uploaded later). */
function mode() {
  const chosen = document.querySelector("input[name=mode]:checked");
  return chosen ? chosen.value : "live";
}

function recordLabel() {
  return t(mode() === "here" ? "studio.record.here" : "studio.record");
}

for (const input of document.querySelectorAll("input[name=mode]")) {
  input.addEventListener("change", () => { if (!state.broadcast) ui.record.textContent = recordLabel(); });
}

/** A recording kept in this browser: the same graph and recorder, slices into IndexedDB. */
class HereSession {
  constructor(show, audio, type) {
    this.local = new LocalRecording(show, type, `${show.title} — ${new Date().toLocaleString()}`);
    this.started = performance.now();
    this.maxSeconds = show.max_episode_seconds || null;
    this.recorder = new MediaRecorder(audio.destination.stream, { mimeType: type, audioBitsPerSecond: 128000 });
    this.recorder.addEventListener("dataavailable", (event) => {
      if (event.data && event.data.size) this.local.add(event.data).catch((err) => showError(t("studio.here.failed", { message: err.message })));
    });
    this.recorder.addEventListener("stop", async () => {
      await this.local.finish((performance.now() - this.started) / 1000);
      this.end();
      showKept();
    });
    this.recorder.start(SLICE_MS);
    setConnection("here");
    this.timer = setInterval(() => {
      const elapsed = (performance.now() - this.started) / 1000;
      ui.elapsed.textContent = clock(elapsed);
      ui.left.textContent = this.maxSeconds ? clock(this.maxSeconds - elapsed) : t("studio.left.unlimited");
    }, 500);
  }

  stop() { if (this.recorder.state !== "inactive") this.recorder.stop(); }

  end() {
    clearInterval(this.timer);
    setConnection("idle");
    if (state.broadcast === this) {
      state.broadcast = null;
      ui.record.setAttribute("aria-pressed", "false");
      ui.record.textContent = recordLabel();
    }
  }
}

/** The recordings kept in this browser, each with Upload (or Resume) and Delete. */
async function showKept() {
  let kept = [];
  try { kept = (await recordings()).filter((r) => r.finished); } catch (_) { /* no IndexedDB: nothing kept */ }
  ui.kept.hidden = kept.length === 0;
  ui.keptList.replaceChildren(...kept.map((recording) => {
    const status = el("span", { class: "kept-status", role: "status" });
    const bar = el("progress", { max: "1", value: "0", "aria-label": t("studio.kept.progress", { title: recording.title }) });
    const send = el("button", { type: "button", class: "kept-upload" },
      t(recording.uploadId ? "studio.kept.resume" : "studio.kept.upload"));
    const remove = el("button", { type: "button", class: "kept-delete" }, t("studio.kept.delete"));
    send.addEventListener("click", async () => {
      send.disabled = remove.disabled = true;
      try {
        const episode = await upload(recording, (sent, total) => {
          bar.value = total ? sent / total : 0;
          status.textContent = t("studio.kept.sent", { percent: Math.round((100 * sent) / Math.max(1, total)) });
        }, state.uploadHooks);
        announce(t("studio.kept.done", { title: episode.title }));
        showKept();
      } catch (err) {
        status.textContent = t("studio.kept.broken", { message: err.message });
        send.textContent = t("studio.kept.resume");
        send.disabled = remove.disabled = false;
        li.dataset.state = "broken";
      }
    });
    remove.addEventListener("click", async () => {
      if (!window.confirm(t("studio.kept.confirm", { title: recording.title }))) return;
      await removeRecording(recording.id);
      showKept();
    });
    const li = el("li", { "data-id": recording.id },
      el("span", { class: "kept-title" }, `${recording.title} (${clock(recording.seconds)}, ${(recording.size / 1048576).toFixed(1)} MB)`),
      bar, status, send, remove);
    return li;
  }));
}

ui.record.addEventListener("click", async () => {
  if (state.broadcast) {
    state.broadcast.stop();
    ui.record.setAttribute("aria-pressed", "false");
    ui.record.textContent = recordLabel();
    announce(t("studio.announce.stopped"));
    return;
  }
  showError("");
  const show = state.shows.find((s) => String(s.id) === ui.show.value);
  if (!show) return;
  const type = recorderType();
  if (!type) {
    showError(t("studio.error.recorder"));
    return;
  }
  const audio = graph();
  try {
    await audio.context.resume();
    await openMicrophone(audio);
  } catch (err) {
    // Without a microphone the decks can still go on air: say so and go on.
    showError(t("studio.error.microphone", { message: err.message }));
  }
  state.broadcast = mode() === "here" ? new HereSession(show, audio, type) : new Broadcast(show, audio, type);
  ui.record.setAttribute("aria-pressed", "true");
  ui.record.textContent = t("studio.stop");
});

start();
