// Undo: what each control held before Relay first touched it, and putting exactly that back.
// Values go back through the prototypes' setters and bubbling events, as apply does, so pages
// built on React (whose inputs keep their own copy of the value) see the change too.

(() => {
"use strict";
const { nextTask } = relayContent["drivers/util"];
const { asRelay, forgetFilled } = relayContent.edits;
const { trackedValue } = relayContent.snapshot;

/** @typedef {import("./snapshot.js").Entry} Entry */
/**
 * @typedef {{el: Element, value?: string, checked?: boolean, selected?: boolean[],
 *   files?: FileList|null, html?: string, aria?: string|null}} ControlState
 * @typedef {{controls: ControlState[], shown: string}} Before
 */

/** @type {WeakMap<Element, Before>} keyed by the entry's tracked element */
const before = new WeakMap();

const CONTROLS = "input, select, textarea";
// Widgets whose choice lives in the page's script, not in a native control: undo goes through
// their driver, as a person would (take the chips away, choose the prior option).
const BY_DRIVER = new Set(["react-select", "popup-select", "workday-listbox"]);

/** Remember the entry's state, the first time Relay is about to change it. @param {Entry} entry */
function rememberBefore(entry) {
  if (before.has(entry.el)) return;
  before.set(entry.el, { controls: controlsOf(entry).map(capture), shown: trackedValue(entry) });
}

/** Whether Relay changed this entry and can put it back. @param {Entry} entry */
function canUndo(entry) {
  return before.has(entry.el);
}

/** What the field showed before Relay ("" when Relay never touched it). @param {Entry} entry */
function valueBefore(entry) {
  return before.get(entry.el)?.shown ?? "";
}

/**
 * Put back what the field held before Relay. Returns whether the field now shows it.
 * @param {Entry} entry
 * @returns {Promise<{ok: boolean, value: string, detail: string}>}
 */
async function undo(entry) {
  const [done] = await undoMany([entry]);
  return done;
}

/**
 * Put back several fields, then check each once the page has re-rendered: a page that keeps its
 * own state (React) may put a value back that no event of the page's own can take away (a radio
 * group where nothing was chosen).
 * @param {Entry[]} entries
 * @returns {Promise<{ok: boolean, value: string, detail: string}[]>}
 */
async function undoMany(entries) {
  const work = entries.map((entry) => ({ entry, saved: before.get(entry.el) }));
  /** @type {Map<Element, string>} why a widget's driver could not empty it, in its words */
  const refusals = new Map();
  for (const { entry, saved } of work) {
    if (!saved) continue;
    await asRelay([entry.el, ...entry.members, ...saved.controls.map((c) => c.el)], async () => {
      if (entry.driver && BY_DRIVER.has(entry.driver.name)) {
        const why = await throughDriver(entry, saved.shown);
        if (why) refusals.set(entry.el, why);
      } else for (const state of saved.controls) restore(state);
      await nextTask(); // the page's re-render, inside the window where its events are Relay's
    });
  }
  await nextTask();
  return work.map(({ entry, saved }) => {
    const value = trackedValue(entry);
    if (!saved) return { ok: true, value, detail: "Relay had not changed this field." };
    if (value !== saved.shown) {
      const detail = entry.widget === "radio_group" && !saved.shown
        ? "Nothing was chosen here before Relay, and this page keeps its own record of the choice, which it would not let Relay take back. Choose the answer you want, or reload the page to start again."
        : refusals.get(entry.el) ?? "The page would not let Relay put this back as it was; please change it yourself.";
      return { ok: false, value, detail };
    }
    before.delete(entry.el);
    forgetFilled(entry.el);
    return { ok: true, value, detail: "" };
  });
}

/**
 * Puts a script-held widget back through its driver: its choice taken away (the list's empty
 * row, a pill's ×, the clear button), then the prior one chosen again (Relay fills empty fields,
 * so there is rarely one). The check after the undo reports a widget that would not let go.
 * @param {Entry} entry @param {string} shown what it showed before Relay
 * @returns {Promise<string>} why the driver could not empty it ("" when it could, or need not)
 */
async function throughDriver(entry, shown) {
  const driver = /** @type {import("./drivers/util.js").Driver} */ (entry.driver);
  let why = "";
  try {
    if (driver.read(entry.el) === shown) return "";
    if (driver.clear) {
      const cleared = await driver.clear(entry.el);
      if (cleared.status !== "applied") why = cleared.detail;
    }
    if (shown && driver.read(entry.el) !== shown) {
      await driver.apply(entry.el, { action: "choose", value: shown });
    }
  } catch {
    // A widget that throws is reported by the check after the undo, like one that will not let go.
  }
  return why;
}

/** @param {Entry} entry @returns {Element[]} */
function controlsOf(entry) {
  if (entry.kind === "group") return [...entry.members];
  const el = entry.el;
  if (el.matches(CONTROLS) || /** @type {HTMLElement} */ (el).isContentEditable) return [el];
  // A widget: the native controls inside it, and its own ARIA state.
  return [el, ...el.querySelectorAll(CONTROLS)];
}

/** @param {Element} el @returns {ControlState} */
function capture(el) {
  if (el instanceof HTMLInputElement) {
    if (el.type === "checkbox" || el.type === "radio") return { el, checked: el.checked };
    if (el.type === "file") return { el, files: el.files };
    return { el, value: el.value };
  }
  if (el instanceof HTMLTextAreaElement) return { el, value: el.value };
  if (el instanceof HTMLSelectElement) return { el, selected: [...el.options].map((o) => o.selected) };
  if (/** @type {HTMLElement} */ (el).isContentEditable) return { el, html: el.innerHTML };
  return { el, aria: el.getAttribute("aria-checked") };
}

/** @param {ControlState} state */
function restore(state) {
  const { el } = state;
  if (el instanceof HTMLInputElement && state.checked !== undefined) {
    if (el.checked === state.checked) return;
    // A click is what React (and most pages) listen to on a checkbox or radio.
    if (el.type === "checkbox" || state.checked) el.click();
    else untick(el);
    return;
  }
  if (el instanceof HTMLInputElement && state.files !== undefined) {
    if (state.files) el.files = state.files;
    else el.value = "";
    fire(el, "input", "change");
    return;
  }
  if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && state.value !== undefined) {
    if (el.value === state.value) return;
    const proto = el instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
    setProp(proto, el, "value", state.value);
    fire(el, "input", "change");
    return;
  }
  if (el instanceof HTMLSelectElement && state.selected) {
    const now = [...el.options].map((o) => o.selected);
    if (now.every((s, i) => s === state.selected?.[i])) return;
    state.selected.forEach((s, i) => { if (el.options[i]) el.options[i].selected = s; });
    fire(el, "input", "change");
    return;
  }
  if (state.html !== undefined) {
    if (el.innerHTML === state.html) return;
    el.innerHTML = state.html;
    fire(el, "input");
    return;
  }
  // Never a button: one inside a form may submit it.
  if (state.aria !== undefined && el.getAttribute("aria-checked") !== state.aria && !(el instanceof HTMLButtonElement)) {
    /** @type {HTMLElement} */ (el).click();
  }
}

/**
 * Takes a radio's tick away, where nothing was chosen before Relay, so that a page keeping its
 * own state hears it too. No click of a person's can do this, so no real click is used: the tick
 * goes through the native setter (a page's copy, such as React's value tracker, which watches the
 * page's own setter, still says ticked), then a plain "click" Event, which has no default action
 * (only a MouseEvent ticks a radio), reaches the page's listeners. React compares its copy with
 * the control, sees the change and calls the page's handler, which reads the control's value:
 * for that one dispatch the value is "" (no answer). A page whose handler keeps the choice
 * whatever it reads is caught by the check after the undo.
 * @param {HTMLInputElement} el
 */
function untick(el) {
  const value = el.getAttribute("value");
  setProp(HTMLInputElement.prototype, el, "checked", false);
  el.setAttribute("value", "");
  try {
    el.dispatchEvent(new Event("click", { bubbles: true, composed: true }));
    fire(el, "input", "change");
  } finally {
    if (value === null) el.removeAttribute("value");
    else el.setAttribute("value", value);
  }
}

/** @param {object} proto @param {Element} el @param {string} prop @param {unknown} value */
function setProp(proto, el, prop, value) {
  const setter = Object.getOwnPropertyDescriptor(proto, prop)?.set;
  if (setter) setter.call(el, value);
}

/** @param {Element} el @param {...string} types */
function fire(el, ...types) {
  for (const type of types) el.dispatchEvent(new Event(type, { bubbles: true }));
}

relayContent.undo = { rememberBefore, canUndo, valueBefore, undo, undoMany };
})();
