// The runner page's tempo tool: uploads a song to POST /api/tempo and shows the answer.
import { t } from "/common/i18n.js";

const form = document.querySelector("#tempo-form");
const input = document.querySelector("#tempo-file");
const method = document.querySelector("#tempo-method");
const status = document.querySelector("#tempo-status");
const result = document.querySelector("#tempo-result");

async function measure() {
  const file = input.files[0];
  if (!file) return;
  result.hidden = true;
  status.dataset.state = "working";
  status.textContent = t("tempo.working", { name: file.name });
  let answer;
  try {
    const response = await fetch(`/api/tempo?method=${encodeURIComponent(method.value)}`, {
      method: "POST",
      headers: { "Content-Type": file.type || "application/octet-stream" },
      body: file,
    });
    answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.error ? answer.error.message : response.statusText);
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
  document.querySelector("#tempo-bpm").textContent = answer.bpm.toFixed(1);
  document.querySelector("#tempo-confidence").textContent = `${Math.round(answer.confidence * 100)} %`;
  document.querySelector("#tempo-candidates").textContent =
    answer.candidates.slice(1).map((c) => c.bpm.toFixed(1)).join(", ") || "—";
  result.hidden = false;
}

input.addEventListener("change", measure);
method.addEventListener("change", measure);
form.addEventListener("submit", (event) => { event.preventDefault(); measure(); });
