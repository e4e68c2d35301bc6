// "Record here, publish later" (issue 22): the studio's mix is recorded in the browser, each
// MediaRecorder slice stored in IndexedDB as it comes (a closed tab or a crash loses at most the
// last slice), and uploaded afterwards as an episode through the server's resumable uploads
// (POST /api/radio/shows/{id}/uploads, PUT /api/radio/uploads/{id}?offset=, POST …/finish). A
// broken upload resumes from the offset the server reports; the recording stays in the browser
// until the server has made the episode.
import { APIError, api } from "/common/api.js";

const DB = "quintet-studio";
const PIECE = 1024 * 1024;

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function open() {
  const r = indexedDB.open(DB, 1);
  r.onupgradeneeded = () => {
    const db = r.result;
    db.createObjectStore("recordings", { keyPath: "id" });
    db.createObjectStore("chunks", { keyPath: ["recording", "seq"] });
  };
  return request(r);
}

async function store(name, mode, body) {
  const db = await open();
  try {
    const tx = db.transaction(name, mode);
    const result = await body(tx.objectStore(name));
    await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); tx.onabort = () => reject(tx.error); });
    return result;
  } finally {
    db.close();
  }
}

/** Every recording kept in this browser, newest first. */
export async function recordings() {
  const all = await store("recordings", "readonly", (s) => request(s.getAll()));
  return all.sort((a, b) => b.started - a.started);
}

export async function saveRecording(recording) {
  await store("recordings", "readwrite", (s) => request(s.put(recording)));
}

/** Removes a recording and its slices. */
export async function removeRecording(id) {
  await store("chunks", "readwrite", (s) => request(s.delete(IDBKeyRange.bound([id, 0], [id, Infinity]))));
  await store("recordings", "readwrite", (s) => request(s.delete(id)));
}

async function blobOf(recording) {
  const chunks = await store("chunks", "readonly",
    (s) => request(s.getAll(IDBKeyRange.bound([recording.id, 0], [recording.id, Infinity]))));
  chunks.sort((a, b) => a.seq - b.seq);
  return new Blob(chunks.map((c) => c.blob), { type: recording.type });
}

/** Records a MediaRecorder's slices into IndexedDB. */
export class LocalRecording {
  constructor(show, type, title) {
    this.recording = { id: `${Date.now()}-${Math.random().toString(16).slice(2, 8)}`, show: show.id, showTitle: show.title,
      type, title, started: Date.now(), seconds: 0, size: 0, finished: false, uploadId: null };
    this.seq = 0;
    this.pending = Promise.resolve();
    this.ready = saveRecording(this.recording);
  }

  /** Stores one slice (in order: each write waits for the one before). */
  add(blob) {
    const seq = this.seq++;
    this.recording.size += blob.size;
    this.pending = this.pending.then(() => this.ready)
      .then(() => store("chunks", "readwrite", (s) => request(s.put({ recording: this.recording.id, seq, blob }))))
      .then(() => saveRecording(this.recording));
    return this.pending;
  }

  async finish(seconds) {
    this.recording.seconds = seconds;
    this.recording.finished = true;
    await this.pending;
    await saveRecording(this.recording);
  }
}

/** Uploads a kept recording, resuming where the server stopped. `progress(sent, total)` is
 *  called after each piece. Resolves to the episode; the recording is then removed. Test hooks:
 *  `hooks.piece` (bytes per request) and `hooks.breakAfter` (throw after that many pieces). */
export async function upload(recording, progress = () => {}, hooks = {}) {
  const blob = await blobOf(recording);
  let id = recording.uploadId;
  let offset = 0;
  if (id) {
    try {
      offset = (await api(`/api/radio/uploads/${id}`)).offset;
    } catch (err) {
      if (!(err instanceof APIError && err.status === 404)) throw err;
      id = null; // the server no longer has it: start again
    }
  }
  if (!id) {
    const started = await api(`/api/radio/shows/${recording.show}/uploads`, { method: "POST",
      body: { type: recording.type.split(";")[0], title: recording.title } });
    id = started.id;
    offset = 0;
    recording.uploadId = id;
    await saveRecording(recording);
  }
  const piece = hooks.piece || PIECE;
  let sent = 0;
  progress(offset, blob.size);
  while (offset < blob.size) {
    if (hooks.breakAfter !== undefined && sent >= hooks.breakAfter) {
      hooks.breakAfter = undefined;
      throw new APIError(0, "network", "the connection broke (test)");
    }
    try {
      const answer = await api(`/api/radio/uploads/${id}?offset=${offset}`, { method: "PUT",
        body: blob.slice(offset, offset + piece, "application/octet-stream") });
      offset = answer.offset;
    } catch (err) {
      if (!(err instanceof APIError && err.code === "offset_mismatch")) throw err;
      offset = (await api(`/api/radio/uploads/${id}`)).offset; // the server says where to go on
    }
    sent += 1;
    progress(offset, blob.size);
  }
  const episode = await api(`/api/radio/uploads/${id}/finish`, { method: "POST" });
  await removeRecording(recording.id);
  return episode;
}
