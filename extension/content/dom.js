// Small DOM helpers shared by the snapshot, labels, apply and marks: a walk that enters open
// shadow roots, text normalisation, visibility, id lookups across tree scopes.

(() => {
"use strict";
/** Relay's own page UI (marks, panel) carries this attribute and is never snapshotted. */
const RELAY_UI_ATTR = "data-relay-ui";

/** Collapses white space (including no-break spaces). @param {unknown} s */
function norm(s) {
  return String(s ?? "").replace(/[\s\u00a0\u200b]+/g, " ").trim();
}

/** @param {string} s @param {number} max */
function cap(s, max) {
  return s.length > max ? `${cut(s, max - 1)}…` : s;
}

/**
 * The first `max` UTF-16 units of `s`, never ending in half of a surrogate pair (an emoji cut in
 * two leaves a lone surrogate, which the bridge cannot store).
 * @param {string} s @param {number} max
 */
function cut(s, max) {
  if (s.length <= max) return s;
  const last = s.charCodeAt(max - 1);
  return s.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * Replaces lone surrogates (U+FFFD) in every string of a JSON-like value, keys included: a page's
 * own text can hold them, and they would fail the bridge's decoding of the whole snapshot.
 * @template T @param {T} value @returns {T}
 */
function wellFormed(value) {
  if (typeof value === "string") return /** @type {any} */ (value.isWellFormed() ? value : value.toWellFormed());
  if (Array.isArray(value)) return /** @type {any} */ (value.map(wellFormed));
  if (value && typeof value === "object") {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const [k, v] of Object.entries(value)) out[wellFormed(k)] = wellFormed(v);
    return /** @type {any} */ (out);
  }
  return value;
}

/**
 * Every element of `root` in document order, descending into open shadow roots at their host's
 * position (closed roots are out of reach by design). Iframes are not entered: each frame has its
 * own content script.
 * @param {Document|ShadowRoot|Element} root
 * @returns {Generator<Element>}
 */
function* walkElements(root) {
  const doc = root.ownerDocument ?? /** @type {Document} */ (root);
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  let node = walker.nextNode();
  while (node) {
    const el = /** @type {Element} */ (node);
    yield el;
    if (el.shadowRoot) yield* walkElements(el.shadowRoot);
    node = walker.nextNode();
  }
}

/**
 * Every element under `el` in the flat tree and the light tree: shadow roots, slotted elements
 * and their shadow roots too (a radiogroup whose radios are slotted custom elements).
 * @param {Element} el
 * @returns {Element[]}
 */
function deepDescendants(el) {
  /** @type {Set<Element>} */
  const seen = new Set();
  /** @param {Element|ShadowRoot} node */
  const visit = (node) => {
    for (const child of node.children) {
      if (seen.has(child)) continue;
      seen.add(child);
      if (child instanceof HTMLSlotElement) {
        for (const slotted of child.assignedElements({ flatten: true })) {
          if (!seen.has(slotted)) {
            seen.add(slotted);
            visit(slotted);
            if (slotted.shadowRoot) visit(slotted.shadowRoot);
          }
        }
      }
      visit(child);
      if (child.shadowRoot) visit(child.shadowRoot);
    }
  };
  visit(el);
  if (el.shadowRoot) visit(el.shadowRoot);
  return [...seen];
}

/** The parent across shadow boundaries (a shadow root's host). @param {Node} node */
function composedParent(node) {
  if (node.parentElement) return node.parentElement;
  const parent = node.parentNode;
  if (parent instanceof ShadowRoot) return parent.host;
  return null;
}

/** Whether `ancestor` contains `node`, across shadow boundaries. @param {Element} ancestor @param {Node} node */
function containsDeep(ancestor, node) {
  /** @type {Node|null} */
  let cur = node;
  while (cur) {
    if (cur === ancestor) return true;
    cur = composedParent(cur);
  }
  return false;
}

/** The document or shadow root an element lives in. @param {Element} el */
function rootOf(el) {
  const root = el.getRootNode();
  return /** @type {Document|ShadowRoot} */ (
    root instanceof ShadowRoot || root instanceof Document ? root : el.ownerDocument
  );
}

/** Resolves an IDREF in the element's own tree scope first, then the document. */
function byId(/** @type {Element} */ el, /** @type {string} */ id) {
  if (!id) return null;
  const root = rootOf(el);
  return root.getElementById?.(id) ?? el.ownerDocument.getElementById(id);
}

/** Elements named by an IDREF list attribute (aria-labelledby, aria-describedby). */
function byIdList(/** @type {Element} */ el, /** @type {string} */ attr) {
  const ids = (el.getAttribute(attr) ?? "").split(/\s+/).filter(Boolean);
  return /** @type {Element[]} */ (ids.map((id) => byId(el, id)).filter(Boolean));
}

const SKIP_TEXT = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SELECT", "OPTION", "DATALIST", "TEXTAREA"]);

/**
 * The text a person reads inside `el`: no scripts, no option lists, no text typed into controls,
 * no aria-hidden decoration. CSS-hidden text is kept (screen-reader-only hints like "required"
 * matter, and checking styles per node would make big forms slow).
 * @param {Element|null} el
 * @param {{exclude?: Element|null, skip?: (el: Element) => boolean}} [opts]  exclude: a subtree to
 *   leave out (the control inside a label); skip: more subtrees to leave out (widget parts)
 */
function textOf(el, opts = {}) {
  if (!el) return "";
  /** @type {string[]} */
  const parts = [];
  /** @param {Node} node */
  const visit = (node) => {
    if (node === opts.exclude) return;
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push(node.nodeValue ?? "");
      return;
    }
    if (!(node instanceof Element)) return;
    if (SKIP_TEXT.has(node.tagName) || node.getAttribute("aria-hidden") === "true") return;
    if (node instanceof HTMLInputElement) return;
    if (opts.skip && opts.skip(node)) return;
    const block = isBlock(node);
    if (block) parts.push(" ");
    // The flat tree, as rendered: a shadow host shows its shadow root (whose slots pull in the
    // light children), a slot shows what is assigned to it (else its fallback content).
    const assigned = node instanceof HTMLSlotElement ? node.assignedNodes({ flatten: true }) : [];
    const children = node.shadowRoot ? node.shadowRoot.childNodes : assigned.length ? assigned : node.childNodes;
    for (const child of children) visit(child);
    if (block) parts.push(" ");
  };
  visit(el);
  return norm(parts.join(""));
}

/** @param {Element} el */
function isBlock(el) {
  return /^(DIV|P|LI|TD|TH|TR|BR|H[1-6]|LABEL|LEGEND|SECTION|UL|OL|DT|DD)$/.test(el.tagName);
}

/**
 * Whether a person can see the element: rendered, not visibility:hidden, with some size.
 * @param {Element} el
 */
function isVisible(el) {
  if (!el.isConnected) return false;
  const check = /** @type {any} */ (el).checkVisibility;
  if (typeof check === "function") {
    if (!check.call(el, { visibilityProperty: true, checkVisibilityCSS: true })) return false;
  } else {
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") return false;
  }
  const rect = el.getBoundingClientRect();
  return rect.width > 1 && rect.height > 1;
}

/** The bounding box of several elements in viewport coordinates, or null. @param {Element[]} els */
function unionRect(els) {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const el of els) {
    for (const r of el.getClientRects()) {
      if (r.width < 1 && r.height < 1) continue;
      left = Math.min(left, r.left);
      top = Math.min(top, r.top);
      right = Math.max(right, r.right);
      bottom = Math.max(bottom, r.bottom);
    }
  }
  return left === Infinity ? null : { left, top, right, bottom, width: right - left, height: bottom - top };
}

/** The closest common ancestor of elements (same tree scope), or the first's parent. @param {Element[]} els */
function commonAncestor(els) {
  if (!els.length) return null;
  let anc = els[0].parentElement;
  while (anc && !els.every((el) => anc?.contains(el))) anc = anc.parentElement;
  return anc ?? els[0].parentElement;
}

/** Whether a node is an element of the given tag names (upper case). @param {Node|null} n @param {string[]} tags */
function isTag(n, tags) {
  return n instanceof Element && tags.includes(n.tagName);
}

relayContent.dom = {
  RELAY_UI_ATTR, norm, cap, cut, wellFormed, walkElements, deepDescendants, composedParent,
  containsDeep, rootOf, byId, byIdList, textOf, isVisible, unionRect, commonAncestor, isTag,
};
})();
