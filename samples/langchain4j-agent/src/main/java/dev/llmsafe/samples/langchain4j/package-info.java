/**
 * A LangChain4j agent beside the application's own JDBC: {@link dev.llmsafe.samples.langchain4j.Shop} (the
 * application, one pool; its own INSERT commits) and {@link dev.llmsafe.samples.langchain4j.OrderAgent} (an
 * AI service given llmsafe-langchain4j's {@code LlmSafeTools} over that pool: reads guarded, writes made
 * plans).
 */
package dev.llmsafe.samples.langchain4j;
