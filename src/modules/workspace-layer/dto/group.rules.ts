import { Title } from '../../../common/validation/title.decorator';
import { WORKSPACE_GROUP_MAX } from '../workspace-layer.constants';

/** A group (swimlane) name: one line, at most 100 characters. The REST and tool key is `group`; stored as item_group. */
export const GroupRules = () => Title('group', WORKSPACE_GROUP_MAX);
