// Applications: the person's list with a search and a status filter; status and notes editable;
// each opens the fields as they were submitted.

import { ask } from "../bridge.js";
import { el, reason, searchBox, tell, when } from "../dom.js";

const STATUSES = ["submitted", "interviewing", "offer", "rejected", "withdrawn"];
const SET_BY = { rules: "Relay (your profile)", saved_answer: "Relay (saved answer)", model: "Relay (model)",
  default: "Relay (default)", page: "Already on the page", person: "You" };

const body = /** @type {HTMLElement} */ (document.getElementById("applications-body"));
const status = el("p", { class: "saved", role: "status" });
const rows = el("tbody");
const detail = el("section", { class: "detail", id: "application-detail", "aria-labelledby": "application-detail-title", hidden: true });
const { input, field } = searchBox("applications-search", "Search company, job or notes", () => render());
const filter = /** @type {HTMLSelectElement} */ (el("select", { id: "applications-filter" },
  el("option", { value: "", text: "Every status" }), ...STATUSES.map((s) => el("option", { value: s, text: label(s) }))));
filter.addEventListener("change", () => render());

/** @type {any[]} */
let all = [];

body.append(
  el("div", { class: "toolbar" }, field,
    el("div", { class: "field" }, el("label", { for: "applications-filter", text: "Status" }), filter)),
  status,
  el("table", { class: "list", id: "applications-table" },
    el("caption", { class: "visually-hidden", text: "Your applications" }),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col", text: "Job" }), el("th", { scope: "col", text: "Submitted" }),
      el("th", { scope: "col", text: "Status" }), el("th", { scope: "col", text: "Notes" }))),
    rows),
  detail,
);

/** @param {string} s */
function label(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** @param {any} app */
function title(app) {
  const job = app.job_title || app.page_title || app.url;
  return app.company ? `${job} at ${app.company}` : job;
}

/** @param {any} app */
function row(app) {
  const id = app.application_id;
  const select = /** @type {HTMLSelectElement} */ (el("select", { id: `status-${id}`, "aria-label": `Status of ${title(app)}` },
    ...STATUSES.map((s) => el("option", { value: s, text: label(s), selected: s === app.status }))));
  select.addEventListener("change", () => void update(app, { status: select.value }, `Status of “${title(app)}”: ${label(select.value)}.`));
  const notes = /** @type {HTMLInputElement} */ (el("input", { id: `notes-${id}`, "aria-label": `Notes on ${title(app)}` }));
  notes.value = app.notes ?? "";
  const saveNotes = el("button", { type: "button", text: "Save", onclick: () => void update(app, { notes: notes.value }, "Notes saved.") });
  return el("tr", { dataset: { application: String(id) } },
    el("td", {}, el("button", { type: "button", class: "link", text: title(app), onclick: () => void open(id) }),
      el("span", { class: "note", text: app.ats ? `${app.url} · ${app.ats}` : app.url })),
    el("td", { text: when(app.submitted_at) }),
    el("td", {}, select),
    el("td", {}, el("div", { class: "row-actions" }, notes, saveNotes)));
}

/** @param {any} app @param {Record<string, string>} change @param {string} words */
async function update(app, change, words) {
  try {
    const result = await ask("application.update", { application_id: app.application_id, ...change });
    Object.assign(app, result.application);
    tell(status, "ok", words);
  } catch (err) {
    tell(status, "bad", `Could not save: ${reason(err)}`);
  }
}

/** The fields as submitted. @param {number} id */
async function open(id) {
  try {
    const { application } = await ask("application.get", { application_id: id });
    const heading = el("h2", { id: "application-detail-title", tabindex: "-1", text: title(application) });
    detail.replaceChildren(heading,
      el("p", { class: "note", text: `Submitted ${when(application.submitted_at)} · ${application.url}` }),
      el("table", { class: "list" },
        el("caption", { class: "visually-hidden", text: "The fields as submitted" }),
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Field" }), el("th", { scope: "col", text: "Value submitted" }),
          el("th", { scope: "col", text: "Set by" }))),
        el("tbody", {}, ...application.fields.map((/** @type {any} */ f) => el("tr", {},
          el("td", {}, f.label || f.field_id, f.section ? el("span", { class: "note", text: f.section }) : null),
          el("td", { class: "value", text: f.value }),
          el("td", { text: f.value ? SET_BY[/** @type {keyof typeof SET_BY} */ (f.set_by)] ?? f.set_by : "Left empty" })))),
      ),
      el("button", { type: "button", text: "Close", onclick: () => { detail.hidden = true; } }));
    detail.hidden = false;
    heading.focus();
  } catch (err) {
    tell(status, "bad", `Could not open the application: ${reason(err)}`);
  }
}

function render() {
  const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = all.filter((app) => (!filter.value || app.status === filter.value)
    && words.every((w) => [app.company, app.job_title, app.page_title, app.url, app.notes].join(" ").toLowerCase().includes(w)));
  rows.replaceChildren(...shown.map(row));
  if (!shown.length) {
    rows.append(el("tr", {}, el("td", { colspan: "4", class: "empty", text: all.length
      ? "No application matches." : "No applications yet. When you submit a form Relay filled, it shows here." })));
  }
}

export async function show() {
  try {
    all = (await ask("applications.list", { limit: 1000 })).applications;
    render();
  } catch (err) {
    tell(status, "bad", `Could not read your applications: ${reason(err)}`);
  }
}
