import { Insight } from './insight.entity';
import { InsightHorizon } from './notes.constants';

export interface InsightView {
  id: string;
  project_id: string;
  title: string;
  body: string;
  horizon: InsightHorizon;
  created_at: string;
}

export function toInsightView(insight: Insight): InsightView {
  return { ...insight, created_at: insight.created_at.toISOString() };
}
