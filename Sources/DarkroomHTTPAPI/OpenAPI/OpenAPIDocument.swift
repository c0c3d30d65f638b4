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
              "type": "boolean"
             }
            },
            "required": [
             "deadLetters",
             "more"
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
             "hasOutput": {
              "type": "boolean"
             },
             "id": {
              "type": "string"
             },
             "metadata": {
              "type": "object"
             },
             "result": {
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
             "hasOutput"
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
             "jobs": {
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
             }
            },
            "required": [
             "batch",
             "added",
             "known",
             "knownElsewhere",
             "jobs",
             "notes"
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
             }
            },
            "security": []
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
