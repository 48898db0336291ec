/**
 * llmsafe-jdbc: a JDBC driver wrapper that lets a language model read what a policy allows and turns
 * its UPDATE and DELETE statements into measured, rolled-back plans that a person approves.
 *
 * <p>This package holds only what every layer shares: {@link dev.llmsafe.Refusal}, the one enum of
 * refusal codes, and {@link dev.llmsafe.RefusedException}, the one exception that carries them. It
 * sits below every other package (they all refuse), which is why it is not in {@code jdbc}.
 *
 * <p>Layout, one package a room; dependencies flow one way, downwards:
 * <ul>
 *   <li>{@code jdbc}, {@code cli}, {@code mcp}: the ways in (driver, command line, MCP server);</li>
 *   <li>{@code plan}, {@code apply}, {@code check}: the dry run, approve and apply, the environment report;</li>
 *   <li>{@code store}, {@code dialect}, {@code sql}: the plan store, each database's catalog and
 *       session questions, and the analysis of one statement.</li>
 * </ul>
 */
package dev.llmsafe;
