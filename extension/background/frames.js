// Talking to the content script in each frame of a tab: list the frames, send a message to one
// frame with a timeout, and inject the content script where it is missing (inject.js: nothing
// runs on a page before the person's Fill there).

import { inject } from "./inject.js";
import { RelayError } from "./native-port.js";

/**
 * The tab to fill: the given one, else the active tab of the last focused window.
 * @param {number} [tabId]
 * @returns {Promise<chrome.tabs.Tab>}
 */
export async function resolveTab(tabId) {
  if (typeof tabId === "number") {
    try {
      return await chrome.tabs.get(tabId);
    } catch (err) {
      throw new RelayError("E_NO_TAB", `no tab ${tabId}: ${errorText(err)}`);
    }
  }
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (tab?.id !== undefined) return tab;
  const [any] = await chrome.tabs.query({ active: true });
  if (any?.id !== undefined) return any;
  throw new RelayError("E_NO_TAB", "no active tab to fill");
}

/**
 * The tab's frames, top frame first. Frames that failed to load are left out. `documentId`
 * (Chromium) tells a reloaded frame from the one a plan was made for.
 * @param {number} tabId
 * @returns {Promise<{frameId: number, parentFrameId: number, url: string, documentId?: string}[]>}
 */
export async function listFrames(tabId) {
  let frames;
  try {
    frames = await chrome.webNavigation.getAllFrames({ tabId });
  } catch {
    frames = null;
  }
  if (!frames || !frames.length) return [{ frameId: 0, parentFrameId: -1, url: "" }];
  return frames
    .filter((f) => !f.errorOccurred)
    .map((f) => ({
      frameId: f.frameId, parentFrameId: f.parentFrameId, url: f.url,
      ...(/** @type {any} */ (f).documentId ? { documentId: String(/** @type {any} */ (f).documentId) } : {}),
    }))
    .sort((a, b) => (a.frameId === 0 ? -1 : b.frameId === 0 ? 1 : a.frameId - b.frameId));
}

/**
 * Send a message to one frame's content script and wait for its answer.
 * @param {number} tabId @param {number} frameId @param {Record<string, unknown>} message
 * @param {number} timeoutMs
 * @returns {Promise<any>}
 */
export async function sendToFrame(tabId, frameId, message, timeoutMs) {
  try {
    return await attempt(tabId, frameId, message, timeoutMs);
  } catch (err) {
    if (!(err instanceof RelayError) && /Receiving end does not exist|Could not establish connection/i.test(errorText(err))) {
      await inject(tabId, frameId);
      return attempt(tabId, frameId, message, timeoutMs);
    }
    throw err;
  }
}

/**
 * @param {number} tabId @param {number} frameId @param {Record<string, unknown>} message
 * @param {number} timeoutMs
 */
async function attempt(tabId, frameId, message, timeoutMs) {
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new RelayError("E_FRAME_TIMEOUT", timeoutText(frameId, String(message.relay), timeoutMs))), timeoutMs);
  });
  try {
    const reply = await Promise.race([chrome.tabs.sendMessage(tabId, message, { frameId }), timeout]);
    if (!reply) throw new RelayError("E_FRAME", `frame ${frameId} gave no answer`);
    if (reply.ok === false) {
      throw new RelayError(reply.error?.code ?? "E_FRAME", reply.error?.message ?? `frame ${frameId} failed`);
    }
    return reply;
  } finally {
    clearTimeout(timer);
  }
}

// What the worker was waiting for, in the person's words.
const DOING = { snapshot: "reading its form", apply: "filling its fields", arrival: "loading" };

/**
 * @param {number} frameId @param {string} kind  the message's `relay` @param {number} timeoutMs
 */
function timeoutText(frameId, kind, timeoutMs) {
  const where = frameId === 0 ? "This page" : `A frame of this page (frame ${frameId})`;
  const doing = /** @type {Record<string, string>} */ (DOING)[kind] ?? "answering";
  const after = kind === "snapshot" ? " Relay filled nothing there; press Fill to try again." : "";
  return `${where} did not answer Relay within ${Math.round(timeoutMs / 1000)} seconds while ${doing}: `
    + `it may be too busy or too large.${after}`;
}

/** @param {unknown} err */
export function errorText(err) {
  return err instanceof Error ? err.message : String(err);
}
