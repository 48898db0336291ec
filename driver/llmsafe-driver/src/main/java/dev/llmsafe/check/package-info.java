/**
 * The environment report ({@code llmsafe check}) and the deployment it checks: the four connections
 * of a configuration opened as pools of the engine's own, and the planner, store, approver and applier
 * built on them. Everything it reports is established from the database, or says that it could not be.
 *
 * <p>Uses plan, apply, store and dialect.
 */
package dev.llmsafe.check;
