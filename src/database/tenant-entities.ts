import { Project } from '../modules/projects/project.entity';

/** Entities stored in each tenant's database. A module adding a table adds its entity here. */
export const TENANT_ENTITIES = [Project];
