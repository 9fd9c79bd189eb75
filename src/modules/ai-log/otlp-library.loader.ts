import { Injectable } from '@nestjs/common';
import { LoadResult, loadOtlpLibrary, ModuleRequire } from '../../../libs/otel-export/loader';

/**
 * Loads the OpenTelemetry exporter when an export pass needs it, and only
 * then. `requireModule` is the one seam: replacing it (tests do) simulates an
 * installation without the packages, which export reports as `unavailable`.
 */
@Injectable()
export class OtlpLibraryLoader {
  requireModule: ModuleRequire | undefined = undefined;

  load(): LoadResult {
    return loadOtlpLibrary(this.requireModule);
  }
}
