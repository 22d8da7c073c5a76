"""Pages for requests refused before any route ran: a malformed form or query (FastAPI's
validation) and a state-changing request refused by the CSRF guard (app/web/csrf.py).

A browser (it asks for HTML) gets a page saying what happened and a way back; other clients
get JSON. The service's own refusals are answered by ``app.web.deps.service_refused``; bodies
over their cap by ``app.web.limits.too_large``; rate limits by ``app.web.ratelimits.too_many``.
"""
from __future__ import annotations

from fastapi import Request
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response

from app.web import csrf
from app.web.deps import local_path
from app.web.templating import Pages


async def refused_form(request: Request, exc: RequestValidationError) -> Response:
    """A malformed form or query (``seat=abc``, a missing field) as a page for a browser,
    which asked for HTML: the first problem in words and a way back. Other clients (the
    table's fetches, the JSON API) keep FastAPI's 422 JSON answer."""
    if "text/html" not in request.headers.get("accept", ""):
        return await request_validation_exception_handler(request, exc)
    first = (exc.errors() or [{}])[0]
    where = " ".join(str(x) for x in first.get("loc", ()) if x not in ("body", "query", "path"))
    text = f"{where}: {first.get('msg', 'not valid')}" if where else "The request was not valid."
    back = request.url.path.rsplit("/", 1)[0] if request.url.path.startswith("/m/") else "/"
    return Pages(request).message("Not possible", text, 400,
                                  back=back if local_path(back) else "/")


#: What a refused form's page says, by ``csrf.Refused.reason``.
CSRF_TEXTS = {
    "origin": ("This form was sent from another site, so Lair did not act on it. If you sent "
               "it from Lair, reload the page and try again."),
    "missing": ("This form had no security token, so Lair did not act on it. Reload the page "
                "and try again."),
    "token": ("This page is out of date (you may have changed your name or device in another "
              "tab since it was opened). Reload the page and try again."),
}


async def refused_request(request: Request, exc: csrf.Refused) -> Response:
    """A state-changing request refused by the CSRF guard (``app.web.csrf``), 403: for a
    browser (it asked for HTML) a page saying what to do, else JSON ``{"detail", "code"}`` with
    code ``csrf_origin``, ``csrf_missing`` (no token at all) or ``csrf_token`` (stale or
    forged)."""
    text = CSRF_TEXTS.get(exc.reason, CSRF_TEXTS["token"])
    if "text/html" not in request.headers.get("accept", ""):
        return JSONResponse({"detail": text, "code": f"csrf_{exc.reason}"}, status_code=403)
    path, back = request.url.path, "/"
    if path.startswith("/m/"):
        back = "/m/" + path.split("/")[2]
    elif path.startswith(("/rejoin/", "/admin")):  # the confirmation page / the admin pages
        back = path if path.startswith("/rejoin/") else "/admin"
    return Pages(request).message("Reload and try again", text, 403,
                                  back=back if local_path(back) else "/")
