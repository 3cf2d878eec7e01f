// Writing text into a control so the page's framework notices, as if a person had typed it.
//
// React keeps its own copy of an input's value (a tracker on the element instance) and ignores an
// `input` event when the DOM value equals that copy. Setting the value through the prototype's
// native setter bypasses the tracker, so React sees a change on the following `input` event.
// (A content script's isolated world does not even see the page's instance property, but the
// explicit prototype setter keeps this right from any world.) Angular and Vue listen to `input`
// too; jQuery validation and many ATS pages commit on `change` and `blur`.

(() => {
"use strict";
/**
 * @param {Element} el
 * @returns {((this: Element, v: string) => void)|null}
 */
function nativeValueSetter(el) {
  const view = el.ownerDocument.defaultView ?? window;
  const proto = el instanceof view.HTMLTextAreaElement ? view.HTMLTextAreaElement.prototype
    : el instanceof view.HTMLInputElement ? view.HTMLInputElement.prototype
      : el instanceof view.HTMLSelectElement ? view.HTMLSelectElement.prototype : null;
  const setter = proto && Object.getOwnPropertyDescriptor(proto, "value")?.set;
  return /** @type {any} */ (setter) ?? null;
}

/** @param {Element} el */
function isFocused(el) {
  const root = el.getRootNode();
  const active = root instanceof ShadowRoot || root instanceof Document ? root.activeElement : null;
  return active === el;
}

/**
 * Leaves the control the way a person does: blur and focusout, even when the document has no
 * focus (a background tab, headless), where el.blur() would fire nothing.
 * @param {HTMLElement} el
 */
function leave(el) {
  if (isFocused(el) && el.ownerDocument.hasFocus()) {
    el.blur();
    return;
  }
  el.dispatchEvent(new FocusEvent("blur", { bubbles: false, composed: true }));
  el.dispatchEvent(new FocusEvent("focusout", { bubbles: true, composed: true }));
}

/**
 * Types `text` into an input, textarea or contenteditable element the way frameworks expect:
 * focus, native value setter, bubbling `input` and `change`, then blur/focusout.
 * Returns what the control shows afterwards.
 * @param {Element} el
 * @param {string} text
 * @param {{blur?: boolean}} [opts]  blur: false keeps focus (a combobox waiting for its menu)
 * @returns {string}
 */
function setTextLikeAPerson(el, text, opts = {}) {
  const html = /** @type {HTMLElement} */ (el);
  html.focus({ preventScroll: true });
  if (!isFocused(el)) {
    // No real focus (background tab): frameworks that track focus still want the events.
    html.dispatchEvent(new FocusEvent("focus", { bubbles: false, composed: true }));
    html.dispatchEvent(new FocusEvent("focusin", { bubbles: true, composed: true }));
  }
  if (html.isContentEditable) {
    typeIntoEditable(html, text);
  } else {
    const input = /** @type {HTMLInputElement|HTMLTextAreaElement} */ (el);
    const setter = nativeValueSetter(el);
    if (setter) setter.call(input, text);
    else input.value = text;
    html.dispatchEvent(new InputEvent("input", {
      bubbles: true, composed: true, inputType: "insertText", data: text,
    }));
    html.dispatchEvent(new Event("change", { bubbles: true }));
  }
  if (opts.blur !== false) leave(html);
  // Read back after blur: masks and formatters often rewrite the value on blur.
  return html.isContentEditable ? norm(html.innerText) : String(/** @type {HTMLInputElement} */ (el).value ?? "");
}

/**
 * Rich editors (Quill, ProseMirror, Draft) listen to beforeinput/input from the editing host;
 * execCommand("insertText") produces exactly those. Fallback: replace the text and announce it.
 * @param {HTMLElement} el @param {string} text
 */
function typeIntoEditable(el, text) {
  const doc = el.ownerDocument;
  const selection = doc.getSelection();
  if (selection) {
    const range = doc.createRange();
    range.selectNodeContents(el);
    selection.removeAllRanges();
    selection.addRange(range);
  }
  let done = false;
  try {
    done = doc.execCommand("insertText", false, text);
  } catch {
    done = false;
  }
  if (!done || norm(el.innerText) !== norm(text)) {
    el.textContent = text;
    el.dispatchEvent(new InputEvent("input", {
      bubbles: true, composed: true, inputType: "insertText", data: text,
    }));
  }
}

/** @param {unknown} s */
function norm(s) {
  return String(s ?? "").replace(/[\s\u00a0]+/g, " ").trim();
}

relayContent.typing = { leave, setTextLikeAPerson };
})();
