// The console's pages: one shown at a time, chosen by the address's #fragment, so the browser's
// back button and a bookmark both work. A page's `show` loads its data each time it is opened.

/** @typedef {{show: () => Promise<void>}} Page */

const DEFAULT_PAGE = "profile-page";

/** @param {Record<string, Page>} pages keyed by the page element's id */
export function startNav(pages) {
  const links = /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll("nav.pages a[data-page]"));
  let first = true;

  async function open() {
    const wanted = location.hash.slice(1);
    // An anchor inside the profile page (#questions) opens that page.
    const id = wanted in pages ? wanted : DEFAULT_PAGE;
    for (const page of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("main > .page"))) {
      page.hidden = page.id !== id;
    }
    for (const link of links) {
      if (link.dataset.page === id) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    const page = /** @type {HTMLElement} */ (document.getElementById(id));
    document.title = `${page.dataset.title} · Relay console`;
    await pages[id].show();
    if (!first) {
      // Keyboard and screen-reader users land on the page they opened.
      const heading = /** @type {HTMLElement|null} */ (page.querySelector("h1, h2"));
      heading?.setAttribute("tabindex", "-1");
      heading?.focus();
    }
    first = false;
    document.body.dataset.page = id;
  }

  addEventListener("hashchange", () => void open());
  return open();
}
