"""A refusal as the API answers it: ``{"detail": <English>, "code", "params"}``.

``detail`` keeps the sentence the server always sent; ``code`` and ``params`` say the
same as data, so that the page words it in the player's language from its catalogs
without reading the English (``docs/api.md`` lists the codes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse


class Refused(HTTPException):
    """An HTTP error with a refusal code and its parameters."""

    def __init__(
        self,
        status: int,
        detail: str,
        code: str,
        params: Mapping[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(status, detail, headers=headers)
        self.code = code
        self.params = dict(params or {})


def body(detail: str, code: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
    return {"detail": detail, "code": code, "params": dict(params or {})}


async def handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Refused)
    return JSONResponse(
        status_code=exc.status_code,
        content=body(exc.detail, exc.code, exc.params),
        headers=exc.headers,
    )
