/// The OpenAPI 3.1 document of the job API, served at `GET /v1/openapi.json`. The same text is
/// `docs/openapi.json` (OpenAPIDocumentTests holds the two equal, and every route in it); it is
/// embedded here so that the `darkroom` binary alone can serve it.
enum OpenAPIDocument {
    static let json = #"""
        {
         "components": {
          "responses": {
           "Error": {
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Errors"
              }
             }
            },
            "description": "A refusal or failure"
           },
           "Forbidden": {
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Errors"
              }
             }
            },
            "description": "The key lacks the scope, or a job is outside its grants (apikey.*)"
           },
           "RateLimited": {
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Errors"
              }
             }
            },
            "description": "The key's rate limit is spent (apikey.rate-limited)",
            "headers": {
             "Retry-After": {
              "description": "Whole seconds until the key has a token again",
              "schema": {
               "minimum": 1,
               "type": "integer"
              }
             }
            }
           },
           "RequestTimeout": {
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Errors"
              }
             }
            },
            "description": "The request's headers or body did not arrive within the server's deadline (api.request-timeout); the connection is then closed"
           },
           "Unauthenticated": {
            "content": {
             "application/json": {
              "schema": {
               "$ref": "#/components/schemas/Errors"
              }
             }
            },
            "description": "No token, a malformed or unknown one, or a revoked key's (apikey.unauthenticated)",
            "headers": {
             "WWW-Authenticate": {
              "schema": {
               "const": "Bearer",
               "type": "string"
              }
             }
            }
           }
          },
          "schemas": {
           "Batch": {
            "properties": {
             "batch": {
              "type": "string"
             },
             "cancelled": {
              "type": "integer"
             },
             "complete": {
              "type": "boolean"
             },
             "dead": {
              "type": "integer"
             },
             "endedAt": {
              "type": "string"
             },
             "enqueuedAt": {
              "type": "string"
             },
             "failed": {
              "type": "integer"
             },
             "p50Milliseconds": {
              "type": "number"
             },
             "p95Milliseconds": {
              "type": "number"
             },
             "queued": {
              "type": "integer"
             },
             "remaining": {
              "type": "integer"
             },
             "running": {
              "type": "integer"
             },
             "seconds": {
              "type": "number"
             },
             "succeeded": {
              "type": "integer"
             },
             "total": {
              "type": "integer"
             }
            },
            "required": [
             "batch",
             "total",
             "succeeded",
             "failed",
             "dead",
             "cancelled",
             "remaining",
             "complete"
            ],
            "type": "object"
           },
           "BatchCancellation": {
            "properties": {
             "batch": {
              "type": "string"
             },
             "cancelled": {
              "type": "integer"
             },
             "running": {
              "type": "integer"
             }
            },
            "required": [
             "batch",
             "cancelled",
             "running"
            ],
            "type": "object"
           },
           "BatchJobs": {
            "properties": {
             "asOf": {
              "description": "When the coordinator last folded events (the states are as of then); null when no coordinator is registered",
              "type": [
               "string",
               "null"
              ]
             },
             "batch": {
              "type": "string"
             },
             "jobs": {
              "items": {
               "properties": {
                "attempts": {
                 "description": "The attempt of the job's latest event; 0 before any",
                 "minimum": 0,
                 "type": "integer"
                },
                "id": {
                 "type": "string"
                },
                "state": {
                 "enum": [
                  "queued",
                  "running",
                  "retrying",
                  "succeeded",
                  "failed",
                  "dead",
                  "cancelled"
                 ],
                 "type": "string"
                },
                "updatedAt": {
                 "description": "When the job's latest event happened (ISO-8601); null for a queued job",
                 "type": [
                  "string",
                  "null"
                 ]
                }
               },
               "required": [
                "id",
                "state",
                "attempts",
                "updatedAt"
               ],
               "type": "object"
              },
              "type": "array"
             },
             "nextCursor": {
              "description": "The cursor of the next page; null on the last page",
              "type": [
               "string",
               "null"
              ]
             },
             "state": {
              "description": "The state asked for; null for every state",
              "enum": [
               "queued",
               "running",
               "retrying",
               "succeeded",
               "failed",
               "dead",
               "cancelled",
               null
              ],
              "type": [
               "string",
               "null"
              ]
             }
            },
            "required": [
             "batch",
             "state",
             "jobs",
             "nextCursor",
             "asOf"
            ],
            "type": "object"
           },
           "BatchRequest": {
            "additionalProperties": false,
            "properties": {
             "batch": {
              "type": "string"
             },
             "chain": {
              "type": [
               "string",
               "null"
              ]
             },
             "delay": {
              "maximum": 31536000,
              "minimum": 0,
              "type": "number"
             },
             "firstFrameOnly": {
              "type": [
               "boolean",
               "null"
              ]
             },
             "format": {
              "type": [
               "string",
               "null"
              ]
             },
             "idFromSource": {
              "type": "boolean"
             },
             "jobs": {
              "items": {
               "$ref": "#/components/schemas/JobRequest"
              },
              "maxItems": 1000,
              "minItems": 1,
              "type": "array"
             },
             "keep": {
              "$ref": "#/components/schemas/Keep"
             },
             "name": {
              "type": [
               "string",
               "null"
              ]
             },
             "output": {
              "type": [
               "string",
               "null"
              ]
             },
             "placeholders": {
              "$ref": "#/components/schemas/Placeholders"
             },
             "priority": {
              "enum": [
               "high",
               "normal",
               "low",
               null
              ],
              "type": [
               "string",
               "null"
              ]
             },
             "quality": {
              "maximum": 100,
              "minimum": 1,
              "type": [
               "integer",
               "null"
              ]
             },
             "renditions": {
              "description": "Several outputs of each source from one decode, for every job that gives neither its own chain nor its own renditions; not with chain (docs/renditions.md).",
              "items": {
               "$ref": "#/components/schemas/Rendition"
              },
              "maxItems": 64,
              "minItems": 1,
              "type": [
               "array",
               "null"
              ]
             }
            },
            "required": [
             "jobs"
            ],
            "type": "object"
           },
           "DeadLetters": {
            "properties": {
             "deadLetters": {
              "items": {
               "properties": {
                "at": {
                 "type": "string"
                },
                "error": {
                 "$ref": "#/components/schemas/JobError"
                },
                "id": {
                 "type": "string"
                },
                "job": {
                 "type": "object"
                }
               },
               "required": [
                "id",
                "at",
                "error"
               ],
               "type": "object"
              },
              "type": "array"
             },
             "more": {
              "description": "Whether a next page exists (nextCursor is not null)",
              "type": "boolean"
             },
             "nextCursor": {
              "description": "The cursor of the next page (its last entry's id); null on the last page",
              "type": [
               "string",
               "null"
              ]
             }
            },
            "required": [
             "deadLetters",
             "more",
             "nextCursor"
            ],
            "type": "object"
           },
           "Errors": {
            "properties": {
             "errors": {
              "items": {
               "properties": {
                "code": {
                 "type": "string"
                },
                "column": {
                 "type": "integer"
                },
                "location": {
                 "type": "string"
                },
                "message": {
                 "type": "string"
                }
               },
               "required": [
                "code",
                "message"
               ],
               "type": "object"
              },
              "type": "array"
             }
            },
            "required": [
             "errors"
            ],
            "type": "object"
           },
           "Job": {
            "properties": {
             "attempt": {
              "type": "integer"
             },
             "batch": {
              "type": "string"
             },
             "chain": {
              "type": "string"
             },
             "error": {
              "$ref": "#/components/schemas/JobError"
             },
             "errors": {
              "description": "Every attempt's error, oldest first; empty for a job that never failed. The newest 20 are kept; older ones are dropped and counted in errorsDropped.",
              "items": {
               "$ref": "#/components/schemas/JobAttemptError"
              },
              "type": "array"
             },
             "errorsDropped": {
              "description": "How many older errors were dropped from errors; absent when none were.",
              "minimum": 1,
              "type": "integer"
             },
             "eventTrimmed": {
              "description": "True when the job's terminal event has been trimmed from the event stream (which keeps about the last 100,000 events) and the job is answered from its finished record, kept for 7 days: state, batch, attempt, updatedAt and a failure's error code (with an empty message); no worker, result, source, chain or metadata (the coordinator's event log on the volume has them). Absent otherwise.",
              "type": "boolean"
             },
             "hasOutput": {
              "type": "boolean"
             },
             "id": {
              "type": "string"
             },
             "metadata": {
              "type": "object"
             },
             "outputs": {
              "description": "With eventTrimmed, a succeeded job's number of outputs (one per rendition).",
              "minimum": 0,
              "type": "integer"
             },
             "result": {
              "description": "A succeeded job's result (docs/queue.md): output (a path, or the object's s3:// URL), etag (an object-storage output's ETag), sha256, format, width, height, bytes, cache, ms, placeholders (blurhash, thumbhash, color: those the job asked for; docs/placeholders.md), and renditions for a job with renditions.",
              "type": "object"
             },
             "source": {
              "type": "string"
             },
             "state": {
              "enum": [
               "running",
               "retrying",
               "succeeded",
               "failed",
               "dead",
               "cancelled"
              ],
              "type": "string"
             },
             "updatedAt": {
              "type": "string"
             },
             "worker": {
              "type": "string"
             }
            },
            "required": [
             "id",
             "state",
             "updatedAt",
             "hasOutput",
             "errors"
            ],
            "type": "object"
           },
           "JobAttemptError": {
            "description": "One attempt's error: a failed (retried or final) or dead event of the job.",
            "properties": {
             "at": {
              "description": "When the failure happened (ISO-8601, milliseconds, Z)",
              "type": "string"
             },
             "attempt": {
              "minimum": 1,
              "type": "integer"
             },
             "code": {
              "type": "string"
             },
             "message": {
              "type": "string"
             }
            },
            "required": [
             "attempt",
             "code",
             "message",
             "at"
            ],
            "type": "object"
           },
           "JobCancellation": {
            "properties": {
             "cancelled": {
              "type": "boolean"
             },
             "id": {
              "type": "string"
             }
            },
            "required": [
             "id",
             "cancelled"
            ],
            "type": "object"
           },
           "JobError": {
            "properties": {
             "code": {
              "type": "string"
             },
             "message": {
              "type": "string"
             }
            },
            "required": [
             "code",
             "message"
            ],
            "type": "object"
           },
           "JobRequest": {
            "additionalProperties": false,
            "properties": {
             "chain": {
              "type": [
               "string",
               "null"
              ]
             },
             "firstFrameOnly": {
              "type": [
               "boolean",
               "null"
              ]
             },
             "format": {
              "type": [
               "string",
               "null"
              ]
             },
             "id": {
              "type": [
               "string",
               "null"
              ]
             },
             "keep": {
              "$ref": "#/components/schemas/Keep"
             },
             "metadata": {
              "description": "At most 4096 bytes as JSON, nested at most 4 deep.",
              "type": [
               "object",
               "null"
              ]
             },
             "name": {
              "type": [
               "string",
               "null"
              ]
             },
             "output": {
              "type": [
               "string",
               "null"
              ]
             },
             "placeholders": {
              "$ref": "#/components/schemas/Placeholders"
             },
             "priority": {
              "enum": [
               "high",
               "normal",
               "low",
               null
              ],
              "type": [
               "string",
               "null"
              ]
             },
             "quality": {
              "maximum": 100,
              "minimum": 1,
              "type": [
               "integer",
               "null"
              ]
             },
             "renditions": {
              "description": "Several outputs of the source from one decode, instead of chain (docs/renditions.md).",
              "items": {
               "$ref": "#/components/schemas/Rendition"
              },
              "maxItems": 64,
              "minItems": 1,
              "type": [
               "array",
               "null"
              ]
             },
             "source": {
              "description": "A path, an http(s):// URL, a data: URI or an s3:// object. In POST /v1/batches also an s3:// prefix (ending in /) or glob (*, ?, **): the API lists it and makes one job per matching object, at most 10000 per request (docs/http-api.md#prefixes-and-globs).",
              "minLength": 1,
              "type": "string"
             },
             "webhook": {
              "description": "A webhook endpoint (registered with `darkroom webhook add`, and granted to the key with `--allow-webhook`) notified, signed, when the job ends.",
              "maxLength": 64,
              "minLength": 1,
              "type": [
               "string",
               "null"
              ]
             }
            },
            "required": [
             "source"
            ],
            "type": "object"
           },
           "Keep": {
            "description": "What the output keeps of the source: its ICC profile (icc, no conversion to sRGB), EXIF (exif), XMP (xmp), only its copyright and artist (copyright), and GPS inside EXIF or XMP (gps, with exif or xmp). Default: nothing (upright sRGB, no metadata). See docs/formats-and-color.md.",
            "items": {
             "enum": [
              "copyright",
              "exif",
              "gps",
              "icc",
              "xmp"
             ],
             "type": "string"
            },
            "type": [
             "array",
             "null"
            ]
           },
           "Placeholders": {
            "description": "The placeholders the job's result carries in result.placeholders (and each rendition's): a BlurHash (blurhash, 4x3 components), a ThumbHash (thumbhash, base64) and the dominant colour (color, #rrggbb), computed from the output scaled to fit in 100x100. Default: none. A job with placeholders requires the placeholders capability. See docs/placeholders.md.",
            "items": {
             "enum": [
              "blurhash",
              "color",
              "thumbhash"
             ],
             "type": "string"
            },
            "type": [
             "array",
             "null"
            ]
           },
           "Rendition": {
            "additionalProperties": false,
            "description": "One output of a job with renditions, made from the decode all the job's renditions share (docs/renditions.md).",
            "properties": {
             "chain": {
              "description": "Chain text; empty: only re-encode.",
              "type": "string"
             },
             "format": {
              "type": [
               "string",
               "null"
              ]
             },
             "name": {
              "description": "1-64 of A-Z a-z 0-9 _ -, unique within the job.",
              "pattern": "^[A-Za-z0-9_-]{1,64}$",
              "type": "string"
             },
             "quality": {
              "maximum": 100,
              "minimum": 1,
              "type": [
               "integer",
               "null"
              ]
             }
            },
            "required": [
             "name",
             "chain"
            ],
            "type": "object"
           },
           "SingleJob": {
            "additionalProperties": false,
            "properties": {
             "batch": {
              "type": "string"
             },
             "chain": {
              "type": [
               "string",
               "null"
              ]
             },
             "delay": {
              "maximum": 31536000,
              "minimum": 0,
              "type": "number"
             },
             "firstFrameOnly": {
              "type": [
               "boolean",
               "null"
              ]
             },
             "format": {
              "type": [
               "string",
               "null"
              ]
             },
             "id": {
              "type": [
               "string",
               "null"
              ]
             },
             "keep": {
              "$ref": "#/components/schemas/Keep"
             },
             "metadata": {
              "description": "At most 4096 bytes as JSON, nested at most 4 deep.",
              "type": [
               "object",
               "null"
              ]
             },
             "name": {
              "type": [
               "string",
               "null"
              ]
             },
             "output": {
              "type": [
               "string",
               "null"
              ]
             },
             "placeholders": {
              "$ref": "#/components/schemas/Placeholders"
             },
             "priority": {
              "enum": [
               "high",
               "normal",
               "low",
               null
              ],
              "type": [
               "string",
               "null"
              ]
             },
             "quality": {
              "maximum": 100,
              "minimum": 1,
              "type": [
               "integer",
               "null"
              ]
             },
             "renditions": {
              "description": "Several outputs of the source from one decode, instead of chain (docs/renditions.md).",
              "items": {
               "$ref": "#/components/schemas/Rendition"
              },
              "maxItems": 64,
              "minItems": 1,
              "type": [
               "array",
               "null"
              ]
             },
             "source": {
              "description": "An absolute path, an http(s):// URL or a data: URI.",
              "minLength": 1,
              "type": "string"
             },
             "webhook": {
              "description": "A webhook endpoint (registered with `darkroom webhook add`, and granted to the key with `--allow-webhook`) notified, signed, when the job ends.",
              "maxLength": 64,
              "minLength": 1,
              "type": [
               "string",
               "null"
              ]
             }
            },
            "required": [
             "source"
            ],
            "type": "object"
           },
           "SubmitAnswer": {
            "properties": {
             "added": {
              "type": "integer"
             },
             "batch": {
              "type": "string"
             },
             "count": {
              "description": "Every job of the request: those in jobs, and those listed from s3:// prefixes and globs",
              "type": "integer"
             },
             "jobs": {
              "description": "The jobs whose sources the request wrote out, in request order (not those listed from a prefix or glob: GET /v1/batches/{batch}/jobs pages through those)",
              "items": {
               "properties": {
                "chain": {
                 "type": "string"
                },
                "id": {
                 "type": "string"
                },
                "source": {
                 "type": "string"
                }
               },
               "required": [
                "id",
                "source",
                "chain"
               ],
               "type": "object"
              },
              "type": "array"
             },
             "known": {
              "type": "integer"
             },
             "knownElsewhere": {
              "items": {
               "properties": {
                "batch": {
                 "type": "string"
                },
                "count": {
                 "type": "integer"
                }
               },
               "type": "object"
              },
              "type": "array"
             },
             "notes": {
              "items": {
               "type": "string"
              },
              "type": "array"
             },
             "patterns": {
              "description": "What each s3:// prefix or glob of a POST /v1/batches listed; absent when it had none (docs/http-api.md#prefixes-and-globs)",
              "items": {
               "properties": {
                "listed": {
                 "type": "integer"
                },
                "matched": {
                 "type": "integer"
                },
                "pages": {
                 "type": "integer"
                },
                "pattern": {
                 "type": "string"
                },
                "skipped": {
                 "type": "integer"
                }
               },
               "required": [
                "pattern",
                "pages",
                "listed",
                "matched",
                "skipped"
               ],
               "type": "object"
              },
              "type": "array"
             }
            },
            "required": [
             "batch",
             "added",
             "known",
             "knownElsewhere",
             "jobs",
             "notes",
             "count"
            ],
            "type": "object"
           },
           "WebhookDelivery": {
            "properties": {
             "attempt": {
              "type": "integer"
             },
             "createdAt": {
              "type": "string"
             },
             "endpoint": {
              "type": "string"
             },
             "event": {
              "type": "string"
             },
             "id": {
              "type": "string"
             },
             "lastError": {
              "type": "string"
             },
             "nextAttemptAt": {
              "type": "string"
             },
             "orderKey": {
              "type": "string"
             },
             "state": {
              "enum": [
               "pending",
               "delivered",
               "failed"
              ],
              "type": "string"
             }
            },
            "required": [
             "id",
             "endpoint",
             "event",
             "orderKey",
             "attempt",
             "createdAt",
             "state"
            ],
            "type": "object"
           },
           "WebhookEndpoint": {
            "description": "A registered webhook endpoint; never its secrets.",
            "properties": {
             "allowPrivateNetwork": {
              "type": "boolean"
             },
             "createdAt": {
              "type": "string"
             },
             "liveSecrets": {
              "description": "1, or 2 between rotate and retire-old.",
              "type": "integer"
             },
             "name": {
              "type": "string"
             },
             "url": {
              "type": "string"
             }
            },
            "required": [
             "name",
             "url",
             "allowPrivateNetwork",
             "liveSecrets",
             "createdAt"
            ],
            "type": "object"
           },
           "WebhookSecret": {
            "description": "An endpoint with the secret just made: shown in this answer only.",
            "properties": {
             "endpoint": {
              "$ref": "#/components/schemas/WebhookEndpoint"
             },
             "secret": {
              "description": "`whsec_` and 64 hex digits; the HMAC key is the whole text.",
              "type": "string"
             }
            },
            "required": [
             "endpoint",
             "secret"
            ],
            "type": "object"
           }
          },
          "securitySchemes": {
           "bearer": {
            "description": "An API key's token, `dk_…` (`darkroom api-key create`); docs/http-api.md, \"Keys, scopes and limits\".",
            "scheme": "bearer",
            "type": "http"
           }
          }
         },
         "info": {
          "description": "docs/http-api.md",
          "title": "Darkroom job API",
          "version": "1"
         },
         "openapi": "3.1.0",
         "paths": {
          "/v1/batches": {
           "post": {
            "description": "Submits 1 to 1000 jobs, all or none; a job whose source is an s3:// prefix or glob is listed page by page, each page enqueued as it comes (docs/http-api.md#prefixes-and-globs).",
            "operationId": "submitBatch",
            "parameters": [
             {
              "in": "header",
              "name": "Idempotency-Key",
              "required": false,
              "schema": {
               "maxLength": 255,
               "minLength": 1,
               "pattern": "^[!-~]+$",
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/BatchRequest"
               }
              }
             },
             "required": true
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/SubmitAnswer"
                }
               }
              },
              "description": "Every job was known"
             },
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/SubmitAnswer"
                }
               }
              },
              "description": "Enqueued"
             },
             "400": {
              "$ref": "#/components/responses/Error"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "409": {
              "$ref": "#/components/responses/Error"
             },
             "413": {
              "$ref": "#/components/responses/Error"
             },
             "422": {
              "$ref": "#/components/responses/Error"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            }
           }
          },
          "/v1/batches/{batch}": {
           "delete": {
            "operationId": "cancelBatch",
            "parameters": [
             {
              "in": "path",
              "name": "batch",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/BatchCancellation"
                }
               }
              },
              "description": "Cancelled"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            }
           },
           "get": {
            "operationId": "getBatch",
            "parameters": [
             {
              "in": "path",
              "name": "batch",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Batch"
                }
               }
              },
              "description": "The batch"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            }
           }
          },
          "/v1/batches/{batch}/jobs": {
           "get": {
            "operationId": "listBatchJobs",
            "parameters": [
             {
              "in": "path",
              "name": "batch",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "query",
              "name": "state",
              "required": false,
              "schema": {
               "enum": [
                "queued",
                "running",
                "retrying",
                "succeeded",
                "failed",
                "dead",
                "cancelled"
               ],
               "type": "string"
              }
             },
             {
              "in": "query",
              "name": "limit",
              "required": false,
              "schema": {
               "maximum": 1000,
               "minimum": 1,
               "type": "integer"
              }
             },
             {
              "description": "The nextCursor of the previous page",
              "in": "query",
              "name": "cursor",
              "required": false,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/BatchJobs"
                }
               }
              },
              "description": "One page of the batch's jobs"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "422": {
              "$ref": "#/components/responses/Error"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "A batch's jobs in the order they entered it, one page, optionally only those in one state (read; without admin only the key's own batch)"
           }
          },
          "/v1/dead-letters": {
           "delete": {
            "operationId": "purgeDeadLetters",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "properties": {
                  "purged": {
                   "type": "integer"
                  }
                 },
                 "required": [
                  "purged"
                 ],
                 "type": "object"
                }
               }
              },
              "description": "Purged"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            }
           },
           "get": {
            "operationId": "listDeadLetters",
            "parameters": [
             {
              "in": "query",
              "name": "limit",
              "required": false,
              "schema": {
               "maximum": 1000,
               "minimum": 1,
               "type": "integer"
              }
             },
             {
              "description": "The nextCursor of the previous page",
              "in": "query",
              "name": "cursor",
              "required": false,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/DeadLetters"
                }
               }
              },
              "description": "The oldest dead letters"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "422": {
              "$ref": "#/components/responses/Error"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            }
           }
          },
          "/v1/dead-letters/retry": {
           "post": {
            "operationId": "retryDeadLetters",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "properties": {
                 "ids": {
                  "description": "The dead letters' job ids to queue again; absent or null: every dead letter.",
                  "items": {
                   "type": "string"
                  },
                  "type": [
                   "array",
                   "null"
                  ]
                 }
                },
                "type": "object"
               }
              }
             },
             "required": false
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "properties": {
                  "retried": {
                   "type": "integer"
                  }
                 },
                 "required": [
                  "retried"
                 ],
                 "type": "object"
                }
               }
              },
              "description": "Queued again"
             },
             "400": {
              "$ref": "#/components/responses/Error"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "413": {
              "$ref": "#/components/responses/Error"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            }
           }
          },
          "/v1/jobs": {
           "post": {
            "operationId": "submitJob",
            "parameters": [
             {
              "in": "header",
              "name": "Idempotency-Key",
              "required": false,
              "schema": {
               "maxLength": 255,
               "minLength": 1,
               "pattern": "^[!-~]+$",
               "type": "string"
              }
             }
            ],
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "$ref": "#/components/schemas/SingleJob"
               }
              }
             },
             "required": true
            },
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/SubmitAnswer"
                }
               }
              },
              "description": "Every job was known"
             },
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/SubmitAnswer"
                }
               }
              },
              "description": "Enqueued"
             },
             "400": {
              "$ref": "#/components/responses/Error"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "409": {
              "$ref": "#/components/responses/Error"
             },
             "413": {
              "$ref": "#/components/responses/Error"
             },
             "422": {
              "$ref": "#/components/responses/Error"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            }
           }
          },
          "/v1/jobs/{id}": {
           "delete": {
            "operationId": "cancelJob",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/JobCancellation"
                }
               }
              },
              "description": "Cancelled or not"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            }
           },
           "get": {
            "operationId": "getJob",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/Job"
                }
               }
              },
              "description": "The job"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            }
           }
          },
          "/v1/jobs/{id}/output": {
           "get": {
            "operationId": "getJobOutput",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             },
             {
              "in": "header",
              "name": "If-None-Match",
              "required": false,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/octet-stream": {
                "schema": {
                 "type": "string"
                }
               },
               "image/*": {
                "schema": {
                 "contentMediaType": "application/octet-stream",
                 "type": "string"
                }
               }
              },
              "description": "The output's bytes",
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "304": {
              "description": "Not modified",
              "headers": {
               "ETag": {
                "schema": {
                 "type": "string"
                }
               }
              }
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "410": {
              "$ref": "#/components/responses/Error"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            }
           }
          },
          "/v1/openapi.json": {
           "get": {
            "operationId": "getOpenAPI",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "type": "object"
                }
               }
              },
              "description": "This document"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             }
            },
            "security": []
           }
          },
          "/v1/webhooks": {
           "get": {
            "operationId": "listWebhooks",
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "properties": {
                  "webhooks": {
                   "items": {
                    "$ref": "#/components/schemas/WebhookEndpoint"
                   },
                   "type": "array"
                  }
                 },
                 "required": [
                  "webhooks"
                 ],
                 "type": "object"
                }
               }
              },
              "description": "The endpoints, by name"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "Every webhook endpoint, without secrets (admin)"
           },
           "post": {
            "operationId": "createWebhook",
            "requestBody": {
             "content": {
              "application/json": {
               "schema": {
                "additionalProperties": false,
                "properties": {
                 "allowPrivateNetwork": {
                  "default": false,
                  "type": [
                   "boolean",
                   "null"
                  ]
                 },
                 "name": {
                  "description": "1–64 letters, digits, `-`, `_` or `.`",
                  "maxLength": 64,
                  "minLength": 1,
                  "pattern": "^[A-Za-z0-9._-]{1,64}$",
                  "type": "string"
                 },
                 "url": {
                  "description": "http:// or https:// with a host, no spaces or control characters, at most 2,048 bytes",
                  "maxLength": 2048,
                  "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
                  "type": "string"
                 }
                },
                "required": [
                 "name",
                 "url"
                ],
                "type": "object"
               }
              }
             },
             "required": true
            },
            "responses": {
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookSecret"
                }
               }
              },
              "description": "Registered, with its secret"
             },
             "400": {
              "$ref": "#/components/responses/Error"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "409": {
              "$ref": "#/components/responses/Error"
             },
             "413": {
              "$ref": "#/components/responses/Error"
             },
             "422": {
              "$ref": "#/components/responses/Error"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "Register a webhook endpoint; its secret is in this answer only (admin)"
           }
          },
          "/v1/webhooks/deliveries": {
           "get": {
            "operationId": "listWebhookDeliveries",
            "parameters": [
             {
              "in": "query",
              "name": "failed",
              "required": false,
              "schema": {
               "enum": [
                "true",
                "false"
               ],
               "type": "string"
              }
             },
             {
              "in": "query",
              "name": "limit",
              "required": false,
              "schema": {
               "maximum": 1000,
               "minimum": 1,
               "type": "integer"
              }
             },
             {
              "description": "The nextCursor of the previous page",
              "in": "query",
              "name": "cursor",
              "required": false,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "properties": {
                  "deliveries": {
                   "items": {
                    "$ref": "#/components/schemas/WebhookDelivery"
                   },
                   "type": "array"
                  },
                  "dropped": {
                   "description": "With failed=true: how many deliveries a cap has failed since the fleet began.",
                   "type": "integer"
                  },
                  "nextCursor": {
                   "description": "The cursor of the next page; null on the last page",
                   "type": [
                    "string",
                    "null"
                   ]
                  }
                 },
                 "required": [
                  "deliveries",
                  "nextCursor"
                 ],
                 "type": "object"
                }
               }
              },
              "description": "The deliveries"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "422": {
              "$ref": "#/components/responses/Error"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "Pending (oldest first) or failed (latest first) deliveries, without bodies (admin)"
           }
          },
          "/v1/webhooks/deliveries/{id}/redeliver": {
           "post": {
            "operationId": "redeliverWebhook",
            "parameters": [
             {
              "in": "path",
              "name": "id",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "properties": {
                  "id": {
                   "type": "string"
                  },
                  "state": {
                   "enum": [
                    "pending"
                   ],
                   "type": "string"
                  }
                 },
                 "required": [
                  "id",
                  "state"
                 ],
                 "type": "object"
                }
               }
              },
              "description": "Pending again"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "Send a failed (or delivered) delivery again, same id and body (admin)"
           }
          },
          "/v1/webhooks/{name}": {
           "delete": {
            "operationId": "removeWebhook",
            "parameters": [
             {
              "in": "path",
              "name": "name",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "properties": {
                  "removed": {
                   "type": "string"
                  }
                 },
                 "required": [
                  "removed"
                 ],
                 "type": "object"
                }
               }
              },
              "description": "Removed"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "Remove an endpoint and its secrets (admin)"
           }
          },
          "/v1/webhooks/{name}/retire-old": {
           "post": {
            "operationId": "retireOldWebhookSecret",
            "parameters": [
             {
              "in": "path",
              "name": "name",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "200": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookEndpoint"
                }
               }
              },
              "description": "The endpoint, one secret live"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "409": {
              "$ref": "#/components/responses/Error"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "Drop the older of two live secrets (admin)"
           }
          },
          "/v1/webhooks/{name}/rotate": {
           "post": {
            "operationId": "rotateWebhookSecret",
            "parameters": [
             {
              "in": "path",
              "name": "name",
              "required": true,
              "schema": {
               "type": "string"
              }
             }
            ],
            "responses": {
             "201": {
              "content": {
               "application/json": {
                "schema": {
                 "$ref": "#/components/schemas/WebhookSecret"
                }
               }
              },
              "description": "The new secret; the old one signs too until retire-old"
             },
             "401": {
              "$ref": "#/components/responses/Unauthenticated"
             },
             "403": {
              "$ref": "#/components/responses/Forbidden"
             },
             "404": {
              "$ref": "#/components/responses/Error"
             },
             "408": {
              "$ref": "#/components/responses/RequestTimeout"
             },
             "409": {
              "$ref": "#/components/responses/Error"
             },
             "429": {
              "$ref": "#/components/responses/RateLimited"
             },
             "500": {
              "$ref": "#/components/responses/Error"
             },
             "503": {
              "$ref": "#/components/responses/Error"
             }
            },
            "summary": "Add a second live secret, shown in this answer only (admin)"
           }
          }
         },
         "security": [
          {
           "bearer": []
          }
         ]
        }
        """#
}
