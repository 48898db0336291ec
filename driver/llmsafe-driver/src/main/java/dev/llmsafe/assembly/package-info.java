/**
 * One way to assemble the engine from an {@code LlmSafeConfig}: the pools ({@link
 * dev.llmsafe.assembly.Pools}, one recipe of sizes, timeouts and names), the seal and mask key, the
 * bounds, the planner and the store ({@link dev.llmsafe.assembly.Assembly}), and the four connections of
 * a configuration with the approver and applier built on them ({@link dev.llmsafe.assembly.Deployment}).
 * The driver's engines, the environment report, the command line and the MCP server all get their
 * objects here, so that a new front end (a starter, a console, an agent) cannot assemble them
 * differently. {@link dev.llmsafe.assembly.DelegatingDataSource} is the plumbing every data source of llmsafe's
 * shares (the pools' own connections here, the driver's data source and the dry run's borrowed connections in
 * jdbc): log writer and login timeout passed on, builders refused, {@code unwrap} to itself only (J1).
 * {@link dev.llmsafe.assembly.BorrowedConnections} lends an application's own pool to the dry run and the
 * store and gives every connection back with the session settings it was lent with (R8).
 *
 * <p>Uses dryrun, apply, store, dialect and policy; used by jdbc, check and the modules built on the
 * driver. Depends on neither jdbc nor check.
 */
package dev.llmsafe.assembly;
