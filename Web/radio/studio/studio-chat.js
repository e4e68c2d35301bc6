// The studio's chat (issue 22): while the show is on air, the newest listener message shows in
// the on-air row (tap it for the whole chat), and the chat panel lists the messages with a box
// to answer. The same socket as the listeners' (/api/radio/shows/{id}/chat, docs/radio.md "Live
// chat"); messages are set as text only, never as HTML.
import { socket } from "/common/api.js";
import { $, el } from "/common/dom.js";
import { t } from "/common/i18n.js";

const KEEP = 100;

export class StudioChat {
  constructor() {
    this.preview = $("#chat-preview");
    this.panel = $("#studio-chat");
    this.list = $("#studio-chat-list");
    this.form = $("#studio-chat-form");
    this.input = $("#studio-chat-text");
    this.status = $("#studio-chat-status");
    this.conn = null;
    this.seen = new Set();
    this.preview.addEventListener("click", () => this.show());
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = this.input.value.trim();
      if (!text || !this.conn) return;
      this.conn.send({ type: "say", text });
      this.input.value = "";
    });
  }

  /** Joins the chat of a show that is on air now (again after a reconnection). */
  open(showID) {
    if (this.conn && this.showID === showID) return;
    this.close();
    this.showID = showID;
    this.panel.hidden = false;
    this.conn = socket(`/api/radio/shows/${showID}/chat`, {
      reconnect: false,
      onMessage: (m) => this.receive(m),
      onClose: () => { this.conn = null; },
    });
  }

  close() {
    if (this.conn) this.conn.close();
    this.conn = null;
  }

  show() {
    this.panel.hidden = false;
    this.panel.scrollIntoView({ block: "nearest" });
    this.input.focus();
  }

  receive(message) {
    if (!message || typeof message !== "object") return;
    if (message.type === "history") {
      for (const m of message.messages || []) this.add(m);
    } else if (message.type === "message") {
      this.add(message);
    } else if (message.type === "deleted") {
      const item = this.list.querySelector(`[data-id="${Number(message.id)}"]`);
      if (item) item.remove();
      this.updatePreview();
    } else if (message.type === "error") {
      this.status.textContent = message.code === "rate_limited"
        ? t("radio.chat.rateLimited", { seconds: message.retryAfter }) : message.message;
    }
  }

  add(m) {
    if (this.seen.has(m.id)) return;
    this.seen.add(m.id);
    this.list.append(el("li", { "data-id": String(m.id) }, el("strong", {}, `${m.name}: `), el("span", {}, m.text)));
    while (this.list.children.length > KEEP) this.list.firstElementChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
    this.status.textContent = "";
    this.updatePreview();
  }

  updatePreview() {
    const last = this.list.lastElementChild;
    this.preview.hidden = !last;
    this.preview.textContent = last ? last.textContent : "";
    this.preview.setAttribute("aria-label", last ? t("studio.chat.preview", { message: last.textContent }) : "");
  }
}
