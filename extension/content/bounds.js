// Every string a snapshot sends is bounded here, in one place, with the bridge's own limits
// (bridge/protocol/bounds.py): a page chooses its names, ids, patterns and option texts, and a
// 1 MB attribute must neither reach the bridge nor make the whole snapshot fail there.

(() => {
"use strict";
const { cut } = relayContent.dom;

const WORD = 200; // names, ids, types, autocomplete tokens, patterns, min/max
const TEXT = 2000; // labels, sections, help text, option texts
const VALUE = 20000; // what a control holds now
const URL_MAX = 4000;

/** @type {Record<string, number>} */
const FIELD_LIMITS = {
  tag: WORD, type: WORD, name: WORD, html_id: WORD, autocomplete: WORD, role: WORD,
  pattern: WORD, min: WORD, max: WORD, form: WORD,
  label: TEXT, placeholder: TEXT, aria_label: TEXT, aria_description: TEXT, section: TEXT,
  nearby: TEXT, locator: TEXT, form_hint: TEXT, form_submit: TEXT, hidden_reason: WORD,
  value: VALUE,
};
const MAX_ATTRS = 64;

/** @param {unknown} s @param {number} max */
function clip(s, max) {
  return typeof s === "string" ? cut(s, max) : s;
}

/**
 * The field with every string cut to its bound (in place; returns it).
 * @template {Record<string, any>} F @param {F} field @returns {F}
 */
function boundField(field) {
  const f = /** @type {Record<string, any>} */ (field);
  for (const [key, max] of Object.entries(FIELD_LIMITS)) f[key] = clip(f[key], max);
  if (Array.isArray(f.options)) {
    for (const o of f.options) {
      o.value = clip(o.value, TEXT);
      o.text = clip(o.text, TEXT);
    }
  }
  if (f.attrs && typeof f.attrs === "object") {
    /** @type {Record<string, string>} */
    const attrs = {};
    for (const [k, v] of Object.entries(f.attrs).slice(0, MAX_ATTRS)) attrs[cut(k, WORD)] = String(clip(v, WORD));
    f.attrs = attrs;
  }
  return field;
}

/** A page's URL or title, bounded. @param {string} url @param {string} title */
function boundPage(url, title) {
  return { url: cut(url, URL_MAX), title: cut(title, TEXT) };
}

relayContent.bounds = { boundField, boundPage };
})();
