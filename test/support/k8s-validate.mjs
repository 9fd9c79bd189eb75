// Validates Kubernetes objects against the API schemas of the kubernetes-models package, in a
// plain Node process: the package is ES modules only, and loading its graph through Jest's module
// runtime takes minutes where Node takes a fraction of a second.
//
//   node test/support/k8s-validate.mjs < objects.json    (a JSON array of objects)
//
// Prints a JSON array with, for each object, its kind, name and the schema's complaint (or null).
import process from 'node:process';

const input = await new Promise((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => (text += chunk));
  process.stdin.on('end', () => resolve(text));
});
const results = [];
for (const object of JSON.parse(input)) {
  const { apiVersion, kind } = object;
  let error = null;
  try {
    const module = await import(`kubernetes-models/${apiVersion}/${kind}`);
    new module[kind](object).validate();
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  results.push({ kind, name: object.metadata?.name ?? null, error });
}
process.stdout.write(JSON.stringify(results));
