import Foundation

/// The OpenAPI 3.1 description of the Crowd API, served at `/api/crowd/openapi.json` and merged
/// into the whole API's document at `/api/openapi.json` (``APIDocument``). A test checks that
/// every route and field the server accepts is described here.
public enum CrowdOpenAPI {
    /// The document's bytes (UTF-8 JSON).
    public static let document: [UInt8] = Array(text.utf8)

    static let text = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Quintet Crowd API",
    "version": "1.0.0",
    "description": "Anonymous positions in, groups of people nearby out. A device reports its position (and optionally age, sex and a short comment) and gets back the nearby locations: clusters of devices within 10 m of each other, with head-counts, average age, men and women. No registration: the device token is turned into a keyed hash (HMAC-SHA-256 under a per-server secret) at the door and never stored. A location is shown only with at least the server's minimum group (k, default 3). Distances are haversine on a sphere of radius 6,371,008.8 m. Every out-of-range or malformed field is answered 400 with the field named; a 400 changes nothing. With Accept: application/geo+json the answers are GeoJSON (RFC 7946, coordinates [lon, lat])."
  },
  "paths": {
    "/api/crowd/reports": {
      "post": {
        "operationId": "report",
        "summary": "Report a position and search around it in one call",
        "description": "Within 10 m (inclusive) of its current location's centre a device moves nowhere (its age and sex are replaced and its time refreshed). Otherwise it leaves that location (an emptied location is deleted at once, with its comments) and joins the nearest location within 10 m (ties: lowest id) or founds one at its position. The comment, if any, goes to the location the device is in after the move. Reports are rate-limited per device and per client address (the server's --crowd-rate-limit, reports per minute).",
        "requestBody": {
          "required": true,
          "description": "At most 16384 bytes (413 beyond). Unknown fields are ignored; null counts as absent (the optional fields accept it). min must not be greater than max (400 naming min), a rule the schema cannot state.",
          "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Report" } } }
        },
        "responses": {
          "200": {
            "description": "The device's own location and the search around it.",
            "content": {
              "application/json": { "schema": { "$ref": "#/components/schemas/ReportResult" } },
              "application/geo+json": { "schema": { "$ref": "#/components/schemas/ReportFeatureCollection" } }
            }
          },
          "400": { "$ref": "#/components/responses/BadRequest" },
          "413": { "$ref": "#/components/responses/TooLarge" },
          "429": { "$ref": "#/components/responses/RateLimited" }
        }
      }
    },
    "/api/crowd/locations": {
      "get": {
        "operationId": "search",
        "summary": "Locations within a radius, ordered by distance then id",
        "description": "Lists the locations whose centre lies within radius metres (inclusive) with max(min, k) <= people <= max; min greater than max is refused (400 naming min), a rule the schema cannot state. When more than limit match, the most crowded are kept (ties: nearer first, then lower id), still listed by distance then id, and truncated is true. Searches are not rate-limited.",
        "parameters": [
          { "name": "lat", "in": "query", "required": true, "schema": { "$ref": "#/components/schemas/Latitude" } },
          { "name": "lon", "in": "query", "required": true, "schema": { "$ref": "#/components/schemas/Longitude" } },
          { "name": "radius", "in": "query", "required": false, "schema": { "$ref": "#/components/schemas/Radius" } },
          { "name": "min", "in": "query", "required": false, "schema": { "$ref": "#/components/schemas/MinPeople" } },
          { "name": "max", "in": "query", "required": false, "schema": { "$ref": "#/components/schemas/MaxPeople" } },
          { "name": "limit", "in": "query", "required": false, "schema": { "$ref": "#/components/schemas/Limit" } }
        ],
        "responses": {
          "200": {
            "description": "The locations found.",
            "content": {
              "application/json": { "schema": { "$ref": "#/components/schemas/SearchResult" } },
              "application/geo+json": { "schema": { "$ref": "#/components/schemas/SearchFeatureCollection" } }
            }
          },
          "400": { "$ref": "#/components/responses/BadRequest" }
        }
      }
    },
    "/api/crowd/locations/{id}": {
      "get": {
        "operationId": "location",
        "summary": "One location's statistics and its latest comments",
        "parameters": [
          { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1, "maximum": 9223372036854775807 }, "description": "A location id; anything but an integer from 1 to 2^63 - 1 is a 400 naming id." }
        ],
        "responses": {
          "200": {
            "description": "The location; comments newest first, at most 10, without author.",
            "content": {
              "application/json": { "schema": { "$ref": "#/components/schemas/LocationDetail" } },
              "application/geo+json": { "schema": { "$ref": "#/components/schemas/LocationFeature" } }
            }
          },
          "400": { "$ref": "#/components/responses/BadRequest" },
          "404": { "description": "No such location now, or fewer people than the server's minimum group.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
        }
      }
    },
    "/api/crowd/place": {
      "get": {
        "operationId": "place",
        "summary": "A short place name for a point, from the server's reverse geocoder",
        "description": "Off unless the server runs with --crowd-geocoder URL (a Nominatim-compatible reverse geocoder); then 404 geocoder_off. The server rounds the coordinates to 0.001 degree and asks the geocoder itself (GET URL/reverse?format=jsonv2&lat=&lon=&zoom=17), with nothing of the request but the rounded coordinates and the language: no token, cookie or client address. At most one upstream request a second across the server (their starts 1.1 s apart): a lookup waits up to 3 s for its turn, later ones get 503 geocoder_busy with Retry-After. Names are cached in memory for 24 h, places without a name for 1 h.",
        "parameters": [
          { "name": "lat", "in": "query", "required": true, "schema": { "$ref": "#/components/schemas/Latitude" } },
          { "name": "lon", "in": "query", "required": true, "schema": { "$ref": "#/components/schemas/Longitude" } },
          { "name": "lang", "in": "query", "required": false, "schema": { "type": "string", "pattern": "^[a-z]{2,3}$" }, "description": "The language of the name (the geocoder's accept-language); the geocoder's default without it." }
        ],
        "responses": {
          "200": {
            "description": "The place's short name: neighbourhood or street, then the town.",
            "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Place" } } }
          },
          "400": { "$ref": "#/components/responses/BadRequest" },
          "404": { "description": "geocoder_off: place names are off on this server; no_place: the geocoder knows no place there.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
          "503": {
            "description": "geocoder_busy (with Retry-After): the one-request-a-second budget is taken; geocoder_unavailable: the geocoder did not answer usefully.",
            "headers": { "Retry-After": { "description": "Seconds to wait (geocoder_busy only).", "schema": { "type": "integer" } } },
            "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
          }
        }
      }
    },
    "/api/crowd/openapi.json": {
      "get": {
        "operationId": "openapi",
        "summary": "This document",
        "responses": { "200": { "description": "The OpenAPI 3.1 document.", "content": { "application/json": { "schema": { "type": "object" } } } } }
      }
    }
  },
  "components": {
    "schemas": {
      "Latitude": { "type": "number", "minimum": -90, "maximum": 90, "description": "Degrees (WGS 84); finite." },
      "Longitude": { "type": "number", "minimum": -180, "maximum": 180, "description": "Degrees (WGS 84); finite." },
      "Radius": { "type": "integer", "minimum": 15, "maximum": 2000, "default": 200, "description": "Search radius in metres (an integral number)." },
      "MinPeople": { "type": "integer", "minimum": 1, "maximum": 100, "default": 1, "description": "Fewest people a listed location has; must not exceed max. The server's minimum group k applies on top." },
      "MaxPeople": { "type": "integer", "minimum": 1, "maximum": 100, "default": 20, "description": "Most people a listed location has." },
      "Limit": { "type": "integer", "minimum": 1, "maximum": 20000, "default": 500, "description": "Most locations listed; the most crowded are kept." },
      "Report": {
        "type": "object",
        "required": ["device", "lat", "lon"],
        "properties": {
          "device": { "type": "string", "minLength": 1, "maxLength": 64, "description": "The device's token (1 to 64 Unicode scalars), random and kept by the device. Never stored: the server keys it with HMAC-SHA-256." },
          "lat": { "$ref": "#/components/schemas/Latitude" },
          "lon": { "$ref": "#/components/schemas/Longitude" },
          "age": { "type": ["integer", "null"], "minimum": 0, "maximum": 150, "description": "Optional; a report without it (or with null) makes the device's age unknown again." },
          "sex": { "type": ["string", "null"], "enum": ["m", "f", null], "description": "Optional; a report without it (or with null) makes the device's sex unknown again." },
          "comment": { "type": ["string", "null"], "minLength": 1, "maxLength": 200, "pattern": "^[^<>\\u0000-\\u001f\\u007f-\\u009f]*(?![\\s\\S])", "description": "Optional plain text (1 to 200 Unicode scalars; no control characters, no < or >), attached to the device's location after this report; null: no comment." },
          "radius": { "anyOf": [{ "$ref": "#/components/schemas/Radius" }, { "type": "null" }], "description": "null: the default." },
          "min": { "anyOf": [{ "$ref": "#/components/schemas/MinPeople" }, { "type": "null" }], "description": "null: the default." },
          "max": { "anyOf": [{ "$ref": "#/components/schemas/MaxPeople" }, { "type": "null" }], "description": "null: the default." },
          "limit": { "anyOf": [{ "$ref": "#/components/schemas/Limit" }, { "type": "null" }], "description": "null: the default." }
        }
      },
      "OwnLocation": {
        "type": "object",
        "required": ["id", "lat", "lon", "people"],
        "properties": {
          "id": { "type": "integer" },
          "lat": { "type": "number" },
          "lon": { "type": "number" },
          "people": { "type": ["integer", "null"], "description": "Members now, the device included; null below the server's minimum group." }
        }
      },
      "Location": {
        "type": "object",
        "required": ["id", "lat", "lon", "people", "avg_age", "men", "women", "distance_m"],
        "properties": {
          "id": { "type": "integer", "description": "Never reused." },
          "lat": { "type": "number", "description": "The centre: where the first member stood; it never moves." },
          "lon": { "type": "number" },
          "people": { "type": "integer" },
          "avg_age": { "type": ["number", "null"], "description": "Mean age of the members who gave one; null when nobody did." },
          "men": { "type": "integer" },
          "women": { "type": "integer" },
          "distance_m": { "type": "number", "description": "Haversine distance from the search point, metres." }
        }
      },
      "SearchResult": {
        "type": "object",
        "required": ["locations", "truncated"],
        "properties": {
          "locations": { "type": "array", "items": { "$ref": "#/components/schemas/Location" } },
          "truncated": { "type": "boolean", "description": "More locations matched than limit." }
        }
      },
      "ReportResult": {
        "type": "object",
        "required": ["location", "locations", "truncated"],
        "properties": {
          "location": { "$ref": "#/components/schemas/OwnLocation" },
          "locations": { "type": "array", "items": { "$ref": "#/components/schemas/Location" } },
          "truncated": { "type": "boolean" }
        }
      },
      "Comment": {
        "type": "object",
        "required": ["text", "time"],
        "properties": {
          "text": { "type": "string" },
          "time": { "type": "string", "format": "date-time" }
        }
      },
      "LocationDetail": {
        "type": "object",
        "required": ["id", "lat", "lon", "people", "avg_age", "men", "women", "comments"],
        "properties": {
          "id": { "type": "integer" },
          "lat": { "type": "number" },
          "lon": { "type": "number" },
          "people": { "type": "integer" },
          "avg_age": { "type": ["number", "null"] },
          "men": { "type": "integer" },
          "women": { "type": "integer" },
          "comments": { "type": "array", "maxItems": 10, "items": { "$ref": "#/components/schemas/Comment" }, "description": "Newest first." }
        }
      },
      "Point": {
        "type": "object",
        "required": ["type", "coordinates"],
        "properties": {
          "type": { "const": "Point" },
          "coordinates": { "type": "array", "prefixItems": [{ "type": "number" }, { "type": "number" }], "minItems": 2, "maxItems": 2, "description": "[lon, lat]" }
        }
      },
      "LocationFeature": {
        "type": "object",
        "required": ["type", "id", "geometry", "properties"],
        "properties": {
          "type": { "const": "Feature" },
          "id": { "type": "integer" },
          "geometry": { "$ref": "#/components/schemas/Point" },
          "properties": { "oneOf": [{ "$ref": "#/components/schemas/Location" }, { "$ref": "#/components/schemas/LocationDetail" }] }
        }
      },
      "SearchFeatureCollection": {
        "type": "object",
        "required": ["type", "features", "truncated"],
        "properties": {
          "type": { "const": "FeatureCollection" },
          "features": { "type": "array", "items": { "$ref": "#/components/schemas/LocationFeature" } },
          "truncated": { "type": "boolean" }
        }
      },
      "ReportFeatureCollection": {
        "type": "object",
        "required": ["type", "features", "truncated", "location"],
        "properties": {
          "type": { "const": "FeatureCollection" },
          "features": { "type": "array", "items": { "$ref": "#/components/schemas/LocationFeature" } },
          "truncated": { "type": "boolean" },
          "location": { "$ref": "#/components/schemas/OwnLocation" }
        }
      },
      "Place": {
        "type": "object",
        "required": ["name", "source"],
        "properties": {
          "name": { "type": "string", "description": "A short name, e.g. Brera, Milano." },
          "source": { "type": "string", "description": "The geocoder's host name." },
          "licence": { "type": "string", "description": "The data's licence as the geocoder states it (Nominatim's licence field); absent when it states none." }
        }
      },
      "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
          "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
              "code": { "type": "string", "description": "invalid_input (400), content_too_large (413), rate_limited (429), not_found (404), geocoder_off and no_place (404), geocoder_busy and geocoder_unavailable (503)." },
              "message": { "type": "string" },
              "field": { "type": "string", "description": "The request field at fault: device, lat, lon, age, sex, comment, radius, min, max, limit, id, lang, or body (not a JSON object, or too large)." }
            }
          }
        }
      }
    },
    "responses": {
      "BadRequest": {
        "description": "A field is missing, malformed, not an integer where one is needed, or out of range; error.field names it. Nothing changed.",
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
      },
      "TooLarge": {
        "description": "The body is over 16384 bytes.",
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
      },
      "RateLimited": {
        "description": "This device or this client address sent its reports for the current minute.",
        "headers": { "Retry-After": { "description": "Seconds until the next window.", "schema": { "type": "integer" } } },
        "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
      }
    }
  }
}
"""#
}
