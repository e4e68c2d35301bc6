// A user's public profile (/radio/people/?name=…, GET /api/radio/users/{name}): display name,
// description, town, picture, followers and following, their shows, and a Follow button
// (PUT/DELETE /api/radio/users/{name}/follow; a sign-in form appears when it answers 401).
// Everything the user wrote is set as text, never as HTML.
import { api } from "/common/api.js";
import { $, announce, el } from "/common/dom.js";
import { plural } from "/common/format.js";
import { t } from "/common/i18n.js";

const name = new URLSearchParams(location.search).get("name") || "";
let person = null;

function showError(text) {
  $("#person-error").textContent = text || "";
  $("#person-error").hidden = !text;
}

async function load() {
  if (!name) { showError(t("radio.people.noName")); return; }
  try {
    person = await api(`/api/radio/users/${encodeURIComponent(name)}`);
    showError("");
    render();
  } catch (err) {
    showError(t("radio.people.failed", { message: err.message || String(err) }));
  }
  $("#person").setAttribute("aria-busy", "false");
}

function render() {
  if (!person) return;
  $("#person").hidden = false;
  const shown = person.display_name || person.name;
  $("#person-name").textContent = shown;
  document.title = `Quintet · ${shown}`;
  $("#person-handle").textContent = `@${person.name}`;
  $("#person-town").textContent = person.town || "";
  $("#person-counts").textContent = `${plural("radio.people.followers", person.followers)} · ${t("radio.people.following", { count: person.following })}`;
  $("#person-description").textContent = person.description || "";
  const picture = $("#person-picture");
  picture.hidden = !person.picture_url;
  if (person.picture_url) {
    picture.src = person.picture_url;
    picture.alt = t("radio.people.picture", { name: shown });
  }
  const button = $("#person-follow");
  button.hidden = false;
  button.textContent = t(person.followed_by_you ? "radio.people.unfollow" : "radio.people.follow");
  button.setAttribute("aria-pressed", String(!!person.followed_by_you));
  button.setAttribute("aria-label", t(person.followed_by_you ? "radio.people.unfollowLabel" : "radio.people.followLabel", { name: shown }));
  $("#person-no-shows").hidden = person.shows.length > 0;
  $("#person-shows").replaceChildren(...person.shows.map((s) => el("li", { "data-show-id": s.id },
    el("a", { class: "show-title", href: s.url }, s.title),
    s.description ? el("span", { class: "meta" }, s.description.slice(0, 160)) : null)));
}

$("#person-follow").addEventListener("click", async () => {
  const following = !!person.followed_by_you;
  try {
    await api(`/api/radio/users/${encodeURIComponent(person.name)}/follow`, { method: following ? "DELETE" : "PUT" });
    await load();
    announce($("#person-counts").textContent);
  } catch (err) {
    if (err.status === 401) { $("#person-signin").hidden = false; $("#person-signin-name").focus(); }
    else showError(t("radio.people.failed", { message: err.message || String(err) }));
  }
});

$("#person-signin").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    await api("/api/session", { method: "POST",
      body: { name: $("#person-signin-name").value.trim(), password: $("#person-signin-password").value } });
    $("#person-signin-password").value = "";
    $("#person-signin").hidden = true;
    load();
  } catch (err) {
    showError(t("library.signin.failed", { message: err.message || String(err) }));
  }
});

document.addEventListener("change", (event) => {
  if (event.target && event.target.id === "language") render();
});

load();
