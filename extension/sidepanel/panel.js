// The review in the browser's side panel: what needs the person first, then every field by section,
// with its value, who put it there, how sure Relay is and why. Rows scroll to their field; each row
// has the field's actions. It reads the tab's review from chrome.storage.session (written by
// background/review.js) and re-renders when it changes, so edits in the page show at once.
// In tests the page is opened as a tab (`panel.html?tab=<id>`), sized like the side panel.

const params = new URLSearchParams(location.search);
const SOURCE_WORDS = {
  rules: "Rules (your profile)", saved_answer: "Saved answer", model: "Model", you: "You",
  default: "Default", "": "Not filled",
};
// The same words as `relay fill`'s summary (bridge/driver/report.py table, sources_line).
const VERDICT_WORDS = [
  ["fill", "filled"], ["flag", "flagged for review"], ["leave", "left for you"], ["never", "never filled"],
  ["keep", "kept as they were"],
];
const SOURCE_COUNT_WORDS = [["profile", "rules"], ["saved_answer", "saved answers"], ["llm", "model"]];

/** @typedef {import("../background/review.js").Review} Review */
/** @typedef {import("../background/review.js").ReviewRow} ReviewRow */

/** @type {number|null} */
let tabId = null;
/** @type {Review|null} */
let review = null;
/** @type {{key: string, draft: string}|null} the row being edited in place */
let editing = null;
/** @type {chrome.runtime.Port|null} */
let presence = null;

const main = /** @type {HTMLElement} */ (document.getElementById("review"));
const status = /** @type {HTMLElement} */ (document.getElementById("status"));
const pageLine = /** @type {HTMLElement} */ (document.getElementById("page"));

await start();

async function start() {
  const fixed = Number(params.get("tab"));
  if (Number.isInteger(fixed) && fixed > 0) {
    await follow(fixed);
  } else {
    const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
    if (tab?.id !== undefined) await follow(tab.id);
    chrome.tabs.onActivated.addListener(({ tabId: id }) => void follow(id));
  }
  chrome.storage.onChanged.addListener((changes, area) => {
    const key = `review:${tabId}`;
    if (area === "session" && key in changes) {
      review = changes[key].newValue ?? null;
      render();
    }
  });
}

/** Show this tab's review, and hold a port while open (its marks go when the panel closes). @param {number} id */
async function follow(id) {
  tabId = id;
  editing = null;
  presence?.disconnect();
  presence = chrome.runtime.connect({ name: `review:${id}` });
  const key = `review:${id}`;
  review = (await chrome.storage.session.get(key))[key] ?? null;
  render();
}

// A message now and then keeps the worker, and so this panel's port, alive.
setInterval(() => presence?.postMessage({ alive: true }), 20_000);

/** @param {Record<string, unknown>} request */
async function ask(request) {
  try {
    const reply = await chrome.runtime.sendMessage({ relay_bg: "review", tab_id: tabId, ...request });
    if (reply && reply.ok === false && reply.error?.message) say(reply.error.message);
    return reply ?? { ok: false };
  } catch (err) {
    say(`Relay did not answer: ${/** @type {any} */ (err)?.message ?? err}`);
    return { ok: false };
  }
}

/** @type {ReturnType<typeof setTimeout>|undefined} */
let sayTimer;

/** A short note on the latest action, read out by screen readers; it goes after a while. @param {string} text */
function say(text) {
  status.textContent = text;
  clearTimeout(sayTimer);
  sayTimer = setTimeout(() => { status.textContent = ""; }, 10_000);
}

/** @param {number} n @param {string} one @param {string} many */
function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function render() {
  const focus = focusedKey();
  main.replaceChildren();
  pageLine.textContent = review?.title || review?.url || "";
  if (!review || (!review.rows.length && !review.error && !review.blocked.length)) {
    main.append(el("p", "empty", "Press Fill (the Relay button or Alt+Shift+F) on an application form. "
      + "What Relay filled, and what it left for you, shows here. You click Submit yourself."));
    return;
  }
  if (review.error) main.append(el("p", "alert", `Relay could not fill this page: ${review.error.message}`));
  if (review.blocked.length) main.append(blockedNotice(review.blocked));
  if (review.rows.length) main.append(summary(review), tools());
  if (review.marks_unseen?.length) {
    main.append(el("p", "alert", "This page keeps Relay's marks out of sight, so its fields are not marked: "
      + "review them with this list."));
  }
  if (review.message) main.append(el("p", "message", review.message));

  const needs = review.rows.filter((r) => r.needs);
  const needsHeading = el("h2", "", `Needs you (${needs.length})`);
  needsHeading.id = "needs";
  main.append(needsHeading);
  if (needs.length) main.append(list(needs, "needs"));
  else main.append(el("p", "empty", "Nothing needs you: check the form, then submit it yourself."));

  const all = el("h2", "", `All fields (${review.rows.length})`);
  all.id = "all";
  main.append(all);
  for (const [section, rows] of bySection(review.rows)) {
    main.append(el("h3", "", section || "Other fields"), list(rows, "all"));
  }
  restoreFocus(focus);
}

/** @param {Review} r */
function summary(r) {
  const box = el("section", "summary");
  box.setAttribute("aria-label", "This fill");
  const c = r.counts;
  box.append(el("p", "", VERDICT_WORDS.map(([k, words]) => `${c[k] ?? 0} ${words}`).join(", ")));
  const from = SOURCE_COUNT_WORDS.map(([k, words]) => {
    const n = c[`source:${k}`] ?? 0;
    return `${n} ${n === 1 && k === "saved_answer" ? "saved answer" : words}`;
  });
  box.append(el("p", "", `Values from: ${from.join(", ")}`));
  const yours = r.rows.filter((row) => row.source === "you").length;
  if (yours) box.append(el("p", "", `You changed ${count(yours, "field", "fields")} since.`));
  const llm = r.llm;
  const left = typeof llm.day_left_usd === "number" ? `; ${money(llm.day_left_usd)} left to spend today` : "";
  box.append(el("p", "", llm.calls
    ? `Model: ${llm.calls} call${llm.calls === 1 ? "" : "s"}, ${money(llm.cost_usd)}${left}`
    : `Model: not used — ${plainStatus(llm.status)}${left}`));
  return box;
}

function tools() {
  const bar = el("div", "tools");
  bar.append(
    button("Undo the whole fill", async () => {
      say("Putting back what was there before Relay…");
      const reply = await ask({ op: "undo-all" });
      if (reply.ok) say(`Put back ${count(reply.undone, "field", "fields")}.`);
      else if (reply.failed) say(`${count(reply.failed, "field", "fields")} could not be put back: see "Needs you".`);
    }, "undo-all"),
    button(review?.marks_hidden ? "Marks hidden" : "Hide marks on the page", async () => {
      await ask({ op: "hide-marks" });
      say("The marks on the page are hidden.");
    }, "hide-marks"),
  );
  const hide = /** @type {HTMLButtonElement} */ (bar.lastElementChild);
  hide.disabled = Boolean(review?.marks_hidden);
  return bar;
}

/** @param {ReviewRow[]} rows @param {string} where */
function list(rows, where) {
  const ul = el("ul", "rows");
  for (const row of rows) ul.append(rowItem(row, where));
  return ul;
}

/** @param {ReviewRow} row @param {string} where */
function rowItem(row, where) {
  const key = `${row.frame}/${row.field_id}`;
  const li = el("li", row.needs && where === "needs" ? "row needs" : "row");
  li.dataset.key = key;
  li.dataset.fieldId = row.field_id;
  li.dataset.source = row.source;
  li.dataset.where = where;
  const pick = button("", () => void ask({ op: "focus", frame: row.frame, field_id: row.field_id }), "focus", "pick");
  const label = el("span", "label", row.label || "(a field without a label)");
  if (row.required) label.append(el("span", "required", " (required)"));
  const shown = row.value && row.value !== "unchecked" ? row.value : "empty";
  pick.append(label, el("span", shown === "empty" ? "value none" : "value", shown));
  pick.title = "Go to the field";
  li.append(pick);

  const facts = el("p", "facts");
  const source = el("span", "source", SOURCE_WORDS[/** @type {keyof typeof SOURCE_WORDS} */ (row.source)] ?? row.source);
  source.dataset.source = row.source;
  facts.append(source);
  if (row.source && row.source !== "you") facts.append(` · ${Math.round(row.confidence * 100)}% sure`);
  if (row.state === "accepted") facts.append(" · accepted");
  if (row.saved) facts.append(" · saved");
  li.append(facts);
  // Filled in another site's frame (an embedded application): the person sees whose it is.
  if (row.frame_origin) li.append(el("p", "where", `In a frame from ${row.frame_origin}`));
  if (row.needs) li.append(el("p", "need", row.needs));
  if (row.why) li.append(el("p", "why", row.why));
  if (row.note) li.append(el("p", "note", row.note));
  li.append(editing?.key === key && where === "all" ? editor(row, key) : actions(row, key));
  return li;
}

/** @param {ReviewRow} row @param {string} key */
function actions(row, key) {
  const bar = el("div", "actions");
  const name = row.label || "this field";
  const add = (/** @type {string} */ text, /** @type {string} */ action, /** @type {() => unknown} */ fn) => {
    const b = button(text, fn, action);
    b.setAttribute("aria-label", `${text}: ${name}`);
    bar.append(b);
  };
  const ours = Boolean(row.relay_value) || row.source === "you";
  if (row.status !== "never") {
    if (row.needs || (ours && row.state !== "accepted" && row.source !== "you")) {
      add("Accept", "accept", () => ask({ op: "accept", frame: row.frame, field_id: row.field_id }));
    }
    if (ours) add("Undo", "undo", () => ask({ op: "undo", frame: row.frame, field_id: row.field_id }));
    add("Edit", "edit", () => {
      editing = { key, draft: row.value === "unchecked" ? "" : row.value };
      render();
      /** @type {HTMLElement|null} */ (main.querySelector(`li[data-where="all"][data-key="${CSS.escape(key)}"] .edit input, li[data-where="all"][data-key="${CSS.escape(key)}"] .edit select`))?.focus();
    });
    add("Fill again", "refill", async () => {
      say("Filling this field again…");
      const reply = await ask({ op: "refill", frame: row.frame, field_id: row.field_id });
      if (reply.ok) say("Filled again.");
    });
    if (row.value && row.value !== "unchecked") {
      add("Save this answer", "save", async () => {
        const reply = await ask({ op: "save", frame: row.frame, field_id: row.field_id });
        if (reply.ok) say("Saved: Relay will answer this question the same way next time.");
      });
    }
  }
  return bar;
}

/** @param {ReviewRow} row @param {string} key */
function editor(row, key) {
  const form = el("form", "edit");
  const id = `edit-${key.replace(/[^\w-]/g, "_")}`;
  const labelEl = el("label", "", `New value for ${row.label || "this field"}`);
  labelEl.setAttribute("for", id);
  labelEl.className = "label";
  /** @type {HTMLInputElement|HTMLSelectElement} */
  let input;
  if (row.options.length && row.widget !== "checkbox_group") {
    const select = document.createElement("select");
    select.append(new Option("(choose)", ""));
    for (const text of row.options) select.append(new Option(text, text, false, text === editing?.draft));
    input = select;
  } else {
    const text = document.createElement("input");
    text.type = "text";
    text.value = editing?.draft ?? "";
    input = text;
  }
  input.id = id;
  input.addEventListener("input", () => { if (editing) editing.draft = input.value; });
  input.addEventListener("keydown", (event) => {
    if (/** @type {KeyboardEvent} */ (event).key === "Escape") {
      editing = null;
      render();
    }
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = input.value;
    editing = null;
    say("Setting your value…");
    const reply = await ask({ op: "set", frame: row.frame, field_id: row.field_id, value });
    if (reply.ok) say("Your value is in the form.");
    render();
  });
  const save = el("button", "primary", "Set");
  /** @type {HTMLButtonElement} */ (save).type = "submit";
  const cancel = button("Cancel", () => { editing = null; render(); }, "cancel");
  form.append(labelEl, input, save, cancel);
  return form;
}

/** @param {{kind: string, detail: string, times?: number}[]} rows */
function blockedNotice(rows) {
  const box = el("div", "alert");
  box.setAttribute("role", "alert");
  box.append(el("p", "", "The page tried to submit the form while Relay was filling it; Relay stopped it. Nothing was sent."));
  const ul = el("ul");
  for (const row of rows) {
    const times = Number(row.times ?? 1);
    ul.append(el("li", "", `${row.detail}${times > 1 ? ` (${times} times)` : ""}`));
  }
  box.append(ul);
  return box;
}

/** @param {ReviewRow[]} rows @returns {Map<string, ReviewRow[]>} */
function bySection(rows) {
  /** @type {Map<string, ReviewRow[]>} */
  const groups = new Map();
  for (const row of rows) {
    const section = row.section.trim();
    if (!groups.has(section)) groups.set(section, []);
    groups.get(section)?.push(row);
  }
  return groups;
}

/** The model status without its internal prefix. @param {string} text */
function plainStatus(text) {
  return (text || "no model configured").replace(/^rules-only:\s*/, "");
}

/** @param {number} usd */
function money(usd) {
  return `$${usd.toFixed(usd && usd < 0.01 ? 4 : 2)}`;
}

/** What has focus, so a re-render puts it back. */
function focusedKey() {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !main.contains(active)) return null;
  const li = active.closest("li");
  return { key: li?.dataset.key ?? "", where: li?.dataset.where ?? "", action: active.dataset.action ?? "", tag: active.tagName };
}

/** @param {{key: string, where: string, action: string, tag: string}|null} focus */
function restoreFocus(focus) {
  if (!focus) return;
  const scope = focus.key
    ? main.querySelector(`li[data-where="${focus.where}"][data-key="${CSS.escape(focus.key)}"]`)
    : main;
  const target = scope?.querySelector(focus.action ? `[data-action="${focus.action}"]` : "input, select")
    ?? scope?.querySelector("button");
  /** @type {HTMLElement|null|undefined} */ (target)?.focus();
}

/**
 * @param {string} text @param {() => unknown} onClick @param {string} action @param {string} [cls]
 * @returns {HTMLButtonElement}
 */
function button(text, onClick, action, cls = "") {
  const b = /** @type {HTMLButtonElement} */ (el("button", cls, text));
  b.type = "button";
  b.dataset.action = action;
  b.addEventListener("click", () => void onClick());
  return b;
}

/**
 * @param {string} tag @param {string} [cls] @param {string} [text]
 * @returns {HTMLElement}
 */
function el(tag, cls = "", text = "") {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text) node.textContent = text;
  return node;
}
