import * as z from 'zod/mini';
import { errorCatalogue, type ErrorCode, type ErrorDomain } from '../errors/catalogue.ts';

/** The domains of the catalogue's codes, in catalogue order. */
const domains = [...new Set(Object.values(errorCatalogue).map((entry) => entry.domain))] as [
  ErrorDomain,
  ...ErrorDomain[],
];

/**
 * The unified error body, as a named schema every error response refers to; the service's
 * `ErrorBody` type (lib/errors/app-error.ts) is inferred from it.
 */
export const ErrorBody = z.object({
  error_code: z.enum(Object.keys(errorCatalogue) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  domain: z.enum(domains),
  request_id: z.string(),
  details: z.optional(z.array(z.object({ field: z.string(), error_code: z.string(), message: z.string() }))),
});
