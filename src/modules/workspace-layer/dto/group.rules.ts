import { TitleRules } from '../../tasks/dto/field.rules';
import { WORKSPACE_GROUP_MAX } from '../workspace-layer.constants';

/** A group (swimlane) name: one line, at most 100 characters. The REST and tool key is `group`; stored as item_group. */
export const GroupRules = () => TitleRules('group', WORKSPACE_GROUP_MAX);
