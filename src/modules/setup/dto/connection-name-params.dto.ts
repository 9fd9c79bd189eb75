import { IsString, Matches } from 'class-validator';
import { CONNECTION_NAME } from './save-connection.dto';

/** DELETE /config/connections/{name}. */
export class ConnectionNameParamsDto {
  @Matches(CONNECTION_NAME, { message: 'name must be 1 to 63 lowercase letters, digits, - or _, starting with a letter or digit' })
  @IsString({ message: 'name must be a string' })
  name!: string;
}
