import { IsInt, Max, Min } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { NAME_MAX } from '../executor.constants';

/** register_machine: a machine by name (the same name again is the same machine); slots default 1. */
export class RegisterMachineDto {
  @Title('name', NAME_MAX)
  name!: string;

  @OptionalField()
  @Min(1, { message: 'slots must be at least 1' })
  @Max(1000, { message: 'slots must be at most 1000' })
  @IsInt({ message: 'slots must be an integer' })
  slots?: number;
}
