"""The API's operations, read from its OpenAPI document, so that a test over "every
endpoint" covers an endpoint added later without being edited."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from server.helpers import Json, TestClient

UNSAFE = {"post", "put", "patch", "delete"}
#: A sample value for each body field of the API: an operation whose body has a field
#: missing here fails the tests that use it, so that someone chooses one.
SAMPLES: dict[str, Any] = {
    "action": "pass",
    "version": 1,
    "name": "Ann",
    "code": "ABCD-EFGH-JKMN",
    "rules": {},
    "level": "standard",
    "invitation": "AAAAAAAAAAAAAAAAAAAAAA",
    "member": "0" * 32,
    "seconds": None,
    "hints": False,
    "message": "hello",
}


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    body_schema: Json | None

    @property
    def unsafe(self) -> bool:
        return self.method in UNSAFE

    @property
    def params(self) -> set[str]:
        return set(re.findall(r"{(\w+)}", self.path))

    def url(self, **values: object) -> str:
        return re.sub(r"{(\w+)}", lambda m: str(values[m.group(1)]), self.path)

    def body(self) -> Json | None:
        if self.body_schema is None:
            return None
        return {name: SAMPLES[name] for name in self.body_schema.get("properties", {})}

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.path}"


def operations(client: TestClient) -> list[Operation]:
    document: Json = client.get("/api/v1/openapi.json").json()
    schemas: Json = document["components"]["schemas"]
    found = []
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            body = None
            if "requestBody" in operation:
                schema = operation["requestBody"]["content"]["application/json"]["schema"]
                # An optional body is anyOf its model and null.
                ref = next(s["$ref"] for s in schema.get("anyOf", [schema]) if "$ref" in s)
                body = schemas[ref.rsplit("/", 1)[-1]]
            found.append(Operation(method, path, body))
    return found


def send(client: TestClient, op: Operation, url: str, **kwargs: Any) -> Any:
    body = op.body()
    if body is not None:
        kwargs.setdefault("json", body)
    return client.request(op.method.upper(), url, **kwargs)
