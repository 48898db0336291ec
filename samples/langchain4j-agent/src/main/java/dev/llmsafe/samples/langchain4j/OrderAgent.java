package dev.llmsafe.samples.langchain4j;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;

/** The agent: a LangChain4j AI service that may call {@link OrderTools}. */
public interface OrderAgent {

    /** One request from a person; the answer is the model's. */
    String chat(String request);

    /**
     * The agent on a chat model, with tools on the model's connection.
     *
     * @param model any LangChain4j chat model
     * @param jdbcUrl a {@code jdbc:llmsafe:} URL
     */
    static OrderAgent create(ChatModel model, String jdbcUrl) {
        // No tool error handler: LangChain4j's default shows the model the exception's message, which for
        // llmsafe's exceptions is written for it (the card, or the refusal and what to do instead).
        return AiServices.builder(OrderAgent.class)
                .chatModel(model)
                .tools(new OrderTools(jdbcUrl))
                .build();
    }
}
