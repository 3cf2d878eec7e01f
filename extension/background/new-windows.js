// While Relay applies a plan, the tab's pages must not load anything in another window either: a
// form aimed at a new window and sent with the browser's own submit() saved by the page before
// Relay arrived gets past both halves of the submit guard (the browser fixes where a submission
// goes before any event the page could see). For as long as the apply holds the tab, a session
// rule blocks top-level loads that the tab's sites start in other tabs, and a window the tab
// opened meanwhile is closed and reported. The rule ends with the apply, not with the watch after
// it: removing it takes a round trip, and the person's own Submit must never wait on one.

const RULE_BASE = 7_000; // session rule ids from here on belong to this module
const RULE_SPAN = 1_000;
let next = 0;

/**
 * @param {number} tabId @param {string[]} urls  the tab's frames' addresses
 * @returns {Promise<{release: () => Promise<{frame: string, url: string}[]>}>} release ends the
 *   hold and says which windows were opened meanwhile (from which frame)
 */
export async function holdNewWindows(tabId, urls) {
  const hosts = [...new Set(urls.flatMap((u) => {
    try {
      const url = new URL(u);
      return url.protocol === "http:" || url.protocol === "https:" ? [url.hostname] : [];
    } catch {
      return [];
    }
  }))];
  /** @type {{frame: string, url: string}[]} */
  const opened = [];
  /** @param {chrome.webNavigation.WebNavigationSourceCallbackDetails} details */
  const onOpened = (details) => {
    if (details.sourceTabId !== tabId) return;
    opened.push({ frame: String(details.sourceFrameId), url: details.url });
    chrome.tabs.remove(details.tabId).catch(() => {});
  };
  chrome.webNavigation.onCreatedNavigationTarget.addListener(onOpened);
  const ruleId = RULE_BASE + (next++ % RULE_SPAN);
  let ruled = false;
  if (hosts.length) {
    try {
      await chrome.declarativeNetRequest.updateSessionRules({
        removeRuleIds: [ruleId],
        addRules: [{
          id: ruleId, priority: 1, action: { type: /** @type {any} */ ("block") },
          condition: {
            initiatorDomains: hosts, excludedTabIds: [tabId],
            resourceTypes: [/** @type {any} */ ("main_frame")],
          },
        }],
      });
      ruled = true;
    } catch (err) {
      console.warn("Relay: could not hold new windows during the apply", err);
    }
  }
  return {
    async release() {
      chrome.webNavigation.onCreatedNavigationTarget.removeListener(onOpened);
      if (ruled) await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: [ruleId] }).catch(() => {});
      return opened;
    },
  };
}

/** Rules left by a worker that stopped mid-apply would hold the sites for the whole session. */
export async function dropStaleHolds() {
  try {
    const rules = await chrome.declarativeNetRequest.getSessionRules();
    const stale = rules.map((r) => r.id).filter((id) => id >= RULE_BASE && id < RULE_BASE + RULE_SPAN);
    if (stale.length) await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: stale });
  } catch {
    // No declarativeNetRequest here: nothing was held.
  }
}
