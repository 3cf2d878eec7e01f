"""Another site's frame is filled only when it is the application.

A career page may embed its applicant-tracking system's form from the vendor's site; it may also
carry ad, chat and analytics frames from anywhere. A frame of another site than the page is filled
when its address is a known applicant-tracking system's (`hosts` in rules/ats/), or when the page's
own site holds no application and the frame holds it, or holds the person's focus (the frame they
clicked in) while no other site's frame holds an application. Every other frame of another site is
left, the focused one too when the application is elsewhere: a chat box the person typed in last
is not the application. And when the application is embedded from another site, the page around
it (a newsletter or job-alerts box, a search) is not part of it.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from bridge.forms import FillRequest
from bridge.rules import adapters as ad
from bridge.rules.memo import text_cache

if TYPE_CHECKING:
    import tldextract


@cache
def _extract() -> tldextract.TLDExtract:
    # Imported on first use: it brings an HTTP client along (a third of the engine's imports),
    # and a page without frames never needs it.
    import tldextract

    # The public-suffix snapshot inside the package: nothing is fetched, nothing is cached on disk.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


@text_cache()
def site_of(url: str) -> str:
    """The registrable domain a URL belongs to ("acme.co.uk"), its host for addresses and
    names without a public suffix ("127.0.0.1", "localhost"), "" for about:blank and the like."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return ""
    found = _extract()(parts.hostname)
    return found.top_domain_under_public_suffix or parts.hostname


def _is_ats(url: str) -> bool:
    return any(h.search(url) for adapter in ad.adapters() for h in adapter.hosts)


def _split_by_site(request: FillRequest) -> tuple[dict[str, str], set[str]] | None:
    """The frames' URLs by frame name, and the names of those from another site than the page's;
    None when the page has no frame besides itself or no site of its own."""
    urls = {frame.frame: frame.url for frame in request.frames}
    if not set(urls) - {"0"}:
        return None
    home = site_of(urls.get("0") or request.url)
    if not home:
        return None
    foreign = {
        name for name, url in urls.items() if name != "0" and site_of(url) not in ("", home)
    }
    return urls, foreign


def foreign_frames(request: FillRequest, application_frames: set[str]) -> dict[str, str]:
    """Frames to leave, by frame name, each with the host it comes from.

    `application_frames` are the frames holding fields that only an application asks (a resume,
    work authorization, sponsorship, …)."""
    split = _split_by_site(request)
    if split is None:
        return {}  # the page alone: no frame of another site to leave
    urls, foreign = split
    focused = {frame.frame for frame in request.frames if frame.focused}
    home_has_application = any(name not in foreign for name in application_frames)
    embedded = foreign & application_frames
    out: dict[str, str] = {}
    for name, url in urls.items():
        if name not in foreign or _is_ats(url):
            continue
        if not home_has_application and (
            name in embedded or (name in focused and not embedded)
        ):
            continue  # the page embeds its application from another site
        out[name] = urlsplit(url).netloc
    return out


def beside_embedded(request: FillRequest, application_frames: set[str]) -> dict[str, str]:
    """Frames of the page's own site, each with the host of the application embedded beside
    them from another site, when the page's own site holds no application: what they ask is not
    part of it. Empty when the page itself holds the application, or none is found."""
    if not application_frames or "0" in application_frames:
        return {}  # none found, or the page itself holds it: no site needs telling apart
    split = _split_by_site(request)
    if split is None:
        return {}
    urls, foreign = split
    own = set(urls) - foreign
    if application_frames & own:
        return {}
    embed = urlsplit(urls.get(min(application_frames), "")).netloc
    return dict.fromkeys(own, embed) if embed else {}
