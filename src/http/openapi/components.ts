import {
  GenderShape,
  ImageShape,
  MoneyShape,
  NamedShape,
  PersonShape,
  RoleShape,
  UserShape,
} from '../../domain/shared/shared-shapes.ts';
import { PageQuery } from '../../domain/shared/pagination.ts';
import { array, object, propertiesOf, string, type Schema } from '../../domain/shared/wire-schema.ts';

/**
 * The shapes many operations share (docs/api.md "Shapes"); a module's own shapes live in its paths file and are
 * registered here by name so the document refers to each once.
 */
export const sharedSchemas: Record<string, Schema> = {
  Error: object(
    {
      message: string(),
      code: string({ pattern: '^[a-z][a-z0-9_]*$' }),
      errors: {
        type: 'object',
        additionalProperties: array(string()),
        description: 'Each invalid field and its problems',
      },
    },
    { optional: ['errors'] },
  ),
  Named: NamedShape,
  Person: PersonShape,
  Money: MoneyShape,
  Image: ImageShape,
  Role: RoleShape,
  Gender: GenderShape,
  User: UserShape,
};

/** The query parameters of every list (docs/api.md "Lists"): `q`, `page`, `per_page`. */
export const pageQuery = propertiesOf(PageQuery);
