/**
 * A tool result that is text for the assistant to read as it is (a context
 * block, a document), sent as the tool's text content instead of JSON.
 */
export class ToolText {
  constructor(readonly text: string) {}
}
