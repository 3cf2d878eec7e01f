// Classic content script, injected by the service worker on the person's first Fill in a frame
// (background/inject.js; the manifest declares none): injected scripts cannot be ES modules, so
// this loads the module entry (a web-accessible resource) with import() and forwards the
// worker's messages to it.
// The listener is added at once, so a message that arrives while the module loads still waits for it.
(() => {
  const KEY = "__relayContentLoader";
  // Injected again (a second Fill racing the first): keep one.
  if (/** @type {any} */ (globalThis)[KEY]) return;
  /** @type {any} */ (globalThis)[KEY] = true;

  // Loaded on the first message. Edit tracking starts with the module, which is before Relay's
  // first fill here.
  /** @type {Promise<{handleMessage: (msg: any) => Promise<any>, start?: () => void}>|null} */
  let entry = null;
  const load = () => (entry ??= import(chrome.runtime.getURL("content/main.js")).then((mod) => {
    mod.start?.();
    return mod;
  }, (err) => {
    entry = null; // let the next message try again
    throw err;
  }));

  chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
    if (!message || typeof message.relay !== "string") return false;
    load()
      .then((mod) => mod.handleMessage(message))
      .then(sendResponse, (err) => {
        sendResponse({
          ok: false,
          error: { code: "E_CONTENT", message: String((err && err.message) || err) },
        });
      });
    return true; // the answer comes asynchronously
  });
})();
