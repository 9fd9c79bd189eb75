import { MigrationInterface, QueryRunner } from 'typeorm';

/** Who made each change of a hosted_default layer: an admin's address, the admin password, or the operator's workspace. */
export class HostedProfileRevisionAuthors1732347200000 implements MigrationInterface {
  name = 'HostedProfileRevisionAuthors1732347200000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE hosted_profile_layer_revisions ADD COLUMN author text');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE hosted_profile_layer_revisions DROP COLUMN author');
  }
}
