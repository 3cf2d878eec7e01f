// The content script is classic scripts, not ES modules: the service worker injects them in
// order (content/files.js) with chrome.scripting, so no file of the extension needs to be
// web-accessible and no page can fetch one to tell Relay is installed (issue 13, item 6). Each
// file keeps its own scope and shares what the others use through this one object, which lives
// in Relay's isolated world: the page's scripts cannot see or change it.
/** @type {Record<string, any>} */
globalThis.relayContent = {};
