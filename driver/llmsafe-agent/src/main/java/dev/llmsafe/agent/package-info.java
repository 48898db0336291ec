/**
 * The javaagent ({@code -javaagent:llmsafe-agent.jar=config=...,scope=...,url=...}): guards the
 * connections a configured package or class obtains, and every connection to a configured URL, without
 * changing the application's URL or code. {@link dev.llmsafe.agent.LlmSafeAgent} is the entry point
 * (premain, agentmain); {@code AgentSettings} reads its argument; {@code Installer} weaves
 * {@code Advices} into every DataSource's getConnection and every Driver's connect; {@code Interceptor}
 * decides, with {@code Scope} reading the call stack; {@code bootstrap.Dispatch} is the bridge the woven
 * code calls, on the bootstrap class path.
 *
 * <p>Uses llmsafe-driver's public API only ({@code jdbc.LlmSafeDriver} for connections a driver opens,
 * {@code jdbc.LlmSafeGuard} for connections a pool lends, {@code policy.LlmSafeConfig}), Byte Buddy
 * (relocated into the agent jar) and the SLF4J API. Never on llmsafe-driver's class path.
 */
package dev.llmsafe.agent;
