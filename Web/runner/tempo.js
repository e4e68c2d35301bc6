// The runner page's tempo tool: uploads a song to POST /api/tempo and shows the answer.
import { api } from "/common/api.js";
import { $ } from "/common/dom.js";
import { t } from "/common/i18n.js";

const form = $("#tempo-form");
const input = $("#tempo-file");
const method = $("#tempo-method");
const status = $("#tempo-status");
const result = $("#tempo-result");

async function measure() {
  const file = input.files[0];
  if (!file) return;
  result.hidden = true;
  status.dataset.state = "working";
  status.textContent = t("tempo.working", { name: file.name });
  let answer;
  try {
    answer = await api(`/api/tempo?method=${encodeURIComponent(method.value)}`, { method: "POST", body: file });
  } catch (err) {
    status.dataset.state = "error";
    status.textContent = t("tempo.failed", { message: err.message });
    return;
  }
  status.dataset.state = "done";
  status.textContent = "";
  if (answer.bpm === null) {
    status.textContent = t("tempo.none");
    return;
  }
  $("#tempo-bpm").textContent = answer.bpm.toFixed(1);
  $("#tempo-confidence").textContent = `${Math.round(answer.confidence * 100)} %`;
  $("#tempo-candidates").textContent =
    answer.candidates.slice(1).map((c) => c.bpm.toFixed(1)).join(", ") || "—";
  result.hidden = false;
}

input.addEventListener("change", measure);
method.addEventListener("change", measure);
form.addEventListener("submit", (event) => { event.preventDefault(); measure(); });
