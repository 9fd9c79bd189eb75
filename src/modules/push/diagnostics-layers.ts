/** Layers another module adds to GET /tunnel/diagnostics/{tenant_id} beside `pubsub` (the tunnel's): in-process figures only. */
export interface DiagnosticsLayers {
  layers(tenantId: string): Record<string, unknown>;
}

export const DIAGNOSTICS_LAYERS = Symbol('DIAGNOSTICS_LAYERS');
