import 'reflect-metadata';
import * as path from 'node:path';
import * as ts from 'typescript';
import type { AnswerDoc } from '../common/http/answers.decorator';
import { ERROR_BODY, errorAnswers, RouteTraits } from './openapi-errors';
import { releaseLabel, ReleaseLedger, routeKey } from './release-labels';
import { SchemaWriter } from './schema-writer';

/**
 * Builds Baton's OpenAPI 3.1 document from the code itself, at build time: every
 * controller under `src/`, its routes (decorators), their parameters and bodies
 * (the DTO classes) and their answers (each handler's declared return type, or
 * its `@Answers` decorator when it writes the response itself). Nothing is
 * retyped by hand, so the document cannot drift from what the server does.
 */

const HTTP_METHODS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'Options', 'Head', 'All']);

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

interface Operation {
  operationId: string;
  summary?: string;
  description: string;
  tags: string[];
  'x-added-in': string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
  security?: unknown[];
}

export interface BuildOptions {
  root: string;
  version: string;
  ledger: ReleaseLedger;
}

export function buildOpenApi(options: BuildOptions): OpenApiDocument {
  const program = ts.createProgram(sourceFiles(options.root, '**/*.controller.ts'), compilerOptions(options.root));
  const checker = program.getTypeChecker();
  const schemas = new SchemaWriter(checker, path.join(options.root, 'src'));
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Baton',
      version: options.version,
      description:
        'The REST API of Baton, built from its code. Errors answer `{"detail": "..."}` (and a `code` where one applies). Hosted, every route that is not public needs `Authorization: Bearer sk_service_…` or the signed-in cookie.',
    },
    paths: {},
    components: {
      schemas: { ErrorBody: ERROR_BODY },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token (`sk_service_…`) or an OAuth access token.' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'baton_session', description: 'The web session of a signed-in person.' },
      },
    },
  };
  for (const file of program.getSourceFiles()) {
    if (!file.fileName.endsWith('.controller.ts') || file.fileName.includes('node_modules')) continue;
    for (const statement of file.statements) {
      if (ts.isClassDeclaration(statement) && decorator(statement, 'Controller')) {
        addController(document, statement, checker, schemas, options.ledger, options.root);
      }
    }
  }
  document.components.schemas = { ...document.components.schemas, ...schemas.components() };
  document.paths = Object.fromEntries(Object.entries(document.paths).sort(([a], [b]) => a.localeCompare(b)));
  return document;
}

function sourceFiles(root: string, pattern: string): string[] {
  return ts.sys.readDirectory(path.join(root, 'src'), ['.ts'], undefined, [pattern]).filter((file) => !file.endsWith('.spec.ts'));
}

/** The project's own compiler settings (tsconfig.build.json), so types resolve as they do in the build. */
function compilerOptions(root: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.build.json'),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  return { ...parsed!.options, noEmit: true, incremental: false };
}

/** The names of every MCP tool (the `name` of each `@McpTool` in `*.tools.ts`), read without booting Baton. */
export function toolNames(root: string): string[] {
  const names: string[] = [];
  for (const file of sourceFiles(root, '**/*.tools.ts')) {
    const source = ts.createSourceFile(file, ts.sys.readFile(file) ?? '', ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      const call = ts.isDecorator(node) ? node.expression : undefined;
      if (call && ts.isCallExpression(call) && ts.isIdentifier(call.expression) && call.expression.text === 'McpTool') {
        const options = call.arguments[0];
        const name = options && ts.isObjectLiteralExpression(options) ? options.properties.find((p) => p.name?.getText() === 'name') : undefined;
        if (name && ts.isPropertyAssignment(name) && ts.isStringLiteralLike(name.initializer)) names.push(name.initializer.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return names.sort();
}

function addController(document: OpenApiDocument, cls: ts.ClassDeclaration, checker: ts.TypeChecker, schemas: SchemaWriter, ledger: ReleaseLedger, root: string): void {
  const ctxRoot = root;
  const bases = stringArgs(decorator(cls, 'Controller')!) ?? [];
  const classPublic = !!decorator(cls, 'Public');
  const tag = tagOf(cls);
  for (const member of cls.members) {
    if (!ts.isMethodDeclaration(member)) continue;
    for (const verb of HTTP_METHODS) {
      const route = decorator(member, verb);
      if (!route) continue;
      const subs = stringArgs(route) ?? compiledPaths(cls, member, ctxRoot);
      for (const base of bases.length ? bases : ['']) {
        for (const sub of subs.length ? subs : ['']) {
          const nestPath = joinPath(base, sub);
          const methods = verb === 'All' ? ['get', 'post', 'put', 'patch', 'delete'] : [verb.toLowerCase()];
          for (const method of methods) {
            const operation = describe(member, method, nestPath, { checker, schemas, classPublic, tag, ledger });
            const key = openApiPath(nestPath);
            (document.paths[key] ??= {})[method] = operation;
          }
        }
      }
    }
  }
}

interface Context {
  checker: ts.TypeChecker;
  schemas: SchemaWriter;
  classPublic: boolean;
  tag: string;
  ledger: ReleaseLedger;
}

function describe(member: ts.MethodDeclaration, method: string, nestPath: string, ctx: Context): Operation {
  const key = routeKey(method, openApiPath(nestPath));
  const added = releaseLabel(ctx.ledger.routes, key);
  const doc = jsDocText(member);
  const traits: RouteTraits = {
    isPublic: ctx.classPublic || !!decorator(member, 'Public'),
    hasPathParams: /[:*]/.test(nestPath),
    hasInput: false,
    writes: method !== 'get' && method !== 'options' && method !== 'head',
  };
  const operation: Operation = {
    operationId: `${ctx.tag}.${(member.name as ts.Identifier).text}`,
    description: [added ? `Added in ${added}.` : 'Release not recorded.', doc].filter(Boolean).join(' '),
    tags: [ctx.tag],
    'x-added-in': added ?? 'unrecorded',
    responses: {},
  };
  if (doc) operation.summary = doc.split(/(?<=\.)\s/)[0];
  const parameters: unknown[] = pathParameters(nestPath);
  for (const parameter of member.parameters) {
    const body = decorator(parameter, 'Body');
    const query = decorator(parameter, 'Query');
    const type = ctx.checker.getTypeAtLocation(parameter);
    if (body) {
      traits.hasInput = true;
      operation.requestBody = { required: true, content: { 'application/json': { schema: ctx.schemas.schemaOf(type) } } };
    } else if (query) {
      traits.hasInput = true;
      const name = stringArgs(query)?.[0];
      if (name) parameters.push({ name, in: 'query', required: false, schema: ctx.schemas.schemaOf(type) });
      else parameters.push(...queryParameters(type, ctx));
    } else if (decorator(parameter, 'Param')) {
      traits.hasInput = true;
    }
  }
  if (parameters.length) operation.parameters = parameters;
  if (!traits.isPublic) operation.security = [{ bearer: [] }, { cookie: [] }];
  const status = httpCode(member) ?? (method === 'post' ? 201 : 200);
  const { answers, body } = answerDocs(member, ctx);
  if (answers.length) {
    for (const answer of answers) {
      const json = answer.contentType?.includes('json');
      const schema = json ? (body ?? {}) : { type: 'string', ...(answer.contentType?.startsWith('text/') ? {} : { format: 'binary' }) };
      const content = answer.contentType ? { [answer.contentType]: { schema } } : undefined;
      operation.responses[String(answer.status)] = content ? { description: answer.description, content } : { description: answer.description };
    }
  } else if (!usesRawResponse(member)) {
    operation.responses[String(status)] = jsonAnswer(member, ctx, status);
  }
  Object.assign(operation.responses, errorAnswers(traits));
  return operation;
}

function jsonAnswer(member: ts.MethodDeclaration, ctx: Context, status: number): unknown {
  const signature = ctx.checker.getSignatureFromDeclaration(member);
  if (!signature) return { description: 'Answered.' };
  const returned = ctx.schemas.unwrapPromise(ctx.checker.getReturnTypeOfSignature(signature));
  if (status === 204 || returned.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) return { description: 'Done; no body.' };
  return { description: 'Answered.', content: { 'application/json': { schema: ctx.schemas.schemaOf(returned) } } };
}

function queryParameters(type: ts.Type, ctx: Context): unknown[] {
  return ctx.checker.getPropertiesOfType(type).map((property) => {
    const propertyType = ctx.checker.getTypeOfSymbol(property);
    return {
      name: property.name,
      in: 'query',
      required: !(property.flags & ts.SymbolFlags.Optional) && !isOptionalByUndefined(propertyType),
      schema: ctx.schemas.schemaOf(propertyType),
    };
  });
}

function isOptionalByUndefined(type: ts.Type): boolean {
  return type.isUnion() && type.types.some((t) => t.flags & ts.TypeFlags.Undefined);
}

function pathParameters(nestPath: string): unknown[] {
  return [...nestPath.matchAll(/[:*]([A-Za-z0-9_]+)/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } }));
}

/** A handler that takes `@Res()` writes the answer itself (`@Res({ passthrough: true })` still returns it). */
function usesRawResponse(member: ts.MethodDeclaration): boolean {
  return member.parameters.some((parameter) => {
    const res = decorator(parameter, 'Res');
    return res && !res.arguments.some((a) => ts.isObjectLiteralExpression(a) && /passthrough:\s*true/.test(a.getText()));
  });
}

function answerDocs(member: ts.MethodDeclaration, ctx: Context): { answers: AnswerDoc[]; body?: unknown } {
  const answers = decorator(member, 'Answers');
  if (!answers) return { answers: [] };
  const literals = answers.arguments.map((argument) => objectLiteralOf(argument, ctx.checker)).filter((l) => l !== undefined);
  const docs = literals.map(
    (literal) =>
      Object.fromEntries(literal.properties.filter(ts.isPropertyAssignment).map((p) => [(p.name as ts.Identifier).text, literalValue(p.initializer)])) as unknown as AnswerDoc,
  );
  const typeNode = answers.typeArguments?.[0];
  return { answers: docs, body: typeNode ? ctx.schemas.schemaOf(ctx.checker.getTypeFromTypeNode(typeNode)) : undefined };
}

/** The object literal an argument is, or the constant (`HTML_PAGE`) it names. */
function objectLiteralOf(node: ts.Expression, checker: ts.TypeChecker): ts.ObjectLiteralExpression | undefined {
  if (ts.isObjectLiteralExpression(node)) return node;
  if (!ts.isIdentifier(node)) return undefined;
  let symbol = checker.getSymbolAtLocation(node);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  return declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && ts.isObjectLiteralExpression(declaration.initializer)
    ? declaration.initializer
    : undefined;
}

function literalValue(node: ts.Expression): unknown {
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  return node.getText();
}

function httpCode(member: ts.MethodDeclaration): number | undefined {
  const code = decorator(member, 'HttpCode');
  const arg = code?.arguments[0];
  return arg && ts.isNumericLiteral(arg) ? Number(arg.text) : undefined;
}

function decorator(node: ts.Node, name: string): ts.CallExpression | undefined {
  for (const d of ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : []) {
    const call = d.expression;
    if (ts.isCallExpression(call) && ts.isIdentifier(call.expression) && call.expression.text === name) return call;
  }
  return undefined;
}

/** The literal paths a route decorator names; undefined when it names them by an expression (see compiledPaths). */
function stringArgs(call: ts.CallExpression): string[] | undefined {
  const first = call.arguments[0];
  if (!first) return [];
  if (ts.isStringLiteralLike(first)) return [first.text];
  if (ts.isArrayLiteralExpression(first) && first.elements.every(ts.isStringLiteralLike)) return first.elements.map((e) => (e as ts.StringLiteralLike).text);
  return undefined;
}

/**
 * The paths of a route whose decorator computes them (`@Post(ROUTES)`), read from the compiled
 * controller's own route metadata in `dist/` (the build compiles before it writes the document).
 */
function compiledPaths(cls: ts.ClassDeclaration, member: ts.MethodDeclaration, root: string): string[] {
  const source = path.relative(root, cls.getSourceFile().fileName).replace(/\.ts$/, '.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled controller, loaded only to read its route metadata
  const compiled = require(path.join(root, 'dist', source)) as Record<string, { prototype: Record<string, object> }>;
  const handler = compiled[cls.name!.text]?.prototype[(member.name as ts.Identifier).text];
  const paths = handler ? (Reflect.getMetadata('path', handler) as string | string[] | undefined) : undefined;
  if (paths === undefined) throw new Error(`${cls.name!.text}.${(member.name as ts.Identifier).text}: route path not found in the compiled controller`);
  return Array.isArray(paths) ? paths : [paths];
}

function joinPath(base: string, sub: string): string {
  return `/${[base, sub].filter(Boolean).join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
}

/** `/projects/:project_id` → `/projects/{project_id}`; a wildcard (`/*rest`, the rest of the path) → `{rest}`. */
export function openApiPath(nestPath: string): string {
  return nestPath.replace(/[:*]([A-Za-z0-9_]+)/g, '{$1}');
}

function tagOf(cls: ts.ClassDeclaration): string {
  return (cls.name?.text ?? 'Routes').replace(/Controller$/, '');
}

function jsDocText(node: ts.Node): string {
  return ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
