/// The show and episode editors' part of `/api/openapi.json` (issue 24 §2, RadioShowEditRoutes);
/// the PATCH/DELETE/POST methods of paths RadioOpenAPI already describes are written there.
enum RadioShowsOpenAPI {
    static let text = #"""
{
 "paths": {
  "/api/radio/categories": {
   "get": {
    "operationId": "radioCategories",
    "summary": "Apple Podcasts' categories and their subcategories, for a show's category",
    "security": [ {} ],
    "responses": {
     "200": { "description": "OK", "content": { "application/json": { "schema": { "type": "array",
       "items": { "$ref": "#/components/schemas/RadioCategory" } } } } }
    }
   }
  },
  "/api/radio/shows/{id}/cover": {
   "put": {
    "operationId": "radioShowCover",
    "summary": "Upload a show's cover: an image of at most 5 MB, re-encoded by ffmpeg to JPEG (metadata stripped)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } } ],
    "requestBody": { "required": true, "content": { "image/*": { "schema": { "type": "string", "format": "binary" } } } },
    "responses": {
     "200": { "description": "The show with its new cover_url.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioShow" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not the show's owner or an admin (forbidden).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "$ref": "#/components/responses/NotFound" },
     "413": { "description": "Larger than 5 MB.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "422": { "description": "Not an image (not_image).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/radio/shows/{id}/restore": {
   "post": {
    "operationId": "radioShowRestore",
    "summary": "Undo a show's delete (within 30 days)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } } ],
    "responses": {
     "200": { "description": "Restored.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioShow" } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not the show's owner or an admin (forbidden).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "$ref": "#/components/responses/NotFound" },
     "409": { "description": "Deleted more than 30 days ago.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/radio/episodes/{id}/restore": {
   "post": {
    "operationId": "radioEpisodeRestore",
    "summary": "Undo an episode's delete (within 30 days)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } } ],
    "responses": {
     "200": { "description": "Restored.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioEpisode" } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not the show's owner or an admin (forbidden).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "$ref": "#/components/responses/NotFound" },
     "409": { "description": "Deleted more than 30 days ago.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/radio/deleted": {
   "get": {
    "operationId": "radioDeleted",
    "summary": "The signed-in user's deleted shows and episodes, restorable for 30 days",
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "200": { "description": "OK", "content": { "application/json": { "schema": { "type": "object", "required": ["shows", "episodes"],
       "properties": { "shows": { "type": "array", "items": { "$ref": "#/components/schemas/RadioShow" } },
                       "episodes": { "type": "array", "items": { "$ref": "#/components/schemas/RadioEpisode" } } } } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" }
    }
   }
  }
 },
 "components": {
  "schemas": {
   "RadioCategory": {
    "type": "object",
    "required": ["name", "subcategories"],
    "properties": { "name": { "type": "string" }, "subcategories": { "type": "array", "items": { "type": "string" } } }
   },
   "RadioShowFields": {
    "type": "object",
    "description": "A show's editable fields; in a PATCH only those sent change (an empty cover or category removes it).",
    "properties": {
     "title": { "type": "string", "minLength": 1, "maxLength": 200 },
     "description": { "type": "string", "maxLength": 4000 },
     "cover": { "type": "string", "description": "An http(s) URL, or a path inside the data folder" },
     "language": { "type": "string", "pattern": "^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$" },
     "explicit": { "type": "boolean" },
     "category": { "type": "string" },
     "subcategory": { "type": "string" },
     "publish_automatically": { "type": "boolean" }
    }
   },
   "RadioShowCreated": {
    "type": "object",
    "required": ["show", "stream_key"],
    "properties": { "show": { "$ref": "#/components/schemas/RadioShow" },
                    "stream_key": { "type": "string", "description": "The source password, shown only here" } }
   },
   "RadioDeleted": {
    "type": "object",
    "required": ["id", "deleted_at", "restore_until"],
    "properties": { "id": { "type": "integer" }, "deleted_at": { "type": "string", "format": "date-time" },
                    "restore_until": { "type": "string", "format": "date-time" } }
   }
  }
 }
}
"""#
}
