// Relay's settings page: the person's switches, kept in chrome.storage.local, and the bridge's state.

import { readSettings } from "../shared/settings.js";

const autoFill = /** @type {HTMLInputElement} */ (document.getElementById("autoFillNewFields"));
const bridge = /** @type {HTMLElement} */ (document.getElementById("bridge"));

async function load() {
  const settings = await readSettings();
  autoFill.checked = settings.autoFillNewFields;
  autoFill.addEventListener("change", () => {
    void chrome.storage.local.set({ autoFillNewFields: autoFill.checked });
  });
  await showBridge();
}

async function showBridge() {
  try {
    /** @type {{ok: boolean, state?: string, hello?: Record<string, any>, error?: {message: string}}} */
    const status = await chrome.runtime.sendMessage({ relay_bg: "status" });
    if (status?.ok && status.hello) {
      const profile = status.hello.profile?.error ? ` — ${status.hello.profile.error}` : "";
      bridge.textContent = `Connected to bridge ${status.hello.bridge_version} (protocol ${status.hello.protocol})${profile}`;
      bridge.className = profile ? "bad" : "ok";
    } else {
      bridge.textContent = `Not connected: ${status?.error?.message ?? "no answer from Relay's service worker"}`;
      bridge.className = "bad";
    }
  } catch (err) {
    bridge.textContent = `Not connected: ${err instanceof Error ? err.message : String(err)}`;
    bridge.className = "bad";
  }
}

void load();
