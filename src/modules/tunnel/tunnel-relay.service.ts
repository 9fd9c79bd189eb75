import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { REDIS_CLIENT } from '../../cache/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ServedPlugin, ServerFrame, TunnelRequest } from './tunnel-frames';
import { AnswerSink, ConnectorLink, TunnelSockets } from './tunnel-sockets.service';

/** How long an instance's claim on a workspace's connector lasts without being renewed. */
const OWNER_TTL_S = 45;
const RENEW_MS = 15_000;

type RelayMessage =
  | { k: 'req'; id: string; tenantId: string; request: TunnelRequest; replyTo: string }
  | { k: 'cancel'; id: string; tenantId: string }
  | { k: 'frame'; tenantId: string; frame: ServerFrame }
  | { k: 'head'; id: string; status: number; headers: Record<string, string> }
  | { k: 'chunk'; id: string; data: string }
  | { k: 'end'; id: string }
  | { k: 'fail'; id: string; status: number; detail: string };

/** What any instance knows of a workspace's connector. */
export interface ConnectorSnapshot {
  connected: boolean;
  /** Whether the socket is on the instance that answers. */
  local: boolean;
  connected_at: string | null;
  version: string | null;
  plugins: ServedPlugin[];
  roots: string[];
  allowed_roots: string[];
  manifest_at: string | null;
}

/**
 * Reaching a workspace's connector from any instance. The socket lives on one instance (the
 * owner); the owner records itself in Redis (`<prefix>:tunnel:owner:<tenant>`, renewed while the
 * socket lives) with a snapshot of the connector's manifest. An instance without the socket
 * publishes the request on the owner's channel and the owner streams the answer back, frame by
 * frame, on the asking instance's reply channel. Without Redis, only the instance holding the
 * socket can serve its workspace (self-hosted has one instance).
 */
@Injectable()
export class TunnelRelay implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('tunnel');
  readonly instanceId = randomUUID();
  private subscriber: Redis | null = null;
  private readonly waiting = new Map<string, AnswerSink>();
  private readonly served = new Map<string, () => void>();
  private renewTimer: NodeJS.Timeout | undefined;
  relayed = 0;

  constructor(
    private readonly sockets: TunnelSockets,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private key(...parts: string[]): string {
    return [this.config.pubsubPrefix, 'tunnel', ...parts].join(':');
  }

  onModuleInit(): void {
    this.sockets.onChange((tenantId, link) => void this.announce(tenantId, link));
    if (!this.redis) return;
    // Its own connection, which may queue the subscription until Redis is there (the shared client fails fast instead).
    this.subscriber = this.redis.duplicate({ enableOfflineQueue: true, commandTimeout: 5000 });
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('messageBuffer', (_channel: Buffer, raw: Buffer) => this.onMessage(raw));
    const channel = this.key('inst', this.instanceId);
    // Retried until it holds: an instance that is not subscribed cannot serve the sockets it owns.
    const subscribe = (): void => void this.subscriber?.subscribe(channel).catch(() => setTimeout(subscribe, 1000).unref());
    subscribe();
    this.renewTimer = setInterval(() => {
      for (const link of this.sockets.all()) void this.announce(link.tenantId, link);
    }, RENEW_MS);
    this.renewTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.renewTimer);
    for (const link of this.sockets.all()) await this.release(link.tenantId);
    this.subscriber?.disconnect(false);
  }

  /** Forwards the request to the workspace's connector wherever it is; false when no instance holds one. */
  async forward(tenantId: string, request: TunnelRequest, sink: AnswerSink): Promise<(() => void) | false> {
    const local = this.sockets.forward(tenantId, request, sink);
    if (local || !this.redis || !this.subscriber) return local;
    const owner = await this.redis.get(this.key('owner', tenantId)).catch(() => null);
    if (!owner || owner === this.instanceId) return false;
    const id = randomUUID();
    this.waiting.set(id, sink);
    const receivers = await this.publish(owner, { k: 'req', id, tenantId, request, replyTo: this.instanceId });
    if (receivers === 0) {
      this.waiting.delete(id);
      return false;
    }
    this.relayed += 1;
    return () => {
      if (this.waiting.delete(id)) void this.publish(owner, { k: 'cancel', id, tenantId });
    };
  }

  /** Sends a frame to the workspace's connector wherever it is; false when none is connected. */
  async send(tenantId: string, frame: ServerFrame): Promise<boolean> {
    const link = this.sockets.get(tenantId);
    if (link) {
      this.sockets.send(link, frame);
      return true;
    }
    if (!this.redis) return false;
    const owner = await this.redis.get(this.key('owner', tenantId)).catch(() => null);
    if (!owner) return false;
    return (await this.publish(owner, { k: 'frame', tenantId, frame })) > 0;
  }

  /** The connector as this instance knows it, or as its owner announced it. */
  async snapshot(tenantId: string): Promise<ConnectorSnapshot> {
    const link = this.sockets.get(tenantId);
    if (link) return { ...view(link), local: true };
    if (this.redis) {
      const raw = await this.redis.get(this.key('manifest', tenantId)).catch(() => null);
      const owner = raw ? await this.redis.get(this.key('owner', tenantId)).catch(() => null) : null;
      if (raw && owner) return { ...(JSON.parse(raw) as ConnectorSnapshot), connected: true, local: false };
    }
    return { connected: false, local: false, connected_at: null, version: null, plugins: [], roots: [], allowed_roots: [], manifest_at: null };
  }

  private async announce(tenantId: string, link: ConnectorLink | undefined): Promise<void> {
    if (!this.redis) return;
    try {
      if (!link) return await this.release(tenantId);
      await this.redis.set(this.key('owner', tenantId), this.instanceId, 'EX', OWNER_TTL_S);
      await this.redis.set(this.key('manifest', tenantId), JSON.stringify(view(link)), 'EX', OWNER_TTL_S);
    } catch (error) {
      this.logger.warn({ msg: 'tunnel owner not recorded', error_class: (error as Error).name });
    }
  }

  private async release(tenantId: string): Promise<void> {
    if (!this.redis) return;
    // Only this instance's own claim: a newer connector may already live on another instance.
    const script = "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[2]); return redis.call('del', KEYS[1]) end return 0";
    await this.redis.eval(script, 2, this.key('owner', tenantId), this.key('manifest', tenantId), this.instanceId).catch(() => undefined);
  }

  private async publish(instance: string, message: RelayMessage): Promise<number> {
    if (!this.redis) return 0;
    return this.redis.publish(this.key('inst', instance), JSON.stringify(message)).catch(() => 0);
  }

  private onMessage(raw: Buffer): void {
    let message: RelayMessage;
    try {
      message = JSON.parse(raw.toString('utf8')) as RelayMessage;
    } catch {
      return;
    }
    switch (message.k) {
      case 'req':
        return this.serve(message);
      case 'cancel':
        this.served.get(message.id)?.();
        this.served.delete(message.id);
        return;
      case 'frame': {
        const link = this.sockets.get(message.tenantId);
        if (link) this.sockets.send(link, message.frame);
        return;
      }
      case 'head':
        this.waiting.get(message.id)?.head(message.status, message.headers);
        return;
      case 'chunk':
        this.waiting.get(message.id)?.chunk(Buffer.from(message.data, 'base64'));
        return;
      case 'end':
        this.waiting.get(message.id)?.end();
        this.waiting.delete(message.id);
        return;
      case 'fail':
        this.waiting.get(message.id)?.fail(message.status, message.detail);
        this.waiting.delete(message.id);
        return;
    }
  }

  /** A request another instance relayed to this one, which holds the socket: the answer goes back frame by frame. */
  private serve(message: Extract<RelayMessage, { k: 'req' }>): void {
    const reply = (m: RelayMessage) => void this.publish(message.replyTo, m);
    const { id } = message;
    const cancel = this.sockets.forward(message.tenantId, message.request, {
      head: (status, headers) => reply({ k: 'head', id, status, headers }),
      chunk: (data) => reply({ k: 'chunk', id, data: data.toString('base64') }),
      end: () => {
        this.served.delete(id);
        reply({ k: 'end', id });
      },
      fail: (status, detail) => {
        this.served.delete(id);
        reply({ k: 'fail', id, status, detail });
      },
    });
    if (cancel) this.served.set(id, cancel);
    else reply({ k: 'fail', id, status: 503, detail: 'the connector left this instance' });
  }
}

function view(link: ConnectorLink): ConnectorSnapshot {
  return {
    connected: true,
    local: true,
    connected_at: link.connectedAt.toISOString(),
    version: link.version,
    plugins: link.plugins,
    roots: link.roots,
    allowed_roots: link.allowedRoots,
    manifest_at: link.manifestAt?.toISOString() ?? null,
  };
}
