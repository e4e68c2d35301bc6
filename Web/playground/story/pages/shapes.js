// Page 7, "shapes": a shape sorter with four holes (circle, square, triangle, star) and the four
// pieces; drag each piece into the hole of its shape (its rim has the piece's colour) and it
// snaps in; dropped anywhere else, it floats back. All four in = finished.
import { C, createPage, starPath, stitchRect } from "./kit.js";

const SHAPES = {
  circle: (g) => `<circle r="${62 + g}"/>`,
  square: (g) => `<rect x="${-60 - g}" y="${-60 - g}" width="${120 + 2 * g}" height="${120 + 2 * g}" rx="18"/>`,
  triangle: (g) => `<path d="M0 ${-68 - g} L${70 + g} ${54 + g / 2} L${-70 - g} ${54 + g / 2} Z" stroke-linejoin="round"/>`,
  star: (g) => `<path d="${starPath(74 + g, 36 + g / 2)}" stroke-linejoin="round"/>`,
};
const PIECES = [
  { name: "circle", fill: C.red, light: C.redLight, hole: { x: 190, y: 215 }, home: { x: 640, y: 560 } },
  { name: "square", fill: C.blue, light: C.blueLight, hole: { x: 400, y: 215 }, home: { x: 180, y: 575 } },
  { name: "triangle", fill: C.yellow, light: C.yellowLight, hole: { x: 620, y: 215 }, home: { x: 860, y: 585 } },
  { name: "star", fill: C.purple, light: C.purpleLight, hole: { x: 840, y: 215 }, home: { x: 410, y: 585 } },
];
const SNAP = 90;

function withAttrs(shape, attrs) {
  return shape.replace(/^<(\w+)/, `<$1 ${attrs}`);
}

function mount(root, api) {
  const kit = createPage(root, api, "shapes");
  const { uid } = kit;
  kit.svg.innerHTML = `
    <defs><pattern id="${uid}-knit" width="16" height="12" patternUnits="userSpaceOnUse">
      <path d="M2 2 L8 10 L14 2" fill="none" stroke="#e9d3b6" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></pattern></defs>
    <rect width="1024" height="768" fill="${C.cream}"/>
    <rect width="1024" height="768" fill="url(#${uid}-knit)"/>
    <rect y="440" width="1024" height="328" fill="#e9cfa9"/>
    <path d="M0 440 H1024" stroke="#fffaf0" stroke-width="4" stroke-dasharray="10 10" stroke-linecap="round"/>
    <g class="qp-sorter">
      <rect x="60" y="80" width="904" height="270" rx="40" fill="${C.wood}"/>
      ${stitchRect(60, 80, 904, 270, 40, C.woodLight, 12, 3)}
      ${PIECES.map((p) => `<g data-slot="${p.name}" transform="translate(${p.hole.x} ${p.hole.y})">
        ${withAttrs(SHAPES[p.name](10), `fill="${p.fill}" stroke="${p.fill}" stroke-width="8"`)}
        ${withAttrs(SHAPES[p.name](4), `fill="#5b4636" stroke="#5b4636" stroke-width="4"`)}
        ${withAttrs(SHAPES[p.name](-6), `fill="none" stroke="#7a5f4a" stroke-width="3" stroke-dasharray="6 6" stroke-linecap="round"`)}
      </g>`).join("")}
    </g>
    <g class="qp-pieces">${PIECES.map((p, i) => `<g data-target="${p.name}">
      <rect x="-75" y="-78" width="150" height="150" rx="30" fill="transparent"/>
      <g class="qp-bob qp-delay-${i + 1}">
        <g transform="translate(4 8)" opacity="0.18">${withAttrs(SHAPES[p.name](0), `fill="${C.ink}" stroke="${C.ink}" stroke-width="8"`)}</g>
        ${withAttrs(SHAPES[p.name](0), `fill="${p.fill}" stroke="${p.fill}" stroke-width="8"`)}
        ${withAttrs(SHAPES[p.name](-10), `fill="none" stroke="${p.light}" stroke-width="3" stroke-dasharray="6 6" stroke-linecap="round"`)}
        <circle cx="-14" cy="-6" r="5" fill="${C.ink}"/><circle cx="14" cy="-6" r="5" fill="${C.ink}"/>
        <path d="M-12 12 Q0 22 12 12" fill="none" stroke="${C.ink}" stroke-width="4" stroke-linecap="round"/>
      </g>
    </g>`).join("")}</g>`;

  let inside = 0;
  kit.$$("[data-target]").forEach((el, i) => {
    const p = PIECES[i];
    const state = { x: p.home.x, y: p.home.y, home: p.home, in: false };
    kit.draggable(el, state, {
      locked: (s) => s.in,
      onDrop: (s) => (Math.hypot(s.x - p.hole.x, s.y - p.hole.y) <= SNAP ? p.hole : null),
      onSnapped: (s) => {
        s.in = true;
        el.setAttribute("data-locked", "true");
        kit.done(el);
        api.sound("snap");
        const body = el.querySelector(".qp-bob");
        body.classList.remove("qp-bob");
        kit.play(body, [{ transform: "scale(1.15)" }, { transform: "scale(0.88)" }, { transform: "scale(1)" }], 420);
        inside += 1;
        if (inside === PIECES.length) {
          kit.$$("[data-target] > g").forEach((g, j) => kit.play(g, [{ transform: "translateY(0)" }, { transform: "translateY(-40px)" }, { transform: "translateY(0)" }], 600 + j * 80, { easing: "ease-in-out" }));
          kit.finish(300);
        }
      },
    });
  });

  return { start: () => kit.start(), destroy: () => kit.destroy() };
}

export default { id: "shapes", mount };
