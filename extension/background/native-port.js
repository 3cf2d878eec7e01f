// The extension's end of the native-messaging port to the Relay bridge (docs/protocol.md).
//
// One NativePort owns one chrome.runtime.connectNative() port at a time and has an explicit state:
//   "closed"     no port (initial, after a disconnect, or after close())
//   "connecting" port opened, `hello` sent, waiting for the bridge's answer
//   "ready"      hello accepted: requests flow
// Requests made while closed connect first. An unexpected disconnect rejects every pending
// request with the browser's reason and schedules a reconnect with exponential backoff.

export const PROTOCOL_VERSION = "1.0";
export const PROTOCOL_MAJOR = 1;
export const HOST_NAME = "dev.relay.bridge";

/** @typedef {"closed"|"connecting"|"ready"} PortState */

/**
 * @typedef {object} NativePortOptions
 * @property {string} [hostName]
 * @property {string} [extensionVersion]
 * @property {number} [requestTimeoutMs]  default per-request timeout
 * @property {number} [helloTimeoutMs]
 * @property {number} [backoffInitialMs]  first reconnect delay; doubles up to backoffMaxMs
 * @property {number} [backoffMaxMs]
 * @property {number} [maxReconnects]     automatic attempts after a drop (a request still connects)
 * @property {boolean} [autoReconnect]
 * @property {(name: string) => chrome.runtime.Port} [connectNative]  injectable for tests
 */

/**
 * @typedef {{kind: "state", state: PortState, error?: {code: string, message: string}}
 *   | {kind: "event", seq: number, event: Record<string, unknown>}} PortNotice
 */

/** An error with a stable code, the shape relayFill reports. */
export class RelayError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.name = "RelayError";
    this.code = code;
  }

  toJSON() {
    return { code: this.code, message: this.message };
  }
}

/**
 * @typedef {object} Pending
 * @property {string} type
 * @property {(value: any) => void} resolve
 * @property {(reason: RelayError) => void} reject
 * @property {ReturnType<typeof setTimeout>} timer
 * @property {{count: number, parts: string[], received: number}|null} chunks
 */

/**
 * Whether a chunk is well formed and continues what was received so far (same count, a part not
 * seen yet). The bridge sends at most 64 chunks for one reply or event.
 * @param {{index: number, count: number, data: string}} chunk
 * @param {{count: number, parts: string[]}|null} sofar
 */
function chunkFits({ index, count, data }, sofar) {
  return Number.isInteger(count) && count > 0 && count <= 64 && Number.isInteger(index)
    && index >= 0 && index < count && typeof data === "string"
    && (!sofar || sofar.count === count) && !sofar?.parts[index];
}

export class NativePort {
  /** @param {NativePortOptions} [options] */
  constructor(options = {}) {
    this.hostName = options.hostName ?? HOST_NAME;
    this.extensionVersion = options.extensionVersion ?? safeVersion();
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.helloTimeoutMs = options.helloTimeoutMs ?? 10_000;
    this.backoffInitialMs = options.backoffInitialMs ?? 500;
    this.backoffMaxMs = options.backoffMaxMs ?? 30_000;
    this.maxReconnects = options.maxReconnects ?? 10;
    this.autoReconnect = options.autoReconnect ?? true;
    this._connectNative = options.connectNative ?? ((name) => chrome.runtime.connectNative(name));

    /** @type {PortState} */
    this.state = "closed";
    /** @type {Record<string, any>|null} the bridge's hello result while ready */
    this.hello = null;
    /** @type {{code: string, message: string}|null} why the last connection ended or failed */
    this.lastError = null;
    /** connections opened so far (tests and diagnostics) */
    this.connects = 0;

    /** @type {chrome.runtime.Port|null} */
    this._port = null;
    /** @type {Map<string, Pending>} */
    this._pending = new Map();
    this._nextId = 1;
    this._lastSeq = 0;
    /** @type {{seq: number, count: number, parts: string[], received: number}|null} */
    this._eventChunks = null;
    /** @type {Promise<Record<string, any>>|null} */
    this._connecting = null;
    /** @type {ReturnType<typeof setTimeout>|null} */
    this._reconnectTimer = null;
    this._attempt = 0;
    this._wantOpen = false;
    /** @type {Set<(notice: PortNotice) => void>} */
    this._subscribers = new Set();
    /** @type {((message: any) => void)|null} */
    this._onMessage = null;
    /** @type {(() => void)|null} */
    this._onDisconnect = null;
  }

  /**
   * Listen to state changes and bridge events. Returns the unsubscribe function.
   * @param {(notice: PortNotice) => void} fn
   */
  subscribe(fn) {
    this._subscribers.add(fn);
    return () => this._subscribers.delete(fn);
  }

  /**
   * Open the port and complete the hello handshake. Resolves to the bridge's hello result.
   * Concurrent callers share one attempt.
   * @returns {Promise<Record<string, any>>}
   */
  connect() {
    this._wantOpen = true;
    this._clearReconnectTimer();
    if (this.state === "ready" && this.hello) return Promise.resolve(this.hello);
    if (this._connecting) return this._connecting;
    this._connecting = this._open().finally(() => {
      this._connecting = null;
    });
    return this._connecting;
  }

  /**
   * Send one request and resolve to its result (rejects with a RelayError).
   * @param {string} type
   * @param {Record<string, unknown>} [payload]
   * @param {{timeoutMs?: number}} [options]
   * @returns {Promise<any>}
   */
  async request(type, payload = {}, options = {}) {
    if (this.state !== "ready") await this.connect();
    return this._send(type, payload, options.timeoutMs ?? this.requestTimeoutMs);
  }

  /** Close on purpose: no reconnect until connect() or request() is called again. */
  close() {
    this._wantOpen = false;
    this._clearReconnectTimer();
    this._drop(new RelayError("E_CLOSED", "the port was closed by the extension"), true);
  }

  // --- internals ---------------------------------------------------------------------------

  /** @returns {Promise<Record<string, any>>} */
  async _open() {
    this._setState("connecting");
    this.connects += 1;
    /** @type {chrome.runtime.Port} */
    let port;
    try {
      port = this._connectNative(this.hostName);
    } catch (err) {
      const error = new RelayError("E_NO_BRIDGE", errorText(err));
      this._afterFailure(error);
      throw error;
    }
    this._port = port;
    this._lastSeq = 0;
    this._eventChunks = null;
    this._onMessage = (message) => this._receive(message);
    this._onDisconnect = () => {
      // lastError must be read inside the listener, or Chrome logs "Unchecked runtime.lastError".
      const reason = chrome.runtime.lastError?.message || "the Relay bridge closed the connection";
      this._drop(new RelayError("E_DISCONNECTED", reason), false);
    };
    port.onMessage.addListener(this._onMessage);
    port.onDisconnect.addListener(this._onDisconnect);

    /** @type {Record<string, any>} */
    let hello;
    try {
      hello = await this._send(
        "hello",
        { extension_version: this.extensionVersion, protocol: PROTOCOL_VERSION },
        this.helloTimeoutMs,
      );
    } catch (err) {
      const error = asRelayError(err);
      const refused = error.code === "E_UNSUPPORTED_VERSION";
      const said = /speaks v?(\d+)/.exec(error.message);
      const reported = refused
        ? versionError(said ? Number(said[1]) : null, said ? `${said[1]}.x` : "another version")
        : error.code === "E_DISCONNECTED" ? startError(error.message) : error;
      if (this._port === port) this._drop(reported, true);
      this._afterFailure(reported, refused);
      throw reported;
    }
    const major = majorOf(hello?.protocol);
    if (major !== PROTOCOL_MAJOR) {
      const error = versionError(major, String(hello?.protocol ?? "?"));
      this._drop(error, true);
      this._afterFailure(error, true);
      throw error;
    }
    this.hello = hello;
    this.lastError = null;
    this._attempt = 0;
    this._setState("ready");
    return hello;
  }

  /**
   * @param {string} type @param {Record<string, unknown>} payload @param {number} timeoutMs
   * @returns {Promise<any>}
   */
  _send(type, payload, timeoutMs) {
    const port = this._port;
    if (!port) return Promise.reject(new RelayError("E_DISCONNECTED", "no connection to the Relay bridge"));
    const id = `r-${this._nextId++}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this._pending.delete(id)) {
          reject(new RelayError("E_TIMEOUT", `${type} got no reply within ${timeoutMs} ms`));
        }
      }, timeoutMs);
      this._pending.set(id, { type, resolve, reject, timer, chunks: null });
      try {
        port.postMessage({ v: PROTOCOL_MAJOR, id, type, payload });
      } catch (err) {
        // postMessage throws when the port died between the state check and now.
        clearTimeout(timer);
        this._pending.delete(id);
        reject(new RelayError("E_DISCONNECTED", errorText(err)));
      }
    });
  }

  /** @param {any} message */
  _receive(message) {
    if (!message || typeof message !== "object") return;
    if (message.type === "event") {
      const seq = Number(message.seq);
      if (message.chunk) {
        this._receiveEventChunk(seq, message.chunk);
        return;
      }
      if (!(seq > this._lastSeq)) return; // stale or repeated: the contract says seq only grows
      this._lastSeq = seq;
      this._eventChunks = null; // a newer event: an unfinished chunked one will not complete
      this._notify({ kind: "event", seq, event: message.event ?? {} });
      return;
    }
    const id = typeof message.id === "string" ? message.id : "";
    const pending = this._pending.get(id);
    if (!pending) return; // a reply after its timeout: nobody is waiting any more
    if (message.chunk) {
      this._receiveChunk(id, pending, message.chunk);
      return;
    }
    this._settle(id, pending, message);
  }

  /**
   * @param {string} id @param {Pending} pending
   * @param {{index: number, count: number, data: string}} chunk
   */
  _receiveChunk(id, pending, chunk) {
    const { index, count, data } = chunk;
    if (!chunkFits(chunk, pending.chunks)) {
      this._fail(id, pending, new RelayError("E_BAD_CHUNK", `bad chunk ${index}/${count} for ${pending.type}`));
      return;
    }
    pending.chunks ??= { count, parts: new Array(count), received: 0 };
    pending.chunks.parts[index] = data;
    pending.chunks.received += 1;
    if (pending.chunks.received < count) return;
    let whole;
    try {
      whole = JSON.parse(pending.chunks.parts.join(""));
    } catch (err) {
      this._fail(id, pending, new RelayError("E_BAD_CHUNK", `chunked reply is not JSON: ${errorText(err)}`));
      return;
    }
    this._settle(id, pending, whole);
  }

  /**
   * A large event (a replayed resume) arrives as chunks that share its `seq`; a bad or unfinished
   * one is dropped: its delivery was not acknowledged, so the bridge sends it again.
   * @param {number} seq @param {{index: number, count: number, data: string}} chunk
   */
  _receiveEventChunk(seq, chunk) {
    const { index, count, data } = chunk;
    if (!(seq > this._lastSeq)) return;
    if (this._eventChunks && this._eventChunks.seq !== seq) this._eventChunks = null;
    const current = this._eventChunks;
    if (!chunkFits(chunk, current)) {
      this._eventChunks = null;
      return;
    }
    const parts = current ?? { seq, count, parts: new Array(count), received: 0 };
    this._eventChunks = parts;
    parts.parts[index] = data;
    parts.received += 1;
    if (parts.received < count) return;
    this._eventChunks = null;
    this._lastSeq = seq;
    let event;
    try {
      event = JSON.parse(parts.parts.join(""));
    } catch {
      return;
    }
    if (event && typeof event === "object") this._notify({ kind: "event", seq, event });
  }

  /** @param {string} id @param {Pending} pending @param {any} reply */
  _settle(id, pending, reply) {
    this._pending.delete(id);
    clearTimeout(pending.timer);
    if (reply?.ok === true) {
      pending.resolve(reply.result ?? {});
    } else {
      const err = reply?.error ?? {};
      pending.reject(new RelayError(String(err.code ?? "E_INTERNAL"), String(err.message ?? "the bridge refused the request")));
    }
  }

  /** @param {string} id @param {Pending} pending @param {RelayError} error */
  _fail(id, pending, error) {
    this._pending.delete(id);
    clearTimeout(pending.timer);
    pending.reject(error);
  }

  /**
   * Forget the port: remove our listeners, reject everything pending, go to "closed".
   * @param {RelayError} error @param {boolean} deliberate  true when we end it ourselves
   */
  _drop(error, deliberate) {
    const port = this._port;
    if (port) {
      if (this._onMessage) port.onMessage.removeListener(this._onMessage);
      if (this._onDisconnect) port.onDisconnect.removeListener(this._onDisconnect);
      if (deliberate) {
        try {
          port.disconnect();
        } catch {
          // already gone
        }
      }
    }
    this._port = null;
    this._onMessage = null;
    this._onDisconnect = null;
    const pending = [...this._pending.values()];
    this._pending.clear();
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(error);
    }
    const wasUp = this.state !== "closed";
    this.hello = null;
    this.lastError = error.toJSON();
    if (wasUp) this._setState("closed", error);
    // A drop after a good handshake (the host crashed or exited) is worth reconnecting.
    if (!deliberate && this._wantOpen && this.autoReconnect && !this._connecting) {
      this._scheduleReconnect();
    }
  }

  /** @param {RelayError} error @param {boolean} [final] no retry (version mismatch) */
  _afterFailure(error, final = false) {
    this.lastError = error.toJSON();
    if (this.state !== "closed") this._setState("closed", error);
    if (final) {
      this._wantOpen = false;
      return;
    }
    if (this._wantOpen && this.autoReconnect) this._scheduleReconnect();
  }

  _scheduleReconnect() {
    if (this._reconnectTimer || this._attempt >= this.maxReconnects) return;
    const delay = Math.min(this.backoffMaxMs, this.backoffInitialMs * 2 ** this._attempt);
    this._attempt += 1;
    this._reconnectTimer = setTimeout(() => {
      this._reconnectTimer = null;
      if (this.state !== "closed" || !this._wantOpen) return;
      this._connecting = this._open().finally(() => {
        this._connecting = null;
      });
      // Failures schedule the next attempt themselves; nobody awaits this one.
      this._connecting.catch(() => {});
    }, delay);
  }

  _clearReconnectTimer() {
    if (this._reconnectTimer) clearTimeout(this._reconnectTimer);
    this._reconnectTimer = null;
  }

  /** @param {PortState} state @param {RelayError} [error] */
  _setState(state, error) {
    this.state = state;
    this._notify(error ? { kind: "state", state, error: error.toJSON() } : { kind: "state", state });
  }

  /** @param {PortNotice} notice */
  _notify(notice) {
    for (const fn of [...this._subscribers]) {
      try {
        fn(notice);
      } catch (err) {
        console.error("Relay: port subscriber failed", err);
      }
    }
  }
}

/** @param {unknown} protocol @returns {number|null} */
export function majorOf(protocol) {
  const m = /^(\d+)(?:\.|$)/.exec(String(protocol ?? ""));
  return m ? Number(m[1]) : null;
}

/**
 * Which side to update, in words a person can act on.
 * @param {number|null} bridgeMajor @param {string} shown  the bridge's version as reported
 */
function versionError(bridgeMajor, shown) {
  const side = bridgeMajor !== null && bridgeMajor > PROTOCOL_MAJOR
    ? "update the Relay extension"
    : "update the Relay bridge (reinstall the Relay app)";
  return new RelayError(
    "E_VERSION_MISMATCH",
    `The Relay bridge speaks protocol ${shown}; this extension speaks protocol ${PROTOCOL_VERSION}: ${side}.`,
  );
}

/**
 * The host never came up: say what to do, keeping the browser's reason.
 * @param {string} reason  chrome.runtime.lastError's message
 */
function startError(reason) {
  let hint = "see the bridge's log (relay doctor)";
  if (/not found/i.test(reason)) hint = "install it for this browser with `relay install`";
  else if (/forbidden/i.test(reason)) hint = "its host manifest does not allow this extension; run `relay install` again";
  return new RelayError("E_NO_BRIDGE", `The Relay bridge could not be started (${reason}): ${hint}.`);
}

/** @param {unknown} err */
export function asRelayError(err) {
  if (err instanceof RelayError) return err;
  return new RelayError("E_INTERNAL", errorText(err));
}

/** @param {unknown} err */
function errorText(err) {
  return err instanceof Error ? err.message : String(err);
}

function safeVersion() {
  try {
    return chrome.runtime.getManifest().version;
  } catch {
    return "0.0.0";
  }
}
