"""Match webhooks: a JSON POST when a seat's turn comes and when the match ends (issue 7).

The host sets an http(s) URL in the waiting room. The body works for Discord (``content``) and
Slack (``text``) incoming webhooks, plus structured fields::

    {"content": str, "text": str, "event": "turn" | "finished",
     "match": {"id", "game", "title", "url"}, "seats": [{"seat", "name"}],
     "result": {"ranks": [[{"seat", "name"}]], "reason": str | None}}   # "finished" only

Turn calls: turn-based matches only, and only for human seats newly prompted (the set of
prompted seats grew), so a simultaneous frame or a chain of moves by one seat calls once. The
payload holds only public facts (names, the match page URL, the final ranks): never a token or
hidden information. Calls run off the request path (background tasks, awaited by
``service.drain``), with a short timeout and retries; a failure is logged, never raised. Addresses
that are not public (loopback, LAN) are refused unless ``allow_private`` (tests, a LAN party).

The name is resolved once per call and the connection goes to the address that passed that
check (the URL's host replaced by it, ``Host`` and TLS SNI/certificate name kept as the URL's):
a name that answers with a public address for the check and a private one a moment later (DNS
rebinding) cannot steer the call into the host's network.
"""
from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from typing import Any
from urllib.parse import urlsplit

import httpx
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

from app.background import spawn
from app.matches import pace
from app.matches.changes import Change, Finished, Moved, Started
from app.matches.service import MatchService, ServiceError, Snapshot
from app.matches.views import seat_label
from app.telemetry import events as ops_events
from engines import registry

log = logging.getLogger("lair.webhooks")


class Webhooks:
    """Sends the webhook calls of every match of this process's service.

    ``public_url``: the site's address for links (``http://host:port``); ``timeout``: seconds
    per attempt; ``attempts``: tries on a network error, a 5xx or a 429; ``backoff``: seconds
    before the 2nd try (doubled each time).
    """

    def __init__(self, service: MatchService, public_url: str, *, allow_private: bool = False,
                 timeout: float = 5.0, attempts: int = 3, backoff: float = 0.5,
                 transport: httpx.AsyncBaseTransport | None = None):
        self.transport = transport  # tests: an httpx.MockTransport
        self.service = service
        self.public_url = public_url.rstrip("/")
        self.allow_private = allow_private
        self.timeout = timeout
        self.attempts = attempts
        self.backoff = backoff
        service.subscribe(self.on_change)

    # ----- what to send ----------------------------------------------------------------------
    async def on_change(self, match_id: str, change: Change, snap: Snapshot | None = None
                        ) -> None:
        """Service listener: a committed move, a start or an end by resignation."""
        if not isinstance(change, (Moved, Started, Finished)):
            return
        if snap is None:
            try:
                snap = await self.service.current(match_id)
            except ServiceError:
                return
        m = snap.match
        settings = pace.settings_of(m.settings)
        if settings.webhook is None:
            return
        if m.status == "finished":
            self._send(m.id, "finished", str(settings.webhook), self.finished_payload(snap))
        elif m.status == "active" and settings.pace == "turn":
            new = [s for s in (m.clocks or {}).get("new", [])
                   if 0 <= s < len(snap.seats) and snap.seats[s].user_id is not None]
            if new:
                self._send(m.id, "turn", str(settings.webhook), self.turn_payload(snap, new))

    def _match(self, snap: Snapshot) -> dict[str, Any]:
        m = snap.match
        title = registry.get(m.game).title if m.game in registry.ENGINES else m.game
        return {"id": m.id, "game": m.game, "title": title,
                "url": f"{self.public_url}/m/{m.id}"}

    @staticmethod
    def _name(snap: Snapshot, seat: int) -> str:
        # the seat list's naming ("Fritz (greedy bot)" while a bot plays for Fritz)
        return seat_label(snap.seats[seat])

    def turn_payload(self, snap: Snapshot, seats: list[int]) -> dict[str, Any]:
        """The body announcing that ``seats`` must act."""
        match = self._match(snap)
        names = [self._name(snap, s) for s in seats]
        who = " and ".join(names)
        text = f"Your turn in {match['title']}, {who}: {match['url']}"
        return {"content": text, "text": text, "event": "turn", "match": match,
                "seats": [{"seat": s, "name": n} for s, n in zip(seats, names)]}

    def finished_payload(self, snap: Snapshot) -> dict[str, Any]:
        """The body announcing the final ranks."""
        match = self._match(snap)
        result = snap.match.result or {}
        ranks = [[{"seat": s, "name": self._name(snap, s)} for s in
                  (group if isinstance(group, list) else [group])]
                 for group in result.get("ranks") or []]
        order = ", ".join(" & ".join(p["name"] for p in group) for group in ranks)
        text = f"{match['title']} is over: {order}. {match['url']}"
        if result.get("reason"):
            text = f"{match['title']} is over ({result['reason']}) {order}. {match['url']}"
        return {"content": text, "text": text, "event": "finished", "match": match,
                "seats": [{"seat": i.seat, "name": self._name(snap, i.seat)} for i in snap.seats],
                "result": {"ranks": ranks, "reason": result.get("reason")}}

    # ----- sending -----------------------------------------------------------------------------
    def _send(self, match_id: str, kind: str, url: str, payload: dict) -> None:
        # kept in the service's tasks: drained at shutdown and by the tests
        spawn(self.post(match_id, kind, url, payload), f"webhook of {match_id}",
              self.service.tasks)

    async def _resolve(self, url: str) -> tuple[str | None, bool]:
        """``(address, public)``: the first address the URL's host resolves to (None when it
        does not resolve) and whether every address it resolves to is public (or private ones
        are allowed). One lookup: the call connects to this very address."""
        parts = urlsplit(url)
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(
                parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80),
                type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            return None, False
        addresses = [ipaddress.ip_address(str(i[4][0]).split("%")[0]) for i in infos]
        if not addresses:
            return None, False
        return str(addresses[0]), self.allow_private or all(a.is_global for a in addresses)

    async def post(self, match_id: str, kind: str, url: str, payload: dict) -> bool:
        """POST ``payload`` to ``url`` with retries. Returns True on a 2xx; logs otherwise.

        Retried (tenacity): network errors, 5xx and 429, waiting ``backoff`` seconds doubled per
        try, or the receiver's ``Retry-After`` (at most 10 s). Another status is final.
        """
        address, public = await self._resolve(url)
        if address is None:  # no such name (now): nothing to call
            ops_events.webhook(match_id, kind, "failed", None, 0)
            return False
        if not public:
            ops_events.webhook(match_id, kind, "refused")
            return False
        given = httpx.URL(url)
        pinned = given.copy_with(host=address)
        headers = {"Host": given.netloc.decode("ascii")}
        # TLS: the certificate must still name the URL's host (SNI = server_hostname).
        extensions = ({"sni_hostname": given.raw_host.decode("ascii")} if given.scheme == "https"
                      else {})
        outcome: dict[str, Any] = {"status": None, "attempt": 0}

        def wait(state: RetryCallState) -> float:
            exc = state.outcome.exception() if state.outcome else None
            after = exc.retry_after if isinstance(exc, _Retry) else None
            return min(after if after is not None
                       else self.backoff * 2 ** (state.attempt_number - 1), 10.0)

        async with httpx.AsyncClient(timeout=self.timeout, follow_redirects=False,
                                     headers={"User-Agent": "Lair webhook"},
                                     transport=self.transport) as client:
            try:
                async for attempt in AsyncRetrying(
                        stop=stop_after_attempt(self.attempts), wait=wait, reraise=True,
                        retry=retry_if_exception_type((_Retry, httpx.HTTPError))):
                    with attempt:
                        outcome.update(status=None, attempt=attempt.retry_state.attempt_number)
                        r = await client.post(pinned, json=payload, headers=headers,
                                              extensions=extensions)
                        outcome["status"] = r.status_code
                        if r.status_code == 429 or r.status_code >= 500:
                            raise _Retry(_seconds(r.headers.get("retry-after")))
            except (_Retry, httpx.HTTPError):
                pass
        status = outcome["status"]
        if status is not None and 200 <= status < 300:
            ops_events.webhook(match_id, kind, "sent", status, outcome["attempt"])
            return True
        ops_events.webhook(match_id, kind, "failed", status, outcome["attempt"])
        return False


class _Retry(Exception):
    """A response worth another try (5xx, 429); ``retry_after`` in seconds, if the receiver
    said."""

    def __init__(self, retry_after: float | None):
        super().__init__(retry_after)
        self.retry_after = retry_after


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
