"""The API's OpenAPI document: `GET /api/openapi.json` from the live server (no sign-in) is a
valid OpenAPI 3.1 document (openapi-spec-validator, the reference validator), covers the whole
of /api with every path written in full, and includes the Crowd's part, whose own URL
(`/api/crowd/openapi.json`) keeps working."""

from __future__ import annotations

import requests
from openapi_spec_validator import validate
from openapi_spec_validator.validation import OpenAPIV31SpecValidator


def test_the_document_is_valid_openapi_3_1(server):
    response = requests.get(server.url("/api/openapi.json"), timeout=10)
    assert response.status_code == 200, response.text
    assert response.headers["Content-Type"].startswith("application/json")
    document = response.json()
    assert document["openapi"] == "3.1.0"
    validate(document, cls=OpenAPIV31SpecValidator)  # raises with the first error
    paths = document["paths"]
    assert all(path.startswith("/api/") for path in paths), sorted(paths)
    for path in ("/api/library/songs/{id}", "/api/radio/episodes", "/api/runner/next", "/api/session",
                 "/api/crowd/reports", "/api/crowd/locations/{id}", "/api/openapi.json"):
        assert path in paths, path
    assert "101" in paths["/api/runner/live"]["get"]["responses"]  # a WebSocket: GET answering 101


def test_the_crowd_document_is_still_served_and_valid(server):
    response = requests.get(server.url("/api/crowd/openapi.json"), timeout=10)
    assert response.status_code == 200, response.text
    crowd = response.json()
    validate(crowd, cls=OpenAPIV31SpecValidator)
    whole = requests.get(server.url("/api/openapi.json"), timeout=10).json()
    assert set(crowd["paths"]) <= set(whole["paths"])


def test_a_documented_path_with_another_method_answers_405(server):
    response = requests.request("TRACE", server.url("/api/crowd/reports"), timeout=10)
    assert response.status_code == 405, response.text
    assert response.headers["Allow"] == "POST"
    assert response.json()["error"]["code"] == "method_not_allowed"
