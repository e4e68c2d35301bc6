// Page 6, "colouring": a drawing of six parts (sun, roof, wall, door, tree, meadow) and six
// crayons; the red crayon is in hand, a tap on another picks it, a tap on a part colours it
// (again and again, any colour). Every part coloured = finished.
import { svg as svgNode } from "/common/dom.js";
import { C, cloud, createPage, starPath } from "./kit.js";

const CRAYONS = [C.red, C.orange, C.yellow, C.leaf, C.blue, C.purple];
const LINE = C.ink;
const REGIONS = [
  `<circle cx="180" cy="150" r="74"/>`,
  `<path d="M430 96 L286 250 L574 250 Z" stroke-linejoin="round"/>`,
  `<rect x="306" y="250" width="250" height="190" rx="8"/>`,
  `<rect x="452" y="318" width="86" height="122" rx="30"/>`,
  `<path d="M790 150 C870 150 890 230 870 270 C900 320 850 380 790 370 C730 380 680 320 710 270 C690 230 710 150 790 150 Z"/>`,
  `<path d="M0 440 Q260 400 520 446 T1024 430 L1024 600 L0 600 Z"/>`,
];

function crayon(colour, i) {
  return `<g data-target="crayon-${i}" transform="translate(${160 + i * 140} 690)">
    <rect x="-48" y="-80" width="96" height="150" rx="20" fill="transparent"/>
    <g class="qp-crayon">
      <path d="M-26 -20 L0 -70 L26 -20 Z" fill="#f6e3c8" stroke="#f6e3c8" stroke-width="6" stroke-linejoin="round"/>
      <path d="M-9 -52 L0 -70 L9 -52 Z" fill="${colour}" stroke="${colour}" stroke-width="4" stroke-linejoin="round"/>
      <rect x="-30" y="-22" width="60" height="96" rx="12" fill="${colour}"/>
      <rect x="-30" y="4" width="60" height="26" fill="#ffffff" opacity="0.35"/>
      <rect x="-24" y="-16" width="48" height="84" rx="8" fill="none" stroke="#ffffff" stroke-width="2.2" stroke-dasharray="5 5" stroke-linecap="round" opacity="0.8"/>
    </g>
  </g>`;
}

function mount(root, api) {
  const kit = createPage(root, api, "colouring", { background: C.creamLight });
  const { uid } = kit;
  kit.svg.innerHTML = `
    <defs><pattern id="${uid}-paper" width="16" height="12" patternUnits="userSpaceOnUse">
      <path d="M2 2 L8 10 L14 2" fill="none" stroke="#f1e6d2" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></pattern></defs>
    <rect width="1024" height="768" fill="${C.creamLight}"/>
    <rect width="1024" height="768" fill="url(#${uid}-paper)"/>
    <rect x="10" y="10" width="1004" height="600" rx="26" fill="#ffffff" stroke="${C.grey}" stroke-width="3" stroke-dasharray="10 8" stroke-linecap="round"/>
    <g class="qp-regions" stroke="${LINE}" stroke-width="6">
      ${REGIONS.map((shape, i) => `<g data-target="region-${i}" class="qp-region" fill="#ffffff">${shape.replace("/>", ` class="qp-fade"/>`)}</g>`).join("")}
    </g>
    <g class="qp-lines" fill="none" stroke="${LINE}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round">
      <rect x="334" y="290" width="80" height="70" rx="10" fill="#ffffff"/><path d="M374 290 V360 M334 325 H414"/>
      <circle cx="518" cy="382" r="6" fill="${LINE}"/>
      <path d="M774 368 L772 440 M806 368 L808 440"/>
      <path d="M120 72 L100 40 M240 72 L260 40 M180 60 V30 M90 150 H60 M270 150 H300" stroke-width="6"/>
      <path d="M154 140 Q164 150 174 140 M186 140 Q196 150 206 140 M156 176 Q180 196 204 176" stroke-width="5"/>
    </g>
    <g class="qp-drift" fill="none" stroke="${C.grey}" stroke-width="4">${cloud(640, 90, 0.7, "#ffffff", C.grey)}</g>
    <g class="qp-sparkles"></g>
    <g class="qp-crayons">${CRAYONS.map(crayon).join("")}</g>`;

  const crayons = kit.$$("[data-target^=crayon-]");
  const sparkles = kit.$(".qp-sparkles");
  let chosen = 0;
  const choose = (i) => {
    chosen = i;
    crayons.forEach((el, j) => {
      el.setAttribute("data-selected", String(j === i));
      el.querySelector(".qp-crayon").setAttribute("transform", j === i ? "translate(0 -30)" : "");
    });
  };
  choose(0);

  kit.onTap("[data-target^=crayon-]", (el) => {
    const i = crayons.indexOf(el);
    api.sound(`note${i}`);
    choose(i);
    kit.play(el.querySelector(".qp-crayon"), [{ transform: "rotate(0)" }, { transform: "rotate(-10deg)" }, { transform: "rotate(8deg)" }, { transform: "rotate(0)" }], 450);
  });

  kit.onTap("[data-target^=region-]", (el, point) => {
    const shape = el.firstElementChild;
    shape.setAttribute("fill", CRAYONS[chosen]);
    el.setAttribute("data-colour", CRAYONS[chosen]);
    api.sound("pop");
    const star = svgNode("g");
    star.setAttribute("transform", `translate(${point.x.toFixed(1)} ${point.y.toFixed(1)})`);
    star.innerHTML = `<path d="${starPath(28)}" fill="${C.yellow}" stroke="#ffffff" stroke-width="3"/>`;
    sparkles.append(star);
    kit.play(star.firstElementChild, [{ transform: "scale(0.2) rotate(0)", opacity: 1 }, { transform: "scale(1.4) rotate(90deg)", opacity: 0 }], 600);
    kit.after(kit.reduced ? 150 : 620, () => star.remove());
    if (!el.hasAttribute("data-done")) {
      kit.done(el);
      if (kit.$$("[data-target^=region-][data-done]").length === REGIONS.length) kit.finish(500);
    }
  });

  return { start: () => kit.start(), destroy: () => kit.destroy() };
}

export default { id: "colouring", mount };
