// Page 1, "wake": five animals sleep in the meadow at dawn; a tap wakes one (it stretches,
// yawns and opens its eyes, a note plays) and the sun climbs; all five awake = finished.
import { C, cloud, createPage, stitchCircle } from "./kit.js";

const ANIMALS = [
  { name: "cat", x: 130, body: C.orange, light: C.orangeLight },
  { name: "dog", x: 321, body: C.wood, light: C.woodLight },
  { name: "rabbit", x: 512, body: C.grey, light: C.greyLight },
  { name: "sheep", x: 703, body: C.wool, light: "#ffffff" },
  { name: "duck", x: 894, body: C.yellow, light: C.yellowLight },
];

function ears(name, body, light) {
  switch (name) {
    case "cat":
      return `<path d="M-36 -48 L-30 -92 L-6 -62 Z M36 -48 L30 -92 L6 -62 Z" fill="${body}" stroke="${body}" stroke-width="8" stroke-linejoin="round"/>
        <path d="M-28 -58 L-27 -78 L-16 -64 Z M28 -58 L27 -78 L16 -64 Z" fill="${C.pink}"/>`;
    case "dog":
      return `<ellipse cx="-42" cy="-32" rx="15" ry="32" fill="#9b7150" transform="rotate(18 -42 -32)"/>
        <ellipse cx="42" cy="-32" rx="15" ry="32" fill="#9b7150" transform="rotate(-18 42 -32)"/>`;
    case "rabbit":
      return `<rect x="-32" y="-128" width="24" height="80" rx="12" fill="${body}"/><rect x="8" y="-128" width="24" height="80" rx="12" fill="${body}"/>
        <rect x="-26" y="-118" width="12" height="58" rx="6" fill="${C.pink}"/><rect x="14" y="-118" width="12" height="58" rx="6" fill="${C.pink}"/>`;
    case "sheep":
      return `<ellipse cx="-44" cy="-34" rx="18" ry="10" fill="${C.ink}"/><ellipse cx="44" cy="-34" rx="18" ry="10" fill="${C.ink}"/>`;
    default:
      return `<path d="M-6 -72 Q0 -92 10 -74" fill="none" stroke="${body}" stroke-width="7" stroke-linecap="round"/>`;
  }
}

function animal({ name, x, body, light }, index) {
  const sheep = name === "sheep";
  const duck = name === "duck";
  const face = sheep ? C.ink : body;
  const eyeLine = sheep ? "#ffffff" : C.ink;
  const fleece = sheep
    ? [[-40, 20], [-14, 8], [14, 8], [40, 20], [-30, 52], [0, 58], [30, 52], [0, 30]]
        .map(([cx, cy]) => `<circle cx="${cx}" cy="${cy}" r="24" fill="${C.wool}" stroke="#dedee9" stroke-width="2"/>`).join("")
    : "";
  const snout = duck
    ? `<path d="M-22 -16 Q0 -4 22 -16 Q0 6 -22 -16 Z" fill="${C.orange}"/>`
    : name === "dog" ? `<ellipse cx="0" cy="-14" rx="20" ry="14" fill="${light}"/><ellipse cx="0" cy="-20" rx="8" ry="6" fill="${C.ink}"/>`
    : sheep ? "" : `<ellipse cx="0" cy="-16" rx="6" ry="4.5" fill="${C.pink}"/>`;
  const whiskers = name === "cat"
    ? `<path d="M-14 -12 L-46 -18 M-14 -8 L-46 -4 M14 -12 L46 -18 M14 -8 L46 -4" stroke="${C.ink}" stroke-width="2" stroke-linecap="round" opacity="0.55"/>`
    : "";
  return `<g data-target="${name}" data-state="asleep" transform="translate(${x} 565)">
    <rect x="-86" y="-140" width="172" height="220" rx="40" fill="transparent"/>
    <ellipse cx="0" cy="78" rx="78" ry="14" fill="#9fcb86" opacity="0.7"/>
    <g class="qp-breathe qp-delay-${index + 1} qp-animal">
      <ellipse cx="0" cy="36" rx="62" ry="44" fill="${body}"/>
      ${fleece}
      <ellipse cx="0" cy="40" rx="52" ry="34" fill="none" stroke="${light}" stroke-width="2.4" stroke-dasharray="5 5" stroke-linecap="round"/>
      <g class="qp-head">
        ${ears(name, body, light)}
        <circle cx="0" cy="-30" r="44" fill="${face}"/>
        ${sheep ? `<circle cx="0" cy="-62" r="22" fill="${C.wool}"/><circle cx="-18" cy="-58" r="16" fill="${C.wool}"/><circle cx="18" cy="-58" r="16" fill="${C.wool}"/>` : ""}
        ${stitchCircle(0, -30, 38, sheep ? "#6b6f8c" : light)}
        <circle cx="-26" cy="-14" r="8" fill="${C.pink}" opacity="0.6"/><circle cx="26" cy="-14" r="8" fill="${C.pink}" opacity="0.6"/>
        <g class="qp-eyes-closed"><path d="M-24 -34 Q-16 -26 -8 -34 M8 -34 Q16 -26 24 -34" fill="none" stroke="${eyeLine}" stroke-width="3.5" stroke-linecap="round"/></g>
        <g class="qp-eyes-open" opacity="0">
          <circle cx="-16" cy="-34" r="8" fill="#ffffff"/><circle cx="16" cy="-34" r="8" fill="#ffffff"/>
          <circle cx="-15" cy="-33" r="5" fill="${C.ink}"/><circle cx="17" cy="-33" r="5" fill="${C.ink}"/>
          <circle cx="-13" cy="-35" r="1.8" fill="#ffffff"/><circle cx="19" cy="-35" r="1.8" fill="#ffffff"/>
        </g>
        ${snout}${whiskers}
        <ellipse class="qp-yawn" cx="0" cy="${duck ? -2 : -2}" rx="9" ry="11" fill="#b5535a" opacity="0"/>
        <path class="qp-smile" d="M-8 -4 Q0 4 8 -4" fill="none" stroke="${eyeLine}" stroke-width="3" stroke-linecap="round" opacity="0"/>
      </g>
    </g>
    <g class="qp-zzz">
      <g class="qp-float-z qp-delay-${index}"><path d="M40 -70 h16 l-16 16 h16" fill="none" stroke="#ffffff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></g>
      <g class="qp-float-z qp-delay-${(index + 2) % 5 + 1}"><path d="M52 -96 h11 l-11 11 h11" fill="none" stroke="#ffffff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></g>
    </g>
  </g>`;
}

function mount(root, api) {
  const kit = createPage(root, api, "wake");
  const { uid } = kit;
  kit.svg.innerHTML = `
    <defs>
      <pattern id="${uid}-knit" width="16" height="12" patternUnits="userSpaceOnUse">
        <path d="M2 2 L8 10 L14 2" fill="none" stroke="${C.meadowKnit}" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>
      </pattern>
      <linearGradient id="${uid}-dawn" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="#5d6299"/><stop offset="1" stop-color="#f2b8a0"/>
      </linearGradient>
    </defs>
    <rect width="1024" height="768" fill="${C.sky}"/>
    <rect class="qp-sky-fade qp-night" width="1024" height="768" fill="url(#${uid}-dawn)" opacity="1"/>
    <g class="qp-sun" transform="translate(820 420)">
      <g class="qp-spin-slow"><path d="${Array.from({ length: 12 }, (_, i) => {
        const a = (i * Math.PI) / 6;
        return `M${(70 * Math.cos(a)).toFixed(1)} ${(70 * Math.sin(a)).toFixed(1)} L${(92 * Math.cos(a)).toFixed(1)} ${(92 * Math.sin(a)).toFixed(1)}`;
      }).join(" ")}" stroke="${C.yellow}" stroke-width="9" stroke-linecap="round"/></g>
      <circle r="58" fill="${C.yellow}"/>${stitchCircle(0, 0, 50, C.yellowLight, 3)}
    </g>
    <g class="qp-drift">${cloud(200, 130, 1)}</g>
    <g class="qp-drift-slow">${cloud(560, 90, 0.8)}</g>
    <path d="M0 430 Q260 370 520 420 T1024 400 L1024 768 L0 768 Z" fill="${C.meadow}"/>
    <path d="M0 430 Q260 370 520 420 T1024 400 L1024 768 L0 768 Z" fill="url(#${uid}-knit)" opacity="0.55"/>
    <path d="M0 446 Q260 386 520 436 T1024 416" fill="none" stroke="#d8efc8" stroke-width="3" stroke-dasharray="7 7" stroke-linecap="round"/>
    <g class="qp-animals">${ANIMALS.map(animal).join("")}</g>`;

  const night = kit.$(".qp-night");
  const sun = kit.$(".qp-sun");
  let awake = 0;
  let sunY = 420;

  kit.onTap("[data-target]", (el) => {
    const index = ANIMALS.findIndex((a) => a.name === el.dataset.target);
    const body = el.querySelector(".qp-animal");
    const head = el.querySelector(".qp-head");
    if (el.dataset.state === "awake") { // already up: a happy hop
      api.sound("pop");
      kit.play(body, [{ transform: "translateY(0)" }, { transform: "translateY(-36px)" }, { transform: "translateY(0)" }], 500);
      return;
    }
    el.dataset.state = "awake";
    kit.done(el);
    awake += 1;
    api.sound(`note${index}`);
    el.querySelector(".qp-zzz").setAttribute("opacity", "0");
    el.querySelector(".qp-eyes-closed").setAttribute("opacity", "0");
    el.querySelector(".qp-eyes-open").setAttribute("opacity", "1");
    const yawn = el.querySelector(".qp-yawn");
    const smile = el.querySelector(".qp-smile");
    kit.play(body, [
      { transform: "scale(1, 1)" }, { transform: "scale(0.92, 1.22)", offset: 0.45 },
      { transform: "scale(1.06, 0.94)", offset: 0.75 }, { transform: "scale(1, 1)" },
    ], 1100, { origin: "50% 100%", easing: "ease-in-out" });
    kit.play(head, [{ transform: "rotate(0)" }, { transform: "rotate(-8deg)" }, { transform: "rotate(6deg)" }, { transform: "rotate(0)" }], 1100);
    yawn.setAttribute("opacity", "1");
    kit.play(yawn, [{ transform: "scale(0.2)" }, { transform: "scale(1.3)", offset: 0.5 }, { transform: "scale(0.2)" }], 1000);
    kit.after(kit.reduced ? 0 : 1000, () => { yawn.setAttribute("opacity", "0"); smile.setAttribute("opacity", "1"); });
    night.setAttribute("opacity", String(1 - awake / ANIMALS.length));
    const from = sunY;
    sunY = 420 - awake * 58;
    kit.tween(900, (t) => sun.setAttribute("transform", `translate(820 ${(from + (sunY - from) * t).toFixed(1)})`));
    if (awake === ANIMALS.length) kit.finish(700);
  });

  return { start: () => kit.start(), destroy: () => kit.destroy() };
}

export default { id: "wake", mount };
