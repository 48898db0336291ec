package dev.llmsafe.samples.springai;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.stereotype.Service;

/** The agent: a {@link ChatClient} on the application's chat model, offered {@link OrderTools}. */
@Service
public class OrderAgent {

    private final ChatClient chat;

    /**
     * @param chat Spring AI's builder, on whichever chat model the application configures
     * @param tools the tools
     */
    public OrderAgent(ChatClient.Builder chat, OrderTools tools) {
        this.chat = chat.defaultTools(tools).build();
    }

    /** One request from a person; the answer is the model's. */
    public String ask(String request) {
        return chat.prompt().user(request).call().content();
    }
}
