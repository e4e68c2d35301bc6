// The installable-app side of every page (page.js imports it): registers the service worker
// (/sw.js, which keeps the pages for offline use) and shows a banner while the server cannot
// be reached — when a request through api.js fails to connect (page.js asks /healthz at load,
// so a page opened from the saved copy says it at once) — until one gets through again.
import { serverReachability } from "./api.js";
import { el } from "./dom.js";
import { t } from "./i18n.js";

/** Registers the service worker once the page has loaded. Browsers allow one only on a
 *  secure page (https, or http on localhost): elsewhere the pages simply work online only. */
function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .catch((err) => console.warn("Quintet: no offline copy of the pages:", err.message));
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}

/** The banner under the header (made on first use); its texts follow the language picker. */
function banner() {
  let node = document.querySelector("#server-unreachable");
  if (!node) {
    node = el("div", { id: "server-unreachable", class: "offline-banner", hidden: true },
      el("p", { role: "alert" },
        el("strong", { "data-i18n": "offline.heading" }, t("offline.heading")), " ",
        el("span", { "data-i18n": "offline.body" }, t("offline.body"))),
      el("button", { type: "button", "data-i18n": "offline.retry", onclick: () => location.reload() },
        t("offline.retry")));
    const header = document.querySelector(".site-header");
    if (header) header.after(node);
    else document.body.prepend(node);
  }
  return node;
}

serverReachability.addEventListener("unreachable", () => { banner().hidden = false; });
serverReachability.addEventListener("reachable", () => {
  const node = document.querySelector("#server-unreachable");
  if (node) node.hidden = true;
});
registerServiceWorker();
