// "Fill new fields as they appear": after the person pressed Fill on a page, the content script
// reports fields that showed up later (the next step of a wizard, a section that opened); when the
// person turned the setting on, the tab is filled again. Values already there — the page's, the
// person's, Relay's own — are kept by the plan; nothing is ever submitted.
//
// A page decides when fields appear, so it could make Relay fill again and again: reports that
// come while a step settles make one fill, automatic fills of a tab are AUTO_GAP_MS apart at
// least, at most AUTO_MAX follow one press of Fill, and only on the sites the person has pressed
// Fill on (`relay.sites`, inject.js).

import { readSettings } from "../shared/settings.js";
import { siteAllowed } from "./inject.js";

const SETTLE_MS = 600; // wait for a step's fields to finish rendering before filling
const AUTO_GAP_MS = 3_000;
const AUTO_MAX = 10;
const FILLED_TABS_KEY = "relayFilledTabs";

/**
 * @param {(tabId: number, options?: Record<string, unknown>) => Promise<any>} relayFill
 */
export function createAutofill(relayFill) {
  // Read at each use: tests shorten them to see the bounds at work in seconds.
  const limits = { settleMs: SETTLE_MS, gapMs: AUTO_GAP_MS, max: AUTO_MAX };
  /** @type {Map<number, ReturnType<typeof setTimeout>>} */
  const timers = new Map();
  /** @type {Map<number, {count: number, last: number}>} automatic fills since the person's Fill */
  const autos = new Map();

  /** Remember that the person filled this tab (session storage: survives a worker restart). */
  async function noteFilled(/** @type {number} */ tabId, automatic = false) {
    if (!automatic) autos.delete(tabId);
    const stored = await chrome.storage.session.get(FILLED_TABS_KEY);
    const tabs = new Set(/** @type {number[]} */ (stored[FILLED_TABS_KEY] ?? []));
    if (tabs.has(tabId)) return;
    tabs.add(tabId);
    await chrome.storage.session.set({ [FILLED_TABS_KEY]: [...tabs] });
  }

  async function wasFilled(/** @type {number} */ tabId) {
    const stored = await chrome.storage.session.get(FILLED_TABS_KEY);
    return (/** @type {number[]} */ (stored[FILLED_TABS_KEY] ?? [])).includes(tabId);
  }

  /**
   * New fields appeared in a frame of this tab.
   * @param {number} tabId @param {string} url  the tab's page
   * @returns {Promise<boolean>} whether a fill was scheduled
   */
  async function fieldsAppeared(tabId, url) {
    const settings = await readSettings();
    if (!settings.autoFillNewFields || !(await wasFilled(tabId)) || !(await siteAllowed(url))) return false;
    const auto = autos.get(tabId) ?? { count: 0, last: -Infinity };
    if (auto.count >= limits.max) return false;
    if (timers.has(tabId)) return true; // this step's fill is already coming
    const wait = Math.max(limits.settleMs, auto.last + limits.gapMs - performance.now());
    timers.set(tabId, setTimeout(() => {
      timers.delete(tabId);
      autos.set(tabId, { count: auto.count + 1, last: performance.now() });
      void relayFill(tabId, { trigger: "fields-appeared" });
    }, wait));
    return true;
  }

  chrome.tabs.onRemoved.addListener((tabId) => {
    clearTimeout(timers.get(tabId));
    timers.delete(tabId);
    autos.delete(tabId);
    void chrome.storage.session.get(FILLED_TABS_KEY).then((stored) => {
      const tabs = (/** @type {number[]} */ (stored[FILLED_TABS_KEY] ?? [])).filter((t) => t !== tabId);
      return chrome.storage.session.set({ [FILLED_TABS_KEY]: tabs });
    });
  });

  return { noteFilled, fieldsAppeared, limits };
}
