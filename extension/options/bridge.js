// The console's one way to the bridge: a request through the service worker's native port.

export class BridgeError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/**
 * @param {string} type a console request type (see docs/protocol.md)
 * @param {Record<string, unknown>} [payload]
 * @returns {Promise<any>}
 */
export async function ask(type, payload = {}) {
  /** @type {{ok: boolean, result?: any, error?: {code: string, message: string}}} */
  const reply = await chrome.runtime.sendMessage({ relay_bg: "bridge", type, payload });
  if (!reply?.ok) {
    throw new BridgeError(reply?.error?.code ?? "E_NO_BRIDGE", reply?.error?.message ?? "no answer from Relay's service worker");
  }
  return reply.result;
}

/**
 * Check one value as the person types; resolves to "" or the reason it is not right.
 * @param {"email"|"phone"|"date"|"partial_date"} kind @param {string} value @param {string} [country]
 */
export async function check(kind, value, country = "") {
  if (!value.trim()) return "";
  try {
    const result = await ask("profile.check", { kind, value, country: country.slice(0, 2) });
    return result.ok ? "" : result.reason;
  } catch {
    return ""; // the bridge's absence is shown in the status line, not at every field
  }
}

/** @param {File} file @returns {Promise<string>} */
export async function fileBase64(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
