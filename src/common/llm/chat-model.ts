import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/** Why a model call gave nothing usable: the provider could not be reached, or answered with an error or an unreadable body. */
export class ChatModelFailure extends Error {}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/**
 * The model provider configured by SERVICE_LLM_URL: an OpenAI-compatible
 * `POST <url>/chat/completions`. Other providers plug in behind the same two
 * members (a local model server, a gateway, a test stand-in all speak this API).
 */
@Injectable()
export class ChatModel {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get configured(): boolean {
    return this.config.llmUrl !== undefined;
  }

  /** The text of the first choice of a JSON-mode completion. */
  async complete(messages: ChatMessage[]): Promise<string> {
    const base = this.config.llmUrl;
    if (base === undefined) throw new ChatModelFailure('no model provider is configured');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.config.llmApiKey) headers.authorization = `Bearer ${this.config.llmApiKey}`;
    let res: Response;
    try {
      res = await fetch(`${base.replace(/\/+$/, '')}/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.config.llmModel, messages, temperature: 0, response_format: { type: 'json_object' } }),
        signal: AbortSignal.timeout(this.config.llmTimeoutS * 1000),
      });
    } catch (error) {
      throw new ChatModelFailure(`the model provider could not be reached (${(error as Error).name})`, { cause: error });
    }
    if (!res.ok) throw new ChatModelFailure(`the model provider answered HTTP ${res.status}`);
    const body = (await res.json().catch(() => null)) as { choices?: { message?: { content?: unknown } }[] } | null;
    const content = body?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new ChatModelFailure('the model provider answered without a message');
    return content;
  }
}
