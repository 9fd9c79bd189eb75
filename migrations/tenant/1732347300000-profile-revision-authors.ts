import { MigrationInterface, QueryRunner } from 'typeorm';

/** The same author column as the control plane's hosted_default revisions, for a self-hosted instance's own. */
export class ProfileRevisionAuthors1732347300000 implements MigrationInterface {
  name = 'ProfileRevisionAuthors1732347300000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE profile_layer_revisions ADD COLUMN author text');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE profile_layer_revisions DROP COLUMN author');
  }
}
