// The runner page's log tool: uploads an accelerometer log to POST /api/runner/cadence and
// draws the cadence timeline it answers (one point a second; gaps where there is none).
import { api } from "/common/api.js";
import { $, svg } from "/common/dom.js";
import { t } from "/common/i18n.js";

const input = $("#log-file");
const method = $("#log-method");
const status = $("#log-status");
const result = $("#log-result");
const chart = $("#log-chart");

async function analyse() {
  const file = input.files[0];
  if (!file) return;
  result.hidden = true;
  status.dataset.state = "working";
  status.textContent = t("log.working", { name: file.name });
  let answer;
  try {
    answer = await api(`/api/runner/cadence?method=${encodeURIComponent(method.value)}`, {
      method: "POST", headers: { "Content-Type": "text/csv" }, body: file,
    });
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
  $("#log-cadence").textContent = answer.cadence.toFixed(1);
  $("#log-summary").textContent =
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
  const line = svg("path", { d: path.trim(), fill: "none", stroke: "currentColor", "stroke-width": 2,
    "vector-effect": "non-scaling-stroke" });
  const title = svg("title", {}, t("log.chart", { low: Math.round(low + 5), high: Math.round(high - 5) }));
  chart.append(title, line);
}

input.addEventListener("change", analyse);
method.addEventListener("change", analyse);
$("#log-form").addEventListener("submit", (event) => { event.preventDefault(); analyse(); });
