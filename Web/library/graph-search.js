// The explorer's search bar (the original's search menu): artists / albums / songs buttons,
// results as you type from 2 characters, a result tapped is added to the graph (several
// seeds make disconnected parts). The bar can be made wider or narrower (drag its edge, or
// ←/→ on it) and hidden; a hidden bar becomes a button that opens it again.
import { el, svg } from "/common/dom.js";
import { t } from "/common/i18n.js";

export const MIN_QUERY = 2;
const DELAY_MS = 200;
const LIMIT = 25;
const WIDTH = { min: 220, max: 640, step: 40 };

/** Builds the bar. `hooks`: call(path) (the page's API call), add(kind, item) → Promise,
 *  hidden(bool) (after the bar hides or shows). */
export function searchBar(hooks) {
  let kind = "songs";
  let token = 0;
  let timer = 0;
  const kindButtons = ["artists", "albums", "songs"].map((k) =>
    el("button", { type: "button", class: "graph-kind", "data-kind": k, "aria-pressed": String(k === kind) }));
  const input = el("input", { type: "search", id: "graph-search-input", autocomplete: "off", spellcheck: "false" });
  const label = el("label", { for: "graph-search-input", class: "visually-hidden" });
  const hide = el("button", { type: "button", class: "icon", id: "graph-search-hide" }, "⌃");
  const results = el("ul", { id: "graph-results", class: "graph-results" });
  const note = el("p", { class: "graph-search-note", role: "status" });
  const handle = el("div", { class: "graph-search-resize", role: "separator", tabindex: "0", "aria-orientation": "vertical",
    "aria-valuemin": String(WIDTH.min), "aria-valuemax": String(WIDTH.max) });
  const bar = el("div", { id: "graph-search", class: "graph-search", role: "search" },
    el("div", { class: "graph-kinds" }, kindButtons, hide), label, input, note, results, handle);
  const show = el("button", { type: "button", id: "graph-search-show", class: "graph-search-show icon", hidden: true },
    svg("svg", { viewBox: "0 0 24 24", width: "22", height: "22", "aria-hidden": "true", focusable: "false" },
      svg("path", { fill: "currentColor", d: "M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z" })));

  const setWidth = (px) => {
    const width = Math.round(Math.max(WIDTH.min, Math.min(WIDTH.max, px, window.innerWidth - 24)));
    bar.style.width = `${width}px`;
    handle.setAttribute("aria-valuenow", String(width));
  };

  const setHidden = (hidden) => {
    bar.hidden = hidden;
    show.hidden = !hidden;
    (hidden ? show : input).focus({ preventScroll: true });
    hooks.hidden(hidden);
  };

  for (const b of kindButtons) {
    b.addEventListener("click", () => {
      kind = b.dataset.kind;
      for (const o of kindButtons) o.setAttribute("aria-pressed", String(o === b));
      run();
      input.focus();
    });
  }
  hide.addEventListener("click", () => setHidden(true));
  show.addEventListener("click", () => setHidden(false));
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(run, DELAY_MS); });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown") { const first = results.querySelector("button"); if (first) { event.preventDefault(); first.focus(); } }
    if (event.key === "Escape") setHidden(true);
  });
  results.addEventListener("keydown", (event) => {
    const item = event.target.closest("li");
    if (!item) return;
    const to = event.key === "ArrowDown" ? item.nextElementSibling : event.key === "ArrowUp" ? item.previousElementSibling : null;
    if (event.key === "ArrowUp" && !item.previousElementSibling) { event.preventDefault(); input.focus(); return; }
    if (to && to.querySelector("button")) { event.preventDefault(); to.querySelector("button").focus(); }
  });

  handle.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    try { handle.setPointerCapture(event.pointerId); } catch (_) { /* synthetic */ }
    const left = bar.getBoundingClientRect().left;
    const move = (e) => setWidth(e.clientX - left);
    const up = () => { handle.removeEventListener("pointermove", move); handle.removeEventListener("pointerup", up); };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
  });
  handle.addEventListener("keydown", (event) => {
    const now = bar.getBoundingClientRect().width;
    if (event.key === "ArrowRight") { event.preventDefault(); setWidth(now + WIDTH.step); }
    if (event.key === "ArrowLeft") { event.preventDefault(); setWidth(now - WIDTH.step); }
  });

  async function run() {
    clearTimeout(timer);
    const q = input.value.trim();
    const mine = ++token;
    if (q.length < MIN_QUERY) {
      results.replaceChildren();
      note.textContent = q ? t("library.graph.search.more", { count: MIN_QUERY }) : "";
      return;
    }
    let items;
    try {
      const answer = await hooks.call(`/api/library/${kind}?q=${encodeURIComponent(q)}&limit=${LIMIT}`);
      items = answer[kind] || [];
    } catch (err) {
      if (mine === token) note.textContent = t("library.error", { message: err.message });
      return;
    }
    if (mine !== token) return;
    note.textContent = items.length ? "" : t("library.graph.search.none");
    const single = { artists: "artist", albums: "album", songs: "song" }[kind];
    results.replaceChildren(...items.map((item) => {
      const name = item.name || item.title;
      const meta = single === "artist" ? "" : single === "album" ? [item.artist, item.year].filter(Boolean).join(" · ")
        : [item.artist, item.album].filter(Boolean).join(" · ");
      const button = el("button", { type: "button", class: `graph-result ${single}`, "data-kind": single, "data-id": item.id },
        el("span", { class: "graph-result-name" }, name), meta ? el("span", { class: "meta" }, meta) : null);
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          await hooks.add(single, item);
          // After an artist is added the bar hides itself to make room (the original's way).
          if (single === "artist") setHidden(true);
        } finally {
          button.disabled = false;
        }
      });
      return el("li", {}, button);
    }));
  }

  const render = () => {
    for (const b of kindButtons) b.textContent = t(`library.graph.search.${b.dataset.kind}`);
    input.placeholder = t("library.graph.search.placeholder");
    label.textContent = t("library.graph.search.label");
    hide.setAttribute("aria-label", t("library.graph.search.hide"));
    hide.title = t("library.graph.search.hide");
    show.setAttribute("aria-label", t("library.graph.search.show"));
    show.title = t("library.graph.search.show");
    handle.setAttribute("aria-label", t("library.graph.search.resize"));
    handle.title = t("library.graph.search.resize");
  };
  render();
  return { bar, show, input, render, run, setHidden };
}
