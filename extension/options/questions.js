// The job questions a resume does not answer, as a form over the profile's `application` object.

import { check } from "./bridge.js";

const CURRENCIES = ["USD", "EUR", "GBP", "CAD", "AUD", "CHF", "SEK", "NOK", "DKK", "PLN", "INR", "JPY", "SGD", "NZD", "BRL", "MXN"];

/** Each self-identification question: its key, words, what it is for, and common answers. */
const EEO = [
  { key: "gender", label: "Gender", note: "Used by employers to report on gender balance in hiring.",
    options: ["Female", "Male", "Non-binary"] },
  { key: "hispanicOrLatino", label: "Hispanic or Latino", note: "US employers report ethnicity to the EEOC.",
    options: ["Yes", "No"] },
  { key: "race", label: "Race", note: "US employers report race to the EEOC; it never affects the decision.",
    options: ["American Indian or Alaska Native", "Asian", "Black or African American",
      "Native Hawaiian or Other Pacific Islander", "White", "Two or more races"] },
  { key: "veteranStatus", label: "Veteran status", note: "US federal contractors report protected veterans (VEVRAA).",
    options: ["I am not a protected veteran", "I identify as one or more of the classifications of protected veteran"] },
  { key: "disabilityStatus", label: "Disability", note: "US federal contractors invite this under Section 503.",
    options: ["No, I do not have a disability", "Yes, I have a disability (or previously had a disability)"] },
];

const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** Build the parts of the form that come from data (currencies, self-identification). */
export function buildQuestions() {
  const currency = $("q-currency");
  for (const code of CURRENCIES) currency.append(new Option(code, code));
  const holder = /** @type {HTMLElement} */ (document.getElementById("eeo-fields"));
  for (const item of EEO) {
    const field = document.createElement("div");
    field.className = "field";
    const id = `eeo-${item.key}`;
    field.innerHTML = `<label for="${id}"></label><select id="${id}" aria-describedby="${id}-note"></select><span class="note" id="${id}-note"></span>`;
    /** @type {HTMLElement} */ (field.querySelector("label")).textContent = item.label;
    /** @type {HTMLElement} */ (field.querySelector(".note")).textContent = item.note;
    const select = /** @type {HTMLSelectElement} */ (field.querySelector("select"));
    select.append(new Option("Decline to answer", "decline", true, true));
    for (const option of item.options) select.append(new Option(option, option));
    holder.append(field);
  }
  $("q-countries").addEventListener("change", () => renderCountries(readCountries(), {}, {}));
}

/** @returns {string[]} the ISO codes typed, upper-cased; a wrong one is named next to the field */
function readCountries() {
  const parts = $("q-countries").value.split(/[\s,;]+/).map((p) => p.trim().toUpperCase()).filter(Boolean);
  const bad = parts.filter((p) => !/^[A-Z]{2}$/.test(p));
  const why = $("q-countries-why");
  why.textContent = bad.length ? `Use two-letter country codes (US, GB, DE); not “${bad.join(", ")}”.` : "";
  $("q-countries").setAttribute("aria-invalid", bad.length ? "true" : "false");
  return [...new Set(parts.filter((p) => /^[A-Z]{2}$/.test(p)))];
}

/** @param {string[]} codes @param {Record<string, boolean>} auth @param {Record<string, boolean>} sponsor */
function renderCountries(codes, auth, sponsor) {
  const rows = /** @type {HTMLElement} */ (document.getElementById("auth-rows"));
  const keep = Object.fromEntries([...rows.querySelectorAll("select")].map((s) => [s.id, s.value]));
  rows.replaceChildren();
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  for (const code of codes) {
    const tr = document.createElement("tr");
    let name = code;
    try { name = names.of(code) ?? code; } catch { /* an unknown code shows as typed */ }
    tr.innerHTML = `<th scope="row"></th><td></td><td></td>`;
    /** @type {HTMLElement} */ (tr.querySelector("th")).textContent = `${name} (${code})`;
    const cells = tr.querySelectorAll("td");
    [["auth", auth, "Allowed to work in"], ["sponsor", sponsor, "Needs sponsorship in"]].forEach(([kind, known, words], i) => {
      const select = document.createElement("select");
      select.id = `${kind}-${code}`;
      select.setAttribute("aria-label", `${words} ${name}`);
      select.append(new Option("Not set", ""), new Option("Yes", "yes"), new Option("No", "no"));
      const value = /** @type {Record<string, boolean>} */ (known)[code];
      select.value = keep[select.id] ?? (value === undefined ? "" : value ? "yes" : "no");
      cells[i].append(select);
    });
    rows.append(tr);
  }
}

/** Fill the form from a stored profile's `application`. @param {Record<string, any>} app */
export function showQuestions(app = {}) {
  const auth = app.authorizedToWork ?? {};
  const sponsor = app.requiresSponsorship ?? {};
  const codes = [...new Set([...Object.keys(auth), ...Object.keys(sponsor)])];
  $("q-countries").value = codes.join(", ");
  renderCountries(codes, auth, sponsor);
  $("q-relocate").value = app.willingToRelocate === undefined ? "" : app.willingToRelocate ? "yes" : "no";
  $("q-remote").value = app.remotePreference ?? "";
  $("q-notice").value = app.noticePeriod ?? "";
  $("q-start").value = app.earliestStartDate ?? "";
  $("q-salary").value = app.salaryExpectation?.amount ?? "";
  $("q-currency").value = app.salaryExpectation?.currency ?? "USD";
  $("q-period").value = app.salaryExpectation?.period ?? "year";
  $("q-hear").value = app.howDidYouHear ?? "";
  for (const item of EEO) $(`eeo-${item.key}`).value = app.eeo?.[item.key] ?? "decline";
}

/** Problems with what was typed, checked before saving; each is also shown next to its field. */
export async function questionProblems() {
  const problems = [];
  const start = $("q-start");
  const why = await check("date", start.value);
  start.setAttribute("aria-invalid", why ? "true" : "false");
  $("q-start-why").textContent = why;
  if (why) problems.push(start);
  const salary = $("q-salary");
  const bad = salary.value.trim() !== "" && !(Number(salary.value.replace(/[,\s]/g, "")) > 0);
  salary.setAttribute("aria-invalid", bad ? "true" : "false");
  $("q-salary-why").textContent = bad ? "Write the amount as a number, for example 85000." : "";
  if (bad) problems.push(salary);
  readCountries();
  if ($("q-countries").getAttribute("aria-invalid") === "true") problems.push($("q-countries"));
  return problems;
}

/** The merge patch for `application` from the form; `null` removes an answer cleared. */
export function questionsPatch() {
  /** @type {Record<string, boolean|null>} */
  const auth = {};
  /** @type {Record<string, boolean|null>} */
  const sponsor = {};
  for (const select of /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("#auth-rows select"))) {
    const [kind, code] = select.id.split("-");
    const value = select.value === "" ? null : select.value === "yes";
    (kind === "auth" ? auth : sponsor)[code] = value;
  }
  const yesNo = (/** @type {string} */ v) => (v === "" ? null : v === "yes");
  const text = (/** @type {string} */ id) => $(id).value.trim() || null;
  const amount = Number($("q-salary").value.replace(/[,\s]/g, ""));
  return {
    authorizedToWork: auth,
    requiresSponsorship: sponsor,
    willingToRelocate: yesNo($("q-relocate").value),
    remotePreference: text("q-remote"),
    noticePeriod: text("q-notice"),
    earliestStartDate: text("q-start"),
    salaryExpectation: amount > 0 ? { amount, currency: $("q-currency").value, period: $("q-period").value } : null,
    howDidYouHear: text("q-hear"),
    eeo: Object.fromEntries(EEO.map((item) => [item.key, $(`eeo-${item.key}`).value])),
  };
}
