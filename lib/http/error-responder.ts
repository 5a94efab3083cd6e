import type { MiddlewareObj } from '@middy/core';
import type { Logger } from '@aws-lambda-powertools/logger';
import { AppError, errorBody } from '../errors/app-error.ts';
import { preferredLanguage } from '../errors/language.ts';
import { ANSWER_HEADERS } from './answer-headers.ts';
import type { ServiceEvent, ServiceResult } from './event.ts';

/** Anything that is not an {@link AppError} is a bug or an outage: log it whole, answer 500. */
const asAppError = (error: unknown): AppError =>
  error instanceof AppError ? error : new AppError('INTERNAL_ERROR', {}, [], { cause: error });

/**
 * Middleware: the last word on every failed request. Renders the unified error body in the
 * caller's language; a 5xx says nothing about its cause, which goes to the log instead.
 * Registered first so that its `onError` runs after every other middleware's.
 *
 * @example
 * ```ts
 * middy().use(errorResponder({ logger }));
 * ```
 */
export const errorResponder = (options: { logger: Logger }): MiddlewareObj<ServiceEvent, ServiceResult> => ({
  onError: (request) => {
    const error = asAppError(request.error);
    if (error.statusCode >= 500)
      options.logger.error('request failed', { error_code: error.code, error: error.cause ?? error });
    else options.logger.info('request rejected', { error_code: error.code, status: error.statusCode });
    const headers = request.event.headers ?? {};
    const language = preferredLanguage(headers['accept-language'] ?? headers['Accept-Language']);
    request.response = {
      statusCode: error.statusCode,
      headers: { ...ANSWER_HEADERS, ...error.headers },
      body: JSON.stringify(errorBody(error, language, request.event.requestContext?.requestId)),
    };
  },
});
