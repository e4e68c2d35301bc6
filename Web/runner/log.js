// The runner page's log tool: uploads an accelerometer log to POST /api/runner/cadence and
// draws the cadence timeline it answers (one point a second; gaps where there is none).
import { t } from "/common/i18n.js";

const input = document.querySelector("#log-file");
const method = document.querySelector("#log-method");
const status = document.querySelector("#log-status");
const result = document.querySelector("#log-result");
const chart = document.querySelector("#log-chart");
const SVG = "http://www.w3.org/2000/svg";

async function analyse() {
  const file = input.files[0];
  if (!file) return;
  result.hidden = true;
  status.dataset.state = "working";
  status.textContent = t("log.working", { name: file.name });
  let answer;
  try {
    const response = await fetch(`/api/runner/cadence?method=${encodeURIComponent(method.value)}`, {
      method: "POST", headers: { "Content-Type": "text/csv" }, body: file,
    });
    answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.error ? answer.error.message : response.statusText);
  } catch (err) {
    status.dataset.state = "error";
    status.textContent = t("log.failed", { message: err.message });
    return;
  }
  status.dataset.state = "done";
  const moving = answer.timeline.filter((entry) => entry.spm !== null);
  if (answer.cadence === null) {
    status.textContent = t("log.none", { seconds: answer.timeline.length });
    return;
  }
  status.textContent = "";
  document.querySelector("#log-cadence").textContent = answer.cadence.toFixed(1);
  document.querySelector("#log-summary").textContent =
    t("log.summary", { moving: moving.length, seconds: answer.timeline.length });
  draw(answer.timeline);
  result.hidden = false;
}

/** A line of the cadence over time, broken where the wearer stood still. */
function draw(timeline) {
  chart.replaceChildren();
  const values = timeline.filter((e) => e.spm !== null).map((e) => e.spm);
  const low = Math.min(...values) - 5, high = Math.max(...values) + 5;
  const end = Math.max(1, timeline[timeline.length - 1].t);
  const x = (time) => (time / end) * 600, y = (spm) => 150 - ((spm - low) / (high - low)) * 140;
  let path = "", drawing = false;
  for (const entry of timeline) {
    if (entry.spm === null) { drawing = false; continue; }
    path += `${drawing ? "L" : "M"}${x(entry.t).toFixed(1)},${y(entry.spm).toFixed(1)} `;
    drawing = true;
  }
  const line = document.createElementNS(SVG, "path");
  line.setAttribute("d", path.trim());
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  line.setAttribute("vector-effect", "non-scaling-stroke");
  const title = document.createElementNS(SVG, "title");
  title.textContent = t("log.chart", { low: Math.round(low + 5), high: Math.round(high - 5) });
  chart.append(title, line);
}

input.addEventListener("change", analyse);
method.addEventListener("change", analyse);
document.querySelector("#log-form").addEventListener("submit", (event) => { event.preventDefault(); analyse(); });
