// "Fill with": the profile and the resume for the job in this tab, chosen before Fill. A block of
// its own beside the review (panel.js): it asks the bridge through the service worker, which lets
// the side panel send only these requests (see background/service-worker.js).

const params = new URLSearchParams(location.search);
const box = /** @type {HTMLElement} */ (document.getElementById("fill-with"));

/** @param {string} type @param {Record<string, unknown>} [payload] @returns {Promise<any>} */
async function ask(type, payload = {}) {
  const reply = await chrome.runtime.sendMessage({ relay_bg: "bridge", type, payload });
  if (!reply?.ok) throw new Error(reply?.error?.message ?? "Relay did not answer");
  return reply.result;
}

/** @param {string} tag @param {Record<string, string>} [attrs] @param {...(Node|string)} children */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** @returns {Promise<number|undefined>} */
async function tabId() {
  const fixed = Number(params.get("tab"));
  if (Number.isInteger(fixed) && fixed > 0) return fixed;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab?.id;
}

async function render() {
  const id = await tabId();
  const url = id === undefined ? "" : (await chrome.tabs.get(id).catch(() => null))?.url ?? "";
  const said = el("p", { class: "fill-with-said", role: "status", id: "fill-with-said" });
  try {
    const { profiles } = await ask("profiles.list");
    if (!profiles.length) {
      box.hidden = true;
      return;
    }
    const job = /^https?:/.test(url) ? url : "";
    const docs = await ask("documents.list", job ? { url: job } : {});
    const profileSelect = /** @type {HTMLSelectElement} */ (el("select", { id: "fill-with-profile" }));
    profileSelect.append(...profiles.map((/** @type {any} */ p) => new Option(p.name, p.name, p.active, p.active)));
    profileSelect.addEventListener("change", async () => {
      await ask("profile.activate", { name: profileSelect.value });
      await render();
      const now = document.getElementById("fill-with-said");
      if (now) now.textContent = `Fill uses “${profileSelect.value}”.`;
    });
    const resumeSelect = /** @type {HTMLSelectElement} */ (el("select", { id: "fill-with-resume" }));
    const fallback = docs.resume.find((/** @type {any} */ r) => r.default);
    resumeSelect.append(new Option(fallback ? `Default (${fallback.name})` : "None", ""),
      ...docs.resume.map((/** @type {any} */ r) => new Option(r.name, r.ref, false, r.ref === docs.chosen.resume)));
    resumeSelect.disabled = !job || !docs.resume.length;
    resumeSelect.addEventListener("change", async () => {
      try {
        await ask("document.choose", { kind: "resume", ref: resumeSelect.value, url: job });
        said.textContent = resumeSelect.value
          ? `For this job, Fill attaches “${resumeSelect.selectedOptions[0].text}”.`
          : "For this job, Fill attaches your default resume.";
      } catch (err) {
        said.textContent = `Not changed: ${err instanceof Error ? err.message : err}`;
      }
    });
    box.replaceChildren(el("h2", { id: "fill-with-title" }, "Fill with"),
      el("div", { class: "fill-with-fields" },
        el("label", { for: "fill-with-profile" }, "Profile"), profileSelect,
        el("label", { for: "fill-with-resume" }, "Resume for this job"), resumeSelect),
      said);
    box.hidden = false;
    box.dataset.ready = "true";
  } catch {
    box.hidden = true; // no bridge: the review says what is wrong when Fill is pressed
  }
}

chrome.tabs.onActivated.addListener(() => { if (!params.get("tab")) void render(); });
chrome.tabs.onUpdated.addListener((_id, change) => { if (change.url) void render(); });
void render();
