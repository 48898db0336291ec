/**
 * Approve and apply: separate acts by named actors (A1), the apply on its own credential, re-checking
 * that the rows are still what the card showed and committing exactly that (A2-A11).
 *
 * <p>Uses store (plans, status moves, audit), plan (the Replayer) and dialect.
 */
package dev.llmsafe.apply;
