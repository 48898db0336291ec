/**
 * The model's four tools, framework-free: {@link dev.llmsafe.tools.SqlTools} (read, plan, plan status,
 * schema) and its results, implemented once by {@link dev.llmsafe.tools.DatabaseTools} over an
 * application's pool and configuration or over an operator's {@link dev.llmsafe.assembly.Deployment}, and
 * {@link dev.llmsafe.tools.ModelText}, the results as the text a model reads. The MCP server, the command
 * line and the agent-framework modules (LangChain4j, Spring) are built on this package; nothing in
 * llmsafe-driver depends on it. There is deliberately no tool to approve, reject or apply (DESIGN.md).
 */
package dev.llmsafe.tools;
