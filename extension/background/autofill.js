// "Fill new fields as they appear": after the person pressed Fill on a page, the content script
// reports fields that showed up later (the next step of a wizard, a section that opened); when the
// person turned the setting on, the tab is filled again. Values already there — the page's, the
// person's, Relay's own — are kept by the plan; nothing is ever submitted.

import { readSettings } from "../shared/settings.js";

const SETTLE_MS = 600; // wait for a step's fields to finish rendering before filling
const FILLED_TABS_KEY = "relayFilledTabs";

/**
 * @param {(tabId: number, options?: Record<string, unknown>) => Promise<any>} relayFill
 */
export function createAutofill(relayFill) {
  /** @type {Map<number, ReturnType<typeof setTimeout>>} */
  const timers = new Map();

  /** Remember that the person filled this tab (session storage: survives a worker restart). */
  async function noteFilled(/** @type {number} */ tabId) {
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
   * @param {number} tabId
   * @returns {Promise<boolean>} whether a fill was scheduled
   */
  async function fieldsAppeared(tabId) {
    const settings = await readSettings();
    if (!settings.autoFillNewFields || !(await wasFilled(tabId))) return false;
    clearTimeout(timers.get(tabId));
    timers.set(tabId, setTimeout(() => {
      timers.delete(tabId);
      void relayFill(tabId, { trigger: "fields-appeared" });
    }, SETTLE_MS));
    return true;
  }

  chrome.tabs.onRemoved.addListener((tabId) => {
    clearTimeout(timers.get(tabId));
    timers.delete(tabId);
    void chrome.storage.session.get(FILLED_TABS_KEY).then((stored) => {
      const tabs = (/** @type {number[]} */ (stored[FILLED_TABS_KEY] ?? [])).filter((t) => t !== tabId);
      return chrome.storage.session.set({ [FILLED_TABS_KEY]: tabs });
    });
  });

  return { noteFilled, fieldsAppeared };
}
