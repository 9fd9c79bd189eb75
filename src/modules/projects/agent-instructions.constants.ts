/** What assistants are told when a project has no instructions of its own (PATCH with null comes back here). */
export const DEFAULT_AGENT_INSTRUCTIONS = `# Working on this project with Baton

Baton keeps the live state of this project. Use its tools instead of keeping state in your head.

1. Start with \`start_session\`: it registers you and returns the context block (goal, sprint items,
   recent tasks, pinned decisions) and warnings about files other sessions hold.
2. Before editing a file another session might touch, \`claim_file\` it; \`release_file\` when done.
3. Take work with \`claim_sprint_item\` or \`claim_task\`; log what you did with \`log_task\`.
4. Record decisions that must outlive this session with \`pin_decision\` (or \`log_decision\`).
5. When you are blocked on a person, ask with a HITL request instead of guessing.
6. Before you stop, \`generate_handoff\` so the next session can pick up where you left off.
`;
