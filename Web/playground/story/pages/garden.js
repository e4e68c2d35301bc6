// Bonus page "garden" (loot at 6 sweaters): six mounds of soil in a row; a tap plants a flower
// that grows up and opens (a note plays); a tap on a flower makes it dance. Six flowers =
// finished: the bee comes to visit and the sun smiles.
import { C, cloud, createPage, stitchCircle } from "./kit.js";

const PETALS = [[C.red, C.redLight], [C.yellow, C.yellowLight], [C.purple, C.purpleLight], [C.orange, C.orangeLight], [C.pink, C.pinkLight], [C.blue, C.blueLight]];
const SOIL_Y = 600;
const xOf = (i) => 112 + i * 160;

function flower(i) {
  const [petal, light] = PETALS[i];
  const stem = 150 + (i % 3) * 40;
  const petals = Array.from({ length: 6 }, (_, k) => {
    const a = (k * Math.PI) / 3;
    return `<ellipse cx="${(26 * Math.cos(a)).toFixed(1)}" cy="${(26 * Math.sin(a)).toFixed(1)}" rx="20" ry="14" transform="rotate(${k * 60} ${(26 * Math.cos(a)).toFixed(1)} ${(26 * Math.sin(a)).toFixed(1)})" fill="${petal}"/>`;
  }).join("");
  return `<g class="qp-flower" display="none">
    <g class="qp-stem"><path d="M0 -4 V${-stem}" stroke="${C.leaf}" stroke-width="9" stroke-linecap="round"/>
      <path d="M0 ${-stem * 0.4} Q-34 ${-stem * 0.5} -40 ${-stem * 0.72} Q-12 ${-stem * 0.66} 0 ${-stem * 0.48} Z" fill="${C.leaf}"/>
      <path d="M0 ${-stem * 0.55} Q32 ${-stem * 0.62} 38 ${-stem * 0.84} Q10 ${-stem * 0.78} 0 ${-stem * 0.62} Z" fill="#8fcc7d"/></g>
    <g transform="translate(0 ${-stem})"><g class="qp-bloom">${petals}
      <circle r="20" fill="${C.yellow}"/>${stitchCircle(0, 0, 14, C.yellowLight, 2)}
      <circle cx="-6" cy="-3" r="2.6" fill="${C.ink}"/><circle cx="6" cy="-3" r="2.6" fill="${C.ink}"/>
      <path d="M-6 5 Q0 10 6 5" fill="none" stroke="${C.ink}" stroke-width="2.2" stroke-linecap="round"/>
      <ellipse cx="0" cy="0" rx="48" ry="48" fill="none" stroke="${light}" stroke-width="2" stroke-dasharray="4 6" stroke-linecap="round"/>
    </g></g></g>`;
}

function mount(root, api) {
  const kit = createPage(root, api, "garden");
  const { uid } = kit;
  kit.svg.innerHTML = `
    <defs><pattern id="${uid}-knit" width="16" height="12" patternUnits="userSpaceOnUse">
      <path d="M2 2 L8 10 L14 2" fill="none" stroke="${C.meadowKnit}" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></pattern></defs>
    <rect width="1024" height="768" fill="${C.sky}"/>
    <g transform="translate(130 120)"><g class="qp-spin-slow"><path d="${Array.from({ length: 10 }, (_, k) => {
      const a = (k * Math.PI) / 5;
      return `M${(66 * Math.cos(a)).toFixed(1)} ${(66 * Math.sin(a)).toFixed(1)} L${(88 * Math.cos(a)).toFixed(1)} ${(88 * Math.sin(a)).toFixed(1)}`;
    }).join(" ")}" stroke="${C.yellow}" stroke-width="9" stroke-linecap="round"/></g>
      <circle r="54" fill="${C.yellow}"/>${stitchCircle(0, 0, 46, C.yellowLight, 3)}
      <path class="qp-sun-mouth" d="M-14 14 Q0 18 14 14" fill="none" stroke="${C.ink}" stroke-width="4" stroke-linecap="round"/>
      <circle cx="-16" cy="-6" r="5" fill="${C.ink}"/><circle cx="16" cy="-6" r="5" fill="${C.ink}"/></g>
    <g class="qp-drift">${cloud(480, 110, 0.8)}</g><g class="qp-drift-slow">${cloud(820, 170, 0.7)}</g>
    <path d="M0 420 Q300 380 512 410 T1024 395 L1024 768 L0 768 Z" fill="${C.meadow}"/>
    <path d="M0 420 Q300 380 512 410 T1024 395 L1024 768 L0 768 Z" fill="url(#${uid}-knit)" opacity="0.55"/>
    <rect x="0" y="${SOIL_Y + 40}" width="1024" height="128" fill="#a7794f"/>
    <path d="M0 ${SOIL_Y + 50} H1024" stroke="#c49870" stroke-width="4" stroke-dasharray="8 10" stroke-linecap="round"/>
    <g class="qp-plots">${PETALS.map((_, i) => `<g data-target="soil-${i}" transform="translate(${xOf(i)} ${SOIL_Y})">
      <rect x="-72" y="-40" width="144" height="100" rx="30" fill="transparent"/>
      ${flower(i)}
      <ellipse cx="0" cy="16" rx="66" ry="34" fill="#8a5f3c"/>
      <ellipse cx="0" cy="12" rx="54" ry="24" fill="none" stroke="#b08058" stroke-width="2.6" stroke-dasharray="6 6" stroke-linecap="round"/>
      <circle cx="-20" cy="6" r="4" fill="#6f4a2d"/><circle cx="14" cy="18" r="4" fill="#6f4a2d"/><circle cx="30" cy="2" r="3" fill="#6f4a2d"/>
    </g>`).join("")}</g>
    <g class="qp-bee" transform="translate(930 300)"><g class="qp-bob"><g class="qp-bee-body">
      <ellipse cx="-6" cy="-22" rx="14" ry="20" fill="#ffffff" opacity="0.85" transform="rotate(-20 -6 -22)"/>
      <ellipse cx="10" cy="-22" rx="14" ry="20" fill="#ffffff" opacity="0.85" transform="rotate(20 10 -22)"/>
      <ellipse rx="30" ry="22" fill="${C.yellow}"/>
      <path d="M-8 -20 V20 M8 -20 V20" stroke="${C.ink}" stroke-width="7"/>
      <circle cx="-20" cy="-4" r="3.5" fill="${C.ink}"/></g></g></g>`;

  let planted = 0;
  kit.onTap("[data-target^=soil-]", (el) => {
    const i = Number(el.dataset.target.slice(5));
    const bloom = el.querySelector(".qp-bloom");
    if (el.hasAttribute("data-done")) {
      api.sound("pop");
      kit.play(bloom, [{ transform: "rotate(0) scale(1)" }, { transform: "rotate(30deg) scale(1.2)" }, { transform: "rotate(-20deg) scale(1.1)" }, { transform: "rotate(0) scale(1)" }], 700);
      return;
    }
    kit.done(el);
    api.sound(`note${i}`);
    const plant = el.querySelector(".qp-flower");
    plant.removeAttribute("display");
    kit.play(el.querySelector(".qp-stem"), [{ transform: "scaleY(0)" }, { transform: "scaleY(1)" }], 700, { origin: "50% 100%" });
    kit.play(bloom, [{ transform: "scale(0)" }, { transform: "scale(0)", offset: 0.5 }, { transform: "scale(1.25)", offset: 0.8 }, { transform: "scale(1)" }], 1100);
    planted += 1;
    if (planted === PETALS.length) {
      kit.$(".qp-sun-mouth").setAttribute("d", "M-20 10 Q0 30 20 10");
      kit.play(kit.$(".qp-bee-body"), [
        { transform: "translate(0, 0)" }, { transform: "translate(-300px, 160px)" }, { transform: "translate(-600px, 60px)" }, { transform: "translate(-300px, 0)" }, { transform: "translate(0, 0)" },
      ], 2200, { easing: "ease-in-out" });
      kit.finish(900);
    }
  });

  return { start: () => kit.start(), destroy: () => kit.destroy() };
}

export default { id: "garden", mount };
