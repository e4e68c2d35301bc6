// The show page (/radio/show/?id=N) and the episode page (/radio/show/episode.html?id=N), one
// module (main's data-view says which): what anyone sees (cover, title, description, owner,
// category, language, episodes with players, feed) and, for the owner or an admin (the API's
// `editable`), the editor: every field, cover upload, publish/unpublish, delete with an Undo
// toast, and the deleted list with restore for 30 days (issue 24 §2); for everyone, Follow (the
// show; signing in first when needed) and Share (the /radio/s/ or /radio/e/ link whose card chat
// apps show, copied or handed to the system's share sheet). Texts from broadcasters are only ever
// set as text, never as HTML.
import { api } from "/common/api.js";
import { $, announce, el } from "/common/dom.js";
import { duration, lang, plural } from "/common/format.js";
import { t } from "/common/i18n.js";

const view = $("main").dataset.view; // "show" or "episode"
const id = Number(new URLSearchParams(location.search).get("id"));
const TOAST_MS = 10_000;
const state = { show: null, episode: null, episodes: [], categories: [], trash: { shows: [], episodes: [] }, toastTimer: 0 };

function message(err) { return err && err.message ? err.message : String(err); }

function showError(text) {
  $("#page-error").textContent = text || "";
  $("#page-error").hidden = !text;
}

function status(text) { $("#edit-status").textContent = text || ""; }

function when(iso) {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return el("span", {}, "—");
  return el("time", { datetime: date.toISOString() }, date.toLocaleDateString(lang(), { year: "numeric", month: "short", day: "numeric" }));
}

function categoryText(s) { return [s.category, s.subcategory].filter(Boolean).join(" › "); }

// --- Loading --------------------------------------------------------------------------------

async function load() {
  showError("");
  try {
    if (view === "episode") {
      state.episode = await api(`/api/radio/episodes/${id}`);
      state.show = await api(`/api/radio/shows/${state.episode.show_id}`);
    } else {
      state.show = await api(`/api/radio/shows/${id}`);
      state.episodes = await api(`/api/radio/episodes?show=${id}&limit=500`);
    }
  } catch (err) {
    if (err.status === 404) return gone();
    return showError(t("radio.show.failed", { message: message(err) }));
  } finally {
    $("#view").setAttribute("aria-busy", "false");
  }
  document.title = `Quintet · ${view === "episode" ? state.episode.title : state.show.title}`;
  if (state.show.editable) {
    [state.categories, state.trash] = await Promise.all([api("/api/radio/categories"), api("/api/radio/deleted")]);
  }
  $("#signin").hidden = state.show.editable;
  render();
}

/** A 404: for its owner the thing may be deleted, with a restore button; else "not found". */
async function gone() {
  try {
    state.trash = await api("/api/radio/deleted");
  } catch (_) {
    $("#signin").hidden = false;
    return showError(t("radio.show.notFound"));
  }
  const list = view === "episode" ? state.trash.episodes : state.trash.shows;
  if (!list.some((x) => x.id === id)) return showError(t("radio.show.notFound"));
  $("#restore-gone").hidden = false;
  $("#restore-gone-button").onclick = async () => {
    await api(`/api/radio/${view === "episode" ? "episodes" : "shows"}/${id}/restore`, { method: "POST" });
    $("#restore-gone").hidden = true;
    load();
  };
}

// --- Rendering ------------------------------------------------------------------------------

function render() {
  const s = state.show;
  $("#crumb-show").replaceChildren(view === "episode" ? el("a", { href: `/radio/show/?id=${s.id}` }, s.title) : s.title);
  $("#view").replaceChildren(...(view === "episode" ? episodeView(state.episode) : showView(s)));
  renderEditor();
  renderTrash();
}

function showView(s) {
  return [
    el("div", { class: "show-head" },
      s.cover_url ? el("img", { class: "cover", src: s.cover_url, alt: t("radio.show.coverAlt", { show: s.title }) }) : null,
      el("div", { class: "facts" },
        el("h1", { id: "show-title" }, s.title),
        el("p", { class: "meta" }, t("radio.show.by"), " ",
          el("a", { class: "owner", href: `/radio/people/?name=${encodeURIComponent(s.owner)}` }, s.owner)),
        s.category ? el("p", { class: "category" }, t("radio.show.category"), ": ", categoryText(s)) : null,
        el("p", { class: "meta" }, t("radio.show.language"), ": ", s.language, s.explicit ? ` · ${t("radio.show.explicit")}` : ""),
        el("p", {}, el("a", { class: "feed", href: s.feed_url, type: "application/rss+xml" }, t("radio.shows.feed"))),
        followRow(s))),
    shareRow(`/radio/s/${s.id}`, s.title),
    s.description ? el("p", { class: "description" }, s.description) : null,
    el("h2", {}, t("radio.show.episodes")),
    state.episodes.length ? el("ul", { class: "episode-list", id: "episode-list" }, ...state.episodes.map(episodeItem))
      : el("p", { class: "empty" }, t("radio.episodes.empty")),
  ];
}

function episodeItem(e) {
  const published = e.state === "published";
  return el("li", { "data-episode-id": e.id, class: published ? null : "unpublished" },
    el("div", {}, el("a", { class: "episode-title", href: `/radio/show/episode.html?id=${e.id}` }, e.title),
      published ? null : el("span", { class: "state" }, t(`radio.episodes.state.${e.state}`))),
    el("span", { class: "meta" }, when(e.published_at || e.ended_at || e.started_at), " · ", duration(e.duration)),
    e.state === "live" ? null : el("audio", { controls: true, preload: "none", src: e.audio_url, "aria-label": e.title }),
    state.show.editable ? episodeActions(e) : null);
}

function episodeActions(e) {
  const published = e.state === "published";
  return el("div", { class: "actions" },
    e.state === "live" ? null : el("button", { type: "button", class: "publish", onclick: () => setPublished(e, !published) },
      t(published ? "radio.show.unpublish" : "radio.show.publish")),
    e.state === "live" ? null : el("button", { type: "button", class: "delete danger", onclick: () => deleteEpisode(e) },
      t("radio.show.delete")));
}

function episodeView(e) {
  return [
    el("h1", { id: "episode-title" }, e.title),
    el("p", { class: "meta" }, when(e.published_at || e.ended_at || e.started_at), " · ", duration(e.duration),
      e.state === "published" ? "" : el("span", { class: "state" }, t(`radio.episodes.state.${e.state}`))),
    e.state === "live" ? null : el("audio", { controls: true, preload: "metadata", src: e.audio_url, "aria-label": e.title }),
    e.description ? el("p", { class: "description" }, e.description) : null,
    e.state === "published" ? shareRow(`/radio/e/${e.id}`, e.title) : null,
    state.show.editable ? episodeActions(e) : null,
  ];
}

// --- Follow and share -----------------------------------------------------------------------

function followRow(s) {
  const following = !!s.followed_by_you;
  return el("p", { class: "social" },
    el("button", { type: "button", id: "follow-show", class: "follow", "aria-pressed": String(following),
      "aria-label": t(following ? "radio.discover.unfollowShow" : "radio.discover.followShow", { show: s.title }),
      onclick: () => follow(s) }, t(following ? "radio.discover.following" : "radio.discover.follow")),
    " ", el("span", { id: "show-followers", class: "meta" }, plural("radio.people.followers", s.followers || 0)));
}

async function follow(s) {
  const following = !!s.followed_by_you;
  try {
    await api(`/api/radio/shows/${s.id}/follow`, { method: following ? "DELETE" : "PUT" });
  } catch (err) {
    if (err.status === 401) {
      state.pendingFollow = true;
      $("#signin").hidden = false;
      $("#signin details").open = true;
      $("#signin-name").focus();
      return showError(t("radio.show.signinToFollow"));
    }
    return showError(t("radio.show.saveFailed", { message: message(err) }));
  }
  s.followed_by_you = !following;
  s.followers = Math.max(0, (s.followers || 0) + (following ? -1 : 1));
  render();
  $("#follow-show").focus();
  announce(t(following ? "radio.discover.unfollowed" : "radio.discover.followed", { show: s.title }));
}

/** The share link of `path` (same origin as the page), copied by its button or handed to the
 *  system's share sheet where there is one (phones). */
function shareRow(path, title) {
  const link = new URL(path, location.href).href;
  const input = el("input", { id: "share-link", readonly: true, value: link, "aria-label": t("radio.show.shareLink") });
  const copy = async () => {
    if (navigator.share) {
      try { await navigator.share({ title, url: link }); return; } catch (_) { /* cancelled: copy instead */ }
    }
    input.select();
    try {
      await navigator.clipboard.writeText(link);
    } catch (_) {
      document.execCommand && document.execCommand("copy"); // plain-http pages have no async clipboard
    }
    announce(t("radio.show.copied"));
  };
  return el("p", { class: "share" }, el("button", { type: "button", id: "share-button", onclick: copy }, t("radio.show.share")), " ", input);
}

// --- The editor -----------------------------------------------------------------------------

function field(label, input) { return el("label", {}, el("span", {}, label), input); }
function check(label, input) { return el("label", { class: "check" }, input, el("span", {}, label)); }

function renderEditor() {
  const editable = state.show.editable;
  $("#editor").hidden = !editable;
  if (!editable) return;
  const form = $("#edit-form");
  if (view === "episode") {
    const e = state.episode;
    form.replaceChildren(
      field(t("radio.show.field.title"), el("input", { name: "title", value: e.title, maxlength: 200, required: true })),
      field(t("radio.show.field.description"), el("textarea", { name: "description", maxlength: 4000 }, e.description)),
      el("div", { class: "row" }, el("button", { type: "submit" }, t("radio.show.save"))));
    return;
  }
  const s = state.show;
  const category = el("select", { name: "category" }, el("option", { value: "" }, t("radio.show.field.none")),
    ...state.categories.map((c) => el("option", { value: c.name, selected: c.name === s.category }, c.name)));
  const subcategory = el("select", { name: "subcategory" });
  const fillSub = () => {
    const chosen = state.categories.find((c) => c.name === category.value);
    subcategory.replaceChildren(el("option", { value: "" }, t("radio.show.field.none")),
      ...(chosen ? chosen.subcategories : []).map((n) => el("option", { value: n, selected: n === s.subcategory }, n)));
  };
  category.addEventListener("change", fillSub);
  fillSub();
  const coverFile = el("input", { type: "file", name: "coverFile", accept: "image/jpeg,image/png,image/webp" });
  coverFile.addEventListener("change", () => uploadCover(coverFile));
  form.replaceChildren(
    field(t("radio.show.field.title"), el("input", { name: "title", value: s.title, maxlength: 200, required: true })),
    field(t("radio.show.field.description"), el("textarea", { name: "description", maxlength: 4000 }, s.description)),
    field(t("radio.show.field.coverURL"), el("input", { name: "cover", type: "text", inputmode: "url",
      value: s.cover_url && !s.cover_url.includes("/radio/covers/") ? s.cover_url : "" })),
    field(t("radio.show.field.coverUpload"), coverFile),
    field(t("radio.show.field.language"), el("input", { name: "language", value: s.language, maxlength: 35 })),
    check(t("radio.show.field.explicit"), el("input", { type: "checkbox", name: "explicit", checked: s.explicit })),
    field(t("radio.show.field.category"), category),
    field(t("radio.show.field.subcategory"), subcategory),
    check(t("radio.show.field.autoPublish"), el("input", { type: "checkbox", name: "autoPublish", checked: s.publish_automatically })),
    el("div", { class: "row" }, el("button", { type: "submit" }, t("radio.show.save")),
      el("button", { type: "button", class: "danger", id: "delete-show", onclick: deleteShow }, t("radio.show.deleteShow"))));
}

$("#edit-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const f = event.target.elements;
  status(t("radio.show.saving"));
  try {
    if (view === "episode") {
      state.episode = await api(`/api/radio/episodes/${state.episode.id}`, { method: "PATCH",
        body: { title: f.title.value, description: f.description.value } });
    } else {
      const body = { title: f.title.value, description: f.description.value, language: f.language.value.trim(),
        explicit: f.explicit.checked, category: f.category.value, subcategory: f.subcategory.value,
        publish_automatically: f.autoPublish.checked };
      const typed = f.cover.value.trim();
      const uploaded = state.show.cover_url && state.show.cover_url.includes("/radio/covers/");
      if (typed || !uploaded) body.cover = typed; // an uploaded cover stays unless a URL replaces it
      state.show = await api(`/api/radio/shows/${state.show.id}`, { method: "PATCH", body });
    }
    render();
    status(t("radio.show.saved"));
  } catch (err) {
    status(t("radio.show.saveFailed", { message: message(err) }));
  }
});

async function uploadCover(input) {
  const file = input.files && input.files[0];
  if (!file) return;
  status(t("radio.show.uploading"));
  try {
    state.show = await api(`/api/radio/shows/${state.show.id}/cover`, { method: "PUT", body: file });
    render();
    status(t("radio.show.saved"));
  } catch (err) {
    status(t("radio.show.saveFailed", { message: message(err) }));
  }
}

async function setPublished(e, published) {
  try {
    const changed = await api(`/api/radio/episodes/${e.id}`, { method: "PATCH", body: { published } });
    if (view === "episode") state.episode = changed;
    else state.episodes = state.episodes.map((x) => (x.id === changed.id ? changed : x));
    render();
    announce(t(published ? "radio.show.published" : "radio.show.unpublished", { title: changed.title }));
  } catch (err) {
    status(t("radio.show.saveFailed", { message: message(err) }));
  }
}

// --- Delete, undo, restore ------------------------------------------------------------------

async function deleteEpisode(e) {
  try {
    await api(`/api/radio/episodes/${e.id}`, { method: "DELETE" });
  } catch (err) {
    return status(t("radio.show.saveFailed", { message: message(err) }));
  }
  if (view === "episode") {
    toast(t("radio.show.deletedOne", { title: e.title }), () => restore("episodes", e.id));
    $("#view").replaceChildren();
    $("#editor").hidden = true;
    $("#restore-gone").hidden = false;
    $("#restore-gone-button").onclick = () => restore("episodes", e.id);
    return;
  }
  state.episodes = state.episodes.filter((x) => x.id !== e.id);
  state.trash.episodes = [{ ...e, deleted_at: new Date().toISOString() }, ...state.trash.episodes];
  render();
  toast(t("radio.show.deletedOne", { title: e.title }), () => restore("episodes", e.id));
}

async function deleteShow() {
  const s = state.show;
  try {
    await api(`/api/radio/shows/${s.id}`, { method: "DELETE" });
  } catch (err) {
    return status(t("radio.show.saveFailed", { message: message(err) }));
  }
  $("#view").replaceChildren();
  $("#editor").hidden = true;
  $("#trash").hidden = true;
  $("#restore-gone").hidden = false;
  $("#restore-gone-button").onclick = () => restore("shows", s.id);
  toast(t("radio.show.deletedOne", { title: s.title }), () => restore("shows", s.id));
}

async function restore(kind, itemID) {
  hideToast();
  try {
    await api(`/api/radio/${kind}/${itemID}/restore`, { method: "POST" });
  } catch (err) {
    return showError(t("radio.show.restoreFailed", { message: message(err) }));
  }
  $("#restore-gone").hidden = true;
  announce(t("radio.show.restored"));
  await load();
}

function toast(text, undo) {
  clearTimeout(state.toastTimer);
  $("#toast-text").textContent = text;
  $("#toast-undo").onclick = undo;
  $("#toast").hidden = false;
  $("#toast-undo").focus();
  state.toastTimer = setTimeout(hideToast, TOAST_MS);
}

function hideToast() {
  clearTimeout(state.toastTimer);
  $("#toast").hidden = true;
}

function renderTrash() {
  const episodes = (state.trash.episodes || []).filter((e) => e.show_id === state.show.id);
  $("#trash").hidden = !state.show.editable || view !== "show" || episodes.length === 0;
  $("#trash-list").replaceChildren(...episodes.map((e) => el("li", { "data-episode-id": e.id },
    el("span", {}, e.title), el("span", { class: "meta" }, t("radio.show.deletedOn"), " ", when(e.deleted_at)),
    el("button", { type: "button", class: "restore", onclick: () => restore("episodes", e.id) }, t("radio.show.restore")))));
}

// --- Sign-in --------------------------------------------------------------------------------

$("#signin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    await api("/api/session", { method: "POST", body: { name: $("#signin-name").value.trim(), password: $("#signin-password").value } });
    $("#signin-password").value = "";
    $("#restore-gone").hidden = true;
    await load();
    // Signed in because Follow asked: follow now, unless the account follows it already.
    if (state.pendingFollow && state.show && view === "show") {
      state.pendingFollow = false;
      if (!state.show.followed_by_you) await follow(state.show);
    }
  } catch (err) {
    showError(message(err));
  }
});

document.addEventListener("change", (event) => {
  if (event.target && event.target.id === "language" && state.show) render();
});

if (Number.isInteger(id) && id > 0) load();
else showError(t("radio.show.notFound"));
