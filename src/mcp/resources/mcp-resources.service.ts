import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { toErrorResponse } from '../../common/errors/error-response';
import { ContextBlockService } from '../../modules/context/context-block.service';
import { GoalsService } from '../../modules/goals/goals.service';
import { HandoffService } from '../../modules/handoff/handoff.service';
import { HitlService } from '../../modules/hitl/hitl.service';
import { MessagesService } from '../../modules/messages/messages.service';
import { ProjectsService } from '../../modules/projects/projects.service';
import { SprintItemsService } from '../../modules/sprint/sprint-items.service';
import { mcpSdk } from '../sdk';

export const RESOURCE_KINDS = ['context', 'goal', 'sprint', 'hitl', 'inbox', 'handoff'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** A resource of one project: `baton://projects/{project_id}/{kind}`. */
export interface ProjectResource {
  uri: string;
  projectId: string;
  kind: ResourceKind;
}

interface KindInfo {
  title: string;
  description: string;
  mimeType: 'text/plain' | 'application/json';
}

const KINDS: Record<ResourceKind, KindInfo> = {
  context: { title: 'Context block', description: "The project's context block, as GET /projects/{id}/context-block", mimeType: 'text/plain' },
  goal: { title: 'Goal', description: "The project's goal with its ambient task context, as GET /projects/{id}/goal", mimeType: 'application/json' },
  sprint: { title: 'Sprint board', description: "The project's sprint items, as GET /projects/{id}/sprint-items", mimeType: 'application/json' },
  hitl: { title: 'Pending HITL', description: "The project's pending HITL requests, newest first, as GET /projects/{id}/hitl", mimeType: 'application/json' },
  inbox: { title: 'Inbox', description: "The project's messages, newest first, as GET /projects/{id}/messages", mimeType: 'application/json' },
  handoff: { title: 'Latest handoff', description: "The project's latest handoff (null when none), the first of GET /projects/{id}/handoffs", mimeType: 'application/json' },
};

const URI = /^baton:\/\/projects\/([^/?#]+)\/([a-z]+)$/;
/** Projects resources/list writes out; more are reached through the templates. */
const LISTED_PROJECTS = 20;

/** The MCP error `resources/read` and `resources/subscribe` answer for a URI that names no resource. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * What an agent reads, as MCP resources: the same content as the REST routes,
 * read by the same services, for the caller's tenant only. Reading one is not
 * a tool call: it takes nothing from the tool-call budget and adds nothing to
 * the tool listing.
 */
@Injectable()
export class McpResources {
  constructor(private readonly modules: ModuleRef) {}

  templates(): ResourceTemplate[] {
    return RESOURCE_KINDS.map((kind) => ({
      uriTemplate: `baton://projects/{project_id}/${kind}`,
      name: `project-${kind}`,
      title: KINDS[kind].title,
      description: KINDS[kind].description,
      mimeType: KINDS[kind].mimeType,
    }));
  }

  /** The resources of the workspace's first projects by name (the templates reach every project). */
  async list(): Promise<Resource[]> {
    const projects = (await this.service(ProjectsService).list()).slice(0, LISTED_PROJECTS);
    return projects.flatMap((project) =>
      RESOURCE_KINDS.map((kind) => ({
        uri: uriOf(project.id, kind),
        name: `${project.name} ${kind}`,
        title: `${KINDS[kind].title} of ${project.name}`,
        mimeType: KINDS[kind].mimeType,
      })),
    );
  }

  /** What `uri` names; an MCP error (resource not found) for anything else. */
  parse(uri: string): ProjectResource {
    const match = URI.exec(uri);
    const kind = match?.[2] as ResourceKind | undefined;
    if (!match || !kind || !RESOURCE_KINDS.includes(kind)) {
      throw mcpError(RESOURCE_NOT_FOUND, `unknown resource: ${uri} (expected baton://projects/{project_id}/${RESOURCE_KINDS.join('|')})`);
    }
    return { uri, projectId: decodeURIComponent(match[1]), kind };
  }

  async read(uri: string): Promise<ReadResourceResult> {
    const resource = this.parse(uri);
    const { mimeType } = KINDS[resource.kind];
    let content: unknown;
    try {
      content = await this.content(resource);
    } catch (error) {
      const { body, unexpected } = toErrorResponse(error);
      if (unexpected) throw error;
      // The REST route's refusal, word for word: a project that does not exist (or is another tenant's) is not found.
      throw mcpError(body.code === 'NOT_FOUND' || body.code === 'PROJECT_NOT_FOUND' ? RESOURCE_NOT_FOUND : mcpSdk().ErrorCode.InvalidParams, body.detail);
    }
    const text = typeof content === 'string' ? content : JSON.stringify(content ?? null);
    return { contents: [{ uri, mimeType, text }] };
  }

  private async content({ projectId, kind }: ProjectResource): Promise<unknown> {
    switch (kind) {
      case 'context':
        return this.service(ContextBlockService).text(projectId);
      case 'goal':
        return this.service(GoalsService).get(projectId);
      case 'sprint':
        return this.service(SprintItemsService).list(projectId, {});
      case 'hitl':
        return this.service(HitlService).list(projectId, { status: 'pending' });
      case 'inbox':
        return this.service(MessagesService).list(projectId, {});
      case 'handoff':
        return (await this.service(HandoffService).list(projectId, 1))[0] ?? null;
    }
  }

  private service<T>(type: abstract new (...args: never[]) => T): T {
    return this.modules.get(type, { strict: false });
  }
}

export function uriOf(projectId: string, kind: ResourceKind): string {
  return `baton://projects/${projectId}/${kind}`;
}

/** A JSON-RPC error with its code (not the SDK's McpError, whose message the client would prefix twice; see McpServerFactory). */
export function mcpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
