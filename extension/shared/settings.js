// The person's settings, shared by the options page, the service worker and content scripts.
//
// `sites`: the sites Relay may run on, each a host name ("boards.greenhouse.io") or a host with
// every subdomain ("*.myworkdayjobs.com"), lower case, no scheme or path. Empty: any site where
// the person presses Fill. Written by the console's Settings page; read by whatever injects
// Relay into a page.
//
// FILLED_SITES_KEY: the origins the person has pressed Fill on (background/inject.js adds each);
// what runs without a click ("fill new fields as they appear") runs only there. The Settings page
// lists them and lets the person remove one.
export const FILLED_SITES_KEY = "relay.sites";

/** @typedef {{autoFillNewFields: boolean, sites: string[]}} Settings */

/** @type {Settings} */
export const SETTINGS_DEFAULTS = Object.freeze({ autoFillNewFields: false, sites: [] });

/** @returns {Promise<Settings>} */
export async function readSettings() {
  const stored = await chrome.storage.local.get(Object.keys(SETTINGS_DEFAULTS));
  return { ...SETTINGS_DEFAULTS, ...stored };
}

/**
 * Whether the `sites` setting lets Relay run on this page's address.
 * @param {string} url @param {string[]} sites
 */
export function siteAllowed(url, sites) {
  if (!sites.length) return true;
  let host = "";
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return sites.some((site) => site.startsWith("*.")
    ? host === site.slice(2) || host.endsWith(site.slice(1))
    : host === site);
}
