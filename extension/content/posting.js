// The job posting's text, read apart from the application form: what the bridge may show a model
// when it drafts an answer, and where it looks for the job's country.
//
// Never the form: no control, no label, legend or option, no widget, nothing a person typed or
// chose, no question text beside a control. Whatever text sits inside a field's own wrapper (the
// box that holds one question) belongs to that question and is left out; so is short text standing
// next to a control (a question written in a plain div). Long blocks of prose stay, even inside a
// <form> (some career sites wrap the whole page in one).

(() => {
"use strict";
const { RELAY_UI_ATTR, cut, walkElements } = relayContent.dom;
const { isMirrorInput } = relayContent["drivers/util"];

// Subtrees that are form parts, widgets or page chrome: their text is never the posting.
const NOT_POSTING = [
  "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object",
  "label", "legend", "fieldset", "button", "select", "option", "optgroup", "datalist", "textarea",
  "input", "output", "meter", "progress", "[contenteditable]:not([contenteditable=false])",
  "[role=listbox]", "[role=option]", "[role=combobox]", "[role=radiogroup]", "[role=radio]",
  "[role=checkbox]", "[role=switch]", "[role=group]", "[role=menu]", "[role=menuitem]",
  "[role=textbox]", "[role=spinbutton]", "[role=slider]", "[role=button]", "[role=search]",
  "[role=navigation]", "[role=contentinfo]", "[aria-haspopup=listbox]", "nav", "[aria-hidden=true]",
  `[${RELAY_UI_ATTR}]`,
].join(",");
// What asks a question of the person: each counts once (radios and checkboxes sharing a name are
// one question; an input inside a combobox is the combobox's).
const QUESTION = [
  "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image])",
  "select", "textarea", "[contenteditable]:not([contenteditable=false])", "[role=combobox]",
  "[role=listbox]", "[role=radiogroup]", "[role=textbox]", "[role=spinbutton]", "[role=slider]",
  "[role=checkbox]", "[role=switch]", "[aria-haspopup=listbox]",
].join(",");
const NESTING = "[role=combobox], [role=listbox], [role=radiogroup], [aria-haspopup=listbox]";
const LABEL_LIKE_CHARS = 160; // text this short beside a control is its question
const WRAPPER_PROSE_CHARS = 400; // text this long inside one field's box is prose, not the field's
const FIELD_BOX_DEPTH = 3; // levels from a control up to the box that still holds only it
const ROOT_MIN_CHARS = 500;
const MAX_DEPTH = 300; // deeper than any real page: a hostile nesting is not read at all

/**
 * The posting's text, at most `max` UTF-16 units, cut on a character boundary.
 * @param {number} [max]
 */
function postingText(max = 20_000) {
  const body = document.body;
  if (!body) return "";
  // A main or article region, when it holds the posting, leaves the site's header and footer out.
  let best = "";
  for (const region of document.querySelectorAll("main, [role=main], article")) {
    const text = textOfRegion(region);
    if (text.length >= ROOT_MIN_CHARS && text.length > best.length) best = text;
  }
  return cut(best || textOfRegion(body), max);
}

/** @param {Element} root */
function textOfRegion(root) {
  const { blocks } = collect(root);
  return blocks.join("\n\n")
    .replace(/[ \t\u00a0]+/g, " ").replace(/\n\s*\n+/g, "\n\n").trim();
}

/**
 * Bottom-up: the posting blocks under `el`, the questions it holds, and how many levels down the
 * nearest one is.
 * @param {Element} el @param {number} [depth]
 * @returns {{blocks: string[], keys: Set<unknown>, dist: number}}
 */
function collect(el, depth = 0) {
  if (el.matches(NOT_POSTING)) {
    const keys = questionKeys(el);
    return { blocks: [], keys, dist: keys.size ? 0 : Infinity };
  }
  if (depth > MAX_DEPTH) return { blocks: [], keys: new Set(["too deep"]), dist: 0 };
  const children = renderedChildren(el).map((child) => collect(child, depth + 1));
  /** @type {Set<unknown>} */
  const keys = new Set();
  let dist = Infinity;
  for (const child of children) {
    for (const k of child.keys) keys.add(k);
    dist = Math.min(dist, child.dist + 1);
  }
  if (!keys.size) {
    // No question inside: one block of text, as the person reads it.
    const text = /** @type {HTMLElement} */ (el).innerText ?? el.textContent ?? "";
    return { blocks: text.trim() ? [text] : [], keys, dist };
  }
  // The box around one question (its label, hint, options, chosen value): a few levels at most.
  const fieldBox = keys.size === 1 && dist <= FIELD_BOX_DEPTH;
  /** @type {string[]} */
  const blocks = [];
  children.forEach((child, i) => {
    if (child.keys.size) {
      blocks.push(...child.blocks);
      return;
    }
    // Beside one control or its own small box: that question's text (not a paragraph before a
    // whole form).
    const nearControl = [children[i - 1], children[i + 1]]
      .some((s) => s && s.keys.size === 1 && s.dist <= 1);
    for (const block of child.blocks) {
      const length = block.trim().length;
      if (fieldBox && length < WRAPPER_PROSE_CHARS) continue;
      if (nearControl && length < LABEL_LIKE_CHARS) continue;
      blocks.push(block);
    }
  });
  return { blocks, keys, dist };
}

/**
 * The element's children as rendered: a shadow host's shadow tree, a slot's assigned elements.
 * @param {Element} el
 */
function renderedChildren(el) {
  if (el.shadowRoot) return [...el.shadowRoot.children];
  if (el instanceof HTMLSlotElement) {
    const assigned = el.assignedElements({ flatten: true });
    if (assigned.length) return assigned;
  }
  return [...el.children];
}

/**
 * The questions inside a subtree that is left out whole (a label around its input, a fieldset),
 * open shadow roots included.
 * @param {Element} el
 */
function questionKeys(el) {
  /** @type {Set<unknown>} */
  const keys = new Set();
  const within = el.shadowRoot ? [...walkElements(el.shadowRoot), ...walkElements(el)] : walkElements(el);
  for (const q of within) {
    if (!q.matches(QUESTION)) continue;
    // An input inside a combobox or listbox is that widget's, not a question of its own.
    const owner = q.parentElement?.closest(NESTING);
    if (owner && (owner === el || el.contains(owner))) continue;
    keys.add(keyOf(q));
  }
  if (el.matches(QUESTION)) keys.add(keyOf(el));
  return keys;
}

/** @param {Element} el */
function keyOf(el) {
  // The input mirroring a choice button (Radix's bubble input) is that button's question.
  if (isMirrorInput(el)) return /** @type {Element} */ (el.previousElementSibling);
  if (el instanceof HTMLInputElement && (el.type === "radio" || el.type === "checkbox") && el.name) {
    return `${el.type}:${el.name}`;
  }
  return el;
}

relayContent.posting = { postingText };
})();
