/// The radio's sharing part of `/api/openapi.json` (docs/radio.md, "Community: sharing,
/// Subsonic podcasts and OPML"): oEmbed and the OPML of followed shows. The share pages
/// (`/radio/s/{id}`, `/radio/e/{id}`) are HTML outside `/api`.
enum RadioShareOpenAPI {
    static let text = #"""
{
 "paths": {
  "/api/oembed": {
   "get": {
    "operationId": "oEmbed",
    "summary": "oEmbed 1.0 for a show's or an episode's share link: a rich answer with the embed player's iframe (no sign-in)",
    "parameters": [
     { "name": "url", "in": "query", "required": true, "schema": { "type": "string" },
       "description": "A share link of this site: /radio/s/{id}, /radio/e/{id} or /radio/show/?id={id}" },
     { "name": "format", "in": "query", "schema": { "type": "string", "enum": ["json", "xml"] },
       "description": "json (default); xml answers 501" },
     { "name": "maxwidth", "in": "query", "schema": { "type": "integer", "minimum": 1 } },
     { "name": "maxheight", "in": "query", "schema": { "type": "integer", "minimum": 1 } }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": { "application/json": { "schema": {
       "type": "object",
       "required": ["type", "version", "html", "width", "height"],
       "properties": {
        "type": { "type": "string", "const": "rich" },
        "version": { "type": "string", "const": "1.0" },
        "title": { "type": "string" },
        "author_name": { "type": "string" },
        "author_url": { "type": "string" },
        "provider_name": { "type": "string" },
        "provider_url": { "type": "string" },
        "cache_age": { "type": "integer" },
        "thumbnail_url": { "type": "string" },
        "html": { "type": "string" },
        "width": { "type": "integer" },
        "height": { "type": "integer" }
       }
      } } }
     },
     "400": { "description": "url missing or not an absolute URL, or a bad maxwidth/maxheight",
              "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "description": "Not a share link of this site, or nothing is shared there (deleted, unpublished)",
              "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "501": { "description": "A format other than json",
              "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/radio/following.opml": {
   "get": {
    "operationId": "radioFollowingOPML",
    "summary": "OPML 2.0 of the shows the signed-in user follows (deleted shows left out)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "200": { "description": "OK", "content": { "text/x-opml": { "schema": { "type": "string" } } } },
     "401": { "description": "Not signed in",
              "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  }
 }
}
"""#
}
