"""The web layer: HTTP pages, form posts and JSON routes over the match service.

- ``deps``: what routes are given (service, settings, the visitor, the match they may see, the
  page templates) and the one answer to a refused service request.
- ``templating``: the Jinja2 environment and the message/name pages; ``options``: a game's
  options as form fields.
- Routes: ``lobby`` (``/``, names, new matches), ``match`` (the waiting room and table pages,
  invite/spectator/rejoin links), ``match_forms`` (the form posts of a match), ``replay``,
  ``records`` (finished matches, imported records), ``rules``, ``api`` (JSON).
- Guards: ``csrf`` (cross-site forgery), ``security`` (headers, the development secret),
  ``limits`` (request body caps), ``ratelimits`` (per-address limits), ``refusals`` (the pages
  of requests refused before a route ran).

The websocket lives in ``app.realtime``; the operator's pages in ``app.ops``.
"""
