// The radio page's chat panel (docs/radio.md, "Live chat"):
// - for a live show, the WebSocket /api/radio/shows/{id}/chat: the last messages, new ones as
//   they come, a text box when signed in ("sign in to chat" with a small form otherwise), and
//   delete / mute buttons for the show's host and admins;
// - for an episode being replayed, its kept chat (GET /api/radio/episodes/{id}/chat), each
//   message with its time in the episode (a button that seeks the player there).
// Messages come from listeners: they are only ever set as text (el() makes text nodes), never HTML.
import { api, socket } from "/common/api.js";
import { $, announce, el } from "/common/dom.js";
import { duration, lang } from "/common/format.js";
import { t } from "/common/i18n.js";

const MAX_LENGTH = 500; // Unicode scalars, as the server counts (docs/radio.md)
const MUTE_MINUTES = 10;

const chat = {
  mode: null, // "live" or "episode"
  showID: null,
  episodeID: null,
  conn: null, // the live socket
  hello: null, // the server's hello (user, canSay, canModerate)
  messages: new Map(), // id → message, in arrival order
  audio: null,
};

function showError(text) {
  $("#chat-error").textContent = text || "";
  $("#chat-error").hidden = !text;
}

function setStatus(text) { $("#chat-status").textContent = text || ""; }

function clock(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return el("span", {}, "");
  return el("time", { datetime: date.toISOString(), class: "chat-time", title: date.toLocaleString(lang()) },
    date.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" }));
}

/** One message as a list item: the name, the text (text nodes only), and moderation buttons. */
function item(m) {
  const moderate = chat.mode === "live" && chat.hello && chat.hello.canModerate;
  const own = chat.hello && chat.hello.user && chat.hello.user.id === m.user;
  const when = chat.mode === "episode"
    ? el("button", { type: "button", class: "chat-seek", "aria-label": t("radio.chat.seek", { time: duration(m.offset) }),
      onclick: () => { if (chat.audio) { chat.audio.currentTime = m.offset; chat.audio.play().catch(() => {}); } } },
    duration(m.offset))
    : clock(m.at);
  return el("li", { class: "chat-message", "data-message-id": m.id },
    when, " ",
    el("span", { class: own ? "chat-name own" : "chat-name" }, m.name), " ",
    el("span", { class: "chat-text" }, m.text),
    moderate ? el("span", { class: "chat-tools" },
      el("button", { type: "button", class: "chat-delete", "aria-label": t("radio.chat.delete", { name: m.name }),
        onclick: () => chat.conn && chat.conn.send({ type: "delete", id: m.id }) }, t("radio.chat.deleteShort")),
      m.user && !own ? el("button", { type: "button", class: "chat-mute",
        "aria-label": t("radio.chat.mute", { name: m.name, minutes: MUTE_MINUTES }),
        onclick: () => chat.conn && chat.conn.send({ type: "mute", user: m.user, minutes: MUTE_MINUTES }) },
      t("radio.chat.muteShort")) : null) : null);
}

function render() {
  const list = $("#chat-list");
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren(...[...chat.messages.values()].map(item));
  $("#chat-empty").hidden = chat.messages.size > 0 || chat.mode === null;
  if (atEnd) list.scrollTop = list.scrollHeight;
}

function showForms() {
  const live = chat.mode === "live" && chat.hello;
  $("#chat-form").hidden = !(live && chat.hello.canSay);
  $("#chat-signin").hidden = !(live && !chat.hello.canSay);
}

function reset(mode) {
  if (chat.conn) chat.conn.close();
  chat.conn = null;
  chat.hello = null;
  chat.mode = mode;
  chat.messages = new Map();
  showError("");
  setStatus("");
  render();
  showForms();
}

function onMessage(m) {
  if (!m || typeof m !== "object") return;
  switch (m.type) {
    case "hello":
      chat.hello = m;
      chat.episodeID = m.episode;
      setStatus(t("radio.chat.connected"));
      showForms();
      break;
    case "history":
      for (const message of m.messages || []) chat.messages.set(message.id, message);
      render();
      break;
    case "message":
      if (!chat.messages.has(m.id)) {
        chat.messages.set(m.id, m);
        render();
        if (!(chat.hello && chat.hello.user && chat.hello.user.id === m.user)) announce(`${m.name}: ${m.text}`);
      }
      break;
    case "deleted":
      if (chat.messages.delete(m.id)) render();
      break;
    case "muted":
      setStatus(t("radio.chat.mutedUser", { minutes: MUTE_MINUTES }));
      break;
    case "error":
      if (m.code === "not_live") {
        if (chat.conn) chat.conn.close();
        chat.conn = null;
        setStatus(t("radio.chat.ended"));
        $("#chat-form").hidden = true;
      } else if (m.code === "rate_limited") {
        showError(t("radio.chat.rateLimited", { seconds: m.retryAfter }));
      } else if (m.code === "muted") {
        showError(t("radio.chat.muted"));
      } else {
        showError(m.message || m.code);
      }
      break;
    default:
      break;
  }
}

/** Opens the chat of a live show (show_id of GET /api/radio/live). */
export function openLiveChat(showID, showTitle) {
  if (chat.mode === "live" && chat.showID === showID && chat.conn) return;
  reset("live");
  chat.showID = showID;
  $("#chat").hidden = false;
  $("#chat-show").textContent = showTitle;
  setStatus(t("radio.chat.connecting"));
  chat.conn = socket(`/api/radio/shows/${encodeURIComponent(showID)}/chat`, {
    onMessage,
    onClose: () => { if (chat.mode === "live" && chat.conn) setStatus(t("radio.chat.reconnecting")); },
  });
}

/** Shows the kept chat of an episode being replayed. */
export async function openEpisodeChat(episodeID, title) {
  reset("episode");
  chat.episodeID = episodeID;
  $("#chat").hidden = false;
  $("#chat-show").textContent = title;
  try {
    const answer = await api(`/api/radio/episodes/${encodeURIComponent(episodeID)}/chat`);
    if (chat.mode !== "episode" || chat.episodeID !== episodeID) return;
    for (const message of answer.messages || []) chat.messages.set(message.id, message);
    render();
  } catch (err) {
    showError(t("radio.chat.failed", { message: err.message || String(err) }));
  }
}

/** The player the replay's time buttons seek. */
export function attachPlayer(audio) { chat.audio = audio; }

/** Re-renders for a language change. */
export function renderChat() { render(); }

$("#chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("#chat-text");
  const text = input.value.trim();
  if (!text) return;
  if ([...text].length > MAX_LENGTH) { showError(t("radio.chat.tooLong", { max: MAX_LENGTH })); return; }
  if (!chat.conn || !chat.conn.open) { showError(t("radio.chat.offline")); return; }
  showError("");
  chat.conn.send({ type: "say", text });
  input.value = "";
});

$("#chat-signin").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = $("#chat-signin button[type=submit]");
  button.disabled = true;
  try {
    await api("/api/session", { method: "POST",
      body: { name: $("#chat-name").value.trim(), password: $("#chat-password").value } });
    $("#chat-password").value = "";
    showError("");
    // A new handshake carries the session cookie.
    const { showID } = chat;
    chat.conn.close();
    chat.conn = null;
    openLiveChat(showID, $("#chat-show").textContent);
  } catch (err) {
    showError(t("library.signin.failed", { message: err.message || String(err) }));
  } finally {
    button.disabled = false;
  }
});
