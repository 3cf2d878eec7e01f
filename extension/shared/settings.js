// The person's settings, shared by the options page, the service worker and content scripts.

/** @typedef {{autoFillNewFields: boolean}} Settings */

/** @type {Settings} */
export const SETTINGS_DEFAULTS = Object.freeze({ autoFillNewFields: false });

/** @returns {Promise<Settings>} */
export async function readSettings() {
  const stored = await chrome.storage.local.get(Object.keys(SETTINGS_DEFAULTS));
  return { ...SETTINGS_DEFAULTS, ...stored };
}
