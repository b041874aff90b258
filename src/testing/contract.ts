import { AssertionError } from 'node:assert';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument, type OpenApiDocument } from '../http/openapi/document.ts';
import { route, type Route } from '../http/router.ts';

// ajv-formats is CommonJS: its default export is module.exports itself under node's ESM loader.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** One answer as the client saw it: `body` parsed when it is JSON, undefined when there is none. */
export interface SeenAnswer {
  method: string;
  /** The request's path, percent-encoded, without the query. */
  path: string;
  status: number;
  contentType?: string | null;
  body: unknown;
}

/** What an answer was checked against: an operation's, the error body of an unknown route, or nothing yet. */
export type Checked = { operation: string } | { unknownRoute: true } | { uncovered: true };

interface Response {
  content?: Record<string, { schema?: unknown }>;
  $ref?: string;
}

/** The OpenAPI dialect's own annotations beside JSON Schema's (OAS 3.1 §4.8.24). */
const OPENAPI_SCHEMA_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];
const DOCUMENT_ID = 'medora-openapi';

/**
 * Checks answers against the OpenAPI document: the operation is found as src/http/router.ts finds a route (the
 * same patterns, HEAD answered as GET), then its status must be one the operation lists and a JSON body must
 * match that status's schema. A path no operation matches must be answered 404 or 405 with the error body,
 * unless `routeExists` says the server has a route there that the document lacks: that answer is recorded as
 * uncovered (the completeness test in src/http/openapi/document.test.ts fails on it).
 */
export class Contract {
  readonly document: OpenApiDocument;
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument = openApiDocument()) {
    this.document = document;
    this.ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(this.ajv);
    // The document's own fields are words the root "schema" may hold; only the schemas inside it are compiled.
    this.ajv.addVocabulary([...Object.keys(document), ...OPENAPI_SCHEMA_KEYWORDS, 'x-medora-access']);
    this.ajv.addSchema(document, DOCUMENT_ID);
    const noAnswer = async () => ({});
    this.routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => route(method.toUpperCase(), path, 'public', noAnswer)),
    );
  }

  /**
   * Throws an AssertionError naming the operation, the status and what is wrong when the answer breaks the
   * contract; otherwise says which operation it validated the answer of, if any.
   */
  checkAnswer(answer: SeenAnswer, routeExists: (method: string, path: string) => boolean = () => false): Checked {
    const found = this.operationOf(answer.method, answer.path);
    if (!found) {
      if (routeExists(answer.method, answer.path)) return { uncovered: true };
      const key = `${answer.method} ${answer.path}`;
      if (answer.status !== 404 && answer.status !== 405)
        this.fail(key, answer, 'no operation in the document has this path and method');
      if (answer.method === 'HEAD') return { unknownRoute: true };
      if (!isJson(mediaTypeOf(answer)))
        this.fail(key, answer, 'an unknown route is answered with the error body, in JSON');
      this.checkJson(key, answer, '/components/schemas/Error');
      return { unknownRoute: true };
    }
    const { key, pointer } = found;
    const responses = this.at(pointer).responses as Record<string, Response>;
    const status = String(answer.status);
    const response = responses[status];
    if (!response)
      this.fail(key, answer, `the status is not one the operation answers (${Object.keys(responses).join(', ')})`);
    const [responsePointer, resolved] = response.$ref
      ? [response.$ref.slice(1), this.at(response.$ref.slice(1)) as Response]
      : [`${pointer}/responses/${status}`, response];
    this.checkBody(key, answer, responsePointer, resolved);
    return { operation: key };
  }

  /** The operation answering `method path`: the literal path before templated ones, as OpenAPI orders them. */
  operationOf(method: string, path: string): { key: string; pointer: string } | undefined {
    const asked = method === 'HEAD' ? 'GET' : method;
    const candidates = this.routes.filter((candidate) => candidate.method === asked && candidate.pattern.test(path));
    const best = candidates.sort((a, b) => parameterCount(a.path) - parameterCount(b.path))[0];
    return (
      best && {
        key: `${best.method} ${best.path}`,
        pointer: `/paths/${escapePointer(best.path)}/${best.method.toLowerCase()}`,
      }
    );
  }

  /** What makes `body` other than the API's one error body, or undefined when it is one. */
  errorBodyProblems(body: unknown): string | undefined {
    const validate = this.validator('/components/schemas/Error');
    return validate(body) ? undefined : this.ajv.errorsText(validate.errors);
  }

  private checkBody(key: string, answer: SeenAnswer, responsePointer: string, response: Response): void {
    const content = response.content ?? {};
    const mediaType = mediaTypeOf(answer);
    if (answer.body === undefined || answer.method === 'HEAD') return;
    if (!mediaType) this.fail(key, answer, 'a body without a content type');
    const described = Object.keys(content).find((type) => mediaTypeMatches(type, mediaType));
    if (!described)
      this.fail(
        key,
        answer,
        `the content type ${mediaType} is not one the document gives this status (${Object.keys(content).join(', ') || 'none'})`,
      );
    if (isJson(mediaType) && content[described]?.schema !== undefined)
      this.checkJson(key, answer, `${responsePointer}/content/${escapePointer(described)}/schema`);
  }

  private checkJson(key: string, answer: SeenAnswer, schemaPointer: string): void {
    const validate = this.validator(schemaPointer);
    if (!validate(answer.body)) {
      const problems = (validate.errors ?? []).map(
        (error) =>
          `  ${error.instancePath || '(the body)'} ${error.message}${error.keyword === 'additionalProperties' ? `: ${JSON.stringify(error.params)}` : ''}`,
      );
      this.fail(key, answer, `the body does not match the document:\n${problems.join('\n')}`);
    }
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private at(pointer: string): Record<string, unknown> {
    let value: unknown = this.document;
    for (const part of pointer.split('/').slice(1))
      value = (value as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    return value as Record<string, unknown>;
  }

  private fail(key: string, answer: SeenAnswer, problem: string): never {
    const body = JSON.stringify(answer.body)?.slice(0, 500);
    throw new AssertionError({
      message: `contract: ${key} (${answer.method} ${answer.path}) answered ${answer.status}: ${problem}\n  body: ${body}`,
    });
  }
}

const parameterCount = (path: string) => path.split('{').length - 1;
const escapePointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');
const mediaTypeOf = (answer: SeenAnswer) => answer.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');
const mediaTypeMatches = (described: string, actual: string) =>
  described === actual ||
  described === '*/*' ||
  (described.endsWith('/*') && actual.startsWith(described.slice(0, -1)));

let shared: Contract | undefined;
/** The document compiled once per process. */
export const contract = (): Contract => (shared ??= new Contract());
