// The page-world half of the submit guard (the isolated-world half is content/submit_guard.js).
// submit-guard.js injects `mainWorldGuard` into each frame with chrome.scripting (world MAIN)
// before Relay applies a plan. It swaps HTMLFormElement.prototype's submit and requestSubmit for
// stand-ins that do nothing but report, so page handlers that call them submit nothing and the
// page's own early submit listeners never see an event. It never calls what it replaced.
//
// It puts back exactly what was there (the page's own patch included) when the isolated world
// says `${channel}:release`, at the person's first trusted input, or after `holdMs` on its own.
// The function is serialised into the page: it uses nothing from outside its body.

/**
 * @param {string} channel  the frame's guard channel (content/submit_guard.js)
 * @param {number} holdMs  put everything back after this long, whatever happens
 * @returns {{installed: string[], refused: string[]}}
 */
export function mainWorldGuard(channel, holdMs) {
  const MARK = Symbol.for("relay.submit-guard");
  const proto = HTMLFormElement.prototype;
  const NAMES = ["submit", "requestSubmit"];
  /** @type {Record<string, string>} */
  const KIND = { submit: "form_submit", requestSubmit: "request_submit" };
  const descriptor = (/** @type {string} */ name) => Object.getOwnPropertyDescriptor(proto, name);

  // Installed already (an overlapping apply): only keep it longer.
  for (const name of NAMES) {
    const state = descriptor(name)?.value?.[MARK];
    if (state) {
      state.extend(holdMs);
      return { installed: [...state.names], refused: [] };
    }
  }

  /** @type {Map<string, PropertyDescriptor>} */
  const saved = new Map();
  /** @type {Map<string, Function>} */
  const standIns = new Map();
  /** @type {string[]} */
  const refused = [];
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let timer;
  const state = {
    /** @type {string[]} */
    names: [],
    extend(/** @type {number} */ ms) {
      clearTimeout(timer);
      timer = setTimeout(restore, ms);
    },
  };

  const report = (/** @type {string} */ kind, /** @type {unknown} */ form) => {
    const name = form instanceof HTMLFormElement ? form.getAttribute("name") || form.id || "" : "";
    document.dispatchEvent(new CustomEvent(`${channel}:report`, {
      detail: JSON.stringify({ kind, form: name.slice(0, 80) }),
    }));
  };

  for (const name of NAMES) {
    const before = descriptor(name);
    if (!before || typeof before.value !== "function") continue; // this browser has none
    const standIn = {
      [name]() {
        report(KIND[name], this);
      },
    }[name];
    Object.defineProperty(standIn, MARK, { value: state });
    try {
      Object.defineProperty(proto, name, { ...before, value: standIn });
      saved.set(name, before);
      standIns.set(name, standIn);
      state.names.push(name);
    } catch {
      refused.push(name); // the page froze the prototype: the isolated world still stops it
    }
  }

  function restore() {
    clearTimeout(timer);
    for (const [name, before] of saved) {
      // A page that replaced the stand-in meanwhile keeps its own function.
      if (descriptor(name)?.value === standIns.get(name)) Object.defineProperty(proto, name, before);
    }
    saved.clear();
    document.removeEventListener(`${channel}:release`, restore);
    for (const type of ["pointerdown", "keydown", "click"]) window.removeEventListener(type, onInput, true);
  }

  /** The person's own Submit must work even if the isolated world is gone. @param {Event} event */
  function onInput(event) {
    if (event.isTrusted) restore();
  }

  document.addEventListener(`${channel}:release`, restore);
  for (const type of ["pointerdown", "keydown", "click"]) window.addEventListener(type, onInput, true);
  state.extend(holdMs);
  return { installed: state.names, refused };
}
