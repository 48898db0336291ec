/**
 * The MCP server: {@link dev.llmsafe.mcp.McpServer} speaks the Model Context Protocol over standard
 * input and output and offers a model four tools, {@code sql_read}, {@code sql_plan},
 * {@code sql_plan_status} and {@code sql_schema}. There is no fifth: nothing here approves or applies.
 *
 * <p>The protocol is written here with Jackson rather than with the official MCP Java SDK, which brings
 * Jackson 3, a JSON Schema validator and Reactor for a server that needs none of them; the SDK's
 * client is used in the tests, as the real client nobody here wrote.
 *
 * <p>The database work is behind {@link dev.llmsafe.tools.SqlTools}, defined in llmsafe-tools and
 * implemented there by {@link dev.llmsafe.tools.DatabaseTools}; this package uses only that interface, its
 * records and {@code dev.llmsafe} refusals, and
 * {@link dev.llmsafe.value.Visible} to write no raw invisible or bidi character (C5).
 */
package dev.llmsafe.mcp;
