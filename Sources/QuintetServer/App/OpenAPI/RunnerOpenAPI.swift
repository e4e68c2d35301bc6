/// The runner's part of `/api/openapi.json` (docs/runner.md, docs/tempo.md): tempo of an
/// upload, cadence of a sensor log, the next song for a cadence and the live WebSocket.
enum RunnerOpenAPI {
    static let text = #"""
{
 "paths": {
  "/api/tempo": {
   "post": {
    "operationId": "tempo",
    "summary": "The tempo of an uploaded audio file (no sign-in)",
    "description": "The body is the audio file (any format ffmpeg reads). At most one analysis per core runs at a time; the others wait.",
    "parameters": [
     {
      "name": "method",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string",
       "enum": [
        "default",
        "scheirer"
       ]
      }
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "application/octet-stream": {
       "schema": {
        "type": "string",
        "format": "binary"
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
          "bpm",
          "confidence",
          "candidates",
          "method",
          "seconds"
         ],
         "properties": {
          "bpm": {
           "type": [
            "number",
            "null"
           ],
           "description": "null: no tempo found."
          },
          "confidence": {
           "type": "number"
          },
          "candidates": {
           "type": "array",
           "items": {
            "type": "object",
            "required": [
             "bpm",
             "score"
            ],
            "properties": {
             "bpm": {
              "type": "number"
             },
             "score": {
              "type": "number"
             }
            }
           }
          },
          "method": {
           "type": "string"
          },
          "seconds": {
           "type": "number"
          }
         }
        }
       }
      }
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     },
     "413": {
      "$ref": "#/components/responses/TooLarge"
     },
     "422": {
      "$ref": "#/components/responses/Unreadable"
     }
    }
   }
  },
  "/api/runner/cadence": {
   "post": {
    "operationId": "runnerCadence",
    "summary": "Cadence from an accelerometer log (no sign-in)",
    "description": "The body is a sensor log (CSV or JSON Lines). The answer is `quintet cadence --json`'s document.",
    "parameters": [
     {
      "name": "method",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string",
       "enum": [
        "default",
        "thesis"
       ]
      }
     }
    ],
    "requestBody": {
     "required": true,
     "content": {
      "text/csv": {
       "schema": {
        "type": "string"
       }
      },
      "application/x-ndjson": {
       "schema": {
        "type": "string"
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
          "cadence",
          "timeline"
         ],
         "properties": {
          "cadence": {
           "type": [
            "number",
            "null"
           ]
          },
          "timeline": {
           "type": "array",
           "items": {
            "type": "object",
            "required": [
             "t",
             "spm",
             "confidence",
             "state"
            ],
            "properties": {
             "t": {
              "type": "number"
             },
             "spm": {
              "type": [
               "number",
               "null"
              ]
             },
             "confidence": {
              "type": "number"
             },
             "state": {
              "type": "string"
             }
            }
           }
          }
         }
        }
       }
      }
     },
     "400": {
      "description": "The log cannot be read (invalid_log, naming the line), an empty body or a bad method.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "413": {
      "$ref": "#/components/responses/TooLarge"
     }
    }
   }
  },
  "/api/runner/next": {
   "get": {
    "operationId": "runnerNext",
    "summary": "The library's song for a running cadence",
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ],
    "parameters": [
     {
      "name": "cadence",
      "in": "query",
      "required": true,
      "schema": {
       "type": "number",
       "minimum": 30,
       "maximum": 300
      },
      "description": "Steps per minute."
     },
     {
      "name": "mode",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string",
       "enum": [
        "nearest",
        "ranges"
       ]
      }
     },
     {
      "name": "sprint",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string",
       "pattern": "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[Yy][Ee][Ss]|[Nn][Oo]|1|0)?(?![\\s\\S])"
      },
      "description": "true or false (also 1, 0, yes, no; any case). true aims 5 % faster."
     },
     {
      "name": "exclude",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string",
       "pattern": "^([ \\t]*\\+?0*[1-9][0-9]{0,17}[ \\t]*)?(,([ \\t]*\\+?0*[1-9][0-9]{0,17}[ \\t]*)?)*(?![\\s\\S])"
      },
      "description": "Song ids already played, comma-separated."
     }
    ],
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "song",
          "target_bpm",
          "effective_bpm",
          "fallback"
         ],
         "properties": {
          "song": {
           "type": "object",
           "required": [
            "id",
            "title",
            "artist",
            "path",
            "stream_url"
           ],
           "properties": {
            "id": {
             "type": "integer"
            },
            "title": {
             "type": "string"
            },
            "artist": {
             "type": "string"
            },
            "bpm": {
             "type": [
              "number",
              "null"
             ]
            },
            "bpm_source": {
             "type": [
              "string",
              "null"
             ],
             "enum": ["override", "tag", "analysis", null]
            },
            "path": {
             "type": "string"
            },
            "stream_url": {
             "type": "string"
            }
           }
          },
          "target_bpm": {
           "type": "number"
          },
          "effective_bpm": {
           "type": "number"
          },
          "fallback": {
           "type": "boolean"
          },
          "reason": {
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
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "description": "No song to play: empty_library, no_tempo or all_played.",
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
  },
  "/api/runner/songs": {
   "get": {
    "operationId": "runnerSongs",
    "summary": "The songs runner mode can play (those with a BPM), sorted",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [
     { "name": "sort", "in": "query", "required": false, "schema": { "type": "string", "enum": ["bpm", "title", "artist"], "default": "bpm" } },
     { "name": "order", "in": "query", "required": false, "schema": { "type": "string", "enum": ["asc", "desc"], "default": "asc" } }
    ],
    "responses": {
     "200": { "description": "OK", "content": { "application/json": { "schema": {
      "type": "object",
      "required": ["songs"],
      "properties": { "songs": { "type": "array", "items": { "$ref": "#/components/schemas/RunnerSong" } } }
     } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" }
    }
   }
  },
  "/api/runner/never": {
   "get": {
    "operationId": "runnerNeverList",
    "summary": "The songs this user never wants while running, the most recently added first",
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "200": { "description": "OK", "content": { "application/json": { "schema": {
      "type": "object",
      "required": ["songs"],
      "properties": { "songs": { "type": "array", "items": { "$ref": "#/components/schemas/LibrarySong" } } }
     } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" }
    }
   }
  },
  "/api/runner/never/{id}": {
   "parameters": [
    { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1, "maximum": 9223372036854775807 } }
   ],
   "put": {
    "operationId": "runnerNeverAdd",
    "summary": "Never play this song while running (this user only; idempotent)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "204": { "description": "On the list." },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   },
   "delete": {
    "operationId": "runnerNeverRemove",
    "summary": "Take a song off this user's never list (the undo; idempotent)",
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "204": { "description": "Off the list." },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   }
  },
  "/api/runner/live": {
   "get": {
    "operationId": "runnerLive",
    "summary": "The live run: a WebSocket (docs/runner.md)",
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ],
    "description": "Connect with Upgrade: websocket. Without a user the socket opens, sends an unauthorized error and closes with 1008. A request that is not a WebSocket handshake gets 401 (no user) or 426.",
    "responses": {
     "101": {
      "description": "Switching to the WebSocket protocol."
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "426": {
      "description": "Not a WebSocket handshake (websocket_required).",
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
   "RunnerSong": {
    "type": "object",
    "required": ["id", "title", "artist", "album", "bpm", "stream_url", "never"],
    "properties": {
     "id": { "type": "integer" },
     "title": { "type": "string" },
     "artist": { "type": "string" },
     "album": { "type": "string" },
     "duration": { "type": "number", "description": "Seconds; absent while unknown." },
     "bpm": { "type": "number", "description": "The effective BPM (an override if set)." },
     "bpm_source": { "type": "string", "enum": ["override", "tag", "analysis"] },
     "analysed_bpm": { "type": "number", "description": "The tag's or analysis's BPM, under an override; absent while unknown." },
     "stream_url": { "type": "string" },
     "never": { "type": "boolean", "description": "On this user's never-while-running list." }
    }
   }
  }
 }
}
"""#
}
