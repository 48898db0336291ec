/**
 * The environment report ({@code llmsafe check}) over a {@link dev.llmsafe.assembly.Deployment}: per
 * allowlisted table whether a dry run is possible there and why not, whether the store exists, and where
 * each guard sits. Everything it reports is established from the database, or says that it could not be.
 *
 * <p>Uses assembly, dryrun (the target checks of a probe), plan, store, dialect, sql and value.
 */
package dev.llmsafe.check;
