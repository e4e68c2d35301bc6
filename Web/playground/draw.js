// The draw-list renderer of /playground/: paints the commands a game module leaves in its
// linear memory (docs/playground.md, "Draw list") on a 2D canvas, and reads the module's
// events. Pure functions of the bytes: the host calls them once per frame, tests call them
// with lists built by hand.
//
//   const commands = drawList(ctx, memory.buffer, ptr, size, { scale: 2, atlases });
//   for (const event of readEvents(memory.buffer, eventsPtr, count)) ...

export const MAGIC = 0x314c4451; // 'QDL1', little-endian
export const OP_QUAD = 1;
export const OP_IMAGE = 2;
export const OP_TEXT = 3;
export const EVENT_BYTES = 20;
const HEADER_BYTES = 12;
const COMMON_BYTES = 32; // op, a b c d tx ty, alpha
const FONT = "system-ui, -apple-system, \"Segoe UI\", Roboto, sans-serif";

/** A draw list the renderer cannot read: a wrong header, a command past the end, an op it
 *  does not know (its length is unknown, so nothing after it can be read either). */
export class DrawListError extends Error {
  constructor(message) {
    super(message);
    this.name = "DrawListError";
  }
}

/** The CSS colour of a 0xRRGGBBAA word with its alpha multiplied by alpha. */
export function cssColour(rgba, alpha = 1) {
  const a = ((rgba & 0xff) / 255) * alpha;
  return `rgba(${rgba >>> 24},${(rgba >>> 16) & 0xff},${(rgba >>> 8) & 0xff},${+a.toFixed(4)})`;
}

/** The mean of two 0xRRGGBBAA colours, channel by channel. */
function mix(p, q) {
  let out = 0;
  for (let shift = 24; shift >= 0; shift -= 8) {
    out |= (((((p >>> shift) & 0xff) + ((q >>> shift) & 0xff)) >> 1) << shift);
  }
  return out >>> 0;
}

/** The fill of a quad (0,0)-(w,h) with vertex colours tl, tr, bl, br (Sparrow's order).
 *  Exact when the four are equal or vary along one axis only (a linear gradient); when all
 *  four differ, a diagonal gradient tl → mean of the four → br approximates the bilinear
 *  blend (exact at tl, br and the centre; tr and bl get the mean). */
function quadFill(ctx, w, h, [tl, tr, bl, br], alpha) {
  if (tl === tr && tr === bl && bl === br) return cssColour(tl, alpha);
  let gradient;
  if (tl === bl && tr === br) {
    gradient = ctx.createLinearGradient(0, 0, w, 0);
    gradient.addColorStop(0, cssColour(tl, alpha));
    gradient.addColorStop(1, cssColour(tr, alpha));
  } else if (tl === tr && bl === br) {
    gradient = ctx.createLinearGradient(0, 0, 0, h);
    gradient.addColorStop(0, cssColour(tl, alpha));
    gradient.addColorStop(1, cssColour(bl, alpha));
  } else {
    gradient = ctx.createLinearGradient(0, 0, w, h);
    gradient.addColorStop(0, cssColour(tl, alpha));
    gradient.addColorStop(0.5, cssColour(mix(mix(tl, br), mix(tr, bl)), alpha));
    gradient.addColorStop(1, cssColour(br, alpha));
  }
  return gradient;
}

/** Tinted copies of atlas regions (a multiply of the region by the tint's colour, keeping the
 *  region's own alpha), made once per atlas, region and tint. */
const tinted = new Map();
const TINT_CACHE_LIMIT = 256;

function tintedRegion(image, atlasIndex, regionIndex, region, tint) {
  const key = `${atlasIndex}/${regionIndex}/${tint >>> 8}`;
  let canvas = tinted.get(key);
  if (canvas && canvas.source === image) return canvas;
  canvas = document.createElement("canvas");
  canvas.width = Math.max(1, region.w);
  canvas.height = Math.max(1, region.h);
  canvas.source = image;
  const g = canvas.getContext("2d");
  g.drawImage(image, region.x, region.y, region.w, region.h, 0, 0, region.w, region.h);
  g.globalCompositeOperation = "multiply";
  g.fillStyle = cssColour(tint | 0xff);
  g.fillRect(0, 0, region.w, region.h);
  g.globalCompositeOperation = "destination-in";
  g.drawImage(image, region.x, region.y, region.w, region.h, 0, 0, region.w, region.h);
  if (tinted.size >= TINT_CACHE_LIMIT) tinted.delete(tinted.keys().next().value);
  tinted.set(key, canvas);
  return canvas;
}

const utf8 = new TextDecoder("utf-8");

/** Paints the draw list at byte offset ptr (size bytes) of buffer on ctx; returns the number
 *  of commands drawn. scale is canvas pixels per stage point (the page's fit times
 *  devicePixelRatio); atlases[i] is { image, regions: [{x, y, w, h}] } for the list's atlas i.
 *  The canvas is cleared first. Throws DrawListError on a list it cannot read. */
export function drawList(ctx, buffer, ptr, size, { scale = 1, atlases = [] } = {}) {
  if (size < HEADER_BYTES || ptr + size > buffer.byteLength) {
    throw new DrawListError(`a draw list of ${size} bytes at ${ptr} does not fit the memory (${buffer.byteLength} bytes)`);
  }
  const view = new DataView(buffer, ptr, size);
  const magic = view.getUint32(0, true);
  if (magic !== MAGIC) throw new DrawListError(`not a draw list: header 0x${magic.toString(16)} instead of 'QDL1'`);
  const count = view.getUint32(4, true);
  const total = view.getUint32(8, true);
  if (total !== size) throw new DrawListError(`the header says ${total} bytes, the module ${size}`);

  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  let at = HEADER_BYTES;
  const need = (bytes, what) => {
    if (at + bytes > size) throw new DrawListError(`${what} at byte ${at} runs past the end (${size} bytes)`);
  };
  for (let i = 0; i < count; i += 1) {
    need(COMMON_BYTES, `command ${i}`);
    const op = view.getUint32(at, true);
    const f = (k) => view.getFloat32(at + 4 * k, true);
    const u = (k) => view.getUint32(at + 4 * k, true);
    ctx.setTransform(scale * f(1), scale * f(2), scale * f(3), scale * f(4), scale * f(5), scale * f(6));
    const alpha = Math.min(1, Math.max(0, f(7)));
    const w = f(8), h = f(9);
    if (op === OP_QUAD) {
      need(56, `quad ${i}`);
      ctx.globalAlpha = 1;
      ctx.fillStyle = quadFill(ctx, w, h, [u(10), u(11), u(12), u(13)], alpha);
      ctx.fillRect(0, 0, w, h);
      at += 56;
    } else if (op === OP_IMAGE) {
      need(52, `image ${i}`);
      const atlasIndex = u(10), regionIndex = u(11), tint = u(12);
      const atlas = atlases[atlasIndex];
      const region = atlas && atlas.regions[regionIndex];
      if (!region) throw new DrawListError(`image ${i}: no region ${regionIndex} in atlas ${atlasIndex}`);
      ctx.globalAlpha = alpha * ((tint & 0xff) / 255);
      if ((tint >>> 8) === 0xffffff) {
        ctx.drawImage(atlas.image, region.x, region.y, region.w, region.h, 0, 0, w, h);
      } else {
        ctx.drawImage(tintedRegion(atlas.image, atlasIndex, regionIndex, region, tint), 0, 0, region.w, region.h, 0, 0, w, h);
      }
      at += 52;
    } else if (op === OP_TEXT) {
      need(56, `text ${i}`);
      const fontSize = f(10), colour = u(11), align = u(12), n = u(13);
      const padded = (n + 3) & ~3;
      need(56 + padded, `text ${i}`);
      const text = utf8.decode(new Uint8Array(buffer, ptr + at + 56, n));
      ctx.globalAlpha = 1;
      ctx.fillStyle = cssColour(colour, alpha);
      ctx.font = `${fontSize}px ${FONT}`;
      ctx.textBaseline = "middle";
      ctx.textAlign = align === 1 ? "center" : align === 2 ? "right" : "left";
      ctx.fillText(text, align === 1 ? w / 2 : align === 2 ? w : 0, h / 2);
      at += 56 + padded;
    } else {
      throw new DrawListError(`command ${i}: unknown op ${op} at byte ${at}`);
    }
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  return count;
}

/** The images of a draw list, where they are: [{atlas, region, x, y}] with (x, y) the stage
 *  point their box's centre lands on (tests aim taps with it). */
export function listImages(buffer, ptr, size) {
  const view = new DataView(buffer, ptr, size);
  const images = [];
  let at = HEADER_BYTES;
  for (let i = view.getUint32(4, true); i > 0 && at + COMMON_BYTES <= size; i -= 1) {
    const op = view.getUint32(at, true);
    const f = (k) => view.getFloat32(at + 4 * k, true);
    if (op === OP_IMAGE) {
      const cx = f(8) / 2, cy = f(9) / 2;
      images.push({ atlas: view.getUint32(at + 40, true), region: view.getUint32(at + 44, true),
        x: f(1) * cx + f(3) * cy + f(5), y: f(2) * cx + f(4) * cy + f(6) });
    }
    if (op === OP_QUAD) at += 56;
    else if (op === OP_IMAGE) at += 52;
    else if (op === OP_TEXT) at += 56 + ((view.getUint32(at + 52, true) + 3) & ~3);
    else break;
  }
  return images;
}

/** The count events at byte offset ptr of buffer: [{frame, kind, subject, value, x, y}]. */
export function readEvents(buffer, ptr, count) {
  if (count <= 0) return [];
  if (ptr + count * EVENT_BYTES > buffer.byteLength) {
    throw new DrawListError(`${count} events at ${ptr} do not fit the memory (${buffer.byteLength} bytes)`);
  }
  const view = new DataView(buffer, ptr, count * EVENT_BYTES);
  const events = [];
  for (let at = 0; at < count * EVENT_BYTES; at += EVENT_BYTES) {
    events.push({
      frame: view.getUint32(at, true), kind: view.getUint16(at + 4, true), subject: view.getUint16(at + 6, true),
      value: view.getInt32(at + 8, true), x: view.getFloat32(at + 12, true), y: view.getFloat32(at + 16, true),
    });
  }
  return events;
}
