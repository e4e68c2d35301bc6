// A small helper for the JSON API and websockets, shared by every page.

/** An error the server answered in its JSON error format ({"error": {code, message}}). */
export class APIError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** GETs or sends JSON; resolves to the decoded body, rejects with APIError. */
export async function api(path, { method = "GET", body, signal, headers = {} } = {}) {
  const init = { method, signal, headers: { Accept: "application/json", ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new APIError(0, "network", err.message || "network error");
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch (_) { data = text; }
  }
  if (!response.ok) {
    const e = data && data.error ? data.error : { code: String(response.status), message: response.statusText };
    throw new APIError(response.status, e.code, e.message);
  }
  return data;
}

/** The websocket URL of a path on this server (ws: or wss: to match the page). */
export function socketURL(path) {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return url;
}

/** Opens a websocket on this server with JSON messages.
 *  Reconnects with back-off until close() is called. */
export function socket(path, { onMessage = () => {}, onOpen = () => {}, onClose = () => {} } = {}) {
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
      if (!closed) setTimeout(open, delay = Math.min(delay * 2, 15000));
    };
  };
  open();
  return {
    send(message) { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message)); },
    close() { closed = true; ws.close(); },
  };
}
