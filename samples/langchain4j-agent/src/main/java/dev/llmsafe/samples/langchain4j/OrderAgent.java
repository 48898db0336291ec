package dev.llmsafe.samples.langchain4j;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.llmsafe.langchain4j.LlmSafeTools;

/** The agent: a LangChain4j AI service whose tools are llmsafe's four ({@link LlmSafeTools}). */
public interface OrderAgent {

    /** One request from a person; the answer is the model's. */
    String chat(String request);

    /**
     * The agent on a chat model, with guarded database tools: one line.
     *
     * @param model any LangChain4j chat model
     * @param tools the guarded tools over the application's data source
     */
    static OrderAgent create(ChatModel model, LlmSafeTools tools) {
        return AiServices.builder(OrderAgent.class).chatModel(model).tools(tools).build();
    }
}
