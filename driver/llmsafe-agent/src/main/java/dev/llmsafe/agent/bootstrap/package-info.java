/**
 * The one class of the agent on the bootstrap class path: {@link dev.llmsafe.agent.bootstrap.Dispatch},
 * which the woven getConnection and connect methods call, and which calls the agent's hook. It may use
 * java.base only, and nothing of llmsafe's.
 */
package dev.llmsafe.agent.bootstrap;
