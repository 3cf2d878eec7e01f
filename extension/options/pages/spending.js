// Spending & models: per day and per month as a chart, the caps per fill and per day, what is left
// today; the model of each tier, the API key (straight to the OS keyring through the bridge, never
// kept here) and a "Test the model" button.

import { ask } from "../bridge.js";
import { barChart } from "../chart.js";
import { el, money, reason, tell } from "../dom.js";

const spendingBody = /** @type {HTMLElement} */ (document.getElementById("spending-body"));
const modelsBody = /** @type {HTMLElement} */ (document.getElementById("models-body"));
const TIERS = [
  ["fast", "Fast", "maps fields to your profile"],
  ["general", "General", "drafts open answers"],
  ["heavy", "Heavy", "hard cases such as cover letters (empty: off)"],
];
const KEY_WORDS = { env: "from the RELAY_LLM_API_KEY environment variable", keyring: "in the OS keyring", none: "not set" };

/** @param {string} id @param {string} text @param {string} note @param {Record<string, any>} [attrs] */
function input(id, text, note, attrs = {}) {
  const box = /** @type {HTMLInputElement} */ (el("input", { id, autocomplete: "off", "aria-describedby": `${id}-note`, ...attrs }));
  return { box, field: el("div", { class: "field" }, el("label", { for: id, text }), box, el("span", { class: "note", id: `${id}-note`, text: note })) };
}

const capFill = input("cap-fill", "Cap per fill (US$)", "The most one Fill may spend on model answers.", { type: "number", min: "0", step: "0.01", inputmode: "decimal" });
const capDay = input("cap-day", "Cap per day (US$)", "The most all Fills together may spend in one day.", { type: "number", min: "0", step: "0.01", inputmode: "decimal" });
const capsStatus = el("span", { class: "saved", role: "status", id: "caps-saved" });
const summary = el("div", { class: "cards", id: "spending-cards" });
const charts = el("div", { class: "charts" });

spendingBody.append(summary, charts,
  el("form", { id: "caps-form", class: "grid", novalidate: true, onsubmit: (/** @type {SubmitEvent} */ e) => void saveCaps(e) },
    capFill.field, capDay.field,
    el("div", { class: "actions wide" }, el("button", { type: "submit", class: "primary", text: "Save caps" }), capsStatus)));

const tierInputs = TIERS.map(([tier, name, what]) => ({ tier, ...input(`model-${tier}`, `${name} model`, `A litellm model name; ${what}.`) }));
const apiBase = input("api-base", "Local model server (optional)", "One OpenAI-compatible server for every tier, such as Ollama: http://127.0.0.1:11434/v1", { type: "url" });
const provider = input("key-provider", "Key provider", "Which provider the key is for: openrouter, openai, anthropic…");
const key = input("api-key", "API key", "Sent once to Relay on this computer, which keeps it in the OS keyring. It is never stored here.", { type: "password", autocomplete: "new-password" });
const modelsStatus = el("span", { class: "saved", role: "status", id: "models-saved" });
const keyStatus = el("span", { class: "saved", role: "status", id: "key-saved" });
const testResult = el("p", { class: "saved", role: "status", id: "model-test-result" });
const keyLine = el("p", { id: "key-source" });

modelsBody.append(
  el("form", { id: "models-form", class: "grid", novalidate: true, onsubmit: (/** @type {SubmitEvent} */ e) => void saveModels(e) },
    ...tierInputs.map((t) => t.field), apiBase.field,
    el("div", { class: "actions wide" }, el("button", { type: "submit", class: "primary", text: "Save models" }),
      el("button", { type: "button", id: "model-test", text: "Test the model", onclick: () => void testModel() }), modelsStatus)),
  testResult,
  el("h3", { text: "API key" }), keyLine,
  el("form", { id: "key-form", class: "grid", novalidate: true, onsubmit: (/** @type {SubmitEvent} */ e) => void saveKey(e) },
    provider.field, key.field,
    el("div", { class: "actions wide" }, el("button", { type: "submit", class: "primary", text: "Keep the key in the keyring" }), keyStatus)));

// Periods as the ledger writes them (UTC dates), every one shown, so the chart reads as time.
/** @param {number} n */
const lastDays = (n) => Array.from({ length: n }, (_, i) => new Date(Date.now() - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10));
/** @param {number} n */
function lastMonths(n) {
  const now = new Date();
  return Array.from({ length: n }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (n - 1 - i), 1)).toISOString().slice(0, 7));
}
/** @param {any[]} rows @param {string} key @param {string[]} periods */
function series(rows, key, periods) {
  const spent = new Map(rows.map((r) => [r[key], r.usd]));
  return periods.map((label) => ({ label, usd: spent.get(label) ?? 0 }));
}

/** @param {string} label @param {string} value @param {string} [id] */
const card = (label, value, id) => el("div", { class: "card", id }, el("span", { class: "note", text: label }), el("strong", { text: value }));

export async function show() {
  try {
    const s = await ask("spending.get");
    const month = s.by_month.at(-1);
    summary.replaceChildren(
      card("Spent today", money(s.spent_today_usd), "spent-today"),
      card(`Left today (of ${money(s.cap_per_day_usd)})`, money(s.left_today_usd), "left-today"),
      card("This month", money(month && month.month === new Date().toISOString().slice(0, 7) ? month.usd : 0)),
      card("Since you started", money(s.total_usd)));
    charts.replaceChildren(
      barChart("chart-days", "Per day (last 14 days)", series(s.by_day, "day", lastDays(14)), (l) => l.slice(5)),
      barChart("chart-months", "Per month (last 6 months)", series(s.by_month, "month", lastMonths(6)), (l) => l));
    capFill.box.value = String(s.cap_per_fill_usd);
    capDay.box.value = String(s.cap_per_day_usd);
    for (const t of tierInputs) t.box.value = t.box.dataset.was = s.models[t.tier] ?? "";
    apiBase.box.value = apiBase.box.dataset.was = s.api_base;
    provider.box.value = s.key_provider;
    keyLine.textContent = s.model_enabled
      ? `The key is ${KEY_WORDS[/** @type {keyof typeof KEY_WORDS} */ (s.key_source)] ?? s.key_source}${s.api_base ? "; the local server needs none" : ""}.`
      : "No model is set up yet: Relay fills from your profile alone. Add a key, or a local model server.";
  } catch (err) {
    tell(capsStatus, "bad", `Could not read spending: ${reason(err)}`);
  }
}

/** @param {Array<[string, string|number|null]>} pairs */
async function setAll(pairs) {
  for (const [k, value] of pairs) await ask("settings.set", { key: k, value });
}

/** @param {SubmitEvent} event */
async function saveCaps(event) {
  event.preventDefault();
  try {
    await setAll([["limits.cap_per_fill_usd", capFill.box.value.trim() || null], ["limits.cap_per_day_usd", capDay.box.value.trim() || null]]);
    await show();
    tell(capsStatus, "ok", "Saved. The next Fill keeps to these caps.");
  } catch (err) {
    tell(capsStatus, "bad", `Not saved: ${reason(err)}`);
  }
}

/** @param {SubmitEvent} event */
async function saveModels(event) {
  event.preventDefault();
  try {
    // Only what the person changed: the rest keeps following Relay's defaults.
    const changed = [...tierInputs.map((t) => ({ key: `models.${t.tier}`, box: t.box })), { key: "api_base", box: apiBase.box }]
      .filter(({ box }) => box.value.trim() !== box.dataset.was);
    await setAll(changed.map(({ key: k, box }) => [k, box.value.trim() || (k === "api_base" ? null : "")]));
    await show();
    tell(modelsStatus, "ok", "Saved.");
  } catch (err) {
    tell(modelsStatus, "bad", `Not saved: ${reason(err)}`);
  }
}

/** @param {SubmitEvent} event */
async function saveKey(event) {
  event.preventDefault();
  try {
    if (provider.box.value.trim()) await ask("settings.set", { key: "key_provider", value: provider.box.value.trim() });
    const result = await ask("key.set", { provider: provider.box.value.trim(), key: key.box.value });
    key.box.value = ""; // gone from this page as soon as the keyring has it
    await show();
    tell(keyStatus, "ok", result.stored ? `The ${result.provider} key is in the OS keyring.` : `Removed the ${result.provider} key.`);
  } catch (err) {
    tell(keyStatus, "bad", `Not stored: ${reason(err)}`);
  }
}

async function testModel() {
  tell(testResult, "", "Asking the model…");
  try {
    const result = await ask("model.test", { tier: "fast" });
    tell(testResult, result.ok ? "ok" : "bad", result.ok
      ? `${result.reason} (${result.model}, ${money(result.cost_usd ?? 0)})`
      : result.reason);
    await show();
  } catch (err) {
    tell(testResult, "bad", `The test did not run: ${reason(err)}`);
  }
}
