/**
 * llmsafe-jdbc: a JDBC driver wrapper that lets a language model read what a policy allows and turns
 * its UPDATE and DELETE statements into measured, rolled-back plans that a person approves.
 *
 * <p>This package holds only what every layer shares: {@link dev.llmsafe.Refusal}, the one enum of
 * refusal codes, {@link dev.llmsafe.RefusedException}, the one exception that carries them, what of a
 * database error may reach the caller ({@link dev.llmsafe.DatabaseErrors}, R10), and the refusal for a
 * defect of llmsafe ({@link dev.llmsafe.Defects}, J11). It
 * sits below every other package (they all refuse), which is why it is not in {@code jdbc}.
 *
 * <p>Layout, one package a room; dependencies flow one way, downwards:
 * <ul>
 *   <li>{@code jdbc}, {@code cli}, {@code mcp}: the ways in (driver, command line, MCP server);</li>
 *   <li>{@code assembly}: builds every engine object from a configuration;</li>
 *   <li>{@code dryrun}, {@code apply}, {@code check}: the dry run, approve and apply, the environment report;</li>
 *   <li>{@code store}, {@code plan}: the plan store and the plan model it stores;</li>
 *   <li>{@code dialect}, {@code sql}, {@code value}: each database's catalog and session questions, the
 *       analysis of one statement, and values read exactly.</li>
 * </ul>
 */
package dev.llmsafe;
