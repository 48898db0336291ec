/**
 * The policy: what a language model may touch through an llmsafe connection, and the
 * {@code llmsafe.json} configuration that carries it together with the four connections.
 *
 * <p>{@link dev.llmsafe.policy.Policy} is written in code with its typed DSL or loaded by
 * {@link dev.llmsafe.policy.LlmSafeConfig#load}. Both fail closed: a wrong name, type or key is an
 * error that says where and what to write instead, never a silently ignored setting; so is a
 * configuration that could not work (an empty {@code policy.allow}, an in-memory SQLite database).
 * A relative SQLite path in a file is the file's directory's, so that one file names one database
 * wherever it is run from.
 *
 * <p>A URL the configuration holds is shown by {@link dev.llmsafe.policy.JdbcUrls} without its
 * credential, wherever llmsafe shows one (J9).
 *
 * <p>This package knows nothing of JDBC and depends on jackson-core only. Names are kept as
 * written ({@link dev.llmsafe.policy.QualifiedName}); the driver resolves them against the database.
 */
package dev.llmsafe.policy;
