// The explorer's queue: the songs the playback bar steps through, and its panel on the right
// (as the original's playlist panel): Album mode (picking a song queues its whole album from
// that song) or Playlist mode (picking adds the song at the end), tap a row to play it,
// swipe it left or press Delete to remove it, drag its handle (or Alt+↑/↓) to reorder,
// "clear graph and queue", and "save as playlist" into the catalog (Subsonic apps see it).
import { el } from "/common/dom.js";
import { duration } from "/common/format.js";
import { t } from "/common/i18n.js";

const SWIPE_PX = 80; // a row pulled this far left is removed

/** The list of songs and which one plays. Dispatches "change" after every change. */
export class PlayQueue extends EventTarget {
  constructor() {
    super();
    this.songs = [];
    this.index = -1;
    this.mode = "album";
  }

  get current() { return this.songs[this.index] || null; }

  changed() { this.dispatchEvent(new Event("change")); }

  replace(songs, index = 0) {
    this.songs = songs.slice();
    this.index = songs.length ? Math.max(0, Math.min(index, songs.length - 1)) : -1;
    this.changed();
  }

  append(song) {
    this.songs.push(song);
    this.changed();
    return this.songs.length - 1;
  }

  remove(i) {
    if (i < 0 || i >= this.songs.length) return;
    this.songs.splice(i, 1);
    if (i < this.index) this.index--;
    else if (i === this.index) this.index = Math.min(this.index, this.songs.length - 1); // the next one takes its place
    this.changed();
  }

  move(from, to) {
    if (from === to || from < 0 || to < 0 || from >= this.songs.length || to >= this.songs.length) return;
    const [song] = this.songs.splice(from, 1);
    this.songs.splice(to, 0, song);
    if (this.index === from) this.index = to;
    else if (from < this.index && to >= this.index) this.index--;
    else if (from > this.index && to <= this.index) this.index++;
    this.changed();
  }

  clear() {
    this.songs = [];
    this.index = -1;
    this.changed();
  }
}

/** Builds the queue panel. `hooks`: play(index), clearAll(), save(name) → Promise, announce(text). */
export function queuePanel(queue, hooks) {
  const list = el("ol", { id: "graph-queue-list", class: "graph-queue-list", "aria-describedby": "graph-queue-hint" });
  const hint = el("p", { id: "graph-queue-hint", class: "hint" });
  const modeAlbum = el("input", { type: "radio", name: "graph-queue-mode", value: "album", id: "graph-mode-album", checked: true });
  const modePlaylist = el("input", { type: "radio", name: "graph-queue-mode", value: "playlist", id: "graph-mode-playlist" });
  const modeLegend = el("legend", {});
  const albumLabel = el("span", {});
  const playlistLabel = el("span", {});
  const modes = el("fieldset", { class: "graph-modes" }, modeLegend,
    el("label", { for: "graph-mode-album" }, modeAlbum, albumLabel),
    el("label", { for: "graph-mode-playlist" }, modePlaylist, playlistLabel));
  for (const input of [modeAlbum, modePlaylist]) {
    input.addEventListener("change", () => { if (input.checked) { queue.mode = input.value; queue.changed(); } });
  }
  const heading = el("h2", { id: "graph-queue-heading" });
  const close = el("button", { type: "button", class: "icon", id: "graph-queue-close" }, "×");
  const nameInput = el("input", { type: "text", id: "graph-save-name", maxlength: "200", autocomplete: "off" });
  const nameLabel = el("label", { for: "graph-save-name" });
  const saveButton = el("button", { type: "submit", id: "graph-save" });
  const saveForm = el("form", { class: "graph-save" }, nameLabel, el("div", { class: "graph-save-row" }, nameInput, saveButton));
  const status = el("p", { id: "graph-queue-status", class: "graph-queue-status", role: "status" });
  const clearButton = el("button", { type: "button", id: "graph-clear" });
  const panel = el("aside", { id: "graph-queue", class: "graph-queue", "aria-labelledby": "graph-queue-heading", hidden: true },
    el("div", { class: "graph-queue-head" }, heading, close), modes, hint, list, saveForm, status, clearButton);

  saveForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = nameInput.value.trim();
    if (!name) { status.textContent = t("library.graph.queue.nameNeeded"); nameInput.focus(); return; }
    if (!queue.songs.length) { status.textContent = t("library.graph.queue.emptySave"); return; }
    saveButton.disabled = true;
    try {
      const saved = await hooks.save(name, queue.songs.map((s) => s.id));
      status.textContent = t("library.graph.queue.saved", { name: saved.name, count: saved.song_count });
      nameInput.value = "";
    } catch (err) {
      status.textContent = t("library.graph.queue.saveFailed", { message: err.message });
    } finally {
      saveButton.disabled = false;
    }
  });
  clearButton.addEventListener("click", () => hooks.clearAll());
  close.addEventListener("click", () => hooks.close());

  let focusIndex = -1; // the row to focus again after a re-render (keyboard moves and removals)

  const row = (song, i) => {
    const handle = el("button", { type: "button", class: "graph-queue-handle icon", tabindex: "-1",
      "aria-label": t("library.graph.queue.move", { title: song.title }), title: t("library.graph.queue.moveHint") }, "⠿");
    const remove = el("button", { type: "button", class: "graph-queue-remove icon", tabindex: "-1",
      "aria-label": t("library.graph.queue.remove", { title: song.title }), title: t("library.graph.queue.remove", { title: song.title }) }, "×");
    const item = el("li", { class: i === queue.index ? "playing" : null, tabindex: "0", "data-song-id": song.id, "data-index": i,
      "aria-current": i === queue.index ? "true" : null },
      handle,
      el("span", { class: "graph-queue-song" }, el("span", { class: "graph-queue-title" }, song.title),
        el("span", { class: "meta" }, [song.artist, duration(song.duration)].filter(Boolean).join(" · "))),
      remove);
    remove.addEventListener("click", (event) => { event.stopPropagation(); removeAt(i); });
    item.addEventListener("keydown", (event) => {
      if (event.key === "Delete" || event.key === "Backspace") { event.preventDefault(); removeAt(i); }
      else if (event.key === "Enter" || event.key === " ") { event.preventDefault(); hooks.play(i); }
      else if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) {
        event.preventDefault();
        const to = i + (event.key === "ArrowUp" ? -1 : 1);
        if (to >= 0 && to < queue.songs.length) { focusIndex = to; queue.move(i, to); hooks.announce(t("library.graph.queue.moved", { title: song.title, position: to + 1 })); }
      } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
        event.preventDefault();
        const next = item[event.key === "ArrowUp" ? "previousElementSibling" : "nextElementSibling"];
        if (next) next.focus();
      }
    });
    swipeAndTap(item, i);
    dragHandle(handle, item, i);
    return item;
  };

  const removeAt = (i) => {
    const song = queue.songs[i];
    focusIndex = Math.min(i, queue.songs.length - 2);
    queue.remove(i);
    if (song) hooks.announce(t("library.graph.queue.removed", { title: song.title }));
  };

  // A row follows the finger sideways; pulled far enough left it is removed, else it springs
  // back; a short press without movement plays it.
  const swipeAndTap = (item, i) => {
    let start = null;
    item.addEventListener("pointerdown", (event) => {
      if (event.target.closest("button")) return;
      start = { x: event.clientX, y: event.clientY, id: event.pointerId, swiping: false };
      try { item.setPointerCapture(event.pointerId); } catch (_) { /* synthetic */ }
    });
    item.addEventListener("pointermove", (event) => {
      if (!start || event.pointerId !== start.id) return;
      const dx = event.clientX - start.x, dy = event.clientY - start.y;
      if (!start.swiping && Math.abs(dx) > 10 && Math.abs(dx) > Math.abs(dy)) start.swiping = true;
      if (start.swiping) item.style.transform = `translateX(${Math.min(0, dx)}px)`;
    });
    const end = (event) => {
      if (!start || event.pointerId !== start.id) return;
      const dx = event.clientX - start.x, moved = Math.hypot(dx, event.clientY - start.y);
      const swiping = start.swiping;
      start = null;
      item.style.transform = "";
      if (event.type === "pointercancel") return;
      if (swiping && dx < -SWIPE_PX) removeAt(i);
      else if (!swiping && moved < 10) hooks.play(i);
    };
    item.addEventListener("pointerup", end);
    item.addEventListener("pointercancel", end);
  };

  // Dragging a row's handle moves the row among the others; it lands where it is dropped.
  const dragHandle = (handle, item, from) => {
    handle.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      try { handle.setPointerCapture(event.pointerId); } catch (_) { /* synthetic */ }
      const startY = event.clientY;
      item.classList.add("dragging");
      let to = from;
      const rows = [...list.children];
      const mids = rows.map((r) => { const b = r.getBoundingClientRect(); return b.top + b.height / 2; });
      const move = (e) => {
        const dy = e.clientY - startY;
        item.style.transform = `translateY(${dy}px)`;
        const y = mids[from] + dy;
        // Its new index: how many of the other rows lie above the point it is dragged to.
        to = mids.filter((m, k) => k !== from && m < y).length;
      };
      const up = () => {
        handle.removeEventListener("pointermove", move);
        handle.removeEventListener("pointerup", up);
        handle.removeEventListener("pointercancel", up);
        item.classList.remove("dragging");
        item.style.transform = "";
        if (to !== from) { queue.move(from, to); hooks.announce(t("library.graph.queue.moved", { title: queue.songs[to].title, position: to + 1 })); }
      };
      handle.addEventListener("pointermove", move);
      handle.addEventListener("pointerup", up);
      handle.addEventListener("pointercancel", up);
    });
  };

  const render = () => {
    heading.textContent = t("library.graph.queue.heading");
    close.setAttribute("aria-label", t("library.graph.queue.close"));
    close.title = t("library.graph.queue.close");
    modeLegend.textContent = t("library.graph.queue.mode");
    albumLabel.textContent = t("library.graph.queue.album");
    playlistLabel.textContent = t("library.graph.queue.playlist");
    hint.textContent = t(queue.mode === "album" ? "library.graph.queue.albumHint" : "library.graph.queue.playlistHint") + " " +
      t("library.graph.queue.keys");
    nameLabel.textContent = t("library.graph.queue.saveName");
    saveButton.textContent = t("library.graph.queue.save");
    clearButton.textContent = t("library.graph.queue.clear");
    modeAlbum.checked = queue.mode === "album";
    modePlaylist.checked = queue.mode === "playlist";
    const hadFocus = list.contains(document.activeElement);
    list.replaceChildren(...(queue.songs.length ? queue.songs.map(row)
      : [el("li", { class: "empty" }, t("library.graph.queue.empty"))]));
    if (hadFocus && focusIndex >= 0) {
      const target = list.children[Math.min(focusIndex, list.children.length - 1)];
      if (target) target.focus();
    }
    focusIndex = -1;
  };
  queue.addEventListener("change", render);
  render();
  return { panel, render };
}
