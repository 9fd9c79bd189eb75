import { Matches } from 'class-validator';

/** The device_code a connector polls with, as /auth/tunnel-connect or /auth/hooks-connect gave it. */
export class DeviceCodeQueryDto {
  @Matches(/^[A-Za-z0-9_-]{20,128}$/, { message: 'device_code must be the device_code the connect route answered' })
  device_code!: string;
}
