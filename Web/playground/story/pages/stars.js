// Page 10, "stars": goodnight. Six sleepy grey stars in the night sky; a tap lights one (it
// glows, twinkles, chimes). All six lit = finished: the moon falls asleep, the window goes dark.
import { C, createPage, starPath, stitchCircle, stitchRect } from "./kit.js";

const STARS = [
  { x: 130, y: 130 }, { x: 330, y: 250 }, { x: 500, y: 110 }, { x: 660, y: 270 }, { x: 190, y: 390 }, { x: 830, y: 420 },
];
const LIT = [C.yellow, C.yellowLight, C.orangeLight, C.yellow, C.pinkLight, C.yellow];

function mount(root, api) {
  const kit = createPage(root, api, "stars", { background: C.night });
  const { uid } = kit;
  const dots = Array.from({ length: 26 }, (_, i) => [(i * 397) % 1000 + 12, (i * 173) % 470 + 20, 2 + (i % 3)]);
  kit.svg.innerHTML = `
    <defs>
      <linearGradient id="${uid}-sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2f3463"/><stop offset="1" stop-color="${C.nightLight}"/></linearGradient>
      <radialGradient id="${uid}-glow"><stop offset="0" stop-color="#fff3b0" stop-opacity="0.75"/><stop offset="1" stop-color="#fff3b0" stop-opacity="0"/></radialGradient>
      <pattern id="${uid}-knit" width="16" height="12" patternUnits="userSpaceOnUse">
        <path d="M2 2 L8 10 L14 2" fill="none" stroke="#4f7a5c" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/></pattern>
    </defs>
    <rect width="1024" height="768" fill="url(#${uid}-sky)"/>
    <g fill="#ffffff" opacity="0.5">${dots.map(([x, y, r], i) => `<circle class="qp-twinkle qp-delay-${i % 5 + 1}" cx="${x}" cy="${y}" r="${r}"/>`).join("")}</g>
    <g transform="translate(880 140)"><g class="qp-bob-slow">
      <circle r="78" fill="${C.yellowLight}"/>${stitchCircle(0, 0, 68, "#ffffff", 3)}
      <circle cx="-26" cy="28" r="10" fill="${C.pink}" opacity="0.6"/><circle cx="30" cy="28" r="10" fill="${C.pink}" opacity="0.6"/>
      <g class="qp-moon-awake"><circle cx="-22" cy="0" r="7" fill="${C.ink}"/><circle cx="22" cy="0" r="7" fill="${C.ink}"/></g>
      <path class="qp-moon-asleep" opacity="0" d="M-32 0 Q-22 10 -12 0 M12 0 Q22 10 32 0" fill="none" stroke="${C.ink}" stroke-width="4" stroke-linecap="round"/>
      <path d="M-12 30 Q0 40 12 30" fill="none" stroke="${C.ink}" stroke-width="4" stroke-linecap="round"/>
    </g></g>
    <path d="M0 560 Q240 500 520 548 T1024 530 L1024 768 L0 768 Z" fill="#3f6b4f"/>
    <path d="M0 560 Q240 500 520 548 T1024 530 L1024 768 L0 768 Z" fill="url(#${uid}-knit)" opacity="0.7"/>
    <g transform="translate(600 470)">
      <rect x="0" y="40" width="170" height="120" rx="14" fill="#9b8fb8"/>
      <path d="M-12 50 L85 -20 L182 50 Z" fill="#6f6595" stroke="#6f6595" stroke-width="12" stroke-linejoin="round"/>
      <rect class="qp-window qp-fade" x="28" y="70" width="44" height="40" rx="8" fill="${C.yellow}"/>
      <rect x="98" y="92" width="40" height="68" rx="12" fill="#6f6595"/>
      ${stitchRect(0, 40, 170, 120, 14, "#b9afd4", 6)}
    </g>
    <g class="qp-stars">${STARS.map(({ x, y }, i) => `<g data-target="star-${i}" transform="translate(${x} ${y})">
      <circle r="56" fill="transparent"/>
      <circle class="qp-glow qp-fade" r="96" fill="url(#${uid}-glow)" opacity="0"/>
      <g class="qp-star-body ${i % 2 ? "qp-bob" : "qp-bob-slow"}">
        <path class="qp-star qp-fade" d="${starPath(50, 26)}" fill="#7b80a8" stroke="#7b80a8" stroke-width="8" stroke-linejoin="round"/>
        <path d="${starPath(38, 19)}" fill="none" stroke="#a3a8cc" stroke-width="2.4" stroke-dasharray="5 5" stroke-linecap="round" class="qp-star-stitch"/>
        <path class="qp-star-eyes" d="M-14 0 Q-9 5 -4 0 M4 0 Q9 5 14 0" fill="none" stroke="${C.ink}" stroke-width="3" stroke-linecap="round"/>
      </g></g>`).join("")}</g>`;

  let lit = 0;
  kit.onTap("[data-target^=star-]", (el) => {
    const i = Number(el.dataset.target.slice(5));
    const body = el.querySelector(".qp-star-body");
    kit.play(body, [{ transform: "scale(1) rotate(0)" }, { transform: "scale(1.35) rotate(20deg)" }, { transform: "scale(1) rotate(0)" }], 600);
    if (el.hasAttribute("data-done")) { api.sound("pop"); return; }
    api.sound("chime");
    kit.done(el);
    const star = el.querySelector(".qp-star");
    star.setAttribute("fill", LIT[i]);
    star.setAttribute("stroke", LIT[i]);
    el.querySelector(".qp-star-stitch").setAttribute("stroke", "#ffffff");
    el.querySelector(".qp-star-eyes").setAttribute("d", "M-12 -2 a3 3 0 1 0 0.1 0 M12 -2 a3 3 0 1 0 0.1 0 M-8 10 Q0 16 8 10");
    el.querySelector(".qp-glow").setAttribute("opacity", "1");
    body.classList.add("qp-twinkle-lit");
    lit += 1;
    if (lit === STARS.length) {
      kit.finish(600);
      kit.after(kit.reduced ? 0 : 600, () => {
        kit.$(".qp-moon-awake").setAttribute("opacity", "0");
        kit.$(".qp-moon-asleep").setAttribute("opacity", "1");
        kit.$(".qp-window").setAttribute("fill", "#4b4470");
      });
    }
  });

  return { start: () => kit.start(), destroy: () => kit.destroy() };
}

export default { id: "stars", mount };
