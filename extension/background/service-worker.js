// Relay's service worker: owns the native port, runs fills, and wires the toolbar button, the
// keyboard shortcut and the page panel to them. Listeners are registered at the top level, as MV3
// requires, so an event that wakes the worker finds them.
//
// Globals (for `relay fill` via Playwright's service-worker evaluate, tests and diagnostics):
//   relayFill(tabId?)      the one fill entry point; resolves to a JSON outcome, never throws
//   relayLastOutcome       the last fill's outcome
//   relayPort              the NativePort to the bridge
//   relaySnapshotTab(id)   snapshots of every frame of a tab, without planning
//   RelayNativePort        the class, so tests can open a port with their own timeouts

import { createFill } from "./fill.js";
import { NativePort } from "./native-port.js";

const port = new NativePort();
const fill = createFill(port);

/** @type {any} */
const g = globalThis;
g.relayPort = port;
g.RelayNativePort = NativePort;
g.relayFill = (/** @type {number|undefined} */ tabId, /** @type {any} */ options) => fill.relayFill(tabId, options);
g.relaySnapshotTab = fill.snapshotTab;
g.relayLastOutcome = null;
/** @type {Record<string, unknown>[]} recent bridge events, newest last */
g.relayEvents = [];

port.subscribe((notice) => {
  if (notice.kind === "event") {
    g.relayEvents.push({ seq: notice.seq, ...notice.event });
    if (g.relayEvents.length > 50) g.relayEvents.shift();
  } else if (notice.error && notice.state === "closed") {
    console.info(`Relay: bridge connection ${notice.state}: ${notice.error.message}`);
  }
});

chrome.action.onClicked.addListener((tab) => {
  void g.relayFill(tab.id);
});

chrome.commands.onCommand.addListener((command, tab) => {
  if (command === "relay-fill") void g.relayFill(tab?.id);
});

// Requests from Relay's own page UI (the panel): focus a field in whichever frame holds it.
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (!message || typeof message.relay_bg !== "string" || sender.id !== chrome.runtime.id) return false;
  const tabId = sender.tab?.id;
  if (message.relay_bg === "focus" && tabId !== undefined) {
    chrome.tabs.sendMessage(tabId, { relay: "focus", field_id: message.field_id }, { frameId: Number(message.frame) })
      .then(sendResponse, () => sendResponse({ ok: false }));
    return true;
  }
  return false;
});
