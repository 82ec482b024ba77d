package dev.homing.protocol.openai;

/** How a request carries its prompt. */
public enum PromptShape {
    /** {@code "prompt": "text"} (or an embeddings {@code "input": "text"}) */
    TEXT,
    /** {@code "prompt": ["text", ...]}: a batch, one completion per entry. */
    TEXT_LIST,
    /** {@code "prompt": [1, 2, 3]} */
    TOKENS,
    /** {@code "prompt": [[1, 2], [3]]}: a batch of token prompts. */
    TOKEN_LISTS,
    /** {@code "messages": [...]} of a chat completion (or of a chat-style embeddings request). */
    MESSAGES,
    /** {@code "input"} of a Responses API request: a string or a list of input items. */
    RESPONSE_INPUT,
    /** {@code "items"} of a Conversations API request. */
    CONVERSATION_ITEMS,
    /** No prompt the router reads: a passthrough request. */
    NONE
}
