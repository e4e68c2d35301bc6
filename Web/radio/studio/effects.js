// The studio's effect pads: three pads, each with a selector of the bundled jingles
// (/radio/studio/jingles/*.mp3, synthesised by scripts/jingles.sh) and the user's own
// uploads (GET/POST/DELETE /api/radio/effects, checked for type, size and length by the
// server). A pad plays its sound once into the mix (an AudioBufferSourceNode into the
// effects gain); sounds are decoded on first use and kept.
import { APIError, api } from "/common/api.js";
import { $, el } from "/common/dom.js";
import { t } from "/common/i18n.js";

export const JINGLES = ["chime", "drumroll", "applause"];

export class EffectPads {
  /** `root`: the effects section; `output()` returns {context, node} to play into (it makes the
   *  audio graph on first use, inside the pad's click). */
  constructor(root, output) {
    this.root = root;
    this.output = output;
    this.buffers = new Map(); // url → Promise<AudioBuffer>
    this.mine = [];
    this.limits = { bytes: 5 * 1024 * 1024, seconds: 30, count: 24 };
    this.pads = [...root.querySelectorAll(".pad-slot")].map((slot, i) => ({
      button: $(".pad", slot), select: $("select", slot), index: i,
    }));
    this.status = $(".effects-status", root);
    this.list = $(".my-effects", root);
    this.form = $(".effect-upload", root);
    this.file = $("input[type=file]", this.form);
    for (const pad of this.pads) {
      pad.button.addEventListener("click", () => this.play(pad));
      pad.select.addEventListener("change", () => this.label(pad));
    }
    this.form.addEventListener("submit", (event) => { event.preventDefault(); this.upload(); });
    this.fill();
  }

  say(text, kind = "") {
    this.status.textContent = text || "";
    this.status.dataset.kind = kind;
  }

  options() {
    return [
      ...JINGLES.map((name) => ({ value: `/radio/studio/jingles/${name}.mp3`, text: t(`studio.jingle.${name}`) })),
      ...this.mine.map((effect) => ({ value: effect.url, text: effect.name })),
    ];
  }

  fill() {
    const options = this.options();
    for (const pad of this.pads) {
      const chosen = pad.select.value || options[pad.index % options.length].value;
      pad.select.replaceChildren(...options.map((o) => el("option", { value: o.value }, o.text)));
      pad.select.value = options.some((o) => o.value === chosen) ? chosen : options[pad.index % options.length].value;
      this.label(pad);
    }
    this.list.replaceChildren(...this.mine.map((effect) => {
      const remove = el("button", { type: "button", class: "icon-text",
        "aria-label": t("studio.effects.deleteLabel", { name: effect.name }) }, t("studio.effects.delete"));
      remove.addEventListener("click", () => this.remove(effect));
      return el("li", {}, el("span", {}, `${effect.name} (${effect.duration.toFixed(1)} s)`), remove);
    }));
  }

  label(pad) {
    const option = pad.select.selectedOptions[0];
    pad.button.textContent = option ? option.textContent : "—";
    pad.button.setAttribute("aria-label", t("studio.effects.padLabel", { n: pad.index + 1, name: pad.button.textContent }));
  }

  async load() {
    try {
      const answer = await api("/api/radio/effects");
      this.mine = answer.effects || [];
      if (answer.limits) this.limits = answer.limits;
    } catch (err) {
      this.say(t("studio.effects.failed", { message: err.message }), "error");
    }
    this.fill();
  }

  buffer(url) {
    if (!this.buffers.has(url)) {
      const { context } = this.output();
      const loading = api(url, { binary: true }).then((bytes) => context.decodeAudioData(bytes));
      loading.catch(() => this.buffers.delete(url));
      this.buffers.set(url, loading);
    }
    return this.buffers.get(url);
  }

  async play(pad) {
    const url = pad.select.value;
    if (!url) return;
    const { context, node } = this.output();
    try {
      await context.resume();
      const source = context.createBufferSource();
      source.buffer = await this.buffer(url);
      source.connect(node);
      pad.button.dataset.playing = "true";
      source.addEventListener("ended", () => { delete pad.button.dataset.playing; });
      source.start();
      pad.button.dataset.plays = String(Number(pad.button.dataset.plays || 0) + 1);
    } catch (err) {
      this.say(t("studio.effects.playFailed", { message: err.message || String(err) }), "error");
    }
  }

  async upload() {
    const file = this.file.files[0];
    if (!file) return;
    if (file.size > this.limits.bytes) {
      this.say(t("studio.effects.tooBig", { mb: (this.limits.bytes / 1048576).toFixed(0) }), "error");
      return;
    }
    const name = file.name.replace(/\.[^.]*$/, "").slice(0, 80);
    this.say(t("studio.effects.uploading", { name }));
    try {
      await api(`/api/radio/effects?${new URLSearchParams({ name })}`, { method: "POST", body: file });
      this.file.value = "";
      this.say(t("studio.effects.added", { name }), "ok");
      await this.load();
    } catch (err) {
      const text = err instanceof APIError && err.status === 413
        ? t("studio.effects.tooBig", { mb: (this.limits.bytes / 1048576).toFixed(0) }) : err.message;
      this.say(t("studio.effects.refused", { message: text }), "error");
    }
  }

  async remove(effect) {
    try {
      await api(effect.url, { method: "DELETE" });
      this.buffers.delete(effect.url);
      this.say(t("studio.effects.deleted", { name: effect.name }), "ok");
    } catch (err) {
      this.say(t("studio.effects.failed", { message: err.message }), "error");
    }
    await this.load();
  }
}
