// What the person's assistant asked Relay to do that waits for their say-so (the APPROVE tier,
// docs/mcp.md): today, saving an answer. Shown at the top of the Saved answers page with what
// would be saved; Approve saves it (the bridge sends the request it holds), Deny drops it.
// Nothing is saved until the person approves here or with `relay approvals approve`.

import { ask } from "../bridge.js";
import { el, reason, tell, when } from "../dom.js";

const section = el("section", { id: "approvals", "aria-labelledby": "approvals-title", hidden: true });
const status = el("p", { class: "saved", role: "status" });
const rows = el("tbody");
section.append(
  el("h2", { id: "approvals-title", text: "Waiting for your approval" }),
  el("p", { class: "lead", text: "Your assistant asked Relay to save these answers. Nothing is saved until you approve it." }),
  status,
  el("table", { class: "list", id: "approvals-table" },
    el("caption", { class: "visually-hidden", text: "Answers your assistant asked to save" }),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col", text: "Question" }), el("th", { scope: "col", text: "Answer it would save" }),
      el("th", { scope: "col", text: "Asked" }), el("th", { scope: "col", text: "Your say" }))),
    rows));
document.getElementById("answers-body")?.before(section);

/** @type {() => Promise<void>} */
let decided = async () => {};

/** Called after an approval is decided (the saved answers below change). @param {() => Promise<void>} fn */
export function whenDecided(fn) {
  decided = fn;
}

/** @param {any} item @param {boolean} approve */
async function decide(item, approve) {
  /** @type {["ok"|"bad", string]} */
  let said;
  try {
    await ask("approval.decide", { approval_id: item.approval_id, approve });
    said = ["ok", approve ? `Saved your answer to “${item.question}”.` : `Declined: nothing was saved for “${item.question}”.`];
  } catch (err) {
    said = ["bad", `Could not ${approve ? "approve" : "decline"} it: ${reason(err)}`];
  }
  // The list first, then the line that says what happened (it stays until the page is opened again).
  await show();
  tell(status, ...said);
  section.hidden = false;
  await decided();
}

/** @param {any} item */
function row(item) {
  const sealed = item.encrypted;
  return el("tr", { dataset: { approval: String(item.approval_id) } },
    el("td", {}, el("span", { class: "strong", text: sealed ? "(encrypted: the key is not at hand)" : item.question }),
      item.section ? el("span", { class: "note", text: item.section }) : null),
    el("td", { text: sealed ? "" : item.value }),
    el("td", { class: "note-cell", text: `By your assistant, ${when(item.created_at)}` }),
    el("td", {}, el("div", { class: "row-actions" },
      el("button", { type: "button", text: "Approve", disabled: sealed, "aria-label": `Approve saving the answer to ${item.question}`, onclick: () => decide(item, true) }),
      el("button", { type: "button", class: "danger", text: "Deny", "aria-label": `Deny saving the answer to ${item.question}`, onclick: () => decide(item, false) }))));
}

/** Load what waits; the section shows only while something does. */
export async function show() {
  tell(status, "", "");
  try {
    const { approvals } = await ask("approvals.list", {});
    rows.replaceChildren(...approvals.map(row));
    if (!approvals.length) rows.append(el("tr", {}, el("td", { colspan: "4", class: "empty", text: "Nothing else waits for your approval." })));
    section.hidden = !approvals.length;
  } catch (err) {
    // A bridge without approvals (an older version) leaves the page as it was.
    section.hidden = true;
    console.info(`Relay: approvals not shown: ${reason(err)}`);
  }
  section.dataset.loaded = String(Date.now()); // tests wait for a fresh load
}
