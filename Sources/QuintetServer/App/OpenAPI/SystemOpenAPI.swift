/// The part of `/api/openapi.json` that belongs to no single system: the document's `info`,
/// the sign-in schemes, the shared error answers, `/api/version`, `/api/session` and the
/// document itself. Keys follow docs/architecture.md, "JSON convention".
enum SystemOpenAPI {
    static let text = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Quintet API",
    "version": "1.0.0",
    "description": "Every JSON answer of /api: snake_case keys, ISO 8601 UTC dates, errors as {\"error\": {\"code\", \"message\", \"field\"?}}. Routes that need a user accept HTTP Basic auth with a Quintet user or the session cookie of POST /api/session; a request with Basic credentials is judged by those alone. A path id is a positive 64-bit integer: anything else is a 400, an id that names nothing a 404. A documented path asked with a method it does not accept answers 405 with Allow. Subsonic (/rest), Icecast (/live, /admin, /status-json.xsl) and the podcast files (/radio) speak their own protocols and are described in docs/."
  },
  "components": {
    "securitySchemes": {
      "basic": { "type": "http", "scheme": "basic", "description": "A Quintet user's name and password." },
      "session": { "type": "apiKey", "in": "cookie", "name": "quintet_session", "description": "The web pages' session, from POST /api/session." }
    },
    "schemas": {
      "User": {
        "type": "object",
        "required": ["id", "name", "role"],
        "properties": {
          "id": { "type": "integer" },
          "name": { "type": "string" },
          "role": { "type": "string", "enum": ["admin", "user"] }
        }
      }
    },
    "responses": {
      "Unauthorized": {
        "description": "No user signed in (or wrong credentials): sign in with HTTP Basic auth or POST /api/session. WWW-Authenticate: Basic unless the request sends X-Requested-With: quintet.",
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
      },
      "InvalidInput": {
        "description": "A parameter or the body is malformed or out of range (code invalid_input or invalid_json; field names a path parameter at fault).",
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
      },
      "NotFound": {
        "description": "No such item (a well-formed id that names nothing), or not visible to this user.",
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
      },
      "TooLarge": {
        "description": "The body is over the server's limit.",
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
      },
      "Unreadable": {
        "description": "The uploaded file cannot be read (unreadable_audio, unreadable_tags).",
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
      }
    }
  },
  "paths": {
    "/api/version": {
      "get": {
        "operationId": "version",
        "summary": "The server's name, version and systems",
        "responses": {
          "200": {
            "description": "The version.",
            "content": { "application/json": { "schema": {
              "type": "object",
              "required": ["name", "version", "systems"],
              "properties": {
                "name": { "type": "string" },
                "version": { "type": "string" },
                "systems": { "type": "array", "items": { "type": "string" } }
              }
            } } }
          }
        }
      }
    },
    "/api/openapi.json": {
      "get": {
        "operationId": "openapiDocument",
        "summary": "This document (no sign-in)",
        "responses": { "200": { "description": "The OpenAPI 3.1 document of /api.", "content": { "application/json": { "schema": { "type": "object" } } } } }
      }
    },
    "/api/session": {
      "post": {
        "operationId": "signIn",
        "summary": "Sign in: sets the quintet_session cookie (HttpOnly, SameSite=Strict, 30 days)",
        "requestBody": {
          "required": true,
          "content": { "application/json": { "schema": {
            "type": "object",
            "required": ["name", "password"],
            "properties": { "name": { "type": "string" }, "password": { "type": "string" } }
          } } }
        },
        "responses": {
          "200": {
            "description": "Signed in.",
            "content": { "application/json": { "schema": {
              "type": "object", "required": ["user"], "properties": { "user": { "$ref": "#/components/schemas/User" } }
            } } }
          },
          "400": { "$ref": "#/components/responses/InvalidInput" },
          "401": { "description": "Wrong name or password (invalid_credentials).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
        }
      },
      "get": {
        "operationId": "session",
        "summary": "Who is signed in: the user, or null (a 200 either way)",
        "security": [{}, { "basic": [] }, { "session": [] }],
        "responses": {
          "200": {
            "description": "The user, or null when nobody is signed in.",
            "content": { "application/json": { "schema": {
              "type": "object", "required": ["user"],
              "properties": { "user": { "oneOf": [{ "$ref": "#/components/schemas/User" }, { "type": "null" }] } }
            } } }
          }
        }
      },
      "delete": {
        "operationId": "signOut",
        "summary": "Sign out: the session ends and the cookie is cleared",
        "responses": { "204": { "description": "Signed out (also when nobody was signed in)." } }
      }
    }
  }
}
"""#
}
