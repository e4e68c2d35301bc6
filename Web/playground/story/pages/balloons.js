// Page 4, "balloons": five balloons tied to a post; drag one up to the big cloud and let go
// (its centre above the sky line, y ≤ 330) and it floats into the cloud; let go lower and it
// drifts back to the post. All five in the cloud = finished.
import { C, cloud, createPage, stitchRect } from "./kit.js";

const COLOURS = [[C.red, C.redLight], [C.yellow, C.yellowLight], [C.blue, C.blueLight], [C.purple, C.purpleLight], [C.orange, C.orangeLight]];
const HOMES = [{ x: 230, y: 470 }, { x: 370, y: 420 }, { x: 512, y: 450 }, { x: 654, y: 420 }, { x: 794, y: 470 }];
const DOCKS = [352, 432, 512, 592, 672].map((x, i) => ({ x, y: 262 + (i % 2) * 18, ms: 550 }));
const KNOT = { x: 512, y: 650 };
const SKY_LINE = 330; // a balloon let go with its centre above this line floats into the cloud

function balloon(i) {
  const [fill, light] = COLOURS[i];
  return `<g data-target="balloon-${i}">
    <rect x="-60" y="-74" width="120" height="160" rx="50" fill="transparent"/>
    <g class="qp-sway qp-from-bottom qp-delay-${i + 1}">
      <path d="M0 62 L-9 76 L9 76 Z" fill="${fill}" stroke="${fill}" stroke-width="4" stroke-linejoin="round"/>
      <ellipse cx="0" cy="0" rx="52" ry="64" fill="${fill}"/>
      <ellipse cx="0" cy="2" rx="43" ry="55" fill="none" stroke="${light}" stroke-width="2.6" stroke-dasharray="6 6" stroke-linecap="round"/>
      <path d="M-24 -30 Q-18 -46 -2 -50" fill="none" stroke="#ffffff" stroke-width="7" stroke-linecap="round" opacity="0.8"/>
    </g>
  </g>`;
}

function mount(root, api) {
  const kit = createPage(root, api, "balloons");
  const { uid } = kit;
  kit.svg.innerHTML = `
    <defs><pattern id="${uid}-knit" width="16" height="12" patternUnits="userSpaceOnUse">
      <path d="M2 2 L8 10 L14 2" fill="none" stroke="${C.meadowKnit}" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></pattern></defs>
    <rect width="1024" height="768" fill="${C.sky}"/>
    <path d="M0 ${SKY_LINE} H1024" stroke="${C.skyLight}" stroke-width="4" stroke-dasharray="2 14" stroke-linecap="round" opacity="0.8"/>
    <g class="qp-drift-slow">${cloud(140, 300, 0.7)}${cloud(900, 360, 0.6)}</g>
    <g data-slot="cloud"><g class="qp-bob-slow">${cloud(512, 130, 2.3)}
      <g class="qp-cloud-face" transform="translate(512 150)">
        <path class="qp-cloud-eyes" d="M-40 -6 Q-30 2 -20 -6 M20 -6 Q30 2 40 -6" fill="none" stroke="${C.ink}" stroke-width="4" stroke-linecap="round"/>
        <path class="qp-cloud-mouth" d="M-14 14 Q0 22 14 14" fill="none" stroke="${C.ink}" stroke-width="4" stroke-linecap="round"/>
        <circle cx="-56" cy="10" r="9" fill="${C.pink}" opacity="0.6"/><circle cx="56" cy="10" r="9" fill="${C.pink}" opacity="0.6"/>
      </g></g></g>
    <path d="M0 640 Q300 600 512 630 T1024 615 L1024 768 L0 768 Z" fill="${C.meadow}"/>
    <path d="M0 640 Q300 600 512 630 T1024 615 L1024 768 L0 768 Z" fill="url(#${uid}-knit)" opacity="0.55"/>
    <g class="qp-strings" fill="none" stroke="${C.ink}" stroke-width="2.5" stroke-linecap="round" opacity="0.7">
      ${HOMES.map(() => "<path/>").join("")}</g>
    <rect x="${KNOT.x - 14}" y="${KNOT.y - 6}" width="28" height="110" rx="10" fill="${C.wood}"/>
    ${stitchRect(KNOT.x - 14, KNOT.y - 6, 28, 110, 10, C.woodLight, 4, 2)}
    <circle cx="${KNOT.x}" cy="${KNOT.y}" r="10" fill="${C.red}"/>
    <g class="qp-balloons">${HOMES.map((_, i) => balloon(i)).join("")}</g>`;

  const strings = kit.$$(".qp-strings path");
  const states = [];
  let docked = 0;
  kit.$$("[data-target]").forEach((el, i) => {
    const state = { x: HOMES[i].x, y: HOMES[i].y, home: HOMES[i], free: false };
    states.push(state);
    kit.draggable(el, state, {
      locked: (s) => s.free,
      onDrop: (s) => (s.y <= SKY_LINE ? DOCKS[i] : null),
      onSnapped: (s) => {
        s.free = true;
        el.setAttribute("data-locked", "true");
        kit.done(el);
        api.sound(`note${i}`);
        docked += 1;
        const face = kit.$(".qp-cloud-face");
        kit.play(face, [{ transform: "scale(1)" }, { transform: "scale(1.25)" }, { transform: "scale(1)" }], 500);
        if (docked === HOMES.length) {
          kit.$(".qp-cloud-mouth").setAttribute("d", "M-22 10 Q0 34 22 10");
          kit.finish(200);
        }
      },
    });
  });

  // Strings follow their balloons: tied to the post, or hanging free once in the cloud.
  const drawStrings = () => states.forEach((s, i) => {
    const top = `M${s.x.toFixed(1)} ${(s.y + 76).toFixed(1)}`;
    strings[i].setAttribute("d", s.free
      ? `${top} q12 40 0 80 q-12 30 4 60`
      : `${top} Q${((s.x + KNOT.x) / 2 + (i - 2) * 12).toFixed(1)} ${((s.y + KNOT.y) / 2 + 40).toFixed(1)} ${KNOT.x} ${KNOT.y}`);
  });
  drawStrings();
  kit.loop(drawStrings);

  return { start: () => kit.start(), destroy: () => kit.destroy() };
}

export default { id: "balloons", mount };
