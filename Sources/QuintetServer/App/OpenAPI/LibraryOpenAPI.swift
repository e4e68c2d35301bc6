/// The library's part of `/api/openapi.json` (docs/library.md): the catalog, its scan and BPM
/// work, covers and streams, and `POST /api/library/tags`. The route-coverage test
/// (OpenAPIRouteTests) checks its paths against the router.
enum LibraryOpenAPI {
    static let text = #"""
{
 "paths": {
  "/api/library/scan": {
   "get": {
    "operationId": "libraryScanStatus",
    "summary": "Where the scan stands",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/LibraryScanStatus"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   },
   "post": {
    "operationId": "libraryScanStart",
    "summary": "Start a rescan",
    "responses": {
     "202": {
      "description": "Started.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/LibraryScanStatus"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "409": {
      "description": "A scan is already running (scan_in_progress).",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/bpm": {
   "get": {
    "operationId": "libraryBPMStatus",
    "summary": "The BPM analysis queue",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "state",
          "pending",
          "analyzed",
          "failed"
         ],
         "properties": {
          "state": {
           "type": "string",
           "enum": [
            "idle",
            "analyzing"
           ]
          },
          "pending": {
           "type": "integer"
          },
          "analyzed": {
           "type": "integer"
          },
          "failed": {
           "type": "integer"
          },
          "current": {
           "type": "string"
          }
         }
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/stats": {
   "get": {
    "operationId": "libraryStats",
    "summary": "How many songs, albums, artists and genres",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "songs",
          "albums",
          "artists",
          "genres"
         ],
         "properties": {
          "songs": {
           "type": "integer"
          },
          "albums": {
           "type": "integer"
          },
          "artists": {
           "type": "integer"
          },
          "genres": {
           "type": "integer"
          }
         }
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     }
    },
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/search": {
   "get": {
    "operationId": "librarySearch",
    "summary": "Artists, albums and songs matching q",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "artists",
          "albums",
          "songs"
         ],
         "properties": {
          "artists": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibraryArtist"
           }
          },
          "albums": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibraryAlbum"
           }
          },
          "songs": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibrarySong"
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     }
    },
    "parameters": [
     {
      "name": "q",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "Words to match (at most 200 characters are used); empty lists everything."
     },
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 500,
       "default": 20
      }
     }
    ],
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/artists": {
   "get": {
    "operationId": "libraryArtists",
    "summary": "Artists, by name",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "artists"
         ],
         "properties": {
          "artists": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibraryArtist"
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     }
    },
    "parameters": [
     {
      "name": "q",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "Words to match (at most 200 characters are used); empty lists everything."
     },
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 10000,
       "default": 1000
      }
     },
     {
      "name": "offset",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 0,
       "maximum": 2147483647,
       "default": 0
      }
     }
    ],
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/artists/{id}": {
   "get": {
    "operationId": "libraryArtist",
    "summary": "An artist with their albums and songs",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "artist",
          "albums",
          "songs"
         ],
         "properties": {
          "artist": {
           "$ref": "#/components/schemas/LibraryArtist"
          },
          "albums": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibraryAlbum"
           }
          },
          "songs": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibrarySong"
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
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
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/albums": {
   "get": {
    "operationId": "libraryAlbums",
    "summary": "Albums, by title",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "albums"
         ],
         "properties": {
          "albums": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibraryAlbum"
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     }
    },
    "parameters": [
     {
      "name": "q",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "Words to match (at most 200 characters are used); empty lists everything."
     },
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 10000,
       "default": 500
      }
     },
     {
      "name": "offset",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 0,
       "maximum": 2147483647,
       "default": 0
      }
     }
    ],
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/albums/{id}": {
   "get": {
    "operationId": "libraryAlbum",
    "summary": "An album with its songs",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "album",
          "songs"
         ],
         "properties": {
          "album": {
           "$ref": "#/components/schemas/LibraryAlbum"
          },
          "songs": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibrarySong"
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
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
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/albums/{id}/cover": {
   "get": {
    "operationId": "libraryAlbumCover",
    "summary": "An album's cover",
    "responses": {
     "200": {
      "description": "The image (the original's type, or image/jpeg for a thumbnail).",
      "content": {
       "image/*": {
        "schema": {
         "type": "string",
         "format": "binary"
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
      "$ref": "#/components/responses/NotFound"
     },
     "422": {
      "description": "The image cannot be decoded for a thumbnail.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "Thumbnails need ffmpeg (ffmpeg_missing).",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
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
     },
     {
      "name": "size",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 16,
       "maximum": 1024
      },
      "description": "A JPEG thumbnail at most size × size; without it the original image."
     }
    ],
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/songs": {
   "get": {
    "operationId": "librarySongs",
    "summary": "Songs, with the total that match q",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "songs",
          "total"
         ],
         "properties": {
          "songs": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibrarySong"
           }
          },
          "total": {
           "type": "integer"
          }
         }
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     }
    },
    "parameters": [
     {
      "name": "q",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string"
      },
      "description": "Words to match (at most 200 characters are used); empty lists everything."
     },
     {
      "name": "limit",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 1,
       "maximum": 1000,
       "default": 100
      }
     },
     {
      "name": "offset",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 0,
       "maximum": 2147483647,
       "default": 0
      }
     }
    ],
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/songs/{id}": {
   "get": {
    "operationId": "librarySong",
    "summary": "One song",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/LibrarySong"
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
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
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/songs/{id}/bpm": {
   "put": {
    "operationId": "librarySongSetBPM",
    "summary": "Set a song's BPM by hand, or return it to the analysed value",
    "description": "Body {\"bpm\": 171.5} (a number from 30 to 300) or {\"bpm\": null}. The override is kept apart from the tag's or analysis's value: null returns to it, and rescans and analyses never overwrite the override. Any signed-in user may set it (it is shared, like the tag it corrects). Subsonic's bpm, the runner's matcher and live socket use the effective value.",
    "security": [ { "basic": [] }, { "session": [] } ],
    "parameters": [
     { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1, "maximum": 9223372036854775807 } }
    ],
    "requestBody": {
     "required": true,
     "content": { "application/json": { "schema": {
      "type": "object",
      "required": ["bpm"],
      "properties": { "bpm": { "type": ["number", "null"], "minimum": 30, "maximum": 300 } }
     } } }
    },
    "responses": {
     "200": { "description": "The song as now stored (bpm_source override, or back to tag/analysis).",
              "content": { "application/json": { "schema": { "$ref": "#/components/schemas/LibrarySong" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" },
     "413": { "$ref": "#/components/responses/TooLarge" }
    }
   }
  },
  "/api/library/playlists": {
   "post": {
    "operationId": "libraryPlaylistCreate",
    "summary": "Save songs as a playlist of the signed-in user (the graph explorer's queue)",
    "description": "Body {\"name\": \"Evening\", \"songs\": [12, 5, 12]}: song ids in order, repeats kept, at most 10,000. The playlist is private to its owner and stored in the catalog, so Subsonic's getPlaylists and getPlaylist show it to the same user.",
    "security": [ { "basic": [] }, { "session": [] } ],
    "requestBody": {
     "required": true,
     "content": { "application/json": { "schema": {
      "type": "object",
      "required": ["name", "songs"],
      "properties": {
       "name": { "type": "string", "minLength": 1, "maxLength": 200 },
       "songs": { "type": "array", "maxItems": 10000, "items": { "type": "integer", "minimum": 1, "maximum": 9223372036854775807 } }
      }
     } } }
    },
    "responses": {
     "201": { "description": "The playlist as stored.",
              "content": { "application/json": { "schema": {
               "type": "object",
               "required": ["playlist"],
               "properties": { "playlist": {
                "type": "object",
                "required": ["id", "name", "owner", "public", "song_count", "duration", "created", "changed"],
                "properties": {
                 "id": { "type": "integer" }, "name": { "type": "string" }, "owner": { "type": "string" },
                 "public": { "type": "boolean" }, "song_count": { "type": "integer" },
                 "duration": { "type": "number", "description": "Seconds, the songs' total." },
                 "created": { "type": "string", "format": "date-time" }, "changed": { "type": "string", "format": "date-time" }
                }
               } }
              } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" },
     "413": { "$ref": "#/components/responses/TooLarge" }
    }
   }
  },
  "/api/library/songs/{id}/peaks": {
   "get": {
    "operationId": "librarySongPeaks",
    "summary": "A song's waveform peaks (minimum and maximum per bucket), for the studio's decks",
    "parameters": [
     { "name": "id", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 1, "maximum": 9223372036854775807 } },
     { "name": "buckets", "in": "query", "schema": { "type": "integer", "minimum": 16, "maximum": 4000, "default": 800 } }
    ],
    "security": [ { "basic": [] }, { "session": [] } ],
    "responses": {
     "200": {
      "description": "OK",
      "content": { "application/json": { "schema": {
       "type": "object",
       "required": ["buckets", "duration", "minima", "maxima"],
       "properties": {
        "buckets": { "type": "integer" },
        "duration": { "type": "number", "description": "Seconds of audio decoded." },
        "minima": { "type": "array", "items": { "type": "number" } },
        "maxima": { "type": "array", "items": { "type": "number" } }
       }
      } } }
     },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" },
     "422": {
      "description": "The song's file could not be decoded (undecodable).",
      "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } }
     }
    }
   }
  },
  "/api/library/songs/{id}/related": {
   "get": {
    "operationId": "librarySongRelated",
    "summary": "Covers (same title, other artist) and identical recordings",
    "responses": {
     "200": {
      "description": "OK",
      "content": {
       "application/json": {
        "schema": {
         "type": "object",
         "required": [
          "covers",
          "identical"
         ],
         "properties": {
          "covers": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibrarySong"
           }
          },
          "identical": {
           "type": "array",
           "items": {
            "$ref": "#/components/schemas/LibrarySong"
           }
          }
         }
        }
       }
      }
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
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
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/songs/{id}/cover": {
   "get": {
    "operationId": "librarySongCover",
    "summary": "A song's cover",
    "responses": {
     "200": {
      "description": "The image (the original's type, or image/jpeg for a thumbnail).",
      "content": {
       "image/*": {
        "schema": {
         "type": "string",
         "format": "binary"
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
      "$ref": "#/components/responses/NotFound"
     },
     "422": {
      "description": "The image cannot be decoded for a thumbnail.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "Thumbnails need ffmpeg (ffmpeg_missing).",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
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
     },
     {
      "name": "size",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 16,
       "maximum": 1024
      },
      "description": "A JPEG thumbnail at most size × size; without it the original image."
     }
    ],
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/songs/{id}/stream": {
   "get": {
    "operationId": "librarySongStream",
    "summary": "A song's audio: the file with HTTP Range, or a transcode",
    "responses": {
     "200": {
      "description": "The file (or a range of it: 206), or the transcode.",
      "content": {
       "audio/*": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       },
       "application/octet-stream": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       }
      }
     },
     "206": {
      "description": "The file (or a range of it: 206), or the transcode.",
      "content": {
       "audio/*": {
        "schema": {
         "type": "string",
         "format": "binary"
        }
       },
       "application/octet-stream": {
        "schema": {
         "type": "string",
         "format": "binary"
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
      "$ref": "#/components/responses/NotFound"
     },
     "416": {
      "description": "The range lies outside the file; Content-Range: bytes */size.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "ffmpeg cannot decode the file.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "Transcoding needs ffmpeg.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
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
     },
     {
      "name": "format",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string",
       "enum": [
        "raw",
        "mp3",
        "opus"
       ]
      },
      "description": "raw (default): the file with ranges; mp3 or opus: an ffmpeg transcode."
     },
     {
      "name": "bitrate",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 32,
       "maximum": 320
      },
      "description": "kbit/s of a transcode."
     }
    ],
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   },
   "head": {
    "operationId": "librarySongStreamHead",
    "summary": "The headers of GET",
    "responses": {
     "200": {
      "description": "The file (or a range of it: 206), or the transcode."
     },
     "206": {
      "description": "The file (or a range of it: 206), or the transcode."
     },
     "400": {
      "$ref": "#/components/responses/InvalidInput"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorized"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     },
     "416": {
      "description": "The range lies outside the file; Content-Range: bytes */size.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "422": {
      "description": "ffmpeg cannot decode the file.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     },
     "503": {
      "description": "Transcoding needs ffmpeg.",
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      }
     }
    },
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
     },
     {
      "name": "format",
      "in": "query",
      "required": false,
      "schema": {
       "type": "string",
       "enum": [
        "raw",
        "mp3",
        "opus"
       ]
      },
      "description": "raw (default): the file with ranges; mp3 or opus: an ffmpeg transcode."
     },
     {
      "name": "bitrate",
      "in": "query",
      "required": false,
      "schema": {
       "type": "integer",
       "minimum": 32,
       "maximum": 320
      },
      "description": "kbit/s of a transcode."
     }
    ],
    "security": [
     {
      "basic": []
     },
     {
      "session": []
     }
    ]
   }
  },
  "/api/library/tags": {
   "post": {
    "operationId": "libraryTags",
    "summary": "The tags and stream facts of an uploaded audio file (no sign-in)",
    "description": "The body is the file. The answer is `quintet tags --json`'s document as it is, so its keys are the tag model's names (camelCase: trackNumber, albumArtists, mimeType), the one exception to the snake_case convention.",
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
          "format",
          "tags",
          "pictures",
          "stream"
         ],
         "properties": {
          "file": {
           "type": [
            "string",
            "null"
           ]
          },
          "format": {
           "type": "string"
          },
          "tags": {
           "type": "object"
          },
          "pictures": {
           "type": "array",
           "items": {
            "type": "object",
            "required": [
             "type",
             "mimeType",
             "description",
             "bytes"
            ],
            "properties": {
             "type": {
              "type": "integer"
             },
             "mimeType": {
              "type": "string"
             },
             "description": {
              "type": "string"
             },
             "bytes": {
              "type": "integer"
             }
            }
           }
          },
          "stream": {
           "type": "object"
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
  }
 },
 "components": {
  "schemas": {
   "LibrarySong": {
    "type": "object",
    "required": [
     "id",
     "path",
     "title",
     "artist",
     "album",
     "album_id",
     "album_artist",
     "album_artist_id",
     "format",
     "codec",
     "suffix",
     "content_type",
     "size",
     "compilation",
     "has_picture",
     "play_count",
     "stream_url"
    ],
    "properties": {
     "id": {
      "type": "integer"
     },
     "path": {
      "type": "string"
     },
     "title": {
      "type": "string"
     },
     "artist": {
      "type": "string"
     },
     "artist_id": {
      "type": "integer"
     },
     "album": {
      "type": "string"
     },
     "album_id": {
      "type": "integer"
     },
     "album_artist": {
      "type": "string"
     },
     "album_artist_id": {
      "type": "integer"
     },
     "track": {
      "type": "integer"
     },
     "disc": {
      "type": "integer"
     },
     "year": {
      "type": "integer"
     },
     "genre": {
      "type": "string"
     },
     "composer": {
      "type": "string"
     },
     "duration": {
      "type": "number"
     },
     "bitrate": {
      "type": "integer"
     },
     "sample_rate": {
      "type": "integer"
     },
     "channels": {
      "type": "integer"
     },
     "bpm": {
      "type": "number",
      "description": "The effective BPM: the override if set, else the tag's or the analysis's. Absent while unknown."
     },
     "bpm_source": {
      "type": "string",
      "enum": ["override", "tag", "analysis"],
      "description": "Where bpm comes from. Absent while unknown."
     },
     "analysed_bpm": {
      "type": "number",
      "description": "The tag's or the analysis's BPM, under an override (equal to bpm without one). Absent while unknown."
     },
     "format": {
      "type": "string"
     },
     "codec": {
      "type": "string"
     },
     "suffix": {
      "type": "string"
     },
     "content_type": {
      "type": "string"
     },
     "size": {
      "type": "integer"
     },
     "compilation": {
      "type": "boolean"
     },
     "has_picture": {
      "type": "boolean"
     },
     "play_count": {
      "type": "integer"
     },
     "starred": {
      "type": "string",
      "format": "date-time",
      "description": "When this user starred it; absent when not starred."
     },
     "stream_url": {
      "type": "string"
     },
     "cover_url": {
      "type": "string"
     }
    }
   },
   "LibraryAlbum": {
    "type": "object",
    "required": [
     "id",
     "title",
     "artist",
     "artist_id",
     "disc_count",
     "compilation",
     "song_count",
     "duration",
     "has_cover",
     "play_count"
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
     "artist_id": {
      "type": "integer"
     },
     "year": {
      "type": "integer"
     },
     "genre": {
      "type": "string"
     },
     "disc_count": {
      "type": "integer"
     },
     "compilation": {
      "type": "boolean"
     },
     "song_count": {
      "type": "integer"
     },
     "duration": {
      "type": "number"
     },
     "has_cover": {
      "type": "boolean"
     },
     "cover_url": {
      "type": "string"
     },
     "play_count": {
      "type": "integer"
     },
     "starred": {
      "type": "string",
      "format": "date-time"
     }
    }
   },
   "LibraryArtist": {
    "type": "object",
    "required": [
     "id",
     "name",
     "sort_name",
     "album_count",
     "song_count"
    ],
    "properties": {
     "id": {
      "type": "integer"
     },
     "name": {
      "type": "string"
     },
     "sort_name": {
      "type": "string"
     },
     "album_count": {
      "type": "integer"
     },
     "song_count": {
      "type": "integer"
     },
     "starred": {
      "type": "string",
      "format": "date-time"
     }
    }
   },
   "LibraryScanIssue": {
    "type": "object",
    "required": [
     "path",
     "reason"
    ],
    "properties": {
     "path": {
      "type": "string"
     },
     "reason": {
      "type": "string"
     }
    }
   },
   "LibraryScanReport": {
    "type": "object",
    "required": [
     "files",
     "read",
     "unchanged",
     "removed",
     "songs",
     "albums",
     "artists",
     "errors",
     "seconds"
    ],
    "properties": {
     "files": {
      "type": "integer"
     },
     "read": {
      "type": "integer"
     },
     "unchanged": {
      "type": "integer"
     },
     "removed": {
      "type": "integer"
     },
     "songs": {
      "type": "integer"
     },
     "albums": {
      "type": "integer"
     },
     "artists": {
      "type": "integer"
     },
     "errors": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/LibraryScanIssue"
      }
     },
     "seconds": {
      "type": "number"
     }
    }
   },
   "LibraryScanStatus": {
    "type": "object",
    "required": [
     "state",
     "phase",
     "root",
     "demo",
     "files_seen",
     "files_to_read",
     "files_read",
     "songs",
     "errors",
     "files_per_second"
    ],
    "properties": {
     "state": {
      "type": "string",
      "enum": [
       "idle",
       "scanning"
      ]
     },
     "phase": {
      "type": "string"
     },
     "root": {
      "type": "string"
     },
     "demo": {
      "type": "boolean"
     },
     "files_seen": {
      "type": "integer"
     },
     "files_to_read": {
      "type": "integer"
     },
     "files_read": {
      "type": "integer"
     },
     "songs": {
      "type": "integer"
     },
     "errors": {
      "type": "array",
      "items": {
       "$ref": "#/components/schemas/LibraryScanIssue"
      }
     },
     "files_per_second": {
      "type": [
       "number",
       "string"
      ]
     },
     "eta": {
      "type": [
       "number",
       "string"
      ]
     },
     "last_scan": {
      "$ref": "#/components/schemas/LibraryScanReport"
     },
     "failure": {
      "type": "string"
     }
    }
   }
  }
 }
}
"""#
}
