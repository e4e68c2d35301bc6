/// Band ↔ member links (`/api/library/members`, docs/graph.md "Band members"): part of
/// `/api/openapi.json`, checked against the router by OpenAPIRouteTests.
enum MembersOpenAPI {
    static let text = #"""
{
 "components": {
  "schemas": {
   "MemberLookup": {
    "type": "object",
    "required": ["state"],
    "description": "The artist's MusicBrainz lookup: none (never asked), pending (queued or running), off (serve --musicbrainz off and nothing cached), ok, not_found, ambiguous (several MusicBrainz artists of this name: candidates; none taken), failed (message; POST /api/library/members/lookup retries).",
    "properties": {
     "state": { "type": "string", "enum": ["none", "pending", "off", "ok", "not_found", "ambiguous", "failed"] },
     "date": { "type": "string", "format": "date-time" },
     "message": { "type": "string" },
     "candidates": { "type": "array", "items": { "type": "object", "required": ["id", "name", "disambiguation"],
      "properties": { "id": { "type": "string" }, "name": { "type": "string" }, "disambiguation": { "type": "string" }, "type": { "type": "string" } } } }
    }
   },
   "MemberLink": {
    "type": "object",
    "required": ["band", "band_name", "member", "member_name", "sources"],
    "properties": {
     "band": { "type": "integer" }, "band_name": { "type": "string" },
     "member": { "type": "integer" }, "member_name": { "type": "string" },
     "sources": { "type": "array", "items": { "type": "string", "enum": ["tags", "musicbrainz", "user"] } }
    }
   },
   "LinkedArtist": {
    "type": "object",
    "required": ["id", "name", "sources"],
    "properties": {
     "id": { "type": "integer" }, "name": { "type": "string" },
     "sources": { "type": "array", "items": { "type": "string", "enum": ["tags", "musicbrainz", "user"] } }
    }
   },
   "ArtistMembers": {
    "type": "object",
    "required": ["artist", "lookup", "members", "bands"],
    "properties": {
     "artist": { "type": "object", "required": ["id", "name"], "properties": { "id": { "type": "integer" }, "name": { "type": "string" } } },
     "lookup": { "$ref": "#/components/schemas/MemberLookup" },
     "members": { "type": "array", "items": { "$ref": "#/components/schemas/LinkedArtist" }, "description": "Artists that are members of this one." },
     "bands": { "type": "array", "items": { "$ref": "#/components/schemas/LinkedArtist" }, "description": "Bands this artist is a member of." }
    }
   }
  }
 },
 "paths": {
  "/api/library/members": {
   "get": {
    "operationId": "libraryMembers",
    "summary": "Band ↔ member links, merged from tags, MusicBrainz and users",
    "description": "Without artist: every link between artists of the library and the relations users added. With artist: that artist's members and bands and its MusicBrainz lookup state; asking queues the lookup when it never ran.",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [
     { "name": "artist", "in": "query", "required": false, "schema": { "type": "string" }, "description": "An artist id (or a Subsonic ar-ID)." }
    ],
    "responses": {
     "200": { "description": "OK", "content": { "application/json": { "schema": { "oneOf": [
      { "$ref": "#/components/schemas/ArtistMembers" },
      { "type": "object", "required": ["links", "user"], "properties": {
        "links": { "type": "array", "items": { "$ref": "#/components/schemas/MemberLink" } },
        "user": { "type": "array", "items": { "type": "object", "required": ["band", "member", "added"], "properties": {
          "band": { "type": "string" }, "member": { "type": "string" }, "band_id": { "type": "integer" },
          "member_id": { "type": "integer" }, "added": { "type": "string", "format": "date-time" } } } }
      } }
     ] } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   },
   "post": {
    "operationId": "libraryMembersAdd",
    "summary": "Add a band ↔ member relation",
    "description": "Body {\"band\": …, \"member\": …}: artist names (strings) or artist ids (numbers). Both must be artists of the library now; the relation is kept by name, so it survives rescans.",
    "security": [ { "basic": [] }, { "session": [] } ],
    "requestBody": { "required": true, "content": { "application/json": { "schema": {
     "type": "object", "required": ["band", "member"],
     "properties": { "band": { "type": ["string", "integer"] }, "member": { "type": ["string", "integer"] } }
    } } } },
    "responses": {
     "201": { "description": "Added; the link with all its sources.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/MemberLink" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" },
     "413": { "$ref": "#/components/responses/TooLarge" }
    }
   }
  },
  "/api/library/members/{band}/{member}": {
   "delete": {
    "operationId": "libraryMembersRemove",
    "summary": "Remove a relation a user added",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [
     { "name": "band", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } },
     { "name": "member", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } }
    ],
    "responses": {
     "204": { "description": "Removed." },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   }
  },
  "/api/library/members/lookup": {
   "post": {
    "operationId": "libraryMembersLookup",
    "summary": "Look an artist up on MusicBrainz again now (retry)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [
     { "name": "artist", "in": "query", "required": true, "schema": { "type": "string" }, "description": "An artist id (or a Subsonic ar-ID)." }
    ],
    "responses": {
     "200": { "description": "The artist's links and lookup state after the lookup.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ArtistMembers" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   }
  }
 }
}
"""#
}
