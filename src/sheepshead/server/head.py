"""HEAD answered wherever GET is, by one middleware rather than route by route.

FastAPI's ``@router.get`` registers GET alone, so a HEAD (a link checker, a monitor,
``curl -I``) met 405 on every page and API read. ``HeadAsGet`` serves a HEAD as the
GET it stands for, then sends its status and headers (``Content-Length`` included)
without the body. Being a GET to every route, it is a read: it makes no identity and
changes nothing.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """Routes a HEAD as a GET and drops the body of its answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        # The scope itself, not a copy: the routing it records (the route's template)
        # stays visible to the request log outside, which is told it was a HEAD.
        scope["method"] = "GET"
        try:
            await self.app(scope, receive, headers_only)
        finally:
            scope["method"] = "HEAD"
