package dev.llmsafe.spring;

import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

/**
 * The stand-in for a language model: asked by a person, it calls the tool it was scripted to call; shown the
 * tool's result, it answers with exactly that text. What it was shown is kept, so a test can assert what a
 * real model would have read.
 */
final class ScriptedChatModel implements ChatModel {

    private String tool;
    private String argumentsJson;
    private final List<ToolResponseMessage.ToolResponse> shown = new ArrayList<>();

    /** The next request is answered with a call of this tool with these arguments (JSON); forgets what was shown. */
    synchronized void willCall(String tool, String argumentsJson) {
        this.tool = tool;
        this.argumentsJson = argumentsJson;
        shown.clear();
    }

    /** Tool-calling options, as every Spring AI model with tools has: without them ChatClient offers no tools. */
    @Override
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    @Override
    public synchronized ChatResponse call(Prompt prompt) {
        List<Message> messages = prompt.getInstructions();
        Message last = messages.get(messages.size() - 1);
        if (last instanceof UserMessage) {
            // A real model can call only the tools it is offered.
            List<String> offered = prompt.getOptions() instanceof ToolCallingChatOptions o && o.getToolCallbacks() != null
                    ? o.getToolCallbacks().stream().map(ToolCallback::getToolDefinition).map(d -> d.name()).toList()
                    : List.of();
            if (!offered.contains(tool)) {
                throw new IllegalStateException("the tool " + tool + " is not offered; offered: " + offered);
            }
            AssistantMessage call = AssistantMessage.builder()
                    .toolCalls(List.of(new AssistantMessage.ToolCall("call-1", "function", tool, argumentsJson)))
                    .build();
            return new ChatResponse(List.of(new Generation(call)));
        }
        if (last instanceof ToolResponseMessage result) {
            shown.addAll(result.getResponses());
            return new ChatResponse(List.of(new Generation(new AssistantMessage(result.getResponses().get(0).responseData()))));
        }
        throw new IllegalStateException("the script has no answer to " + last);
    }

    /** The tool results this model was given since the last {@link #willCall}. */
    synchronized List<ToolResponseMessage.ToolResponse> shown() {
        return List.copyOf(shown);
    }
}
