import { PickType } from '@nestjs/mapped-types';
import { ReleaseFileDto } from './release-file.dto';

/** POST /projects/{id}/file-locks/release: a person frees a file whoever holds it. */
export class ForceReleaseFileDto extends PickType(ReleaseFileDto, ['file_path'] as const) {}
