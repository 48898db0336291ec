/**
 * A LangChain4j agent over {@code jdbc:llmsafe:}: {@link dev.llmsafe.samples.langchain4j.OrderAgent} (an
 * AI service) and {@link dev.llmsafe.samples.langchain4j.OrderTools} (its tools, plain JDBC). Uses
 * LangChain4j and JDBC; llmsafe is reached only as a JDBC driver.
 */
package dev.llmsafe.samples.langchain4j;
