import { Title } from '../../../common/validation/title.decorator';
import { cleanProjectName } from '../project-name.util';

export const PROJECT_NAME_MAX = 200;

/** The rules every project name obeys, wherever it is given: a title, stored as cleanProjectName makes it. */
export const ProjectNameRules = () => Title('name', PROJECT_NAME_MAX, { clean: cleanProjectName, classValidatorLengthMessage: true });
