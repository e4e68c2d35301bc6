// My account (issue 24 §1): register (with ?invite=), sign in and out, change the password,
// edit every profile field (each shown with its current value, empty ones too), upload a
// picture with a preview, see the plan with its usage, and make an invitation link.
// Everything users wrote is set as text, never as HTML.
import { api } from "/common/api.js";
import { $, announce, el } from "/common/dom.js";
import { t } from "/common/i18n.js";

const FIELDS = ["display_name", "description", "town", "latitude", "longitude", "birth_date", "sex"];
const invite = new URLSearchParams(location.search).get("invite") || "";

function showError(id, err) {
  const node = $(id);
  node.textContent = err ? err.message || String(err) : "";
  node.hidden = !err;
}

function show(ids, visible) {
  for (const id of ids) $(id).hidden = !visible;
}

function megabytes(bytes) {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

function row(label, value, key) {
  const empty = value === null || value === undefined || value === "";
  return [el("dt", {}, label), el("dd", { "data-field": key, class: empty ? "empty" : "" }, empty ? t("radio.account.empty") : String(value))];
}

function renderProfile(profile) {
  $("#profile-current").replaceChildren(
    ...FIELDS.flatMap((key) => row(t(`radio.account.field.${key}`), profile[key], key)),
    ...row(t("radio.account.followers"), profile.followers, "followers"),
    ...row(t("radio.account.following"), profile.following, "following"));
  for (const key of FIELDS) {
    const input = $(`#f-${key}`);
    input.value = profile[key] === null || profile[key] === undefined ? "" : String(profile[key]);
  }
  const preview = $("#picture-preview");
  if (profile.has_picture) {
    preview.src = `/radio/users/${profile.user_id}/picture?size=256&t=${Date.now()}`;
    preview.hidden = false;
  }
  const plan = profile.plan;
  const usage = profile.usage || { episodes_online: 0, storage_bytes: 0 };
  const unlimited = t("radio.account.plan.unlimited");
  $("#plan-details").replaceChildren(
    ...row(t("radio.account.plan.name"), plan ? plan.name : t("radio.account.plan.none"), "plan"),
    ...row(t("radio.account.plan.maxEpisode"), plan ? `${Math.round(plan.max_episode_seconds / 60)} min` : unlimited, "max_episode"),
    ...row(t("radio.account.plan.online"),
           `${usage.episodes_online} / ${plan && plan.max_episodes_online !== null ? plan.max_episodes_online : unlimited}`, "online"),
    ...row(t("radio.account.plan.storage"),
           `${megabytes(usage.storage_bytes)} / ${plan && plan.max_storage_bytes !== null ? megabytes(plan.max_storage_bytes) : unlimited}`, "storage"));
}

async function refresh() {
  const { user } = await api("/api/session");
  const signedIn = Boolean(user);
  show(["#me", "#profile", "#plan", "#invite", "#password"], signedIn);
  show(["#signin"], !signedIn);
  if (!signedIn) {
    const { registration } = await api("/api/register");
    $("#register").hidden = registration === "closed";
    $("#register-mode").textContent = t(`radio.account.mode.${registration}`);
    $("#register-invite").value = invite;
    $("#register-invite").closest("label").hidden = registration === "open" && !invite;
    $("#account-status").textContent = t("radio.account.signedOut");
    return;
  }
  $("#register").hidden = true;
  $("#me-name").textContent = user.name;
  $("#account-status").textContent = "";
  renderProfile(await api("/api/radio/profile"));
}

$("#register-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("#register-error", null);
  try {
    const body = { name: $("#register-name").value, password: $("#register-password").value };
    const token = $("#register-invite").value.trim();
    if (token) body.invite = token;
    await api("/api/register", { method: "POST", body });
    history.replaceState(null, "", location.pathname);
    announce(t("radio.account.registered"));
    await refresh();
  } catch (err) { showError("#register-error", err); }
});

$("#signin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("#signin-error", null);
  try {
    await api("/api/session", { method: "POST", body: { name: $("#signin-name").value, password: $("#signin-password").value } });
    await refresh();
  } catch (err) { showError("#signin-error", err); }
});

$("#signout").addEventListener("click", async () => {
  await api("/api/session", { method: "DELETE" });
  await refresh();
});

$("#profile-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("#profile-error", null);
  const body = {};
  for (const key of FIELDS) {
    const value = $(`#f-${key}`).value.trim();
    body[key] = value === "" ? null : (key === "latitude" || key === "longitude" ? Number(value) : value);
  }
  try {
    renderProfile(await api("/api/radio/profile", { method: "PUT", body }));
    announce(t("radio.account.profile.saved"));
  } catch (err) { showError("#profile-error", err); }
});

$("#picture-file").addEventListener("change", () => {
  const file = $("#picture-file").files[0];
  if (!file) return;
  const preview = $("#picture-preview");
  preview.src = URL.createObjectURL(file);
  preview.hidden = false;
});

$("#picture-upload").addEventListener("click", async () => {
  showError("#picture-error", null);
  const file = $("#picture-file").files[0];
  if (!file) { showError("#picture-error", new Error(t("radio.account.picture.choose"))); return; }
  try {
    renderProfile(await api("/api/radio/profile/picture", { method: "PUT", body: file }));
    announce(t("radio.account.picture.saved"));
  } catch (err) { showError("#picture-error", err); }
});

$("#invite-make").addEventListener("click", async () => {
  showError("#invite-error", null);
  try {
    const made = await api("/api/radio/invites", { method: "POST", body: {} });
    const link = $("#invite-link");
    link.value = made.url;
    link.hidden = false;
    link.select();
    $("#invite-expires").textContent = t("radio.account.invite.expires", { date: new Date(made.expires_at).toLocaleDateString() });
  } catch (err) { showError("#invite-error", err); }
});

$("#password-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("#password-error", null);
  try {
    await api("/api/account/password", { method: "POST", body: { current: $("#password-current").value, new: $("#password-new").value } });
    $("#password-form").reset();
    announce(t("radio.account.password.changed"));
    $("#account-status").textContent = t("radio.account.password.changed");
  } catch (err) { showError("#password-error", err); }
});

refresh().catch((err) => { $("#account-status").textContent = err.message; });
