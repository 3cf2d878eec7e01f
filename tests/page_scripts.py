"""Scripts the end-to-end tests evaluate in the extension's worker or in a page."""

# Whether Relay's content script answers in each frame of the tab, by the frame's address
# (evaluated in the worker with the tab's URL).
FRAMES_ANSWERING = """async (url) => {
    const tab = (await chrome.tabs.query({})).find((t) => t.url === url);
    const frames = await chrome.webNavigation.getAllFrames({tabId: tab.id});
    const out = {};
    for (const f of frames) {
        out[f.url] = await chrome.tabs.sendMessage(tab.id, {relay: "ping"}, {frameId: f.frameId})
            .then(() => true, () => false);
    }
    return out;
}"""

# Every control's value as the browser holds it, by id, read with the prototypes' own getters
# (a hostile page's throwing getter is its own), and the city inside the page's deep shadow tree.
NATIVE_VALUES = """() => {
    const get = (proto) => Object.getOwnPropertyDescriptor(proto, "value").get;
    const out = {};
    for (const el of document.querySelectorAll("input, textarea, select")) {
        const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype
            : el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
            : HTMLInputElement.prototype;
        out[el.id] = get(proto).call(el);
    }
    out.city = window.__deepCity();
    return out;
}"""
