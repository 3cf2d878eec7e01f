// Relay's console (the options page, full tab). This module is the Profile page's first-run
// flow (what a Fill still needs, getting a profile in, the job questions) and the wiring of the
// other pages (pages/*.js, one each; nav.js shows one at a time). Every datum comes from the
// bridge (bridge.js); only the settings live in chrome.storage.local.

import { readSettings } from "../shared/settings.js";
import { ask, check, fileBase64 } from "./bridge.js";
import { compact, getPath, setPath } from "./paths.js";
import { buildQuestions, questionProblems, questionsPatch, showQuestions } from "./questions.js";
import { startNav } from "./nav.js";
import * as activity from "./pages/activity.js";
import * as answers from "./pages/answers.js";
import * as approvals from "./pages/approvals.js";
import * as applications from "./pages/applications.js";
import * as profiles from "./pages/profiles.js";
import * as settingsPage from "./pages/settings.js";
import * as spending from "./pages/spending.js";

const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @type {{name: string, profile: Record<string, any>} | null} the profile shown */
let current = null;
/** @type {{file: File, data_b64: string} | null} the resume whose facts are being confirmed */
let pendingResume = null;

// -- status -----------------------------------------------------------------------------------

const NO_BRIDGE = {
  id: "bridge", ok: false, required: true, message: "Relay's bridge is not running on this computer.",
  fix: "Install it with `relay install` in a terminal, then reload this page; `relay doctor` says what is wrong.",
};

async function refreshStatus() {
  /** @type {{ready: boolean, steps: Array<{id: string, ok: boolean, required: boolean, message: string, fix: string}>}} */
  let status;
  try {
    status = await ask("status");
  } catch (err) {
    // Plain words, not the browser's error; a host manifest that refuses this extension has its own fix.
    const refused = /forbidden|not allow/i.test(err instanceof Error ? err.message : String(err));
    const fix = refused
      ? "Run `relay install` again: the bridge is installed for another copy of the extension."
      : NO_BRIDGE.fix;
    status = { ready: false, steps: [{ ...NO_BRIDGE, fix }] };
  }
  // One step at a time: without the bridge nothing below can be read or saved.
  const bridgeMissing = status.steps.some((step) => step.id === "bridge" && !step.ok);
  document.body.classList.toggle("no-bridge", bridgeMissing);
  const box = $("status");
  const missing = status.steps.find((step) => step.required && !step.ok);
  box.className = `status ${status.ready ? "ok" : "bad"}`;
  $("status-text").textContent = status.ready
    ? "Ready: Fill will work on job application pages."
    : `Not ready: ${missing?.message ?? "a step is missing"}`;
  const list = $("steps");
  list.replaceChildren(...status.steps.map((step) => {
    const li = document.createElement("li");
    li.className = step.ok ? "ok" : step.required ? "todo" : "optional";
    li.dataset.step = step.id;
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = step.ok ? "✓" : step.required ? "!" : "–";
    const words = document.createElement("span");
    words.textContent = `${step.ok ? "" : step.required ? "To do: " : "Optional: "}${step.message}`;
    li.append(mark, words);
    if (step.fix) {
      const fix = document.createElement("span");
      fix.className = "fix";
      withCode(fix, step.fix);
      li.append(fix);
    }
    return li;
  }));
  return status;
}

/** Text with `backticked` commands shown as code. @param {HTMLElement} el @param {string} text */
function withCode(el, text) {
  text.split(/(`[^`]+`)/).forEach((part) => {
    if (part.startsWith("`")) {
      const code = document.createElement("code");
      code.textContent = part.slice(1, -1);
      el.append(code);
    } else if (part) el.append(part);
  });
}

// -- profiles ---------------------------------------------------------------------------------

async function refreshProfiles() {
  let list = [];
  try {
    list = (await ask("profiles.list")).profiles;
  } catch {
    return;
  }
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("profile-select"));
  select.replaceChildren(...list.map((/** @type {any} */ p) => new Option(p.name, p.name, p.active, p.active)));
  $("profiles-bar").hidden = list.length === 0;
  const active = list.find((/** @type {any} */ p) => p.active);
  if (active) await showProfile(await ask("profile.get", { name: active.name }));
  else {
    current = null;
    $("editor").hidden = $("questions").hidden = true;
  }
  await profiles.show();
}

/** @param {{name: string, profile: Record<string, any>}} doc */
async function showProfile(doc) {
  current = { name: doc.name, profile: doc.profile };
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#editor-form [data-path]"))) {
    input.value = getPath(doc.profile, /** @type {string} */ (input.dataset.path)) ?? "";
  }
  $("editor-title").textContent = `Contact details in “${doc.name}”`;
  $("editor").hidden = false;
  showQuestions(doc.profile.application ?? {});
  $("questions").hidden = false;
}

/** @param {"ok"|"bad"} kind @param {string} text @param {string[]} [items] */
function say(kind, text, items = []) {
  const box = $("import-message");
  box.className = `message ${kind}`;
  box.replaceChildren(text);
  if (items.length) {
    const ul = document.createElement("ul");
    ul.append(...items.map((item) => Object.assign(document.createElement("li"), { textContent: item })));
    box.append(ul);
  }
  box.hidden = false;
}

/** @param {unknown} err */
const reason = (err) => (err instanceof Error ? err.message : String(err));

async function importJson(/** @type {File} */ file) {
  try {
    const text = await file.text();
    const name = file.name.replace(/\.json$/i, "") || "profile";
    const result = await ask("profile.import", { name, text, source_name: file.name });
    await afterImport(result, `Imported “${file.name}” as “${result.name}”.`);
  } catch (err) {
    say("bad", `Could not import ${file.name}: ${reason(err)}`);
  }
}

/** @param {any} result @param {string} words */
async function afterImport(result, words) {
  // What the person just brought in is what they mean to fill with next.
  if (!result.active) await ask("profile.activate", { name: result.name });
  say("ok", result.warnings.length ? `${words} Things to know:` : words, result.warnings);
  await refreshProfiles();
  await showProfile(result);
  await refreshStatus();
  $("questions-title").scrollIntoView({ block: "start" });
  $("q-countries").focus();
}

// -- facts from a resume ----------------------------------------------------------------------

async function extractResume(/** @type {File} */ file) {
  try {
    const data_b64 = await fileBase64(file);
    const result = await ask("profile.extract", { file_name: file.name, data_b64 });
    if (!result.facts.length) {
      say("bad", result.warnings.join(" ") || "Relay found nothing it could read in this file.");
      showEditorBlank();
      return;
    }
    pendingResume = { file, data_b64 };
    showFacts(file.name, result.facts);
    // E.g. details the model proposed that the resume does not say, left out with the reason.
    if (result.warnings.length) {
      say("bad", result.warnings.join(" "), (result.refused ?? []).map(
        (/** @type {{value: string, reason: string}} */ r) => `“${r.value}”: ${r.reason}`));
    }
  } catch (err) {
    say("bad", `Could not read ${file.name}: ${reason(err)}`);
  }
}

/** @param {string} fileName @param {Array<{path: string, label: string, value: string, source: string, kind: string, found_by?: string}>} facts */
function showFacts(fileName, facts) {
  $("facts-file").textContent = fileName;
  const rows = $("facts-rows");
  /** @type {HTMLTableRowElement[]} */
  const out = [];
  facts.forEach((fact, i) => {
    if (fact.source !== facts[i - 1]?.source) {
      // One heading per resume line, so the person sees where each group of details came from.
      const group = document.createElement("tr");
      group.className = "group";
      group.innerHTML = `<th colspan="3" scope="colgroup"></th>`;
      /** @type {HTMLElement} */ (group.firstElementChild).textContent = `From your resume: “${fact.source}”`;
      out.push(group);
    }
    const tr = document.createElement("tr");
    tr.dataset.path = fact.path;
    tr.innerHTML = `<td><input type="checkbox" checked id="keep-${i}"></td><td><label for="fact-${i}"></label></td><td><input id="fact-${i}" aria-describedby="fact-${i}-why"><p class="why" id="fact-${i}-why" aria-live="polite"></p></td>`;
    const keep = /** @type {HTMLInputElement} */ (tr.querySelector(`#keep-${i}`));
    keep.setAttribute("aria-label", `Keep ${fact.label}`);
    /** @type {HTMLElement} */ (tr.querySelector("label")).textContent = fact.label;
    // Who found it, so the person checks a model's reading with more care than a rule's.
    const foundBy = Object.assign(document.createElement("p"), {
      className: "found-by",
      textContent: fact.found_by === "model" ? "Read by the model: check it" : "Read by Relay's rules",
    });
    /** @type {HTMLElement} */ (tr.querySelector("label")).after(foundBy);
    const input = /** @type {HTMLInputElement} */ (tr.querySelector(`#fact-${i}`));
    input.value = fact.value;
    if (["email", "phone", "partial_date"].includes(fact.kind)) input.dataset.check = fact.kind;
    out.push(tr);
  });
  rows.replaceChildren(...out);
  const name = facts.find((f) => f.path === "basics.name")?.value ?? "";
  $("facts-name").value = name.split(/\s+/)[0]?.toLowerCase() || "profile";
  $("facts").hidden = false;
  $("facts-title").scrollIntoView({ block: "start" });
  /** @type {HTMLInputElement} */ (rows.querySelector("input[type=checkbox]")).focus();
}

async function saveFacts(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  const doc = {};
  const rows = /** @type {NodeListOf<HTMLTableRowElement>} */ ($("facts-rows").querySelectorAll("tr[data-path]"));
  for (const row of rows) {
    const keep = /** @type {HTMLInputElement} */ (row.querySelector("input[type=checkbox]"));
    const value = /** @type {HTMLInputElement} */ (row.querySelector("input:not([type])")).value.trim();
    if (keep.checked && value) setPath(doc, /** @type {string} */ (row.dataset.path), value);
  }
  const bad = $("facts-rows").querySelector("[aria-invalid=true]");
  if (bad) {
    /** @type {HTMLInputElement} */ (bad).focus();
    return;
  }
  try {
    const payload = {
      name: $("facts-name").value.trim() || "profile",
      text: JSON.stringify(compact(doc)),
      source_name: pendingResume?.file.name ?? "",
      ...(pendingResume ? { resume: { name: pendingResume.file.name, data_b64: pendingResume.data_b64 } } : {}),
    };
    const result = await ask("profile.import", payload);
    $("facts").hidden = true;
    pendingResume = null;
    await afterImport(result, `Saved the details you confirmed as “${result.name}”.`);
  } catch (err) {
    say("bad", `Could not save: ${reason(err)}`);
  }
}

// -- the editor -------------------------------------------------------------------------------

function showEditorBlank() {
  current = null;
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#editor-form [data-path]"))) input.value = "";
  $("editor-title").textContent = "Contact details";
  $("editor").hidden = false;
  $("f-name").focus();
}

async function saveEditor(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  await Promise.all([...document.querySelectorAll("#editor-form [data-check]")].map((el) => checkField(/** @type {HTMLInputElement} */ (el))));
  const bad = document.querySelector("#editor-form [aria-invalid=true]");
  if (bad) return /** @type {HTMLInputElement} */ (bad).focus();
  /** @type {Record<string, any>} */
  const patch = {};
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#editor-form [data-path]"))) {
    const value = input.dataset.path === "basics.location.countryCode" ? input.value.trim().toUpperCase() : input.value.trim();
    const before = current ? getPath(current.profile, /** @type {string} */ (input.dataset.path)) ?? "" : "";
    // A new profile gets only what was typed; an edit clears (null) what the person emptied.
    if (value !== before && (value || current)) setPath(patch, /** @type {string} */ (input.dataset.path), value || null);
  }
  try {
    const result = current
      ? await ask("profile.update", { name: current.name, patch })
      : await ask("profile.import", { name: $("f-name").value.trim().split(/\s+/)[0]?.toLowerCase() || "profile", text: JSON.stringify(compact(patch)) });
    $("editor-saved").textContent = "Saved. The next Fill uses it.";
    if (!current) return afterImport(result, `Created the profile “${result.name}”.`);
    await showProfile(result);
    await refreshStatus();
  } catch (err) {
    $("editor-saved").textContent = "";
    say("bad", `Could not save: ${reason(err)}`);
  }
}

async function saveQuestions(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  const problems = await questionProblems();
  if (problems.length) return problems[0].focus();
  if (!current) return say("bad", "Bring in or type your profile first (step 1).");
  try {
    const result = await ask("profile.update", { name: current.name, patch: { application: questionsPatch() } });
    current = { name: result.name, profile: result.profile };
    $("questions-saved").textContent = "Saved. Forms that ask these are filled from your answers.";
    await refreshStatus();
  } catch (err) {
    $("questions-saved").textContent = "";
    say("bad", `Could not save your answers: ${reason(err)}`);
  }
}

// -- checks as the person types ---------------------------------------------------------------

const timers = new WeakMap();

async function checkField(/** @type {HTMLInputElement} */ input) {
  const kind = /** @type {"email"|"phone"|"date"|"partial_date"} */ (input.dataset.check);
  const country = $("f-country")?.value || current?.profile?.basics?.location?.countryCode || "";
  const why = await check(kind, input.value, kind === "phone" ? country : "");
  input.setAttribute("aria-invalid", why ? "true" : "false");
  const box = document.getElementById(`${input.id}-why`);
  if (box) box.textContent = why;
}

document.addEventListener("input", (event) => {
  let input = /** @type {HTMLInputElement} */ (event.target);
  if (input.id === "f-country") input = $("f-phone"); // a phone number is checked for its country
  if (!(input instanceof HTMLInputElement) || !input.dataset.check) return;
  clearTimeout(timers.get(input));
  timers.set(input, setTimeout(() => void checkField(input), 300));
});

// -- wiring -----------------------------------------------------------------------------------

async function load() {
  buildQuestions();
  const settings = await readSettings();
  const autoFill = $("autoFillNewFields");
  autoFill.checked = settings.autoFillNewFields;
  autoFill.addEventListener("change", () => void chrome.storage.local.set({ autoFillNewFields: autoFill.checked }));
  $("resume-file").addEventListener("change", () => { const f = $("resume-file").files?.[0]; if (f) void extractResume(f); });
  $("json-file").addEventListener("change", () => { const f = $("json-file").files?.[0]; if (f) void importJson(f); });
  $("show-form").addEventListener("click", showEditorBlank);
  $("facts-form").addEventListener("submit", (e) => void saveFacts(/** @type {SubmitEvent} */ (e)));
  $("facts-cancel").addEventListener("click", () => { $("facts").hidden = true; pendingResume = null; });
  $("editor-form").addEventListener("submit", (e) => void saveEditor(/** @type {SubmitEvent} */ (e)));
  $("questions-form").addEventListener("submit", (e) => void saveQuestions(/** @type {SubmitEvent} */ (e)));
  $("profile-select").addEventListener("change", async () => {
    const name = $("profile-select").value;
    await ask("profile.activate", { name });
    await showProfile(await ask("profile.get", { name }));
    await profiles.show();
    await refreshStatus();
  });
  profiles.whenChanged(async () => {
    await refreshProfiles();
    await refreshStatus();
  });
  await refreshStatus();
  approvals.whenDecided(answers.show);
  await startNav({
    "profile-page": { show: refreshProfiles },
    "answers-page": { show: async () => { await Promise.all([approvals.show(), answers.show()]); } },
    "applications-page": applications,
    "spending-page": spending,
    "activity-page": activity,
    "settings-page": settingsPage,
  });
  document.body.dataset.ready = "true";
}

void load();
