// Select boxes whose input is only their search box (rc-select, which Ant Design's Select is):
// the input is empty (or transparent and read-only) while the chosen value shows in a span
// beside it; a press on the box opens a portal dropdown whose rows carry no option role, often
// a virtual list that renders only the rows in view; and the accessible listbox the input names
// holds only the active row and its neighbours. So the value is read from the box, the options
// from the rows (scrolling a virtual list through), and a choice is a click on its row.
(() => {
"use strict";
const { leave, setTextLikeAPerson } = relayContent.typing;
const { isPlaceholder } = relayContent["drivers/popup_list"];
const {
  byId, fold, isLocked, isVisible, keepFocus, keyPress, matchOption, norm, outcome, press, settle, textOf,
  waitFor, wantedOf,
} = relayContent["drivers/util"];

/**
 * The libraries built this way, as data: the select's root, the box a person presses, the chosen
 * value, its dropdown, a row, a row's text, and the scrolling holder of a virtual list.
 * @typedef {{root: string, box: string, chosen: string, multiple: string, dropdown: string,
 *   row: string, rowText: string, disabledRow: string, holder: string}} Kind
 * @type {Kind[]}
 */
const KINDS = [
  { // rc-select, Ant Design's Select (its default class prefixes)
    root: ".ant-select, .rc-select",
    box: ".ant-select-selector, .rc-select-selector",
    chosen: ".ant-select-selection-item, .rc-select-selection-item",
    multiple: ".ant-select-multiple, .rc-select-multiple",
    dropdown: ".ant-select-dropdown, .rc-select-dropdown",
    row: ".ant-select-item-option, .rc-select-item-option",
    rowText: ".ant-select-item-option-content, .rc-select-item-option-content",
    disabledRow: ".ant-select-item-option-disabled, .rc-select-item-option-disabled",
    holder: ".rc-virtual-list-holder",
  },
];

// A virtual list is scrolled through at most this many times to read its rows (a country list
// of about 250 rows at 8 per view takes 32).
const MAX_SCROLLS = 60;

/**
 * @param {Element} el
 * @returns {{input: HTMLInputElement, root: Element, box: Element, kind: Kind}|null}
 */
function partsOf(el) {
  const input = el instanceof HTMLInputElement ? el : el.querySelector("input[role=combobox]");
  if (!(input instanceof HTMLInputElement) || input.getAttribute("role") !== "combobox") return null;
  for (const kind of KINDS) {
    const root = input.closest(kind.root);
    const box = root?.querySelector(kind.box);
    if (root && box && box.contains(input)) return { input, root, box, kind };
  }
  return null;
}

/** What the box shows as chosen; a placeholder is nothing. @param {NonNullable<ReturnType<typeof partsOf>>} p */
function chosen(p) {
  return [...p.box.querySelectorAll(p.kind.chosen)]
    .map((item) => norm(item.getAttribute("title") || textOf(item)))
    .filter((text) => text && !isPlaceholder(text))
    .join(", ");
}

/** The dropdown while it shows. @param {NonNullable<ReturnType<typeof partsOf>>} p */
function dropdownOf(p) {
  for (const ref of [p.input.getAttribute("aria-controls"), p.input.getAttribute("aria-owns")]) {
    const list = byId(p.input, ref);
    const drop = list?.closest(p.kind.dropdown);
    if (drop) return isVisible(drop) ? drop : null;
  }
  // Without a named list: the one dropdown showing (the page shows one at a time).
  const shown = [...p.input.ownerDocument.querySelectorAll(p.kind.dropdown)].filter(isVisible);
  return shown.length === 1 ? shown[0] : null;
}

/**
 * The rows rendered now, in order.
 * @param {Element} drop @param {Kind} kind
 * @returns {{value: string, text: string, el: Element}[]}
 */
function rowsNow(drop, kind) {
  return [...drop.querySelectorAll(kind.row)]
    .filter((row) => !row.matches(kind.disabledRow) && row.getAttribute("aria-disabled") !== "true")
    .map((row) => {
      const text = norm(row.getAttribute("title") || textOf(row.querySelector(kind.rowText) ?? row));
      return { value: text, text, el: row };
    })
    .filter((row) => row.text);
}

/** Scrolls a virtual list to `top` and waits for its rows to change. @param {Element} holder */
async function scrollTo(holder, /** @type {number} */ top, /** @type {() => string} */ sig) {
  const before = sig();
  holder.scrollTop = top;
  holder.dispatchEvent(new Event("scroll"));
  await waitFor(() => sig() !== before, 120, 10);
}

/** What the list shows now, to tell when a scroll has rendered other rows. @param {Element} drop @param {Kind} kind */
const shownRows = (drop, kind) => rowsNow(drop, kind).map((r) => r.text).join("|");

/**
 * Scrolls a virtual list from its top one view at a time, calling `visit` once each view is
 * rendered, until `visit` says it is done or the list ends.
 * @param {Element} holder @param {Element} drop @param {Kind} kind @param {() => boolean} visit
 */
async function throughList(holder, drop, kind, visit) {
  const sig = () => shownRows(drop, kind);
  const step = Math.max(holder.clientHeight - 8, 16);
  await scrollTo(holder, 0, sig);
  for (let n = 0; n < MAX_SCROLLS; n += 1) {
    if (visit()) return;
    if (n === MAX_SCROLLS - 1 || holder.scrollTop + holder.clientHeight >= holder.scrollHeight - 1) return;
    await scrollTo(holder, holder.scrollTop + step, sig);
  }
}

/**
 * Every row's text, scrolling a virtual list from its top to its end; the holder's scroll is
 * put back.
 * @param {Element} drop @param {Kind} kind
 * @returns {Promise<string[]>}
 */
async function allRows(drop, kind) {
  const seen = new Set(rowsNow(drop, kind).map((r) => r.text));
  const holder = drop.querySelector(kind.holder);
  if (!holder || holder.scrollHeight <= holder.clientHeight + 1) return [...seen];
  const start = holder.scrollTop;
  await throughList(holder, drop, kind, () => {
    for (const row of rowsNow(drop, kind)) seen.add(row.text);
    return false;
  });
  await scrollTo(holder, start, () => shownRows(drop, kind));
  return [...seen];
}

/**
 * The rendered row that reads as `text`, scrolling a virtual list through until it shows.
 * @param {Element} drop @param {Kind} kind @param {string} text
 */
async function findRow(drop, kind, text) {
  const now = () => rowsNow(drop, kind).find((r) => fold(r.text) === fold(text)) ?? null;
  let hit = now();
  const holder = drop.querySelector(kind.holder);
  if (hit || !holder) return hit;
  await throughList(holder, drop, kind, () => Boolean(hit = now()));
  if (hit) hit.el.scrollIntoView?.({ block: "nearest" });
  return hit;
}

/**
 * Opens the dropdown with a press on the box, as a person does, and makes sure it stays open: a
 * close left pending by the box's last blur (the snapshot's look at the list) may come just
 * after; then it is pressed once more.
 * @param {NonNullable<ReturnType<typeof partsOf>>} p
 */
async function open(p) {
  for (let tries = 0; tries < 2; tries += 1) {
    if (!dropdownOf(p)) {
      press(p.box, ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]);
      if (!(await waitFor(() => dropdownOf(p), 700))) return null;
    }
    await settle();
    const drop = dropdownOf(p);
    if (drop) return drop;
  }
  return null;
}

/** Closes it with Escape, then by leaving the box. @param {NonNullable<ReturnType<typeof partsOf>>} p */
async function close(p) {
  if (!dropdownOf(p)) return;
  keyPress(p.input, "Escape");
  if (await waitFor(() => !dropdownOf(p), 150)) return;
  leave(p.input);
  await waitFor(() => !dropdownOf(p), 400);
}

/** @type {import("./util.js").Driver} */
const searchSelect = {
  name: "search-select",
  matches: (el) => partsOf(el) !== null,
  read(el) {
    const p = partsOf(el);
    return p ? chosen(p) : "";
  },
  visibleParts(el) {
    const p = partsOf(el);
    return p ? [p.box] : [];
  },
  // The box shows the value; the search input inside it is inset and often transparent.
  outline: (el) => partsOf(el)?.box ?? el,
  async describe(el) {
    const p = /** @type {NonNullable<ReturnType<typeof partsOf>>} */ (partsOf(el));
    const value = chosen(p);
    const multiple = p.root.matches(p.kind.multiple);
    /** @type {string[]} */
    let texts = [];
    // A box nobody can see is not opened.
    if (isVisible(p.box) && isLocked(p.input) !== "disabled") {
      const restore = keepFocus(p.input);
      try {
        const drop = await open(p);
        if (drop) texts = await allRows(drop, p.kind);
      } finally {
        await close(p);
        restore();
      }
    }
    const picked = new Set(value.split(", ").map(fold));
    return {
      widget: "listbox", role: "combobox", multiple, value,
      options: texts.map((text) => ({ value: text, text, selected: picked.has(fold(text)) })),
    };
  },
  async apply(el, decision) {
    const p = partsOf(el);
    if (!p || !p.input.isConnected) return outcome("not_found", "the list is no longer in the page");
    const locked = isLocked(p.input);
    if (locked === "disabled") return outcome("refused", "the list is disabled", chosen(p));
    if (p.root.matches(p.kind.multiple)) {
      return outcome("refused", "this list takes several answers; choose them yourself", chosen(p));
    }
    const wanted = wantedOf(decision);
    if (!wanted.length) return outcome("skipped", "nothing to choose", chosen(p));
    if (wanted.some((w) => fold(w) === fold(chosen(p)))) return outcome("applied", "already chosen", chosen(p));
    if (!isVisible(p.box)) return outcome("refused", "the list is hidden", chosen(p));
    const restore = keepFocus(p.input);
    try {
      const drop = await open(p);
      if (!drop) return outcome("refused", "the list did not open", chosen(p));
      const options = (await allRows(drop, p.kind)).map((text) => ({ value: text, text, selected: false }));
      const hit = wanted.map((w) => matchOption(options, w)).find(Boolean);
      if (!hit) return outcome("refused", `no option matches "${wanted[0]}"`, chosen(p));
      // A box that takes typing narrows its list to the answer first, as a person would.
      if (!locked && !p.input.readOnly) {
        setTextLikeAPerson(p.input, hit.text, { blur: false });
        await waitFor(() => rowsNow(drop, p.kind).some((r) => fold(r.text) === fold(hit.text)), 500);
      }
      const row = await findRow(drop, p.kind, hit.text);
      if (!row) return outcome("refused", `"${hit.text}" could not be found in the list`, chosen(p));
      press(row.el);
      await waitFor(() => fold(chosen(p)) === fold(hit.text), 800);
      await close(p);
      await settle();
      if (fold(chosen(p)) !== fold(hit.text)) {
        return outcome("refused", `"${hit.text}" did not stay chosen`, chosen(p));
      }
      return outcome("applied", `chose "${hit.text}"`, chosen(p));
    } finally {
      // Every way out closes the list: left open, it covers the fields below it.
      await close(p);
      restore();
    }
  },
};

relayContent["drivers/search_select"] = { searchSelect };
})();
