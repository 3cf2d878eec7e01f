// The last of the content script's files (content/files.js): starts the content side and hands
// the service worker's messages to main.js. Edit tracking starts here, which is before Relay's
// first fill in this frame: the worker injects the files when its first message finds no one.
(() => {
"use strict";
const { handleMessage, start } = relayContent.main;

start();
chrome.runtime.onMessage.addListener((message, _sender, sendResponse) => {
  if (!message || typeof message.relay !== "string") return false;
  handleMessage(message).then(sendResponse, (err) => {
    sendResponse({ ok: false, error: { code: "E_CONTENT", message: String((err && err.message) || err) } });
  });
  return true; // the answer comes asynchronously
});
})();
