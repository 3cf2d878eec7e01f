// select2 3.x and 4.x (legacy Greenhouse, many jQuery forms): a hidden native <select> behind a
// stand-in. Options and values come from the native select; choosing goes through select2's own
// menu (mousedown on the choice opens it, mouseup on a result picks), with a fallback that sets
// the native select and dispatches `change`, which select2's jQuery handler re-renders from.
// select2 3.x can also sit on a hidden <input> with results from a query (legacy Greenhouse's
// school), and 4.x on a <select> with no option until the server answers a search (its `ajax`
// lists: Avature's Country): there the answer is typed into select2's search box and picked
// from the results.
(() => {
"use strict";
const { setTextLikeAPerson } = relayContent.typing;
const {
  fire, fold, isLocked, isVisible, keyPress, matchOption, matchSuggestion, norm, outcome, press,
  settle, textOf, waitFor, wantedOf,
} = relayContent["drivers/util"];

/**
 * The element select2 keeps its value in (a native select, or a hidden input for query-driven
 * 3.x), and select2's container, for any element of the widget.
 * @param {Element} el
 * @returns {{select: HTMLSelectElement|null, input: HTMLInputElement|null, container: Element,
 *   v3: boolean}|null}
 */
function partsOf(el) {
  const isModel = (/** @type {Element|null} */ e) => e instanceof HTMLSelectElement
    || (e instanceof HTMLInputElement && e.type === "hidden");
  /** @type {Element|null} */
  let model = isModel(el) ? el : null;
  let container = model ? null : el.closest(".select2-container");
  if (model) {
    const next = model.nextElementSibling;
    const prev = model.previousElementSibling;
    if (next?.matches(".select2-container")) container = next; // 4.x
    else if (model.id) container = model.ownerDocument.getElementById(`s2id_${model.id}`);
    if (!container && prev?.matches(".select2-container")) container = prev; // 3.x
  } else if (container) {
    const prev = container.previousElementSibling;
    const next = container.nextElementSibling;
    if (isModel(prev)) model = prev;
    else if (isModel(next)) model = next;
    else if (container.id.startsWith("s2id_")) {
      const found = container.ownerDocument.getElementById(container.id.slice(5));
      if (isModel(found)) model = found;
    }
  }
  if (!model || !container) return null;
  const v3 = Boolean(container.querySelector(".select2-choice, .select2-choices"));
  if (model instanceof HTMLSelectElement) return { select: model, input: null, container, v3 };
  // Only 3.x runs on a hidden input.
  return v3 ? { select: null, input: /** @type {HTMLInputElement} */ (model), container, v3 } : null;
}

/** The element holding the value. @param {NonNullable<ReturnType<typeof partsOf>>} parts */
const modelOf = (parts) => /** @type {HTMLSelectElement|HTMLInputElement} */ (parts.select ?? parts.input);

/**
 * What the person sees; a placeholder (value "") is no answer.
 * @param {NonNullable<ReturnType<typeof partsOf>>} parts
 */
function shownValue(parts) {
  const model = modelOf(parts);
  const multiple = model instanceof HTMLSelectElement && model.multiple;
  return !multiple && model.value === "" ? "" : shown(parts.container);
}

/** What select2 shows as the choice. @param {Element} container */
function shown(container) {
  const chips = [...container.querySelectorAll(".select2-selection__choice, .select2-search-choice")];
  if (chips.length) {
    return chips.map((c) => norm(textOf(c).replace(/^×/, ""))).join(", ");
  }
  const box = container.querySelector(".select2-selection__rendered, .select2-chosen");
  if (!box || box.querySelector(".select2-selection__placeholder")) return "";
  if (container.matches(".select2-default") || box.closest(".select2-default")) return "";
  return norm(textOf(box).replace(/^×/, ""));
}

/** The visible results list of the open dropdown, if any. @param {Document} doc */
function openResults(doc) {
  const lists = [...doc.querySelectorAll(
    ".select2-container--open .select2-results__options, .select2-drop-active .select2-results")];
  return lists.find(isVisible) ?? null;
}

/** @param {{container: Element, v3: boolean}} parts */
async function openDropdown(parts) {
  const doc = parts.container.ownerDocument;
  if (openResults(doc)) return openResults(doc);
  const opener = parts.container.querySelector(".select2-selection, .select2-choice, .select2-choices")
    ?? parts.container;
  press(opener, ["mousedown", "mouseup", "click"]);
  return waitFor(() => openResults(doc), 800);
}

async function closeDropdown(/** @type {Document} */ doc) {
  const results = openResults(doc);
  if (!results) return;
  const search = doc.querySelector(
    ".select2-container--open .select2-search__field, .select2-drop-active .select2-input");
  const target = search ?? doc.activeElement ?? doc.body;
  keyPress(target, "Escape");
  if (!(await waitFor(() => !openResults(doc), 300))) {
    // Escape did not close it: a click outside does.
    press(doc.body, ["mousedown", "mouseup", "click"]);
    await waitFor(() => !openResults(doc), 300);
  }
}

/** @param {Element} list @param {string} text */
function resultFor(list, text) {
  const items = [...list.querySelectorAll(
    ".select2-results__option, li.select2-result-selectable")].filter(isVisible);
  const options = items.map((li) => ({ value: textOf(li.querySelector(".select2-result-label") ?? li),
    text: textOf(li.querySelector(".select2-result-label") ?? li), el: li }));
  return options.find((o) => o.text === text) ?? options.find((o) => fold(o.text) === fold(text))
    ?? null;
}

/** A native select holding no real option yet (select2 4 `ajax`: filled from the server). */
const awaitsServer = (/** @type {HTMLSelectElement} */ select) => ![...select.options].some((o) => o.value !== "");

/** The open dropdown's search box (3.x drop, or 4.x dropdown attached to the body). @param {Document} doc */
function openSearch(doc) {
  // The open drop keeps its select2-display-none class in 3.5: judge by what is shown.
  const boxes = [...doc.querySelectorAll(
    ".select2-drop-active input.select2-input, .select2-container--open .select2-dropdown .select2-search__field")];
  return /** @type {HTMLInputElement|undefined} */ (boxes.find(isVisible)) ?? null;
}

/**
 * select2 fed by a query (3.x on a hidden input, 4.x `ajax` on an empty select): type into its
 * search box, pick from the results once the server's answer is shown ("Searching…" is none).
 * @param {NonNullable<ReturnType<typeof partsOf>>} parts @param {import("./util.js").Decision} decision
 */
async function applyByQuery(parts, decision) {
  const { container } = parts;
  const model = modelOf(parts);
  const doc = container.ownerDocument;
  if (container.matches(".select2-container-disabled, .select2-container--disabled") || isLocked(model)) {
    return outcome("refused", "select2 is disabled", shownValue(parts));
  }
  const wanted = norm(decision.value) || wantedOf(decision)[0];
  if (!wanted) return outcome("skipped", "no option to choose", shownValue(parts));
  const list = await openDropdown(parts);
  const search = openSearch(doc);
  if (!list || !search) {
    await closeDropdown(doc);
    return outcome("refused", "the select2 search did not open", shownValue(parts));
  }
  setTextLikeAPerson(search, wanted, { blur: false });
  const items = () => [...list.querySelectorAll(
    "li.select2-result-selectable, .select2-results__option[aria-selected], .select2-results__option--selectable")]
    .filter((li) => isVisible(li) && !li.matches(".loading-results, .select2-results__message"))
    .map((li) => ({ value: textOf(li), text: textOf(li.querySelector(".select2-result-label") ?? li), el: li }));
  const hit = await waitFor(() => matchSuggestion(items(), wanted), 2500);
  if (!hit) {
    await closeDropdown(doc);
    return outcome("refused", `no result matches "${wanted}"`, shownValue(parts));
  }
  press(hit.el, ["pointerover", "mouseover", "mousemove", "mousedown", "mouseup"]);
  await waitFor(() => model.value !== "" && fold(shown(container)) === fold(hit.text), 600);
  await closeDropdown(doc);
  await settle();
  const after = shownValue(parts);
  if (fold(after) !== fold(hit.text)) return outcome("refused", `"${hit.text}" did not commit`, after);
  return outcome("applied", `chose "${hit.text}" from the search results`, after);
}

/** @type {import("./util.js").Driver} */
const select2 = {
  name: "select2",
  read(el) {
    const parts = partsOf(el);
    return parts ? shownValue(parts) : "";
  },
  matches(el) {
    if (!(el instanceof HTMLSelectElement) && !(el instanceof HTMLInputElement && el.type === "hidden")
      && !el.closest(".select2-container")) {
      return false;
    }
    return partsOf(el) !== null;
  },
  async describe(el) {
    const parts = /** @type {NonNullable<ReturnType<typeof partsOf>>} */ (partsOf(el));
    const { select } = parts;
    // Query-driven select2 has no options until something is typed.
    const options = select ? [...select.options].map((o) => ({ value: o.value, text: norm(o.text),
      selected: o.selected })) : [];
    return { widget: "combobox", multiple: Boolean(select?.multiple), options, value: shownValue(parts) };
  },
  async apply(el, decision) {
    const parts = partsOf(el);
    if (!parts || !modelOf(parts).isConnected) return outcome("not_found", "select2 is gone");
    if (!parts.select) return applyByQuery(parts, decision);
    const { select, container } = parts;
    if (isLocked(select) || container.matches(".select2-container-disabled, .select2-container--disabled")) {
      return outcome("refused", "select2 is disabled", shown(container));
    }
    if (awaitsServer(select) && !select.multiple) return applyByQuery(parts, decision);
    const wanted = wantedOf(decision);
    if (!wanted.length) return outcome("skipped", "no option to choose", shown(container));
    const options = [...select.options].filter((o) => !o.disabled)
      .map((o) => ({ value: o.value, text: norm(o.text), el: o }));
    const picks = [];
    for (const w of select.multiple ? wanted : wanted.slice(0, 1)) {
      const hit = matchOption(options, w);
      if (!hit) return outcome("refused", `no option matches "${w}"`, shown(container));
      picks.push(hit);
    }
    const doc = select.ownerDocument;
    let via = "menu";
    for (const pick of picks) {
      if (pick.el.selected && (select.multiple || shown(container) === pick.text)) continue;
      const list = await openDropdown(parts);
      const li = list ? resultFor(list, pick.text) : null;
      if (li) {
        // select2 highlights on mouse move and selects on mouseup.
        press(li.el, ["pointerover", "mouseover", "mouseenter", "mousemove", "mousedown", "mouseup"]);
        await waitFor(() => pick.el.selected, 400);
      }
      if (!pick.el.selected) {
        await closeDropdown(doc);
        via = "native select + change";
        if (select.multiple) pick.el.selected = true;
        else select.value = pick.value;
        fire(select, ["change"]);
      }
    }
    await closeDropdown(doc);
    await settle();
    const after = shown(container);
    const missing = picks.filter((p) => !p.el.selected || !fold(after).includes(fold(p.text)));
    if (missing.length) {
      return outcome("refused", `select2 did not show ${missing.map((p) => p.text).join(", ")}`, after);
    }
    return outcome("applied", `chose ${picks.map((p) => JSON.stringify(p.text)).join(", ")} via ${via}`,
      after);
  },
};

relayContent["drivers/select2"] = { select2 };
})();
