// What every page does on load: translate, wire the language picker, show server status.
import { api } from "./api.js";
import { addAnnouncer } from "./dom.js";
import { applyTranslations, currentLanguage, setLanguage, t } from "./i18n.js";
import "./pwa.js";

/** Puts the shared header (brand, language picker) and footer (server status) around <main>,
 *  and the hidden status line that announce() speaks through. */
function addChrome() {
  const header = document.createElement("header");
  header.className = "site-header";
  header.innerHTML = `
    <a class="brand" href="/" data-i18n="app.name">Quintet</a>
    <label><span data-i18n="nav.language">Language</span>
      <select id="language"><option value="en">English</option><option value="it">Italiano</option><option value="es">Español</option></select>
    </label>`;
  const footer = document.createElement("footer");
  footer.className = "site-footer";
  footer.innerHTML = `<span id="server-status" role="status"></span><span data-i18n="footer.api"></span>`;
  document.body.prepend(header);
  addAnnouncer();
  document.body.append(footer);
}

export function startPage() {
  addChrome();
  applyTranslations();
  const picker = document.querySelector("#language");
  if (picker) {
    picker.value = currentLanguage();
    picker.addEventListener("change", () => { setLanguage(picker.value); showStatus(); });
  }
  showStatus();
}

let lastHealth = null;

async function showStatus() {
  const line = document.querySelector("#server-status");
  if (!line) return;
  if (!lastHealth) {
    line.textContent = t("status.checking");
    // A server out of reach may not even refuse (a phone away from its Wi-Fi): give up after 8 s.
    const signal = AbortSignal.timeout ? AbortSignal.timeout(8000) : undefined;
    try { lastHealth = await api("/healthz", { signal }); } catch (_) { lastHealth = { status: "down" }; }
  }
  const ok = lastHealth.status === "ok";
  line.textContent = ok ? t("status.ok", { version: lastHealth.version }) : t("status.down");
  line.dataset.state = ok ? "ok" : "down";
}

startPage();
