// Page 3, "puzzle": a picture in four pieces; drag each piece into its place on the wooden
// frame (it snaps); a piece dropped elsewhere floats back. All four placed = finished.
import { C, cloud, createPage, stitchCircle, stitchRect } from "./kit.js";

const PW = 220, PH = 165; // a piece, in stage units
const BOARD = { x: 540, y: 220 }; // the picture's top-left corner on the frame
const HOMES = [{ x: 150, y: 200 }, { x: 375, y: 262 }, { x: 150, y: 480 }, { x: 380, y: 575 }];
const SNAP = 95; // a piece whose centre is this close to its place snaps in

function picture(uid) {
  return `<g id="${uid}-pic">
    <rect width="440" height="330" fill="${C.sky}"/>
    <rect width="440" height="330" fill="url(#${uid}-knit-sky)" opacity="0.5"/>
    <g transform="translate(92 78)"><circle r="44" fill="${C.yellow}"/>${stitchCircle(0, 0, 37, C.yellowLight, 3)}
      <path d="M-58 0 h-16 M58 0 h16 M0 -58 v-14 M-41 -41 l-11 -11 M41 -41 l11 -11 M-41 41 l-11 11" stroke="${C.yellow}" stroke-width="8" stroke-linecap="round"/></g>
    ${cloud(300, 70, 0.7)}
    <path d="M0 215 Q110 180 220 205 T440 190 L440 330 L0 330 Z" fill="${C.meadow}"/>
    <rect x="0" y="262" width="440" height="44" fill="#d9cbb8"/>
    <path d="M10 284 H430" stroke="#fffaf0" stroke-width="4" stroke-dasharray="18 14" stroke-linecap="round"/>
    <g transform="translate(258 122)">
      <rect x="8" y="54" width="126" height="92" rx="12" fill="${C.cream}"/>
      <path d="M-4 64 L71 4 L146 64 Z" fill="${C.roof}" stroke="${C.roof}" stroke-width="10" stroke-linejoin="round"/>
      <rect x="56" y="92" width="30" height="54" rx="10" fill="#c99a72"/>
      <rect x="20" y="78" width="26" height="24" rx="5" fill="#a9d6ec"/><rect x="98" y="78" width="26" height="24" rx="5" fill="#a9d6ec"/>
      ${stitchRect(8, 54, 126, 92, 12, C.creamLight, 5)}
    </g>
    <g transform="translate(60 150)">
      <rect x="26" y="52" width="18" height="64" rx="8" fill="${C.wood}"/>
      <circle cx="35" cy="40" r="50" fill="${C.leaf}"/><circle cx="18" cy="28" r="22" fill="#8fcc7d"/>
      ${stitchCircle(35, 40, 43, C.leafLight, 2.6)}
      <circle cx="56" cy="30" r="7" fill="${C.red}"/><circle cx="22" cy="56" r="7" fill="${C.red}"/><circle cx="48" cy="62" r="7" fill="${C.red}"/>
    </g>
    <g transform="translate(170 262)">
      <rect x="0" y="0" width="104" height="44" rx="18" fill="${C.red}"/>
      <rect x="22" y="-22" width="58" height="30" rx="12" fill="${C.red}"/>
      <rect x="30" y="-16" width="42" height="18" rx="6" fill="#cfe8f5"/>
      ${stitchRect(0, 0, 104, 44, 18, C.redLight, 5)}
      <circle cx="24" cy="44" r="13" fill="${C.ink}"/><circle cx="80" cy="44" r="13" fill="${C.ink}"/>
      <circle cx="24" cy="44" r="5" fill="${C.grey}"/><circle cx="80" cy="44" r="5" fill="${C.grey}"/>
    </g>
    <g fill="#ffffff"><circle cx="390" cy="232" r="6"/><circle cx="120" cy="240" r="6"/><circle cx="30" cy="236" r="5"/></g>
  </g>`;
}

function mount(root, api) {
  const kit = createPage(root, api, "puzzle");
  const { uid } = kit;
  const quads = [0, 1, 2, 3].map((i) => ({ qx: (i % 2) * PW, qy: Math.floor(i / 2) * PH }));
  const places = quads.map(({ qx, qy }) => ({ x: BOARD.x + qx + PW / 2, y: BOARD.y + qy + PH / 2 }));
  kit.svg.innerHTML = `
    <defs>
      <pattern id="${uid}-knit" width="16" height="12" patternUnits="userSpaceOnUse">
        <path d="M2 2 L8 10 L14 2" fill="none" stroke="${C.meadowKnit}" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></pattern>
      <pattern id="${uid}-knit-sky" width="16" height="12" patternUnits="userSpaceOnUse">
        <path d="M2 2 L8 10 L14 2" fill="none" stroke="${C.skyLight}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></pattern>
      ${quads.map(({ qx, qy }, i) => `<pattern id="${uid}-q${i}" patternUnits="userSpaceOnUse" x="${-PW / 2 - qx}" y="${-PH / 2 - qy}" width="440" height="330"><use href="#${uid}-pic"/></pattern>`).join("")}
      ${picture(uid)}
    </defs>
    <rect width="1024" height="768" fill="${C.sky}"/>
    <g class="qp-drift">${cloud(170, 80, 0.8)}</g>
    <g class="qp-drift-slow">${cloud(720, 70, 0.7)}</g>
    <path d="M0 640 Q300 600 512 630 T1024 615 L1024 768 L0 768 Z" fill="${C.meadow}"/>
    <path d="M0 640 Q300 600 512 630 T1024 615 L1024 768 L0 768 Z" fill="url(#${uid}-knit)" opacity="0.55"/>
    <rect x="${BOARD.x - 26}" y="${BOARD.y - 26}" width="492" height="382" rx="26" fill="${C.wood}"/>
    ${stitchRect(BOARD.x - 26, BOARD.y - 26, 492, 382, 26, C.woodLight, 9, 3)}
    <rect x="${BOARD.x}" y="${BOARD.y}" width="440" height="330" rx="10" fill="${C.creamLight}"/>
    <use href="#${uid}-pic" x="${BOARD.x}" y="${BOARD.y}" opacity="0.22"/>
    ${places.map((p, i) => `<rect data-slot="piece-${i}" x="${p.x - PW / 2 + 4}" y="${p.y - PH / 2 + 4}" width="${PW - 8}" height="${PH - 8}" rx="10" fill="none" stroke="${C.wood}" stroke-width="3" stroke-dasharray="8 8" stroke-linecap="round" opacity="0.7"/>`).join("")}
    <g class="qp-butterfly" transform="translate(900 640)"><g class="qp-bob">
      <ellipse cx="-14" cy="-6" rx="16" ry="12" fill="${C.pink}"/><ellipse cx="14" cy="-6" rx="16" ry="12" fill="${C.purpleLight}"/>
      <ellipse cx="-10" cy="10" rx="10" ry="8" fill="${C.pink}"/><ellipse cx="10" cy="10" rx="10" ry="8" fill="${C.purpleLight}"/>
      <rect x="-3" y="-14" width="6" height="32" rx="3" fill="${C.ink}"/></g></g>
    <g class="qp-pieces">${quads.map(({ qx, qy }, i) => `<g data-target="piece-${i}">
      <rect x="${-PW / 2 - 4}" y="${-PH / 2 - 4}" width="${PW + 8}" height="${PH + 8}" rx="14" fill="#ffffff" opacity="0.85"/>
      <rect x="${-PW / 2}" y="${-PH / 2}" width="${PW}" height="${PH}" rx="10" fill="url(#${uid}-q${i})"/>
      <rect x="${-PW / 2 + 5}" y="${-PH / 2 + 5}" width="${PW - 10}" height="${PH - 10}" rx="8" fill="none" stroke="#ffffff" stroke-width="2.4" stroke-dasharray="6 6" stroke-linecap="round" opacity="0.9"/>
    </g>`).join("")}</g>`;

  let placed = 0;
  kit.$$("[data-target]").forEach((el, i) => {
    const state = { x: HOMES[i].x, y: HOMES[i].y, home: HOMES[i], placed: false };
    kit.draggable(el, state, {
      locked: (s) => s.placed,
      onDrop: (s) => (Math.hypot(s.x - places[i].x, s.y - places[i].y) <= SNAP ? places[i] : null),
      onSnapped: (s) => {
        s.placed = true;
        el.setAttribute("data-locked", "true");
        el.parentNode.prepend(el); // under pieces still loose
        kit.done(el);
        api.sound("snap");
        placed += 1;
        const frame = el.firstElementChild;
        kit.play(frame, [{ opacity: 1 }, { opacity: 0 }], 500);
        frame.setAttribute("opacity", "0");
        if (placed === places.length) {
          kit.play(kit.$(".qp-butterfly > g"), [{ transform: "translate(0, 0)" }, { transform: "translate(-260px, -420px) scale(1.4)" }, { transform: "translate(-140px, -300px) scale(1.2)" }], 1400, { easing: "ease-in-out" });
          kit.finish(300);
        }
      },
    });
  });

  return { start: () => kit.start(), destroy: () => kit.destroy() };
}

export default { id: "puzzle", mount };
