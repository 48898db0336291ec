/**
 * LangChain4j tools over llmsafe: {@link dev.llmsafe.langchain4j.LlmSafeTools}, the four tools of
 * llmsafe-tools as {@code @Tool} methods for {@code AiServices}. Uses only LangChain4j's tool annotations
 * (langchain4j-core) and {@code dev.llmsafe.tools}.
 */
package dev.llmsafe.langchain4j;
