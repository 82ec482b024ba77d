package dev.homing.protocol.openai;

/** How a request carries its prompt. */
public enum PromptShape {
    /** {@code "prompt": "text"} */
    TEXT,
    /** {@code "prompt": ["text", ...]}: a batch, one completion per entry. */
    TEXT_LIST,
    /** {@code "prompt": [1, 2, 3]} */
    TOKENS,
    /** {@code "prompt": [[1, 2], [3]]}: a batch of token prompts. */
    TOKEN_LISTS,
    /** {@code "messages": [...]} of a chat completion. */
    MESSAGES
}
