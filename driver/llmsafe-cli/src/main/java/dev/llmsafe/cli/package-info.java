/**
 * The {@code llmsafe} command line: {@link dev.llmsafe.cli.Main}, one class per command (its options declared in
 * its constructor) and {@code Args}, the parser and the help.
 * Commands build what they need from the configuration through {@link dev.llmsafe.assembly.Deployment} (the four
 * connections as small pools): {@code plan}, {@code approve}, {@code apply}, {@code reject},
 * {@code list} and {@code show} on the plan store and the applier; {@code read}, {@code explain} and
 * {@code mcp} through llmsafe-tools' {@link dev.llmsafe.tools.DatabaseTools} over the deployment, which
 * runs the model's reads and plans through {@link dev.llmsafe.jdbc.LlmSafeDataSource}, the same guard as
 * {@code jdbc:llmsafe:}, and implements {@link dev.llmsafe.tools.SqlTools}, what the MCP server calls;
 * {@code serve} starts llmsafe-console's {@link dev.llmsafe.console.ConsoleServer} on the deployment, and
 * {@code hash-password} prints a hash for its users from {@link dev.llmsafe.console.Passwords}.
 *
 * <p>Output goes to the command's out and err writers only; exit statuses are {@link dev.llmsafe.cli.Main}'s
 * constants, and {@code Failures} turns every exception into one line (a refusal's code and message, or
 * what failed and what to check).
 */
package dev.llmsafe.cli;
