/// The radio community's accounts part of `/api/openapi.json` (issue 24 §1, docs/radio.md
/// "Community: accounts, profiles and plans"): registration, invitations, passwords, the
/// signed-in user's profile and picture, and plans (admin).
enum AccountsOpenAPI {
    static let text = #"""
{
 "components": {
  "schemas": {
   "RadioPlan": {
    "type": "object",
    "required": ["id", "name", "max_episode_seconds", "max_episodes_online", "max_storage_bytes", "is_default", "created_at"],
    "properties": {
     "id": { "type": "integer" },
     "name": { "type": "string" },
     "max_episode_seconds": { "type": "integer", "minimum": 1 },
     "max_episodes_online": { "type": ["integer", "null"], "minimum": 0 },
     "max_storage_bytes": { "type": ["integer", "null"], "minimum": 0 },
     "is_default": { "type": "boolean" },
     "created_at": { "type": "string", "format": "date-time" }
    }
   },
   "RadioProfile": {
    "type": "object",
    "description": "The signed-in user's own profile: every field, empty ones as \"\" or null, with plan, usage and follow counts.",
    "required": ["user_id", "name", "display_name", "description", "town", "latitude", "longitude", "birth_date", "sex",
                 "has_picture", "plan", "usage", "followers", "following"],
    "properties": {
     "user_id": { "type": "integer" },
     "name": { "type": "string" },
     "display_name": { "type": "string", "maxLength": 80 },
     "description": { "type": "string", "maxLength": 2000 },
     "town": { "type": ["string", "null"], "maxLength": 100 },
     "latitude": { "type": ["number", "null"], "minimum": -90, "maximum": 90, "description": "Rounded to 0.01°." },
     "longitude": { "type": ["number", "null"], "minimum": -180, "maximum": 180, "description": "Rounded to 0.01°." },
     "birth_date": { "type": ["string", "null"], "format": "date", "description": "From 1900-01-01 to today." },
     "sex": { "type": ["string", "null"], "enum": ["female", "male", "other", "unspecified", null] },
     "has_picture": { "type": "boolean", "description": "The picture is at /radio/users/{user_id}/picture?size=64|256|full." },
     "plan": { "oneOf": [{ "$ref": "#/components/schemas/RadioPlan" }, { "type": "null" }] },
     "usage": { "type": "object", "properties": { "episodes_online": { "type": "integer" }, "storage_bytes": { "type": "integer" } } },
     "followers": { "type": "integer" },
     "following": { "type": "integer" }
    }
   },
   "ProfileEdit": {
    "type": "object",
    "description": "A full replacement: a missing or empty field is cleared.",
    "properties": {
     "display_name": { "type": ["string", "null"] }, "description": { "type": ["string", "null"] },
     "town": { "type": ["string", "null"] }, "latitude": { "type": ["number", "null"] }, "longitude": { "type": ["number", "null"] },
     "birth_date": { "type": ["string", "null"] }, "sex": { "type": ["string", "null"] }
    }
   },
   "PlanBody": {
    "type": "object",
    "properties": {
     "name": { "type": "string" }, "max_episode_seconds": { "type": "integer" }, "max_episodes_online": { "type": "integer" },
     "max_storage_bytes": { "type": "integer" }, "is_default": { "type": "boolean" }
    }
   }
  }
 },
 "paths": {
  "/api/register": {
   "get": {
    "operationId": "registrationMode", "summary": "Who may register: open, invite or closed",
    "responses": { "200": { "description": "OK", "content": { "application/json": { "schema": {
     "type": "object", "properties": { "registration": { "type": "string", "enum": ["open", "invite", "closed"] } } } } } } }
   },
   "post": {
    "operationId": "register", "summary": "Create a user (with an invitation unless registration is open) and sign in",
    "requestBody": { "required": true, "content": { "application/json": { "schema": {
     "type": "object", "required": ["name", "password"],
     "properties": { "name": { "type": "string" }, "password": { "type": "string", "minLength": 8 }, "invite": { "type": "string" } } } } } },
    "responses": {
     "201": { "description": "Registered; the quintet_session cookie is set.", "content": { "application/json": { "schema": {
      "type": "object", "properties": { "user": { "$ref": "#/components/schemas/User" } } } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "403": { "description": "registration_closed or invite_required.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "description": "invite_unknown.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "409": { "description": "The name is taken.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "410": { "description": "invite_used or invite_expired.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/radio/invites": {
   "post": {
    "operationId": "radioInvite", "summary": "A single-use invitation link (admins: any number; users: 5 unused at a time)",
    "security": [{ "basic": [] }, { "session": [] }],
    "requestBody": { "required": false, "content": { "application/json": { "schema": {
     "type": "object", "properties": { "days": { "type": "integer", "minimum": 1, "maximum": 365, "default": 7 } } } } } },
    "responses": {
     "201": { "description": "The link.", "content": { "application/json": { "schema": { "type": "object",
      "properties": { "url": { "type": "string" }, "token": { "type": "string" }, "expires_at": { "type": "string", "format": "date-time" } } } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "registration_closed.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "429": { "description": "too_many_invites.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/account/password": {
   "post": {
    "operationId": "changePassword", "summary": "Change the signed-in user's password",
    "security": [{ "basic": [] }, { "session": [] }],
    "requestBody": { "required": true, "content": { "application/json": { "schema": {
     "type": "object", "required": ["current", "new"], "properties": { "current": { "type": "string" }, "new": { "type": "string", "minLength": 8 } } } } } },
    "responses": {
     "204": { "description": "Changed." },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "wrong_password.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/users/{name}/password": {
   "post": {
    "operationId": "resetPassword", "summary": "Set a user's password (admin)",
    "security": [{ "basic": [] }, { "session": [] }],
    "parameters": [{ "name": "name", "in": "path", "required": true, "schema": { "type": "string" } }],
    "requestBody": { "required": true, "content": { "application/json": { "schema": {
     "type": "object", "required": ["password"], "properties": { "password": { "type": "string", "minLength": 8 } } } } } },
    "responses": {
     "204": { "description": "Set." }, "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not an admin.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   }
  },
  "/api/users/{name}/plan": {
   "put": {
    "operationId": "assignPlan", "summary": "Give a user a plan, or null for the default (admin)",
    "security": [{ "basic": [] }, { "session": [] }],
    "parameters": [{ "name": "name", "in": "path", "required": true, "schema": { "type": "string" } }],
    "requestBody": { "required": true, "content": { "application/json": { "schema": {
     "type": "object", "properties": { "plan": { "type": ["string", "null"] } } } } } },
    "responses": {
     "200": { "description": "The user's profile.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioProfile" } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not an admin.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   }
  },
  "/api/radio/profile": {
   "get": {
    "operationId": "radioProfile", "summary": "The signed-in user's profile, every field",
    "security": [{ "basic": [] }, { "session": [] }],
    "responses": {
     "200": { "description": "OK", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioProfile" } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" }
    }
   },
   "put": {
    "operationId": "editRadioProfile", "summary": "Replace the profile's fields",
    "security": [{ "basic": [] }, { "session": [] }],
    "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/ProfileEdit" } } } },
    "responses": {
     "200": { "description": "OK", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioProfile" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" }
    }
   }
  },
  "/api/radio/profile/picture": {
   "put": {
    "operationId": "radioProfilePicture", "summary": "Upload a picture (JPEG, PNG or WebP, at most 5 MB; re-encoded without metadata)",
    "security": [{ "basic": [] }, { "session": [] }],
    "requestBody": { "required": true, "content": { "image/jpeg": {}, "image/png": {}, "image/webp": {} } },
    "responses": {
     "200": { "description": "OK", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioProfile" } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "413": { "$ref": "#/components/responses/TooLarge" },
     "422": { "description": "not_an_image.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/radio/plans": {
   "get": {
    "operationId": "radioPlans", "summary": "Every plan (admin)",
    "security": [{ "basic": [] }, { "session": [] }],
    "responses": {
     "200": { "description": "OK", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/RadioPlan" } } } } },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not an admin.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   },
   "post": {
    "operationId": "addRadioPlan", "summary": "Add a plan (admin)",
    "security": [{ "basic": [] }, { "session": [] }],
    "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/PlanBody" } } } },
    "responses": {
     "201": { "description": "Added.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioPlan" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "403": { "description": "Not an admin.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
    }
   }
  },
  "/api/radio/plans/{name}": {
   "put": {
    "operationId": "setRadioPlan", "summary": "Change a plan's limits (admin)",
    "security": [{ "basic": [] }, { "session": [] }],
    "parameters": [{ "name": "name", "in": "path", "required": true, "schema": { "type": "string" } }],
    "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/PlanBody" } } } },
    "responses": {
     "200": { "description": "Changed.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/RadioPlan" } } } },
     "400": { "$ref": "#/components/responses/InvalidInput" },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   },
   "delete": {
    "operationId": "removeRadioPlan", "summary": "Remove a plan (admin)",
    "security": [{ "basic": [] }, { "session": [] }],
    "parameters": [{ "name": "name", "in": "path", "required": true, "schema": { "type": "string" } }],
    "responses": {
     "204": { "description": "Removed." },
     "401": { "$ref": "#/components/responses/Unauthorized" },
     "404": { "$ref": "#/components/responses/NotFound" }
    }
   }
  }
 }
}
"""#
}
