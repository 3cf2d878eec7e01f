// Relay's own way to operate the controls no widget driver claims: text-like inputs, textareas,
// contenteditable, native date inputs, native select, radios, checkboxes, ARIA radios/checkboxes,
// and file inputs. Nothing here presses Enter or touches a submit control.

(() => {
"use strict";
const { norm } = relayContent.dom;
const { optionText } = relayContent.labels;
const { currentValue, isChecked, trackedValue } = relayContent.snapshot;
const { leave, setTextLikeAPerson } = relayContent.typing;

/** @typedef {import("./snapshot.js").Entry} Entry */
/** @typedef {{status: string, detail: string, value_after: string}} Outcome */
/**
 * @typedef {{field_id: string, frame?: string, action: string, value?: string, values?: string[],
 *   checked?: boolean|null, file?: {name: string, mime?: string, data_b64?: string}|null,
 *   status: string}} Decision
 */

/** @param {string} status @param {string} detail @param {string} [valueAfter] @returns {Outcome} */
const out = (status, detail, valueAfter = "") => ({ status, detail, value_after: valueAfter });

const TEXT_WIDGETS = new Set(["text", "email", "tel", "url", "number", "textarea", "contenteditable", "combobox", "date_text"]);

/**
 * @param {Entry} entry @param {Decision} decision
 * @returns {Promise<Outcome>}
 */
async function applyFallback(entry, decision) {
  const el = entry.el;
  if (entry.kind === "group") return chooseInGroup(entry, decision);
  if (entry.kind === "option") return setChoice(el, decision.checked ?? true);
  const locked = lockedReason(el);
  if (locked) return out("refused", `the field is ${locked}`, currentValue(el));

  const widget = entry.widget;
  if (widget === "password") return out("refused", "Relay never types into password fields", "");
  if (widget === "checkbox") return setChoice(el, decision.checked ?? decision.action !== "none");
  if (el instanceof HTMLSelectElement) return chooseInSelect(el, decision);
  if (widget === "file") return attachFile(/** @type {HTMLInputElement} */ (el), decision);
  if (widget === "date" && el instanceof HTMLInputElement) {
    const value = dateForInput(el.type, decision.value ?? "");
    if (!value) return out("refused", `"${decision.value}" is not a date this field takes`, el.value);
    return typed(el, value);
  }
  if (TEXT_WIDGETS.has(widget) && (isTextControl(el) || /** @type {HTMLElement} */ (el).isContentEditable)) {
    let value = decision.value ?? "";
    if (!value && decision.values?.length) value = decision.values[0];
    if (decision.action === "set_date" && el instanceof HTMLInputElement) value = dateForText(el, value);
    return typed(el, value);
  }
  return out("refused", `no driver can operate this ${widget} control`, currentValue(el));
}

/** @param {Element} el @param {string} value */
function typed(el, value) {
  const after = setTextLikeAPerson(el, value);
  if (after === value) return out("applied", "typed", after);
  if (norm(after) === norm(value)) return out("applied", "typed (white space normalised by the page)", after);
  if (after && after !== "") return out("applied", `typed; the page shows "${after}"`, after);
  return out("refused", "the page did not keep the value", after);
}

/** @param {Element} el */
function isTextControl(el) {
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement
    && !["checkbox", "radio", "file", "submit", "button", "reset", "image", "hidden"].includes(el.type));
}

/** @param {Element} el */
function lockedReason(el) {
  if (el.matches(":disabled") || el.getAttribute("aria-disabled") === "true") return "disabled";
  if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.readOnly) return "read-only";
  if (el.getAttribute("aria-readonly") === "true") return "read-only";
  return "";
}

// --- choices -----------------------------------------------------------------------------------

/** @param {unknown} s */
function fold(s) {
  return norm(s).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** What the decision asks for, as option values or texts. @param {Decision} d */
function wanted(d) {
  const values = (d.values ?? []).map((v) => norm(v)).filter(Boolean);
  if (values.length) return values;
  return d.value ? [norm(d.value)] : [];
}

/**
 * The one option matching `want`: exact value, exact text, then case/accent-insensitive text. A
 * tier that matches several options is skipped (radios often all have value="on"), and a loose
 * guess is worse than leaving the field, so there is no fuzzy tier.
 * @template {{value: string, text: string}} O @param {O[]} options @param {string} want
 * @returns {O|null}
 */
function pick(options, want) {
  const tiers = [
    (/** @type {O} */ o) => o.value === want,
    (/** @type {O} */ o) => norm(o.text) === want,
    (/** @type {O} */ o) => fold(o.text) === fold(want),
    (/** @type {O} */ o) => fold(o.value) === fold(want),
  ];
  for (const test of tiers) {
    const hits = options.filter(test);
    if (hits.length === 1) return hits[0];
  }
  return null;
}

/**
 * The option for one wanted answer, trying the decision's option value first and then its text
 * (`value`), which still tells options apart when their values do not.
 * @template {{value: string, text: string}} O @param {O[]} options @param {string} want
 * @param {Decision} decision
 */
function pickFor(options, want, decision) {
  return pick(options, want) ?? (decision.value ? pick(options, norm(decision.value)) : null);
}

/** @param {HTMLSelectElement} sel @param {Decision} decision */
function chooseInSelect(sel, decision) {
  const wants = wanted(decision);
  if (!wants.length) return out("skipped", "no option to choose", currentValue(sel));
  const options = [...sel.options].filter((o) => !o.disabled).map((o) => ({ value: o.value, text: o.text, el: o }));
  const picks = [];
  for (const want of sel.multiple ? wants : wants.slice(0, 1)) {
    const hit = sel.multiple ? pick(options, want) : pickFor(options, want, decision);
    if (!hit) return out("refused", `no option matches "${want}"`, currentValue(sel));
    picks.push(hit.el);
  }
  sel.focus({ preventScroll: true });
  if (sel.multiple) for (const o of sel.options) o.selected = picks.includes(o);
  else sel.selectedIndex = picks[0].index;
  sel.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  sel.dispatchEvent(new Event("change", { bubbles: true }));
  leave(sel);
  const ok = picks.every((o) => o.selected);
  return ok ? out("applied", "chose an option", currentValue(sel))
    : out("refused", "the page reset the selection", currentValue(sel));
}

/** @param {Entry} entry @param {Decision} decision */
function chooseInGroup(entry, decision) {
  const wants = wanted(decision);
  const single = entry.widget === "radio_group";
  if (!wants.length) return out("skipped", "no option to choose", trackedValue(entry));
  const options = entry.members.map((m) => ({
    value: m instanceof HTMLInputElement ? m.value : (m.getAttribute("data-value") ?? ""),
    text: optionText(m), el: m,
  }));
  const targets = [];
  for (const want of single ? wants.slice(0, 1) : wants) {
    const hit = single ? pickFor(options, want, decision) : pick(options, want);
    if (!hit) return out("refused", `no choice matches "${want}"`, trackedValue(entry));
    targets.push(hit.el);
  }
  for (const target of targets) {
    if (lockedReason(target)) return out("refused", "the choice is disabled", trackedValue(entry));
    setChoice(target, true);
  }
  const after = trackedValue(entry);
  return targets.every(isChecked) ? out("applied", "chose", after) : out("refused", "the page did not keep the choice", after);
}

/**
 * Checks or unchecks one radio/checkbox (native or ARIA) the way a click does, so frameworks see
 * click, input and change. Falls back to the property when a page swallows the click.
 * @param {Element} el @param {boolean} want
 */
function setChoice(el, want) {
  if (isChecked(el) === want) return out("applied", "already set", isChecked(el) ? "true" : "");
  if (lockedReason(el)) return out("refused", "the choice is disabled", isChecked(el) ? "true" : "");
  if (wouldSubmit(el)) return out("refused", "operating this control would submit the form", "");
  if (el instanceof HTMLInputElement && el.type === "radio" && !want) {
    return out("refused", "a radio cannot be unchecked; choose another option", "true");
  }
  /** @type {HTMLElement} */ (el).click();
  if (isChecked(el) !== want && el instanceof HTMLInputElement) {
    el.checked = want;
    el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }
  const now = isChecked(el);
  return now === want ? out("applied", want ? "checked" : "unchecked", now ? "true" : "")
    : out("refused", "the page did not keep the choice", now ? "true" : "");
}

/**
 * A control whose click submits a form (a <button> defaults to type=submit inside a form).
 * @param {Element} el
 */
function wouldSubmit(el) {
  if (el instanceof HTMLButtonElement) return el.type === "submit" && Boolean(el.form);
  if (el instanceof HTMLInputElement) return (el.type === "submit" || el.type === "image") && Boolean(el.form);
  return false;
}

// --- dates and files ---------------------------------------------------------------------------

/**
 * An ISO date (YYYY-MM-DD, or YYYY-MM) in the form a native input of `type` takes.
 * @param {string} type @param {string} iso
 */
function dateForInput(type, iso) {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?/.exec(norm(iso));
  if (!m) return "";
  const [, y, mo, d = "01"] = m;
  if (type === "month") return `${y}-${mo}`;
  if (type === "datetime-local") return `${y}-${mo}-${d}T00:00`;
  if (type === "date") return `${y}-${mo}-${d}`;
  return "";
}

/**
 * An ISO date written as the text box's placeholder shows (MM/DD/YYYY, DD.MM.YYYY, …); ISO when
 * it gives no hint.
 * @param {HTMLInputElement} el @param {string} iso
 */
function dateForText(el, iso) {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(norm(iso));
  if (!m) return iso;
  const [, y, mo, d] = m;
  const hint = (el.placeholder || el.getAttribute("aria-placeholder") || "").toUpperCase();
  const sep = /[./-]/.exec(hint.replace(/^[^A-Z]*/, "").replace(/[A-Z]+/, ""))?.[0] ?? "/";
  if (!d) {
    if (/^MM.?YYYY/.test(hint)) return `${mo}${sep}${y}`;
    return iso;
  }
  if (/^MM.?DD.?YYYY/.test(hint)) return `${mo}${sep}${d}${sep}${y}`;
  if (/^DD.?MM.?YYYY/.test(hint)) return `${d}${sep}${mo}${sep}${y}`;
  if (/^YYYY.?MM.?DD/.test(hint)) return `${y}${sep}${mo}${sep}${d}`;
  return iso;
}

/** @param {HTMLInputElement} input @param {Decision} decision */
function attachFile(input, decision) {
  const file = decision.file;
  if (!file || !file.data_b64) return out("skipped", "no file in the plan", currentValue(input));
  let bytes;
  try {
    const raw = atob(file.data_b64);
    bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  } catch {
    return out("refused", "the file's data is not valid base64", currentValue(input));
  }
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], file.name, { type: file.mime || "application/octet-stream" }));
  input.files = transfer.files;
  input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
  const after = currentValue(input);
  return after.includes(file.name) ? out("applied", "attached", after) : out("refused", "the page did not keep the file", after);
}

relayContent.fallback = { applyFallback, wouldSubmit };
})();
