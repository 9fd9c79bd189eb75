import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { TUNNEL_PREFIXES, TunnelPrefix } from '../tunnel-frames';

export class PluginOverrideDto {
  @IsIn(TUNNEL_PREFIXES, { message: `prefix must be one of ${TUNNEL_PREFIXES.join(', ')}` })
  prefix!: TunnelPrefix;

  @IsBoolean({ message: 'enabled must be a boolean' })
  enabled!: boolean;
}

/** PUT /tunnel/plugins: the whole list of overrides (a prefix not named is back to its default, enabled). */
export class PluginOverridesDto {
  @IsArray({ message: 'overrides must be an array of {prefix, enabled}' })
  @ArrayMaxSize(TUNNEL_PREFIXES.length, { message: `overrides must hold at most ${TUNNEL_PREFIXES.length} entries` })
  @Type(() => PluginOverrideDto)
  @ValidateNested({ each: true })
  @IsObject({ each: true, message: 'each override must be an object {prefix, enabled}' })
  overrides!: PluginOverrideDto[];
}

/** POST /tunnel/plugins/custom: a plugin of the person's own, served under a prefix. */
export class CustomPluginDto {
  @IsString({ message: 'name must be a string' })
  @Matches(/^[a-z0-9][a-z0-9._-]{0,63}$/, { message: 'name must be 1 to 64 lowercase letters, digits, ".", "_" or "-"' })
  name!: string;

  @IsIn(TUNNEL_PREFIXES, { message: `prefix must be one of ${TUNNEL_PREFIXES.join(', ')}` })
  prefix!: TunnelPrefix;

  /** The program's name as found on PATH (no arguments, no shell). */
  @IsOptional()
  @IsString({ message: 'command must be a string' })
  @MaxLength(128, { message: 'command must be at most 128 characters' })
  @Matches(/^[A-Za-z0-9@._/-]+$/, { message: 'command must be a program name: letters, digits, "@", ".", "_", "/" or "-", no spaces' })
  command?: string;
}

/** DELETE /tunnel/plugins/custom, GET /tunnel/plugins/check, POST /tunnel/plugins/install: a plugin by name. */
export class PluginNameDto {
  @IsString({ message: 'name must be a string' })
  @Matches(/^[a-z0-9][a-z0-9._-]{0,63}$/, { message: 'name must be 1 to 64 lowercase letters, digits, ".", "_" or "-"' })
  name!: string;
}

/** POST /tunnel/active-repo. */
export class ActiveRepoDto {
  @IsString({ message: 'path must be a string' })
  @MaxLength(1024, { message: 'path must be at most 1024 characters' })
  @Matches(/^(?!.*(?:^|[\\/])\.\.(?:[\\/]|$))(?:\/|[A-Za-z]:[\\/])[^\u0000-\u001f]*$/, { message: 'path must be an absolute directory path without ".." segments' })
  path!: string;
}
