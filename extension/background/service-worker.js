// Relay's service worker: owns the native port, runs fills, and wires the toolbar button, the
// keyboard shortcut and the page panel to them. Listeners are registered at the top level, as MV3
// requires, so an event that wakes the worker finds them.
//
// Globals (for `relay fill` via Playwright's service-worker evaluate, tests and diagnostics):
//   relayFill(tabId?)      the one fill entry point; resolves to a JSON outcome, never throws
//   relayLastOutcome       the last fill's outcome
//   relayPort              the NativePort to the bridge
//   relaySnapshotTab(id)   snapshots of every frame of a tab, without planning
//   relayPlanTab(id)       snapshot, plan and record the run, without applying (tests, diagnostics)
//   relayReplay            replayed deliveries: {outcomes, settled()}
//   relayStream            the model's answers that come after a plan: {collect(), settled()}
//   relayDeliveries        the run bookkeeping in chrome.storage.session
//   relayGuardSettled(id)  once every frame's submit-guard watch for a run has ended:
//                          {blocked: [...]} (everything the guard stopped for that run)
//   RelayNativePort        the class, so tests can open a port with their own timeouts
//   relayReview            each tab's review for the side panel: read(tabId), handle(message, sender)
//   relayAutofill          "fill new fields as they appear": fieldsAppeared(tabId, url) for each
//                          report, and the limits of automatic fills ({settleMs, gapMs, max})

import { createAutofill } from "./autofill.js";
import { createDeliveries } from "./deliveries.js";
import { createFill } from "./fill.js";
import { rememberSite } from "./inject.js";
import { NativePort } from "./native-port.js";
import { createReplay } from "./replay.js";
import { createReview } from "./review.js";
import { createStream } from "./stream.js";
import { createSubmitGuard } from "./submit-guard.js";

const port = new NativePort();
const deliveries = createDeliveries();
const guard = createSubmitGuard(port);
const stream = createStream(port, deliveries, guard);
const fill = createFill(port, deliveries, guard, stream);
const replay = createReplay(port, deliveries, guard);

/** @type {any} */
const g = globalThis;
g.relayPort = port;
g.RelayNativePort = NativePort;
const autofill = createAutofill((tabId, options) => g.relayFill(tabId, options));
g.relayAutofill = autofill;
g.relayFill = async (/** @type {number|undefined} */ tabId, /** @type {any} */ options) => {
  const outcome = await fill.relayFill(tabId, options);
  if (outcome.ok && outcome.tab_id !== undefined) {
    await autofill.noteFilled(outcome.tab_id, Boolean(options?.trigger));
    // The person's own Fill (not an automatic one) lets Relay on this site (inject.js).
    if (!options?.trigger) await rememberSite((await chrome.tabs.get(outcome.tab_id).catch(() => null))?.url ?? "");
  }
  return outcome;
};
g.relaySnapshotTab = fill.snapshotTab;
g.relayPlanTab = (/** @type {number|undefined} */ tabId) => fill.relayPlanTab(tabId);
g.relayReplay = replay;
g.relayStream = stream;
g.relayDeliveries = deliveries;
g.relayGuardSettled = (/** @type {string} */ runId) => guard.settledRun(String(runId));
g.relayLastOutcome = null;
const review = createReview(port, (tabId) => g.relayFill(tabId));
g.relayReview = review;
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
  openSidePanel(tab);
  void g.relayFill(tab.id);
});

chrome.commands.onCommand.addListener((command, tab) => {
  if (command !== "relay-fill") return;
  if (tab) openSidePanel(tab);
  void g.relayFill(tab?.id);
});

/**
 * The review opens beside the page with the Fill. Called before any await: the browser opens a
 * side panel only in answer to the person's own click or key press.
 * @param {chrome.tabs.Tab} tab
 */
function openSidePanel(tab) {
  /** @type {any} */
  const firefox = globalThis;
  if (firefox.browser?.sidebarAction?.open) {
    firefox.browser.sidebarAction.open().catch(() => {});
    return;
  }
  if (tab.id === undefined || !chrome.sidePanel?.open) return;
  chrome.sidePanel.setOptions({ tabId: tab.id, path: `sidepanel/panel.html?tab=${tab.id}`, enabled: true }).catch(() => {});
  chrome.sidePanel.open({ tabId: tab.id }).catch((err) => console.info(`Relay: no side panel: ${err?.message ?? err}`));
}

// The side panel holds a port named `review:<tabId>` while it is open: when it closes, the marks go.
chrome.runtime.onConnect.addListener((panel) => {
  const match = /^review:(\d+)$/.exec(panel.name);
  if (!match || panel.sender?.id !== chrome.runtime.id) return;
  // Its keep-alive messages keep this worker (and so the port) from being stopped while it is open.
  panel.onMessage.addListener(() => {});
  panel.onDisconnect.addListener(() => {
    void review.panelClosed(Number(match[1]));
  });
});

chrome.tabs.onRemoved.addListener((tabId) => {
  void review.forget(tabId);
});

// Request types the console page may send to the bridge, and where that page lives.
const CONSOLE_URL = chrome.runtime.getURL("options/");
const CONSOLE_TYPES = new Set([
  "status", "profile.import", "profile.extract", "profile.get", "profile.update", "profile.check",
  "profiles.list", "profile.activate", "profile.export", "profile.delete",
  "documents.list", "document.add", "document.choose",
  "answers.list", "answers.update", "answers.delete",
  "applications.list", "application.get", "application.update",
  "spending.get", "settings.set", "key.set", "model.test", "activity.list",
  "encryption.status", "encryption.set", "approvals.list", "approval.decide",
]);
// The side panel switches profile and resume for the job in its tab, and nothing else.
const PANEL_URL = chrome.runtime.getURL("sidepanel/");
const PANEL_TYPES = new Set(["profiles.list", "profile.activate", "documents.list", "document.choose"]);

// Requests from Relay's own page UI (the panel): focus a field in whichever frame holds it.
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (!message || typeof message.relay_bg !== "string" || sender.id !== chrome.runtime.id) return false;
  const tabId = sender.tab?.id;
  if (message.relay_bg === "review") {
    // The side panel's and the marks' requests about a tab's review (review.js).
    review.handle(message, sender).then(sendResponse,
      (err) => sendResponse({ ok: false, error: { code: "E_INTERNAL", message: String(err?.message ?? err) } }));
    return true;
  }
  if (message.relay_bg === "status") {
    // The settings page asks whether the bridge answers.
    port.connect().then(
      (hello) => sendResponse({ ok: true, state: port.state, hello }),
      (err) => sendResponse({ ok: false, state: port.state, error: { message: String(err?.message ?? err) } }),
    );
    return true;
  }
  const fromConsole = sender.url?.startsWith(CONSOLE_URL) && CONSOLE_TYPES.has(message.type);
  const fromPanel = sender.url?.startsWith(PANEL_URL) && PANEL_TYPES.has(message.type);
  if (message.relay_bg === "bridge" && (fromConsole || fromPanel)) {
    // The console (Relay's own options page, never a content script) reads and edits the
    // person's data.
    port.request(message.type, message.payload ?? {}, { timeoutMs: 60_000 }).then(
      (result) => sendResponse({ ok: true, result }),
      (err) => sendResponse({ ok: false, error: { code: String(err?.code ?? "E_INTERNAL"), message: String(err?.message ?? err) } }),
    );
    return true;
  }
  if (message.relay_bg === "fields-appeared" && tabId !== undefined) {
    g.relayAutofill.fieldsAppeared(tabId, sender.tab?.url ?? "").then((scheduled) => sendResponse({ ok: true, scheduled }),
      () => sendResponse({ ok: false }));
    return true;
  }
  if (message.relay_bg === "guard-settled" && tabId !== undefined) {
    // A frame's submit-guard watch after the apply ended, with what it stopped meanwhile.
    guard.settled(tabId, sender.frameId ?? 0, message).then(() => sendResponse({ ok: true }),
      () => sendResponse({ ok: false }));
    return true;
  }
  if (message.relay_bg === "submitted" && tabId !== undefined) {
    // The person pressed Submit themselves (content/submitted.js saw it): record the application.
    port.request("application.submitted", message.payload ?? {}).then(
      (reply) => sendResponse({ ok: true, ...reply }),
      (err) => {
        console.info(`Relay: the application was not recorded: ${err?.message ?? err}`);
        sendResponse({ ok: false });
      });
    return true;
  }
  if (message.relay_bg === "focus" && tabId !== undefined) {
    chrome.tabs.sendMessage(tabId, { relay: "focus", field_id: message.field_id }, { frameId: Number(message.frame) })
      .then(sendResponse, () => sendResponse({ ok: false }));
    return true;
  }
  return false;
});

// A worker that starts while runs are still unacknowledged (it was stopped or crashed mid-run)
// connects at once: the bridge replays what is pending after `hello`, with no new click needed.
deliveries.openRuns().then((open) => {
  if (open.length) return port.connect();
  return undefined;
}).catch((err) => {
  console.info(`Relay: could not reconnect for pending deliveries: ${err?.message ?? err}`);
});
