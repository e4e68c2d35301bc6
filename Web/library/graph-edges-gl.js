// The explorer's edges drawn with WebGL under the 2D canvas: every edge is a quad of its
// width (two triangles), dashes and dots cut out by the fragment shader, all edges in one
// draw call. Canvas 2D strokes thousands of wide or dashed lines slowly (Chromium's GPU
// canvas tessellates each one); the quads cost the same whatever the style. Where WebGL is
// missing, GraphRenderer strokes the edges on its 2D canvas instead.

const VERTEX = `
attribute vec2 position;   // CSS px
attribute float along;     // CSS px from the edge's start
attribute vec2 dash;       // on, off (0, 0: solid)
attribute vec4 colour;
uniform vec2 size;         // canvas CSS px
varying float vAlong;
varying vec2 vDash;
varying vec4 vColour;
void main() {
  gl_Position = vec4(position.x / size.x * 2.0 - 1.0, 1.0 - position.y / size.y * 2.0, 0.0, 1.0);
  vAlong = along;
  vDash = dash;
  vColour = colour;
}`;
const FRAGMENT = `
precision mediump float;
varying float vAlong;
varying vec2 vDash;
varying vec4 vColour;
void main() {
  if (vDash.x > 0.0 && mod(vAlong, vDash.x + vDash.y) > vDash.x) discard;
  gl_FragColor = vec4(vColour.rgb * vColour.a, vColour.a);
}`;
const FLOATS = 9; // x, y, along, on, off, r, g, b, a

export class EdgeLayer {
  /** The layer on `canvas`, or null when the browser has no WebGL. */
  static create(canvas) {
    const gl = canvas.getContext("webgl", { alpha: false, antialias: false, premultipliedAlpha: true, preserveDrawingBuffer: false });
    if (!gl) return null;
    try { return new EdgeLayer(canvas, gl); } catch (_) { return null; }
  }

  constructor(canvas, gl) {
    this.canvas = canvas;
    this.gl = gl;
    const shader = (type, source) => {
      const s = gl.createShader(type);
      gl.shaderSource(s, source);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
      return s;
    };
    const program = gl.createProgram();
    gl.attachShader(program, shader(gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(program, shader(gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program));
    this.program = program;
    this.buffer = gl.createBuffer();
    this.data = new Float32Array(6 * FLOATS * 1024);
    this.attributes = ["position", "along", "dash", "colour"].map((name) => gl.getAttribLocation(program, name));
    this.size = gl.getUniformLocation(program, "size");
    this.colours = new Map(); // CSS colour -> [r, g, b, a]
  }

  resize(width, height, ratio) {
    const w = Math.round(width * ratio), h = Math.round(height * ratio);
    if (this.canvas.width !== w || this.canvas.height !== h) { this.canvas.width = w; this.canvas.height = h; }
    this.width = width;
    this.height = height;
  }

  rgba(colour) {
    let c = this.colours.get(colour);
    if (c) return c;
    const m = /^rgba?\(([^)]+)\)$/.exec(colour);
    if (m) {
      const p = m[1].split(",").map((x) => Number(x.trim()));
      c = [p[0] / 255, p[1] / 255, p[2] / 255, p.length > 3 ? p[3] : 1];
    } else {
      const hex = colour.replace("#", "");
      const full = hex.length === 3 ? hex.split("").map((x) => x + x).join("") : hex;
      c = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255).concat(1);
    }
    this.colours.set(colour, c);
    return c;
  }

  /** Clears to the background and draws the edges: `groups` is [[style, edges]], each edge
   *  with its ends' screen positions (a.sx, a.sy, b.sx, b.sy). */
  draw(background, groups) {
    const gl = this.gl;
    let count = 0;
    for (const [, edges] of groups) count += edges.length;
    if (this.data.length < count * 6 * FLOATS) this.data = new Float32Array(count * 6 * FLOATS * 2);
    const d = this.data;
    let i = 0;
    for (const [style, edges] of groups) {
      const [r, g, b, a] = this.rgba(style.colour);
      const half = style.width / 2, on = style.dash.length ? style.dash[0] : 0, off = style.dash.length ? style.dash[1] : 0;
      for (const e of edges) {
        const x0 = e.a.sx, y0 = e.a.sy, x1 = e.b.sx, y1 = e.b.sy;
        const dx = x1 - x0, dy = y1 - y0, len = Math.hypot(dx, dy);
        if (len < 0.5) continue;
        const nx = (-dy / len) * half, ny = (dx / len) * half;
        // two triangles: (0+, 1+, 1-) and (0+, 1-, 0-)
        const put = (x, y, along) => {
          d[i] = x; d[i + 1] = y; d[i + 2] = along; d[i + 3] = on; d[i + 4] = off;
          d[i + 5] = r; d[i + 6] = g; d[i + 7] = b; d[i + 8] = a;
          i += FLOATS;
        };
        put(x0 + nx, y0 + ny, 0); put(x1 + nx, y1 + ny, len); put(x1 - nx, y1 - ny, len);
        put(x0 + nx, y0 + ny, 0); put(x1 - nx, y1 - ny, len); put(x0 - nx, y0 - ny, 0);
      }
    }
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    const [br, bg, bb] = this.rgba(background);
    gl.clearColor(br, bg, bb, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    const vertices = i / FLOATS;
    if (!vertices) return;
    gl.useProgram(this.program);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    gl.bufferData(gl.ARRAY_BUFFER, d.subarray(0, i), gl.DYNAMIC_DRAW);
    const stride = FLOATS * 4;
    const [position, along, dash, colour] = this.attributes;
    const attribute = (loc, size, offset) => {
      if (loc < 0) return;
      gl.enableVertexAttribArray(loc);
      gl.vertexAttribPointer(loc, size, gl.FLOAT, false, stride, offset * 4);
    };
    attribute(position, 2, 0);
    attribute(along, 1, 2);
    attribute(dash, 2, 3);
    attribute(colour, 4, 5);
    gl.uniform2f(this.size, this.width, this.height);
    gl.drawArrays(gl.TRIANGLES, 0, vertices);
  }
}
