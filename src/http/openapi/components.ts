import { array, boolean, email, integer, nullable, object, oneOfValues, string, uri, type Schema } from './schema.ts';

/**
 * The shapes many operations share (docs/api.md "Shapes"); a module's own shapes live in its paths file and are
 * registered here by name so the document refers to each once.
 */
export const sharedSchemas: Record<string, Schema> = {
  Error: object(
    {
      message: string(),
      code: string({ pattern: '^[a-z][a-z0-9_]*$' }),
      errors: { type: 'object', additionalProperties: array(string()), description: 'Each invalid field and its problems' },
    },
    { optional: ['errors'] },
  ),
  Named: object({ id: integer(), name: string() }),
  Person: object({ id: integer(), name: string(), email: nullable(email()) }),
  Money: string({ pattern: '^-?[0-9]+\\.[0-9]{2}$', description: 'An amount in dollars with two decimals; the same amount is given in cents beside it' }),
  Image: nullable(uri()),
  Role: oneOfValues(['patient', 'doctor', 'admin', 'reception']),
  Flag: boolean(),
};
