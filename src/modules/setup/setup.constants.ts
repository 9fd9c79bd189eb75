/** What a named outbound connection of the workspace may be (POST /config/connections). */
export const CONNECTION_KINDS = ['database', 'otlp', 'notification', 'codehost'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];
