// The guest's page (/radio/guest/?token=…, issue 22 §3): joins a host's broadcast with the
// microphone over WebRTC. The server relays only the signalling (/api/radio/guest); audio goes
// directly between the two browsers. The guest hears the show (without their own voice).
import { socket } from "/common/api.js";
import { $ } from "/common/dom.js";
import { t } from "/common/i18n.js";

const token = new URLSearchParams(location.search).get("token") || "";
const ui = { show: $("#guest-show"), join: $("#guest-join"), state: $("#guest-state"), meter: $("#guest-meter"),
  level: $("#guest-level"), error: $("#guest-error"), audio: $("#guest-audio") };
const state = { pc: null, conn: null, stream: null };
window.quintetGuest = state;

function setState(key) {
  ui.state.dataset.state = key;
  ui.state.textContent = t(`guest.state.${key}`);
}

function showError(text) {
  ui.error.textContent = text || "";
  ui.error.hidden = !text;
}

function meter(stream) {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const frame = () => {
    analyser.getFloatTimeDomainData(samples);
    let peak = 0;
    for (const x of samples) peak = Math.max(peak, Math.abs(x));
    const db = peak > 0 ? Math.max(-60, 20 * Math.log10(peak)) : -60;
    ui.meter.querySelector(".peak").style.width = `${((db + 60) / 60) * 100}%`;
    ui.meter.setAttribute("aria-valuenow", db.toFixed(0));
    ui.level.textContent = db <= -60 ? "−∞ dBFS" : `${db.toFixed(1)} dBFS`;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

async function answer(data) {
  const pc = state.pc;
  if (data.description) {
    await pc.setRemoteDescription(data.description);
    if (data.description.type === "offer") {
      await pc.setLocalDescription(await pc.createAnswer());
      state.conn.send({ type: "signal", data: { description: pc.localDescription.toJSON() } });
    }
  } else if (data.candidate) {
    await pc.addIceCandidate(data.candidate).catch(() => {});
  }
}

ui.join.addEventListener("click", async () => {
  ui.join.disabled = true;
  showError("");
  try {
    state.stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
  } catch (err) {
    showError(t("studio.error.microphone", { message: err.message }));
    ui.join.disabled = false;
    return;
  }
  meter(state.stream);
  const pc = new RTCPeerConnection({ iceServers: [] });
  state.pc = pc;
  for (const track of state.stream.getAudioTracks()) pc.addTrack(track, state.stream);
  pc.addEventListener("track", (event) => {
    ui.audio.srcObject = event.streams[0] || new MediaStream([event.track]);
    ui.audio.play().catch(() => {});
  });
  pc.addEventListener("connectionstatechange", () => {
    if (["connected", "disconnected", "failed"].includes(pc.connectionState)) setState(pc.connectionState);
  });
  pc.addEventListener("icecandidate", (event) => {
    if (event.candidate && state.conn) state.conn.send({ type: "signal", data: { candidate: event.candidate.toJSON() } });
  });
  setState("waiting");
  state.conn = socket(`/api/radio/guest?token=${encodeURIComponent(token)}`, {
    reconnect: false,
    onMessage: (m) => {
      if (!m || typeof m !== "object") return;
      if (m.type === "welcome") ui.show.textContent = m.show;
      else if (m.type === "signal") answer(m.data || {}).catch((err) => showError(err.message));
      else if (m.type === "ended") setState("ended");
      else if (m.type === "error") { showError(m.message); setState("refused"); }
    },
    onClose: () => { if (!["connected", "ended", "refused"].includes(ui.state.dataset.state)) setState("closed"); },
  });
});

setState(token ? "idle" : "refused");
if (!token) showError(t("guest.noToken"));
