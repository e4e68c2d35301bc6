// The one way the pages talk to the server: JSON and raw-body requests (api) and JSON
// websockets (socket), shared by every page. No page calls fetch() or new WebSocket itself.

/** An error the server answered in its JSON error format ({"error": {code, message, field?}}),
 *  or a network failure (status 0, code "network"). */
export class APIError extends Error {
  constructor(status, code, message, field) {
    super(message);
    this.name = "APIError";
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** Whether the server answers: api() sends "unreachable" when a request cannot connect (or
 *  times out through its signal) and "reachable" when an answer arrives (common/pwa.js shows
 *  and hides its banner on them). */
export const serverReachability = new EventTarget();

/** Bodies sent as they are rather than as JSON: files, blobs and bytes. */
function isRaw(body) {
  return body instanceof Blob || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
}

/** Calls the server; resolves to the decoded JSON answer (text if it is not JSON, null if
 *  empty), rejects with APIError. A plain value body goes as JSON; a File, Blob, ArrayBuffer
 *  or typed array goes as it is, with its own type (else application/octet-stream) unless
 *  headers name a Content-Type. Every request carries X-Requested-With: quintet, so a 401
 *  brings no browser password prompt. An aborted request rejects with the AbortError.
 *
 *    const { artists } = await api("/api/library/artists?q=glass");
 *    await api("/api/session", { method: "POST", body: { name, password } });
 *    const tempo = await api("/api/tempo", { method: "POST", body: input.files[0] });
 *    const block = await api("/api/library/graph/map", { binary: true });   // an ArrayBuffer
 */
export async function api(path, { method = "GET", body, signal, headers = {}, binary = false } = {}) {
  const init = { method, signal, headers: { Accept: "application/json", "X-Requested-With": "quintet" } };
  if (isRaw(body)) {
    init.body = body;
    init.headers["Content-Type"] = body.type || "application/octet-stream";
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  Object.assign(init.headers, headers);
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    if (err && err.name === "AbortError") throw err;
    serverReachability.dispatchEvent(new Event("unreachable"));
    throw new APIError(0, "network", (err && err.message) || "network error");
  }
  serverReachability.dispatchEvent(new Event("reachable"));
  if (binary && response.ok) return response.arrayBuffer();
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch (_) { data = text; }
  }
  if (!response.ok) {
    const e = data && data.error ? data.error : {};
    throw new APIError(response.status, e.code || String(response.status), e.message || response.statusText, e.field);
  }
  return data;
}

/** The websocket URL of a path on this server (ws: or wss: to match the page). */
export function socketURL(path) {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return url;
}

/** A plain websocket on this server, binary messages as ArrayBuffers, for a page that streams
 *  bytes and reconnects by its own rules (the radio studio's ingest). */
export function rawSocket(path) {
  const ws = new WebSocket(socketURL(path));
  ws.binaryType = "arraybuffer";
  return ws;
}

/** Opens a websocket on this server with JSON messages (a message that is not JSON is passed
 *  as text). With reconnect (the default) it opens again with back-off until close() is
 *  called; without, onClose marks the end. send() drops messages while the socket is not open.
 *
 *    const live = socket("/api/runner/live", { reconnect: false,
 *      onOpen: () => live.send({ type: "start" }), onMessage: (m) => show(m) });
 */
export function socket(path, { onMessage = () => {}, onOpen = () => {}, onClose = () => {}, reconnect = true } = {}) {
  const url = socketURL(path);
  let ws;
  let closed = false;
  let delay = 500;
  const open = () => {
    ws = new WebSocket(url);
    ws.onopen = () => { delay = 500; onOpen(); };
    ws.onmessage = (event) => {
      let message = event.data;
      try { message = JSON.parse(event.data); } catch (_) { /* not JSON: pass as text */ }
      onMessage(message);
    };
    ws.onclose = () => {
      onClose();
      if (reconnect && !closed) setTimeout(open, delay = Math.min(delay * 2, 15000));
    };
  };
  open();
  return {
    /** True while the socket is open (send() delivers). */
    get open() { return ws.readyState === WebSocket.OPEN; },
    send(message) { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message)); },
    close() { closed = true; ws.close(); },
  };
}
