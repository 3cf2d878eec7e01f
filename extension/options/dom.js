// Small helpers the console's pages share: building elements, money and dates in plain words.

/**
 * An element with attributes (`text` sets its text, `on<event>` a listener) and children.
 * @param {string} tag @param {Record<string, any>} [attrs] @param {...(Node|string|null|undefined|false)} children
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false).map((c) => /** @type {Node|string} */ (c)));
  return node;
}

/** US dollars, with cents (and fractions of a cent when that small). @param {number} usd */
export function money(usd) {
  if (usd > 0 && usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** A stored timestamp as the person's local date and time. @param {string|null|undefined} stamp */
export function when(stamp) {
  if (!stamp) return "";
  const date = new Date(stamp);
  if (Number.isNaN(date.getTime())) return stamp;
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** @param {unknown} err */
export const reason = (err) => (err instanceof Error ? err.message : String(err));

/**
 * A line that says what just happened (role=status), replaced each time.
 * @param {HTMLElement} box @param {"ok"|"bad"|""} kind @param {string} text
 */
export function tell(box, kind, text) {
  box.className = { ok: "saved", bad: "saved bad", "": "saved plain" }[kind];
  box.textContent = text;
}

/** A search box with its label; calls back as the person types (debounced). @param {string} id @param {string} label @param {(q: string) => void} onSearch */
export function searchBox(id, label, onSearch) {
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let timer;
  const input = /** @type {HTMLInputElement} */ (el("input", { id, type: "search", autocomplete: "off" }));
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => onSearch(input.value.trim()), 250);
  });
  return { input, field: el("div", { class: "field search" }, el("label", { for: id, text: label }), input) };
}
