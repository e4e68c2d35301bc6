// Cuts a MediaRecorder stream (WebM or Ogg, Opus) into self-contained units, so that what was
// captured while the ingest socket was down can be sent on a new socket as a valid stream of
// its own (docs/radio.md, "The studio page"):
//
// - WebM: the header (EBML header, Segment start, Info, Tracks: everything before the first
//   Cluster) and then one unit per SimpleBlock or BlockGroup, each with its cluster's timestamp.
//   A socket's stream is rebuilt as header + for each cluster met: a Cluster of unknown size and
//   its Timestamp element + the blocks. The blocks' timecodes are relative to their cluster's
//   timestamp, so a block keeps its time wherever it is sent.
// - Ogg: the header is the first two pages (OpusHead, OpusTags), and each later page is a unit.
//
//   const cutter = new StreamCutter("audio/webm");
//   for (const unit of cutter.push(new Uint8Array(await blob.arrayBuffer()))) queue.push(unit);
//   socket.send(cutter.header); for (const u of queue) socket.send(cutter.frame(u, state));

const CLUSTER = 0x1f43b675;
const TIMESTAMP = 0xe7;
const SIMPLE_BLOCK = 0xa3;
const BLOCK_GROUP = 0xa0;
const SEGMENT = 0x18538067;
const EBML = 0x1a45dfa3;

/** An EBML variable-length integer at `at`: {length, value, unknown} or null if incomplete. */
export function readVint(bytes, at, keepMarker = false) {
  if (at >= bytes.length) return null;
  const first = bytes[at];
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length += 1;
  if (length > 8) throw new Error("not an EBML number");
  if (at + length > bytes.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = (first & (0xff >> length)) === (0xff >> length);
  for (let i = 1; i < length; i += 1) {
    value = value * 256 + bytes[at + i];
    if (bytes[at + i] !== 0xff) allOnes = false;
  }
  return { length, value, unknown: allOnes };
}

function concat(a, b) {
  if (!a.length) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** The bytes of an EBML unsigned integer element. */
function uintElement(id, value) {
  const bytes = [];
  let v = value;
  do { bytes.unshift(v % 256); v = Math.floor(v / 256); } while (v > 0);
  const idBytes = [];
  for (let x = id; x > 0; x = Math.floor(x / 256)) idBytes.unshift(x % 256);
  return new Uint8Array([...idBytes, 0x80 | bytes.length, ...bytes]);
}

/** A Cluster start of unknown size followed by its Timestamp. */
export function clusterStart(timestamp) {
  return concat(new Uint8Array([0x1f, 0x43, 0xb6, 0x75, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
    uintElement(TIMESTAMP, timestamp));
}

export class StreamCutter {
  /** `type`: the recorder's MIME type (WebM unless it names Ogg). */
  constructor(type) {
    this.ogg = /ogg/i.test(type || "");
    this.header = null; // Uint8Array once complete
    this.pending = new Uint8Array(0);
    this.headerParts = [];
    this.cluster = 0; // WebM: the current cluster's timestamp
    this.inCluster = false;
  }

  /** Takes the recorder's next bytes; returns the units completed by them. */
  push(bytes) {
    this.pending = concat(this.pending, bytes);
    return this.ogg ? this.pushOgg() : this.pushWebM();
  }

  pushOgg() {
    const units = [];
    const b = this.pending;
    let at = 0;
    while (at + 27 <= b.length) {
      if (b[at] !== 0x4f || b[at + 1] !== 0x67 || b[at + 2] !== 0x67 || b[at + 3] !== 0x53) throw new Error("not an Ogg page");
      const segments = b[at + 26];
      if (at + 27 + segments > b.length) break;
      let size = 27 + segments;
      for (let i = 0; i < segments; i += 1) size += b[at + 27 + i];
      if (at + size > b.length) break;
      const page = b.slice(at, at + size);
      if (this.header === null) {
        this.headerParts.push(page);
        if (this.headerParts.length === 2) this.header = this.headerParts.reduce(concat, new Uint8Array(0));
      } else {
        units.push({ bytes: page });
      }
      at += size;
    }
    this.pending = b.slice(at);
    return units;
  }

  pushWebM() {
    const units = [];
    const b = this.pending;
    let at = 0;
    for (;;) {
      const id = readVint(b, at, true);
      if (!id) break;
      const size = readVint(b, at + id.length);
      if (!size) break;
      const bodyAt = at + id.length + size.length;
      if (id.value === SEGMENT || (id.value === CLUSTER)) {
        // Containers we step into (their size may be unknown: a live recording).
        if (id.value === CLUSTER) {
          if (this.header === null) this.header = b.slice(0, at);
          this.inCluster = true;
        }
        at = bodyAt;
        continue;
      }
      if (size.unknown) throw new Error("an element of unknown size the studio does not know");
      if (bodyAt + size.value > b.length) break;
      if (this.inCluster && id.value === TIMESTAMP) {
        let value = 0;
        for (let i = 0; i < size.value; i += 1) value = value * 256 + b[bodyAt + i];
        this.cluster = value;
      } else if (this.inCluster && (id.value === SIMPLE_BLOCK || id.value === BLOCK_GROUP)) {
        units.push({ cluster: this.cluster, bytes: b.slice(at, bodyAt + size.value) });
      } else if (id.value === EBML && this.header !== null) {
        throw new Error("a second stream began");
      }
      at = bodyAt + size.value;
    }
    // Before the first cluster everything is kept (it becomes the header).
    this.pending = this.header === null ? b : b.slice(at);
    return units;
  }

  /** The bytes to send for `unit` on a socket whose state is `sent` ({cluster}: the last cluster
   *  started on that socket, null on a new one). */
  frame(unit, sent) {
    if (this.ogg) return unit.bytes;
    if (sent.cluster === unit.cluster) return unit.bytes;
    sent.cluster = unit.cluster;
    return concat(clusterStart(unit.cluster), unit.bytes);
  }
}
