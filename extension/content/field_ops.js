// The review's actions on one field of this frame (undo, edit in place, undo all, mark changes),
// and the person's own edits reported live to the side panel. What the snapshot said of each
// field (section, required, options) is kept for the panel's rows and for "save this answer".

(() => {
"use strict";
const { applyDecisions } = relayContent.apply;
const { forgetFilled } = relayContent.edits;
const { clearMarks, setMark } = relayContent.marks;
const { registry, trackedValue } = relayContent.snapshot;
const { canUndo, undo, undoMany, valueBefore } = relayContent.undo;

/** @typedef {import("./snapshot.js").Entry} Entry */
/** @typedef {{section: string, required: boolean, widget: string, options: string[], lang: string}} Facts */

const MAX_OPTIONS = 50;
const EDIT_SETTLE_MS = 250;
const CHOICE_WIDGETS = new Set(["select", "radio_group", "checkbox_group", "combobox", "listbox", "multi_select"]);

/** @type {Map<string, Facts>} */
const facts = new Map();
/** @type {Set<string>} fields whose values never leave the page, not even to the review */
const secret = new Set();
const SECRET_TEXT = "(filled in; not shown)";
/** @type {Map<string, ReturnType<typeof setTimeout>>} */
const pendingEdits = new Map();
let listening = false;

/** Keep what the latest snapshot said of each field. @param {Record<string, any>[]} fields */
function noteFields(fields) {
  const lang = document.documentElement.lang || "";
  for (const f of fields) {
    facts.set(String(f.id), {
      section: String(f.section ?? ""),
      required: Boolean(f.required),
      widget: String(f.widget ?? ""),
      options: (f.options ?? []).slice(0, MAX_OPTIONS).map((/** @type {any} */ o) => String(o.text || o.value || "")),
      lang,
    });
  }
}

/**
 * Fields Relay never fills (passwords, ID numbers, consent) are the person's alone: the review
 * shows that they hold something, never what.
 * @param {string} id
 */
function keepSecret(id) {
  secret.add(id);
}

/** What the review may show of a field's value. @param {Entry} entry */
function shownValue(entry) {
  const value = trackedValue(entry);
  const password = entry.widget === "password" || (entry.el instanceof HTMLInputElement && entry.el.type === "password");
  if (!password && !secret.has(entry.id)) return value;
  return value ? SECRET_TEXT : "";
}

/** @param {string} id @returns {Facts|Record<string, never>} */
function fieldFacts(id) {
  return facts.get(id) ?? {};
}

/** Report the person's edits in this frame to the review, a moment after they stop typing. */
function startLiveEdits() {
  if (listening) return;
  listening = true;
  const onEdit = (/** @type {Event} */ event) => {
    if (!event.isTrusted) return;
    const entry = entryOnPath(event.composedPath());
    if (!entry) return;
    clearTimeout(pendingEdits.get(entry.id));
    pendingEdits.set(entry.id, setTimeout(() => {
      pendingEdits.delete(entry.id);
      chrome.runtime.sendMessage({ relay_bg: "review", op: "edited", field_id: entry.id, value: shownValue(entry) })
        .catch(() => {});
    }, EDIT_SETTLE_MS));
  };
  window.addEventListener("input", onEdit, true);
  window.addEventListener("change", onEdit, true);
}

/** @param {EventTarget[]} path @returns {Entry|null} */
function entryOnPath(path) {
  /** @type {Map<Element, Entry>} */
  const byElement = new Map();
  for (const entry of registry.values()) {
    if (entry.kind === "option") continue;
    byElement.set(entry.el, entry);
    for (const m of entry.members ?? []) byElement.set(m, entry);
  }
  for (const node of path) {
    const hit = node instanceof Element ? byElement.get(node) : undefined;
    if (hit) return hit;
  }
  return null;
}

/**
 * @param {Record<string, any>} message  {op, field_id?, value?, kind?, tip?}
 * @returns {Promise<Record<string, any>>}
 */
async function fieldOp(message) {
  const op = String(message.op ?? "");
  if (op === "hide-marks") {
    clearMarks();
    return { ok: true };
  }
  if (op === "undo-all") {
    const entries = [...registry.values()].filter(canUndo);
    const results = (await undoMany(entries)).map((done, i) => ({ field_id: entries[i].id, ...done }));
    for (const r of results) if (r.ok) setMark(r.field_id, null);
    return { ok: results.every((r) => r.ok), results };
  }
  const id = String(message.field_id ?? "");
  const entry = registry.get(id);
  if (!entry) return { ok: false, detail: "This field is no longer on the page." };
  if (op === "mark") {
    setMark(id, message.kind ?? null, String(message.tip ?? ""));
    return { ok: true };
  }
  if (op === "undo") {
    const done = await undo(entry);
    if (done.ok) setMark(id, null);
    return done;
  }
  if (op === "set") return setValue(entry, String(message.value ?? ""));
  if (op === "before") return { ok: true, value: valueBefore(entry), value_now: trackedValue(entry) };
  return { ok: false, detail: `unknown field action ${op}` };
}

/** Edit in place: the person's value, typed or chosen the way Relay fills. @param {Entry} entry @param {string} value */
async function setValue(entry, value) {
  const widget = entry.widget;
  const choice = entry.kind === "group" || CHOICE_WIDGETS.has(widget);
  /** @type {Record<string, any>} */
  const decision = { field_id: entry.id, status: "fill", source: "person" };
  if (widget === "checkbox" || entry.kind === "option") {
    Object.assign(decision, { action: "check", checked: /^(yes|true|on|1|checked)$/i.test(value.trim()) });
  } else if (choice) {
    Object.assign(decision, { action: "choose", value, values: value ? value.split(/\s*,\s*/) : [] });
  } else {
    Object.assign(decision, { action: "set_text", value });
  }
  forgetFilled(entry.el); // the person asked for this value: apply must not keep an older edit
  const [result] = await applyDecisions(/** @type {any} */ ([decision]));
  const ok = result?.status === "applied";
  if (ok) setMark(entry.id, "edited", "Your value, set from Relay's review.");
  return { ok, value: String(result?.value_after ?? trackedValue(entry)), detail: ok ? "" : String(result?.detail ?? "") };
}

relayContent.field_ops = {
  noteFields, keepSecret, shownValue, fieldFacts, startLiveEdits, fieldOp,
};
})();
