package dev.llmsafe.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * The stand-in for a language model: asked by a person, it calls one tool with fixed arguments; shown the
 * tool's result, it answers with exactly that text. What it was shown is kept, so a test can assert what a
 * real model would have read.
 */
final class ScriptedChatModel implements ChatModel {

    private final String tool;
    private final String argumentsJson;
    private final List<ToolExecutionResultMessage> shown = new ArrayList<>();

    /**
     * @param tool the tool to call
     * @param argumentsJson its arguments, as a model sends them
     */
    ScriptedChatModel(String tool, String argumentsJson) {
        this.tool = tool;
        this.argumentsJson = argumentsJson;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        ChatMessage last = request.messages().get(request.messages().size() - 1);
        if (last instanceof UserMessage) {
            // A real model can call only the tools it is offered.
            assertThat(request.toolSpecifications()).extracting(ToolSpecification::name).contains(tool);
            ToolExecutionRequest call = ToolExecutionRequest.builder()
                    .id("call-1").name(tool).arguments(argumentsJson).build();
            return ChatResponse.builder().aiMessage(AiMessage.from(call)).build();
        }
        if (last instanceof ToolExecutionResultMessage result) {
            shown.add(result);
            return ChatResponse.builder().aiMessage(AiMessage.from(result.text())).build();
        }
        throw new IllegalStateException("the script has no answer to " + last);
    }

    /** The tool results this model was given, in order. */
    List<ToolExecutionResultMessage> shown() {
        return List.copyOf(shown);
    }
}
