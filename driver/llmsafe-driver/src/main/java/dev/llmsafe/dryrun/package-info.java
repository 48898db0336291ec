/**
 * The dry run: {@link dev.llmsafe.dryrun.Planner} runs a proposed UPDATE or DELETE for real in a
 * transaction of its own, measures it row by row and rolls it back, proven (D1-D17). {@link
 * dev.llmsafe.dryrun.Target} checks the table a write targets against the live catalog and the policy,
 * {@link dev.llmsafe.dryrun.Images} reads the before- and after-images, and {@link
 * dev.llmsafe.dryrun.SideEffects} refuses what the database counts beyond the rows shown (D14). The apply
 * re-runs the same checks and images inside its own transaction ({@code apply.Replayer}), so that it
 * measures exactly as the dry run did.
 *
 * <p>Uses {@code plan} (what it produces), {@code dialect}, {@code sql}, {@code value} and the policy; it
 * knows nothing of the store, the apply or the JDBC wrappers.
 */
package dev.llmsafe.dryrun;
