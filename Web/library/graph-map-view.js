// The #map view of the library page: loads the whole-library map, mounts the WebGL drawing
// (graph-map.js) and shows what a tap picked, with a link to it. A pick is also sent as a
// "library-map-pick" event on window ({detail: node}), so the graph explorer can seed itself.
import { api, APIError } from "/common/api.js";
import { announce, el } from "/common/dom.js";
import { t } from "/common/i18n.js";
import { mountMap, parseMap } from "./graph-map.js";

const RETRY_MS = 2000;

/** Names of map nodes by key, through GET /api/library/graph/names. */
async function names(keys) {
  const { names: found } = await api(`/api/library/graph/names?nodes=${encodeURIComponent(keys.join(","))}`);
  return new Map(found.map((n) => [n.node, n.name]));
}

/** The view: {crumbs, nodes}; `isCurrent()` says whether the page still shows #map (a map that
 *  is still being laid out is asked for again until then). */
export async function mapView({ home, isCurrent }) {
  const startedAt = performance.now();
  const crumbs = [home, { label: t("library.map.heading") }];
  const readout = el("p", { id: "map-readout", class: "map-readout" });
  const picked = el("p", { id: "map-picked", class: "map-picked" });
  const canvas = el("canvas", { id: "map-canvas", class: "map-canvas", tabindex: "0", role: "img",
    "aria-label": t("library.map.label") });
  const frame = el("div", { class: "map-frame" }, canvas);
  const section = el("section", { class: "map", "aria-labelledby": "map-heading" },
    el("h2", { id: "map-heading", class: "view-heading" }, t("library.map.heading")),
    el("p", { class: "meta" }, t("library.map.help")), readout, frame, picked);
  let buffer;
  try {
    buffer = await api("/api/library/graph/map", { binary: true });
  } catch (err) {
    if (!(err instanceof APIError) || err.code !== "map_not_ready") throw err;
    readout.textContent = t("library.map.computing");
    canvas.hidden = true;
    const retry = () => setTimeout(async () => {
      if (!isCurrent()) return;
      try {
        const status = await api("/api/library/graph/map/status");
        if (status.ready) window.dispatchEvent(new HashChangeEvent("hashchange"));
        else retry();
      } catch (_) { retry(); }
    }, RETRY_MS);
    retry();
    return { crumbs, nodes: [section] };
  }
  const map = parseMap(buffer);
  readout.textContent = t("library.map.counts", { nodes: map.nodeCount.toLocaleString(), edges: map.edgeCount.toLocaleString() });
  announce(readout.textContent); // the shared announcer, not a live region of our own
  canvas.dataset.nodes = String(map.nodeCount);
  // Mounted once the section is in the page (the caller inserts it right after this returns).
  requestAnimationFrame(() => {
    // The handle stays on the element (toScreen, pick, setView): the explorer and the tests use it.
    canvas.mapHandle = mountMap(canvas, map, {
      startedAt,
      names,
      onPick(node) {
        // From the whole library into the explorer: the picked node seeds the graph view.
        picked.replaceChildren(t(`library.map.picked.${node.kind}`), " ",
          el("a", { href: `#${node.kind}/${node.id}`, id: "map-picked-link" }, node.key), " · ",
          el("a", { href: `#graph/${node.kind}/${node.id}`, id: "map-picked-explore", class: "button" },
            t("library.map.explore")));
        canvas.dataset.picked = node.key;
        window.dispatchEvent(new CustomEvent("library-map-pick", { detail: node }));
        names([node.key]).then((found) => {
          const link = picked.querySelector("#map-picked-link");
          if (link && found.get(node.key) && canvas.dataset.picked === node.key) link.textContent = found.get(node.key);
        }).catch(() => {});
      },
    });
  });
  return { crumbs, nodes: [section] };
}
