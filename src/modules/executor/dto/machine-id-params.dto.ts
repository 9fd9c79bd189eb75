import { Uuid } from '../../../common/validation/uuid.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';

/** `{machine_id}` of a route; also the whole input of `machine_heartbeat`. */
export class MachineIdParamsDto extends ProjectIdDto {
  @Uuid()
  machine_id!: string;
}
