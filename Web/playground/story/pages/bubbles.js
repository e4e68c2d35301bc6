// Bonus page "bubbles" (loot at 3 sweaters): soap bubbles rise from a bath with a rubber duck;
// a tap pops one (and a dot of the string of pearls on top fills). Eight popped = finished;
// bubbles keep coming after, and a bubble that floats away is never missed.
import { svg as svgNode } from "/common/dom.js";
import { C, createPage, stitchRect } from "./kit.js";

const GOAL = 8;
const MAX_BUBBLES = 6;
const TINTS = [C.blueLight, C.pinkLight, C.purpleLight, C.yellowLight, "#c9ecd9"];

function mount(root, api) {
  const kit = createPage(root, api, "bubbles");
  const { uid } = kit;
  kit.svg.innerHTML = `
    <defs>
      <pattern id="${uid}-tiles" width="64" height="64" patternUnits="userSpaceOnUse">
        <rect x="3" y="3" width="58" height="58" rx="12" fill="#d6eef6"/>
        <rect x="9" y="9" width="46" height="46" rx="8" fill="none" stroke="#e8f6fb" stroke-width="2" stroke-dasharray="5 5" stroke-linecap="round"/></pattern>
      <radialGradient id="${uid}-soap" cx="0.35" cy="0.3" r="0.75">
        <stop offset="0" stop-color="#ffffff" stop-opacity="0.9"/><stop offset="0.55" stop-color="#ffffff" stop-opacity="0.25"/>
        <stop offset="1" stop-color="#ffffff" stop-opacity="0.55"/></radialGradient>
    </defs>
    <rect width="1024" height="768" fill="#bfe4f1"/>
    <rect width="1024" height="768" fill="url(#${uid}-tiles)"/>
    <g class="qp-pearls">${Array.from({ length: GOAL }, (_, i) => `<circle class="qp-fade" cx="${344 + i * 48}" cy="44" r="16" fill="#ffffff" opacity="0.5" stroke="${C.blue}" stroke-width="3" stroke-dasharray="4 4"/>`).join("")}</g>
    <g class="qp-bubbles"></g>
    <g class="qp-tub">
      <rect x="90" y="600" width="844" height="150" rx="60" fill="#ffffff"/>
      ${stitchRect(90, 600, 844, 150, 60, C.blueLight, 10, 3)}
      <rect x="70" y="590" width="884" height="36" rx="18" fill="#f4f4f8"/>
      <g fill="#ffffff" stroke="#dde8f0" stroke-width="2">
        <circle cx="160" cy="590" r="34"/><circle cx="220" cy="578" r="40"/><circle cx="290" cy="590" r="30"/>
        <circle cx="720" cy="588" r="34"/><circle cx="790" cy="576" r="42"/><circle cx="860" cy="590" r="32"/></g>
      <rect x="160" y="750" width="40" height="18" rx="8" fill="${C.wood}"/><rect x="824" y="750" width="40" height="18" rx="8" fill="${C.wood}"/>
    </g>
    <g transform="translate(512 560)"><g class="qp-bob qp-duck">
      <ellipse cx="0" cy="18" rx="70" ry="40" fill="${C.yellow}"/><circle cx="34" cy="-34" r="36" fill="${C.yellow}"/>
      <ellipse cx="-4" cy="20" rx="58" ry="30" fill="none" stroke="${C.yellowLight}" stroke-width="2.6" stroke-dasharray="6 6" stroke-linecap="round"/>
      <path d="M62 -36 Q90 -34 92 -26 Q86 -16 62 -22 Z" fill="${C.orange}"/>
      <circle cx="44" cy="-44" r="6" fill="${C.ink}"/><circle cx="46" cy="-46" r="2" fill="#ffffff"/>
      <path d="M-40 4 Q-10 -6 10 14" fill="none" stroke="${C.orangeLight}" stroke-width="6" stroke-linecap="round"/>
    </g></g>`;

  const layer = kit.$(".qp-bubbles");
  const pearls = kit.$$(".qp-pearls circle");
  const bubbles = new Set();
  let serial = 0;
  let popped = 0;
  let running = false;

  const spawn = (x, y, quiet = false) => {
    const r = 44 + ((serial * 7) % 17);
    const b = {
      id: serial++, x, y, r, phase: Math.random() * 6.28, speed: 45 + Math.random() * 25,
      el: svgNode("g"),
    };
    b.el.setAttribute("data-target", `bubble-${b.id}`);
    b.el.innerHTML = `<g class="qp-bubble">
      <circle r="${r}" fill="${TINTS[b.id % TINTS.length]}" opacity="0.35"/>
      <circle r="${r}" fill="url(#${uid}-soap)" stroke="#ffffff" stroke-width="3"/>
      <circle r="${r - 7}" fill="none" stroke="#ffffff" stroke-width="2" stroke-dasharray="5 6" stroke-linecap="round" opacity="0.8"/>
      <path d="M${-r * 0.55} ${-r * 0.2} Q${-r * 0.5} ${-r * 0.55} ${-r * 0.15} ${-r * 0.6}" fill="none" stroke="#ffffff" stroke-width="6" stroke-linecap="round"/></g>`;
    layer.append(b.el);
    bubbles.add(b);
    place(b);
    if (!quiet) kit.play(b.el.firstElementChild, [{ transform: "scale(0.2)" }, { transform: "scale(1)" }], 400);
    return b;
  };
  const place = (b) => b.el.setAttribute("transform", `translate(${(b.x + Math.sin(b.phase) * 18).toFixed(1)} ${b.y.toFixed(1)})`);
  const randomX = () => 130 + Math.random() * 764;

  // Three bubbles wait on the page before start(); then they rise and new ones come from the bath
  // (with reduced motion they stay where they appear, in the open space above the bath).
  for (let i = 0; i < 3; i++) spawn(260 + i * 250, 230 + (i % 2) * 150, true);
  kit.loop((dt) => {
    if (!running || kit.reduced) return;
    for (const b of bubbles) {
      b.y -= b.speed * dt;
      b.phase += dt * 1.6;
      place(b);
      if (b.y < -b.r - 20) { b.el.remove(); bubbles.delete(b); }
    }
  });
  const refill = () => {
    if (bubbles.size < MAX_BUBBLES) spawn(randomX(), kit.reduced ? 140 + Math.random() * 360 : 610);
  };

  kit.onTap("[data-target^=bubble-]", (el) => {
    const b = [...bubbles].find((x) => x.el === el);
    if (!b) return;
    bubbles.delete(b);
    el.removeAttribute("data-target");
    api.sound("pop");
    const ring = el.firstElementChild;
    kit.play(ring, [{ transform: "scale(1)", opacity: 1 }, { transform: "scale(1.5)", opacity: 0 }], 260, { easing: "ease-out" });
    kit.after(kit.reduced ? 0 : 260, () => el.remove());
    popped += 1;
    kit.svg.setAttribute("data-popped", String(popped));
    if (popped <= GOAL) {
      const pearl = pearls[popped - 1];
      pearl.setAttribute("fill", TINTS[(popped - 1) % TINTS.length]);
      pearl.setAttribute("opacity", "1");
      kit.play(pearl, [{ transform: "scale(1.6)" }, { transform: "scale(1)" }], 300);
    }
    if (popped === GOAL) kit.finish(300);
    kit.after(kit.reduced ? 400 : 700, refill);
  });

  return {
    start() {
      kit.start();
      running = true;
      kit.every(900, refill);
    },
    destroy: () => kit.destroy(),
  };
}

export default { id: "bubbles", mount };
