/**
 * The approval console, {@code llmsafe serve}: a web page where a person who is not an engineer signs
 * in, reads a plan's card as a page (the impact sentence first, each row's before and after side by
 * side, the database's limits, the history), approves or rejects it, applies it, and runs guarded reads
 * with their cost estimate and a CSV download.
 *
 * <p>{@link dev.llmsafe.console.ConsoleServer} is the whole public surface. It runs on the JDK's own
 * HTTP server ({@code com.sun.net.httpserver}, HTTPS with a PKCS#12 key store) and renders pages in
 * plain Java through one HTML-escaping function ({@link dev.llmsafe.console.Html}), with no script at
 * all and a Content-Security-Policy that forbids every source but its own style sheet. Every engine
 * object comes from {@link dev.llmsafe.assembly.Deployment}; reads go through
 * {@link dev.llmsafe.tools.DatabaseTools}, the model's own guard. Texts are shown as the card shows them
 * ({@link dev.llmsafe.value.Visible}, C5), then escaped.
 *
 * <p>Who acts is authenticated, never typed: users of the configuration's {@code console} section with
 * BCrypt hashes ({@link dev.llmsafe.console.Passwords}), or a header set by an authenticating proxy,
 * believed from its configured addresses only. Sessions are random ids in HttpOnly, SameSite=Strict
 * cookies (Secure under HTTPS) that end after the idle timeout; every POST carries the session's CSRF
 * token; sign-in failures are rate-limited per address and per name. The actor the store records is the
 * signed-in name, so the approver's proposer-cannot-approve rule compares authenticated names.
 *
 * <p>Uses assembly (the deployment), apply (approver, applier), store, plan and value (to show plans),
 * dialect (a plan's table name), policy (the console settings), tools (reads, CSV) and jdbc (a read's
 * estimate); never the dry run, the statement analysis or a pool of its own (ConsoleArchitectureTest).
 * Logs through SLF4J.
 */
package dev.llmsafe.console;
