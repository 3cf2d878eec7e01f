// The snapshot: every fillable control of this frame's document (open shadow roots included) as a
// FormField (bridge/forms.py), with a snapshot-local id (f1, f2, …) that this module maps back to
// the element. Ids stay stable for an element across snapshots of the same page, so a plan made
// from an older snapshot still finds its controls, and a re-rendered control reads as not_found.

(() => {
"use strict";
const { boundField, boundPage } = relayContent.bounds;
const drivers = relayContent["drivers/index"];
const { isKeptFromPerson, isMirrorInput, isPlaceholderOption } = relayContent["drivers/util"];
const {
  RELAY_UI_ATTR, cap, commonAncestor, composedParent, deepDescendants, isVisible, norm, textOf, walkElements,
} = relayContent.dom;
const { wasEditedByPerson } = relayContent.edits;
const {
  CONTROL_SELECTOR, describedBy, hostOf, inferGroupLabel, inferLabel, optionText, useWidgetParts,
} = relayContent.labels;
const { childFrames, frameIndex, sightItem } = relayContent.sight;
const { perceive } = relayContent.visibility;

/**
 * @typedef {object} Entry
 * @property {string} id
 * @property {"driver"|"native"|"group"|"option"} kind
 * @property {Element} el          the control (for a group: the closest container of its members)
 * @property {string} widget
 * @property {import("./drivers/util.js").Driver|null} driver
 * @property {Element[]} members   a group's choices (empty otherwise)
 * @property {string} groupId      an option's group ("" otherwise)
 * @property {{key: string, ordinal: number}} [sig]  to find the control again after a re-render
 * @property {string} [hidden]     why the person cannot see it, as of the snapshot ("" or unset: they can)
 */

/** @typedef {Record<string, any>} FormField  see bridge/forms.py FormField */

// What one snapshot reads at most: fields (the bridge takes 5,000 in a plan, all frames together:
// bridge/protocol/bounds.py) and time (the worker waits 15 s for the answer: background/fill.js).
const MAX_FIELDS = 2500;
const BUDGET_MS = 9000;
const MAX_OPTIONS = 1000;
const DESCRIBE_TIMEOUT_MS = 3000;
const HINT_ATTRS = ["data-automation-id", "data-qa", "data-field-path", "data-testid", "data-ui"];
const HEADING = "h1, h2, h3, h4, h5, h6, [role=heading]";
const SECTION_CLASS = "[class*=section-header i], [class*=section-title i]";
const BASE_CANDIDATES = [
  "input", "select", "textarea", "[contenteditable]", "[role=combobox]", "[role=listbox]",
  "[role=textbox]", "[role=radiogroup]", "[role=radio]", "[role=checkbox]", "[role=switch]",
  "[role=spinbutton]", "[aria-haspopup=listbox]",
].join(",");
const NOT_FILLABLE_TYPES = new Set(["hidden", "submit", "button", "reset", "image"]);
const TEXT_BOX = "input:not([type]), input[type=text], input[type=search], input[type=email], input[type=tel], "
  + "input[type=url], input[type=number], textarea";

/** @type {WeakMap<Element, string>} */
const elementIds = new WeakMap();
/** @type {WeakMap<Element, string>} a group's id, keyed by its first member */
const groupIds = new WeakMap();
let counter = 0;

/**
 * Where the latest snapshot spent its time (ms): the walk, the fields, and the slowest describes,
 * so a slow page names its slow widgets; `sight` is checking what the person can see, `text`
 * reading the page's text for the plan.
 * @type {{walk: number, fields: number, sight: number, text: number, slow: {id: string, widget: string, ms: number}[]}}
 */
const lastTimings = { walk: 0, fields: 0, sight: 0, text: 0, slow: [] };

/** id → entry, as of the latest snapshot. @type {Map<string, Entry>} */
const registry = new Map();

/** @param {Element} el @param {WeakMap<Element, string>} [map] */
function idFor(el, map = elementIds) {
  let id = map.get(el);
  if (!id) {
    counter += 1;
    id = `f${counter}`;
    map.set(el, id);
  }
  return id;
}

/** Drivers may widen the candidate set (custom widgets without ARIA roles). */
function candidateSelector() {
  const extra = /** @type {any} */ (drivers).CANDIDATE_SELECTOR;
  return typeof extra === "string" && extra ? `${BASE_CANDIDATES},${extra}` : BASE_CANDIDATES;
}

/**
 * The element a person sees as the control, for marks: a library's visible stand-in next to a
 * hidden control (select2), or the box around a tiny inner input (react-select's 2px input).
 * @param {Element} el
 * @returns {Element}
 */
function visualTarget(el) {
  const big = (/** @type {Element} */ e) => {
    const r = e.getBoundingClientRect();
    return r.width >= 24 && r.height >= 12;
  };
  if (big(el)) return el;
  for (const sib of [el.previousElementSibling, el.nextElementSibling]) {
    if (sib && partOfWidget(sib) && big(sib)) return sib;
  }
  let anc = composedParent(el);
  for (let depth = 0; anc && depth < 4; depth += 1, anc = composedParent(anc)) {
    if (/^(BODY|HTML|FORM|FIELDSET|LABEL)$/.test(anc.tagName)) break;
    if (big(anc)) return anc;
  }
  return el;
}

/**
 * Inner parts of a widget operated through another element (select2's hidden select and search
 * box, …) are no fields of their own; the drivers know which they are.
 * @param {Element} el
 */
function partOfWidget(el) {
  const probe = /** @type {any} */ (drivers).isPartOfWidget;
  if (typeof probe !== "function") return false;
  try {
    return Boolean(probe(el));
  } catch {
    return false;
  }
}

/** @param {Element} el */
function safeFindDriver(el) {
  try {
    return drivers.findDriver(el) ?? null;
  } catch (err) {
    console.warn("Relay: findDriver failed", err);
    return null;
  }
}

/**
 * Snapshot this frame's document. `child_frames` says which of its iframes a person can see (by
 * their index among this window's frames, `frame_index` this frame's own): fields inside a frame
 * nobody sees are not seen either (background/hidden_frames.js). A page larger than the bounds
 * is read in part, in document order: `unread` counts the controls left out, which nothing fills.
 * @param {number} [budgetMs]
 * @returns {Promise<{url: string, title: string, fields: FormField[], frame_index: number,
 *   child_frames: {index: number, visible: boolean, reason: string}[], unread: number}>}
 */
async function snapshot(budgetMs = BUDGET_MS) {
  registry.clear();
  useWidgetParts(partOfWidget);
  const t0 = performance.now();
  const deadline = t0 + budgetMs;
  /** @type {{id: string, widget: string, ms: number}[]} */
  const slow = [];
  const selector = candidateSelector();
  // First pass: the candidates in document order with the heading above each. Collected before any
  // driver's describe() runs, since describing may open and close menus (changing the DOM).
  /** @type {{el: Element, section: string}[]} */
  const found = [];
  let section = "";
  for (const el of walkElements(document)) {
    if (el.hasAttribute(RELAY_UI_ATTR)) continue;
    if (el.matches(HEADING)) {
      const t = textOf(el);
      if (t) section = cap(t, 150);
      continue;
    }
    if (el.matches(SECTION_CLASS) && !el.querySelector(CONTROL_SELECTOR)) {
      // Sites that style a div as the heading: trust it only when it reads like one.
      const t = textOf(el);
      if (t && t.length <= 120) section = t;
    }
    const bold = boldParagraph(el);
    if (bold) section = bold;
    if (el.matches(selector) && isCandidate(el) && !partOfWidget(el)) found.push({ el, section });
  }

  const t1 = performance.now();
  /** @type {WeakSet<Element>} elements owned by a driver or a group already taken */
  const taken = new WeakSet();
  /** @type {FormField[]} */
  const fields = [];
  /** @type {Map<string, number>} how many fields had each signature so far */
  const seen = new Map();
  let unread = 0;
  for (const [at, { el, section: heading }] of found.entries()) {
    if (fields.length >= MAX_FIELDS || performance.now() >= deadline) {
      unread = found.slice(at).filter((f) => !taken.has(f.el)).length;
      break;
    }
    if (taken.has(el) || !el.isConnected) continue;
    const started = performance.now();
    const driver = safeFindDriver(el);
    // Containers the drivers asked to see (CANDIDATE_SELECTOR) are fields only when a driver
    // operates them; unclaimed, they are layout, not controls.
    if (!driver && !el.matches(BASE_CANDIDATES)) continue;
    let field = null;
    if (driver) {
      field = await driverField(el, driver, heading);
      // A group the driver could not read (its choices are slotted custom elements): Relay's own
      // group handling reads and clicks them.
      if (/_group$/.test(String(field.widget)) && !field.options.length) {
        const members = radioChoicesIn(el);
        if (members.length) {
          registry.delete(field.id);
          field = nativeGroupField(members, "radio_group", heading, el);
        }
      }
      for (const inner of deepDescendants(el)) taken.add(inner);
    } else if (el instanceof HTMLInputElement && el.type === "radio") {
      field = nativeGroupField(radioMembers(el), "radio_group", heading);
    } else if (el.matches("input[type=checkbox], [role=checkbox]")) {
      const members = checkboxMembers(el);
      field = members.length > 1
        ? nativeGroupField(members, "checkbox_group", heading)
        : controlField(el, heading);
    } else if (el.getAttribute("role") === "radiogroup") {
      const members = radioChoicesIn(el);
      field = members.length ? nativeGroupField(members, "radio_group", heading, el) : null;
    } else if (el.getAttribute("role") === "radio") {
      // ARIA radios without a radiogroup: the siblings under the same parent answer one question.
      const members = [...(el.parentElement?.querySelectorAll("[role=radio]") ?? [el])];
      field = nativeGroupField(members, "radio_group", heading);
    } else {
      field = controlField(el, heading);
    }
    if (!field) continue;
    const took = performance.now() - started;
    if (took >= 5) slow.push({ id: field.id, widget: `${driver?.name ?? "-"}:${field.label}`.slice(0, 60), ms: Math.round(took) });
    const entry = registry.get(field.id);
    if (entry) {
      for (const m of entry.members) taken.add(m);
      const key = signatureKey(entry.kind === "group" ? entry.members[0] : entry.el, field.label);
      const ordinal = seen.get(key) ?? 0;
      seen.set(key, ordinal + 1);
      entry.sig = { key, ordinal };
    }
    fields.push(boundField(field));
  }
  // What the person can see, checked once the describes are done (they may open menus), in one
  // synchronous pass with the iframes of this document (first: there are few, and they decide
  // for every field inside them). Fields the budget leaves unchecked are left out.
  const t2 = performance.now();
  const frames = childFrames();
  const sights = perceive([
    ...frames.map(({ el }) => ({ targets: [el], own: [el] })),
    ...fields.map((f) => sightItem(/** @type {Entry} */ (registry.get(f.id)))),
  ], deadline);
  const frameSights = frames.map(({ index }, i) => ({
    index, ...(sights[i] ?? { visible: false, reason: "not checked in time" }),
  }));
  const fieldSights = sights.slice(frames.length);
  for (const f of fields.splice(fieldSights.length)) {
    registry.delete(f.id);
    unread += 1;
  }
  fields.forEach((f, i) => {
    f.visible = fieldSights[i].visible;
    f.hidden_reason = fieldSights[i].reason;
    const entry = registry.get(f.id);
    if (entry) entry.hidden = fieldSights[i].reason;
  });
  lastTimings.walk = Math.round(t1 - t0);
  lastTimings.fields = Math.round(t2 - t1);
  lastTimings.sight = Math.round(performance.now() - t2);
  lastTimings.slow = slow.sort((a, b) => b.ms - a.ms).slice(0, 15);
  return {
    ...boundPage(location.href, document.title), fields, frame_index: frameIndex(), child_frames: frameSights, unread,
  };
}

/**
 * What identifies a control across a re-render (a page replacing nodes with equal ones): tag,
 * type, name, id and label, or a choice group's name.
 * @param {Element} el @param {string} label
 */
function signatureKey(el, label) {
  if (el instanceof HTMLInputElement && (el.type === "radio" || el.type === "checkbox") && el.name) {
    return `group:${el.type}:${el.name}`;
  }
  const type = el instanceof HTMLInputElement ? el.type : (el.getAttribute("type") ?? "");
  return `${el.tagName}|${type}|${el.getAttribute("name") ?? ""}|${el.id}|${label}`;
}

/**
 * Find a control again after the page replaced it (React re-mounts, a resume parser re-rendering
 * the form): the same signature at the same position among equals. Updates the entry in place.
 * @param {Entry} entry
 * @returns {boolean} whether it was found
 */
function relocate(entry) {
  const sig = entry.sig;
  if (!sig || entry.kind === "option") return false;
  const [prefix] = sig.key.split("|");
  const head = (/** @type {string} */ key) => key.split("|").slice(0, 4).join("|");
  const wantHead = head(sig.key);
  const selector = candidateSelector();
  let n = 0;
  for (const el of walkElements(document)) {
    if (sig.key.startsWith("group:") ? !(el instanceof HTMLInputElement) : el.tagName !== prefix) continue;
    if (el.hasAttribute(RELAY_UI_ATTR) || !el.matches(selector) || !isCandidate(el) || partOfWidget(el)) continue;
    let key;
    if (sig.key.startsWith("group:")) {
      const input = /** @type {HTMLInputElement} */ (el);
      const members = input.type === "radio" ? radioMembers(input) : checkboxMembers(input);
      if (members[0] !== el) continue; // count each group once, at its first choice
      key = signatureKey(el, "");
      if (key !== sig.key) continue;
      if (n++ !== sig.ordinal) continue;
      entry.members = members;
      entry.el = commonAncestor(members) ?? members[0];
      return true;
    }
    if (head(signatureKey(el, "")) !== wantHead) continue; // cheap checks before the label
    key = signatureKey(el, inferLabel(el).text);
    if (key !== sig.key) continue;
    if (n++ !== sig.ordinal) continue;
    entry.el = el;
    if (entry.kind === "driver") entry.driver = safeFindDriver(el);
    return true;
  }
  return false;
}

/** Which matched elements are really fillable controls. @param {Element} el */
function isCandidate(el) {
  if (el instanceof HTMLInputElement) {
    // A hidden input is no field, unless a widget library keeps its value there (select2 v3 on
    // an AJAX input) and a driver operates it.
    if (el.type === "hidden") return safeFindDriver(el) !== null;
    return !NOT_FILLABLE_TYPES.has(el.type);
  }
  if (el.hasAttribute("contenteditable")) {
    const host = /** @type {HTMLElement} */ (el);
    // Only the editing host: nested editable children are part of the same editor.
    return host.isContentEditable && !(host.parentElement?.isContentEditable ?? false);
  }
  // A custom element with a role whose shadow root holds the real control: the inner control is
  // the field (it has the value, the focus and usually the label).
  if (el.shadowRoot?.querySelector("input:not([type=hidden]), select, textarea")) return false;
  const role = el.getAttribute("role");
  // ARIA 1.1 comboboxes put the role on a wrapper around the text box (Etsy, Reach UI): the text
  // box is the field, with its own label and value.
  if (role === "combobox" && el.querySelector(TEXT_BOX)) return false;
  if (role === "listbox" && !(el instanceof HTMLSelectElement)) {
    // A combobox's popup is part of that combobox, and a closed menu is no field of its own.
    if (el.closest("[role=combobox]") || !isVisible(el)) return false;
    if (el.id && el.getRootNode() instanceof Document
      && document.querySelector(`[aria-controls~="${CSS.escape(el.id)}"], [aria-owns~="${CSS.escape(el.id)}"]`)) {
      return false;
    }
  }
  if ((role === "radio" || role === "checkbox" || role === "switch") && !(el instanceof HTMLInputElement)
    && (wrapsNativeChoice(el) || isDecorativeChoice(el))) {
    return false;
  }
  if ((role === "radio" || role === "checkbox") && el.closest("[role=radiogroup]")) {
    return role === "checkbox"; // radios are taken with their group
  }
  return true;
}

/**
 * An element given a choice role around native choices a person operates (HubSpot's forms put
 * role=checkbox on the list of a question's radios and role=radio on each item around its radio):
 * the role dresses a wrapper, and the native inputs inside are the choices.
 * @param {Element} el
 */
function wrapsNativeChoice(el) {
  if (el instanceof HTMLInputElement) return false;
  return [...el.querySelectorAll("input[type=radio], input[type=checkbox]")].some(
    (n) => !isMirrorInput(n) && !isKeptFromPerson(n) && !(/** @type {HTMLInputElement} */ (n)).hidden);
}

/**
 * A styled icon standing in for a native radio/checkbox (Jobvite's <i role=radio> inside the
 * input's label): decoration, the native input is the field. Either the label it sits in controls
 * a native choice, or it has no name, no text and no focus of its own beside a native choice.
 * @param {Element} el
 */
function isDecorativeChoice(el) {
  const label = el.closest("label");
  const isChoice = (/** @type {unknown} */ n) => n instanceof HTMLInputElement
    && (n.type === "radio" || n.type === "checkbox") && !isMirrorInput(n);
  if (isChoice(label?.control)) return true;
  const box = label ?? el.parentElement;
  if (!box || !isChoice(box.querySelector("input[type=radio], input[type=checkbox]"))) return false;
  return !el.hasAttribute("tabindex") && !textOf(el) && !el.getAttribute("aria-label")
    && !el.getAttribute("aria-labelledby");
}

// --- fields ------------------------------------------------------------------------------------

/**
 * The name of the group a control sits in: a role=group by its aria-labelledby / aria-label, or a
 * fieldset by its legend; "" when none is near.
 * @param {Element} el
 */
function groupNameOf(el) {
  let cur = el.parentElement;
  for (let depth = 0; cur && depth < 5 && cur !== document.body; depth += 1, cur = cur.parentElement) {
    if (!cur.matches("[role=group], fieldset")) {
      // A field's box with its own heading label that names no control ("Currículum" over an
      // "Upload / Paste" choice): only a box around this one upload and no other typed field.
      const heading = depth < 3 ? ownHeadingLabel(cur, el) : "";
      if (heading) return heading;
      continue;
    }
    const ids = (cur.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean);
    const root = /** @type {Document | ShadowRoot} */ (cur.getRootNode());
    const named = ids.map((id) => root.getElementById?.(id)?.textContent ?? "").join(" ")
      || cur.getAttribute("aria-label")
      || [...cur.children].find((c) => c.tagName === "LEGEND")?.textContent
      || "";
    return cap(norm(named), 150);
  }
  return "";
}

/**
 * The text of the first label in `box` that labels no control and comes before `el`, when the
 * box holds `el` as its one file input and no other field a person types or picks in (a text
 * alternative to the upload may be there).
 * @param {Element} box @param {Element} el
 */
function ownHeadingLabel(box, el) {
  if (box.matches("form") || box.querySelectorAll("input[type=file]").length !== 1) return "";
  if (box.querySelector("input:not([type=file]):not([type=hidden]):not([type=checkbox]):not([type=radio]), select")) return "";
  const label = headingLabelBefore(box, el);
  return label ? cap(norm(label.textContent ?? "").replace(/\s*\*$/, ""), 150) : "";
}

/**
 * The first label in `box` that labels no control, says something, and comes before `el`: the
 * heading of the question or field `el` belongs to.
 * @param {Element} box @param {Element} el @returns {HTMLLabelElement|null}
 */
function headingLabelBefore(box, el) {
  return [...box.querySelectorAll("label")].find((l) => !l.control && norm(l.textContent)
    && (l.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) ?? null;
}

/**
 * A paragraph that is all bold and short, with no control in it ("<p><strong>Employment
 * History</strong></p>"): form builders (Jotform's text rows) write their section headings so.
 * A bold lead-in followed by plain text ("<strong>Location:</strong> Oakland") is no heading.
 * @param {Element} el @returns {string}
 */
function boldParagraph(el) {
  if (el.tagName !== "P" || el.children.length !== 1) return "";
  const only = el.children[0];
  if (!only.matches("strong, b") || only.querySelector(CONTROL_SELECTOR)) return "";
  const t = textOf(el);
  return t && t.length <= 80 && t === textOf(only) && !/[:：]$/.test(t) ? t : "";
}

/**
 * The fields common to every control: names, label, state, hints, locator.
 * @param {Element} el @param {string} widget @param {string} section
 * @returns {FormField}
 */
function baseField(el, widget, section) {
  const label = inferLabel(el);
  // A file input's own named group ("Currículo" over an "Enviar arquivo" button) says what it is
  // better than the heading above the whole section ("Documentos").
  if (widget === "file") section = groupNameOf(el) || section;
  const input = /** @type {HTMLInputElement} */ (el);
  const required = Boolean(input.required) || el.getAttribute("aria-required") === "true"
    || label.star || /\(required\)/i.test(label.text);
  const maxLength = typeof input.maxLength === "number" && input.maxLength > 0 ? input.maxLength : null;
  return {
    id: idFor(el),
    frame: "0",
    tag: el.tagName.toLowerCase(),
    type: el instanceof HTMLInputElement ? el.type : (el.getAttribute("type") ?? ""),
    widget,
    name: el.getAttribute("name") ?? "",
    html_id: el.id ?? "",
    autocomplete: el.getAttribute("autocomplete") ?? "",
    label: label.text,
    label_source: label.source,
    placeholder: cap(norm(el.getAttribute("placeholder")), 200),
    aria_label: cap(norm(el.getAttribute("aria-label")), 200),
    aria_description: describedBy(el),
    role: el.getAttribute("role") ?? "",
    section,
    nearby: nearbyText(el, [label.text]),
    options: [],
    multiple: Boolean(/** @type {any} */ (el).multiple) || el.getAttribute("aria-multiselectable") === "true",
    required,
    visible: true, // set with hidden_reason once every field is known (snapshot)
    hidden_reason: "",
    disabled: el.matches(":disabled") || el.getAttribute("aria-disabled") === "true",
    readonly: Boolean(input.readOnly) || el.getAttribute("aria-readonly") === "true",
    value: "",
    max_length: maxLength,
    pattern: el.getAttribute("pattern") ?? "",
    min: el.getAttribute("min") ?? "",
    max: el.getAttribute("max") ?? "",
    attrs: hintAttrs(el),
    locator: locatorOf(el),
    user_edited: false,
    ...formOf(el),
  };
}

/** @type {WeakMap<Element, string>} */
const formKeys = new WeakMap();
let formCount = 0;

/**
 * The field's <form> (or role=search / role=form landmark): an id for the cluster, and what the
 * form says of itself, so the bridge can tell the application from a site search, a log-in or a
 * newsletter box beside it.
 * @param {Element} el @returns {{form: string, form_hint: string, form_submit: string}}
 */
function formOf(el) {
  const host = /** @type {HTMLInputElement} */ (el).form
    ?? el.closest("form, [role=search], [role=form]");
  if (!host) return { form: "", form_hint: "", form_submit: "" };
  let key = formKeys.get(host);
  if (!key) {
    formCount += 1;
    key = host.id || host.getAttribute("name") || `form-${formCount}`;
    formKeys.set(host, key);
  }
  const hint = [host.getAttribute("role"), host.getAttribute("action"), host.id,
    host.getAttribute("name"), host.getAttribute("aria-label"),
    typeof host.className === "string" ? host.className : "",
    host.closest("footer, [role=contentinfo]") ? "footer" : ""].filter(Boolean).join(" ");
  return { form: cap(key, 100), form_hint: cap(norm(hint), 200), form_submit: submitWords(host) };
}

const SUBMIT_CONTROL = "button[type=submit], button:not([type]), input[type=submit], input[type=image]";
/** @type {WeakMap<Element, string>|null} what each form's submit controls say, for one task */
let submitCache = null;

/**
 * What the form's own submit controls say (read, never pressed): a form built by a vendor's
 * script carries the same id and class scheme whatever it is for, and its button ("Subscribe",
 * "Sign in") is then what tells a newsletter or a log-in from the application.
 * @param {Element} host @returns {string}
 */
function submitWords(host) {
  // Read once per form and task: every field of a 2,000-field form asks for its form's words.
  if (!submitCache) {
    submitCache = new WeakMap();
    setTimeout(() => { submitCache = null; }, 0);
  }
  let said = submitCache.get(host);
  if (said === undefined) {
    const words = [...host.querySelectorAll(SUBMIT_CONTROL)].slice(0, 3).map((b) => norm(
      b.getAttribute("aria-label") || textOf(b) || b.getAttribute("value") || b.getAttribute("alt") || ""));
    said = cap(words.filter(Boolean).join(" "), 200);
    submitCache.set(host, said);
  }
  return said;
}

/** A control Relay operates itself (text-like, select, single checkbox, ARIA widgets). */
function controlField(/** @type {Element} */ el, /** @type {string} */ section) {
  const widget = widgetOf(el);
  const field = baseField(el, widget, section);
  field.value = currentValue(el);
  if (el instanceof HTMLSelectElement) {
    field.options = [...el.options].slice(0, MAX_OPTIONS).map((o) => ({
      value: o.value, text: cap(norm(o.text), 300), selected: o.selected,
    }));
  } else if (el instanceof HTMLInputElement && el.list) {
    field.options = [...el.list.querySelectorAll("option")].slice(0, MAX_OPTIONS).map((o) => ({
      value: o.value, text: cap(norm(o.label || o.textContent), 300), selected: false,
    }));
  }
  field.user_edited = wasEditedByPerson(el, field.value);
  registry.set(field.id, { id: field.id, kind: "native", el, widget, driver: null, members: [], groupId: "" });
  return field;
}

/**
 * A control a widget driver operates: the generic fields, then what the driver describes.
 * @param {Element} el @param {import("./drivers/util.js").Driver} driver @param {string} section
 */
async function driverField(el, driver, section) {
  const field = baseField(el, widgetOf(el), section);
  field.value = currentValue(el);
  if (el instanceof HTMLInputElement && el.type === "hidden") {
    // The backing value of a widget (select2 3.x on a hidden input): the person operates the
    // widget, so the field is the widget (its kind comes from describe), not a hidden input.
    field.type = "";
    field.widget = "combobox";
  }
  try {
    const described = await withTimeout(driver.describe(el), DESCRIBE_TIMEOUT_MS);
    for (const [key, value] of Object.entries(described ?? {})) {
      if (key === "id" || key === "frame" || key === "visible" || value === undefined || value === null) continue;
      field[key] = value;
    }
  } catch (err) {
    console.warn(`Relay: ${driver.name}.describe failed`, err);
  }
  if (Array.isArray(field.options)) {
    field.options = field.options.slice(0, MAX_OPTIONS).map((/** @type {any} */ o) => ({
      value: String(o?.value ?? ""), text: cap(norm(o?.text), 300), selected: Boolean(o?.selected),
      ...(o?.field_id ? { field_id: String(o.field_id) } : {}),
    }));
  } else {
    field.options = [];
  }
  field.value = String(field.value ?? "");
  /** @type {Entry} */
  const entry = { id: field.id, kind: "driver", el, widget: String(field.widget), driver, members: [], groupId: "" };
  field.user_edited = wasEditedByPerson(el, trackedValue(entry));
  registry.set(field.id, entry);
  return field;
}

/**
 * Radios sharing a name (or the choices of an ARIA radiogroup, or checkboxes sharing a name): one
 * field whose options each carry their own id.
 * @param {Element[]} members @param {"radio_group"|"checkbox_group"} widget @param {string} section
 * @param {Element} [groupEl]  an explicit group element (role=radiogroup)
 */
function nativeGroupField(members, widget, section, groupEl) {
  const container = groupEl ?? commonAncestor(members) ?? members[0];
  const id = idFor(members[0], groupIds);
  const label = members.length === 1 && widget === "radio_group" && !groupEl
    ? soloLabel(container, members[0])
    : inferGroupLabel(container, members);
  const options = members.slice(0, MAX_OPTIONS).map((m) => {
    const optionId = idFor(m);
    registry.set(optionId, { id: optionId, kind: "option", el: m, widget, driver: null, members: [], groupId: id });
    return { value: choiceValue(m), text: optionText(m), selected: isChecked(m), field_id: optionId };
  });
  const first = /** @type {HTMLInputElement} */ (members[0]);
  const required = members.some((m) => /** @type {HTMLInputElement} */ (m).required
    || m.getAttribute("aria-required") === "true")
    || container.getAttribute("aria-required") === "true" || label.star;
  /** @type {Entry} */
  const entry = { id, kind: "group", el: container, widget, driver: null, members, groupId: "" };
  registry.set(id, entry);
  const value = trackedValue(entry);
  return {
    ...baseField(first, widget, section),
    id,
    tag: first.tagName.toLowerCase(),
    label: label.text,
    label_source: label.source,
    aria_label: cap(norm(container.getAttribute("aria-label") ?? first.getAttribute("aria-label")), 200),
    aria_description: describedBy(container) || describedBy(first),
    role: container.getAttribute("role") ?? first.getAttribute("role") ?? "",
    nearby: nearbyText(container, [label.text, ...options.map((o) => o.text)]),
    options,
    multiple: widget === "checkbox_group",
    required,
    disabled: members.every((m) => m.matches(":disabled") || m.getAttribute("aria-disabled") === "true"),
    value,
    locator: locatorOf(container),
    user_edited: wasEditedByPerson(container, value),
  };
}

/** A lone radio is labelled like a group when it has a group around it, else by its own label. */
function soloLabel(/** @type {Element} */ container, /** @type {Element} */ radio) {
  const group = inferGroupLabel(container, [radio]);
  return group.text ? group : inferLabel(radio);
}

/** @param {HTMLInputElement} radio */
function radioMembers(radio) {
  if (!radio.name) {
    // Unnamed radios (Ant Design's Radio.Group keeps the choice in its own state) answer the
    // question of the box they share, when each reads differently.
    const set = radio.closest("fieldset, [role=radiogroup], [role=group]") ?? questionBox(radio, RADIO);
    const radios = set ? choicesIn(set, RADIO) : [];
    return radios.length > 1 && radios.every((r) => !(/** @type {HTMLInputElement} */ (r)).name)
      && readDifferently(radios) ? radios : [radio];
  }
  const root = radio.getRootNode();
  const scope = root instanceof Document || root instanceof ShadowRoot ? root : document;
  return [...scope.querySelectorAll(`input[type=radio][name="${CSS.escape(radio.name)}"]`)]
    .filter((r) => /** @type {HTMLInputElement} */ (r).form === radio.form);
}

const CHECKBOX = "input[type=checkbox], [role=checkbox]";
const RADIO = "input[type=radio]";

/**
 * The choices in a box (CHECKBOX or RADIO), without the inputs that only mirror a button.
 * @param {Element} box @param {string} selector
 */
function choicesIn(box, selector) {
  return [...box.querySelectorAll(selector)].filter((b) => !isMirrorInput(b) && !wrapsNativeChoice(b));
}

/** The radio choices in a group, native or ARIA, without mirror inputs. @param {Element} group */
function radioChoicesIn(group) {
  return deepDescendants(group).filter((m) => m.matches("input[type=radio], [role=radio]") && !isMirrorInput(m)
    && !wrapsNativeChoice(m));
}

/** A native checkbox or an ARIA one (which has no name to group by). @param {Element} box */
function checkboxMembers(box) {
  const name = box instanceof HTMLInputElement ? box.name : "";
  if (name) {
    const root = box.getRootNode();
    const scope = root instanceof Document || root instanceof ShadowRoot ? root : document;
    const members = [...scope.querySelectorAll(`input[type=checkbox][name="${CSS.escape(name)}"]`)]
      .filter((c) => /** @type {HTMLInputElement} */ (c).form === /** @type {HTMLInputElement} */ (box).form);
    // The choices of one question read differently; boxes that all read the same ("I currently
    // work here" in each repeated work block) are the same question asked again, each its own.
    const texts = new Set(members.map(ownText));
    if (members.length > 1) return texts.size === 1 && !texts.has("") ? [box] : members;
  }
  // Unnamed checkboxes, or each with a name of its own (Gravity Forms names them input_14.1,
  // input_14.2, …), alone in a fieldset answer its legend together (Workday's "Please check one
  // of the boxes below"); alone in a box under a question label, that question (JazzHR's
  // questionnaire keeps the answer in a hidden input beside them; a shadcn form labels a group
  // of Radix checkbox buttons so).
  const set = box.closest("fieldset, [role=group]") ?? questionBox(box, CHECKBOX);
  if (!set) return [box];
  const boxes = choicesIn(set, CHECKBOX);
  // Another control in the box makes it more than one question, unless it is a choice's own
  // write-in box ("Other:" and a text box, in the row of its checkbox).
  const others = [...set.querySelectorAll("input:not([type=checkbox]):not([type=hidden]), select, textarea")]
    .some((c) => !c.parentElement?.querySelector(CHECKBOX));
  const names = boxes.map((b) => (b instanceof HTMLInputElement ? b.name : ""));
  const unnamed = names.every((n) => !n);
  const ownNames = !unnamed && names.every(Boolean) && new Set(names).size === names.length
    && readDifferently(boxes);
  return boxes.length > 1 && !others && (unnamed || ownNames) ? boxes : [box];
}

/**
 * The box around an unnamed checkbox and its sibling boxes (the smallest holding two or more,
 * widened while it holds no others) when it names a question (aria-labelledby, as Google Forms'
 * list of boxes does) or a label of no control (the question) comes first in it, and each box
 * reads differently: choices of one question. Unrelated boxes side by side (terms, newsletter)
 * have no such question over them. The question may sit a few levels up (Ant Design's label
 * column beside the control column), as long as the box holds no other choices.
 * @param {Element} box @param {string} selector  which choices (CHECKBOX or RADIO)
 */
function questionBox(box, selector) {
  let count = 0;
  let cur = box.parentElement;
  for (let depth = 0; cur && depth < 8; depth += 1, cur = cur.parentElement) {
    const boxes = choicesIn(cur, selector);
    if (boxes.length < 2) continue;
    if (count && boxes.length > count) return null;
    count = boxes.length;
    const first = boxes[0];
    const question = cur.hasAttribute("aria-labelledby") || headingLabelBefore(cur, first) !== null;
    if (!question) continue;
    return readDifferently(boxes) ? cur : null;
  }
  return null;
}

/** Whether each choice has its own label text and no two read the same: the choices of one question. @param {Element[]} choices */
function readDifferently(choices) {
  const texts = new Set(choices.map(ownText));
  return texts.size === choices.length && !texts.has("");
}

/** A choice's own label text (its <label>s, else aria-label), for telling choices apart. @param {Element} box */
function ownText(box) {
  /** @type {NodeListOf<HTMLLabelElement>|undefined} */
  const labels = /** @type {any} */ (box).labels;
  const text = [...(labels ?? [])].map((l) => l.textContent ?? "").join(" ") || box.getAttribute("aria-label") || "";
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

// --- reading controls --------------------------------------------------------------------------

/** @param {Element} el @returns {string} */
function widgetOf(el) {
  const role = el.getAttribute("role") ?? "";
  if (el instanceof HTMLInputElement) {
    if (role === "combobox") return "combobox";
    switch (el.type) {
      case "email": case "tel": case "url": case "number": case "password": case "file":
      case "checkbox":
        return el.type;
      case "radio":
        return "radio_group";
      case "date": case "month": case "week": case "datetime-local":
        return "date";
      case "range": case "color":
        return "other";
      default:
        return "text";
    }
  }
  if (el instanceof HTMLTextAreaElement) return "textarea";
  if (el instanceof HTMLSelectElement) return "select";
  if (role === "combobox") return "combobox";
  if (role === "listbox" || el.getAttribute("aria-haspopup") === "listbox") return "listbox";
  if (role === "radiogroup") return "radio_group";
  if (role === "checkbox" || role === "switch") return "checkbox";
  if (role === "spinbutton") return "number";
  if (/** @type {HTMLElement} */ (el).isContentEditable) return "contenteditable";
  if (role === "textbox") return "text";
  return "other";
}

/** What the person sees in the control. @param {Element} el @returns {string} */
function currentValue(el) {
  if (el instanceof HTMLInputElement) {
    if (el.type === "checkbox" || el.type === "radio") return el.checked ? "true" : "";
    if (el.type === "file") return [...(el.files ?? [])].map((f) => f.name).join(", ");
    if (el.type === "password") return el.value ? "••••" : "";
    return el.value;
  }
  if (el instanceof HTMLTextAreaElement) return el.value;
  if (el instanceof HTMLSelectElement) {
    return [...el.selectedOptions].filter((o) => !isPlaceholderOption(o)).map((o) => norm(o.text)).join(", ");
  }
  const role = el.getAttribute("role");
  if (role === "checkbox" || role === "switch") return el.getAttribute("aria-checked") === "true" ? "true" : "";
  if (/** @type {HTMLElement} */ (el).isContentEditable) return cap(norm(/** @type {HTMLElement} */ (el).innerText), 5000);
  if (role === "combobox" || role === "listbox" || el.getAttribute("aria-haspopup") === "listbox") {
    return cap(textOf(el), 300);
  }
  return "";
}

/**
 * The value edit tracking compares: the same reading at fill time and at the next snapshot, whoever
 * (driver or fallback) operated the control.
 * @param {Entry} entry
 */
function trackedValue(entry) {
  if (entry.kind === "group") {
    return entry.members.filter(isChecked).map((m) => optionText(m) || choiceValue(m)).join(", ");
  }
  if (entry.kind === "option") return isChecked(entry.el) ? "true" : "";
  // A widget's driver knows what it shows (a yes/no pair, date sections, a Fabric button), where
  // the element's own value says nothing.
  if (entry.kind === "driver" && entry.driver && typeof entry.driver.read === "function") {
    try {
      return String(entry.driver.read(entry.el) ?? "");
    } catch {
      return currentValue(entry.el);
    }
  }
  return currentValue(entry.el);
}

// An option that only prompts ("Select…", value "" or "-1"): chosen, it is no answer.

/** @param {Element} el */
function isChecked(el) {
  if (el instanceof HTMLInputElement) return el.checked;
  return el.getAttribute("aria-checked") === "true";
}

/** @param {Element} el */
function choiceValue(el) {
  if (el instanceof HTMLInputElement) return el.value;
  return el.getAttribute("data-value") ?? el.getAttribute("value") ?? optionText(el);
}

const MAX_HINT_CHILDREN = 24;

/**
 * Short text around the control that is not its label: hints such as "Format: MM/YYYY".
 * @param {Element} el @param {string[]} known  text already reported (label, option texts)
 */
function nearbyText(el, known) {
  let text = "";
  let anc = composedParent(el);
  for (let depth = 0; anc && depth < 3; depth += 1) {
    if (/^(BODY|HTML|FORM)$/.test(anc.tagName)) break;
    // A box of many children is a list of questions, not one control's: looking through it for
    // each of its controls would take the square of their number (a 2,000-field form).
    if (anc.childElementCount > MAX_HINT_CHILDREN) break;
    if ([...anc.querySelectorAll(CONTROL_SELECTOR)].some((c) => c !== el && !el.contains(c))) break;
    const t = textOf(anc);
    // Long text means the box holds more than this control (controls in shadow roots are not
    // seen by querySelectorAll): stop at the last small box.
    if (t.length > 300) break;
    text = t;
    anc = composedParent(anc);
  }
  for (const k of known) if (k) text = text.split(k).join(" ");
  text = norm(text.replace(/\s*\*\s*/g, " "));
  return cap(text, 200);
}

/** Site hints for ATS adapters. @param {Element} el @returns {Record<string, string>} */
function hintAttrs(el) {
  /** @type {Record<string, string>} */
  const attrs = {};
  for (const name of HINT_ATTRS) {
    const own = el.getAttribute(name);
    if (own) attrs[name] = cap(own, 200);
    // Workday and others put the field's identity on a wrapper, not the input.
    let anc = composedParent(el);
    for (let depth = 0; anc && depth < 6; depth += 1, anc = composedParent(anc)) {
      const v = anc.getAttribute(name);
      if (v) {
        attrs[`parent:${name}`] = cap(v, 200);
        break;
      }
    }
  }
  const host = hostOf(el);
  if (host && host.tagName.includes("-")) attrs.host = host.tagName.toLowerCase();
  const cls = norm(typeof el.className === "string" ? el.className : "");
  if (cls) attrs.class = cap(cls, 120);
  const block = repeatBlock(el);
  if (block) attrs.block = block;
  return attrs;
}

/**
 * Which of several repeated blocks the control is in (work history, education): the nearest
 * ancestor that has siblings of its own shape (tag and class) holding a control of the same name,
 * as "<class>:<index among them>"; "" when the control is in no repeated block.
 * @param {Element} el
 */
function repeatBlock(el) {
  const name = el.getAttribute("name");
  // Blocks name their controls alike (employments[][title]) or number their ids with a small
  // index (title--0); long numbers are question ids (question_8581806008), not blocks.
  const shapeOf = (/** @type {string} */ id) => (/\d{3,}/.test(id) ? "" : id.replace(/\d+/g, "#"));
  // A control drawn inside a web component (SmartRecruiters' spl-checkbox) is known by its host's id.
  const root = el.getRootNode();
  const ownId = el.id || (root instanceof ShadowRoot ? root.host.id : "");
  const idShape = ownId ? shapeOf(ownId) : "";
  if (!name && !idShape.includes("#")) return "";
  // Numbered names (answers[3][text]) are not taken for blocks by their number alone: question
  // lists number theirs too. A name numbered with a small index among longer field numbers
  // (Avature's "182-1-183": set, row, field) is, where the sibling's control of that shape asks
  // the same thing (the same label): a question list's do not.
  const indexShape = (/** @type {string} */ n) => n.replace(/(^|\D)\d{1,2}(?=\D|$)/g, "$1#");
  const nameShape = name ? indexShape(name) : "";
  /** @type {string|null} */
  let ownLabel = null;
  const asksAlike = (/** @type {Element} */ e) => {
    ownLabel ??= inferLabel(el).text;
    return ownLabel !== "" && inferLabel(e).text === ownLabel;
  };
  /** @param {Element} block */
  const holdsOne = (block) => {
    if (!name) return [...block.querySelectorAll("[id]")].some((e) => shapeOf(e.id) === idShape);
    if (block.querySelector(`[name="${CSS.escape(name)}"]`) !== null) return true;
    return nameShape.includes("#") && [...block.querySelectorAll("[name]")]
      .some((e) => indexShape(e.getAttribute("name") ?? "") === nameShape && asksAlike(e));
  };
  // Out of a web component's shadow root to its host: the blocks are in the page around it.
  /** @param {Element} node */
  const up = (node) => {
    if (node.parentElement) return node.parentElement;
    const root = node.getRootNode();
    return root instanceof ShadowRoot ? root.host : null;
  };
  let anc = up(el);
  for (let depth = 0; anc && depth < 8 && !/^(FORM|BODY)$/.test(anc.tagName); depth += 1, anc = up(anc)) {
    const shape = typeof anc.className === "string" ? anc.className.trim() : "";
    const parent = anc.parentElement;
    if (!shape || !parent) continue;
    const blocks = [...parent.children].filter((c) => c.tagName === anc?.tagName && c.className === anc?.className
      && holdsOne(c));
    if (blocks.length > 1) return cap(`${shape}:${blocks.indexOf(anc)}`, 100);
  }
  return "";
}

/**
 * A readable CSS-ish path for reports: "form#apply > div:nth-of-type(2) > input[name=email]",
 * with " >>> " where it enters a shadow root. Never used to find the element again.
 * @param {Element} el
 */
function locatorOf(el) {
  /** @type {string[]} */
  const parts = [];
  /** @type {Element|null} */
  let cur = el;
  for (let depth = 0; cur && depth < 8; depth += 1) {
    parts.unshift(segment(cur));
    const root = cur.getRootNode();
    // An id is unique within its tree scope only: inside a shadow root, go on from the host.
    const parent = cur.id ? null : cur.parentElement;
    if (!parent) {
      if (root instanceof ShadowRoot) {
        parts.unshift(">>>");
        cur = root.host;
        continue;
      }
      break;
    }
    if (parent === document.body || parent === document.documentElement) break;
    parts.unshift(">");
    cur = parent;
  }
  return cap(parts.join(" ").replace(/^> /, ""), 300);
}

/** @param {Element} el */
function segment(el) {
  const tag = el.tagName.toLowerCase();
  if (el.id) return `${tag}#${CSS.escape(el.id)}`;
  const name = el.getAttribute("name");
  if (name) return `${tag}[name="${name}"]`;
  for (const attr of ["data-automation-id", "data-testid", "data-qa"]) {
    const v = el.getAttribute(attr);
    if (v) return `${tag}[${attr}="${v}"]`;
  }
  const parent = el.parentElement;
  if (!parent) return tag;
  const same = [...parent.children].filter((c) => c.tagName === el.tagName);
  return same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(el) + 1})` : tag;
}

/**
 * @template T @param {Promise<T>} promise @param {number} ms @returns {Promise<T>}
 */
function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}

relayContent.snapshot = {
  lastTimings, registry, visualTarget, snapshot, relocate, widgetOf, currentValue, trackedValue,
  isChecked, locatorOf, RELAY_UI_ATTR, isPlaceholderOption,
};
})();
