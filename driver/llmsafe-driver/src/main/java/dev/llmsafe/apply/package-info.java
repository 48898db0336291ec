/**
 * Approve and apply: separate acts by named actors (A1), the apply on its own credential, re-checking
 * that the rows are still what the card showed and committing exactly that (A2-A11). Every value the
 * card shows for a row, the columns it calls already correct included, is compared before the statement
 * runs (A4). A missing actor or plan id is INVALID_ARGUMENT, and whatever else fails is a SQLException
 * with a code, never an unchecked exception (J11).
 *
 * {@code Replayer} runs an approved plan again inside the apply's transaction with the dry run's own checks
 * and images ({@code dryrun.Target}, {@code dryrun.Images}, {@code dryrun.SideEffects}).
 *
 * <p>Uses store (plans, status moves, audit), plan (the model), dryrun (its checks and images), dialect,
 * sql and value.
 */
package dev.llmsafe.apply;
