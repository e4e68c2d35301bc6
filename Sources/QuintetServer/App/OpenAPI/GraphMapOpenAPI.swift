/// The whole-library map's part of `/api/openapi.json` (docs/graph.md, "Whole-library map").
enum GraphMapOpenAPI {
    static let text = #"""
{
 "paths": {
  "/api/library/graph/map": {
   "get": {
    "operationId": "libraryGraphMap",
    "summary": "The whole-library map: the cached force layout as one binary block",
    "description": "Little-endian: magic QGM1, UInt32 flags (bit 0 synthetic, bit 1 incremental), UInt32 node count N, UInt32 edge count E, 4 Float32 bounds (min x, min y, max x, max y), 2N Float32 positions, N UInt32 catalog ids, N UInt8 kinds (0 artist, 1 album, 2 song) padded to 4 bytes, 2E UInt32 edge node pairs, E UInt8 edge kinds (0 album_of, 1 song_of, 2 performed_by, 3 cover, 4 identical, 5 member_of) padded to 4 bytes. See docs/graph.md.",
    "parameters": [
     {"name": "If-None-Match", "in": "header", "required": false, "schema": {"type": "string"}}
    ],
    "responses": {
     "200": {
      "description": "The map.",
      "content": {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}
     },
     "304": {"description": "Unchanged since the ETag given."},
     "401": {"$ref": "#/components/responses/Unauthorized"},
     "503": {
      "description": "The first layout is still being computed (map_not_ready); Retry-After says when to ask again.",
      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
     }
    },
    "security": [{"basic": []}, {"session": []}]
   }
  },
  "/api/library/graph/map/status": {
   "get": {
    "operationId": "libraryGraphMapStatus",
    "summary": "Whether the map is ready or being laid out, and its size",
    "responses": {
     "200": {
      "description": "OK",
      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/LibraryGraphMapStatus"}}}
     },
     "401": {"$ref": "#/components/responses/Unauthorized"}
    },
    "security": [{"basic": []}, {"session": []}]
   }
  },
  "/api/library/graph/names": {
   "get": {
    "operationId": "libraryGraphNames",
    "summary": "Names of map nodes, on demand",
    "parameters": [
     {"name": "nodes", "in": "query", "required": true, "description": "1 to 500 keys KIND:ID, comma-separated (artist:3,song:12).",
      "schema": {"type": "string", "pattern": "^(artist|album|song):[0-9]+(,(artist|album|song):[0-9]+)*$"}}
    ],
    "responses": {
     "200": {
      "description": "The names of the nodes that exist, in the order asked.",
      "content": {"application/json": {"schema": {
       "type": "object", "required": ["names"],
       "properties": {"names": {"type": "array", "items": {
        "type": "object", "required": ["node", "name"],
        "properties": {"node": {"type": "string"}, "name": {"type": "string"}}}}}}}}
     },
     "400": {
      "description": "No keys, more than 500, or a key that is not KIND:ID (invalid_input).",
      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
     },
     "401": {"$ref": "#/components/responses/Unauthorized"}
    },
    "security": [{"basic": []}, {"session": []}]
   }
  }
 },
 "components": {
  "schemas": {
   "LibraryGraphMapStatus": {
    "type": "object",
    "required": ["computing", "ready"],
    "properties": {
     "computing": {"type": "boolean"},
     "ready": {"type": "boolean"},
     "nodes": {"type": "integer"},
     "edges": {"type": "integer"},
     "computed_at": {"type": "string", "format": "date-time"},
     "seconds": {"type": "number"},
     "incremental": {"type": "boolean"},
     "synthetic": {"type": "boolean"},
     "failure": {"type": "string"}
    }
   }
  }
 }
}
"""#
}
