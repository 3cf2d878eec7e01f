// Saved answers: search, change, delete; each says where it came from.

import { ask } from "../bridge.js";
import { el, reason, searchBox, tell, when } from "../dom.js";

const body = /** @type {HTMLElement} */ (document.getElementById("answers-body"));
const status = el("p", { class: "saved", role: "status" });
const rows = el("tbody");
const { input, field } = searchBox("answers-search", "Search questions and answers", () => void show());

const table = el("table", { class: "list", id: "answers-table" },
  el("caption", { class: "visually-hidden", text: "Your saved answers" }),
  el("thead", {}, el("tr", {},
    el("th", { scope: "col", text: "Question" }), el("th", { scope: "col", class: "answer-col", text: "Your answer" }),
    el("th", { scope: "col", text: "Where it came from" }), el("th", { scope: "col", text: "Actions" }))),
  rows);

body.append(el("div", { class: "toolbar" }, field), status, table);

/** @type {Map<number, string>} each application's job, to say where an answer came from */
let jobs = new Map();

/** @param {any} answer */
function origin(answer) {
  const from = answer.application_id
    ? `Your application to ${jobs.get(answer.application_id) ?? `#${answer.application_id}`}`
    : answer.origin === "saved" ? "“Save this answer” in the review" : answer.origin || "Saved";
  const used = answer.used_count ? `, used ${answer.used_count} time${answer.used_count === 1 ? "" : "s"}` : "";
  return `${from}, ${when(answer.updated_at)}${used}`;
}

/** @param {any} answer */
function row(answer) {
  const id = `answer-${answer.answer_id}`;
  const value = /** @type {HTMLTextAreaElement} */ (el("textarea", {
    id, rows: String(Math.min(8, Math.ceil(answer.value.length / 40) || 1)), "aria-label": `Answer to ${answer.question}`,
  }));
  value.value = answer.value;
  const save = el("button", { type: "button", text: "Save", onclick: async () => {
    try {
      await ask("answers.update", { answer_id: answer.answer_id, value: value.value });
      tell(status, "ok", `Saved your answer to “${answer.question}”.`);
    } catch (err) {
      tell(status, "bad", `Could not save: ${reason(err)}`);
    }
  } });
  const remove = el("button", { type: "button", class: "danger", text: "Delete", onclick: async () => {
    try {
      await ask("answers.delete", { answer_id: answer.answer_id });
      tell(status, "ok", `Deleted your answer to “${answer.question}”.`);
      await show();
    } catch (err) {
      tell(status, "bad", `Could not delete: ${reason(err)}`);
    }
  } });
  return el("tr", { dataset: { answer: String(answer.answer_id) } },
    el("td", {}, el("span", { class: "strong", text: answer.question }),
      answer.section ? el("span", { class: "note", text: answer.section }) : null,
      answer.self_id ? el("span", { class: "tag", text: "Self-identification: never used for other questions" }) : null),
    el("td", {}, value),
    el("td", { class: "note-cell", text: origin(answer) }),
    el("td", {}, el("div", { class: "row-actions" }, save, remove)));
}

export async function show() {
  try {
    const query = input.value.trim();
    const [{ answers }, { applications }] = await Promise.all([
      ask("answers.list", { query, limit: 500 }), ask("applications.list", { limit: 1000 })]);
    jobs = new Map(applications.map((/** @type {any} */ a) => [a.application_id,
      [a.job_title || a.page_title, a.company].filter(Boolean).join(" at ") || a.url]));
    rows.replaceChildren(...answers.map(row));
    table.dataset.query = query; // what the rows shown answer (tests wait for it)
    if (!answers.length) {
      rows.append(el("tr", {}, el("td", { colspan: "4", class: "empty", text: input.value
        ? "No saved answer matches." : "No saved answers yet. Answers you give on forms after a Fill are kept here." })));
    }
  } catch (err) {
    tell(status, "bad", `Could not read your saved answers: ${reason(err)}`);
  }
}
