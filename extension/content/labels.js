// Label inference, in the order browsers' autofill and accessibility code trust the sources:
// label[for], wrapping label, aria-labelledby, aria-label, fieldset legend, table layout (cell to
// the left, then the cell above), preceding text, placeholder, title. The source is recorded
// (forms.py LabelSource) so the rules engine can weigh a placeholder less than a real label.

(() => {
"use strict";
const { byIdList, cap, composedParent, isVisible, norm, textOf, walkElements } = relayContent.dom;

/** @typedef {"label-for"|"label-wrap"|"aria-labelledby"|"aria-label"|"legend"|"table"|"preceding-text"|"placeholder"|"title"|"none"} LabelSource */
/** @typedef {{text: string, source: LabelSource, star: boolean}} Label */

const MAX_LABEL = 300;

/** Controls that end a search for preceding text: their text belongs to them. */
const CONTROL_SELECTOR = [
  "input:not([type=hidden])", "select", "textarea", "button", "[contenteditable]:not([contenteditable=false])",
  "[role=combobox]", "[role=listbox]", "[role=textbox]", "[role=radio]", "[role=checkbox]",
  "[role=switch]", "[role=spinbutton]", "[role=radiogroup]",
].join(",");

const STARS = /[*✱∗＊⁎✳]/;
const STARS_ALL = /\s*[*✱∗＊⁎✳]+\s*/g;

/**
 * Cleans label text and notes a required mark: "Email *" → {text: "Email", star: true}.
 * @param {string} raw @param {LabelSource} source @returns {Label}
 */
function cleanLabel(raw, source) {
  let text = norm(raw);
  // Required marks: the asterisk and its look-alikes (Lever uses ✱).
  const star = STARS.test(text);
  text = text.replace(STARS_ALL, " ").replace(/\s*[:：]\s*$/, "").trim();
  // A question's number ("9.", "12)") is the form's numbering, not its words.
  text = norm(text.replace(/^\d{1,3}[.)]\s*(?=[^\d\s.)])/, ""));
  return text ? { text: cap(text, MAX_LABEL), source, star } : { text: "", source: "none", star: false };
}

const NONE = /** @type {Label} */ ({ text: "", source: "none", star: false });

/** Whether an element is an inner part of a library widget (set by the snapshot from the drivers). */
let isWidgetPart = (/** @type {Element} */ _el) => false;

/** @param {(el: Element) => boolean} probe */
function useWidgetParts(probe) {
  isWidgetPart = probe;
}

/** Label text: the label's words, without the control it wraps or a widget's shown value. */
function labelText(/** @type {Element} */ label, /** @type {Element} */ control) {
  return textOf(label, { exclude: control, skip: isWidgetPart });
}

/**
 * The label of one control.
 * @param {Element} el
 * @returns {Label}
 */
function inferLabel(el) {
  const found = withDateOf(el, structuralLabel(el));
  if (found.text) return found;
  // A control inside a custom element's shadow root is often labelled from outside, on the host.
  let host = hostOf(el);
  while (host) {
    const outer = structuralLabel(host);
    if (outer.text) return outer;
    const attr = host.getAttribute("label");
    if (attr && norm(attr)) return cleanLabel(attr, "aria-label");
    host = hostOf(host);
  }
  const placeholder = el.getAttribute("placeholder") ?? el.getAttribute("aria-placeholder") ?? "";
  if (norm(placeholder)) return cleanLabel(placeholder, "placeholder");
  const title = el.getAttribute("title") ?? "";
  if (norm(title)) return cleanLabel(title, "title");
  return NONE;
}

/**
 * The question a group of radios or checkboxes answers.
 * @param {Element} container  the closest element holding all members
 * @param {Element[]} members
 * @returns {Label}
 */
function inferGroupLabel(container, members) {
  // An ARIA group names itself explicitly; a fieldset through its legend.
  /** @type {Element|null} */
  let cur = container;
  for (let depth = 0; cur && depth < 4; depth += 1, cur = composedParent(cur)) {
    if (cur.matches("[role=radiogroup], [role=group], fieldset")) {
      const named = ariaLabel(cur, members);
      if (named.text) return named;
      if (cur.tagName === "FIELDSET") {
        const legend = legendOf(/** @type {HTMLFieldSetElement} */ (cur));
        if (legend.text) return legend;
      }
    }
  }
  if (container.id) {
    const labelFor = rootLabelFor(container);
    if (labelFor.text) return labelFor;
  }
  // The question written inside the group's box, before its first choice (Taleo, Jobvite).
  if (container !== members[0]) {
    const inside = precedingText(members[0], { within: container, own: members });
    if (inside.text) return inside;
  }
  const table = tableLabel(container);
  if (table.text) return table;
  const before = precedingText(container, { own: members });
  if (before.text) return before;
  // Nothing around the group: the first member's own aria name is better than nothing.
  return NONE;
}

/**
 * The text next to one choice (radio, checkbox, yes/no button): what the option says.
 * @param {Element} el
 */
function optionText(el) {
  const labels = labelsOf(el);
  for (const label of labels) {
    const t = textOf(label, { exclude: el });
    if (t) return cap(t, MAX_LABEL);
  }
  const aria = el.getAttribute("aria-label");
  if (aria && norm(aria)) return cap(norm(aria), MAX_LABEL);
  const by = byIdList(el, "aria-labelledby").map((n) => textOf(n)).join(" ");
  if (norm(by)) return cap(norm(by), MAX_LABEL);
  if (!(el instanceof HTMLInputElement)) {
    const own = textOf(el);
    // A radio dot inside a custom element's shadow root: the host carries the option's text.
    const host = own ? null : hostOf(el);
    return cap(own || (host ? textOf(host) : ""), MAX_LABEL);
  }
  // Bare markup: the text right after the input ("<input type=radio> Yes").
  let node = el.nextSibling;
  while (node && node.nodeType === Node.TEXT_NODE && !norm(node.nodeValue)) node = node.nextSibling;
  if (node && node.nodeType === Node.TEXT_NODE) return cap(norm(node.nodeValue), MAX_LABEL);
  if (node instanceof Element && !node.matches(CONTROL_SELECTOR)) {
    const t = textOf(node);
    if (t) return cap(t, MAX_LABEL);
  }
  return el.value === "on" ? "" : el.value;
}

// --- the sources, each returning NONE when it has nothing -------------------------------------

/** Label sources that come from the page's structure (no placeholder/title). @param {Element} el */
function structuralLabel(el) {
  const labels = labelsOf(el);
  const forLabels = labels.filter((l) => !l.contains(el));
  const wrapping = labels.filter((l) => l.contains(el));
  const parts = partOfQuestion(el, forLabels);
  if (parts.text) return parts;
  for (const label of forLabels) {
    const got = cleanLabel(labelText(label, el), "label-for");
    if (got.text) return got;
  }
  const aria = ariaLabel(el, [el]);
  // A label that only wraps its control as the clickable box (an upload's "Import" button)
  // yields to the author's explicit aria-labelledby, as it does in the accessible name.
  if (wrapping.length && aria.source === "aria-labelledby" && !labelIsValue(el, aria.text)) return aria;
  for (const label of wrapping) {
    const got = cleanLabel(labelText(label, el), "label-wrap");
    if (got.text) return got;
  }
  // A popup button's aria-label often repeats its shown value ("Select One Required"), which is
  // no question: keep looking, and use it only when nothing else names the control.
  const ariaIsValue = aria.text !== "" && labelIsValue(el, aria.text);
  if (aria.text && !ariaIsValue) return aria;
  // Design-system custom elements take their label as an attribute (<spl-input label="…">).
  const attr = el.tagName.includes("-") ? el.getAttribute("label") : null;
  if (attr && norm(attr)) return cleanLabel(attr, "aria-label");
  const fieldset = el.closest("fieldset");
  // The legend names the one control of its fieldset, or a group container holding all of them
  // (a yes/no pair, a checkbox panel): then it asks this question and nothing wider.
  if (fieldset && (controlsIn(fieldset) <= 1 || holdsEveryControl(el, fieldset))) {
    const legend = legendOf(/** @type {HTMLFieldSetElement} */ (fieldset));
    if (legend.text) return legend;
  }
  const table = tableLabel(el);
  if (table.text) return table;
  const before = precedingText(el);
  return before.text || !ariaIsValue ? before : aria;
}

/**
 * One part of a compound question (a name, address, phone or date in several boxes), where the
 * control's aria-labelledby names its own label[for] together with the question's label: the
 * question's label over the first box and each box's sub-label below it ("Phone Number" and
 * "Area Code", "Start Date" and "Day"). Either label alone says half of it; the composed name,
 * as the accessibility tree reads it, says which part of which question.
 * @param {Element} el @param {HTMLLabelElement[]} forLabels @returns {Label}
 */
function partOfQuestion(el, forLabels) {
  if (!forLabels.length) return NONE;
  const refs = byIdList(el, "aria-labelledby").filter((n) => n !== el);
  if (refs.length < 2 || !refs.some((n) => forLabels.includes(/** @type {any} */ (n)))) return NONE;
  return cleanLabel(refs.map((n) => textOf(n)).join(" "), "aria-labelledby");
}

/** Whether an aria-label states the control's current value rather than its question. */
function labelIsValue(/** @type {Element} */ el, /** @type {string} */ text) {
  if (!el.hasAttribute("aria-haspopup") && el.getAttribute("role") !== "combobox") return false;
  const shown = textOf(el).toLowerCase();
  return shown !== "" && text.toLowerCase().startsWith(shown);
}

/** aria-labelledby (minus self-references, which add the value), then aria-label. */
function ariaLabel(/** @type {Element} */ el, /** @type {Element[]} */ skip) {
  const refs = byIdList(el, "aria-labelledby").filter((n) => !skip.includes(n));
  const by = refs.map((n) => textOf(n)).join(" ");
  if (norm(by)) return cleanLabel(by, "aria-labelledby");
  const aria = el.getAttribute("aria-label");
  if (aria && norm(aria)) return cleanLabel(aria, "aria-label");
  return NONE;
}

/** The labels of a control: native `labels`, else label[for=id] in its tree scope, else a wrapper. */
function labelsOf(/** @type {Element} */ el) {
  const native = nativeLabels(el);
  if (native && native.length) return native;
  /** @type {HTMLLabelElement[]} */
  const found = [];
  if (el.id && !native) {
    // Custom widgets (div role=combobox) are not labelable in HTML, yet sites point label[for] at them.
    const root = el.getRootNode();
    if (root instanceof Document || root instanceof ShadowRoot) {
      found.push(...root.querySelectorAll(`label[for="${CSS.escape(el.id)}"]`));
    }
  }
  const wrap = el.parentElement?.closest("label");
  // A wrapping label names its first control; when a library inserted its own parts before ours
  // (select2 puts a focus input ahead of the <select>), the label still means ours.
  const claimed = wrap?.control;
  if (wrap && !found.includes(wrap) && (!native || !claimed || claimed === el || isWidgetPart(claimed))) {
    found.push(/** @type {HTMLLabelElement} */ (wrap));
  }
  return found;
}

/**
 * What `el.labels` holds (null where the element cannot be labelled), without asking it: Chromium
 * walks the whole tree scope for every call, seconds on a 2,000-field form. Labels are found
 * through an index of the scope's label[for], made once per task (nothing changes the page
 * while a snapshot reads it).
 * @param {Element} el @returns {HTMLLabelElement[]|null}
 */
function nativeLabels(el) {
  if (!("labels" in el) || (el instanceof HTMLInputElement && el.type === "hidden")) return null;
  const found = labelsPointingAt(el).filter((l) => l.control === el);
  for (let wrap = el.parentElement?.closest("label"); wrap; wrap = wrap.parentElement?.closest("label")) {
    const label = /** @type {HTMLLabelElement} */ (wrap);
    if (label.control === el && !found.includes(label)) found.push(label);
  }
  return found.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

/** @type {WeakMap<Node, Map<string, HTMLLabelElement[]>>|null} label[for] by id, per tree scope */
let forIndex = null;

/** @param {Element} el @returns {HTMLLabelElement[]} */
function labelsPointingAt(el) {
  const root = el.getRootNode();
  if (!el.id || !(root instanceof Document || root instanceof ShadowRoot)) return [];
  if (!forIndex) {
    forIndex = new WeakMap();
    setTimeout(() => { forIndex = null; }, 0);
  }
  let byId = forIndex.get(root);
  if (!byId) {
    byId = new Map();
    for (const l of root.querySelectorAll("label[for]")) {
      const label = /** @type {HTMLLabelElement} */ (l);
      byId.set(label.htmlFor, [...(byId.get(label.htmlFor) ?? []), label]);
    }
    forIndex.set(root, byId);
  }
  return byId.get(el.id) ?? [];
}

function rootLabelFor(/** @type {Element} */ el) {
  const root = el.getRootNode();
  if (!(root instanceof Document || root instanceof ShadowRoot) || !el.id) return NONE;
  const label = root.querySelector(`label[for="${CSS.escape(el.id)}"]`);
  return label ? cleanLabel(textOf(label), "label-for") : NONE;
}

// A control named only as a part of a date ("Month", "Year"), in every language Relay reads.
const DATE_PART = /^(?:month|year|day|mm|yyyy|yy|dd|monat|jahr|tag|mois|ann[ée]e|jour|mes|a[ñn]o|d[íi]a|m[êe]s|ano|maand|jaar|dag)$/i;
const MAX_DATE_PARTS = 3;

/**
 * A date asked in part boxes under one heading (a fieldset's legend "Start Date" over selects
 * named "Month" and "Year"): the part's own name says which part, the legend which date, so the
 * two are read together ("Start Date Month"), as the accessibility tree names a control in a
 * named group. Only where the group holds nothing but the date's parts.
 * @param {Element} el @param {Label} found @returns {Label}
 */
function withDateOf(el, found) {
  if (!found.text || !DATE_PART.test(found.text)) return found;
  const fieldset = el.closest("fieldset");
  if (!fieldset || controlsIn(fieldset) > MAX_DATE_PARTS) return found;
  const legend = legendOf(/** @type {HTMLFieldSetElement} */ (fieldset));
  if (!legend.text || DATE_PART.test(legend.text)) return found;
  return { text: cap(`${legend.text} ${found.text}`, MAX_LABEL), source: found.source, star: found.star || legend.star };
}

function legendOf(/** @type {HTMLFieldSetElement} */ fieldset) {
  const legend = [...fieldset.children].find((c) => c.tagName === "LEGEND");
  return legend ? cleanLabel(textOf(legend), "legend") : NONE;
}

/** Whether `container` (not a control itself) holds every control of `fieldset`. */
function holdsEveryControl(/** @type {Element} */ container, /** @type {Element} */ fieldset) {
  if (container.matches("input, select, textarea, button")) return false;
  const controls = [...fieldset.querySelectorAll(CONTROL_SELECTOR)];
  return controls.length > 0 && controls.every((c) => container.contains(c));
}

/** Fillable controls inside a container (a radio group counts once per name). @param {Element} el */
function controlsIn(el) {
  const names = new Set();
  let count = 0;
  for (const c of el.querySelectorAll("input:not([type=hidden]):not([type=submit]):not([type=button]), select, textarea")) {
    const input = /** @type {HTMLInputElement} */ (c);
    if ((input.type === "radio" || input.type === "checkbox") && input.name) {
      if (names.has(input.name)) continue;
      names.add(input.name);
    }
    count += 1;
  }
  return count;
}

/**
 * Table layout: the nearest cell to the left with text, else the cell above in the same column.
 * @param {Element} el
 */
function tableLabel(el) {
  const cell = el.parentElement?.closest("td, th");
  if (!(cell instanceof HTMLTableCellElement)) return NONE;
  const row = cell.parentElement;
  if (!(row instanceof HTMLTableRowElement)) return NONE;
  for (let i = cell.cellIndex - 1; i >= 0; i -= 1) {
    const left = row.cells[i];
    if (left.querySelector(CONTROL_SELECTOR)) break;
    const got = cleanLabel(textOf(left), "table");
    if (got.text) return got;
  }
  const table = row.closest("table");
  if (table && row.rowIndex > 0) {
    const above = table.rows[row.rowIndex - 1]?.cells[cell.cellIndex];
    if (above && !above.querySelector(CONTROL_SELECTOR)) {
      const got = cleanLabel(textOf(above), "table");
      if (got.text) return got;
    }
  }
  return NONE;
}

/**
 * The closest text before the control in the page, climbing a few levels: "<div>City</div>
 * <div><input></div>". Stops at another control or a label that belongs to another control, so a
 * neighbour's label is never borrowed.
 * @param {Element} el
 * @param {{within?: Element, own?: Element[]}} [opts]  within: climb no higher than this element's
 *   children; own: controls whose labels are skipped (a group's options)
 */
function precedingText(el, opts = {}) {
  const own = opts.own ?? [el];
  /** @type {Element|null} */
  let node = el;
  for (let depth = 0; node && depth < 5; depth += 1) {
    for (let sib = node.previousSibling; sib; sib = sib.previousSibling) {
      if (sib.nodeType === Node.TEXT_NODE) {
        const t = norm(sib.nodeValue);
        if (t) return cleanLabel(tail(t), "preceding-text");
        continue;
      }
      if (!(sib instanceof Element)) continue;
      if (/^(SCRIPT|STYLE|TEMPLATE|NOSCRIPT)$/.test(sib.tagName)) continue;
      if (sib instanceof HTMLLabelElement && sib.control) {
        if (own.includes(sib.control)) continue; // an option's own label ("Yes" before its radio)
        // A label of a box the person can neither see nor type in (where an upload widget
        // records what it took) heads the widget beside it.
        if (!isRecordBox(sib.control)) return NONE;
      }
      if (hasControl(sib)) return NONE;
      const t = textOf(sib);
      if (t) return labelAbove(sib) ?? cleanLabel(tail(t), "preceding-text");
    }
    const parent = composedParent(node);
    if (!parent || parent === opts.within || /^(BODY|HTML|FORM)$/.test(parent.tagName)) break;
    node = parent;
  }
  return NONE;
}

/** A read-only box hidden from the person, where a widget records its value. @param {Element} el */
function isRecordBox(el) {
  if (!(el instanceof HTMLInputElement) || !el.readOnly) return false;
  // "Visually hidden" boxes keep a few pixels but are clipped to nothing.
  const style = getComputedStyle(el);
  return !isVisible(el) || /^rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)$/.test(style.clip)
    || style.clipPath === "inset(50%)";
}

/**
 * A label of no control earlier in the same row of siblings, with no control between: the
 * field's own heading label, and the text found after it only a help text (HubSpot writes the
 * label, then its legend.hs-field-desc, then the box of the choices).
 * @param {Element} sib  the element whose text was found first @returns {Label|null}
 */
function labelAbove(sib) {
  for (let prev = sib.previousElementSibling; prev; prev = prev.previousElementSibling) {
    if (prev instanceof HTMLLabelElement && !prev.control) {
      const got = cleanLabel(textOf(prev), "preceding-text");
      return got.text ? got : null;
    }
    if (prev instanceof HTMLLabelElement || hasControl(prev)) return null;
  }
  return null;
}

/**
 * Whether an element is or holds a control, looking into open shadow roots (design-system
 * components keep their inputs there). Big subtrees count as holding one: they are no label.
 * @param {Element} el
 */
function hasControl(el) {
  if (el.matches(CONTROL_SELECTOR) || el.querySelector(CONTROL_SELECTOR)) return true;
  let seen = 0;
  for (const node of walkElements(el)) {
    if (++seen > 1000) return true;
    if (node.shadowRoot?.querySelector(CONTROL_SELECTOR)) return true;
  }
  return false;
}

/** The end of a long text: the words right before a control are the ones about it. @param {string} t */
function tail(t) {
  if (t.length <= 200) return t;
  const cut = t.slice(-200);
  const sentence = cut.search(/[.!?]\s+\S/);
  return sentence >= 0 ? cut.slice(sentence + 1).trim() : cut;
}

/** The shadow host of the tree scope an element lives in, or null. @param {Element} el */
function hostOf(el) {
  const root = el.getRootNode();
  return root instanceof ShadowRoot ? root.host : null;
}

/** Help text from aria-describedby. @param {Element} el */
function describedBy(el) {
  return cap(norm(byIdList(el, "aria-describedby").map((n) => textOf(n)).join(" ")), MAX_LABEL);
}

relayContent.labels = {
  CONTROL_SELECTOR, cleanLabel, useWidgetParts, inferLabel, inferGroupLabel, optionText, labelsOf,
  precedingText, hostOf, describedBy,
};
})();
