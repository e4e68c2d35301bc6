/// The radio's part of `/api/openapi.json` (docs/radio.md): shows, episodes, the live mounts
/// and the stream-title update. The podcast feeds and files under `/radio/` and Icecast's
/// own paths are not part of `/api`.
enum RadioOpenAPI {
    static let text = #"""
{
 "paths": {
  "/api/radio/shows": {
   "post": {
    "operationId": "radioShowCreate",
    "summary": "Create a show owned by the signed-in user; the answer holds its stream key (shown once)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioShowFields" } } } },
    "responses": {
     "201": { "description": "Created.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioShowCreated" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" }
    }
   },
   "get": {
    "operationId": "radioShows",
    "summary": "Every show (never its stream key)",
    "security": [
     {},
     {
      "basic": []
     },
     {
      "session": []
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "array",
         "items": {
          "$ref": "#/components/schemas/RadioShow"
         }
        }
       }
      }
     }
    }
   }
  },
  "/api/radio/shows/{id}": {
   "patch": {
    "operationId": "radioShowEdit",
    "summary": "Change a show (owner or admin): only the fields sent change",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } } ],
    "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioShowFields" } } } },
    "responses": {
     "200": { "description": "The show as changed.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioShow" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not the show's owner or an admin (forbidden).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   },
   "delete": {
    "operationId": "radioShowDelete",
    "summary": "Delete a show with undo: hidden at once everywhere, restorable for 30 days, then purged",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } } ],
    "responses": {
     "200": { "description": "Deleted.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioDeleted" } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not the show's owner or an admin (forbidden).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   },
   "get": {
    "operationId": "radioShow",
    "summary": "One show",
    "security": [
     {},
     {
      "basic": []
     },
     {
      "session": []
     }
    ],
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 9223372036854775807
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/RadioShow"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    }
   }
  },
  "/api/radio/episodes": {
   "get": {
    "operationId": "radioEpisodes",
    "summary": "Recent episodes, newest first",
    "description": "Published episodes for everyone; a signed-in owner also gets their recorded and live ones, an admin everyone's.",
    "security": [
     {},
     {
      "basic": []
     },
     {
      "session": []
     }
    ],
    "parameters": [
     {
      "name": "show",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 9223372036854775807
      }
     },
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 500,
       "default": 50
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "array",
         "items": {
          "$ref": "#/components/schemas/RadioEpisode"
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    }
   }
  },
  "/api/radio/episodes/{id}": {
   "patch": {
    "operationId": "radioEpisodeEdit",
    "summary": "Change an episode's title or description, publish or unpublish it (owner or admin)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } } ],
    "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object",
      "properties": { "title": { "type": "string", "minLength": 1, "maxLength": 200 }, "description": { "type": "string", "maxLength": 4000 },
       "published": { "type": "boolean" } } } } } },
    "responses": {
     "200": { "description": "The episode as changed.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioEpisode" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not the show's owner or an admin (forbidden).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "$ref": "#/components/responses/NotFound" },
     "409": { "description": "The episode is live.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   },
   "delete": {
    "operationId": "radioEpisodeDelete",
    "summary": "Delete an episode with undo: hidden at once, restorable for 30 days, then purged",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1 } } ],
    "responses": {
     "200": { "description": "Deleted.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioDeleted" } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not the show's owner or an admin (forbidden).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "$ref": "#/components/responses/NotFound" },
     "409": { "description": "The episode is live.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   },
   "get": {
    "operationId": "radioEpisode",
    "summary": "One episode with its waveform peaks",
    "security": [
     {},
     {
      "basic": []
     },
     {
      "session": []
     }
    ],
    "parameters": [
     {
      "name": "id",
      "in": "path",
      "required": true,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 9223372036854775807
      }
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/RadioEpisode"
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    }
   }
  },
  "/api/radio/episodes/{id}/chat": {
   "get": {
    "operationId": "radioEpisodeChat",
    "summary": "An episode's live chat, kept after the broadcast (deleted messages left out), oldest first",
    "description": "offset is the seconds from the episode's start, to show a message beside the replay. The episode must be visible to the viewer (published, or the owner's or an admin's own).",
    "security": [ {}, { "basic": [] }, { "session": [] } ],
    "parameters": [
     { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1, "maximum": 9223372036854775807 } }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioEpisodeChat" } } }
     },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   }
  },
  "/api/radio/shows/{id}/chat": {
   "get": {
    "operationId": "radioShowChat",
    "summary": "A show's live chat over a WebSocket, open while the show is live (docs/radio.md, Live chat)",
    "security": [ {}, { "basic": [] }, { "session": [] } ],
    "description": "Connect with Upgrade: websocket. The server sends {type: hello, show, episode, user, canSay, canModerate, maxLength, rateLimit}, then {type: history, episode, messages} (the episode's last 50, oldest first), then every {type: message, id, user, name, text, at} and {type: deleted, id}. Signed-in users send {type: say, text} (1 to 500 characters, plain text, 5 messages per 10 s); the show's owner and admins send {type: delete, id} and {type: mute, user, minutes}. Refusals are {type: error, code, message} to the sender, the socket staying open: unauthorized, invalid_message, invalid_text, muted (until), rate_limited (retryAfter), not_live, forbidden, not_found. A show that is not live: {type: error, code: not_live} and a close with 1008. A request that is not a WebSocket handshake gets 426.",
    "parameters": [
     { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1, "maximum": 9223372036854775807 } }
    ],
    "responses": {
     "101": { "description": "Switching to the WebSocket protocol." },
     "426": {
      "description": "Not a WebSocket handshake (websocket_required).",
      "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
     }
    }
   }
  },
  "/api/radio/live": {
   "get": {
    "operationId": "radioLive",
    "summary": "The live mounts now (no sign-in)",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "mounts"
         ],
         "properties": {
          "mounts": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/RadioLiveMount"
           }
          }
         }
        }
       }
      }
     }
    }
   }
  },
  "/api/radio/ingest": {
   "get": {
    "operationId": "radioIngest",
    "summary": "A live source over a WebSocket: the studio page's stream (docs/radio.md)",
    "security": [ {}, { "basic": [] }, { "session": [] } ],
    "description": "Connect with Upgrade: websocket, ?mount=/live/<show>.mp3, optionally type= (default audio/webm; Ogg, MP3 and AAC too) and key= (the show's stream key; otherwise the signed-in owner or an admin). The server sends {type: ready} and then {type: stats} every 2 s; the client sends the stream as binary messages. A refusal is an {type: error, code, message} message and a close with 1008 (unauthorized, forbidden, unknown_mount, unsupported_type, mount_in_use, cut_off). A request that is not a WebSocket handshake gets 426.",
    "parameters": [
     { "name": "mount", "in": "query", "required": true, "schema": { "type": "string" } },
     { "name": "type", "in": "query", "schema": { "type": "string", "default": "audio/webm" } },
     { "name": "key", "in": "query", "schema": { "type": "string" } }
    ],
    "responses": {
     "101": { "description": "Switching to the WebSocket protocol." },
     "426": {
      "description": "Not a WebSocket handshake (websocket_required).",
      "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
     }
    }
   }
  },
  "/api/radio/effects": {
   "get": {
    "operationId": "radioEffects",
    "summary": "The signed-in user's sound effects for the studio's pads, with the upload limits",
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "200": { "description": "{effects: [{id, name, duration, size, created_at, url}], limits: {bytes, seconds, count}}",
      "content": { "application/json": { "schema": { "type": "object", "required": ["effects", "limits"],
       "properties": { "effects": { "type": "array", "items": { "$ref": "#/components/schemas/RadioEffect" } },
                       "limits": { "type": "object" } } } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" }
    }
   },
   "post": {
    "operationId": "radioEffectUpload",
    "summary": "Upload a sound effect: the body is the audio file (≤ 5 MiB, ≤ 30 s), stored as MP3",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "name", "in": "query", "schema": { "type": "string", "maxLength": 80 } } ],
    "requestBody": { "required": true, "content": { "application/octet-stream": { "schema": { "type": "string", "format": "binary" } } } },
    "responses": {
     "201": { "description": "Stored.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioEffect" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "409": { "description": "Too many effects (too_many).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "413": { "description": "Larger than 5 MiB.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "422": { "description": "Not audio (not_audio) or longer than 30 s (too_long).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/radio/effects/{id}": {
   "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[0-9a-f]{16}$" } } ],
   "get": {
    "operationId": "radioEffect",
    "summary": "An effect's MP3 (its owner only)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "200": { "description": "The sound.", "content": { "audio/mpeg": { "schema": { "type": "string", "format": "binary" } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   },
   "delete": {
    "operationId": "radioEffectDelete",
    "summary": "Delete an effect",
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "204": { "description": "Deleted." },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   }
  },
  "/api/radio/shows/{id}/uploads": {
   "post": {
    "operationId": "radioUploadStart",
    "summary": "Start a resumable episode upload for a show you own (the studio's record here, publish later)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } } ],
    "requestBody": { "content": { "application/json": { "schema": { "type": "object",
      "properties": { "type": { "type": "string" }, "title": { "type": "string" } } } } } },
    "responses": {
     "201": { "description": "Started.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioUpload" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not the show's owner.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   }
  },
  "/api/radio/uploads/{id}": {
   "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[0-9a-f]{32}$" } } ],
   "get": {
    "operationId": "radioUpload",
    "summary": "An upload and the bytes the server holds of it (where to resume)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "200": { "description": "OK", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioUpload" } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   },
   "put": {
    "operationId": "radioUploadPiece",
    "summary": "Append the next bytes (at most 16 MiB) at ?offset=, which must be what the server holds",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "offset", "in": "query", "required": true, "schema": { "type": "integer", "minimum": 0 } } ],
    "requestBody": { "required": true, "content": { "application/octet-stream": { "schema": { "type": "string", "format": "binary" } } } },
    "responses": {
     "200": { "description": "{offset}", "content": { "application/json": { "schema": { "type": "object", "properties": { "offset": { "type": "integer" } } } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" },
     "409": { "description": "Not the offset the server holds (offset_mismatch).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "413": { "description": "A piece over 16 MiB or an upload over 1 GiB.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   },
   "delete": {
    "operationId": "radioUploadCancel",
    "summary": "Abandon an upload",
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "204": { "description": "Gone." },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   }
  },
  "/api/radio/uploads/{id}/finish": {
   "post": {
    "operationId": "radioUploadFinish",
    "summary": "Turn the upload into an episode (MP3, −16 LUFS, published as the show says)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [ { "name": "id", "in": "path", "required": true, "schema": { "type": "string", "pattern": "^[0-9a-f]{32}$" } } ],
    "responses": {
     "201": { "description": "{id, title, duration, state} of the episode", "content": { "application/json": { "schema": { "type": "object" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" },
     "422": { "description": "Not audio (not_audio).", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/radio/guest": {
   "get": {
    "operationId": "radioGuest",
    "summary": "A hosted guest's signalling WebSocket (WebRTC offers, answers and candidates relayed to the host's studio)",
    "security": [ {} ],
    "description": "Connect with Upgrade: websocket and ?token= from the host's invitation. The server sends {type: welcome, show}, then relays {type: signal, data} both ways. Refusals: unknown_invite, guest_present, host_away, then a close with 1008. A request that is not a WebSocket handshake gets 426.",
    "parameters": [ { "name": "token", "in": "query", "required": true, "schema": { "type": "string" } } ],
    "responses": {
     "101": { "description": "Switching to the WebSocket protocol." },
     "426": { "description": "Not a WebSocket handshake (websocket_required).",
      "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/radio/metadata": {
   "post": {
    "operationId": "radioMetadata",
    "summary": "Set a live mount's stream title",
    "description": "Basic auth: user source with the show's stream key, or a Quintet admin.",
    "security": [
     {
      "basic": []
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/json": {
       "schema": {
        "type": "object",
        "required": [
         "mount",
         "title"
        ],
        "properties": {
         "mount": {
          "type": "string"
         },
         "title": {
          "type": "string"
         }
        }
       }
      }
     }
    },
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "mount",
          "title"
         ],
         "properties": {
          "mount": {
           "type": "string"
          },
          "title": {
           "type": "string"
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     },
     "401": {
      "description": "Not the show's stream key nor an admin.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "404": {
      "description": "No live source on that mount (not_live).",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    }
   }
  }
 },
 "components": {
  "schemas": {
   "RadioUpload": {
    "type": "object",
    "required": ["id", "show", "type", "title", "offset"],
    "properties": { "id": { "type": "string" }, "show": { "type": "integer" }, "type": { "type": "string" },
                    "title": { "type": "string" }, "offset": { "type": "integer" } }
   },
   "RadioEffect": {
    "type": "object",
    "required": ["id", "name", "duration", "size", "created_at"],
    "properties": {
     "id": { "type": "string" }, "name": { "type": "string" }, "duration": { "type": "number" },
     "size": { "type": "integer" }, "created_at": { "type": "string", "format": "date-time" }, "url": { "type": "string" }
    }
   },
   "RadioShow": {
    "type": "object",
    "required": [
     "id",
     "slug",
     "title",
     "description",
     "language",
     "explicit",
     "mount",
     "owner",
     "publish_automatically",
     "max_episode_seconds",
     "created_at",
     "feed_url",
     "episode_count"
    ],
    "properties": {
     "id": {
      "type": "integer"
     },
     "slug": {
      "type": "string"
     },
     "title": {
      "type": "string"
     },
     "description": {
      "type": "string"
     },
     "cover_url": {
      "type": "string"
     },
     "category": { "type": "string", "description": "Apple Podcasts category (GET /api/radio/categories)" },
     "subcategory": { "type": "string" },
     "editable": { "type": "boolean", "description": "Whether the viewer may edit the show (owner or admin)" },
     "followers": { "type": "integer", "description": "How many users follow the show (only GET /api/radio/shows/{id})" },
     "followed_by_you": { "type": "boolean", "description": "Whether the signed-in viewer follows it (only GET /api/radio/shows/{id}; false signed out)" },
     "deleted_at": { "type": "string", "format": "date-time", "description": "Only in the owner's list of deleted shows" },
     "language": {
      "type": "string"
     },
     "explicit": {
      "type": "boolean"
     },
     "location": {
      "type": "string"
     },
     "mount": {
      "type": "string"
     },
     "owner": {
      "type": "string"
     },
     "publish_automatically": {
      "type": "boolean"
     },
     "max_episode_seconds": {
      "type": "integer"
     },
     "fallback_mount": {
      "type": "string"
     },
     "created_at": {
      "type": "string",
      "format": "date-time"
     },
     "feed_url": {
      "type": "string"
     },
     "episode_count": {
      "type": "integer"
     }
    }
   },
   "RadioEpisodeChat": {
    "type": "object",
    "required": [ "episode_id", "show_id", "started_at", "messages" ],
    "properties": {
     "episode_id": { "type": "integer" },
     "show_id": { "type": "integer" },
     "started_at": { "type": "string", "format": "date-time" },
     "messages": {
      "type": "array",
      "items": {
       "type": "object",
       "required": [ "id", "user", "name", "text", "at", "offset" ],
       "properties": {
        "id": { "type": "integer" },
        "user": { "type": [ "integer", "null" ], "description": "the author's user id (null once the user is deleted)" },
        "name": { "type": "string", "description": "the author's name when the message was sent" },
        "text": { "type": "string", "description": "plain text: show it as text, never as markup" },
        "at": { "type": "string", "format": "date-time" },
        "offset": { "type": "number", "description": "seconds from the episode's start" }
       }
      }
     }
    }
   },
   "RadioEpisode": {
    "type": "object",
    "required": [
     "id",
     "show_id",
     "show_title",
     "title",
     "description",
     "state",
     "started_at",
     "duration",
     "size",
     "content_type",
     "listens",
     "peak_listeners",
     "guid",
     "audio_url"
    ],
    "properties": {
     "deleted_at": { "type": "string", "format": "date-time", "description": "Only in the owner's list of deleted episodes" },
     "id": {
      "type": "integer"
     },
     "show_id": {
      "type": "integer"
     },
     "show_title": {
      "type": "string"
     },
     "title": {
      "type": "string"
     },
     "description": {
      "type": "string"
     },
     "state": {
      "type": "string",
      "enum": [
       "live",
       "recorded",
       "published"
      ]
     },
     "started_at": {
      "type": "string",
      "format": "date-time"
     },
     "ended_at": {
      "type": "string",
      "format": "date-time"
     },
     "published_at": {
      "type": "string",
      "format": "date-time"
     },
     "duration": {
      "type": "number"
     },
     "size": {
      "type": "integer"
     },
     "content_type": {
      "type": "string"
     },
     "listens": {
      "type": "integer"
     },
     "peak_listeners": {
      "type": "integer"
     },
     "guid": {
      "type": "string"
     },
     "audio_url": {
      "type": "string"
     },
     "peaks": {
      "type": "object",
      "required": [
       "minima",
       "maxima"
      ],
      "properties": {
       "minima": {
        "type": "array",
        "items": {
         "type": "number"
        }
       },
       "maxima": {
        "type": "array",
        "items": {
         "type": "number"
        }
       }
      }
     }
    }
   },
   "RadioLiveMount": {
    "type": "object",
    "required": [
     "mount",
     "show_id",
     "show_title",
     "title",
     "listeners",
     "relays",
     "listener_peak",
     "started",
     "content_type",
     "episode_id"
    ],
    "properties": {
     "mount": {
      "type": "string"
     },
     "show_id": {
      "type": "integer"
     },
     "show_title": {
      "type": "string"
     },
     "title": {
      "type": [
       "string",
       "null"
      ]
     },
     "listeners": {
      "type": "integer",
      "description": "Listeners now, relays excluded"
     },
     "relays": {
      "type": "integer",
      "description": "Icecast servers relaying the mount now (User-Agent Icecast, ?relay=1 or X-Quintet-Relay: 1)"
     },
     "listener_peak": {
      "type": "integer"
     },
     "started": {
      "type": "string",
      "format": "date-time"
     },
     "content_type": {
      "type": "string"
     },
     "episode_id": {
      "type": [
       "integer",
       "null"
      ]
     }
    }
   }
  }
 }
}
"""#
}
