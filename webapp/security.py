"""Refuse cross-site form posts and send the security headers on every response."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, abort, request

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)


def init_app(app: Flask) -> None:
    app.before_request(refuse_cross_site_requests)
    app.after_request(add_security_headers)


def refuse_cross_site_requests():
    """Refuse a state-changing request that a browser says came from another site.

    Browsers mark every request with Sec-Fetch-Site, and older ones still send Origin on a POST;
    a request without either did not come from a browser page, so it cannot be forged by one.
    This works without JavaScript and without a token in every form (the approach of Go's
    net/http CrossOriginProtection); the SameSite=Lax cookie is a second line of defence.
    """
    if request.method in SAFE_METHODS:
        return None
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        if site in ("same-origin", "none"):
            return None
        abort(403, description="This request came from another site, so it was refused.")
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        abort(403, description="This request came from another site, so it was refused.")
    return None


SECURITY_HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
)


def add_security_headers(response):
    # No view sets any of these itself, so they are added in one go rather than checked one by one.
    response.headers.extend(SECURITY_HEADERS)
    if request.is_secure:
        response.headers["Strict-Transport-Security"] = "max-age=31536000"
    return response
