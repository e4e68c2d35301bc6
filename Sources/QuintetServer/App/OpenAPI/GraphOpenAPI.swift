/// The music graph's part of `/api/openapi.json` (docs/graph.md): expansion and walks.
enum GraphOpenAPI {
    static let text = #"""
{
 "paths": {
  "/api/library/graph/expand": {
   "get": {
    "operationId": "libraryGraphExpand",
    "summary": "A node of the music graph and its neighbours, each with the link and how many of its own links the answer leaves out",
    "parameters": [
     {"name": "node", "in": "query", "required": true, "schema": {"type": "string", "pattern": "^((artist|album|song):[0-9]+|(ar|al|tr)-[0-9]+)$"},
      "description": "KIND:ID with KIND artist, album or song and ID the /api id; Subsonic ids (ar-12, al-5, tr-99) too."},
     {"name": "edges", "in": "query", "required": false, "schema": {"type": "string"},
      "description": "Comma-separated link kinds to follow (album_of, song_of, performed_by, cover, identical, member_of, tempo); all when absent."}
    ],
    "responses": {
     "200": {"description": "OK", "content": {"application/json": {"schema": {
      "type": "object", "required": ["node", "neighbours"],
      "properties": {
       "node": {"$ref": "#/components/schemas/GraphNode"},
       "neighbours": {"type": "array", "items": {"$ref": "#/components/schemas/GraphNode"}}
      }}}}},
     "400": {"$ref": "#/components/responses/InvalidInput"},
     "401": {"$ref": "#/components/responses/Unauthorized"},
     "404": {"$ref": "#/components/responses/NotFound"}
    },
    "security": [{"basic": []}, {"session": []}]
   }
  },
  "/api/library/graph/walk": {
   "get": {
    "operationId": "libraryGraphWalk",
    "summary": "Play a path: a walk over the graph's links from a song, never repeating, keeping the tempo where it can",
    "parameters": [
     {"name": "seed", "in": "query", "required": true, "schema": {"type": "string"}, "description": "song:ID, tr-ID or a song id"},
     {"name": "count", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 20},
      "description": "Songs wanted, the seed included; fewer when the walk runs out of unplayed songs nearby."},
     {"name": "variant", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 0, "maximum": 2147483647, "default": 0},
      "description": "Another number gives another walk among equally good ones; the same number the same walk."}
    ],
    "responses": {
     "200": {"description": "OK", "content": {"application/json": {"schema": {
      "type": "object", "required": ["seed", "songs"],
      "properties": {
       "seed": {"type": "string"},
       "songs": {"type": "array", "items": {"$ref": "#/components/schemas/LibrarySong"}}
      }}}}},
     "400": {"$ref": "#/components/responses/InvalidInput"},
     "401": {"$ref": "#/components/responses/Unauthorized"},
     "404": {"$ref": "#/components/responses/NotFound"}
    },
    "security": [{"basic": []}, {"session": []}]
   }
  }
 },
 "components": {
  "schemas": {
   "GraphNode": {
    "type": "object",
    "required": ["kind", "id", "name", "links"],
    "properties": {
     "kind": {"type": "string", "enum": ["artist", "album", "song"]},
     "id": {"type": "integer"},
     "name": {"type": "string"},
     "links": {"type": "integer", "description": "How many distinct nodes it is linked to."},
     "edge": {"type": "string", "enum": ["song_of", "album_of", "performed_by", "member_of", "identical", "cover", "tempo"],
              "description": "Neighbours only: the link to the expanded node (the first by precedence when there are several)."},
     "edges": {"type": "array", "items": {"type": "string"}, "description": "Neighbours only, when more than one kind of link joins the two."},
     "more": {"type": "integer", "description": "Neighbours only: its links to nodes outside this answer."},
     "artist": {"type": "string"}, "artist_id": {"type": "integer"}, "album": {"type": "string"}, "album_id": {"type": "integer"},
     "year": {"type": "integer"}, "has_cover": {"type": "boolean"}, "track": {"type": "integer"}, "disc": {"type": "integer"},
     "duration": {"type": "number"}, "bpm": {"type": "number"},
     "cover_url": {"type": "string"}, "stream_url": {"type": "string"},
     "lookup": {"type": "string", "enum": ["none", "pending", "off", "ok", "not_found", "ambiguous", "failed"],
                "description": "Artists only: the MusicBrainz lookup of its band members (docs/graph.md, \"Band members\"); failed: POST /api/library/members/lookup?artist=ID retries."}
    }
   }
  }
 }
}
"""#
}
