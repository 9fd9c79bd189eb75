import { Injectable } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { OpenApiDocument } from './openapi-builder';
import { OPENAPI_FILE } from './openapi-file';

/** The document `npm run build` wrote, read once when first asked for (it never changes while Baton runs). */
@Injectable()
export class OpenApiDocuments {
  private loaded?: OpenApiDocument | null;

  current(): OpenApiDocument | undefined {
    if (this.loaded === undefined) {
      const file = join(packageRoot(__dirname), OPENAPI_FILE);
      this.loaded = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument) : null;
    }
    return this.loaded ?? undefined;
  }
}

/** The nearest folder above `from` holding package.json: the same from `src/` (tests) and `dist/src/` (built). */
function packageRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) if (existsSync(join(dir, 'package.json'))) return dir;
  return process.cwd();
}
