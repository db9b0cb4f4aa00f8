import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** One error a route answers: status, when it happens, and the message (and code) it sends. */
export interface ApiErrorCase {
  status: number;
  /** For the document: when this answer comes. */
  when: string;
  /** The message a client receives, as the example. */
  message: string;
  /** The route's own code; without one the status's (not_found, conflict…) is shown. */
  code?: string;
}

/**
 * Declares error answers of a route in the OpenAPI document, with the one error shape
 * (`ErrorResponse`). Every status a route answers must be declared: the e2e response contract
 * fails a suite on an undeclared one. Cases of one status are merged into one answer (OpenAPI
 * has one answer per status): their descriptions joined, the first one as the example.
 */
export function ApiErrors(...cases: ApiErrorCase[]) {
  const byStatus = new Map<number, ApiErrorCase[]>();
  for (const c of cases) byStatus.set(c.status, [...(byStatus.get(c.status) ?? []), c]);
  return applyDecorators(
    ...[...byStatus].map(([status, all]) =>
      ApiResponse({
        status,
        description: all.map((c) => (c.code ? `${c.when} (${c.code})` : c.when)).join('; '),
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/ErrorResponse' },
            example: { statusCode: status, message: all[0].message, ...(all[0].code ? { code: all[0].code } : {}) },
          },
        },
      }),
    ),
  );
}

/** `ApiErrors({ status, when, message, code })` for one case. */
export const ApiError = (status: number, when: string, message: string, code?: string) => ApiErrors({ status, when, message, code });
