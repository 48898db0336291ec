package dev.llmsafe.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON Schemas of the tools' structured results (MCP 2025-06-18 and later). A client may check every
 * result against them, and the official Java SDK client does, so they are tested against what the
 * tools really return.
 */
final class OutputSchemas {

    private OutputSchemas() {
    }

    static ObjectNode read() {
        return parse("""
                {"type": "object",
                 "properties": {
                   "columns": {"type": "array", "items": {"type": "object",
                     "properties": {"name": {"type": "string"}, "type": {"type": "string"}},
                     "required": ["name", "type"], "additionalProperties": false}},
                   "rows": {"type": "array",
                     "items": {"type": "array", "items": {"anyOf": [
                       {"type": ["string", "number", "boolean", "null"]},
                       {"type": "object", "description": "binary: every byte in lower-case hex",
                        "properties": {"t": {"const": "bin"}, "len": {"type": "integer", "minimum": 0},
                          "hex": {"type": "string", "pattern": "^([0-9a-f]{2})*$"}},
                        "required": ["t", "len", "hex"], "additionalProperties": false}]}}},
                   "rowCount": {"type": "integer", "minimum": 0},
                   "truncated": {"type": "boolean",
                     "description": "true when more rows matched than were returned"},
                   "truncatedBy": {"enum": ["rows", "bytes"],
                     "description": "present when truncated: the row cap, or the bound on a result's bytes"}},
                 "required": ["columns", "rows", "rowCount", "truncated"],
                 "additionalProperties": false}
                """);
    }

    static ObjectNode plan() {
        return parse("""
                {"type": "object",
                 "properties": {
                   "planId": {"type": "string"},
                   "card": {"type": "string", "description": "the confirmation card, to show the user"},
                   "plan": {"type": "object", "description": "the plan as JSON, format llmsafe-plan/2"}},
                 "required": ["planId", "card", "plan"],
                 "additionalProperties": false}
                """);
    }

    static ObjectNode status() {
        return parse("""
                {"type": "object",
                 "properties": {
                   "planId": {"type": "string"},
                   "status": {"enum": ["proposed", "approved", "applied", "failed", "rejected", "expired"]},
                   "reason": {"type": "string"},
                   "history": {"type": "array", "items": {"type": "string"}}},
                 "required": ["planId", "status", "history"],
                 "additionalProperties": false}
                """);
    }

    static ObjectNode schema() {
        return parse("""
                {"type": "object",
                 "properties": {
                   "format": {"enum": ["text", "json"]},
                   "text": {"type": "string"},
                   "schema": {"type": "object"}},
                 "required": ["format"],
                 "additionalProperties": false}
                """);
    }

    private static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JsonRpc.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
