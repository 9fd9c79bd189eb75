import { ProfileLayerView } from './profile-layer.view';
import { ProfileScope, RestartReport } from './profile-scope.constants';

/** What a save answers: the layer as stored, whether anything changed, and what the change needs. */
export interface LayerSaveResult extends ProfileLayerView {
  /** False for an identical re-save (the revision stays). */
  changed: boolean;
  /** For the fields this save changed: what an executor needs to pick them up. */
  restart_report: RestartReport;
  restart_required: boolean;
}

export interface LayerDeleteResult {
  deleted: true;
  scope_type: ProfileScope;
  scope_id: string;
  /** hosted_default: the revision recording the reset; other scopes: the revision the layer had. */
  revision: number;
}

/** A layer read as the source of a clone. */
export interface LayerSource {
  scope_type: ProfileScope;
  view: ProfileLayerView;
}
