// Page 9, "bells": five bells hang from a wooden arch; a tap rings one (it swings, plays its
// note, music notes float up, a bow lights on its ribbon). Every bell rung once = finished;
// they keep ringing after.
import { svg as svgNode } from "/common/dom.js";
import { C, cloud, createPage, stitchRect } from "./kit.js";

const BELLS = [
  { x: 172, rope: 150, size: 1.2, fill: C.red, light: C.redLight },
  { x: 342, rope: 210, size: 1.1, fill: C.orange, light: C.orangeLight },
  { x: 512, rope: 170, size: 1.0, fill: C.yellow, light: C.yellowLight },
  { x: 682, rope: 230, size: 0.95, fill: C.leaf, light: C.leafLight },
  { x: 852, rope: 160, size: 0.9, fill: C.blue, light: C.blueLight },
];
const BEAM_Y = 110;

function bell({ x, rope, size, fill, light }, i) {
  return `<g data-target="bell-${i}" transform="translate(${x} ${BEAM_Y})">
    <g class="qp-bell qp-sway qp-delay-${i + 1}">
      <rect x="-70" y="${rope - 20}" width="140" height="${150 * size}" rx="36" fill="transparent"/>
      <path d="M0 0 V${rope}" stroke="${C.pink}" stroke-width="8" stroke-linecap="round"/>
      <path d="M0 0 V${rope}" stroke="#ffffff" stroke-width="2.4" stroke-dasharray="5 6" stroke-linecap="round"/>
      <g class="qp-bow" opacity="0.25" transform="translate(0 ${rope - 34})">
        <path d="M0 0 L-22 -12 L-22 12 Z M0 0 L22 -12 L22 12 Z" fill="${C.purple}" stroke="${C.purple}" stroke-width="6" stroke-linejoin="round"/>
        <circle r="6" fill="${C.purpleLight}"/></g>
      <g transform="translate(0 ${rope}) scale(${size})">
        <circle cx="0" cy="118" r="16" fill="${C.ink}"/>
        <path d="M-16 0 Q-16 -10 0 -10 Q16 -10 16 0 L16 8 L-16 8 Z" fill="${C.ink}"/>
        <path d="M0 6 C-40 6 -46 50 -48 80 C-50 100 -62 104 -62 114 L62 114 C62 104 50 100 48 80 C46 50 40 6 0 6 Z" fill="${fill}" stroke="${fill}" stroke-width="4" stroke-linejoin="round"/>
        <path d="M-36 86 C-34 50 -24 20 0 18 C24 20 34 50 36 86" fill="none" stroke="${light}" stroke-width="3" stroke-dasharray="6 6" stroke-linecap="round"/>
        <rect x="-62" y="100" width="124" height="14" rx="7" fill="${light}"/>
        <path d="M-24 40 Q-20 24 -8 20" fill="none" stroke="#ffffff" stroke-width="6" stroke-linecap="round" opacity="0.7"/>
      </g>
    </g>
  </g>`;
}

function note(x, y, colour) {
  return `<g transform="translate(${x} ${y})"><g class="qp-note">
    <ellipse cx="0" cy="20" rx="12" ry="9" fill="${colour}" transform="rotate(-20 0 20)"/>
    <path d="M10 18 V-16 Q18 -10 24 -4" fill="none" stroke="${colour}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/></g></g>`;
}

function mount(root, api) {
  const kit = createPage(root, api, "bells");
  const { uid } = kit;
  kit.svg.innerHTML = `
    <defs><pattern id="${uid}-knit" width="16" height="12" patternUnits="userSpaceOnUse">
      <path d="M2 2 L8 10 L14 2" fill="none" stroke="${C.meadowKnit}" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></pattern>
      <linearGradient id="${uid}-eve" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${C.sky}"/><stop offset="1" stop-color="#f8d9c4"/></linearGradient></defs>
    <rect width="1024" height="768" fill="url(#${uid}-eve)"/>
    <g class="qp-drift">${cloud(240, 250, 0.7)}</g><g class="qp-drift-slow">${cloud(790, 300, 0.6)}</g>
    <path d="M0 600 Q300 560 512 590 T1024 575 L1024 768 L0 768 Z" fill="${C.meadow}"/>
    <path d="M0 600 Q300 560 512 590 T1024 575 L1024 768 L0 768 Z" fill="url(#${uid}-knit)" opacity="0.55"/>
    <rect x="40" y="${BEAM_Y - 20}" width="36" height="580" rx="14" fill="${C.wood}"/>${stitchRect(40, BEAM_Y - 20, 36, 580, 14, C.woodLight, 6, 2)}
    <rect x="948" y="${BEAM_Y - 20}" width="36" height="580" rx="14" fill="${C.wood}"/>${stitchRect(948, BEAM_Y - 20, 36, 580, 14, C.woodLight, 6, 2)}
    <rect x="20" y="${BEAM_Y - 40}" width="984" height="46" rx="20" fill="${C.wood}"/>${stitchRect(20, BEAM_Y - 40, 984, 46, 20, C.woodLight, 7, 2.4)}
    <g class="qp-bells">${BELLS.map(bell).join("")}</g>
    <g class="qp-notes"></g>`;

  const notes = kit.$(".qp-notes");
  let rung = 0;
  kit.onTap("[data-target^=bell-]", (el) => {
    const i = Number(el.dataset.target.slice(5));
    api.sound(`note${i}`);
    const body = el.querySelector(".qp-bell");
    kit.play(body, [
      { transform: "rotate(0deg)" }, { transform: "rotate(16deg)" }, { transform: "rotate(-12deg)" },
      { transform: "rotate(8deg)" }, { transform: "rotate(-4deg)" }, { transform: "rotate(0deg)" },
    ], 1300, { origin: "50% 0%", easing: "ease-out" });
    const b = BELLS[i];
    const layer = svgNode("g");
    layer.innerHTML = note(b.x + 40, BEAM_Y + b.rope + 40, b.fill) + note(b.x - 50, BEAM_Y + b.rope + 70, b.fill);
    notes.append(layer);
    layer.querySelectorAll(".qp-note").forEach((n, k) => kit.play(n, [
      { transform: "translate(0, 0) scale(0.6)", opacity: 1 },
      { transform: `translate(${k ? -30 : 30}px, -120px) scale(1.1)`, opacity: 0 }], 1200 + k * 200));
    kit.after(kit.reduced ? 300 : 1450, () => layer.remove());
    if (!el.hasAttribute("data-done")) {
      kit.done(el);
      el.querySelector(".qp-bow").setAttribute("opacity", "1");
      rung += 1;
      if (rung === BELLS.length) kit.finish(700);
    }
  });

  return { start: () => kit.start(), destroy: () => kit.destroy() };
}

export default { id: "bells", mount };
