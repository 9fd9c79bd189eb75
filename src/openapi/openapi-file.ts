/** Where `npm run build` writes the OpenAPI document, relative to the package root. */
export const OPENAPI_FILE = 'dist/openapi.json';
