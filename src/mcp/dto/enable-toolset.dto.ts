import { IsNotEmpty, IsString } from 'class-validator';

/** The name is checked against the toolsets by the tool: an enum of every name in the schema would weigh on each default listing. */
export class EnableToolsetDto {
  @IsString()
  @IsNotEmpty()
  toolset!: string;
}
